#!/usr/bin/env python3
"""Run the host unit-test binaries given as arguments and add up their
"NAME: N passed, N failed" lines. Exit 0 only if every binary ran, printed
its line and reported no failure, and check.h refuses a check without its
message (probe_messages: silent when it does, so the counts stay the
binaries' own)."""
import os
import re
import subprocess
import sys

LINE = re.compile(r"^(\S+): (\d+) passed, (\d+) failed$", re.M)
HERE = os.path.dirname(os.path.abspath(__file__))
# Each check macro once with its message (must compile) and once without
# (must not): the message is mandatory, not a convention.
WITH = ('CHECK(1, "one"); CHECK_EQ_U64(1, 1, "one %d", 1); '
        'CHECK_STR("a", "a", "letter %s", "a");')
WITHOUT = ["CHECK(1);", "CHECK_EQ_U64(1, 1);", 'CHECK_STR("a", "a");', 'CHECK(1, "");']


def compiles(body):
    """True if a file calling body from main compiles against check.h with
    the unit tests' warnings."""
    src = f'#include "check.h"\nint main(void) {{ {body} return check_summary("probe"); }}\n'
    cc = os.environ.get("CC") or "gcc"
    try:
        p = subprocess.run([cc, "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                            "-I", os.path.join(HERE, "unit"), "-x", "c", "-"],
                           input=src, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"unit: check.h probe: {cc}: {e}")
        return None
    return p.returncode == 0


def probe_messages():
    """Number of problems: 0 if check.h takes WITH and refuses each of WITHOUT."""
    ok = compiles(WITH)
    if ok is None:
        return 1
    if not ok:
        print("unit: check.h probe: checks with messages do not compile")
        return 1
    bad = [b for b in WITHOUT if compiles(b) is not False]
    for b in bad:
        print(f"unit: check.h probe: `{b}` compiled (or the compiler failed); "
              "a check must carry a message")
    return len(bad)


def main(bins):
    passed = 0
    failed = probe_messages()
    for b in bins:
        try:
            p = subprocess.run([b], capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            print(f"unit: {b}: timed out after 120 s")
            failed += 1
            continue
        sys.stdout.write(p.stdout)
        sys.stdout.write(p.stderr)
        m = LINE.findall(p.stdout)
        if not m:
            print(f"unit: {b}: exited {p.returncode} without its summary line")
            failed += 1
            continue
        passed += int(m[-1][1])
        failed += int(m[-1][2])
        if p.returncode != 0 and int(m[-1][2]) == 0:
            print(f"unit: {b}: exit status {p.returncode}")
            failed += 1
    print(f"unit: {passed} passed, {failed} failed")
    build = os.environ.get("BENCH_BUILD") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build")
    os.makedirs(os.path.join(build, "results"), exist_ok=True)
    with open(os.path.join(build, "results", "unit.txt"), "w") as f:
        f.write(f"{passed} {failed} 0\n")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

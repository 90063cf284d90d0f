#!/usr/bin/env python3
"""Run the host unit-test binaries given as arguments and add up their
"NAME: N passed, N failed" lines. Exit 0 only if every binary ran, printed
its line and reported no failure."""
import os
import re
import subprocess
import sys

LINE = re.compile(r"^(\S+): (\d+) passed, (\d+) failed$", re.M)


def main(bins):
    passed = failed = 0
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

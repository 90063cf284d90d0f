#!/usr/bin/env python3
"""tests/boot/run_boot_tests.py - boot the image under QEMU and check what it prints.

Tests are the test_* functions of the modules tests/boot/t_*.py; each boots
machines of the table tests/boot/machines.py, and what they share is in
tests/boot/qemu.py. Every QEMU run has a timeout. Each test prints PASS,
FAIL (with the reason and the last lines of the log) or SKIP (with the
reason); an unexpected exception is printed with its traceback
(tests/runner.py). Then the suite's wall time and the sum of the tests'
own times; the last line is "boot: N passed, N failed, N skipped". Logs
are kept in build/logs/test-*.log.

Tests run J at a time, as `make -jN` runs jobs: J is BOOT_JOBS when set
(BOOT_JOBS=1: one after another, in the order of the files), else make's -jN
(MAKEFLAGS; a bare -j, or none: `make check` alone), else the number of
CPUs. The longest first: each test's time in the last run
(build/boot-times.txt), or, for a test not run before, the largest timeout
of the machines it boots. A test that boots a machine marked alone runs
with no other test beside it. A test's machines are the table's names its
code holds (machines_of below).

    python3 tests/boot/run_boot_tests.py            # all tests
    python3 tests/boot/run_boot_tests.py icount     # tests whose name contains "icount"
    BOOT_JOBS=1 python3 tests/boot/run_boot_tests.py
"""
import glob
import importlib
import os
import re
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
import machines  # noqa: E402
from qemu import BUILD, ISO, KERNEL32, Skip  # noqa: E402
from runner import run_tests, summarize  # noqa: E402

TIMES = os.path.join(BUILD, "boot-times.txt")  # outside results/, which `make check` empties


def collect():
    tests = []
    for path in sorted(glob.glob(os.path.join(HERE, "t_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        tests += [(mod.__name__, getattr(mod, n)) for n in dir(mod)
                  if n.startswith("test_") and callable(getattr(mod, n))]
    return tests


def jobs():
    """How many tests run at a time, 1 or more (see above); SystemExit for a
    BOOT_JOBS that is not a positive whole number."""
    if os.environ.get("BOOT_JOBS"):
        if not os.environ["BOOT_JOBS"].isdigit() or int(os.environ["BOOT_JOBS"]) < 1:
            raise SystemExit(f"boot: BOOT_JOBS={os.environ['BOOT_JOBS']!r} is not a number of jobs (1, 2, ...)")
        return int(os.environ["BOOT_JOBS"])
    for word in os.environ.get("MAKEFLAGS", "").split():
        m = re.fullmatch(r"-j(\d*)|--jobs(?:=(\d+))?", word)
        if m and (m.group(1) or m.group(2)):
            return int(m.group(1) or m.group(2))
    return os.cpu_count() or 1


def constants(value):
    """The strings in a code constant (tuples of them included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (tuple, frozenset)):
        return [s for v in value for s in constants(v)]
    return []


def machines_of(test):
    """The names of the table's machines among the constants of test's code
    and of the functions and classes of tests/boot it uses by name (their
    default arguments too), followed through: the machines it boots, for
    the order and for alone; and those of its attribute boots, for a test
    whose runs are named elsewhere (t_same_output.py)."""
    found, seen, todo = set(), set(), [test]
    while todo:
        f = todo.pop()
        f = f.__init__ if isinstance(f, type) else f
        code = getattr(f, "__code__", None)
        if code is None or code in seen or not code.co_filename.startswith(HERE):
            continue
        seen.add(code)
        values = list(f.__defaults__ or ()) + list((f.__kwdefaults__ or {}).values())
        codes = [code]
        while codes:
            c = codes.pop()
            values += c.co_consts
            codes += [k for k in c.co_consts if isinstance(k, types.CodeType)]
            todo += [f.__globals__[n] for n in c.co_names if callable(f.__globals__.get(n))]
        found |= {s for v in values for s in constants(v) if s in machines.MACHINES}
    return found | set(getattr(test, "boots", ()))


def read_times():
    """{test: seconds it took in the last run} from build/boot-times.txt
    ("SECONDS NAME" lines); {} when there is none or it is damaged."""
    try:
        with open(TIMES) as f:
            return {name: float(t) for t, name in (line.split() for line in f if line.strip())}
    except (OSError, ValueError):
        return {}


def write_times(times):
    """Write {test: seconds} to build/boot-times.txt (the tests of a run
    of some tests update theirs, the others keep the last they had)."""
    with open(TIMES, "w") as f:
        f.writelines(f"{t:.1f} {name}\n" for name, t in sorted(times.items()))


def main(argv):
    for f in (KERNEL32, ISO):
        if not os.path.exists(f):
            print(f"boot: {f} is missing: run 'make kernel iso' first")
            return 2
    selected = [(f"{m[2:]}.{t.__name__[len('test_'):]}", t) for m, t in collect()
                if not argv or any(a in t.__name__ for a in argv)]
    j, times = jobs(), read_times()
    boots = {name: machines_of(t) for name, t in selected}
    alone = {name for name, ms in boots.items() if any(machines.get(m).alone for m in ms)}
    if j > 1:  # alone first (nothing to wait for), then the longest first
        hint = {name: times.get(name, max((machines.get(m).timeout for m in ms), default=0))
                for name, ms in boots.items()}
        selected.sort(key=lambda nt: (nt[0] not in alone, -hint[nt[0]]))

    def started(name, by_itself):
        machines.scheduled.alone = by_itself
    t0 = time.time()
    results = run_tests(selected, Skip, j, alone, started)
    wall = time.time() - t0
    times.update({name: seconds for name, _, seconds in results})
    write_times(times)
    print(f"boot: wall time {wall:.1f} s, {j} test{'s' if j > 1 else ''} at a time; "
          f"the tests' own times add up to {sum(s for _, _, s in results):.1f} s")
    return summarize("boot", results, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

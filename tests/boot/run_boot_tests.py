#!/usr/bin/env python3
"""tests/boot/run_boot_tests.py - boot the image under QEMU and check what it prints.

Tests are the test_* functions of the modules tests/boot/t_*.py; what they
share is in tests/boot/qemu.py. Every QEMU run has a timeout. Each test prints
PASS, FAIL (with the reason and the last lines of the log) or SKIP (with the
reason); an unexpected exception is printed with its traceback
(tests/runner.py); the last line is "boot: N passed, N failed, N skipped".
Logs are kept in build/logs/test-*.log.

    python3 tests/boot/run_boot_tests.py            # all tests
    python3 tests/boot/run_boot_tests.py icount     # tests whose name contains "icount"
"""
import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
from qemu import BUILD, ISO, KERNEL32, Skip  # noqa: E402
from runner import run_all  # noqa: E402


def collect():
    tests = []
    for path in sorted(glob.glob(os.path.join(HERE, "t_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        tests += [(mod.__name__, getattr(mod, n)) for n in dir(mod)
                  if n.startswith("test_") and callable(getattr(mod, n))]
    return tests


def main(argv):
    for f in (KERNEL32, ISO):
        if not os.path.exists(f):
            print(f"boot: {f} is missing: run 'make kernel iso' first")
            return 2
    selected = [(m, t) for m, t in collect() if not argv or any(a in t.__name__ for a in argv)]
    return run_all("boot", [(f"{m[2:]}.{t.__name__[len('test_'):]}", t) for m, t in selected], Skip, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

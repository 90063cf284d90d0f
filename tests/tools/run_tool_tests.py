#!/usr/bin/env python3
"""tests/tools/run_tool_tests.py - test the host tools (tools/bench.py capture,
report, qr, compare, asm, and store, table and plot of a lab database;
tools/benchlog/, tools/benchdb.py, tools/benchqr.py) on logs the kernel
really printed.

Tests are the test_* functions of the modules tests/tools/t_*.py, one topic
each (t_report, t_compact, t_log, t_compare, t_capture, t_asm, t_plan_asm,
t_store, t_plot, t_qr, t_cpus, ...), run module by module in name order and in the order
written within a module; what they share (the real logs, booted under QEMU
with a timeout and cached in $BENCH_BUILD/logs/tools-*.log, and running the
tools as commands) is in tests/tools/common.py. Outputs are kept in
$BENCH_BUILD/tools-tests/<test>/.

Each test prints PASS, FAIL (with the reason; an unexpected exception with
its traceback: tests/runner.py) or SKIP (with the reason); the last line is
"tools: N passed, N failed, N skipped", also written as "P F S" to
$BENCH_BUILD/results/tools.txt. Exit status 1 when a test failed.

    /usr/bin/python3 tests/tools/run_tool_tests.py            # all tests
    /usr/bin/python3 tests/tools/run_tool_tests.py capture    # names containing "capture"
"""
import glob
import importlib
import inspect
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
from common import BUILD, KERNEL, PY, Skip  # noqa: E402
from runner import run_all  # noqa: E402


def collect():
    """The test functions of every t_*.py, in name order, each module's in
    the order written."""
    tests = []
    for path in sorted(glob.glob(os.path.join(HERE, "t_*.py"))):
        mod = importlib.import_module(os.path.basename(path)[:-3])
        if os.path.dirname(os.path.abspath(mod.__file__)) != HERE:  # a module of that name found first elsewhere
            raise SystemExit(f"tools: {path} is shadowed by {mod.__file__} on sys.path")
        tests += [f for n, f in vars(mod).items() if n.startswith("test_") and inspect.isfunction(f)
                  and f.__module__ == mod.__name__]
    return tests


def main(argv):
    if not os.path.exists(KERNEL):
        print(f"tools: {KERNEL} is missing: run 'make kernel' (BUILD={BUILD}) first")
        return 2
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        print(f"tools: WARNING: matplotlib is not available to {PY}: the figure checks will fail "
              "(Debian: apt-get install python3-matplotlib, and run this with /usr/bin/python3)")
    selected = [t for t in collect() if not argv or any(a in t.__name__ for a in argv)]
    return run_all("tools", [(t.__name__[len("test_"):], t) for t in selected], Skip, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

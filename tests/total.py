#!/usr/bin/env python3
"""Add up the suites' results (build/results/*.txt: "passed failed skipped")
into the one closing line of `make check`, after a line with each suite's
counts and the wall time of the whole `make check` (from
build/results/started, written when it began): a figure, not a pass/fail
goal. Exit 1 if any suite failed or left no result."""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = skipped = 0
for suite in sys.argv[1:]:
    build = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
    path = os.path.join(build, "results", suite + ".txt")
    try:
        p, f, s = (int(x) for x in open(path).read().split())
    except (OSError, ValueError):
        print(f"check: suite {suite} left no result ({path})")
        failed += 1
        continue
    passed, failed, skipped = passed + p, failed + f, skipped + s
build = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
try:
    with open(os.path.join(build, "results", "started")) as f:
        wall = time.time() - int(f.read().strip())
    print(f"check: make check took {wall / 60:.1f} min wall time on {os.cpu_count()} cores "
          f"(load average at the end {os.getloadavg()[0]:.1f})")
except (OSError, ValueError):
    pass
print(f"check: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or not passed else 0)

"""tests/tools/t_compare.py - `bench.py compare`: the ratios B/A of two real
runs' figures, and the environments that differ (a method only one run
skipped).
"""
import re

from common import bench, boot, check, records, unwrapped


def test_compare_ratios():
    a, b = boot("tcg"), boot("icount")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"exit status {rc}", out)
    sa = {(s["method"], s["workload"]): s for s in records(a, "summary")}
    sb = {(s["method"], s["workload"]): s for s in records(b, "summary")}
    for key in sa:
        m, w = key
        check(f"\n{m}/{w} (A: " in out, f"no section for {m}/{w}", out)
        x, y = sa[key]["min_of_mins"], sb[key]["min_of_mins"]
        want = f"{y / x:.3g}" if x else ("- (both 0)" if y == 0 else "inf (A is 0)")
        label = "offset \\(min of mins\\)" if w == "empty" else "min of mins"
        check(re.search(rf"\n  {label} +{x} TSC ticks +{y} TSC ticks +{re.escape(want)}\n", out),
              f"{m}/{w}: least-minimum row with ratio {want} missing", out)
    check(re.search(r"figure +A +B +B/A", out), "no B/A column", out)
    check(re.search(r"total variance +\d+ TSC ticks\^2 +0 TSC ticks\^2 +0\n", out),
          "no total variance row with its units and ratio", out)
    check(re.search(r"\n  cpu brand +same: QEMU TCG CPU", out), "no cpu brand row", out)


def test_compare_environments_differ():
    a, b = boot("tcg"), boot("qemu64")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"exit status {rc}", out)
    check(re.search(r"\n  cpu brand +DIFFERS:\n +A: \S.*\n +B: \S", out),
          "the cpu brands differ but are not flagged", out)
    for label in ("hypervisor", "boot loader"):
        check(re.search(rf"  {label} +\S", out), f"no {label} row", out)
    check(re.search(r"\nOnly in A: .*\brdtscp/empty\b", unwrapped(out)) and "Skipped in B: method rdtscp: " in out,
          "the skipped method is not reported", out)

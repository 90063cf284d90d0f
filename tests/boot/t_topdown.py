"""tests/boot/t_topdown.py - events=topdown: code='s TMA level 1 (issue 30:
"retiring, bad speculation, front-end bound, back-end bound per slot";
lib/topdown.c, bench/evtopdown.c) in the fake PMU test build under QEMU
-icount, on Skylake-Client (the Sandy Bridge..Cascade Lake set, SLOTS = 4
CPU_CLK_UNHALTED.THREAD). Every event counts instructions retired there,
so each of the five events' per-copy figure is the same X (1 for
4801c0), and intel/perfmon's formulas give exactly: retiring X / 4X =
25.0%, front-end bound 25.0%, bad speculation (X - X + 4X) / 4X = 100.0%,
back-end bound 1 - the three = -50.0%, which is said, not clamped."""
import os

import builds
from qemu import bench_report, check, expect_complete, qemu

METHODS = ("rdtscp",)
ARGS = f"ensembles=2 samples=10 warmup=2 methods={','.join(METHODS)} workloads=add_chain_64 events=topdown code=4801c0 unroll=10"
SET = ("CPU_CLK_UNHALTED.THREAD", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY", "UOPS_RETIRED.RETIRE_SLOTS",
       "INT_MISC.RECOVERY_CYCLES")


def test_topdown_fake_pmu_icount():
    """One topdown line and record per method, the fractions exactly as the
    SKL formulas make them of five equal per-copy figures, the one out of
    range named, marked unverified exactly when an input is."""
    build = builds.fake_pmu()
    rc, text = qemu("topdown-fake", "icount-intel", ARGS, image=os.path.join(build, "bench32.elf"),
                    cpu="Skylake-Client")
    run = expect_complete(rc, text)
    for m in METHODS:
        pcs = [run.one("event_per_copy", method=m, workload="code", event=ev) for ev in SET]
        check(all(p["per_copy"] == "1.000" and p["status"] == "exact" for p in pcs),
              f"{m}: the five per-copy figures are not all exactly 1: {pcs}", text)
        verified = all(p["verified"] for p in pcs)
        r = run.one("topdown", method=m, workload="code")
        want = {"set": "SKL", "source": "intel/perfmon TMA_Metrics", "retiring": "0.250",
                "bad_speculation": "1.000", "frontend_bound": "0.250", "backend_bound": "-0.500",
                "status": "a fraction outside 0..100%: back-end bound", "exact": True, "verified": verified}
        for k, v in want.items():
            check(r.get(k) == v, f"{m}: topdown record {k} = {r.get(k)!r}, expected {v!r}: {r}", text)
        line = (f"topdown {m} code: retiring 25.0%, bad speculation 100.0%, front-end bound 25.0%, "
                f"back-end bound -50.0% of SLOTS (TMA level 1, intel/perfmon TMA_Metrics SKL) "
                f"(a fraction outside 0..100%: back-end bound)" + ("" if verified else " (unverified)"))
        check(line in run.lines, f"{m}: no line {line!r}", text)
    p, shown = bench_report(text)
    check(p.returncode == 0, f"tools/bench.py report rejects the log:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    want = (f"  {METHODS[0]}, code: retiring 0.250, bad speculation 1.000, front-end bound 0.250, back-end bound "
            f"-0.500 (intel/perfmon TMA_Metrics SKL; a fraction outside 0..100%: back-end bound)")
    check(want in shown + p.stdout, f"tools/bench.py report does not show {want!r}", text)

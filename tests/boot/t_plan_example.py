"""tests/boot/t_plan_example.py - the shipped plan's experiments
(iso/plan.txt, made by `tools/bench.py plan tools/plan-example.asm`) each
booted as a plain command line (the defaults' words, the experiment's, then
a small run's), exact under -icount: each completes, no fault in its init
or code, and its 2N-N figure per copy is the instructions one copy retires
(QEMU's -icount TSC counts instructions), so the bytes are the code the
.asm says."""
import os
import sys

from qemu import ROOT, check, expect_complete, qemu

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchplan  # noqa: E402

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp"
# Instructions one copy of each experiment's code retires (tools/plan-example.asm).
PER_COPY = {"imul_lat": 1, "add_tput": 4, "chase": 1, "store_fwd": 2,
            "branch_miss": 13}  # 9 for the xorshift, TEST, Jcc, then 2 on either path


def test_plan_example_each_experiment_runs_icount():
    """Each experiment of iso/plan.txt as a command line: complete, no code fault,
    its per copy figure exactly the instructions of one copy."""
    with open(os.path.join(ROOT, "iso", "plan.txt"), "rb") as f:
        plan = benchplan.parse(f.read(), "iso/plan.txt")
    check(not plan.problems, f"iso/plan.txt: {plan.problems}")
    names = [e.name for e in plan.experiments]
    check(names == list(PER_COPY), f"iso/plan.txt's experiments {names}, expected {list(PER_COPY)}")
    for e in plan.experiments:
        rc, text = qemu(f"plan-example-{e.name}", "icount", f"{plan.defaults} {e.words} {SMALL}")
        run = expect_complete(rc, text)
        check(not run.by("code_fault"), f"{e.name}: its code faulted: {run.by('code_fault')}", text)
        pc = run.one("per_copy", method="rdtscp", unit="tsc_ticks")
        want = PER_COPY[e.name]
        check(pc["num"] == want and pc["den"] == 1 and pc["per_copy"] == f"{want}.000",
              f"{e.name}: per copy {pc}, expected exactly {want} TSC ticks (instructions under -icount)", text)

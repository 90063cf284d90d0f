"""tests/boot/t_pmu.py - the architectural fixed counters (CTR0 instructions
retired, CTR1 core cycles). QEMU TCG has no PMU (CPUID.0AH version 0, MSRs
read 0 without a fault, RDPMC raises #UD): every path must say why it
cannot count, and the run completes. The programming logic itself is tested
on the host against fake CPUs (tests/unit/test_pmu.c)."""
import os

from qemu import check, expect_complete, expect_method_ran, qemu

QUICK = "ensembles=3 samples=100 workloads=add_chain_64"


def test_no_pmu_under_tcg():
    """pmu=auto: the header says why there are no fixed counters; Goossens'
    methods print one skip line each; no counter record pretends to count."""
    rc, text = qemu("pmu-auto", "q35-tcg-intel", QUICK)
    run = expect_complete(rc, text)
    check(run.has_line("env: pmu: architectural performance monitoring: none: CPUID.0AH:EAX[7:0]=0"),
          "no PMU header line naming CPUID.0AH", text)
    for label in ("fixed ctr0 (instructions retired", "fixed ctr1 (unhalted core cycles"):
        check(any(l.startswith("env: pmu: " + label) and ": no: " in l for l in run.lines),
              f"no 'no' line for {label}", text)
    pmu = run.one("pmu")
    check(pmu["version"] == 0, f"pmu record {pmu}", text)
    for m in ("ctr_rdmsr", "ctr_rdpmc"):
        skip = run.one("skip", method=m)
        check("IA32_FIXED_CTR0" in skip["reason"], f"{m}: skip reason {skip}", text)
        check(not run.by("ensemble", method=m), f"{m} measured without counters", text)
    check(run.has_line("counters: none read beside the TSC methods: "), "no counters-choice line", text)
    check(not run.by("ensemble", unit="core_cycles") and not run.by("ensemble", unit="instructions"),
          "counter samples printed although nothing counts", text)
    expect_method_ran(run, "rdtscp", 3, 100)


def test_pmu_force_detects_not_counting():
    """pmu=force programs the counters anyway (TCG ignores the writes): the
    counting check must find that they do not move."""
    rc, text = qemu("pmu-force", "q35-tcg-intel", QUICK + " pmu=force")
    run = expect_complete(rc, text)
    for label in ("fixed ctr0", "fixed ctr1"):
        lines = [l for l in run.lines if l.startswith(f"env: pmu: {label} ")]
        check(lines and "not counting" in lines[0], f"{label}: no 'not counting' line: {lines}", text)
    for m in ("ctr_rdmsr", "ctr_rdpmc"):
        run.one("skip", method=m)
    check(run.one("config")["problems"] == 0, "pmu=force reported as a problem", text)


def test_pmu_off():
    """pmu=off touches nothing and says so."""
    rc, text = qemu("pmu-off", "q35-tcg", QUICK + " pmu=off")
    run = expect_complete(rc, text)
    check(any(l.startswith("env: pmu: ") and "pmu=off" in l for l in run.lines), "no pmu=off line", text)
    check(run.one("pmu")["mode"] == "off", "pmu record mode", text)


def test_pmu_bad_value():
    rc, text = qemu("pmu-bad", "q35-tcg", QUICK + " pmu=sometimes problems=ignore")
    run = expect_complete(rc, text)
    check(run.has_line("config: pmu=sometimes is not an accepted value; accepted: auto off force; keeping auto"),
          "no message for pmu=sometimes", text)


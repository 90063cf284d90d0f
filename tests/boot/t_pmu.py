"""tests/boot/t_pmu.py - the architectural fixed counters (CTR0 instructions
retired, CTR1 core cycles). QEMU TCG has no PMU (CPUID.0AH version 0, MSRs
read 0 without a fault, RDPMC raises #UD): every path must say why it
cannot count, and the run completes. The programming logic itself is tested
on the host against fake CPUs (tests/unit/test_pmu.c)."""
import os

import builds
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


def test_pmu_layout_line_under_tcg():
    """The line naming every general-purpose counter CPUID enumerates: none
    under QEMU TCG's Intel model (CPUID.0AH version 0), with the reason;
    the pmu record's layout object says the same."""
    rc, text = qemu("pmu-layout-tcg", "q35-tcg-intel", QUICK + " methods=rdtscp")
    run = expect_complete(rc, text)
    check(run.has_line("env: pmu: general-purpose counters: none: CPUID.0AH:EAX[7:0]=0: no architectural "
                       "performance monitoring"), "no general-purpose counters line naming CPUID.0AH", text)
    layout = run.one("pmu")["layout"]
    check(layout["gp_counters"] == 0 and "CPUID.0AH" in layout["why"], f"pmu layout {layout}", text)


def test_fake_pmu_build():
    """make FAKE_PMU=1 (kernel/pmu.h BENCH_FAKE_PMU): CPUID.0AH faked as
    version 4 with 8 GP and 3 fixed counters of 48 bits, the PMU MSRs in
    memory, RDPMC read as RDTSC. The env says so in one line, the layout line
    names 8 GP counters with IA32_PERFEVTSEL0-7, and the fixed counters,
    whose MSRs are memory, do not move and are not used."""
    build = builds.fake_pmu()
    rc, text = qemu("pmu-fake", "icount-intel", QUICK + " methods=rdtscp",
                    image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    fake = [l for l in run.lines if l.startswith("env: pmu: FAKE PMU test build (BENCH_FAKE_PMU): ")]
    check(len(fake) == 1, f"one fake-PMU line expected: {fake}", text)
    check(run.has_line("env: pmu: architectural performance monitoring version 4 (CPUID.0AH: EAX=0x07300804 "
                       "EBX=0x00000000 ECX=0x00000000 EDX=0x00000603)"), "no faked leaf 0AH line", text)
    gp = [l for l in run.lines if l.startswith("env: pmu: general-purpose counters: ")]
    check(len(gp) == 1 and gp[0].startswith("env: pmu: general-purpose counters: 8 x 48 bits, "
                                            "IA32_PERFEVTSEL0-7 (186H-18DH), IA32_PMC0-7 (C1H-C8H)")
          and "global control: IA32_PERF_GLOBAL_CTRL (38FH)" in gp[0]
          and "fixed counters: bitmap 0x7 x 48 bits" in gp[0], f"general-purpose counters line {gp}", text)
    pmu = run.one("pmu")
    layout = pmu["layout"]
    check(layout["gp_counters"] == 8 and layout["gp_bitmap"] == 255 and layout["gp_width"] == 48
          and layout["fixed_bitmap"] == 7 and layout["global_ctrl_msr"] == 0x38F, f"pmu layout {layout}", text)
    check(pmu["version"] == 4 and pmu["error"] == "", f"pmu record {pmu}", text)
    for c in pmu["counters"][:3]:
        check(c["state"] == "not counting", f"a fixed counter in memory counts: {c}", text)
    expect_method_ran(run, "rdtscp", 3, 100)

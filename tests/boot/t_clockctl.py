"""tests/boot/t_clockctl.py - turbo= and pstate= (kernel/clockctl.c,
lib/clockctl.c): under QEMU TCG no setting may be said set. QEMU's Intel
model (-cpu Skylake-Client) offers no turbo bit (CPUID.06H:EAX[1]=0) and no
EIST (CPUID.01H:ECX[7]=0), its AMD model (-cpu EPYC) no Core Performance
Boost (CPUID.80000007H:EDX[9]=0), and neither APERF/MPERF
(CPUID.06H:ECX[0]=0) nor a counting fixed counter 1: every setting is "not
taken" with the bit that says why, and the core clock line says why there
is no figure. The decisions themselves are tested on the host against fake
CPUs and the CPUID corpus (tests/unit/test_clockctl.c)."""
import os

import builds
from qemu import check, expect_complete, qemu

QUICK = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"


def clock_lines(run):
    return [l for l in run.lines if l.startswith("clock: ")]


def expect_no_figure(run, text):
    """The core clock line and record: no figure, the CPUID bit named."""
    lines = [l for l in clock_lines(run) if l.startswith("clock: core clock: ")]
    check(len(lines) == 1 and lines[0].startswith("clock: core clock: not measured: CPUID.06H:ECX[0]=0 "
                                                  "(no IA32_APERF/IA32_MPERF); fixed counter 1 (unhalted "
                                                  "core cycles): "), f"core clock line {lines}", text)
    cc = run.one("core_clock")
    check(cc["before_hz"] is None and cc["after_hz"] is None and cc["source"] == "none"
          and "CPUID.06H:ECX[0]=0" in cc["why"] and cc["tsc_hz"] > 0, f"core_clock record {cc}", text)


def test_clockctl_intel_tcg_not_taken():
    """turbo=off pstate=base on Skylake-Client: both not taken, nothing
    written, each naming its CPUID bit; never 'set'."""
    rc, text = qemu("clockctl-skylake", "q35-tcg", QUICK + " turbo=off pstate=base", cpu="Skylake-Client")
    run = expect_complete(rc, text)
    lines = clock_lines(run)
    check("clock: turbo=off: IA32_MISC_ENABLE (MSR 0x1a0) not taken: nothing written: CPUID.06H:EAX[1]=0 and "
          "IA32_MISC_ENABLE[38]=0: this CPU has no turbo mode to switch (SDM Vol. 3B, Opportunistic Processor "
          "Performance Operation)" in lines, f"turbo line {lines}", text)
    check("clock: pstate=base: IA32_PERF_CTL (MSR 0x199) not taken: nothing written: CPUID.01H:ECX[7]=0: no "
          "Enhanced Intel SpeedStep Technology, so no IA32_PERF_CTL (SDM Vol. 4 table 2-2)" in lines,
          f"pstate line {lines}", text)
    check(not any(" set" in l or ": taken" in l for l in lines), f"a setting said set or taken: {lines}", text)
    recs = run.by("clock_setting")
    check([(r["setting"], r["msr"], r["taken"], r["written"]) for r in recs]
          == [("turbo", "0x1a0", False, None), ("pstate", "0x199", False, None)], f"clock_setting {recs}", text)
    check(all(r["why"] for r in recs), f"a clock_setting without why: {recs}", text)
    expect_no_figure(run, text)


def test_clockctl_amd_tcg_not_taken():
    """turbo=off pstate=base on EPYC: HWCR's CpbDis not written (no CPB);
    the P-state MSRs fault or read no enabled P0 under TCG: not taken."""
    rc, text = qemu("clockctl-epyc", "q35-tcg", QUICK + " turbo=off pstate=base", cpu="EPYC")
    run = expect_complete(rc, text)
    lines = clock_lines(run)
    turbo = [l for l in lines if l.startswith("clock: turbo=off: HWCR (MSR 0xc0010015) ")]
    check(len(turbo) == 1 and "not taken" in turbo[0] and ("CPUID.80000007H:EDX[9]=0" in turbo[0]
                                                          or "raised #GP" in turbo[0]), f"turbo line {lines}", text)
    pstate = [l for l in lines if l.startswith("clock: pstate=base: P-state Control (MSR 0xc0010062) ")]
    check(len(pstate) == 1 and "not taken: " in pstate[0], f"pstate line {lines}", text)
    check(not any(": taken" in l for l in lines), f"a setting said taken under TCG: {lines}", text)
    recs = run.by("clock_setting")
    check([r["setting"] for r in recs] == ["turbo", "pstate"] and not any(r["taken"] for r in recs)
          and all(r["why"] for r in recs), f"clock_setting {recs}", text)
    expect_no_figure(run, text)


def test_clockctl_keep_writes_nothing():
    """The defaults: no clock_setting record, no setting line; the core
    clock line alone, saying why there is no figure."""
    rc, text = qemu("clockctl-keep", "q35-tcg", QUICK, cpu="Skylake-Client")
    run = expect_complete(rc, text)
    lines = clock_lines(run)
    check(len(lines) == 1 and lines[0].startswith("clock: core clock: "), f"clock lines {lines}", text)
    check(not run.by("clock_setting"), "a clock_setting record with turbo=keep pstate=keep", text)
    expect_no_figure(run, text)


def test_clockctl_fake_pmu():
    """The fake PMU build: its fixed counters are memory and fail the
    counting check (tests/boot/t_pmu.py), so fixed counter 1 gives no core
    clock either: the line names the counter's state, no figure."""
    build = builds.fake_pmu()
    rc, text = qemu("clockctl-fake", "icount-intel", QUICK + " turbo=off",
                    image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    lines = [l for l in clock_lines(run) if l.startswith("clock: core clock: ")]
    check(len(lines) == 1 and "not measured: " in lines[0] and "fixed counter 1 (unhalted core cycles): " in lines[0],
          f"core clock line {lines}", text)
    check(run.one("core_clock")["source"] == "none", "core_clock record", text)


def test_clockctl_cpus_boot_cpu_only():
    """cpus=all with turbo=off: one line says the settings are the boot
    CPU's MSRs only, after the setting's line."""
    rc, text = qemu("clockctl-cpus", "q35-tcg", QUICK + " turbo=off cpus=all", cpu="Skylake-Client", smp="2")
    run = expect_complete(rc, text)
    lines = clock_lines(run)
    check(len(lines) == 3 and lines[0].startswith("clock: turbo=off: ")
          and lines[1].startswith("clock: cpus=all: the settings above are the boot CPU's MSRs only; ")
          and lines[2].startswith("clock: core clock: "), f"clock lines {lines}", text)

"""tests/boot/t_quiet.py - a quiet, known machine: what could disturb an
ensemble is counted (NMIs by the handler, SMIs through MSR_SMI_COUNT), the
final summary table, the quieting steps and the TSC frequency."""
import os

import builds
import machines
from qemu import BUILD, check, expect_complete, qemu
from screen import Machine, symbol_address


def test_disturbance_fields_and_table():
    """Every ensemble record carries its SMI and NMI counts; the final table
    has a row per method run."""
    rc, text = qemu("table", "q35-tcg-intel", "ensembles=3 samples=200 workloads=add_chain_64")
    run = expect_complete(rc, text)
    ens = run.by("ensemble")
    check(ens and all("smis" in e and "nmis" in e and e["nmis"] == 0 for e in ens),
          "ensemble records without smis/nmis", text)
    check(run.has_line("disturbances: SMIs counted per ensemble with MSR_SMI_COUNT (34H)"),
          "no SMI accounting line", text)
    i = run.lines.index(next(l for l in run.lines if l.startswith("summary table")))
    header = run.lines[i + 1]
    for col in ("method", "offset", "total var", "var of vars", "var of mins", "max dev", "SMIs", "NMIs", "verdict"):
        check(col in header, f"summary table lacks {col!r}: {header!r}", text)
    ran = [r["method"] for r in run.by("method", workload="empty")]
    rows = [l.split()[0] for l in run.lines[i + 2:i + 2 + len(ran)]]
    check(rows == ran, f"table rows {rows} != methods run {ran}", text)
    check(any(l.startswith("add_chain_64 ") for l in run.lines[i:]), "no net row for add_chain_64", text)


def test_smi_not_counted_on_amd():
    rc, text = qemu("smi-amd", "q35-tcg", "ensembles=2 samples=100 workloads=add_chain_64")
    run = expect_complete(rc, text)
    check(run.has_line("disturbances: SMIs cannot be counted here (MSR_SMI_COUNT (34H) is Intel's"),
          "no line saying SMIs are not counted", text)
    check(all(e["smis"] is None for e in run.by("ensemble")), "smis not null on AMD", text)


def test_smi_count_fault_says_what_faulted():
    """GenuineIntel with MSR_SMI_COUNT faulting (tests/boot/smi_gp_test.c):
    the smi count line says which MSR raised which fault on which CPU
    (family, model, CPUID.1:ECX[31] and the hypervisor's vendor), not a
    guess ("before Nehalem, or a hypervisor" was wrong on machines that
    are neither); the run goes on without SMI counts."""
    build = builds.variant("smi-gp", "tests/boot/smi_gp_test.c")
    rc, text = qemu("smi-gp", "q35-tcg-intel", "ensembles=2 samples=100 methods=rdtscp workloads=add_chain_64",
                    image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    env = run.one("env")
    want = (f"quiet: smi count: unreadable: RDMSR of MSR_SMI_COUNT (34H) raised #GP (vector 13) on GenuineIntel "
            f"family {env['family']:#x} model {env['model']:#x} stepping {env['stepping']} "
            f"(CPUID.1:EAX={env['signature']:#010x}); CPUID.1:ECX[31]=1: a hypervisor is present, vendor "
            f"\"{env['hypervisor_vendor']}\"; SMIs are not counted (the SDM lists this MSR from Nehalem, "
            f"family 6 model 1AH, on)")
    lines = [l for l in run.lines if l.startswith("quiet: smi count:")]
    check(lines == [want], f"smi count lines {lines}, expected [{want!r}]", text)
    check(not [l for l in run.lines if "before Nehalem" in l], "a guess at why the MSR faulted", text)
    check(run.has_line("disturbances: SMIs cannot be counted here (MSR_SMI_COUNT (34H) faulted)"),
          "no line saying SMIs are not counted", text)
    check(run.one("machine")["smi_count"] is None, "machine record: smi_count not null", text)


def test_nmi_injected_is_counted():
    """An NMI from the QEMU monitor while an ensemble is measured is counted
    in that ensemble's record, flagged in one line, and the run completes.
    The NMI is sent while the guest is stopped (gdbstub) at the entry of
    the sampling loop of ensemble 0 (warmup=0: its first call), so it
    arrives there whatever the load: sent as soon as the monitor answered,
    it could land before the kernel's IDT (QEMU's loader, the first
    instructions) and triple-fault the machine (CI: exit status 0, "expected
    33"), or after the run."""
    elf = os.path.join(BUILD, "bench.elf")
    loops = [symbol_address(elf, f"bench_{kind}_add_chain_64_rdtscp") for kind in ("fill", "fillc")]
    with Machine("nmi", machine="q35-tcg-intel", debug_exit=True, stopped=True,
                 append="ensembles=3 samples=1000 warmup=0 workloads=add_chain_64 methods=rdtscp") as m:
        m.run_to(loops, 60)
        m.hmp("nmi")
        m.resume()
        rc = m.wait_exit(machines.get("q35-tcg-intel").timeout)
        text = m.serial_text()
    run = expect_complete(rc, text)
    end = run.one("end")
    check(end["nmis"] == 1, f"1 NMI sent, {end['nmis']} counted: {end}", text)
    hit = [(e["ensemble"], e["nmis"]) for e in run.by("ensemble", unit="tsc_ticks") if e["nmis"]]
    check(hit == [(0, 1)], f"the NMI was sent in ensemble 0; ensembles with NMIs: {hit}", text)
    flagged = [l for l in run.lines if l.startswith("disturbed: method rdtscp")]
    check(len(flagged) == 1, f"1 ensemble hit, {len(flagged)} flagged: {flagged}", text)


def test_quieting_steps_listed():
    """The header says what was quieted: PIC masked, PIT channel 0 stopped,
    the local APIC's LVT entries masked and its timer stopped."""
    rc, text = qemu("quiet-steps", "q35-tcg", "ensembles=2 samples=100 workloads=add_chain_64 methods=rdtscp")
    run = expect_complete(rc, text)
    for prefix in ("quiet: 8259 PIC: interrupt masks 0xff (master), 0xff (slave): all masked",
                   "quiet: PIT channel 0: stopped", "quiet: local apic: xAPIC mode",
                   "quiet: apic timer: initial count (380H)", "quiet: lfence: ",
                   "quiet: apic LVT LINT1 (360H): 0x00008400: left unmasked: it delivers NMIs"):
        check(run.has_line(prefix), f"no line starting {prefix!r}", text)
    q = run.one("quiet")
    check(q["pit0_stopped"] == 1 and q["lvt_failed"] == 0 and q["apic_timer_stopped"] == 1
          and q["pic_masks"] == [255, 255], f"quiet record {q}", text)


def test_icount_tsc_is_1ghz():
    """Under -icount shift=0 one TSC tick is one virtual nanosecond: the rate
    used (the PIT's, the HPET's or the PM timer's: tests/boot/t_clocks.py
    checks each) must be 1 GHz within 0.5 %, and minimums come in ns too."""
    rc, text = qemu("icount-tsc", "icount", "ensembles=2 samples=100 workloads=add_chain_64 methods=rdtscp "
                    "output=full")  # min_ns is in the full records
    run = expect_complete(rc, text)
    r = run.one("tsc_rate")
    check(r["source"] in ("pit", "hpet", "pmtimer") and abs(r["hz"] - 10**9) <= 5 * 10**6, f"tsc_rate {r}", text)
    for e in run.by("ensemble", unit="tsc_ticks"):
        check(e["min_ns"] is not None and abs(e["min_ns"] - e["min"]) <= 0.01 * e["min"] + 0.001,
              f"min_ns {e['min_ns']} for {e['min']} ticks at 1 GHz", text)


def test_tcg_two_calibrations_agree():
    """Plain TCG: the two PIT calibrations of one boot agree within 2 %."""
    rc, text = qemu("tcg-tsc", "q35-tcg-alone", "ensembles=2 samples=100 workloads=add_chain_64 methods=rdtscp")
    run = expect_complete(rc, text)
    r = run.one("tsc_rate")
    a, b = r["pit_hz"]
    check(a > 0 and b > 0 and abs(a - b) <= 0.02 * max(a, b), f"calibrations {a} and {b} Hz differ by > 2 %", text)
    check(run.has_line("tsc: rate used: "), "no 'tsc: rate used' line", text)


def test_cpuid_limit_cleared():
    """A BIOS's "Limit CPUID Maxval" (IA32_MISC_ENABLE[22]), played by a
    test build (tests/boot/cpuid_limit_test.c: QEMU keeps the MSR but its
    CPUID ignores the bit): the kernel clears the bit on Intel as Linux
    does, says so in one line, and the max basic leaf is the CPU's own."""
    build = builds.variant("cpuid-limit", "tests/boot/cpuid_limit_test.c")
    rc, text = qemu("cpuid-limit", "q35-tcg-intel", "ensembles=2 samples=100 methods=rdtscp "
                    "workloads=add_chain_64", image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    check(run.has_line("env: cpuid: the BIOS limited CPUID to leaf 0x2 (IA32_MISC_ENABLE[22] Limit "
                       "CPUID Maxval, MSR 1A0H): cleared, as Linux does; max basic leaf now 0xd"),
          "no line saying the limit was cleared", text)
    check(run.has_line("env: cpuid: max basic leaf 0xd,"), "max basic leaf not the CPU's own", text)
    check(sum(l.startswith("env: cpuid: ") for l in run.lines) == 2, "not exactly one more cpuid line", text)

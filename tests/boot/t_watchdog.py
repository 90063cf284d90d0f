"""tests/boot/t_watchdog.py - code that never ends (code=ebfe, jmp $) is
stopped by the watchdog's NMI (kernel/watchdog.c) and reported as a fault
of the code, and the run ends with its final line: through the HPET's
timer 0 (q35 under -icount and under TCG, one CPU and two), through PIT
channel 0 where there is no HPET (q35,hpet=off), and one line where there
is neither an HPET nor an I/O APIC (no ACPI tables). Under -icount the
bound (1000 ms of virtual time, i.e. 10^9 instructions at shift=0) takes
QEMU seconds of host time per method, so each run measures one or two
methods and carries a timeout of its own."""
from qemu import check, expect_complete, qemu

SMALL = "ensembles=3 samples=40 warmup=5 workloads=add_chain_64"
HANG = f"{SMALL} code=ebfe"
TIMEOUT = 180  # seconds of host time: a 1000 ms bound per method, on a busy 2-core box


def hang_run(name, machine, methods, timer, smp=None, args=""):
    """A run of code=ebfe: per method (and CPU) one watchdog fault line and
    record at byte 0 of copy 1, the other workload measured, the run complete
    (QEMU exit 33, as every code fault), no NMI counted as a disturbance."""
    rc, text = qemu(name, machine, f"{HANG} methods={','.join(methods)} {args}", smp=smp, timeout=TIMEOUT)
    run = expect_complete(rc, text)
    check(any(l.startswith(f"watchdog: {timer},") for l in run.lines), f"no 'watchdog: {timer}' line", text)
    faults = run.by("code_fault")
    cpus = int(smp) if smp else 1
    check(len(faults) == len(methods) * cpus, f"{len(faults)} code_fault records, expected {len(methods) * cpus}",
          text)
    for f in faults:
        check(f["name"] == "watchdog" and f["vector"] == 2 and f["bound_ms"] == 1000 and f["part"] == "code"
              and f["offset"] == 0 and f["copy"] == 1, f"code_fault record {f}", text)
    for m in methods:
        line = (f"code {m}/code: FAULT watchdog: the code did not finish within 1000 ms (an NMI from {timer}, "
                f"vector 2) at byte 0 of code= (copy 1 of 1); this workload is skipped for method {m}, the run goes on")
        check(run.has_line(line), f"no fault line: {line}", text)
        check(run.by("summary", method=m, workload="add_chain_64"), f"{m}: add_chain_64 not measured", text)
    return run


def test_watchdog_hpet_icount():
    """q35 under -icount: the HPET's timer 0 in legacy replacement mode to
    I/O APIC input 2 with NMI delivery; no stray NMI anywhere."""
    run = hang_run("watchdog-hpet", "icount", ["rdtscp"], "HPET timer 0")
    check(run.has_line("watchdog: HPET timer 0, one shot, in legacy replacement mode (IA-PC HPET 1.0a 2.4) -> "
                       "I/O APIC ID 0 at 0xfec00000, input 2 (ISA IRQ 0 = GSI 2, the MADT's override), delivery "
                       "mode NMI, edge, active high; a code= fill not done within 1000 to 3000 ms is stopped by "
                       "the NMI and reported"), "the watchdog line", run.text)
    check(run.one("end")["nmis"] == 0, f"NMIs counted: {run.one('end')}", run.text)


def test_watchdog_hpet_tcg_two_methods_two_cpus():
    """q35 under TCG (host time), cpus=all on two CPUs: each CPU's code is
    stopped by an NMI sent to that CPU's APIC ID."""
    run = hang_run("watchdog-tcg", "q35-tcg", ["rdtscp", "cpuid"], "HPET timer 0", smp="2", args="cpus=all")
    check(sorted(f["apic_id"] for f in run.by("code_fault")) == [0, 0, 1, 1],
          f"faults by APIC ID: {run.by('code_fault')}", run.text)
    check(run.one("end")["nmis"] == 0, f"NMIs counted: {run.one('end')}", run.text)


def test_watchdog_pit_without_hpet():
    """q35,hpet=off under -icount: PIT channel 0 through the same input,
    its 54.9 ms periods counted up to the bound (18 before it: disturbances)."""
    run = hang_run("watchdog-pit", "icount-nohpet", ["rdtscp"], "PIT channel 0")
    check(run.one("end")["nmis"] == 18, f"the PIT's periods before the bound: {run.one('end')}", run.text)


def test_watchdog_none_without_acpi():
    """pc,acpi=off: no HPET table and no MADT: one line, and a code= that
    ends is measured as ever."""
    rc, text = qemu("watchdog-none", "pc-noacpi", f"{SMALL} methods=rdtscp code=90 unroll=10")
    run = expect_complete(rc, text)
    check(run.has_line("watchdog: none (no HPET in ACPI; no I/O APIC input for ISA IRQ 0: no ACPI tables): an "
                       "endless code= hangs"), "no 'watchdog: none' line", text)
    check(run.by("summary", method="rdtscp", workload="code") and not run.by("code_fault"),
          "the code not measured, or a fault", text)


def test_watchdog_walk_tcg():
    """walk=on: the watchdog stops code=ebfe whether its NMI comes while the
    sample is single-stepped (in the code, or in the #DB handler: then it
    is armed once more) or after the walk gave up at its step limit (which
    of these depends on the host's speed under TCG: not asserted)."""
    hang_run("watchdog-walk", "q35-tcg", ["rdtscp"], "HPET timer 0", args="walk=on")

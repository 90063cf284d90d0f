"""tests/boot/t_smp.py - the application processors (issue "Real machines",
items 3 and 5; kernel/smp.c, kernel/tscsync.c, boot/trampoline.asm): smp=on
starts every other CPU of the MADT with INIT-SIPI-SIPI into long mode, each
answers with its own APIC ID on its own stack, runs what smp_run_on gives it
and is parked otherwise; an AP's exception names its CPU and ends the run
with the failure code; a CPU that never answers is reported after a bounded
wait; the TSC warp test and IA32_TSC_ADJUST. Under TCG, QEMU's TSC is one
clock for every vCPU, read under one lock and never let go backwards
(QEMU softmmu/cpu-timers.c cpu_get_ticks), so the warp test must find 0
backward steps; under -icount (one thread, vCPUs in turn) it may not finish
and says so, so it is not asserted there."""
import re

from kvm import qemu_kvm
from qemu import EXIT_FAILURE, check, clean_lines, expect_complete, qemu
from t_bootpaths import grub_test_iso

SMALL = "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64"


def smp_run(name, smp, args=""):
    rc, text = qemu(name, "q35-tcg", f"{SMALL} smp=on {args}", smp=smp)
    return expect_complete(rc, text)


def expect_online(run, ids):
    """Every CPU of the MADT online, with the APIC IDs ids in MADT order, CPU 0
    the boot CPU, each AP started in a positive number of TSC ticks."""
    text = run.text
    s = run.one("smp")
    got = [c["apic_id"] for c in s["cpus"]]
    check(got == ids, f"APIC IDs {got}, expected {ids}", text)
    check(s["listed"] == len(ids) and s["online"] == len(ids) and s["boot_cpu"] == 0, f"smp record {s}", text)
    for c in s["cpus"]:
        check(c["online"] and c["why"] is None, f"CPU {c['cpu']} not online: {c}", text)
        if c["cpu"]:
            check(c["start_ticks"] > 0 and not c["boot"], f"CPU {c['cpu']}: {c}", text)
            check(run.has_line(f"smp: CPU {c['cpu']}: APIC ID {c['apic_id']}: started in "),
                  f"no 'started' line for CPU {c['cpu']}", text)
    check(run.has_line(f"smp: {len(ids)} of {len(ids)} CPUs online; trampoline at 0x"), "no summary line", text)
    return s


def expect_warp_free(run, aps):
    """One complete warp test per AP with 0 backward steps (TCG, see above)."""
    text = run.text
    recs = run.by("tsc_sync")
    check([r["cpu"] for r in recs] == aps, f"tsc_sync records for CPUs {[r['cpu'] for r in recs]}, "
          f"expected {aps}", text)
    for r in recs:
        check(r["complete"] and r["against"] == 0 and min(r["rounds"]) > 0, f"warp test {r}", text)
        check(r["warps"] == 0 and r["max_warp_ticks"] == 0, f"backward steps under TCG: {r}", text)


def test_smp4_three_aps_run_and_park():
    """-smp 4: three APs with APIC IDs 1, 2, 3; smp_run_on runs a test function
    on each, which finds itself on that CPU (CPUID's APIC ID) and its own
    stack; the warp test against each; IA32_TSC_ADJUST absent in TCG's CPUID;
    the wake-up NMIs of parking are not counted as NMIs."""
    run = smp_run("smp4", "4", "test.smp=run")
    text = run.text
    s = expect_online(run, [0, 1, 2, 3])
    check(s["park"] == "hlt" and "parking: HLT woken by an NMI IPI (a hypervisor" in text,
          f"parking under TCG: {s['park']}", text)
    tests = run.by("smp_test")
    check([t["cpu"] for t in tests] == [1, 2, 3], f"smp_test records {tests}", text)
    for t in tests:
        check(t["ran"] and t["said_cpu"] == t["cpu"] and t["said_apic_id"] == t["cpu"] and t["own_stack"],
              f"the test function on CPU {t['cpu']}: {t}", text)
    expect_warp_free(run, [1, 2, 3])
    check(run.one("tsc_adjust") == {"rec": "tsc_adjust", "present": False}, "tsc_adjust record", text)
    check(run.has_line("tsc adjust: IA32_TSC_ADJUST (MSR 3BH): absent (CPUID.(EAX=07H,ECX=0):EBX[1]=0)"),
          "no tsc adjust line", text)
    check(run.one("end")["nmis"] == 0, "wake-up NMIs counted as NMIs in the end record", text)


def test_smp_two_sockets():
    """-smp 2,sockets=2: one AP in the other package, APIC ID 1."""
    run = smp_run("smp-sockets2", "2,sockets=2")
    expect_online(run, [0, 1])
    expect_warp_free(run, [1])


def test_smp_threads():
    """-smp 4,threads=2: two cores of two threads, APIC IDs 0..3 (thread in bit 0)."""
    run = smp_run("smp-threads2", "4,threads=2")
    expect_online(run, [0, 1, 2, 3])
    expect_warp_free(run, [1, 2, 3])


def test_smp_disabled_entries():
    """-smp 2,maxcpus=4: the MADT lists four, two of them not enabled (nor
    online-capable): those two are named and not started, the run goes on."""
    run = smp_run("smp-maxcpus", "2,maxcpus=4")
    text = run.text
    s = run.one("smp")
    check(s["listed"] == 4 and s["online"] == 2, f"smp record {s}", text)
    for c in s["cpus"][2:]:
        check(not c["online"] and c["why"].startswith("disabled in the MADT"), f"CPU {c['cpu']}: {c}", text)
        check(run.has_line(f"smp: CPU {c['cpu']}: APIC ID {c['apic_id']}: NOT started: disabled in the MADT"),
              f"no line for CPU {c['cpu']}", text)


def test_smp_one_cpu():
    """-smp 1: one clear smp: line, no AP, nothing to compare the TSC with."""
    run = smp_run("smp1", "1")
    text = run.text
    lines = [l for l in run.lines if l.startswith("smp:")]
    check(lines == ["smp: one CPU: the MADT lists no other CPU; only the boot CPU (CPU 0, APIC ID 0) runs"],
          f"smp: lines {lines}", text)
    check(run.one("smp")["online"] == 1, "smp record", text)
    check(run.has_line("tsc sync: no application processor is online"), "no tsc sync line", text)


def test_smp_no_madt():
    """A MADT with a bad checksum: one line, only the boot CPU runs."""
    run = smp_run("smp-nomadt", "2", "test.acpi_corrupt=APIC")
    lines = [l for l in run.lines if l.startswith("smp:")]
    check(lines == ["smp: one CPU: no usable MADT; only the boot CPU (CPU 0, APIC ID 0) runs"],
          f"smp: lines {lines}", run.text)


def test_smp_off_by_default():
    """Without smp=on nothing is started and nothing printed: the default
    output is as before."""
    rc, text = qemu("smp-off", "q35-tcg", SMALL, smp="4")
    run = expect_complete(rc, text)
    check(not any(l.startswith(("smp:", "tsc sync:", "tsc adjust:")) for l in run.lines),
          "smp lines without smp=on", text)
    check(not run.by("smp") and not run.by("tsc_sync"), "smp records without smp=on", text)


def test_smp_no_answer():
    """A CPU that never answers (test.smp=silent: INIT but no start-up IPI for
    the last one) is reported after the bounded wait and left alone; the
    others run, the run completes."""
    run = smp_run("smp-silent", "3", "test.smp=silent")
    text = run.text
    s = run.one("smp")
    c = s["cpus"]
    check(c[1]["online"] and not c[2]["online"] and s["online"] == 2, f"smp record {s}", text)
    check(c[2]["why"].startswith("no answer within 2000 ms of its INIT"), f"CPU 2: {c[2]}", text)
    check(run.has_line("smp: CPU 2: APIC ID 2: NOT started: no answer within 2000 ms of its INIT: "
                       "sent INIT again and left alone"), "no line for CPU 2", text)
    expect_warp_free(run, [1])


def test_smp_mwait_parking():
    """smp.park=mwait: parked on MONITOR/MWAIT (TCG's MWAIT returns at once
    with two CPUs, so this is the wake-up by a store, not the sleep), and
    smp_run_on works the same."""
    run = smp_run("smp-mwait", "2", "smp.park=mwait test.smp=run")
    text = run.text
    check(run.one("smp")["park"] == "mwait", "not parked with MWAIT", text)
    t = run.one("smp_test")
    check(t["ran"] and t["said_cpu"] == 1 and t["own_stack"], f"smp_test {t}", text)
    expect_warp_free(run, [1])


def test_smp_ap_exception():
    """test.smp=fault: the last AP executes UD2 through smp_run_on; the
    report names CPU 3 and its APIC ID, and the run ends with the failure
    code."""
    rc, text = qemu("smp-fault", "q35-tcg", f"{SMALL} smp=on test.smp=fault", smp="4")
    lines = clean_lines(text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", text)
    where = "on CPU 3 (APIC ID 3, an application processor)"
    check(f"bench: EXCEPTION #UD invalid opcode (vector 6), error code 0x0 {where}" in lines,
          "no exception report naming CPU 3", text)
    check(any(re.match(rf"bench: run aborted by exception #UD invalid opcode {re.escape(where)} at RIP=", l)
              for l in lines), "no final line naming CPU 3", text)
    check("test: the fault did not happen" not in lines, "the AP did not fault", text)


def test_smp_boot_cpu_exception_named():
    """Once the CPUs are numbered, an exception on the boot CPU names it too."""
    rc, text = qemu("smp-bsp-fault", "q35-tcg", f"{SMALL} smp=on test.fault=ud2", smp="2")
    lines = clean_lines(text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", text)
    check(any(l.startswith("bench: run aborted by exception #UD invalid opcode on CPU 0 (APIC ID 0, the boot CPU)")
              for l in lines), "the boot CPU is not named", text)


def grub_smp(name, machine):
    """Through GRUB (multiboot2: its memory map, and under UEFI a map with
    no BIOS areas) with -smp 2: the AP starts and runs smp_run_on."""
    iso = grub_test_iso(name, f"\tmultiboot2 /boot/bench.elf {SMALL} smp=on test.smp=run")
    rc, text = qemu(name, machine, image=iso, smp="2")
    run = expect_complete(rc, text)
    expect_online(run, [0, 1])
    t = run.one("smp_test")
    check(t["ran"] and t["said_cpu"] == 1 and t["own_stack"], f"smp_test {t}", text)
    page = run.one("smp")["trampoline"]
    check(0x1000 <= page < 0xA0000 and page % 4096 == 0, f"trampoline page 0x{page:x}", text)


def test_smp_grub_bios():
    grub_smp("smp-grub-bios", "bios-cdrom")


def test_smp_grub_uefi():
    grub_smp("smp-grub-uefi", "ovmf-cdrom")


def test_smp_kvm():
    """Under KVM (when /dev/kvm works): the AP starts on a real CPU, the warp
    test completes (its figure is the host's, not asserted), and
    IA32_TSC_ADJUST is read on both CPUs where CPUID has it."""
    rc, text = qemu_kvm("smp-kvm", f"{SMALL} smp=on test.smp=run", smp="2")
    run = expect_complete(rc, text)
    expect_online(run, [0, 1])
    t = run.one("smp_test")
    check(t["ran"] and t["said_cpu"] == 1 and t["own_stack"], f"smp_test {t}", text)
    w = run.one("tsc_sync")
    check(w["complete"] and min(w["rounds"]) > 0, f"warp test {w}", text)
    adj = run.by("tsc_adjust")
    check(adj == [{"rec": "tsc_adjust", "present": False}] or
          ([a["cpu"] for a in adj] == [0, 1] and all(a["value"] is not None for a in adj)),
          f"tsc_adjust records {adj}", text)

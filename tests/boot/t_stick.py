"""tests/boot/t_stick.py - the run's log written to the stick it booted from
(issue 23; kernel/efi.h, docs/MACHINE.md "UEFI: the log on the boot stick").
Under OVMF from a writable USB stick image (usb-storage behind qemu-xhci,
tests/boot/stick.py), read afterwards on the host with mtools as a laptop
would: the results file equals the serial log byte for byte; two boots give
two files; a CD, a full stick and a BIOS boot each say in one line why
nothing was written, the run otherwise complete; a run of more than 5
minutes of machine time is not reset by the firmware's watchdog, and one
whose watchdog is left armed (test.efi_watchdog=) is: the test can fail.
An aborted run (a typo in the boot parameters, a fault on the boot CPU)
leaves its log too, ending with its "bench: run aborted" line, and
bench.py store says so; a fault on another CPU writes nothing and says
why (issue 29)."""
import os
import re
import subprocess
import sys
import tempfile

from qemu import EXIT_FAILURE, EXIT_SUCCESS, check, expect_complete, qemu
from stick import QUICK, fill, list_results, make_stick, make_test_stick, read_result

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAVED = re.compile(r"^save: results\\(\S+) on the boot device: (\d+) bytes, written and read back ", re.M)
FINAL = b"bench: run complete:"
ABORTED = b"bench: run aborted"
# icount at 2^10 ns an instruction: machine time runs ~10x faster than the
# host's, so a short run lasts minutes for the firmware's timers.
FAST_CLOCK = ["-icount", "shift=10,align=off,sleep=off"]


def saved_file(img, text):
    """The one save: line's file, read from the stick: (name, bytes)."""
    m = SAVED.findall(text)
    check(len(m) == 1, f"{len(m)} save: lines saying a file was written", text[-3000:])
    name, size = m[0]
    data = read_result(img, name)
    check(len(data) == int(size), f"results/{name}: {len(data)} bytes on the stick, the line says {size}", text)
    return name, data


def expect_is_serial_log(data, text, what, final=FINAL):
    """data is the kernel's serial log, byte for byte: from its first line
    (the banner, "bench VERSION: ...") up to and including the final line
    (starting with final) and its \\r\\n, as the wire carried it (the
    firmware's and GRUB's output before it aside)."""
    wire = text.encode("utf-8")
    check(data.startswith(b"bench ") and b"interrupts off" in data.split(b"\n", 1)[0],
          f"{what}: the file does not start with the kernel's first line (the banner)", text)
    lines = data.split(b"\r\n")
    check(lines[-1] == b"" and lines[-2].startswith(final),
          f"{what}: the file does not end with the final line and \\r\\n: {lines[-2][:80]!r}", text)
    at = wire.find(data)
    check(at >= 0, f"{what}: the file's {len(data)} bytes are not the serial log's (first difference near "
          f"byte {common_prefix(wire[max(wire.find(data[:40]), 0):], data)})", text[-3000:])
    check(wire[at + len(data):].startswith(b"save: "), f"{what}: the save: line does not follow the file's end",
          text)


def common_prefix(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def test_stick_log_equals_serial_log():
    """A quick run from a stick: one results/<run ID>.log, equal to the
    serial log; tools/bench.py store reads it (one run stored)."""
    img = make_test_stick("saved", QUICK)
    rc, text = qemu("stick-saved", "ovmf-stick", image=img)
    run = expect_complete(rc, text)
    name, data = saved_file(img, text)
    run_id = run.one("env").get("run_id")
    check(name == f"{run_id}.log", f"the file is {name}, the run ID {run_id}", text)
    check(list_results(img) == [name], f"results/ holds {list_results(img)}, expected [{name}]", text)
    expect_is_serial_log(data, text, "stick")
    rc, out = store_folder(name, data)
    check(rc == 0 and "1 stored" in out, f"bench.py store of the stick's folder: {rc}\n{out}")


def store_folder(name, data):
    """tools/bench.py store of a results/ folder holding only name (data),
    into a new database: (exit status, output)."""
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "results"))
        with open(os.path.join(d, "results", name), "wb") as f:
            f.write(data)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench.py"), "store",
                            os.path.join(d, "results"), "--db", os.path.join(d, "lab.sqlite")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        return p.returncode, p.stdout.decode()


def expect_aborted_file(run, append, why):
    """A run from a stick that aborts before measuring (append: its boot
    parameters): exit status 35, one results/<run ID>.log, the serial log
    up to its final line "bench: run aborted" (why in it); bench.py store
    says the run aborted and stores nothing."""
    img = make_test_stick(run, append)
    rc, text = qemu(f"stick-{run}", "ovmf-stick", image=img)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (run aborted)", text)
    names = list_results(img)
    check(len(names) == 1 and names[0].endswith(".log"),
          f"an aborted run left {names} in results/, expected one <run ID>.log", text[-3000:])
    name, data = saved_file(img, text)
    run_id = re.findall(r"^run: ID ([0-9a-f]{16}) ", text, re.M)
    check(run_id and name == f"{run_id[0]}.log", f"the file is {name}, the run ID {run_id}", text)
    expect_is_serial_log(data, text, run, final=ABORTED)
    last = data.split(b"\r\n")[-2].decode()
    check(why in last, f"the file's final line {last!r} does not say {why!r}", text)
    rc, out = store_folder(name, data)
    said = re.findall(r"^store: \S+" + re.escape(name) + r": ABORTED \(its final line: 'bench: run aborted[^']*'\): "
                      r"the run did not finish; nothing of it stored$", out, re.M)
    check(rc == 0 and len(said) == 1 and
          re.search(r"^store: 0 stored, 0 already there, 0 merged into a run already there, 0 incomplete, "
                    r"1 aborted, 0 refused$", out, re.M),
          f"bench.py store of the aborted run's folder (exit status {rc}) does not say it aborted", out)


def test_stick_typo_leaves_aborted_log():
    """A typo in GRUB's editor (ensemble= for ensembles=): the run stops
    before measuring and still leaves its log on the stick, its final line
    "bench: run aborted: 1 command-line problem"; bench.py store says it
    aborted. Failed before: results/ stayed empty."""
    expect_aborted_file("typo", QUICK + " ensemble=2", "1 command-line problem")


def test_stick_fault_leaves_aborted_log():
    """A kernel exception on the boot CPU (test.fault=ud2, before
    measuring) aborts the run: its log is left on the stick, its final line
    "bench: run aborted by exception #UD"."""
    expect_aborted_file("fault", QUICK + " test.fault=ud2", "run aborted by exception #UD")


def test_stick_fault_on_other_cpu_not_written():
    """A fault on an application processor (test.smp=fault) aborts the run
    there: the firmware's boot services are the boot CPU's, so one line
    says the log is NOT written and why, and results/ stays empty."""
    img = make_test_stick("apfault", QUICK + " smp=on test.smp=fault")
    rc, text = qemu("stick-apfault", "ovmf-stick", image=img, smp="2")
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (run aborted)", text)
    lines = [l for l in text.splitlines() if l.startswith("save: ")]
    check(len(lines) == 1 and lines[0].startswith("save: NOT written: the run ended on a CPU other than the boot "
                                                  "CPU (IA32_APIC_BASE.BSP=0)"),
          f"the save: lines of a fault on another CPU: {lines}", text[-3000:])
    check(list_results(img) == [], f"a fault on another CPU wrote {list_results(img)}", text)


def test_stick_two_boots_two_files():
    """The same stick booted twice: two files (two run IDs), the first one
    unchanged by the second boot."""
    img = make_test_stick("twice", QUICK)
    rc, text = qemu("stick-twice-1", "ovmf-stick", image=img)
    expect_complete(rc, text)
    first, data1 = saved_file(img, text)
    rc, text = qemu("stick-twice-2", "ovmf-stick", image=img)
    expect_complete(rc, text)
    second, data2 = saved_file(img, text)
    names = list_results(img)
    check(first != second and names == sorted([first, second]), f"after two boots results/ holds {names}", text)
    check(read_result(img, first) == data1, f"the second boot changed {first}", text)
    expect_is_serial_log(data2, text, "second boot")


def test_stick_cd_is_read_only():
    """The ISO as a CD under OVMF: one line naming EFI_WRITE_PROTECTED and
    a read-only medium; exit status as always."""
    rc, text = qemu("stick-cd", "ovmf-cdrom")
    expect_complete(rc, text)
    check(rc == EXIT_SUCCESS, f"exit status {rc}", text)
    lines = [l for l in text.splitlines() if l.startswith("save: ")]
    check(len(lines) == 1 and "returned EFI_WRITE_PROTECTED: the boot medium is read-only" in lines[0],
          f"the save: lines of a CD boot: {lines}", text)


def test_stick_full():
    """A stick whose partition is full: one line naming EFI_VOLUME_FULL,
    the run otherwise complete, no file (the partial one deleted)."""
    img = make_test_stick("full", QUICK)
    fill(img, 2048)
    rc, text = qemu("stick-full", "ovmf-stick", image=img)
    expect_complete(rc, text)
    lines = [l for l in text.splitlines() if l.startswith("save: ")]
    check(len(lines) == 1 and lines[0].startswith("save: NOT written: ") and "EFI_VOLUME_FULL" in lines[0]
          and "the boot medium is full" in lines[0], f"the save: lines of a full stick: {lines}", text)
    check(list_results(img) == [], f"a full stick's results/ holds {list_results(img)}", text)


def test_stick_bios_says_why():
    """A BIOS boot from the same stick: one line, before the final line,
    that results are written only under UEFI; nothing on the stick."""
    img = make_test_stick("bios", QUICK)
    rc, text = qemu("stick-bios", "bios-usb", image=img)
    run = expect_complete(rc, text)
    lines = [l for l in run.lines if l.startswith("save: ")]
    check(len(lines) == 1 and "only when it boots under UEFI" in lines[0], f"save: lines {lines}", text)
    check(run.lines.index(lines[0]) < run.lines.index(next(l for l in run.lines if l.startswith("bench: run "))),
          "the BIOS save: line is not before the final line", text)
    check(list_results(img) == [], f"a BIOS boot wrote {list_results(img)}", text)


def test_stick_save_off():
    """save=off: one line, nothing written."""
    img = make_test_stick("off", QUICK + " save=off")
    rc, text = qemu("stick-off", "ovmf-stick", image=img)
    expect_complete(rc, text)
    lines = [l for l in text.splitlines() if l.startswith("save: ")]
    check(lines == ["save: off (save=off): the log is not written to the boot device"], f"save: lines {lines}",
          text)
    check(list_results(img) == [], f"save=off wrote {list_results(img)}", text)


def test_stick_watchdog_longer_than_5_minutes():
    """The default run (the paper's procedure at emulator scale) under a
    fast machine clock lasts well over 5 minutes of machine time (the TSC
    says how long): not reset, the log written. The control: the same with
    the firmware's watchdog armed for 1 s at the write (test.efi_watchdog=1,
    as if the kernel had not turned it off) IS reset (-no-reboot: QEMU
    exits with status 0, no save: line)."""
    img = make_test_stick("long", "")
    rc, text = qemu("stick-long", "ovmf-stick", image=img, extra=FAST_CLOCK, timeout=900)
    expect_complete(rc, text)
    saved_file(img, text)
    took = re.findall(r"^save: .*the firmware's watchdog off for the run's (\d+) s \(TSC\)\)\r?$", text, re.M)
    check(took and int(took[0]) > 300, f"the run lasted {took} s of machine time, not over 5 minutes", text)

    img = make_test_stick("watchdog", QUICK + " test.efi_watchdog=1")
    rc, text = qemu("stick-watchdog", "ovmf-stick", image=img, extra=FAST_CLOCK, timeout=900)
    check(rc == 0 and not re.search(r"^save: ", text, re.M) and FINAL.decode() in text,
          f"with the watchdog left armed for 1 s: exit status {rc}, expected a reset (0) after the final line "
          "and before any save: line", text[-3000:])

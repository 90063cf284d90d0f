"""tests/boot/t_screen_progress.py - the screen of a lab run (issue 22 item
5): as wide as the framebuffer, a progress area instead of the records
during the run, and with no serial port the skip reasons where a photo
finds them. The screen is read exactly (tests/boot/screen.py: a screendump
against kernel/font.c), the QR code with zbarimg (t_qr.py).

  * UEFI (OVMF) at 1920x1080 (QEMU's VGA, xres/yres: OVMF starts the GOP
    in that mode and GRUB hands it over): during the run, stopped (the
    monitor's `stop`) once the serial log says the second method began,
    the screen holds the progress area (method i of n, workload j of m,
    ensembles done, elapsed, time left) and no JSON record; at the end the
    `recommended:` line is whole (its verdict limits make it 83 characters
    or more: 09f761c cut it at 79).
  * No serial port (QEMU -serial none), BIOS at 1920x1080: the end screen
    names each skipped method with its reason and the QR text has a `why`
    line each, the reasons those of the skip records of the same
    configuration booted with a serial port; never "why: serial log".
  * An exception while the area is open (test.fault=ud2, VGA text): its
    report and the final line below the area.
On 09f761c all fail: the screen scrolls the log and its records with no
progress area, the recommended line is cut, and the skipped methods are
listed with "(why: serial log)" and no reason in the QR text.
"""
import os
import re

from qemu import BUILD, check, expect_complete, qemu
from screen import HALTED, Machine, end_screen, symbol_address, unwrapped
from t_bootpaths import expect_complete_halted, fit, grub_iso, grub_test_iso
from t_qr import join_parts, zbar

# QEMU's standard VGA in 1920x1080: OVMF (edk2 2022.11) sets its GOP to the
# device's xres/yres, and GRUB under UEFI keeps the firmware's mode.
VGA_1920 = ["-vga", "none", "-device", "VGA,xres=1920,yres=1080"]
# Limits of six digits: the recommended line is 78 characters plus the
# method's name (at least 3), or "none ergodic".
LIMITS = "verdict.var_of_vars=999999 verdict.var_of_mins=999999"
PROGRESS = [re.compile(p) for p in (
    r"progress of the run \(the records and the log: serial port only\)$",
    r"method (\d) of (\d): (\w+); workload (\d) of (\d): (\w+)$",
    r"ensembles (\d+) of (\d+) done \((\d+) %\)$",
    r"elapsed (\d+\.\d s|\d+ min \d\d s|\d+ h \d\d min); time left (about (\d+\.\d s|\d+ min \d\d s|\d+ h \d\d min) "
    r"\(by the (ensembles done so far|serial log still to print)\)|unknown \(no ensemble done yet\))$",
)]


def stop_at_call(m, fn, n):
    """Run m (made stopped=True) to its n-th call of fn (a breakpoint
    through the gdbstub, stepped over n - 1 times); m stays stopped there
    until m.resume()."""
    m.run_to(fn, m.timeout)
    for _ in range(n - 1):
        m.gdb.request(f"z0,{fn:x},1")
        m.gdb.request("s")
        m.gdb.request(f"Z0,{fn:x},1")
        reply = m.gdb.request("c")
        check(reply.startswith(("T05", "S05")), f"the run stopped for another reason: {reply!r}")


def progress_area(lines, text):
    """The four rows of the progress area on the screen: their matches."""
    for i, l in enumerate(lines):
        if PROGRESS[0].match(l):
            rows = lines[i:i + 4]
            got = [p.match(r) for p, r in zip(PROGRESS, rows)]
            check(len(rows) == 4 and all(got), f"the progress area's rows: {rows}", text)
            return got
    check(False, "no progress area ('progress of the run ...') on the screen", text)


def boot_1920(name, stop):
    """OVMF at 1920x1080, a test ISO (the kernel's words, LIMITS): with
    stop, the screen where the second method's second workload begins
    (report_run_start's 9th call: method 1 runs 7 workloads; the area was
    redrawn just before, with exactly 8 x 60 ensembles done) and the serial
    log then; then the end screen. Returns (during, log so far, end screen,
    the run)."""
    args = f"methods=cpuid,rdtscp,cr0 ensembles=60 samples=2000 warmup=100 {LIMITS}"
    # efi_gop alone, as iso/grub.cfg: all_video's bochs driver would set 800x600x24.
    iso = grub_iso(name, f"set timeout=0\ninsmod efi_gop\nmenuentry {name} {{\n"
                   f"\tmultiboot2 /boot/bench.elf {args}\n\tboot\n}}\n")
    elf = os.path.join(BUILD, "bench.elf")
    during, log = None, None
    with Machine(name, machine="ovmf-cdrom", image=iso, args=VGA_1920, stopped=stop, gdb=not stop) as m:
        if stop:
            stop_at_call(m, symbol_address(elf, "report_run_start"), 9)
            during, log = m.framebuffer_text("during"), m.serial_text()
            m.resume()
        m.wait_for(HALTED, m.serial_text, m.timeout)
        final, _ = end_screen(m, elf)
        text = m.serial_text()
    run = expect_complete_halted(text)
    check(any(l.startswith("console: serial ttyS0 ") and " screen framebuffer 1920x1080, 32 bpp, " in l
              and ", 240x67 characters" in l for l in run.lines),
          "not a 1920x1080 framebuffer of 240x67 characters", text)
    return during, log, final, run


def test_screen_progress_uefi_1920x1080_progress_area():
    """During the run, stopped in the second method: the progress area, no
    record or paper-format line on the screen."""
    during, log, _, _ = boot_1920("screen-progress", True)
    check("\nmethod rdtscp: " in log and "\nmethod cr0: " not in log,
          "stopped elsewhere than in the second method (the serial log so far)", log)
    shown = "\n".join(during)
    _, method, ensembles, _ = progress_area(during, shown)
    check(method.group(0) == "method 2 of 3: rdtscp; workload 2 of 7: add_chain_256",
          "the progress area does not say method 2 of 3 (rdtscp), workload 2 of 7 (add_chain_256)", shown)
    check(ensembles.group(0) == "ensembles 480 of 1260 done (38 %)",
          "the ensembles done are not 8 workloads x 60 of 3 x 7 x 60", shown)
    check(not any(l.lstrip().startswith("{") or '"rec"' in l for l in during),
          "a JSON record on the screen during the run", shown)
    check(not any(l.startswith("loop_size:") for l in during),
          "a paper-format line on the screen during the run", shown)


def test_screen_progress_uefi_1920x1080_recommended_line():
    """The end screen at 1920x1080: the recommended: line whole, though
    longer than 80 characters."""
    _, _, final, run = boot_1920("screen-recommended", False)
    cfg, rec = run.one("config"), run.one("recommendation")["method"]
    want = (f"recommended: {rec or 'none ergodic'} (ergodic: var of vars <= {fit(cfg['max_var_of_vars'], 6)}, "
            f"var of mins <= {fit(cfg['max_var_of_mins'], 6)}; paper 4)")
    check(len(want) > 80, f"the recommended line is only {len(want)} characters: {want}")
    end = "\n".join(final)
    check(final[0].startswith("bench summary: "), "the end screen is not the summary", end)
    check(want in final, f"the whole recommended line {want!r} is not a row of the end screen", end)


def skip_reasons(args):
    """{method: reason} of the skip records of args, booted with a serial port."""
    rc, text = qemu("screen-skip-serial", "q35-tcg", args)
    run = expect_complete(rc, text)
    return {r["method"]: r["reason"] for r in run.by("skip") if r.get("workload") is None}


def test_screen_progress_no_serial_skip_reasons():
    """No serial port (-serial none), BIOS, VESA 1920x1080: the end screen
    names every skipped method with its reason (methods with the same
    reason on one line), the QR text has a why line for each; no "why:
    serial log"."""
    args = "methods=cpuid,lfence_rdtscp,lfence,serialize,ctr_rdmsr ensembles=3 samples=200 " \
           "workloads=measured_function"
    reasons = skip_reasons(args)
    check(set(reasons) == {"lfence_rdtscp", "lfence", "serialize", "ctr_rdmsr"},
          f"the skips of the serial run: {reasons}")
    iso = grub_test_iso("screen-noserial", f"\tmultiboot2 /boot/bench.elf {args}\n"
                        "\tset gfxpayload=1920x1080x32")
    with Machine("screen-noserial", machine="bios-cdrom", image=iso, serial=False) as m:
        m.wait_for(HALTED, m.framebuffer_text, m.timeout, every=2.0)
        m.wait_halted(60)
        lines = m.framebuffer_text("halted")
        codes = zbar(f"{m.files}-halted.png")
    screen = "\n".join(lines)
    check(lines[0].startswith("bench summary: "), "the end screen is not the summary", screen)
    check("why: serial log" not in screen, "the end screen says 'why: serial log'", screen)
    said = {}
    for l in unwrapped(lines):
        mm = re.match(r"skipped ([\w, ]+): (.*)$", l)
        if mm:
            for name in mm.group(1).split(", "):
                said[name] = mm.group(2)
    check(said == reasons, f"the end screen's reasons {said}, the skip records' {reasons}", screen)
    check(re.search(r"^skipped lfence_rdtscp, lfence: ", screen, re.M),
          "the two LFENCE methods (one reason) are not on one line", screen)

    check(len(codes) == 1, f"{len(codes)} QR codes on the screen, expected one", screen)
    body, _ = join_parts(codes)
    why = {}
    for l in body.split("\n"):
        if l.startswith("why "):
            _, name, reason = l.split(" ", 2)
            why[name] = reason
    check(why == reasons, f"the QR text's why lines {why}, the skip records' {reasons}", body)
    skip = [l for l in body.split("\n") if l.startswith("skip ")]
    check(skip == ["skip lfence_rdtscp lfence serialize ctr_rdmsr"], f"the skip line {skip}", body)
    lines_ = body.split("\n")
    at = lines_.index(skip[0])
    check([l.split(" ")[1] for l in lines_[at + 1:at + 5]] == ["lfence_rdtscp", "lfence", "serialize", "ctr_rdmsr"],
          "the why lines do not follow the skip line in its order", body)


def test_screen_progress_exception_report_shows():
    """An exception with the progress area open (test.fault=ud2, raised
    where the measuring begins) closes it: the report, below the area on
    the VGA text screen, ends with the run's final line."""
    with Machine("screen-fault", append="ensembles=2 samples=10 test.fault=ud2") as m:
        m.wait_for("bench: run aborted by exception", m.serial_text, m.timeout, every=0.5)
        m.wait_halted(60)
        lines = m.vga_text()
    screen = "\n".join(lines)
    area = [i for i, l in enumerate(lines) if l.startswith("progress of the run (")]
    check(len(area) == 1, "no progress area (or more than one) on the screen", screen)
    below = lines[area[0] + 4:]
    check(any(l.startswith("bench: EXCEPTION #UD") for l in below), "no exception report below the area", screen)
    shown = [l for l in below if l]
    check(shown and shown[-1].startswith(HALTED) and any(l.startswith("bench: run aborted by exception #UD")
                                                        for l in shown),
          "the report does not end with the final line and the halt line", screen)

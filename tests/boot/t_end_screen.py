"""tests/boot/t_end_screen.py - the end screen's layout (issue 29 item 4):
the QR code's 4-module quiet zone is never drawn on by any text, the
summary uses every row the screen has, and a screen-only machine's screen
points to the QR code, not to a serial log it does not have. Read from
QEMU screendumps exactly (tests/boot/screen.py), the codes with zbarimg
(t_qr.py).

  * UEFI (OVMF) at 1920x1080 from a CD: after the end screen the save:
    line (EFI_WRITE_PROTECTED: a CD; one of the longest) is printed below
    it; the code's quiet zone is background only, the save line whole.
  * UEFI at 1024x768 with a code= section: the same (a layout check;
    f48dabb passes it, its code below the halt line).
  * VGA text without a serial port: the summary's first row stays, no
    serial log named (f48dabb: "(the serial log's and the QR code's too)").
  * BIOS, VESA 1920x1080, no serial port (-serial none), every method and
    workload and a code= section: every workload is a row of the screen,
    nothing names a serial log, the quiet zone is intact.
On f48dabb both fail: the save: line runs across the code's top quiet
zone (no intact quiet zone is found), and the screen-only run keeps 25
rows and ends its table with "... and 2 more workloads: see the serial
log"; its run-ID line says "(the serial log's and the QR code's too)".
"""
import os
import re

import builds

from qemu import BUILD, LOGS, check
from screen import HALTED, Machine, end_screen, quiet_zones, unwrapped
from t_bootpaths import expect_complete_halted, grub_iso, grub_test_iso
from t_qr import join_parts, zbar

# QEMU's standard VGA in 1920x1080 (t_screen_progress.py): OVMF's GOP mode.
VGA_1920 = ["-vga", "none", "-device", "VGA,xres=1920,yres=1080"]


def uefi_save_line(name, xres, yres, args):
    """OVMF at xres x yres, from a CD, the kernel's words args: the save:
    line (EFI_WRITE_PROTECTED) after the end screen, whole on the screen
    above the halt line, and the code's quiet zone background only; the
    code decodes to this run's text. Returns the code's (x, y, side,
    module)."""
    iso = grub_iso(name, f"set timeout=0\ninsmod efi_gop\nmenuentry {name} {{\n"
                   f"\tmultiboot2 /boot/bench.elf {args}\n\tboot\n}}\n")
    elf = os.path.join(BUILD, "bench.elf")
    # -icount: the TSC counts instructions, so the figures, the QR text's
    # length and the code= section's rows (and with them the layout) are
    # the same in every run, whatever the host's load.
    vga = ["-vga", "none", "-device", f"VGA,xres={xres},yres={yres}", "-icount", "shift=0,align=off,sleep=off"]
    with Machine(name, machine="ovmf-cdrom", image=iso, args=vga, gdb=True) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        lines, paged = end_screen(m, elf)
        text = m.serial_text()
    run = expect_complete_halted(text)
    screen = "\n".join(lines)
    check(any(f" screen framebuffer {xres}x{yres}, 32 bpp, " in l for l in run.lines),
          f"not a {xres}x{yres} framebuffer", text)
    check(not paged, f"the code is not beside the summary at {xres}x{yres}", screen)
    save = [l for l in run.lines if l.startswith("save: ")]
    check(len(save) == 1 and "EFI_WRITE_PROTECTED" in save[0], f"the save: line of a CD: {save}", text)
    rows = [l for l in lines if l.strip()]
    check(rows[0].startswith("bench summary: ") and rows[-1].startswith(HALTED),
          "the screen does not start with the summary and end with the halt line", screen)
    # The console wraps the save: line at its last column (left of the code).
    at = next((i for i, l in enumerate(rows) if l.startswith("save: ")), None)
    check(at is not None and "".join(rows[at:-1]).replace(" ", "") == save[0].replace(" ", ""),
          f"the save: line is not whole on the screen above the halt line: {rows[at:-1] if at else None}", screen)
    codes = quiet_zones(os.path.join(LOGS, f"test-{name}.ppm"))
    check(len(codes) == 1, f"{len(codes)} QR codes with an intact quiet zone on the screen, expected one "
          f"(screen dump test-{name}.png in {LOGS})", screen)
    texts = zbar(os.path.join(LOGS, f"test-{name}.png"))
    check(len(texts) == 1, f"zbarimg read {len(texts)} codes", screen)
    body, _ = join_parts(texts)
    check(f"run {run.one('env')['run_id']}\n" in body, "the code is not this run's", body)
    return codes[0]


def test_end_screen_uefi_1920x1080_save_line():
    """OVMF at 1920x1080: the code top right, the save: line below the
    summary wrapped left of it."""
    uefi_save_line("end-screen-uefi", 1920, 1080, "methods=cpuid,rdtscp,cr0 ensembles=3 samples=200 warmup=10")


def test_end_screen_uefi_1024x768_code_section():
    """OVMF at 1024x768 with a code= section and the paper's three methods
    (with every method the code= section's agreement lines and the longer
    QR text no longer fit beside the summary: the code is paged): the code
    where it fits beside the longer summary (top right at 3 pixels a
    module, where f48dabb put it bottom right below the halt line), the
    save: line below the summary and clear of it."""
    uefi_save_line("end-screen-uefi-code", 1024, 768,
                   "methods=cpuid,rdtscp,cr0 ensembles=3 samples=200 warmup=10 code=480fafc0 unroll=10 "
                   "code.name=imul")


def test_end_screen_vga_text_no_serial():
    """VGA text (QEMU -kernel), -serial none: the summary from the first
    row (nothing scrolled away), nothing names a serial log; workloads that
    do not fit say they are not shown and why."""
    name = "end-screen-vga"
    with Machine(name, append="ensembles=3 samples=200 warmup=10", serial=False) as m:
        m.wait_for(HALTED, m.vga_text, m.timeout, every=2.0)
        m.wait_halted(60)
        lines = m.vga_text()
    screen = "\n".join(lines)
    check(lines[0].startswith("bench summary: "), "the summary's first row scrolled away", screen)
    check(lines[-1] == "" and [l for l in lines if l][-1].startswith(HALTED),
          "the halt line is not last, with the cursor's row free below it", screen)
    check("serial log" not in " ".join(unwrapped(lines)), "the screen names a serial log", screen)
    more = [l for l in unwrapped(lines) if l.startswith("... and ")]
    check(all(l.endswith(": not shown (no serial port, no QR code on VGA text)") for l in more),
          f"the line for the workloads left out: {more}", screen)
    run_id = [l for l in lines if l.startswith("run ID ")]
    check(len(run_id) == 1 and re.fullmatch(r"run ID [0-9a-f]{16}", run_id[0]), f"the run-ID line: {run_id}", screen)


def test_end_screen_no_serial_1920x1080_every_workload():
    """BIOS, VESA 1920x1080, -serial none, every method and workload and a
    code= section: the summary uses the screen's rows, every workload the
    QR text carries is a row of it, nothing names a serial log, the quiet
    zone is background only."""
    name = "end-screen-noserial"
    args = "ensembles=3 samples=200 warmup=10 code=480fafc0 unroll=10 code.name=imul"
    iso = grub_test_iso(name, f"\tmultiboot2 /boot/bench.elf {args}\n\tset gfxpayload=1920x1080x32")
    with Machine(name, machine="bios-cdrom", image=iso, serial=False) as m:
        m.wait_for(HALTED, m.framebuffer_text, m.timeout, every=2.0)
        m.wait_halted(60)
        lines = m.framebuffer_text("halted")
    path = os.path.join(LOGS, f"test-{name}-halted")
    screen = "\n".join(lines)
    check(lines[0].startswith("bench summary: ") and len(lines) == 67,
          f"not the summary on a screen of 67 rows ({len(lines)})", screen)
    check("serial log" not in screen.replace("\n  ", " "), "the screen names a serial log", screen)
    check(not re.search(r"^\.\.\. and \d+ more workloads", screen, re.M), "workloads left out", screen)
    codes = quiet_zones(path + ".ppm")
    check(len(codes) == 1, f"{len(codes)} QR codes with an intact quiet zone on the screen, expected one "
          f"(screen dump {path}.png)", screen)
    texts = zbar(path + ".png")
    check(len(texts) == 1, f"zbarimg read {len(texts)} codes", screen)
    body, _ = join_parts(texts)
    names = [l.split(" ")[1] for l in body.split("\n") if l.startswith("w ")]
    check(len(names) >= 7 and "imul" in names, f"the QR text's workloads: {names}", body)
    rows = unwrapped(lines)
    head = [i for i, l in enumerate(rows) if l.startswith("workload ")]
    check(head, "no workload table on the screen", screen)
    shown = [l.split()[0] for l in rows[head[-1] + 1:] if l and not l.startswith(("TSC ", "bench: ", "~", "!"))]
    missing = [n for n in names if n != "imul" and n not in shown]
    check(not missing, f"workloads of the QR text not on the screen: {missing}", screen)
    run_id = [l for l in rows if l.startswith("run ID ")]
    check(len(run_id) == 1 and run_id[0].endswith(" (the QR code's too)"),
          f"the run-ID line of a screen-only run: {run_id}", screen)


def test_end_screen_vga_text_note_wraps():
    """VGA text (80 columns), -icount shift=2 (the TSC moves in steps of 4
    ticks: one instruction, 4 ns of virtual time) and a workload of no
    instruction (tests/boot/wl_empty_test.c: net 0, below the resolution):
    the note under the nets, longer than a row, wraps whole ("... : not
    durations"), where f48dabb cut it at 79 characters."""
    name = "end-screen-note"
    elf32 = os.path.join(builds.variant("wl-empty", "tests/boot/wl_empty_test.c"), "bench32.elf")
    with Machine(name, append="ensembles=3 samples=200 warmup=10 methods=rdtscp "
                 "workloads=empty_body,measured_function", image=elf32,
                 args=["-icount", "shift=2,align=off,sleep=off"]) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        lines = m.vga_text()
        text = m.serial_text()
    run = expect_complete_halted(text)
    step = run.by("tsc_step")
    check(step and step[-1]["step"] > 1, f"the TSC does not move in steps under -icount shift=2: {step}", text)
    screen = "\n".join(lines)
    check(any(l.startswith("empty_body ") and l.split()[1] == "0~" for l in lines),
          "no row 'empty_body 0~' (net 0, below the resolution) on the screen", screen)
    note = [l for l in unwrapped(lines) if re.match(r"TSC (moves|may move) in steps of 4 ticks; ", l)]
    check(len(note) == 1 and len(note[0]) > 80 and note[0].endswith(": not durations"),
          f"the note under the nets is not whole: {note}", screen)

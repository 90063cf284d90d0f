"""tests/boot/t_bootpaths.py - every way the image reaches a lab machine, and
what it shows on the screen when the serial line is missing.

Boot paths (each to the run's final line):
  * the ISO written to a USB stick (raw disk on usb-storage behind qemu-xhci),
    under BIOS (SeaBIOS) and under UEFI (OVMF);
  * network boot from `make netboot`'s TFTP root through QEMU's user-mode
    network and its built-in TFTP server, PXE under BIOS (iPXE option ROM of
    the e1000) and under UEFI;
  * QEMU -kernel is t_methods.py's (every test there boots that way).
The ISO and network boots run GRUB's default menu entry as a lab machine
would (100 ensembles x 10000 samples: about 15 s under TCG; GRUB's menu
waits 3 s), not a test-only entry: what is tested is what is shipped.

The screen (tests/boot/screen.py: how it is read, exactly, without OCR):
  * VGA text, read from 0xB8000, with console=none and with no UART;
  * the framebuffer GRUB hands over under UEFI (32 bpp), and a 24 bpp one
    set up by GRUB under BIOS from a test-only ISO, read from a screen dump
    against kernel/font.c.
Also: console=ttyS1,BAUD, bad console= values, after=reboot.
"""
import os
import re
import shutil
import subprocess

import builds
import machines
from qemu import (BEGIN, BUILD, END, EXIT_SUCCESS, LOGS, ROOT, Run, Skip, check, expect_complete, qemu,
                  tail)
from screen import HALTED, Machine, end_screen, symbol_address, wrapped_rows

# A short -kernel run (a few seconds under TCG).
QUICK = "ensembles=3 samples=200 workloads=measured_function"


def fb_cols(lines, run):
    """The text columns of the framebuffer the console line reports."""
    for l in run.lines:
        m = re.search(r"screen framebuffer \d+x\d+, \d+ bpp, at 0x[0-9a-fA-F]+, (\d+)x(\d+) characters", l)
        if m:
            check(int(m.group(2)) == len(lines), f"{m.group(0)} but the screen dump has {len(lines)} rows",
                  run.text)
            return int(m.group(1))
    raise AssertionError("no framebuffer console line")


def expect_grub_run(run):
    env = run.one("env")
    check(env["boot_protocol"] == 2 and env["loader"].startswith("GRUB"), f"env {env}", run.text)
    cfg = run.one("config")
    check(cfg["ensembles"] == 100 and cfg["samples"] == 10000,
          f"not GRUB's default entry (100 x 10000): {cfg}", run.text)


def expect_complete_halted(text):
    """A run without isa-debug-exit: complete, then halted."""
    run = Run(None, text)
    check(not run.errors, f"bad records: {run.errors}", text)
    check(BEGIN in run.lines and END in run.lines, "record markers missing", text)
    final = run.final_line()
    check(final is not None and final.startswith("bench: run complete"),
          "no final 'bench: run complete' line", text)
    check(run.one("end")["status"] == "complete", "end record status", text)
    check(any(l.startswith(HALTED) for l in run.lines), "no 'bench: halted' line after it", text)
    return run


def expect_screen_final(lines, what):
    """The screen's text ends with the final line, then the halt line."""
    shown = [l for l in lines if l.strip()]
    text = "\n".join(lines)
    check(len(shown) >= 2 and shown[-1].startswith(HALTED),
          f"{what}: the last line on the screen is not 'bench: halted; ...'", text)
    finals = [l for l in shown if l.startswith("bench: run ")]
    check(finals and finals[-1].startswith("bench: run complete:"),
          f"{what}: no 'bench: run complete:' line on the screen", text)
    check("\ufffd" not in text, f"{what}: cells that match no glyph of kernel/font.c", text)


# --- USB sticks ----------------------------------------------------------------

def fit(v, width):
    """lib/fmt.c fmt_fit_u64/fmt_fit_i64: v exactly when it fits width characters,
    else d.dde+N with the digits floored."""
    if not isinstance(v, int):
        raise AssertionError(f"fit({v!r}): not an integer")
    if v < 0:
        return "-" + fit(-v, width - 1)
    if len(str(v)) <= width:
        return str(v)
    d = str(v)
    return f"{d[0]}.{d[1:3]}e{len(d) - 1}"


def screen_figure(v, width):
    """A variance as the screen summary shows it (bench/screen.c): exact
    (lib/wide.h) and fitted to width, or "none" where it is missing, which
    the records give as null."""
    return "none" if v is None else fit(v, width)


def screen_ergodic(v):
    """The verdict as the screen shows it: "unknown" when it is not valid
    (a figure missing), else yes or NO."""
    return "unknown" if not v["valid"] else "yes" if v["ergodic"] else "NO"


def expect_screen_summary(lines, what, run=None, cols=80):
    """The one-screen summary (bench_screen_summary): it starts the screen
    with "bench summary:" (nothing scrolled it away: it keeps to the
    screen's rows, bench/screen.c summary_rows), keeps to the screen's cols
    columns (at most 132: bench/screen.c wraps its lines there), has a method
    table, and ends with the final line and the halt line. With the run's
    serial log, every method row's figures are the records' (the empty
    window's summary in the method's own unit), and every workload row's
    TSC ticks are the net least minimum of the method it names."""
    text = "\n".join(lines)
    shown = [l.rstrip() for l in lines]
    while shown and not shown[-1]:
        shown.pop()
    check(shown and shown[0].startswith("bench summary: "),
          f"{what}: the screen does not start with 'bench summary:'", text)
    check(len(shown) < len(lines), f"{what}: the summary takes {len(shown)} rows, the screen's {len(lines)} "
          "(the cursor's row below it is not free)", text)
    # The final line may wrap on 80 columns; what follows it (the save: line
    # under UEFI, kernel/efi.h, and the halt line) is the console's, as wide
    # as the screen.
    body = shown
    final_row = next((i for i, l in enumerate(body) if l.startswith("bench: run ")), len(body))
    check(all(len(l) <= min(cols, 132) for l in body[:final_row]),
          f"{what}: a summary row is wider than {min(cols, 132)} columns", text)
    expect_screen_final(lines, what)
    head = [i for i, l in enumerate(body) if l.split()[:3] == ["method", "offset", "ns"]]
    check(head, f"{what}: no method table on the screen", text)
    rows = {}
    for l in body[head[0] + 1:]:
        f = l.split()
        if len(f) != 7:
            break
        rows[f[0]] = f
    check(rows, f"{what}: the method table has no rows", text)
    if run is None:
        return rows
    for name, f in rows.items():
        sums = [r for r in run.by("summary", method=name, workload="empty")]
        check(sums, f"{what}: screen row for {name}, but no summary record", text)
        primary = [r for r in sums if r["unit"] == ("tsc_ticks" if not name.startswith("ctr_") else "core_cycles")]
        r = primary[0]
        check(f[1] == fit(r["min_of_mins"], 7), f"{what}: {name} offset {f[1]} on screen, {r['min_of_mins']} in the records", text)
        check(f[3] == screen_figure(r["total_variance"], 9), f"{what}: {name} total variance {f[3]} on screen, {r['total_variance']} in the records", text)
        check(f[4] == screen_figure(r["var_of_vars"], 11), f"{what}: {name} var of vars {f[4]} on screen, {r['var_of_vars']} in the records", text)
        check(f[5] == screen_figure(r["var_of_mins"], 11), f"{what}: {name} var of mins {f[5]} on screen, {r['var_of_mins']} in the records", text)
        v = run.one("verdict", method=name)
        check(f[6] == screen_ergodic(v), f"{what}: {name} verdict {f[6]} on screen, valid={v['valid']} ergodic={v['ergodic']} in the records", text)
    by = [l for l in body if l.startswith("net of the offset (least minimum), by ")]
    check(by, f"{what}: no workload table on the screen", text)
    method = by[0].split(", by ")[1].split(";")[0]
    start = body.index(by[0]) + 2
    seen = 0
    for l in body[start:]:
        f = l.split()
        if l.startswith(("bench: run ", "TSC ", "! ", "~ ")) or len(f) < 3:  # the note under the nets
            break
        r = [x for x in run.by("summary", method=method, workload=f[0]) if x["unit"] == "tsc_ticks"]
        check(r, f"{what}: screen row for workload {f[0]}, but no summary record by {method}", text)
        flag = r[0].get("net_min_flag")  # marked '!' below zero, '~' below the resolution (bench/summary.h)
        want = fit(r[0]["net_min"], 9) + ("!" if flag == "below_zero" else "~") if flag else fit(r[0]["net_min"], 10)
        check(f[1] == want, f"{what}: {f[0]} net {f[1]} TSC ticks on screen, net_min {r[0]['net_min']} in the records", text)
        seen += 1
    check(seen, f"{what}: the workload table has no rows", text)
    return rows


def test_bootpaths_usb_stick_bios():
    """The ISO as a USB stick (xHCI), SeaBIOS: GRUB's default entry, on the
    VESA framebuffer iso/grub.cfg asks for (for the QR code, tests/boot/t_qr.py)."""
    rc, text = qemu("usb-bios", "bios-usb")
    run = expect_complete(rc, text)
    expect_grub_run(run)
    check(any(l.startswith("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen framebuffer ")
              and " 32 bpp, " in l for l in run.lines),
          "BIOS boot: the screen is not a 32 bpp VESA framebuffer (iso/grub.cfg's gfxpayload)", text)


def expect_screen_is_log_tail(lines, log, cols, what):
    """The screen at the end of the run, before the summary: the log printed
    before the measuring (the serial log's lines up to its "serial:"
    estimate, without the records, which never reach the screen) scrolled
    up, the progress area (bench/progress.h: 4 rows, all ensembles done),
    the save: and log: lines the serial log has right before the final line
    (kernel/efi.h, kernel/console.h), then the final line; the row below
    the last line (the cursor's) is blank."""
    out = log.replace("\r", "")
    out = out[out.index("console: serial "):]
    cut = out.index("\n", out.index("\nserial: this run prints ") + 1) + 1
    before = "".join(l for l in out[:cut].splitlines(True) if not l.startswith("{"))
    final = [l for l in out.splitlines() if l.startswith("bench: run ")]
    check(final, f"{what}: no final line in the serial log", out[-2000:])
    nonblank = [i for i, l in enumerate(lines) if l]
    check(nonblank, f"{what}: the screen is blank")
    content = lines[:nonblank[-1] + 1]
    screen = "\n".join(lines)
    check(len(content) < len(lines), f"{what}: the cursor's row below the last line is not blank", screen)
    log_lines = out.splitlines()
    at = log_lines.index(final[-1])
    first = at
    while first > 0 and log_lines[first - 1].startswith(("log: ", "save: ")):
        first -= 1
    tail = wrapped_rows("".join(l + "\n" for l in log_lines[first:at + 1]), cols)
    check(content[-len(tail):] == tail, f"{what}: the screen does not end with the final line", screen)
    area = content[-len(tail) - 4:-len(tail)]
    check(len(area) == 4 and area[0].startswith("progress of the run (") and
          re.fullmatch(r"ensembles (\d+) of \1 done \(100 %\)", area[2]),
          f"{what}: no progress area of a finished run above the final line: {area}", screen)
    head = content[:-len(tail) - 4]
    want = wrapped_rows(before, cols)[-len(head):]
    for i, (got, exp) in enumerate(zip(head, want)):
        check(got == exp, f"{what}: screen row {i}: {got!r}, expected from the serial log {exp!r}", screen)
    return content


def test_bootpaths_usb_stick_uefi_framebuffer():
    """The ISO as a USB stick, OVMF: GRUB hands over the GOP framebuffer.
    Stopped at the end of the run (bench_exit, or console_screen_clear if
    the summary is put on a fresh screen) the scrolled screen is the log
    before the measuring, the progress area and the final line, read back
    with kernel/font.c; after the halt the screen
    holds the one-screen summary, whose figures are the records'."""
    elf = os.path.join(BUILD, "bench.elf")
    stops = [symbol_address(elf, "bench_exit"), symbol_address(elf, "console_screen_clear")]
    with Machine("usb-uefi", machine="ovmf-usb", stopped=True) as m:
        m.run_to(stops, m.timeout)
        scrolled, log = m.framebuffer_text("end-of-run"), m.serial_text()
        m.resume()
        m.wait_for(HALTED, m.serial_text, m.timeout)
        lines, _ = end_screen(m, elf)  # the summary's page when the QR code has pages
        text = m.serial_text()
    run = expect_complete_halted(text)
    expect_grub_run(run)
    check(any(l.startswith("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen framebuffer ")
              and " 32 bpp, " in l for l in run.lines),
          "UEFI boot: no 32 bpp framebuffer console line", text)
    cols = fb_cols(lines, run)
    content = expect_screen_is_log_tail(scrolled, log, cols, "UEFI framebuffer, end of the run")
    check(len(content) == len(scrolled) - 1, "UEFI framebuffer: the screen had not scrolled",
          "\n".join(scrolled))
    expect_screen_summary(lines, "UEFI framebuffer, halted", run, cols)


# --- network boot --------------------------------------------------------------

def netboot(name, machine):
    root = builds.netboot()
    bootfile = machines.PXE_BOOTFILE[machines.get(machine).firmware]
    if not os.path.exists(os.path.join(root, bootfile)):
        raise Skip(f"make netboot built no {bootfile}")
    import netns
    rc, text = qemu(name, machine, image=root, wrap=netns.isolated())
    if rc not in (EXIT_SUCCESS,) and "romfile" in text:
        raise Skip("QEMU has no PXE option ROM for the e1000 (Debian package ipxe-qemu)\n" + tail(text, 3))
    run = expect_complete(rc, text)
    expect_grub_run(run)
    return run


def test_bootpaths_netboot_bios_pxe():
    """make netboot; PXE (iPXE ROM) loads GRUB's core.0 by TFTP, which loads
    grub.cfg and the kernel by TFTP."""
    run = netboot("netboot-bios", "bios-pxe")
    check(any(l.startswith("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen framebuffer ")
              for l in run.lines), "netboot BIOS: the screen is not the VESA framebuffer", run.text)
    # make netboot's GRUB header gives send= to the server GRUB booted from
    # (tools/benchnetboot.py); under BIOS the kernel says why nothing is sent.
    check("config: send=http://10.0.2.2:8080/" in run.lines and
          "send: results are sent only under UEFI (this boot is BIOS: serial, screen and QR code)" in run.lines,
          "netboot BIOS: no send= from GRUB's net_default_server, or no line saying results go only under UEFI",
          run.text)


def test_bootpaths_netboot_uefi_pxe():
    """make netboot; UEFI PXE loads GRUB's core.efi by TFTP."""
    run = netboot("netboot-uefi", "ovmf-pxe")
    check(any(l.startswith("console: serial ttyS0") and "screen framebuffer" in l for l in run.lines),
          "netboot UEFI: no framebuffer console line", run.text)


# --- the screen without serial output ------------------------------------------

def console_lines_then_final(name, append, serial, read):
    """Stop where console_init is done, take the screen (its lines only),
    go on to the end of the run, take the screen again."""
    done = symbol_address(os.path.join(BUILD, "bench.elf"), "console_init_done")
    with Machine(name, append=append, serial=serial, stopped=True) as m:
        m.run_to(done, 60)
        first = read(m)
        m.resume()
        m.wait_for(HALTED, lambda: read(m), 90, every=1.0)
        m.wait_halted(60)
        last = read(m)
        serial_text = m.serial_text() if serial else ""
    return [l for l in first if l], last, serial_text


def after_banner(first):
    """The screen's rows when console_init is done, after the run's banner
    (its first line, printed by console_init before its own: "bench
    VERSION: ...", wrapped over rows), which must come first."""
    at = next((i for i, l in enumerate(first) if l.startswith("console: ")), len(first))
    check(at > 0 and first[0].startswith("bench ") and "interrupts off" in " ".join(first[:at]),
          "the screen when console_init is done does not open with the run's banner", "\n".join(first))
    return first[at:]


def test_bootpaths_console_none_vga_screen():
    """console=none: nothing on the serial port, the whole run on the VGA
    text screen (read from 0xB8000 through the monitor)."""
    first, last, serial = console_lines_then_final(
        "console-none", f"console=none {QUICK}", True, Machine.vga_text)
    check(after_banner(first) == ["console: serial none (console=none); screen VGA text 80x25"],
          "the screen when console_init is done", "\n".join(first))
    expect_screen_summary(last, "VGA text, console=none")
    check(serial.strip() == "", "console=none: the kernel wrote to the serial port", serial)


def test_bootpaths_missing_uart_completes_on_screen():
    """QEMU -serial none: no UART at 0x3F8. The loopback test finds none, the
    message says so on the screen, the run completes (exit status 33) and
    its final line is on the screen."""
    # -serial none after the harness's -serial stdio: QEMU keeps that first
    # port, so this run checks the exit status; the next has no UART at all.
    rc, text = qemu("no-uart-status", "q35-tcg", QUICK, extra=["-serial", "none"])
    check(rc == EXIT_SUCCESS, f"QEMU exit status {rc}, expected {EXIT_SUCCESS}", text)
    first, last, _ = console_lines_then_final("no-uart-screen", QUICK, False, Machine.vga_text)
    want = wrapped_rows("console: serial none (no UART at ttyS0); screen VGA text 80x25\n"
                        "console: no UART answered at ttyS0 (I/O 0x3F8, loopback test failed); "
                        "the output goes to the screen only\n", 80)
    check(after_banner(first) == want, "the screen when console_init is done", "\n".join(first))
    expect_screen_summary(last, "VGA text, no UART")


def grub_test_iso(name, entry, xorriso=None):
    """A test-only ISO: the kernel and a one-entry grub.cfg, no menu delay."""
    return grub_iso(name, "set timeout=0\ninsmod all_video\n"
                    f'menuentry "{name}" {{\n{entry}\n\tboot\n}}\n', xorriso)


def grub_iso(name, cfg, xorriso=None, elf=None, files=None):
    """A test-only ISO (logs/NAME.iso): build/bench.elf (elf: another
    build's, e.g. the fake PMU's), the GRUB menu cfg and files ({path in
    the ISO: bytes}, e.g. boot/plan.txt); xorriso: grub-mkrescue's
    --xorriso (tests/boot/stick.py: the shipped ISO's EFI partition)."""
    if not shutil.which("grub-mkrescue"):
        raise Skip("grub-mkrescue is not installed")
    top = os.path.join(LOGS, f"iso-{name}")
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "boot", "grub"))
    shutil.copyfile(elf or os.path.join(BUILD, "bench.elf"), os.path.join(top, "boot", "bench.elf"))
    with open(os.path.join(top, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(cfg)
    for path, data in (files or {}).items():
        with open(os.path.join(top, path), "wb") as f:
            f.write(data)
    iso = os.path.join(LOGS, f"{name}.iso")
    p = subprocess.run(["grub-mkrescue"] + ([f"--xorriso={xorriso}"] if xorriso else []) + ["-o", iso, top],
                       stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    check(p.returncode == 0, "grub-mkrescue failed", p.stdout.decode("utf-8", errors="replace"))
    return iso


def test_bootpaths_framebuffer_24bpp_no_uart():
    """GRUB under BIOS set to a 24 bpp mode (test-only ISO), no UART. Stopped
    where console_init is done (a breakpoint through QEMU's gdbstub), the
    screen holds exactly its lines: the run's banner (the first line,
    printed by console_init before its own), the console line and the
    missing-UART message; then the run goes on and its end is on the
    screen."""
    args = "methods=cpuid output=human ensembles=1 samples=10 warmup=0 workloads=measured_function"
    iso = grub_test_iso("fb24", f"\tmultiboot2 /boot/bench.elf {args}\n\tset gfxpayload=1280x1024x24")
    done = symbol_address(os.path.join(BUILD, "bench.elf"), "console_init_done")
    with Machine("fb24", machine="bios-cdrom", image=iso, serial=False, stopped=True) as m:
        m.run_to(done, m.timeout)
        first = m.framebuffer_text("console-init")
        m.resume()
        m.wait_for(HALTED, m.framebuffer_text, m.timeout, every=2.0)
        m.wait_halted(60)
        lines = m.framebuffer_text()
    shown = after_banner([l for l in first if l])
    want = ["console: serial none (no UART at ttyS0); screen framebuffer 1280x1024, 24 bpp, at 0x",
            "console: no UART answered at ttyS0 (I/O 0x3F8, loopback test failed); "
            "the output goes to the screen only"]
    check(len(shown) == 2 and shown[0].startswith(want[0]) and shown[0].endswith(
          ", 160x64 characters, write-combining") and shown[1] == want[1],
          "the screen when console_init is done is not the banner and its two lines", "\n".join(first))
    expect_screen_final(lines, "24 bpp framebuffer")


# --- console= and after= ---------------------------------------------------------

def test_bootpaths_console_ttyS1_baud():
    """console=ttyS1,9600: the run on COM2 (0x2F8), nothing on COM1."""
    log2 = os.path.join(LOGS, "test-console-ttyS1.com2")
    os.makedirs(LOGS, exist_ok=True)
    if os.path.exists(log2):
        os.unlink(log2)
    with Machine("console-ttyS1", append=f"console=ttyS1,9600 {QUICK}", debug_exit=True,
                 serial=["-serial", "file:" + os.path.join(LOGS, "test-console-ttyS1.com1"),
                         "-serial", "file:" + log2]) as m:  # COM1 and COM2 into files
        rc = m.wait_exit(90)
    with open(log2, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    with open(os.path.join(LOGS, "test-console-ttyS1.com1"), "rb") as f:
        com1 = f.read().decode("utf-8", errors="replace")
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS1 (I/O 0x2F8) 9600 baud 8N1; screen VGA text 80x25"),
          "no console line for ttyS1 at 9600", text)
    check(com1.strip() == "", "console=ttyS1: output on COM1 too", com1)


def test_bootpaths_console_ttyS0_9600():
    """console=ttyS0,9600: the port found and the whole log on it, to the
    final line. QEMU's UART sends at once whatever its rate, so this proves
    the path, not the waits: their arithmetic is tests/unit/test_uartwait.c,
    their pacing tests/boot/bochs_tests.py (a UART paced in emulated time)."""
    rc, text = qemu("console-9600", "q35-tcg", f"console=ttyS0,9600 {QUICK}")
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 9600 baud 8N1;"), "no console line for ttyS0 at 9600",
          text)
    check(run.one("serial_estimate")["baud"] == 9600, "the serial estimate is not at 9600 baud", text)


def test_bootpaths_console_bad_values():
    """Bad console= values: one message each, naming the key and the accepted
    values; the run goes on on ttyS0 at 115200."""
    rc, text = qemu("console-bad", "q35-tcg", f"console=ttyS7 console=ttyS1,1234 {QUICK} problems=ignore")
    run = expect_complete(rc, text)
    for bad in ("ttyS7", "ttyS1,1234"):
        check(any(l.startswith(f"config: console={bad} is not an accepted value; accepted: ttyS0..ttyS3 "
                               "(I/O 0x3F8, 0x2F8, 0x3E8, 0x2E8)")
                  and l.endswith("; keeping ttyS0,115200") for l in run.lines),
              f"no message for console={bad}", text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1;"), "not on ttyS0,115200", text)


def reboot_run(name, machine):
    """after=reboot without isa-debug-exit; -no-reboot makes QEMU exit (status
    0) when the guest resets instead of booting again."""
    with Machine(name, machine=machine, append=f"after=reboot {QUICK}") as m:
        rc = m.wait_exit(90)
        text = m.serial_text()
    check(rc == 0, f"QEMU exit status {rc}: the machine did not reset", text)
    run = expect_complete_halted_or_reset(text)
    return run


def expect_complete_halted_or_reset(text):
    run = Run(None, text)
    final = run.final_line()
    check(final is not None and final.startswith("bench: run complete"), "no final line", text)
    check(run.has_line("bench: after=reboot: resetting through the "), "no reset message", text)
    check(not run.has_line(HALTED), "halted instead of resetting", text)
    return run


def test_bootpaths_after_reboot_fadt():
    """after=reboot on q35 (ICH9): the FADT's reset register (QEMU's: 0xF to
    I/O 0xCF9) is tried first, announced, and resets (ACPI 6.5 4.8.3.6)."""
    run = reboot_run("reboot-q35", "q35-tcg")
    check(run.has_line("bench: after=reboot: resetting through the FADT reset register (0xf to I/O 0xcf9; "),
          "the FADT's reset register was not tried first", run.text)
    check(not run.has_line("bench: still running"), "the FADT reset register did not reset the q35 machine",
          run.text)


def test_bootpaths_after_reboot_cf9():
    """after=reboot on i440fx without ACPI: one line says why the FADT's
    reset register is not used; the reset control register at 0xCF9 resets."""
    run = reboot_run("reboot-pc-noacpi", "pc-noacpi")
    check(run.has_line("bench: after=reboot: FADT reset register: not used: no ACPI tables"),
          "no line saying why the FADT reset register is not used", run.text)
    check(run.has_line("bench: after=reboot: resetting through the reset control register"),
          "0xCF9 not tried", run.text)
    check(not run.has_line("bench: still running"), "0xCF9 did not reset the machine", run.text)


def test_bootpaths_after_reboot_8042():
    """after=reboot on QEMU's isapc (no PCI, so no 0xCF9): the 8042 resets."""
    run = reboot_run("reboot-isapc", "isapc")
    check(run.has_line("bench: still running: resetting through the keyboard controller"),
          "no 8042 attempt on a machine without 0xCF9", run.text)
    check(not run.has_line("bench: still running: forcing a triple fault"),
          "the 8042 did not reset the isapc machine", run.text)


def test_bootpaths_font_c_matches_drawings():
    """kernel/font.c is what tools/mkfont.py makes of its drawings (the
    screen tests read the font from kernel/font.c)."""
    p = subprocess.run(["python3", os.path.join(ROOT, "tools", "mkfont.py"), "--check"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    check(p.returncode == 0, "kernel/font.c is not up to date", p.stdout.decode())


def test_bootpaths_screen_summary_matches_records():
    """QEMU -kernel (VGA text) with serial: after the run the screen holds
    the one-screen summary, within 80x25, and its figures are those of the
    serial log's records; the serial log does not get the summary twice."""
    with Machine("screen-summary", append="ensembles=4 samples=300", serial=True) as m:
        m.wait_for(HALTED, m.vga_text, m.timeout, every=1.0)
        m.wait_halted(60)
        lines, text = m.vga_text(), m.serial_text()
    run = expect_complete_halted(text)
    rows = expect_screen_summary(lines, "VGA text, summary", run)
    check({"cpuid", "rdtscp", "cr0"} <= set(rows), "VGA text: the summary lacks a method row",
          "\n".join(lines))
    check(not any(l.startswith("bench summary:") for l in run.lines),
          "the screen-only summary reached the serial log", text)

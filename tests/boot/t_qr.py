"""tests/boot/t_qr.py - the QR code of the results on the screen (kernel/qr.c,
lib/qrtext.h), read back as a phone would: a QEMU screendump decoded with
zbarimg (Debian zbar-tools). Every figure the code's text carries must be
the serial records' of the same run, read here with the boot tests' own
parser (qemu.Run), not with tools/benchqr.py.

  * BIOS (SeaBIOS), the shipped ISO's default entry: GRUB sets a VESA mode
    (iso/grub.cfg), the code is drawn beside the summary, the machine
    halts; the summary's text is still read exactly (tests/boot/screen.py).
  * UEFI (OVMF), the same entry on the GOP framebuffer.
  * A run whose text needs two codes (a test build with 40 more workloads
    of long names, tests/boot/qr_many_test.c): the summary and each code get
    a page of their own, shown in turn; the test stops at each page
    (qr_page_shown, through QEMU's gdbstub), advances with a key press
    (QEMU's sendkey into the 8042), decodes both codes and joins them.
Every QEMU run has a timeout (the waits below)."""
import os
import re
import shutil
import subprocess
import zlib

import builds
from qemu import BUILD, LOGS, Run, Skip, check
from screen import HALTED, Machine, end_screen, quiet_zones, stop_at_page, symbol_address
from t_bootpaths import expect_complete_halted, expect_screen_summary, fb_cols

NS = "{http://zbar.sourceforge.net/2008/barcode}"
UNITS = ("tsc_ticks", "core_cycles", "instructions")


def zbar(png):
    """The texts of the QR codes in a PNG (zbarimg --xml keeps each
    symbol's newlines)."""
    import xml.etree.ElementTree as ET
    exe = shutil.which("zbarimg")
    if not exe:
        raise Skip("zbarimg is not installed (Debian package zbar-tools)")
    p = subprocess.run([exe, "--xml", "-q", "--nodbus", "-Sdisable", "-Sqrcode.enable", png],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    check(p.returncode in (0, 4), f"zbarimg {png}: exit status {p.returncode}",
          p.stderr.decode(errors="replace"))
    if not p.stdout.strip():
        return []
    return [d.text for d in ET.fromstring(p.stdout.decode()).iter(NS + "data") if d.text]


def intact_codes(base, lines):
    """The codes zbarimg finds in the screendump base.png, each drawn with
    its quiet zone intact (screen.quiet_zones on base.ppm: as many codes
    as intact white squares)."""
    codes, zones = zbar(base + ".png"), quiet_zones(base + ".ppm")
    check(len(zones) == len(codes), f"{len(codes)} codes decoded in {base}.png, {len(zones)} with an intact "
          "quiet zone", "\n".join(lines))
    return codes


def screen_codes(m, tag):
    """A screendump (kept as FILES-tag.png) and the codes zbarimg finds in
    it, each with its quiet zone intact."""
    lines = m.framebuffer_text(tag)
    return lines, intact_codes(f"{m.files}-{tag}", lines)


def join_parts(texts):
    """The body of a run's codes: each 'bench1 P/N CRC' header, the parts in
    order, the CRC-32 of the joined body checked."""
    parts, n, crc = {}, None, None
    for t in texts:
        head, _, rest = t.partition("\n")
        m = re.fullmatch(r"bench1 ([1-9])/([1-9]) ([0-9a-f]{8})", head)
        check(m, f"a code does not start with 'bench1 P/N CRC': {head!r}")
        check(n in (None, int(m.group(2))) and crc in (None, m.group(3)), f"codes of different runs: {head!r}")
        n, crc = int(m.group(2)), m.group(3)
        parts[int(m.group(1))] = rest
    check(sorted(parts) == list(range(1, n + 1)), f"parts {sorted(parts)} of {n}")
    body = "".join(parts[i] for i in range(1, n + 1))
    check(f"{zlib.crc32(body.encode()):08x}" == crc, f"the joined body's CRC-32 is not {crc}", body)
    return body, n


def group(values):
    """'T/C/I' of {unit: value}, trailing units left out, '-' for none."""
    cells = [str(values[u]) if u in values else "-" for u in UNITS]
    while cells and cells[-1] == "-":
        cells.pop()
    return "/".join(cells) or "-"


def expected_body(run):
    """The bench1 body the records of run give (lib/qrtext.h's format)."""
    env, cfg = run.one("env"), run.one("config")
    mc = run.one("machine")["microcode"]
    rate = run.one("tsc_rate")
    out = [f"run {env['run_id']}"] if env.get("run_id") else []  # kernel/runid.h
    out += [f"vendor {env['vendor']}",
            f"cpu {env['family']} {env['model']} {env['stepping']} {'-' if mc is None else hex(mc)}",
            f"brand {env['brand'] or '-'}",
            f"hv {env['hypervisor_vendor'] if env['hypervisor'] else 'none'}"]
    ident = [env.get(k) or "" for k in ("system", "board", "bios")]  # lib/qrtext.h sys line (SMBIOS)
    if any(ident):
        out.append("sys " + "|".join(f.replace("|", "?") for f in ident))
    out += [f"tsc {rate['hz']} {rate['ppm']} {rate['source']}"]
    step = run.by("tsc_step")
    if step:
        out.append(f"tstep {step[-1]['step']} {'sure' if step[-1]['sure'] else 'may'}")
    out += [f"size {cfg['ensembles']} {cfg['samples']} {cfg['warmup']}",
           f"limits {cfg['max_var_of_vars']} {cfg['max_var_of_mins']}"]
    ran = list(dict.fromkeys(r["method"] for r in run.by("method") if r.get("workload") == "empty"))
    # SMIs and NMIs from the human lines (bench/report.c), not the ensemble records.
    counted = run.has_line("disturbances: SMIs counted per ensemble")
    disturbed = [re.match(r"disturbed: method (\S+), workload \S+, ensemble \d+: (\d+) SMIs, (\d+) NMIs", l)
                 for l in run.lines]
    nets, lows = {}, {}
    for mname in ran:
        sums = {r["unit"]: r for r in run.by("summary", method=mname, workload="empty")}
        v = run.one("verdict", method=mname)
        own = v["unit"]
        p = sums[own]
        fig = ["ovf" if p[k] is None else str(p[k]) for k in ("total_variance", "var_of_vars", "var_of_mins")]
        verdict = "unknown" if not v["valid"] else "ergodic" if v["ergodic"] else "not-ergodic"
        smis = sum(int(d.group(2)) for d in disturbed if d and d.group(1) == mname)
        nmis = sum(int(d.group(3)) for d in disturbed if d and d.group(1) == mname)
        unread = any(l.startswith("disturbances: MSR_SMI_COUNT (34H) faulted (") and f" around method {mname}, " in l
                     for l in run.lines)
        smi = "na" if not counted else "unread" if unread else str(smis)
        out.append(f"m {mname} {'c' if own == 'core_cycles' else 't'} "
                   f"{group({u: r['min_of_mins'] for u, r in sums.items()})} {' '.join(fig)} {verdict} "
                   f"{smi} {nmis}")
        for r in run.recs:
            if r.get("rec") == "summary" and r["method"] == mname and r["workload"] != "empty" \
                    and r["workload"] != "measured_loop":
                nets.setdefault(r["workload"], {}).setdefault(mname, {})[r["unit"]] = r["net_min"]
                if r.get("net_min_flag"):  # only on a flagged net (README)
                    lows.setdefault(r["workload"], {}).setdefault(mname, {})[r["unit"]] = \
                        "z" if r["net_min_flag"] == "below_zero" else "r"
    skips = [r["method"] for r in run.by("skip") if r.get("workload") is None]
    if skips:
        out.append("skip " + " ".join(skips))
    for w, by in nets.items():
        out.append(f"w {w} " + " ".join(group(by.get(mname, {})) for mname in ran))
        if w in lows:
            out.append(f"low {w} " + " ".join(group(lows[w].get(mname, {})) for mname in ran))
    rec = run.one("recommendation")["method"]
    out.append(f"rec {rec or 'none'}")
    out.append(f"final {run.final_line()}")
    return out


def expect_code_is_records(body, run, what):
    """Every line of the code's text is what the records give, in order."""
    got, want = body.rstrip("\n").split("\n"), expected_body(run)
    for i, (g, w) in enumerate(zip(got, want)):
        check(g == w, f"{what}: line {i + 1} of the code {g!r}, the records give {w!r}", body)
    check(len(got) == len(want), f"{what}: the code has {len(got)} lines, the records give {len(want)}", body)


def halted_run_with_code(name, machine):
    """Boot, wait for the halt, take the screen: (run, screen lines, codes)."""
    with Machine(name, machine=machine) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        lines, codes = screen_codes(m, "halted")
        text = m.serial_text()
    return expect_complete_halted(text), lines, codes


def expect_one_code(run, lines, codes, what):
    check(len(codes) == 1, f"{what}: {len(codes)} QR codes on the screen, expected one (screen "
          f"dump in {LOGS})", "\n".join(lines))
    body, n = join_parts(codes)
    check(n == 1, f"{what}: a code of {n} parts on a screen that holds one")
    expect_code_is_records(body, run, what)
    expect_screen_summary(lines, what, run, fb_cols(lines, run))


def test_qr_bios_vesa_framebuffer():
    """BIOS: the ISO's default entry on the VESA framebuffer GRUB sets; the
    summary and, beside it, one code whose text is the records'."""
    run, lines, codes = halted_run_with_code("qr-bios", "bios-cdrom")
    check(any(re.match(r"console: serial ttyS0 .*; screen framebuffer (\d+)x\d+, 32 bpp", l)
              for l in run.lines), "BIOS boot: no 32 bpp framebuffer (iso/grub.cfg's gfxpayload)", run.text)
    fb_cols(lines, run)
    expect_one_code(run, lines, codes, "BIOS, VESA framebuffer")


def test_qr_uefi_gop_framebuffer():
    """UEFI (OVMF), the ISO as a USB stick, the firmware's GOP mode (OVMF:
    800x600, too small for the code beside the summary): the summary, then
    the code on a page of its own (a key press advancing), its text the
    records'; on a larger screen the code beside the summary, halted."""
    elf = os.path.join(BUILD, "bench.elf")
    # The gdbstub is attached only at the end: a debugger slows TCG down.
    with Machine("qr-uefi", machine="ovmf-usb", gdb=True) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        summary, paged = end_screen(m, elf)
        if paged:
            pages = stop_at_page(m, symbol_address(elf, "qr_page_shown"), 1, 60)
            _, codes = screen_codes(m, "code")
            m.resume()
        else:
            pages, codes = 1, intact_codes(m.files, summary)
        text = m.serial_text()
    run = expect_complete_halted(text)
    check(any(" screen framebuffer " in l for l in run.lines if l.startswith("console:")),
          "UEFI boot: no framebuffer console line", run.text)
    check(pages == 2 or not paged, f"{pages} pages: the summary and one code expected", text)
    expect_one_code(run, summary, codes, "UEFI, GOP framebuffer")


def many_workloads_iso():
    """A kernel with tests/boot/qr_many_test.c's 40 workloads, on a one-entry
    ISO at 1024x768 (BIOS): its text needs two version 40 codes, which do
    not fit beside each other. Returns (the ISO, the kernel's ELF)."""
    many = builds.variant("qr-many", "tests/boot/qr_many_test.c")
    top = os.path.join(LOGS, "iso-qr-many")
    shutil.rmtree(top, ignore_errors=True)
    os.makedirs(os.path.join(top, "boot", "grub"))
    shutil.copyfile(os.path.join(many, "bench.elf"), os.path.join(top, "boot", "bench.elf"))
    with open(os.path.join(top, "boot", "grub", "grub.cfg"), "w") as f:
        f.write("set timeout=0\ninsmod vbe\nmenuentry qr-many {\n"
                "\tmultiboot2 /boot/bench.elf ensembles=2 samples=20 warmup=10\n"
                "\tset gfxpayload=1024x768x32\n\tboot\n}\n")
    iso = os.path.join(LOGS, "qr-many.iso")
    p = subprocess.run(["grub-mkrescue", "-o", iso, top], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=120)
    check(p.returncode == 0, "grub-mkrescue failed", p.stdout.decode(errors="replace"))
    return iso, os.path.join(many, "bench.elf")


def test_qr_two_codes_in_turn():
    """A run whose text is longer than one version 40-M code holds (2331
    bytes): the summary, then code 1/2, then code 2/2, each on its own page,
    a key press advancing; the two decoded codes join into the records'
    text; after the last code the summary comes back."""
    iso, elf = many_workloads_iso()
    page_fn = symbol_address(elf, "qr_page_shown")
    pages = []
    with Machine("qr-many", machine="bios-cdrom", image=iso, stopped=True) as m:
        m.run_to(page_fn, m.timeout)
        step, steps = 0, 4
        while step < steps:
            if step:  # step off the breakpoint, put it back, on to its next hit
                m.gdb.request(f"z0,{page_fn:x},1")
                m.gdb.request("s")
                m.gdb.request(f"Z0,{page_fn:x},1")
                reply = m.gdb.request("c")
                check(reply.startswith(("T05", "S05")), f"the run stopped for another reason: {reply!r}")
            page, count = m.register(5), m.register(4)  # rdi, rsi: qr_page_shown(page, pages)
            lines, codes = screen_codes(m, f"page{step}")
            pages.append((page, count, lines, codes))
            m.hmp("sendkey spc")  # read by the page's wait (8042) after the breakpoint
            if not step:  # every page, then the summary again (flagged nets make the text longer)
                steps = max(4, min(count, 10) + 1)
            step += 1
        m.resume()
        text = m.serial_text()
    run = Run(None, text)
    check(run.final_line() and run.final_line().startswith("bench: run complete"), "no final line", text)
    n = pages[0][1]
    check(n >= 3 and [(p[0], p[1]) for p in pages] == [(k, n) for k in range(n)] + [(0, n)],
          f"pages shown (page, pages): {[(p[0], p[1]) for p in pages]}, expected the summary, "
          "code 1, code 2 (and more when flagged nets lengthen the text), the summary", text)
    check(not pages[0][3] and not pages[-1][3], "a QR code on the summary's page", "\n".join(pages[0][2]))
    check(any(l.startswith("bench summary: ") for l in pages[0][2]), "page 0 is not the summary",
          "\n".join(pages[0][2]))
    check(all(len(p[3]) == 1 for p in pages[1:-1]),
          f"codes on the code pages: {[len(p[3]) for p in pages[1:-1]]}", text)
    for i in range(1, n):
        check(any(l.strip().startswith(f"QR code {i}/{n - 1} of the results") for l in pages[i][2]),
              f"no caption 'QR code {i}/{n - 1}' on page {i}", "\n".join(pages[i][2]))
    body, parts = join_parts([p[3][0] for p in pages[1:-1]])
    check(parts == n - 1 and len(body) > 2331 - 20, f"{parts} parts, {len(body)} bytes")
    expect_code_is_records(body, run, "two codes")

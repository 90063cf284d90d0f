"""tests/boot/screen.py - QEMU runs whose screen the tests read, through the
QEMU monitor (HMP) on a unix socket.

How the screen is read, exactly and without OCR:
  * VGA text mode: `pmemsave 0xb8000 4000 FILE` copies the 80x25 text
    buffer, two bytes a cell (character, attribute); the characters are the
    text.
  * framebuffer (GRUB under UEFI): `screendump FILE` writes the screen as a
    PPM; every 8x16 cell is compared with the glyphs of kernel/font.c, the
    very data the kernel draws with. The kernel draws light grey on black
    only (kernel/fb.h), so a pixel is lit or not, and a cell matches one
    glyph exactly or none (the font's glyphs all differ: tools/mkfont.py
    checks).
Both give the screen as lines of text, which the tests search for the run's
final line. The QR codes on a screendump are found as white squares and
their 4-module quiet zones checked pixel by pixel (quiet_zones).

The kernel writes the screen and then, under QEMU with isa-debug-exit, makes
QEMU exit: the screen is gone before anyone can read it. A run whose screen
is read is therefore started without isa-debug-exit: the kernel prints
"bench: halted; ..." and halts, the test waits for that line (on the serial
log, or on the screen itself when there is no serial output), then for the
CPU to be halted with interrupts off (Machine.wait_halted: the kernel writes
each line to the serial port before the screen, so the serial log can be
ahead of the screen), reads the screen, then quits QEMU. Every wait has a
bound and a failure message that says what did not happen.
"""
import os
import re
import socket
import subprocess
import time

import machines
from qemu import ROOT, check, machine_flags, run_files, tail

FONT_C = os.path.join(ROOT, "kernel", "font.c")
HALTED = "bench: halted;"


def load_font(path=FONT_C):
    """{16 row bytes: character} from kernel/font.c; the box is '\\x7f'."""
    glyphs = {}
    pat = re.compile(r"\{((?:0x[0-9a-fA-F]{2},?){16})\},\s*/\* 0x([0-9a-f]{2}) ")
    with open(path) as f:
        for line in f:
            m = pat.search(line)
            if m:
                rows = bytes(int(x, 16) for x in m.group(1).split(","))
                glyphs[rows] = chr(int(m.group(2), 16))
    if len(glyphs) != 96:
        raise AssertionError(f"{path}: {len(glyphs)} distinct glyphs read, expected 96")
    return glyphs


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise AssertionError(f"{path}: not a binary PPM with maxval 255")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos:pos + 3 * w * h]


WHITE = b"\xff\xff\xff"  # the QR code's light modules (kernel/qr.c); the text is 0xC0 grey


def framebuffer_text(path, font=None):
    """The text on a screen dump drawn by kernel/fb.c: one string per cell
    row, trailing blanks removed; a cell that matches no glyph is '\\ufffd'.
    A cell with a white pixel is part of the QR code drawn beside the text
    (kernel/qr.c), not text: it reads as a blank."""
    font = font or load_font()
    w, h, rgb = read_ppm(path)
    lines = []
    for r in range(h // 16):
        chars = []
        for c in range(w // 8):
            cell = bytearray(16)
            picture = False
            for y in range(16):
                off = 3 * ((16 * r + y) * w + 8 * c)
                row = rgb[off:off + 24]
                picture = picture or any(row[i:i + 3] == WHITE for i in range(0, 24, 3))
                bits = 0
                for x in range(8):
                    bits = (bits << 1) | (row[3 * x] + row[3 * x + 1] + row[3 * x + 2] > 3 * 0x60)
                cell[y] = bits
            chars.append(" " if picture else font.get(bytes(cell), "\ufffd"))
        lines.append("".join(chars).rstrip())
    return lines


QUIET = 4  # modules of quiet zone around a QR code (ISO/IEC 18004:2015 9.1; docs/SCREEN.md)


def quiet_zones(path):
    """The QR codes drawn on the screen dump path (kernel/qr.c: beside the
    summary or on pages of their own), each checked: a white square whose
    4-module border is white only and whose every pixel is white or black
    (no text cell, which is 0xC0 grey on black). Returns [(x, y, side in
    pixels, module in pixels)] of the squares found, whose top left corner
    must be intact to be found; an AssertionError names the first pixel
    that breaks the rule."""
    w, h, rgb = read_ppm(path)

    def white(x, y):
        o = 3 * (y * w + x)
        return rgb[o:o + 3] == b"\xff\xff\xff"

    found = []
    runs = re.compile(rb"(?:\xff\xff\xff)+")  # the screen's pixels are 00, C0 or FF triples: aligned
    for y in range(h):
        for run in runs.finditer(rgb, 3 * y * w, 3 * (y + 1) * w):
            x = run.start() // 3 - y * w
            if y and white(x, y - 1):
                continue
            if any(fx <= x < fx + s and fy <= y < fy + s for fx, fy, s, _ in found):
                continue
            side = 0
            while x + side < w and white(x + side, y):
                side += 1
            down = 0
            while y + down < h and white(x, y + down):
                down += 1
            if side < 29 * 3 or down != side:  # a version 1 code at 3 pixels a module, with its zone
                continue
            d = 0
            while d < side and white(x + d, y + d):
                d += 1
            check(d % QUIET == 0 and 3 <= d // QUIET <= 8,
                  f"{path}: the white square at ({x}, {y}), {side} pixels: its first dark pixel on the "
                  f"diagonal {d} pixels in, not 4 modules of 3 to 8 pixels")
            k = d // QUIET
            n = side // k - 2 * QUIET
            check(side % k == 0 and n % 4 == 1 and 21 <= n <= 177,
                  f"{path}: the square at ({x}, {y}): {side} pixels at {k} a module is no QR code's size")
            for yy in range(y, y + side):
                row = rgb[3 * (yy * w + x):3 * (yy * w + x + side)]
                inner = QUIET * k <= yy - y < side - QUIET * k
                band = row if not inner else row[:3 * QUIET * k] + row[-3 * QUIET * k:]
                bad = band.translate(None, b"\xff")
                if bad:
                    at = next(i for i in range(0, len(band), 3) if band[i:i + 3] != b"\xff\xff\xff") // 3
                    at = at if not inner or at < QUIET * k else at + n * k
                    raise AssertionError(f"{path}: the quiet zone of the code at ({x}, {y}) is drawn on: "
                                         f"pixel ({x + at}, {yy}) is not white")
                check(not row.translate(None, b"\xff\x00"),
                      f"{path}: a pixel of the code at ({x}, {y}), row {yy}, is neither white nor black (text)")
            found.append((x, y, side, k))
    return found


def wrapped_rows(output, cols):
    """The screen rows output makes on a console of cols columns (kernel/fb.c,
    kernel/vga.c): each line wrapped at cols, a line of exactly cols
    characters taking one row; right-stripped, as the screen readers give
    them. The screen shows the last of these rows: those written since it
    was last cleared (console_screen_clear), at most all its rows but one
    (the cursor's row, below the last line)."""
    lines = output.replace("\r", "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the output ends with a newline: the cursor is below
    rows = []
    for line in lines:
        rows += [line[i:i + cols].rstrip() for i in range(0, len(line), cols)] or [""]
    return rows


def unwrapped(lines):
    """The screen's lines with the rows of a wrapped line joined back
    (bench/screen.c screen_put: the rows after the first start with two
    spaces, the break at a space)."""
    out = []
    for l in lines:
        if l.startswith("  ") and out:
            out[-1] += " " + l.strip()
        else:
            out.append(l)
    return out


def vga_text(path):
    """The text of an 80x25 VGA text buffer saved by pmemsave (4000 bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    return ["".join(chr(b) if 0x20 <= b < 0x7F else " " for b in data[160 * r:160 * r + 160:2]).rstrip()
            for r in range(25)]


def png_from_ppm(ppm, png):
    """Write a PNG copy of a PPM (for people looking at a failed test)."""
    import struct
    import zlib
    w, h, rgb = read_ppm(ppm)
    raw = b"".join(b"\0" + rgb[3 * w * y:3 * w * (y + 1)] for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(png, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def symbol_address(elf, name):
    """The address of symbol name in elf (nm, binutils)."""
    p = subprocess.run(["nm", elf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    for line in p.stdout.decode("utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    raise AssertionError(f"no symbol {name} in {elf}")



class GdbClosed(AssertionError):
    """QEMU closed the gdbstub's connection."""

class Gdb:
    """The least of the GDB remote serial protocol, to stop a run at a
    breakpoint through QEMU's gdbstub: packets are $data#checksum, each
    acknowledged with '+'."""

    def __init__(self, path, timeout):
        end = time.time() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > end:
                    raise AssertionError(f"QEMU's gdbstub {path} did not answer")
                time.sleep(0.2)
        self.s.settimeout(timeout)
        self.buf = b""

    def _read_packet(self):
        while True:
            start = self.buf.find(b"$")
            if start >= 0:
                end = self.buf.find(b"#", start)
                if end >= 0 and len(self.buf) >= end + 3:
                    data = self.buf[start + 1:end]
                    self.buf = self.buf[end + 3:]
                    self.s.sendall(b"+")
                    return data.decode("ascii", errors="replace")
            chunk = self.s.recv(4096)
            if not chunk:
                raise GdbClosed("QEMU's gdbstub closed the connection")
            self.buf += chunk

    def request(self, data):
        """Send one packet; returns the reply packet's data."""
        csum = sum(data.encode()) & 0xFF
        self.s.sendall(f"${data}#{csum:02x}".encode())
        return self._read_packet()

    def close(self):
        self.s.close()


class Machine:
    """One QEMU run in the background, its serial port in a log file (or
    none), its monitor on a unix socket. Use as a context manager: QEMU is
    killed on the way out whatever happened."""

    def __init__(self, name, args=(), serial=True, debug_exit=False, machine="q35-tcg", append=None,
                 image=None, cpu=None, smp=None, stopped=False, gdb=False):
        """Run name on machine (tests/boot/machines.py; append, image, cpu,
        smp as there), then the QEMU flags args. serial: True (into
        logs/test-NAME.log), False (no serial port) or the test's own
        -serial flags; debug_exit: isa-debug-exit, so the kernel ends QEMU;
        stopped: paused at the first instruction, a gdbstub to go on (gdb:
        the gdbstub only, for attach())."""
        self.name = name
        self.files = run_files(name)
        self.timeout = machines.get(machine).timeout
        self.serial_log = self.files + ".log"
        self.sock = self.files + ".monitor"
        for p in (self.serial_log, self.sock):
            if os.path.exists(p):
                os.unlink(p)
        cmd = ["qemu-system-x86_64", "-display", "none", "-no-reboot",
               "-monitor", f"unix:{self.sock},server=on,wait=off"]
        if serial is True:
            cmd += ["-serial", f"file:{self.serial_log}"]
        elif serial is False:
            cmd += ["-serial", "none"]
        else:
            cmd += serial  # the caller's own -serial options
        if debug_exit:
            cmd += ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        self.gdb_sock = None
        if stopped or gdb:
            self.gdb_sock = self.files + ".gdb"
            if os.path.exists(self.gdb_sock):
                os.unlink(self.gdb_sock)
            cmd += (["-S"] if stopped else []) + ["-gdb", f"unix:{self.gdb_sock},server=on,wait=off"]
        self.cmd = cmd + machine_flags(name, machine, append=append, image=image, cpu=cpu, smp=smp) + list(args)
        with open(self.files + ".cmd", "w") as f:
            f.write(" ".join(self.cmd) + "\n")
        self.stderr_path = self.files + ".stderr"
        self.proc = None
        self.mon = None
        self.gdb = None

    def __enter__(self):
        self.stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=self.stderr,
                                     stderr=subprocess.STDOUT)
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        if self.gdb:
            self.gdb.close()
            self.gdb = None
        if self.mon:
            try:
                self.mon.close()
            except OSError:
                pass
            self.mon = None
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if getattr(self, "stderr", None):
            self.stderr.close()
            self.stderr = None

    # --- the monitor -------------------------------------------------------
    def _connect(self, timeout=20):
        end = time.time() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"QEMU exited with status {self.proc.returncode} "
                                     f"before its monitor answered\n" + self.qemu_messages())
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(self.sock)
                break
            except OSError:
                s.close()
                if time.time() > end:
                    raise AssertionError(f"QEMU's monitor socket {self.sock} did not answer in {timeout} s")
                time.sleep(0.2)
        s.settimeout(timeout)
        self.mon = s
        self._read_prompt()

    def _read_prompt(self):
        buf = b""
        while not buf.endswith(b"(qemu) "):
            chunk = self.mon.recv(4096)
            if not chunk:
                raise AssertionError("QEMU's monitor closed the connection")
            buf += chunk
        return buf.decode("utf-8", errors="replace")

    def hmp(self, command):
        """Run one monitor command; returns what it printed."""
        if not self.mon:
            self._connect()
        self.mon.sendall(command.encode() + b"\n")
        out = self._read_prompt()
        if "Try \"help" in out or "Could not" in out or "rror" in out:
            raise AssertionError(f"QEMU monitor command {command!r} failed:\n" + tail(out.split("\r\n", 1)[-1]))
        return out

    # --- what the machine shows -------------------------------------------
    def serial_text(self):
        try:
            with open(self.serial_log, "rb") as f:
                return f.read().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def qemu_messages(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return tail(f.read().decode("utf-8", errors="replace"))
        except FileNotFoundError:
            return ""

    def vga_text(self):
        path = self.files + ".vga"
        if os.path.exists(path):
            os.unlink(path)
        # Quoted: unquoted, "4000 /path" would be read as a division.
        self.hmp(f'pmemsave 0xb8000 4000 "{path}"')
        return vga_text(path)

    def framebuffer_text(self, tag=""):
        """The framebuffer's text (kept as FILES[-tag].ppm and .png)."""
        base = self.files + (f"-{tag}" if tag else "")
        path = base + ".ppm"
        if os.path.exists(path):
            os.unlink(path)
        self.hmp(f'screendump "{path}"')
        png_from_ppm(path, base + ".png")
        return framebuffer_text(path)

    def wait_for(self, what, probe, timeout, every=2.0):
        """Call probe() (text, a string or lines) until it contains what;
        returns its last result. Fails when QEMU exits or time runs out."""
        end = time.time() + timeout
        while True:
            got = probe()
            text = got if isinstance(got, str) else "\n".join(got)
            if what in text:
                return got
            if self.proc.poll() is not None:
                raise AssertionError(f"QEMU exited (status {self.proc.returncode}) before "
                                     f"{what!r} appeared\n" + tail(text) + "\n" + self.qemu_messages())
            if time.time() > end:
                raise AssertionError(f"{what!r} did not appear in {timeout} s (log {self.serial_log})\n"
                                     + tail(text))
            time.sleep(every)

    def halted(self):
        """True when the guest CPU is halted with interrupts off (HLT=1 and
        RFLAGS.IF=0 in the monitor's `info registers`): the kernel's end
        (halt_forever), after which nothing more is written anywhere."""
        regs = self.hmp("info registers")
        hlt, rfl = re.search(r"\bHLT=(\d)", regs), re.search(r"\bRFL=([0-9a-f]+)", regs)
        if not hlt or not rfl:
            raise AssertionError("QEMU's 'info registers' shows no HLT= or RFL= field:\n" + tail(regs))
        return hlt.group(1) == "1" and not int(rfl.group(1), 16) & 0x200

    def wait_halted(self, timeout, every=0.5):
        """Wait until halted() (the kernel printed its last line on the
        serial port before the screen: seeing it in the serial log does not
        mean the screen has it yet). Fails after timeout seconds."""
        end = time.time() + timeout
        while not self.halted():
            if self.proc.poll() is not None:
                raise AssertionError(f"QEMU exited (status {self.proc.returncode}) before the guest halted\n"
                                     + tail(self.serial_text()) + "\n" + self.qemu_messages())
            if time.time() > end:
                raise AssertionError(f"the guest did not halt (HLT with interrupts off) within {timeout} s "
                                     f"(log {self.serial_log})\n" + tail(self.serial_text()))
            time.sleep(every)

    def run_to(self, addresses, timeout):
        """For a Machine made with stopped=True: run until the CPU executes
        one of addresses (breakpoints through the gdbstub), and stay stopped
        there until resume()."""
        if isinstance(addresses, int):
            addresses = [addresses]
        gdb = Gdb(self.gdb_sock, timeout)
        self.gdb, self.breakpoints = gdb, []
        for a in addresses:
            reply = gdb.request(f"Z0,{a:x},1")
            if reply != "OK":
                raise AssertionError(f"gdbstub refused a breakpoint at 0x{a:x}: {reply!r}")
            self.breakpoints.append(a)
        try:
            reply = gdb.request("c")
        except socket.timeout:
            raise AssertionError(f"the run reached none of {[hex(a) for a in addresses]} in "
                                 f"{timeout} s\n" + tail(self.serial_text()))
        if not reply.startswith(("T05", "S05")):
            raise AssertionError(f"the run stopped for another reason: {reply!r}")

    def read_memory(self, address, length):
        """At a stop of run_to: length bytes of guest memory (gdb 'm')."""
        reply = self.gdb.request(f"m{address:x},{length:x}")
        if len(reply) != 2 * length:
            raise AssertionError(f"gdbstub: reading {length} bytes at 0x{address:x} gave {reply!r}")
        return bytes.fromhex(reply)

    def register(self, number):
        """At a stop of run_to: 64-bit register number of GDB's x86-64
        order (0 rax, 1 rbx, 2 rcx, 3 rdx, 4 rsi, 5 rdi, 6 rbp, 7 rsp,
        8..15 r8..r15, 16 rip), from the 'g' packet (QEMU answers 'p' only
        to a debugger that read its target description)."""
        reply = self.gdb.request("g")
        if len(reply) < 16 * (number + 1):
            raise AssertionError(f"gdbstub: the registers ('g') gave {reply[:80]!r}")
        return int.from_bytes(bytes.fromhex(reply[16 * number:16 * (number + 1)]), "little")

    def resume(self):
        """After run_to: remove the breakpoints, detach (QEMU goes on)."""
        for a in self.breakpoints:
            self.gdb.request(f"z0,{a:x},1")
        try:
            self.gdb.request("D")
        except (BrokenPipeError, ConnectionResetError, GdbClosed):
            # QEMU took the detach, ran the guest to its exit and closed the
            # socket before our acknowledgement of its "OK" (a guest that
            # ends within microseconds, as a fault report does): detached.
            # What the guest did is checked from its exit status and log.
            pass
        self.gdb.close()
        self.gdb = None

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"QEMU did not exit in {timeout} s (log {self.serial_log})\n"
                                 + tail(self.serial_text()))


def attach(m, timeout):
    """A gdbstub connection to m's running guest, which QEMU stops for it;
    the stop notification QEMU sends on a new connection is read and
    dropped. For a Machine with a gdb_sock (stopped=True, or -gdb given)."""
    g = Gdb(m.gdb_sock, timeout)
    g.s.settimeout(2)
    try:
        while True:
            g._read_packet()
    except socket.timeout:
        pass
    g.s.settimeout(timeout)
    m.gdb = g
    return g


def stop_at_page(m, page_fn, want, timeout):
    """Stop m at kernel/qr.c's qr_page_shown(want, pages) (a key press,
    QEMU's sendkey into the 8042, before each continue: the next page at
    once); returns pages. m stays stopped there until m.resume()."""
    g = attach(m, timeout)
    m.breakpoints = [page_fn]
    g.request(f"Z0,{page_fn:x},1")
    for _ in range(12):
        m.hmp("sendkey spc")
        reply = g.request("c")
        if not reply.startswith(("T05", "S05")):
            raise AssertionError(f"the run stopped for another reason: {reply!r}")
        if m.register(5) == want:
            return m.register(4)
        g.request(f"z0,{page_fn:x},1")
        g.request("s")
        g.request(f"Z0,{page_fn:x},1")
    raise AssertionError(f"qr_page_shown({want}, ...) not reached in 12 pages")


def end_screen(m, elf, timeout=60):
    """The screen at the end of a run whose halt line has been printed: the
    guest is stopped (gdbstub) and asked where it is, never guessed from
    the time it takes: halted (HLT with interrupts off: no pages, or the
    code beside the summary), the screen then; else kernel/qr.c shows the
    summary and the codes in turn (qr_hold) and the screen is read at the
    summary's page (qr_page_shown(0, ...)), key presses advancing the
    pages. Between stops the guest runs 2 s at a time, then is stopped
    again to look. Returns (lines, paged); fails after timeout seconds."""
    page_fn = symbol_address(elf, "qr_page_shown")
    g = attach(m, timeout)
    m.breakpoints = [page_fn]
    g.request(f"Z0,{page_fn:x},1")
    end = time.time() + timeout
    while True:
        if m.halted():
            m.resume()
            return m.framebuffer_text(), False
        if time.time() > end:
            raise AssertionError(f"the guest neither halted nor showed the summary's page in {timeout} s "
                                 f"(log {m.serial_log})\n" + tail(m.serial_text()))
        m.hmp("sendkey spc")  # read by qr_hold's page wait (8042), if it is there
        g.s.settimeout(2)
        try:
            reply = g.request("c")
        except socket.timeout:  # still running: stop it (GDB's interrupt byte) and look again
            g.s.sendall(b"\x03")
            g.s.settimeout(timeout)
            reply = g._read_packet()
        g.s.settimeout(timeout)
        if not reply.startswith(("T", "S")):
            raise AssertionError(f"the run stopped for another reason: {reply!r}")
        if m.register(16) == page_fn:
            if m.register(5) == 0:
                lines = m.framebuffer_text()
                m.resume()
                return lines, True
            g.request(f"z0,{page_fn:x},1")  # past the breakpoint, and on
            g.request("s")
            g.request(f"Z0,{page_fn:x},1")

"""tools/benchcapture.py - save a run's serial output until its final line.

Reads a serial device (python3-serial, imported only then) or standard input,
writes every byte received to the log file as it arrives, and stops right
after the run's final line ("bench: run complete ..." or "bench: run aborted
..."), at the end of the stream, or at the time limit. Lines are recognized
however they end (LF, CR LF or a lone CR) and through GRUB's escape
sequences and line noise (benchlog.clean_line), so a final line with noise
before it still ends the capture. Bytes after the final line (GRUB's menu
after a reboot, say) are not saved.
"""
import os
import re
import select
import sys
import time

from benchlog import clean_line, final_match

EOL = re.compile(rb"\r\n|\n|\r")
MAX_LINE = 1 << 20  # bytes without a line end after which they are written out as noise


class StdinSource:
    name = "standard input"

    def __init__(self):
        self.fd = sys.stdin.fileno()

    def read(self, wait):
        """Bytes read, b"" at the end of the stream, None if nothing came
        within wait seconds."""
        ready, _, _ = select.select([self.fd], [], [], wait)
        if not ready:
            return None
        return os.read(self.fd, 65536)

    def close(self):
        pass


class SerialSource:
    def __init__(self, device, baud):
        try:
            import serial  # python3-serial (pyserial)
        except ImportError as e:
            raise SystemExit(f"capture: cannot read {device}: pyserial is not available to "
                             f"{sys.executable} ({e}); install python3-serial (Debian) and run "
                             "the tools with /usr/bin/python3, or pipe the device into "
                             f"'bench.py capture -' (e.g. with picocom or 'cat {device}')")
        self.serial = serial
        self.name = f"{device} at {baud} baud"
        try:
            self.port = serial.Serial(device, baud, timeout=0.25)
        except (serial.SerialException, OSError) as e:
            raise SystemExit(f"capture: cannot open {device}: {e}")

    def read(self, wait):
        self.port.timeout = max(0.01, min(wait, 0.25))
        try:
            data = self.port.read(4096)
        except (self.serial.SerialException, OSError) as e:
            print(f"capture: {self.name}: {e}", file=sys.stderr)
            return b""  # the device went away: the end of the stream
        return data or None

    def close(self):
        self.port.close()


def capture(source, out, timeout=None, echo=None):
    """Copy source into the binary file out until the final line; returns
    (final line or None, reason, lines seen). reason is 'final', 'eof' or
    'timeout'."""
    deadline = time.monotonic() + timeout if timeout else None
    buf = b""
    lines = 0
    eof = False
    while True:
        # Consume every complete line in the buffer.
        while True:
            m = EOL.search(buf)
            if not m:
                break
            raw = buf[:m.start()]
            # A CR at the very end may be the first half of CR LF: wait for
            # the next byte unless this is the final line or the stream ended.
            lone_cr_at_end = m.group() == b"\r" and m.end() == len(buf) and not eof
            final = _final(raw)
            if lone_cr_at_end and not final:
                break
            out.write(buf[:m.end()])
            buf = buf[m.end():]
            lines += 1
            _echo(echo, raw)
            if final:
                if m.group() == b"\r":
                    out.write(b"\n")
                out.flush()
                return final, "final", lines
        out.flush()
        if eof:
            if buf:  # a last line without its end of line
                out.write(buf)
                lines += 1
                _echo(echo, buf)
                final = _final(buf)
                if final:
                    out.write(b"\n")
                    return final, "final", lines
            return None, "eof", lines
        wait = 0.5
        if deadline is not None:
            wait = deadline - time.monotonic()
            if wait <= 0:
                out.write(buf)
                return None, "timeout", lines + (1 if buf else 0)
            wait = min(wait, 0.5)
        data = source.read(wait)
        if data == b"":
            eof = True
        elif data:
            buf += data
            if len(buf) > MAX_LINE and not EOL.search(buf):
                out.write(buf)  # noise without line ends: keep it, look no further
                buf = b""


def _final(raw):
    for seg in clean_line(raw.decode("utf-8", errors="replace")):
        f = final_match(seg)
        if f:
            return f
    return None


def _echo(stream, raw):
    if stream is not None:
        text = " ".join(s for s in clean_line(raw.decode("utf-8", errors="replace")) if s)
        try:
            stream.write(text + "\n")
            stream.flush()
        except (BrokenPipeError, OSError):
            pass


def main(args):
    """bench.py capture: returns the exit status."""
    if args.device:
        source = SerialSource(args.device, args.baud)
    else:
        source = StdinSource()
        if sys.stdin.isatty():
            print("capture: standard input is a terminal: pipe the serial output in "
                  "(e.g. 'qemu-system-x86_64 ... -serial stdio | bench.py capture -') or use "
                  "--device", file=sys.stderr)
    path = args.output or time.strftime("bench-%Y%m%d-%H%M%S.log")
    start = time.monotonic()
    print(f"capture: reading {source.name} into {path}"
          + (f" (time limit {args.timeout:g} s)" if args.timeout else "")
          + "; stops at the run's final line", file=sys.stderr)
    with open(path, "wb") as out:
        try:
            final, why, lines = capture(source, out, args.timeout,
                                        None if args.quiet else sys.stderr)
        except KeyboardInterrupt:
            final, why, lines = None, "interrupted", None
        finally:
            source.close()
        size = out.tell()
    took = time.monotonic() - start
    if final:
        note = "" if final.startswith("bench: run complete") else " (the run was ABORTED)"
        print(f"capture: final line after {lines} lines and {took:.1f} s: {final}{note}",
              file=sys.stderr)
        print(f"capture: saved {size} bytes to {path}", file=sys.stderr)
        return 0
    if why == "eof":
        what = f"the stream ended after {lines} lines"
    elif why == "timeout":
        what = f"no final line within {args.timeout:g} s ({lines} lines received)"
    else:
        what = "interrupted"
    print(f"capture: ERROR: {what} without the run's final line ('bench: run complete ...' or "
          f"'bench: run aborted ...'): the run is cut short; the partial log ({size} bytes) is "
          f"saved to {path}", file=sys.stderr)
    return 1

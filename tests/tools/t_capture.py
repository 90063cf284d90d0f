"""tests/tools/t_capture.py - `bench.py capture`: it stops at the run's final
line with the pipe left open, reads a noisy stream with lone CRs, saves a
stream cut short, honours --timeout, reads a serial device (a pseudo-terminal
through pyserial) and QEMU's serial output piped straight in.
"""
import os
import shutil
import subprocess
import threading
import time

from common import BENCH, PY, QEMU_TIMEOUT, Skip, bench, boot, check, qemu_cmd, read, workdir


def run_capture(d, chunks, args=(), keep_open=True, limit=60):
    """Feed chunks to 'bench.py capture -' through a pipe, left open after
    them when keep_open (capture must then stop by itself) and closed
    otherwise; returns (exit status, its messages, saved bytes, seconds)."""
    path = os.path.join(d, "captured.log")
    p = subprocess.Popen([PY, BENCH, "capture", "-", "-o", path, "-q"] + list(args),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = []
    reader = threading.Thread(target=lambda: output.append(p.stdout.read()))
    reader.start()
    start = time.time()
    try:
        for c in chunks:
            p.stdin.write(c)
            p.stdin.flush()
            time.sleep(0.005)
        if not keep_open:
            p.stdin.close()
        p.wait(timeout=limit)
    except BrokenPipeError:
        p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError(f"capture did not exit within {limit} s")
    finally:
        took = time.time() - start
        try:
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        reader.join(10)
    saved = read(path) if os.path.exists(path) else None
    return p.returncode, b"".join(output).decode(errors="replace"), saved, took


def split_chunks(data, n=4096):
    return [data[i:i + n] for i in range(0, len(data), n)]


def test_capture_stops_at_final_line():
    log = read(boot("tcg"))
    after = b"\x1b[2J\x1b[H GNU GRUB  version 2.06 (after a reboot)\r\n\x1b[7m*bench\x1b[0m\r\n"
    d = workdir("capture_final")
    # The pipe stays open after the final line: capture must stop by itself.
    rc, out, saved, took = run_capture(d, split_chunks(log + after, 1000), keep_open=True)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    check(saved == log, f"saved {len(saved or b'')} bytes, expected the {len(log)} bytes up to and "
                        "including the final line", out)
    check(took < 20, f"capture took {took:.1f} s: it did not stop at the final line", out)
    check("capture: final line after" in out and "bench: run complete" in out, "no final message", out)
    rc, rep = bench("report", os.path.join(d, "captured.log"), "--no-figures")
    check(rc == 0, "the captured log does not report as valid", rep)


def test_capture_noisy_stream_lone_cr():
    log = read(boot("qemu64")).replace(b"\r\n", b"\n")
    lines = log.split(b"\n")
    final = max(i for i, l in enumerate(lines) if l.startswith(b"bench: run complete"))
    body = b"\r".join(lines[:final])                      # lone-CR line ends
    stream = (b"\x1b[2J\x1b[H\x1b[?25l\x00 GNU GRUB \x1b[0m\r\n" + body + b"\r"
              + b"\x1b[0m\x07" + lines[final] + b"\r")      # noise before the final line
    d = workdir("capture_noisy")
    rc, out, saved, took = run_capture(d, split_chunks(stream, 333), keep_open=True)
    check(rc == 0, f"exit status {rc}, expected 0: the final line is there", out)
    check(saved.endswith(lines[final] + b"\r\n") and took < 20,
          f"the saved log does not end with the final line ({saved[-80:]!r})", out)
    rc, rep = bench("report", os.path.join(d, "captured.log"), "--no-figures")
    check(rc == 0, "the captured log (lone-CR line ends) does not report as valid", rep)


def test_capture_truncated_stream():
    log = read(boot("tcg"))
    half = log[:len(log) // 2]
    d = workdir("capture_truncated")
    rc, out, saved, _ = run_capture(d, split_chunks(half), keep_open=False)
    check(rc == 1, f"exit status {rc}, expected 1 (no final line)", out)
    check("the stream ended after" in out and "without the run's final line" in out,
          "no clear message about the cut stream", out)
    check(saved == half, "the partial log was not saved as received", out)


def test_capture_timeout():
    log = read(boot("tcg"))
    d = workdir("capture_timeout")
    rc, out, saved, took = run_capture(d, [log[:5000]], args=["--timeout", "2"], keep_open=True,
                                       limit=30)
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check("no final line within 2 s" in out, "no message about the time limit", out)
    check(took < 15, f"capture took {took:.1f} s with --timeout 2")
    check(saved == log[:5000], "the partial log was not saved", out)


def test_capture_serial_device():
    """--device: the run's output written to a pseudo-terminal, read through
    pyserial as from a USB-serial adapter."""
    try:
        subprocess.run([PY, "-c", "import serial"], check=True, capture_output=True)
    except subprocess.CalledProcessError:
        raise Skip(f"pyserial is not installed for {PY} (Debian: python3-serial)")
    log = read(boot("qemu64"))
    master, slave = os.openpty()
    d = workdir("capture_device")
    path = os.path.join(d, "serial.log")
    p = subprocess.Popen([PY, BENCH, "capture", "--device", os.ttyname(slave), "--baud", "115200",
                          "-q", "-o", path, "--timeout", "60"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        first = p.stdout.readline().decode(errors="replace")
        check(first.startswith("capture: reading"), f"capture did not start: {first!r}")
        # No sleep: capture prints its first line after pyserial's Serial()
        # opened the port, set it raw and flushed its input
        # (tools/benchcapture.py SerialSource), so what follows arrives raw.
        for c in split_chunks(log, 512):
            os.write(master, c)
        p.wait(timeout=60)
        rest = p.stdout.read().decode(errors="replace")
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
        os.close(slave)
    check(p.returncode == 0, f"exit status {p.returncode}, expected 0", first + rest)
    check(read(path) == log, "the log read from the device differs from what was sent", rest)


def test_capture_live_qemu():
    """QEMU's serial output piped straight into capture."""
    if not shutil.which("qemu-system-x86_64"):
        raise Skip("qemu-system-x86_64 is not installed")
    d = workdir("capture_live")
    path = os.path.join(d, "live.log")
    cmd = " ".join(f"'{a}'" for a in qemu_cmd("q35-tcg", "ensembles=5 samples=200 workloads=add_chain_64"))
    p = subprocess.run(["bash", "-c",
                        f"timeout {QEMU_TIMEOUT} {cmd} | '{PY}' '{BENCH}' capture - -q -o '{path}'"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=QEMU_TIMEOUT + 30)
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 0, f"exit status {p.returncode}, expected 0", out)
    rc, rep = bench("report", path, "-o", os.path.join(d, "fig"))
    check(rc == 0, "the captured log does not report as valid", rep)

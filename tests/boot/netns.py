"""tests/boot/netns.py - a command (QEMU) in a network namespace of its own,
with its loopback up and, beside it, the collector `bench.py serve` on that
namespace's 127.0.0.1:8080, the port the kernel sends to by default after a
network boot (kernel/efinet.h): the host's own port 8080 (taken or not,
by whatever) is never involved, and two tests never meet there.

As a module: available() says whether `unshare -rn` (a user and a network
namespace, unprivileged: Debian's kernels allow them) works here, and
prefix(...) is the command prefix for qemu(..., wrap=). As a script (run by
that prefix, inside the namespace):

    netns.py [--serve-db DB --serve-log LOG [--serve-token T] [--fetch PATH=FILE]...] -- COMMAND...

brings lo up, starts the collector and waits (at most START_WAIT s) until it
accepts connections, runs COMMAND with this standard output (QEMU's serial
port), then saves each PATH the collector answers (GET, e.g. /runs) in
FILE, stops the collector and exits with COMMAND's status. The collector
and COMMAND die with this process (PR_SET_PDEATHSIG) when a test's timeout
kills it. A collector that does not start is said on standard output and
the exit status is 98."""
import ctypes
import fcntl
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "bench.py")
PORT = 8080          # the collector's default port (README "Sending the results")
START_WAIT = 60      # seconds for the collector to listen
STOP_WAIT = 10       # seconds for it to stop once asked
NO_COLLECTOR = 98    # the exit status when the collector did not start

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def available():
    """(True, "") when `unshare -rn` runs this script's probe here, else
    (False, why)."""
    try:
        p = subprocess.run(["unshare", "-rn", sys.executable, os.path.abspath(__file__), "--probe"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    except FileNotFoundError:
        return False, "unshare (Debian package util-linux) is not installed"
    except subprocess.TimeoutExpired:
        return False, "unshare -rn did not finish within 30 s"
    out = p.stdout.decode(errors="replace").strip()
    if p.returncode != 0 or out != "lo up":
        return False, f"unshare -rn failed (exit status {p.returncode}): {out[-300:]}"
    return True, ""


def isolated():
    """The prefix of a namespace without a collector when one works here,
    else None: a network boot of make netboot's root sends its run to the
    server it booted from on port 8080, which is then the namespace's
    (refused) and never whatever the host runs there."""
    ok, _ = _available_once()
    return prefix() if ok else None


_probe = []


def _available_once():
    if not _probe:
        _probe.append(available())
    return _probe[0]


def prefix(serve_db=None, serve_log=None, token=None, fetch=()):
    """The command prefix running a command in a namespace of its own, with
    the collector storing into serve_db (its output in serve_log) when
    given; fetch: (PATH, FILE) pairs saved after the command."""
    out = ["unshare", "-rn", sys.executable, os.path.abspath(__file__)]
    if serve_db:
        out += ["--serve-db", serve_db, "--serve-log", serve_log]
        if token:
            out += ["--serve-token", token]
        for path, f in fetch:
            out += ["--fetch", f"{path}={f}"]
    return out + ["--"]


def lo_up():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        ifr = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH14x", b"lo", 0))
        flags = struct.unpack("16sH", ifr[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))
    finally:
        s.close()


def die_with_parent():
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def wait_listening(p, log):
    end = time.monotonic() + START_WAIT
    while time.monotonic() < end:
        if p.poll() is not None:
            return f"the collector ended with exit status {p.returncode}"
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            return None
        except OSError:
            time.sleep(0.2)
    return f"the collector did not listen on 127.0.0.1:{PORT} within {START_WAIT} s"


def main(argv):
    if argv == ["--probe"]:
        lo_up()
        print("lo up")
        return 0
    sep = argv.index("--")
    opts, cmd = argv[:sep], argv[sep + 1:]
    db = log = token = None
    fetch = []
    for i in range(0, len(opts), 2):
        k, v = opts[i], opts[i + 1]
        if k == "--serve-db":
            db = v
        elif k == "--serve-log":
            log = v
        elif k == "--serve-token":
            token = v
        elif k == "--fetch":
            fetch.append(v.split("=", 1))
        else:
            raise SystemExit(f"netns.py: unknown option {k}")
    lo_up()
    serve = None
    if db:
        args = [sys.executable, BENCH, "serve", "--bind", "127.0.0.1", "--port", str(PORT), "--db", db]
        if token:
            args += ["--token", token]
        logf = open(log, "wb")
        serve = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                                 preexec_fn=die_with_parent)
        why = wait_listening(serve, log)
        if why:
            serve.kill()
            serve.wait()
            logf.flush()
            print(f"netns: {why}; its output:\n" + open(log, errors="replace").read()[-3000:], flush=True)
            return NO_COLLECTOR
    sys.stdout.flush()
    rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent).returncode
    if serve:
        for path, f in fetch:
            q = f"?token={token}" if token else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{PORT}{path}{q}", timeout=30) as r:
                    data = r.read()
            except OSError as e:
                data = f"netns: GET {path} failed: {e}".encode()
            with open(f, "wb") as out:
                out.write(data)
        serve.terminate()
        try:
            serve.wait(STOP_WAIT)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.wait()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/boot/t_send.py - the run's log sent to a collector through the
firmware's network stack (issue 33 item 1, kernel/efinet.h; README
"Sending the results"). OVMF boots a test ISO from a CD with a virtio
network card on QEMU's user-mode network, where the host's loopback is
10.0.2.2; a tiny collector of this test's own (a socket server in a
thread, every wait bounded) answers as the shared design says: 201 with
the body's bytes and CRC-32 (zlib), or a refusal. Checked: the body is the
serial log up to and including the final line, byte for byte, with the
request's headers; the send: line and record say 201 and checked; no
collector listening is said (connection refused) and the run is
complete; a 500 and a 401 (wrong token) are said with the collector's
"error"; under BIOS one line says results are sent only under UEFI;
send=off sends nothing, and a malformed send= is a command-line problem
naming what is wrong; a network without a DHCP server and a machine
without a network card are said; against bench.py serve; and a UEFI
network boot sends to its PXE server with no send= typed."""
import json
import re
import socket
import threading
import zlib

from qemu import check, expect_complete, qemu, Run
from t_bootpaths import grub_test_iso

QUICK = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"
# The card and QEMU's user network (no default card beside it).
NET = ["-netdev", "user,id=n0", "-device", "virtio-net-pci,netdev=n0"]
FINAL = b"bench: run complete:"
# Seconds the collector waits for a request's bytes once it has begun.
READ_WAIT = 60


class Collector:
    """A collector on 127.0.0.1 (10.0.2.2 to the guest), on a free port (or port):
    each request read (headers, then Content-Length bytes, bounded by
    READ_WAIT), kept in .requests as (request line, {header: value},
    body), answered by answer(body, headers) -> (status, dict)."""

    def __init__(self, answer, port=0):
        self.answer, self.requests = answer, []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(4)
        self.sock.settimeout(1.0)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=10)
        self.sock.close()

    def serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(READ_WAIT)
                try:
                    self.one(conn)
                except (OSError, ValueError) as e:
                    self.requests.append(("(broken)", {}, repr(e).encode()))

    def one(self, conn):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                raise ValueError(f"the connection closed within the headers: {data[:200]!r}")
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("ascii").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
        want = int(headers.get("content-length", "0"))
        while len(body) < want:
            chunk = conn.recv(65536)
            if not chunk:
                break
            body += chunk
        self.requests.append((lines[0], headers, body))
        status, obj = self.answer(body, headers, lines[0])
        out = json.dumps(obj).encode()
        reason = {200: "OK", 201: "Created", 401: "Unauthorized", 500: "Internal Server Error"}.get(status, "X")
        conn.sendall(f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(out)}\r\nConnection: close\r\n\r\n".encode() + out)


def stored(body, headers, line):
    """The collector's answer to a log it stores: 201, its own count and CRC-32."""
    return 201, {"stored": "new", "run_id": headers.get("x-bench-run-id"), "bytes": len(body),
                 "crc32": f"0x{zlib.crc32(body):08x}", "runs": [headers.get("x-bench-run-id")]}


def boot(name, append, machine="ovmf-cdrom", net=True):
    """A test ISO whose one entry boots build/bench.elf with append, on
    machine (a CD), with the network card; returns (exit status, text)."""
    iso = grub_test_iso(f"send-{name}", f"\tmultiboot2 /boot/bench.elf {append}")
    return qemu(f"send-{name}", machine, image=iso, extra=NET if net else None)


def send_lines(text):
    return [l for l in text.replace("\r", "").split("\n") if l.startswith("send:")]


def send_record(text):
    """The one send record (after the final line, outside the record markers)."""
    recs = [json.loads(l) for l in text.replace("\r", "").split("\n") if l.startswith('{"rec":"send"')]
    check(len(recs) == 1, f"{len(recs)} send records", text[-3000:])
    return recs[0]


def test_send_arrives_equal_to_serial_log():
    """A run sent to the collector: one POST to the path with the token,
    its headers as the shared design says, its body the serial log up to
    and including the final line byte for byte; the send: line says 201
    stored (new), the CRC-32 as sent; the record says checked."""
    with Collector(stored) as c:
        rc, text = boot("arrives", f"{QUICK} send=http://10.0.2.2:{c.port}/runs?token=t0k3n")
    run = expect_complete(rc, text)
    check(len(c.requests) == 1, f"{len(c.requests)} requests reached the collector, expected 1", text[-3000:])
    line, headers, body = c.requests[0]
    check(line == "POST /runs?token=t0k3n HTTP/1.1", f"request line {line!r}", text)
    run_id = run.one("env")["run_id"]
    check(headers.get("x-bench-run-id") == run_id, f"X-Bench-Run-Id {headers.get('x-bench-run-id')!r}, "
          f"the run's ID {run_id}", text)
    check(headers.get("content-type") == "text/plain; charset=us-ascii", f"Content-Type {headers}", text)
    check(headers.get("content-length") == str(len(body)), f"Content-Length {headers} for {len(body)} bytes", text)
    wire = text.encode("utf-8")
    lines = body.split(b"\r\n")
    check(body.startswith(b"bench ") and b"\r\nconsole: " in body[:4000],
          f"the body does not start with the kernel's first lines (banner, console:): {body[:60]!r}", text)
    check(lines[-1] == b"" and lines[-2].startswith(FINAL), f"the body does not end with the final line: "
          f"{lines[-2][:80]!r}", text)
    at = wire.find(body)
    check(at >= 0, f"the body's {len(body)} bytes are not the serial log's", text[-3000:])
    sends = send_lines(text)
    check(len(sends) == 1, f"{len(sends)} send: lines", text[-3000:])
    expect = (f"send: http://10.0.2.2:{c.port}/runs: {len(body)} bytes sent, 201 stored (new), "
              f"CRC-32 0x{zlib.crc32(body):08x} as sent, in ")
    check(sends[0].startswith(expect) and sends[0].endswith(" s"), f"send: line {sends[0]!r}, expected {expect!r}",
          text)
    check("t0k3n" not in sends[0], "the token is printed", text)
    rec = send_record(text)
    check(rec["status"] == 201 and rec["stored"] == "new" and rec["checked"] is True and rec["why"] is None
          and rec["bytes"] == len(body) and rec["crc32"] == f"0x{zlib.crc32(body):08x}",
          f"send record {rec}", text)
    check(re.fullmatch(r"\d+\.\d\d", rec["seconds"] or ""), f"seconds {rec['seconds']!r}", text)


def test_send_no_collector_listening():
    """Nothing listens on the port: the send: line says NOT sent and why
    (the EFI_STATUS by name); the run is complete, its final line there."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # a port nobody listens on
    rc, text = boot("refused", f"{QUICK} send=http://10.0.2.2:{port}/")
    expect_complete(rc, text)
    sends = send_lines(text)
    check(len(sends) == 1 and re.match(r"send: NOT sent: EFI_HTTP_PROTOCOL.Request returned "
                                       r"EFI_CONNECTION_RE(SET|FUSED): connection refused: nothing listens at "
                                       rf"10\.0\.2\.2 port {port}\? \(to ", sends[0]),
          f"send: lines {sends}", text[-3000:])
    rec = send_record(text)
    check(rec["status"] is None and rec["checked"] is False and rec["why"], f"send record {rec}", text)


def test_send_collector_answers_500():
    """The collector fails: its 500 and its "error" said."""
    with Collector(lambda b, h, l: (500, {"error": "the database is locked"})) as c:
        rc, text = boot("500", f"{QUICK} send=http://10.0.2.2:{c.port}/")
    expect_complete(rc, text)
    check(len(c.requests) == 1, f"{len(c.requests)} requests", text[-3000:])
    sends = send_lines(text)
    check(sends == [f"send: NOT sent: HTTP 500: the database is locked (to http://10.0.2.2:{c.port}/); the serial "
                    "log, the screen and its QR code are as they are"], f"send: lines {sends}", text[-3000:])
    rec = send_record(text)
    check(rec["status"] == 500 and rec["stored"] is None and rec["checked"] is False, f"send record {rec}", text)


def test_send_wrong_token_refused():
    """A wrong token: the collector's 401 and its "error" said."""
    def answer(body, headers, line):
        if not line.startswith("POST /?token=right "):
            return 401, {"error": "token missing or wrong"}
        return stored(body, headers, line)
    with Collector(answer) as c:
        rc, text = boot("401", f"{QUICK} send=http://10.0.2.2:{c.port}/?token=wrong")
    expect_complete(rc, text)
    sends = send_lines(text)
    check(len(sends) == 1 and sends[0].startswith("send: NOT sent: HTTP 401: token missing or wrong (to "),
          f"send: lines {sends}", text[-3000:])


def test_send_bios_says_why():
    """Under BIOS one line, before the final line: sent only under UEFI."""
    rc, text = boot("bios", f"{QUICK} send=http://10.0.2.2:8080/", machine="bios-cdrom")
    run = expect_complete(rc, text)
    sends = send_lines(text)
    check(sends == ["send: results are sent only under UEFI (this boot is BIOS: serial, screen and QR code)"],
          f"send: lines {sends}", text[-3000:])
    check(run.lines.index(sends[0]) < run.lines.index(run.final_line()), "the send: line is after the final line",
          text)


def test_send_off_sends_nothing():
    """send=off: no request, no send: line, no config: send= line."""
    with Collector(stored) as c:
        rc, text = boot("off", f"{QUICK} send=off")
    expect_complete(rc, text)
    check(not c.requests, f"{len(c.requests)} requests with send=off", text)
    check(not send_lines(text) and "config: send=" not in text, "a send: or config: send= line", text[-3000:])


def test_send_bad_url_is_a_problem():
    """A malformed send= is a command-line problem naming what is wrong."""
    rc, text = boot("bad-url", f"{QUICK} send=http://10.0.2.2:99999/", net=False, machine="bios-cdrom")
    check("config: send=http://10.0.2.2:99999/ is not a URL the run can send to: the port is 0 or above 65535"
          in text, "no config: line naming the port", text[-3000:])
    check("bench: run aborted: 1 command-line problem" in text, "the run does not stop for its problem", text[-3000:])


def test_send_to_bench_serve():
    """The real collector, `bench.py serve` (tests/tools/t_serve.py starts
    it): the run stored once, 201 new, checked; the log it keeps
    (lab-logs/RUNID.log) is the serial log up to the final line."""
    import os
    import sys
    import tempfile
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
    from t_serve import Collector as Serve
    with tempfile.TemporaryDirectory() as d:
        with Serve(d) as c:
            rc, text = boot("serve", f"{QUICK} send=http://10.0.2.2:{c.port}/")
            status, runs = c.request("GET", "/runs")
        run = expect_complete(rc, text)
        run_id = run.one("env")["run_id"]
        sends = send_lines(text)
        check(len(sends) == 1 and sends[0].startswith(f"send: http://10.0.2.2:{c.port}/: ")
              and ", 201 stored (new), CRC-32 0x" in sends[0], f"send: lines {sends}\n{c.text()}", text[-3000:])
        check(status == 200 and runs.get("count") == 1 and runs["runs"][0]["run_id"] == run_id,
              f"/runs ({status}) does not list {run_id} as the one run stored: {str(runs)[:300]}", text)
        kept = os.path.join(d, "lab-logs", f"{run_id}.log")
        check(os.path.exists(kept), f"bench.py serve kept no {kept}\n{c.text()}", text)
        body = open(kept, "rb").read()
        check(body.split(b"\r\n")[-2].startswith(FINAL) and text.encode("utf-8").find(body) >= 0,
              f"lab-logs/{run_id}.log ({len(body)} bytes) is not the serial log up to the final line", text)
        rec = send_record(text)
        check(rec["checked"] is True and rec["bytes"] == len(body), f"send record {rec}", text)


def netboot_root(variant, make_args=()):
    """A TFTP root for this test: make netboot's (builds.netboot()), or,
    with make_args, `make netboot NETBOOT_DIR=build/netboot-VARIANT ARGS`;
    Skip without its UEFI image."""
    import os
    import builds
    import machines
    from qemu import Skip
    if make_args:
        import subprocess
        root = os.path.join(builds.BUILD, f"netboot-{variant}")
        p = builds.make(["netboot", f"NETBOOT_DIR={root}"] + list(make_args), stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT)
        check(p.returncode == 0, f"make netboot {' '.join(make_args)} failed", p.stdout.decode(errors="replace"))
    else:
        root = builds.netboot()
    if not os.path.exists(os.path.join(root, machines.PXE_BOOTFILE["ovmf"])):
        raise Skip("make netboot built no UEFI image (grub-efi-amd64-bin)")
    return root


def in_namespace(name, root, d, fetch=()):
    """The OVMF network boot of root (run name) in a network namespace of its
    own (tests/boot/netns.py), `bench.py serve` on its 127.0.0.1:8080 (the
    kernel's and make netboot's default port, never the host's) storing
    into d/lab.sqlite; fetch: (PATH, FILE) pairs the collector answers after
    the run. Returns (exit status, text, the collector's output)."""
    import os
    import netns
    ok, why = netns.available()
    check(ok, f"this test needs a network namespace of its own for port 8080 (the default it proves): {why}")
    log = os.path.join(d, "serve.log")
    rc, text = qemu(name, "ovmf-pxe", image=root,
                    wrap=netns.prefix(os.path.join(d, "lab.sqlite"), log, fetch=fetch))
    served = open(log, errors="replace").read() if os.path.exists(log) else "(no collector output)"
    check(rc != netns.NO_COLLECTOR, "the collector did not start in the namespace", text + served)
    return rc, text, served


def arrived(text, d, served, url):
    """The run's one send: line says url, 201 stored (new); the collector
    kept the serial log up to the final line, byte for byte, as
    lab-logs/RUNID.log. Returns (run ID, the kept log)."""
    import os
    ids = re.findall(r'"run_id":"([0-9a-f]{16})"', text)
    check(ids, "no run_id in the log", text[-3000:])
    sends = send_lines(text)
    check(len(sends) == 1 and sends[0].startswith(f"send: {url}") and ", 201 stored (new), CRC-32 0x" in sends[0],
          f"send: lines {sends}\n{served[-2000:]}", text[-3000:])
    kept = os.path.join(d, "lab-logs", f"{ids[0]}.log")
    check(os.path.exists(kept), f"the collector kept no {kept}\n{served[-2000:]}", text[-3000:])
    body = open(kept, "rb").read()
    check(body.split(b"\r\n")[-2].startswith(FINAL) and text.encode("utf-8").find(body) >= 0,
          f"lab-logs/{ids[0]}.log ({len(body)} bytes) is not the serial log up to the final line", text[-3000:])
    check(f"{len(body)} bytes sent" in sends[0], f"the send: line's count is not the kept log's {len(body)} bytes: "
          f"{sends[0]}", text[-3000:])
    return ids[0], body


def test_send_netboot_default_server():
    """A UEFI network boot with no send= anywhere (make netboot's root with
    iso/grub.cfg as it is, no header): the kernel sends to the server it
    booted from (the PXE server, 10.0.2.2 under QEMU's user network) on the
    collector's default port 8080, through the firmware's stack once GRUB's
    hold on the card is released; bench.py serve stores it. Port 8080 is
    the namespace's own (tests/boot/netns.py), never the host's."""
    import os
    import shutil
    import tempfile
    import builds
    root = netboot_root("plain", ["SEND=off"])
    shutil.copyfile(os.path.join(builds.ROOT, "iso", "grub.cfg"), os.path.join(root, "boot", "grub", "grub.cfg"))
    with tempfile.TemporaryDirectory() as d:
        rc, text, served = in_namespace("send-netboot", root, d)
        expect_complete(rc, text)
        check("config: send=" not in text, "a send= reached the kernel, which this test's root does not give",
              text[-3000:])
        arrived(text, d, served, "http://10.0.2.2:8080/ (the PXE server: no send= given): ")


def test_send_netboot_end_to_end():
    """Issue 33's 'done when': `make netboot`'s own root, as a lab serves it
    (its GRUB header sends to ${net_default_server}:8080, the server the
    machine booted from), an OVMF network boot, bench.py serve on port 8080:
    nothing typed on the machine, and the run is in the collector's
    database and on its page (/runs: the machine's identity, its status
    and each method's verdict; its report link answers)."""
    import os
    import tempfile
    root = netboot_root("default")
    with tempfile.TemporaryDirectory() as d:
        runs, report = os.path.join(d, "runs.json"), os.path.join(d, "report.txt")
        rc, text, served = in_namespace("send-netboot-e2e", root, d, fetch=[("/runs", runs), ("/runs/R1/report", report)])
        expect_complete(rc, text)
        check("config: send=http://10.0.2.2:8080/\r\n" in text or "config: send=http://10.0.2.2:8080/\n" in text,
              "the config line does not show make netboot's send= (GRUB's net_default_server, 10.0.2.2)",
              text[-3000:])
        run_id, _ = arrived(text, d, served, "http://10.0.2.2:8080/: ")
        page = json.loads(open(runs).read())
        check(page["count"] == 1 and page["runs"][0]["run_id"] == run_id, f"/runs: {str(page)[:600]}")
        r = page["runs"][0]
        check("QEMU" in r["machine"] and r["status"] == "complete" and r["verdicts"],
              f"/runs lacks the machine, the status or the verdicts: {str(r)[:600]}")
        rep = open(report, errors="replace").read()
        check(run_id in rep and "rdtscp" in rep.lower(), f"/runs/R1/report: {rep[:600]}")


def test_send_netboot_token_and_port():
    """`make netboot SEND_PORT=P SEND_TOKEN=T`: the GRUB header carries both
    (send=http://${net_default_server}:P/?token=T), the collector started
    with --token T on port P of the host stores the run; the token is never
    printed (the config line says 'with its token')."""
    import os
    import sys
    import tempfile
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
    from t_serve import Collector as Serve
    with tempfile.TemporaryDirectory() as d:
        with Serve(d, "--token", "rack-7e57") as c:
            root = netboot_root("token", [f"SEND_PORT={c.port}", "SEND_TOKEN=rack-7e57"])
            rc, text = qemu("send-netboot-token", "ovmf-pxe", image=root)
            served = c.text()
        expect_complete(rc, text)
        check(f"config: send=http://10.0.2.2:{c.port}/ (with its token)" in text and "rack-7e57" not in text,
              "the config line does not say the token without showing it", text[-3000:])
        arrived(text, d, served, f"http://10.0.2.2:{c.port}/: ")


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_send_no_dhcp_answer():
    """A card on a network without a DHCP server (QEMU's socket network
    into a UDP port nobody reads): the send: line says DHCP gave no
    address within 10 s (the kernel's bounded wait), the run complete."""
    net = ["-netdev", f"socket,id=n0,udp=127.0.0.1:{free_udp_port()},localaddr=127.0.0.1:{free_udp_port()}",
           "-device", "virtio-net-pci,netdev=n0"]
    iso = grub_test_iso("send-nodhcp", f"\tmultiboot2 /boot/bench.elf {QUICK} send=http://10.0.2.2:8080/")
    rc, text = qemu("send-nodhcp", "ovmf-cdrom", image=iso, extra=net)
    expect_complete(rc, text)
    sends = send_lines(text)
    check(len(sends) == 1 and sends[0].startswith("send: NOT sent: DHCP (EFI_IP4_CONFIG2_PROTOCOL) returned "
                                                  "EFI_TIMEOUT: DHCP gave no address within 10 s"),
          f"send: lines {sends}", text[-3000:])


def test_send_no_network_card():
    """No network card at all (-nic none): the line says so, by protocol."""
    iso = grub_test_iso("send-nonic", f"\tmultiboot2 /boot/bench.elf {QUICK} send=http://10.0.2.2:8080/")
    rc, text = qemu("send-nonic", "ovmf-cdrom", image=iso, extra=["-nic", "none"])
    expect_complete(rc, text)
    sends = send_lines(text)
    check(len(sends) == 1 and sends[0].startswith(
        "send: NOT sent: LocateHandleBuffer(ByProtocol, EFI_HTTP_SERVICE_BINDING_PROTOCOL) returned EFI_NOT_FOUND: "
        "no network card: no handle has EFI_SIMPLE_NETWORK_PROTOCOL or EFI_MANAGED_NETWORK_SERVICE_BINDING_PROTOCOL"),
        f"send: lines {sends}", text[-3000:])


def test_send_duplicate_answer():
    """The collector has the run already: 200, stored "duplicate", said."""
    def answer(body, headers, line):
        status, obj = stored(body, headers, line)
        return 200, dict(obj, stored="duplicate")
    with Collector(answer) as c:
        rc, text = boot("duplicate", f"{QUICK} send=http://10.0.2.2:{c.port}/")
    expect_complete(rc, text)
    sends = send_lines(text)
    check(len(sends) == 1 and ", 200 stored (duplicate), CRC-32 0x" in sends[0], f"send: lines {sends}",
          text[-3000:])
    rec = send_record(text)
    check(rec["status"] == 200 and rec["stored"] == "duplicate" and rec["checked"] is True, f"send record {rec}",
          text)


def test_send_collector_counts_otherwise():
    """A collector whose byte count and CRC-32 are not the kernel's (one
    byte lost): stored, but the line says NOT checked with its figures."""
    def answer(body, headers, line):
        return 201, {"stored": "new", "run_id": headers.get("x-bench-run-id"), "bytes": len(body) - 1,
                     "crc32": f"0x{zlib.crc32(body[:-1]):08x}", "runs": []}
    with Collector(answer) as c:
        rc, text = boot("mismatch", f"{QUICK} send=http://10.0.2.2:{c.port}/")
    expect_complete(rc, text)
    body = c.requests[0][2]
    sends = send_lines(text)
    expect = (f"send: http://10.0.2.2:{c.port}/: {len(body)} bytes sent, 201 stored (new), but NOT checked: the "
              f"collector counted {len(body) - 1} bytes, CRC-32 0x{zlib.crc32(body[:-1]):08x}: not what was sent; in ")
    check(len(sends) == 1 and sends[0].startswith(expect), f"send: lines {sends}, expected {expect!r}", text[-3000:])
    rec = send_record(text)
    check(rec["checked"] is False and rec["why"], f"send record {rec}", text)

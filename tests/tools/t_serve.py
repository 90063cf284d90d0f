"""tests/tools/t_serve.py - `bench.py serve`, the lab's collector (issue 33;
tools/benchserve.py, tools/benchserveapp.py, tools/benchservepage.py),
started on a free loopback port for each test (its port read from its
'listening on' line within START_TIMEOUT s; the process killed at the end
whatever happens) and sent real logs: the goldens' code-nops run
(tests/golden/code-nops.log.gz, its capture's 'exit: N' line left out),
made into as many runs as needed with common.another_run.

  - 50 clients at once, 30 runs, 20 of them posted twice: each run stored
    exactly once (30 answers 201 "new", 20 answers 200 "duplicate"), the
    database's runs exactly those 30, each log kept byte for byte, the
    answers' bytes and CRC-32 the bodies' own;
  - truncated, oversized (by its body, and by its Content-Length alone) and
    non-log bodies refused (400, 413) with "error", nothing stored; the
    collector still stores a good run after them;
  - clients that send garbage, a header over the limit, half a request, or
    nothing: a log line each, and the collector still answers; a slow
    client's unfinished request holds up no one, and is closed after 30 to
    35 s (bench.py serve's CHANNEL_TIMEOUT), said;
  - with --token: none, a wrong one (query and Bearer) refused (401),
    nothing stored; the right one in either place stored;
  - the page in headless Chromium (selenium, chromedriver): a stored run
    in the list, a run posted while it is open appears without a reload,
    newest first, its report link opens the report; its figures page
    links the paper's figures, each a PNG; the comparison with
    the machine's previous run, and the first run's line saying it has
    none;
  - a plan run's log (common.py's plan-a): a run per experiment, run key
    RUNID/NAME, stored once.
"""
import gzip
import http.client
import json
import os
import queue
import re
import socket
import sqlite3
import subprocess
import threading
import time
import zlib

from common import BENCH, PY, ROOT, another_run, boot, check, read, records, workdir

START_TIMEOUT = 60    # [s] for the collector's 'listening on' line
HTTP_TIMEOUT = 120    # [s] for one answer (50 at once on a loaded 2-core machine)
PAGE_TIMEOUT = 60     # [s] for the page to show a run
GOLDEN = os.path.join(ROOT, "tests", "golden", "code-nops.log.gz")


def golden_log():
    """The code-nops golden's serial log (bytes), without the capture's
    first line 'exit: N' (QEMU's exit status, tests/golden/README.md)."""
    with gzip.open(GOLDEN, "rb") as f:
        data = f.read()
    return data.split(b"\n", 1)[1] if data.startswith(b"exit: ") else data


def run_log(tag):
    """Another run's log made from the golden: its own run ID (from tag)."""
    return another_run(golden_log().decode("ascii"), tag).encode("ascii")


def run_id_of(body):
    return re.search(rb'"run_id":"([0-9a-f]{16})"', body).group(1).decode()


class Collector:
    """`bench.py serve` on 127.0.0.1, a free port, its database in d; with:
    started (its port read), stopped and killed at the end; lines: what it
    printed on standard error so far."""

    def __init__(self, d, *args):
        self.db = os.path.join(d, "lab.sqlite")
        self.args = ["serve", "--bind", "127.0.0.1", "--port", "0", "--db", self.db] + list(args)
        self.lines, self.port, self.p = [], None, None

    def __enter__(self):
        self.p = subprocess.Popen([PY, BENCH] + self.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE)
        got = queue.Queue()

        def read():
            for raw in self.p.stderr:
                line = raw.decode(errors="replace").rstrip("\n")
                self.lines.append(line)
                got.put(line)
            got.put(None)
        threading.Thread(target=read, daemon=True).start()
        end = time.monotonic() + START_TIMEOUT
        try:
            while self.port is None:
                try:
                    line = got.get(timeout=max(0.1, end - time.monotonic()))
                except queue.Empty:
                    raise AssertionError(f"bench.py serve printed no 'listening on' line within {START_TIMEOUT} s:\n"
                                         + self.text())
                if line is None:
                    raise AssertionError(f"bench.py serve ended (exit status {self.p.wait()}) before listening:\n"
                                         + self.text())
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
                if m:
                    self.port = int(m.group(1))
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        if self.p and self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(10)

    def text(self):
        return "\n".join("    | " + l[:300] for l in self.lines[-25:])

    def request(self, method, path, body=None, headers=None):
        """(status, JSON of the answer or its text)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
        finally:
            c.close()
        try:
            return r.status, json.loads(data)
        except ValueError:
            return r.status, data.decode(errors="replace")

    def post(self, body, path="/", headers=None):
        return self.request("POST", path, body, dict({"Content-Type": "text/plain; charset=us-ascii"},
                                                     **(headers or {})))

    def raw(self, data, answer=True):
        """data sent on a connection of its own; what came back (b'' when
        the collector closed it, or reset it while data was being sent)."""
        s = socket.create_connection(("127.0.0.1", self.port), timeout=HTTP_TIMEOUT)
        out = b""
        try:
            s.sendall(data)
            while answer:
                b = s.recv(65536)
                if not b:
                    break
                out += b
        except ConnectionError:
            pass
        finally:
            s.close()
        return out

    def runs(self):
        """The run keys in the database."""
        with sqlite3.connect(self.db) as conn:
            return sorted(r[0] for r in conn.execute("SELECT run_key FROM runs"))

    def answers(self, what):
        """check that the collector still answers GET /runs (what: after what)."""
        status, data = self.request("GET", "/runs")
        check(status == 200 and isinstance(data, dict) and "runs" in data,
              f"after {what}: GET /runs answered {status}: {str(data)[:200]}", self.text())
        return data


def test_serve_fifty_clients_at_once():
    """50 clients at once, 30 runs, 20 posted twice: each stored once, none lost."""
    d = workdir("serve_fifty")
    bodies = [run_log(f"serve-{i}") for i in range(30)]
    posts = bodies + bodies[:20]
    results = [None] * len(posts)
    with Collector(d) as col:
        start = threading.Barrier(len(posts))

        def client(i):
            try:
                start.wait(HTTP_TIMEOUT)
                results[i] = col.post(posts[i], headers={"X-Bench-Run-Id": run_id_of(posts[i])})
            except Exception as e:  # said below, per client
                results[i] = (None, f"{type(e).__name__}: {e}")
        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(len(posts))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(HTTP_TIMEOUT + 30)
        check(not any(t.is_alive() for t in threads), "a client got no answer within its timeout", col.text())
        new = {}
        for i, (status, ans) in enumerate(results):
            check(isinstance(ans, dict) and status in (200, 201),
                  f"client {i}: answer {status}: {str(ans)[:300]}", col.text())
            body = posts[i]
            check(ans.get("bytes") == len(body) and ans.get("crc32") == f"0x{zlib.crc32(body):08x}",
                  f"client {i}: bytes {ans.get('bytes')}, crc32 {ans.get('crc32')} answered, the body's "
                  f"{len(body)}, 0x{zlib.crc32(body):08x}")
            check(ans.get("run_id") == run_id_of(body) and ans.get("runs") == [run_id_of(body)],
                  f"client {i}: run_id {ans.get('run_id')}, runs {ans.get('runs')}, expected {run_id_of(body)}")
            check((status, ans["stored"]) in ((201, "new"), (200, "duplicate")),
                  f"client {i}: status {status} with stored {ans['stored']!r}")
            new.setdefault(ans["run_id"], []).append(ans["stored"])
        want = sorted(run_id_of(b) for b in bodies)
        check(sorted(new) == want, f"answered runs {sorted(new)}, expected {want}")
        twice = [k for k, v in new.items() if sorted(v) != (["duplicate", "new"] if len(v) == 2 else ["new"])]
        check(not twice, f"runs not stored exactly once (their answers): {[(k, new[k]) for k in twice]}")
        check(col.runs() == want, f"the database holds {len(col.runs())} runs, expected the 30 posted: "
                                  f"{sorted(set(want) ^ set(col.runs()))} differ")
        for b in bodies:
            kept = os.path.join(d, "lab-logs", run_id_of(b) + ".log")
            check(os.path.isfile(kept) and open(kept, "rb").read() == b,
                  f"{kept}: not the body posted, byte for byte")
        check(col.answers("50 clients")["count"] == 30, "GET /runs does not count 30 runs")
        posts_logged = [l for l in col.lines if re.search(r" POST / 20[01] ", l)]
        check(len(posts_logged) == 50, f"{len(posts_logged)} log lines of POSTs answered 200/201, expected 50",
              col.text())


def test_serve_refuses_bad_bodies():
    """Truncated, oversized and non-log bodies: 400, 413, nothing stored."""
    d = workdir("serve_refuses")
    good = run_log("serve-refuses")
    cut = good[:good.index(b"bench: run complete")]
    limit = len(good) + 1000
    with Collector(d, "--max-bytes", str(limit)) as col:
        for what, body, want, words in (
                ("a truncated log (no final line)", cut, 400, "truncated: no final line"),
                ("half a log", good[:len(good) // 2], 400, "truncated"),
                ("a text that is no log", b"hello, collector\n", 400, "not a bench log"),
                ("an empty body", b"", 400, "not a bench log"),
                ("a body over --max-bytes", good + b"\n" * 2000, 413, f"over the size limit of {limit} bytes")):
            status, ans = col.post(body)
            check(status == want and isinstance(ans, dict) and words in ans.get("error", ""),
                  f"{what}: answered {status} {str(ans)[:300]}, expected {want} with '{words}'", col.text())
            check(col.runs() == [], f"{what}: stored {col.runs()}")
        status, ans = col.post(good, headers={"X-Bench-Run-Id": "0123456789abcdef"})
        check(status == 400 and "is not the log's run ID" in ans.get("error", ""),
              f"X-Bench-Run-Id not the log's: answered {status} {ans}", col.text())
        out = col.raw(b"POST / HTTP/1.1\r\nHost: lab\r\nContent-Length: 9999999999\r\n\r\n")
        check(out.startswith(b"HTTP/1.1 413 ") and b'"error"' in out and b"over the size limit" in out,
              f"a Content-Length over --max-bytes: answered {out[:300]!r}", col.text())
        check(col.runs() == [], f"something was stored: {col.runs()}")
        status, ans = col.post(good)
        check(status == 201 and ans.get("stored") == "new", f"a good log after the refusals: {status} {ans}",
              col.text())
        check(col.runs() == [run_id_of(good)], f"the database holds {col.runs()}")


def test_serve_survives_bad_clients():
    """Garbage, a huge header, half a request, a silent client: a log line
    each, and the collector still answers."""
    d = workdir("serve_clients")
    with Collector(d) as col:
        out = col.raw(b"GARBAGE\r\n\r\n")
        check(out.startswith(b"HTTP/1.0 400 ") and b"not an HTTP request" in out, f"garbage: answered {out[:200]!r}",
              col.text())
        col.answers("garbage")
        out = col.raw(b"\x00\x01\xfe\xff" * 64 + b"\r\n\r\n")
        check(b" 400 " in out[:20], f"binary garbage: answered {out[:200]!r}", col.text())
        col.answers("binary garbage")
        out = col.raw(b"GET / HTTP/1.1\r\nHost: lab\r\nX-Big: " + b"a" * (80 << 10) + b"\r\n\r\n")
        check(out == b"" or b" 431 " in out[:20], f"a header over 64 KiB: answered {out[:200]!r}", col.text())
        col.answers("a header over 64 KiB")
        slow = socket.create_connection(("127.0.0.1", col.port), timeout=HTTP_TIMEOUT)
        half = b"POST / HTTP/1.1\r\nHost: lab\r\nX-Slow: yes\r\nContent-Le"
        try:  # a slow client, its request unfinished, holds up no one and is closed after 30 s
            slow.sendall(half)
            col.answers("a slow client's half header")
            status, ans = col.post(run_log("serve-slow"))
            check(status == 201, f"a good log beside a slow client: {status} {ans}", col.text())
            check(slow.recv(100) == b"", "the slow client's connection was not closed")
        finally:
            slow.close()
        check(any(f"its header unfinished after {len(half)} bytes" in l and "30 s or more" in l for l in col.lines),
              "no log line saying the slow client's connection was closed", col.text())
        col.raw(b"POST / HTTP/1.1\r\nHost: lab\r\nContent-Length: 5000\r\n\r\nbench 0.1", answer=False)
        col.raw(b"POST / HTTP/1.1\r\nHost: la", answer=False)
        col.raw(b"", answer=False)
        col.answers("half requests")
        end = time.monotonic() + 10
        want = ("not an HTTP request", "431 Request Header Fields Too Large", "9 of its 5000 body bytes received",
                "its header unfinished after")
        while time.monotonic() < end and not all(any(w in l for l in col.lines) for w in want):
            time.sleep(0.2)
        missing = [w for w in want if not any(w in l for l in col.lines)]
        check(not missing, f"no log line saying {missing} within 10 s", col.text())
        check(col.runs() == [run_id_of(run_log("serve-slow"))], f"the database holds {col.runs()}")
        status, ans = col.post(run_log("serve-clients"))
        check(status == 201, f"a good log after the bad clients: {status} {ans}", col.text())


def test_serve_token():
    """--token: none or a wrong one refused (401), nothing stored; the right one stored."""
    d = workdir("serve_token")
    body = run_log("serve-token")
    with Collector(d, "--token", "lab-secret") as col:
        for what, path, headers in (("no token", "/", {}), ("a wrong token", "/?token=guess", {}),
                                    ("a wrong Bearer token", "/", {"Authorization": "Bearer guess"})):
            status, ans = col.post(body, path, headers)
            check(status == 401 and "token missing or wrong" in ans.get("error", ""),
                  f"{what}: answered {status} {ans}", col.text())
        check(col.runs() == [], f"stored without the token: {col.runs()}")
        status, ans = col.post(body, "/lab1?token=lab-secret")
        check(status == 201 and ans.get("stored") == "new", f"?token=T: answered {status} {ans}", col.text())
        status, ans = col.post(body, "/", {"Authorization": "Bearer lab-secret"})
        check(status == 200 and ans.get("stored") == "duplicate", f"Bearer T: answered {status} {ans}", col.text())
        check(col.runs() == [run_id_of(body)], f"the database holds {col.runs()}")
        check(not any("lab-secret" in l for l in col.lines), "the token is in the collector's log", col.text())


def chromium():
    """Headless Chromium through chromedriver (Debian's chromium,
    chromium-driver, python3-selenium: tools/deps.sh), or a failure saying
    why it cannot start."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise AssertionError(f"selenium is not available to {PY} ({e}): tools/deps.sh installs python3-selenium")
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1400,1000"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    try:
        return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    except Exception as e:
        raise AssertionError(f"headless Chromium does not start: {type(e).__name__}: {e}")


def wait_for(what, cond, col):
    """cond() true within PAGE_TIMEOUT s, or a failure naming what."""
    end = time.monotonic() + PAGE_TIMEOUT
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.25)
    raise AssertionError(f"{what}: not within {PAGE_TIMEOUT} s" + ("\n" + col.text() if col else ""))


def test_serve_page_in_chromium():
    """The page: a stored run listed; one posted while it is open appears
    without a reload, newest first; its report link opens the report."""
    from selenium.webdriver.common.by import By
    d = workdir("serve_page")
    first, second = run_log("serve-page-1"), run_log("serve-page-2")
    with Collector(d) as col:
        status, ans = col.post(first)
        check(status == 201, f"the first run: {status} {ans}", col.text())
        browser = chromium()
        try:
            browser.set_page_load_timeout(PAGE_TIMEOUT)
            browser.get(f"http://127.0.0.1:{col.port}/")
            rows = lambda: [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#runs tr")]  # noqa: E731
            wait_for("the stored run in the page's list", lambda: any(run_id_of(first) in r for r in rows()), col)
            row = rows()[0]
            for words in ("system QEMU Standard PC", "BIOS SeaBIOS", "cpuid: ergodic", "complete",
                          "code, cpuid: 1.000 exactly (TSC ticks per copy)"):
                check(words in row, f"the run's row lacks '{words}': {row[:600]}")
            browser.execute_script("window.benchNoReload = 33;")
            status, ans = col.post(second)
            check(status == 201, f"the second run: {status} {ans}", col.text())
            wait_for("the run posted while the page is open", lambda: any(run_id_of(second) in r for r in rows()),
                     col)
            check(browser.execute_script("return window.benchNoReload;") == 33, "the page was reloaded")
            got = rows()
            check(len(got) == 2 and run_id_of(second) in got[0] and run_id_of(first) in got[1],
                  f"not the two runs newest first: {[r[:40] for r in got]}")
            browser.save_screenshot(os.path.join(d, "page.png"))
            browser.find_element(By.CSS_SELECTOR, "#run-R2 a").click()
            text = wait_for("the report page", lambda: browser.find_elements(By.ID, "text") and
                            browser.find_element(By.ID, "text").text, col)
            check("report:" in text and "lab-logs" in text and "Paper statistics" in text,
                  f"the report link shows no report: {text[:400]}")
            check(browser.current_url.endswith("/runs/R2/report"), f"the report link led to {browser.current_url}")
            browser.save_screenshot(os.path.join(d, "report.png"))
        finally:
            browser.quit()
        status, text = col.request("GET", "/runs/R2/compare")
        check(status == 200 and "A = R1 (run ID " + run_id_of(first) in text and "B = R2" in text
              and "the same machine" in text,
              f"/runs/R2/compare: {status} {text[-600:]}", col.text())
        status, text = col.request("GET", "/runs/R2/figures")
        pngs = re.findall(r'href="figures/([^"]+\.png)"', text) if status == 200 else []
        check(pngs, f"/runs/R2/figures links no PNG: {status} {str(text)[-600:]}", col.text())
        c = http.client.HTTPConnection("127.0.0.1", col.port, timeout=HTTP_TIMEOUT)
        try:
            c.request("GET", f"/runs/R2/figures/{pngs[0]}")
            r = c.getresponse()
            png = r.read()
        finally:
            c.close()
        check(r.status == 200 and r.getheader("Content-Type") == "image/png" and png.startswith(b"\x89PNG\r\n"),
              f"/runs/R2/figures/{pngs[0]}: {r.status} {r.getheader('Content-Type')}, {png[:8]!r}")
        status, text = col.request("GET", "/runs/R1/compare")
        check(status == 200 and "the first run stored of its machine" in text, f"/runs/R1/compare: {status} {text}")


def test_serve_plan_run():
    """A plan run's log: a run per experiment (RUNID/NAME), stored once, on the page's JSON."""
    d = workdir("serve_plan")
    body = read(boot("plan-a"))
    rid = run_id_of(body)
    names = [r["name"] for r in records(boot("plan-a"), "experiment")]
    with Collector(d) as col:
        status, ans = col.post(body)
        want = [f"{rid}/{n}" for n in names]
        check(status == 201 and ans.get("runs") == want, f"a plan run: {status} {ans}, expected runs {want}",
              col.text())
        status, ans = col.post(body)
        check(status == 200 and ans.get("stored") == "duplicate", f"the plan run again: {status} {ans}")
        check(col.runs() == sorted(want), f"the database holds {col.runs()}, expected {want}")
        runs = col.answers("a plan run")["runs"]
        check([r["experiment"] for r in runs] == names[::-1], f"/runs lists {[r['experiment'] for r in runs]}")

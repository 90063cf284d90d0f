"""tools/benchserveapp.py - the collector's WSGI application (bench.py
serve; tools/benchserve.py runs it on waitress). Issue 33; README "A rack:
results over the network".

    app = Collector("lab.sqlite", token=None, max_bytes=64 << 20, say=print)

POST (any path: the path of send=): the body is a run's serial log, as the
kernel sends it (send=, the results file's bytes) or as a person posts a
captured one (curl --data-binary @run.log). It is read up to max_bytes
[bytes] (over: 413, nothing stored), parsed with tools/benchlog and stored
in the lab database as `bench.py store` stores a log (tools/benchdb.py
store, or store_experiments for a plan run; one store at a time: a lock,
and each request's own connection with a busy timeout), and kept as
<db>-logs/<run ID>.log for the report and the comparison. The answer is
JSON:

    201 {"stored": "new", "run_id": "0ba89128d694c18c", "bytes": 63412,
         "crc32": "0x1234abcd", "runs": ["0ba89128d694c18c"]}
    200 the same with "stored": "duplicate" (the run was there already)

bytes and crc32 are the collector's own count and CRC-32 (zlib, as ISO
3309 / the kernel's lib/crc32.c) of the body it received, for the sender
to check against its own; runs the run keys the body is stored as (a plan
run: one per experiment, RUNID/NAME). Refusals, always JSON with "error":
400 (not a bench log; truncated: no final line; not valid; an aborted run;
X-Bench-Run-Id not the log's run ID), 401 (with a token: ?token=T or
"Authorization: Bearer T" missing or wrong; nothing read), 413 (over
max_bytes), 500 (the collector's own failure, said). GET: / the page,
/runs?since=N its JSON (tools/benchservepage.py), /runs/REF/report,
/runs/REF/figures, /runs/REF/figures/NAME.png, /runs/REF/compare, where
REF is the database's run number (R3) or the kernel's run ID.
"""
import hmac
import json
import os
import re
import threading
import time
import urllib.parse
import zlib

import benchdb
import benchlog
import benchplantext
import benchservepage

MIB = 1 << 20
DEFAULT_MAX_BYTES = 64 * MIB  # [bytes] a body over it is refused (413), nothing stored
BUSY_TIMEOUT_MS = 30_000      # [ms] SQLite's busy timeout of each request's connection
RUN_ID = re.compile(r"^[0-9a-f]{16}$")  # kernel/runid.h
REASONS = {200: "OK", 201: "Created", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
           405: "Method Not Allowed", 413: "Content Too Large", 500: "Internal Server Error"}


def answer_json(obj):
    """An answer's JSON, compact (as the shared design writes it); "error"
    printable ASCII only (any other character '?'), so that its only
    escapes are \\" and \\\\ (the kernel's lib/sendreply.c reads no others)."""
    if "error" in obj:
        obj = dict(obj, error="".join(c if " " <= c <= "~" else "?" for c in str(obj["error"])))
    return json.dumps(obj, separators=(",", ":")).encode()


class Answer(Exception):
    """A request's answer that ends it early: status, JSON object."""

    def __init__(self, code, obj):
        super().__init__(obj.get("error"))
        self.code, self.obj = code, obj


def logs_folder(db):
    """Where the collector keeps the logs it received: the database's path
    without its extension, plus '-logs' (lab.sqlite: lab-logs/)."""
    return os.path.splitext(db)[0] + "-logs"


def size_text(n):
    """A byte count with its MiB where it is a whole number of them."""
    return f"{n} bytes" + (f" ({n // MIB} MiB)" if n % MIB == 0 and n else "")


def refusal(log):
    """Why a POSTed log must not be stored (for a 400), or None: not a
    bench log (no records, no env), truncated (no final line), an aborted
    run (store says ABORTED), or not valid (tools/benchdb.py refusal)."""
    first = log.problems[0].text if log.problems else ""
    if not log.env:
        return f"not a bench log: {first or 'no env record'}"
    if not log.final_line:
        return f"truncated: no final line ('bench: run ...'): {first}"
    if "run aborted" in log.final_line:
        return f"the run was aborted (its final line: '{log.final_line}'): nothing of it stored"
    return benchdb.refusal(log)


class Collector:
    """The WSGI application (PEP 3333). db: the lab database's path (made
    when missing); token: the text a POST must carry, or None; max_bytes:
    the largest body stored [bytes]; say: prints one line (the request's
    log line)."""

    def __init__(self, db, token=None, max_bytes=DEFAULT_MAX_BYTES, say=print):
        self.db, self.token, self.max_bytes, self.say = db, token, max_bytes, say
        self.logs = logs_folder(db)
        self.store_lock = threading.Lock()    # SQLite writes one at a time
        self.figure_lock = threading.Lock()   # matplotlib's pyplot is not thread-safe
        benchdb.connect(db, create=True).close()  # DbError: said by the caller before serving
        os.makedirs(self.logs, exist_ok=True)

    # --- WSGI -----------------------------------------------------------------------

    def __call__(self, environ, start_response):
        t0 = time.monotonic()
        peer = f"{environ.get('REMOTE_ADDR', '?')}:{environ.get('REMOTE_PORT', '?')}"
        method, path = environ.get("REQUEST_METHOD", "?"), environ.get("PATH_INFO", "/")
        note = ""
        try:
            code, ctype, body, note = self.route(environ, method, path)
        except Answer as a:
            code, ctype, body, note = a.code, "application/json", answer_json(a.obj), a.obj.get("error", "")
        except Exception as e:  # the collector's own failure: said, and it goes on serving
            why = f"the collector failed: {type(e).__name__}: {e}"
            code, ctype, body, note = 500, "application/json", answer_json({"error": why}), why
        self.say(f"{peer} {method} {path} {code} ({len(body)} bytes answered, "
                 f"{time.monotonic() - t0:.2f} s){': ' + note if note else ''}")
        start_response(f"{code} {REASONS.get(code, '')}",
                       [("Content-Type", ctype), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
        return [body]

    def route(self, environ, method, path):
        """(status, content type, body bytes, note for the log line)."""
        if not re.match(r"^[A-Z]+$", method):
            raise Answer(400, {"error": f"not an HTTP request: its first line has no method ({method!r})"})
        if method == "POST":
            return self.post(environ)
        if method not in ("GET", "HEAD"):
            raise Answer(405, {"error": f"{method} is not served: GET the page or the runs, POST a log"})
        if path == "/":
            return 200, "text/html; charset=utf-8", benchservepage.PAGE.encode(), ""
        if path == "/runs":
            q = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
            try:
                since = int((q.get("since") or ["0"])[0])
            except ValueError:
                raise Answer(400, {"error": f"since={q['since'][0]!r}: not a run number"})
            with self.connect() as conn:
                data = benchservepage.runs_data(conn, since)
            return 200, "application/json", json.dumps(data).encode(), f"{len(data['runs'])} runs"
        m = re.match(r"^/runs/([^/]+)/(report|compare|figures)(?:/([A-Za-z0-9_.-]+\.png))?$", path)
        if not m:
            raise Answer(404, {"error": f"{path}: no such page (/, /runs, /runs/REF/report, /runs/REF/compare)"})
        with self.connect() as conn:
            run = self.find_run(conn, m.group(1))
            if m.group(2) == "compare":
                return self.compare(conn, run)
        if m.group(2) == "report":
            return self.report(run)
        return self.figures(run, m.group(3))

    def connect(self):
        """This request's own connection, with SQLite's busy timeout; closed by with."""
        conn = benchdb.connect(self.db)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return _Closing(conn)

    # --- storing ------------------------------------------------------------------

    def authorized(self, environ):
        """Whether the request carries the token (?token=T, or Authorization: Bearer T)."""
        given = urllib.parse.parse_qs(environ.get("QUERY_STRING", "")).get("token", [None])[0]
        auth = environ.get("HTTP_AUTHORIZATION", "")
        if given is None and auth.startswith("Bearer "):
            given = auth[len("Bearer "):].strip()
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def post(self, environ):
        if self.token and not self.authorized(environ):
            raise Answer(401, {"error": "token missing or wrong (send=http://HOST:PORT/PATH?token=T, or "
                                        "Authorization: Bearer T): nothing stored"})
        declared = environ.get("CONTENT_LENGTH") or ""
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise Answer(413, {"error": f"the body ({declared} bytes) is over the size limit of "
                                        f"{size_text(self.max_bytes)}: nothing stored"})
        body = environ["wsgi.input"].read(self.max_bytes + 1)
        if len(body) > self.max_bytes:
            raise Answer(413, {"error": f"the body is over the size limit of {size_text(self.max_bytes)}: "
                                        "nothing stored"})
        digest = {"bytes": len(body), "crc32": f"0x{zlib.crc32(body) & 0xffffffff:08x}"}
        log = benchlog.parse(body.decode("utf-8", errors="replace"))
        why = refusal(log)
        if why:
            raise Answer(400, {"error": why, **digest})
        run_id = log.env.get("run_id")
        sent = environ.get("HTTP_X_BENCH_RUN_ID")
        if sent is not None and sent != run_id:
            raise Answer(400, {"error": f"X-Bench-Run-Id {sent!r} is not the log's run ID {run_id!r}: nothing stored",
                               **digest})
        if not (isinstance(run_id, str) and RUN_ID.match(run_id)):
            raise Answer(400, {"error": f"the log has no run ID (env record run_id {run_id!r}; a kernel before "
                                        "run IDs): bench.py store stores it", **digest})
        path = os.path.join(self.logs, f"{run_id}.log")
        with self.store_lock:
            results = self.store(log, path)
            refused = [str(r) for r in results if isinstance(r, benchdb.Refused)]
            done = [r for r in results if isinstance(r, benchdb.Stored)]
            if refused and not done:
                raise Answer(400, {"error": refused[0], **digest})
            if not os.path.exists(path):  # kept for the report and the comparison
                with open(path + ".part", "wb") as f:
                    f.write(body)
                os.replace(path + ".part", path)
        new = any(not r.duplicate for r in done)
        obj = {"stored": "new" if new else "duplicate", "run_id": run_id, **digest,
               "runs": [r.key for r in done]}
        if refused:
            obj["refused"] = refused
        code = 201 if new else 200
        return code, "application/json", answer_json(obj), \
            f"run {run_id} {obj['stored']} ({digest['bytes']} bytes, CRC-32 {digest['crc32']})" + \
            (f"; refused: {'; '.join(refused)}" if refused else "")

    def store(self, log, path):
        """Store log as bench.py store does (a run, or a plan run's
        experiments, each a run); [Stored (with .key, its run key) or
        Refused]; an experiment the kernel skipped is left out."""
        with self.connect() as conn:
            try:
                if log.experiments:
                    results = [r for _, r in benchdb.store_experiments(conn, log, source=path) if r is not None]
                else:
                    results = [benchdb.store(conn, log, source=path)]
            except benchdb.Refused as e:
                return [e]
            for r in results:
                if isinstance(r, benchdb.Stored):
                    r.key = conn.execute("SELECT run_key FROM runs WHERE id = ?", (r.run_id,)).fetchone()[0]
        return results

    # --- the run's pages ----------------------------------------------------------

    def find_run(self, conn, ref):
        """The runs row (a dict) of R<number> or a run ID; Answer 404 when none."""
        runs, _ = benchdb.list_runs(conn)
        for r in runs:
            if ref == f"R{r['id']}" or ref == r["run_key"]:
                return r
        raise Answer(404, {"error": f"no run {ref} stored"})

    def log_path(self, run):
        """The log of a run: the one the collector received, or the file
        bench.py store stored it from; None when neither is here."""
        key = (run["run_key"] or "")[:16]
        mine = os.path.join(self.logs, f"{key}.log")
        if key and os.path.isfile(mine):
            return mine
        first = (run["source"] or "").split(", ")[0]
        return first if first and os.path.isfile(first) else None

    def no_log(self, run):
        return (f"no log of R{run['id']} here: it was stored from {run['source']} ({run['format']}), and the "
                f"collector keeps only the logs it received ({self.logs})")

    def report(self, run):
        path = self.log_path(run)
        ref = f"R{run['id']}"
        lines = benchplantext.report_lines(benchlog.load(path)) if path else [self.no_log(run)]
        page = benchservepage.text_page(f"report of {ref} (run ID {run['run_key']})", lines,
                                        [("../../", "all runs"), ("figures", "figures (PNG)"),
                                         ("compare", "compare with this machine's previous run")])
        return 200, "text/html; charset=utf-8", page.encode(), ""

    def figures(self, run, name):
        """The figures page (drawn on first asking, as bench.py report draws
        them, into <db>-logs/<run ID>-report/), or one PNG of it."""
        import benchplot
        path = self.log_path(run)
        if path is None:
            raise Answer(404, {"error": self.no_log(run)})
        outdir = os.path.join(self.logs, f"R{run['id']}-report")
        if name:
            png = os.path.join(outdir, name)
            if not os.path.isfile(png):
                raise Answer(404, {"error": f"no figure {name} of R{run['id']} (its figures page draws them)"})
            with open(png, "rb") as f:
                return 200, "image/png", f.read(), ""
        log = benchlog.load(path)
        name_x = (run["run_key"] or "").partition("/")[2]  # a plan run's experiment: its own log's figures
        log = next((x.log for x in log.experiments if x.name == name_x and x.log), log)
        with self.figure_lock:
            try:
                drawn = benchplot.all_figures(log, outdir) if any(s.ensembles for s in log.series.values()) else []
                lines = [f"{os.path.basename(p)}: {what}" for p, what in drawn] or \
                    ["no figures: the log has no per-ensemble lines (output=summary: boot with output=both for "
                     "the paper's figures)"]
            except benchplot.NoMatplotlib as e:
                drawn, lines = [], [f"no figures: {e}"]
        page = benchservepage.text_page(f"figures of R{run['id']} (run ID {run['run_key']})", lines,
                                        [("../../", "all runs"), ("report", "report")] +
                                        [(f"figures/{os.path.basename(p)}", os.path.basename(p)) for p, _ in drawn])
        return 200, "text/html; charset=utf-8", page.encode(), ""

    def compare(self, conn, run):
        """bench.py compare of the same machine's previous run (A) with this one (B)."""
        runs, _ = benchdb.list_runs(conn)
        boot = (run["run_key"] or "")[:16]
        before = [r for r in runs if r["machine_id"] == run["machine_id"] and r["id"] < run["id"]
                  and not (boot and (r["run_key"] or "")[:16] == boot)]  # not another experiment of its boot
        ref = f"R{run['id']}"
        if not before:
            lines = [f"{ref} is the first run stored of its machine M{run['machine_id']}: there is no previous "
                     "run to compare it with"]
        else:
            prev = before[-1]
            a, b = self.log_path(prev), self.log_path(run)
            lines = ([f"A = R{prev['id']} (run ID {prev['run_key']}, stored {prev['stored_utc']}), "
                      f"B = {ref} (run ID {run['run_key']}, stored {run['stored_utc']})", ""] +
                     (benchplantext.compare_lines(benchlog.load(a), benchlog.load(b)) if a and b else
                      [self.no_log(prev if a is None else run)]))
        page = benchservepage.text_page(f"{ref} compared with its machine's previous run", lines,
                                        [("../../", "all runs"), ("report", "report")])
        return 200, "text/html; charset=utf-8", page.encode(), ""


class _Closing:
    """with: a connection closed at the end."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        return self.conn

    def __exit__(self, *exc):
        self.conn.close()
        return False

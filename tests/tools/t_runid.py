"""tests/tools/t_runid.py - one run, one identity (issue 22): the run ID
(kernel/runid.h) in the serial log (the run: line and the env record), on
the end screen and in the QR code's text is one and the same; `bench.py
store` of the run's QR screendump and of its serial log, in either order,
makes one run in the lab database whose figures are the serial log's; a
figure the QR code does not carry shows as "not in this source", never
"overflow", while the run has only its QR code.
"""
import os
import re
import sqlite3
import sys

from common import ROOT, bench, boot, check, old_store, records, workdir
from t_qr import qr_shot

ID = re.compile(r"\b[0-9a-f]{16}\b")


def run_id_of(log):
    env = records(log, "env")
    check(len(env) == 1 and ID.fullmatch(env[0].get("run_id") or ""),
          f"the env record has no run_id of 16 hex digits: {env[0].get('run_id') if env else 'no env'}")
    return env[0]["run_id"]


def test_run_id_in_serial_log_screen_and_qr():
    png, log = qr_shot()
    rid = run_id_of(log)
    text = open(log, encoding="utf-8", errors="replace").read()
    check(re.search(rf"^run: ID {rid} \(made from ", text, re.M), f"no 'run: ID {rid}' line in the serial log")
    from t_qr import _qr_shot
    screen = "\n".join(_qr_shot["screen"])
    check(f"run ID {rid}" in screen, f"the end screen does not show run ID {rid}:\n{screen}")
    d = workdir("runid_qr")
    rc, out = bench("qr", png, "--text", os.path.join(d, "code.txt"))
    body = open(os.path.join(d, "code.txt")).read()
    check(rc == 0 and f"\nrun {rid}\n" in body, f"the QR code's text has no 'run {rid}' line", body)


def table(db, figure):
    rc, out = bench("table", "--db", db, "--figure", figure, "--csv")
    check(rc == 0, f"table --figure {figure}: exit status {rc}", out)
    return [l.split(",") for l in out.strip().split("\n")]


def test_store_qr_then_serial_log_is_one_run():
    png, log = qr_shot()
    d = workdir("runid_store")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", png, "--db", db)
    check(rc == 0 and "stored as run R1" in out, "the screendump is not stored", out)
    rows = table(db, "total_variance")
    cells = [c for r in rows[1:] for c in r[2:]]
    check(rows[1:] and "overflow" not in cells and "not in this source" in cells,
          "a QR-only run's total variance of a workload is not 'not in this source'", "\n".join(map(str, rows)))
    rc, out = bench("table", "--db", db, "--figure", "total_variance")
    check("not in this source: no source stored of that run carries the figure" in out,
          "the table does not say what 'not in this source' means", out)
    rc, out = bench("store", log, "--db", db)
    check(rc == 0 and re.search(r"the same run \(run ID [0-9a-f]{16}\) as run R1 .*: merged into it "
                                r"\(serial log\), \d+ series added or completed", out),
          "the serial log of the same run is not merged into run R1", out)
    conn = sqlite3.connect(db)
    runs = conn.execute("SELECT id, run_key, format FROM runs").fetchall()
    conn.close()
    check(len(runs) == 1 and runs[0][1] == run_id_of(log) and runs[0][2] == "QR code photo + serial log",
          f"runs after the QR code and the serial log: {runs}")
    summaries = {(s["method"], s["workload"]): s for s in records(log, "summary")
                 if s["unit"] == "tsc_ticks"}
    rows = table(db, "total_variance")
    check(len(rows) - 1 == len(summaries) and all(r[2] == str(summaries[(r[0], r[1])]["total_variance"])
                                                  for r in rows[1:]),
          "after the merge the total variances are not the serial log's", "\n".join(map(str, rows)))
    rows = table(db, "net")
    mark = {"below_zero": "!", "below_resolution": "~"}  # bench/summary.h: as the end screen marks them
    check(all(r[2] == str(summaries[(r[0], r[1])]["net_min"]) + mark.get(summaries[(r[0], r[1])].get("net_min_flag"), "")
              for r in rows[1:]),
          "after the merge the nets (and their marks) are not the serial log's", "\n".join(map(str, rows)))
    rc, out = bench("store", png, log, "--db", db)
    check(rc == 0 and out.count("already stored as run R1") == 2, "the two sources again: not recognised", out)


def test_store_serial_log_then_qr_is_one_run():
    png, log = qr_shot()
    d = workdir("runid_store2")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", log, "--db", db)
    rc2, out2 = bench("store", png, "--db", db)
    check(rc == rc2 == 0 and "merged into it (QR code photo), 0 series added or completed" in out2,
          "the QR code of a run stored from its serial log is not merged (adding nothing)", out + out2)
    conn = sqlite3.connect(db)
    n = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    conn.close()
    check(n == 1, f"{n} runs for one run's serial log and QR code", out + out2)


def test_schema_1_database_upgraded():
    """A lab database of schema version 1 (before run IDs: tools/benchdb.py
    of commit 09f761c) is upgraded when opened: its run kept, then the same
    run's QR code and serial log stored as one new run."""
    old = boot("icount")
    db, version = old_store("09f761c", workdir("runid_schema1"), old)
    check(version == 1, f"commit 09f761c's schema version {version}, expected 1")
    png, log = qr_shot()
    rc, out = bench("store", png, log, "--db", db)
    check(rc == 0 and "stored as run R2" in out and "merged into it" in out,
          "a version 1 database does not take new runs after its upgrade", out)
    conn = sqlite3.connect(db)
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    runs = conn.execute("SELECT id, run_key FROM runs ORDER BY id").fetchall()
    sources = conn.execute("SELECT COUNT(*) FROM sources").fetchone()[0]
    conn.close()
    check(version == 6 and len(runs) == 2 and runs[0][1] is None and sources == 3,  # 6: the plan tables
          f"after the upgrade: user_version {version}, runs {runs}, {sources} sources")
    rc, out = bench("store", old, "--db", db)
    check(rc == 0 and "already stored as run R1" in out, "the version 1 run is not found again", out)


def test_qr_run_line_read():
    """benchqr reads the QR text's run line into the env's run_id; a run
    line that is not 16 lower-case hex digits is a problem at its line."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr
    body = ("vendor GenuineIntel\nbrand -\ncpu 6 1 2 -\nhv none\ntsc 1000000000 5 pit\nsize 3 50 10\n"
            "limits 1 1\nm rdtscp t 35 0 0 0 ergodic na 0\nw add_chain_64 5\nrec rdtscp\n"
            "final bench: run complete: 1 method run, 0 skipped, 0 ensemble errors, 0 command-line problems\n")
    log = benchqr.parse_body("run 5fa8d84403b9994a\n" + body)
    check(not log.problems and log.env.get("run_id") == "5fa8d84403b9994a",
          f"run line not read: {log.problems}, env {log.env}")
    bad = benchqr.parse_body("run 5FA8D844\n" + body)
    check(any(p.line == 1 and "'run' line" in p.text for p in bad.problems),
          f"a bad run line is not a problem at line 1: {bad.problems}")
    check("run_id" not in benchqr.parse_body(body).env, "a text without a run line has a run ID")

"""tests/tools/t_answerdb.py - the run's answer in the lab database and in
compare (issue 29, "The lab database holds the answer"): store keeps code='s
per-copy figures (status, bound, fraction), each method's verdict and the
methods' agreement; `table --figure per_copy` and `--figure verdict` give
them as the kernel states them; a database of schema version 2 (today's
before this) opens, its runs without per-copy rows; negative and
below-resolution nets are marked in table and plot as on the end screen
(-5!, 3~); compare opens with both runs' answers side by side, its own
column 'B vs A'. The logs: tests/tools/common.py's code= run (-icount) and a
copy of it whose per_copy and verdict records say what a real machine can
(a figure +- its bound, below zero, below resolution, NOT ergodic) with an
agreement record; the records are read with plain json and sqlite3.
"""
import json
import os
import re
import sqlite3
import subprocess
import zlib

import qrtexts
from common import (BENCH, PY, Skip, TOOL_TIMEOUT, another_run, bench, boot, check, db_rows, old_store,
                    parse_db_table, read, records, workdir, write)

AGREEMENT = {"rec": "per_copy_agreement", "workload": "mix", "unit": "tsc_ticks",
             "methods": ["cpuid", "rdtscp", "cr0"], "agree": False,
             "disagree": [{"a": "cpuid", "b": "rdtscp", "gap": "0.840"}], "trusted": "cpuid",
             "why": "the recommendation's method"}
# What the copy's per_copy records say, per method, and the cell table gives
# each (bench/coderesult.c code_per_copy_text).
CHANGED = {"cpuid": ({"status": "figure", "per_copy": "2.000", "bound": "0.070"}, "2.000 +-0.070"),
           "rdtscp": ({"status": "below_zero", "per_copy": "-0.300", "num": -3, "den": 10}, "-0.300 below zero"),
           "cr0": ({"status": "below_resolution", "per_copy": "0.000", "bound": "0.110", "num": 0},
                   "below resolution (<= 0.110)")}


def changed_log(d):
    """A copy of the code= run (another run ID) with the per_copy records of
    CHANGED (without their least minimums), rdtscp NOT ergodic (variance of
    variances 12 > 10) and AGREEMENT instead of the run's own agreement
    record, after the last per_copy record."""
    out = []
    for line in another_run(read(boot("code")).decode(), "answerdb").split("\n"):
        if line.startswith('{"rec":"per_copy_agreement"'):
            continue  # the run's own agreement: AGREEMENT replaces it
        if line.startswith('{"rec":"per_copy"'):
            r = json.loads(line)
            r.update(CHANGED[r["method"]][0])
            # Without its least minimums a record's interval is not
            # recomputed (tools/benchlog/checks.py, as for a QR text's):
            # the changed figures are the copy's claim.
            r.pop("least_min_n"), r.pop("least_min_2n")
            line = json.dumps(r, separators=(",", ":"))
            if r["method"] == "cr0":
                line += "\r\n" + json.dumps(AGREEMENT, separators=(",", ":"))
        elif line.startswith('{"rec":"verdict","method":"rdtscp"'):
            r = json.loads(line)
            r.update(ergodic=False, var_of_vars=12, max_var_of_vars=10)
            line = json.dumps(r, separators=(",", ":"))
        out.append(line)
    return write(d, "changed.log", "\n".join(out))


def test_store_keeps_per_copy_verdicts_agreement():
    """The per_copy, verdicts and agreements tables hold the records'
    fields; table --figure per_copy / verdict give the kernel's words."""
    d = workdir("answer_store")
    db, log, changed = os.path.join(d, "lab.sqlite"), boot("code"), changed_log(d)
    rc, out = bench("store", log, changed, "--db", db)
    check(rc == 0 and "store: 2 stored" in out, f"store: exit status {rc}", out)
    got = {r[0]: r[1:] for r in db_rows(db, "SELECT method, workload, unit, status, per_copy, bound, copies, num, "
                                            "den, spread, least_min_n, least_min_2n FROM per_copy WHERE run_id = 1")}
    pcs = records(log, "per_copy")
    check(pcs and len(got) == len(pcs), f"{len(got)} per_copy rows for {len(pcs)} records", str(got))
    for p in pcs:
        want = tuple(p[k] for k in ("workload", "unit", "status", "per_copy", "bound", "copies", "num", "den",
                                    "spread", "least_min_n", "least_min_2n"))
        check(got[p["method"]] == want, f"{p['method']}: row {got[p['method']]}, the record gives {want}")
    vs = db_rows(db, "SELECT method, unit, valid, ergodic, var_of_vars, var_of_mins, max_var_of_vars, "
                     "max_var_of_mins, offset FROM verdicts WHERE run_id = 1")
    want = [(v["method"], v["unit"], int(v["valid"]), int(v["ergodic"]), v["var_of_vars"], v["var_of_mins"],
             v["max_var_of_vars"], v["max_var_of_mins"], v["offset"]) for v in records(log, "verdict")]
    check(vs == want, f"verdict rows {vs}, the records give {want}")
    q = "SELECT workload, unit, methods, agree, disagree, trusted, why FROM agreements WHERE run_id = ?"
    own = [(a["workload"], a["unit"], " ".join(a["methods"]), int(a["agree"]),
            json.dumps(a["disagree"], sort_keys=True), a["trusted"], a["why"])
           for a in records(log, "per_copy_agreement")]
    ag = db_rows(db, q, (1,))
    check(own and ag == own, f"run 1's agreements {ag}, its records give {own}")
    ag = db_rows(db, q, (2,))
    check(ag == [("mix", "tsc_ticks", "cpuid rdtscp cr0", 0, json.dumps(AGREEMENT["disagree"], sort_keys=True),
                  "cpuid", AGREEMENT["why"])], f"run 2's agreements {ag}")
    rc, out = bench("table", "--db", db, "--figure", "per_copy")
    check(rc == 0, f"table --figure per_copy: exit status {rc}", out)
    _, _, rows = parse_db_table(out)
    for m, (_, cell) in CHANGED.items():
        check(rows.get((m, "mix")) == ["2.000 exactly", cell], f"{m}: per-copy cells {rows.get((m, 'mix'))}, "
              f"expected ['2.000 exactly', {cell!r}]", out)
    check(re.search(r"R2 \(M1\): mix, TSC ticks: the methods DISAGREE \(cpuid, rdtscp, cr0\): cpuid and rdtscp "
                    r"apart by 0\.840 TSC ticks per copy; trusted: cpuid", out), "no agreement line", out)
    rc, out = bench("table", "--db", db, "--figure", "verdict")
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("cpuid", "-")) == ["ergodic", "ergodic"] and rows.get(("rdtscp", "-")) ==
          ["ergodic", "NOT ergodic: variance of variances 12 > 10 TSC ticks^4"], f"verdict cells {rows}", out)


# The machines columns schema 6 added (tools/benchdbplan.py MACHINE_COLUMNS).
MACHINE_COLUMNS = ("sys_manufacturer", "sys_product", "sys_uuid", "board_manufacturer", "board_product")


def version_2(db):
    """db made as schema version 2 keeps it (tools/benchdb.py before the
    answer was kept): without the per_copy, verdicts and agreements tables
    (nor the events tables of schema 4, the settings and latency tables of
    schema 5, the plan and identity tables and machine columns of schema 6)
    and summaries.net_flag."""
    conn = sqlite3.connect(db)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(summaries)") if r[1] != "net_flag"]
    conn.executescript("DROP TABLE per_copy; DROP TABLE verdicts; DROP TABLE agreements; DROP TABLE events; "
                       "DROP TABLE event_checks; DROP TABLE event_windows; DROP TABLE event_per_copy; DROP TABLE settings; "
                       "DROP TABLE core_clocks; DROP TABLE latency_points; DROP TABLE latency_levels; "
                       "DROP TABLE experiments; DROP TABLE smbios; DROP TABLE memory_devices; " +
                       "".join(f"ALTER TABLE machines DROP COLUMN {c}; " for c in MACHINE_COLUMNS) +
                       f"CREATE TABLE old AS SELECT {', '.join(cols)} FROM summaries; DROP TABLE summaries; "
                       "ALTER TABLE old RENAME TO summaries; PRAGMA user_version = 2;")
    conn.close()


def flagged_qr(d):
    """A QR text whose nets are flagged (lib/qrtext.h low line): rdtscp -5
    below zero, cr0 3 below the TSC's step of 5 ticks."""
    body = ("run 0123456789abcdef\nvendor GenuineIntel\ncpu 6 1 2 -\nbrand -\nhv none\ntsc 1000000000 5 pit\n"
            "tstep 5 sure\nsize 3 50 10\nlimits 1 1\nm rdtscp t 35 0 0 0 ergodic na 0\n"
            "m cr0 t 40 0 0 0 ergodic na 0\nw add_chain_64 -5 3\nlow add_chain_64 z r\nw add_chain_256 256 250\n"
            "rec rdtscp\nfinal bench: run complete: 2 methods run, 0 skipped, 0 ensemble errors, 0 command-line "
            "problems (exit code 0x10)\n")
    return write(d, "flagged.txt", f"bench1 1/1 {zlib.crc32(body.encode()):08x}\n{body}")


def test_table_marks_flagged_nets_and_migrates():
    """table marks the flagged nets -5! and 3~ and says what the marks
    mean; a version 2 database opens: its run's -5 is still marked (a
    negative net), the code= run stored after it has per-copy rows, the
    run before none."""
    d = workdir("answer_marks")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", flagged_qr(d), "--db", db)
    check(rc == 0, f"store: exit status {rc}", out)
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rows.get(("rdtscp", "add_chain_64")) == ["-5!"] and rows.get(("cr0", "add_chain_64")) == ["3~"]
          and rows.get(("cr0", "add_chain_256")) == ["250"], f"net cells {rows}", out)
    check("! below zero: not a duration" in out and "~ below the resolution" in out, "no legend of the marks", out)
    version_2(db)
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("rdtscp", "add_chain_64")) == ["-5!"], f"version 2: net cells {rows}", out)
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "the database is not at schema version 6")
    rc, out = bench("store", boot("code"), "--db", db)
    check(rc == 0 and "stored as run R2" in out, f"store into the upgraded database: exit status {rc}", out)
    rc, out = bench("table", "--db", db, "--figure", "per_copy")
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("cpuid", "mix")) == ["-", "2.000 exactly"], f"per-copy cells {rows}", out)


def test_plot_marks_flagged_nets():
    """plot draws the flagged bars marked (labels -5!, 3~) and says how
    many of each it marked."""
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        raise Skip(f"matplotlib is not available to {PY} (Debian: python3-matplotlib)")
    d = workdir("answer_plot")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", flagged_qr(d), "--db", db)
    p = subprocess.run([PY, BENCH, "plot", "--db", db, "-o", os.path.join(d, "net.png")], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=TOOL_TIMEOUT)
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 0 and "4 bars, marked as on the end screen: 1 below zero ('!'), 1 below resolution ('~')"
          in out, f"plot: exit status {p.returncode}", out)


def test_compare_opens_with_the_answers():
    """compare's first section: each method's verdict and code='s figures
    per copy of A and B side by side, why B's rdtscp is NOT ergodic, B's
    agreement line; the overview's column is 'B vs A'."""
    d = workdir("answer_compare")
    rc, out = bench("compare", boot("code"), changed_log(d))
    check(rc == 0, f"compare: exit status {rc}", out)
    lines = out.split("\n")
    check(lines[3].startswith("Answer:"), "compare does not open with the answers", out)
    head = out[:out.index("\nOverview:")]
    check(re.search(r"\n  rdtscp +verdict +ergodic +NOT ergodic\n", head), "no verdict row of rdtscp", out)
    for m, (_, cell) in CHANGED.items():
        check(re.search(rf"\n  {m} +per copy, mix \[TSC ticks\] +2\.000 exactly +{re.escape(cell)}\n", head),
              f"no per-copy row of {m}: 2.000 exactly beside {cell}", out)
    check("B: rdtscp NOT ergodic: variance of variances 12 > 10 TSC ticks^4" in head, "no why", out)
    check("B: methods compared, mix, TSC ticks: the methods DISAGREE" in head, "no agreement line", out)
    check(re.search(r"\n  series +A +B +B/A +B vs A\n", out) and not re.search(r"B/A +verdict", out),
          "the overview's column is not 'B vs A'", out)


def test_qr_then_serial_log_answer_merged():
    """The code= run's QR text (tests/tools/qrtexts.py) stored, then its
    serial log: one run, whose per_copy rows get the least minimums only
    the serial log has; a QR text of the same run ID whose per-copy
    status differs is refused, nothing of it stored."""
    d = workdir("answer_merge")
    db, log = os.path.join(d, "lab.sqlite"), boot("code")
    body = qrtexts.body_of(read(log).decode(errors="replace"))
    check(body and "\npc cpuid t exact 2.000 - 2/1\n" in body, "the code= run's QR text has no pc lines", body or "")
    rc, out = bench("store", write(d, "code.txt", qrtexts.whole_text(body)), "--db", db)
    check(rc == 0 and "stored as run R1" in out, f"store of the QR text: exit status {rc}", out)
    check(db_rows(db, "SELECT COUNT(*) FROM per_copy WHERE least_min_n IS NULL")[0][0] == 3,
          "the QR text's per_copy rows are not stored without least minimums")
    rc, out = bench("store", log, "--db", db)
    check(rc == 0 and "merged into it" in out, f"store of the serial log: exit status {rc}", out)
    want = sorted((p["method"], p["least_min_n"], p["least_min_2n"], p["status"]) for p in records(log, "per_copy"))
    got = sorted(db_rows(db, "SELECT method, least_min_n, least_min_2n, status FROM per_copy"))
    check(got == want, f"per_copy rows after the merge {got}, the records give {want}")
    other = body.replace("\npc cpuid t exact 2.000 - 2/1\n", "\npc cpuid t figure 2.000 0.070 2/1\n")
    data = read(db)
    rc, out = bench("store", write(d, "other.txt", qrtexts.whole_text(other)), "--db", db)
    check(rc == 1 and "REFUSED" in out and "status exact there and figure in this source" in out
          and read(db) == data, "a QR text whose per-copy status differs is not refused", out)


def test_compare_answers_with_code_faults():
    """Two golden runs of code= (tests/golden: nops exact, a #PF in every
    copy): the answer rows put A's figure per copy beside nothing and B's
    fault beside nothing, as the kernel's code rows say them."""
    import gzip
    d = workdir("answer_faults")
    logs = []
    for name in ("code-nops", "code-pf"):
        with gzip.open(os.path.join(qrtexts.GOLDEN, f"{name}.log.gz"), "rt", errors="replace") as f:
            logs.append(write(d, f"{name}.log", f.read().partition("\n")[2]))
    rc, out = bench("compare", *logs)
    head = out[:out.index("\nOverview:")]
    for f in records(logs[1], "code_fault"):
        check(re.search(rf"\n  {f['method']} +fault, code +- +FAULT #PF at byte 0 of copy 1\n", head),
              f"no fault row of {f['method']}", out)
    for p in records(logs[0], "per_copy"):
        check(re.search(rf"\n  {p['method']} +per copy, code \[TSC ticks\] +1\.000 exactly +-\n", head),
              f"no per-copy row of {p['method']}", out)


def test_schema_2_database_of_f48dabb_upgraded():
    """A lab database made by tools/benchdb.py of commit f48dabb (schema
    version 2, before the answer was kept) with a run of flagged nets:
    opened by table it is upgraded, the run's -5 marked, no per-copy
    rows; the code= run stored after it has them."""
    d = workdir("answer_schema2")
    db, version = old_store("f48dabb", d, flagged_qr(d), fmt="QR code text")
    check(version == 2, f"commit f48dabb's schema version {version}, expected 2")
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("rdtscp", "add_chain_64")) == ["-5!"], f"version 2: net cells {rows}", out)
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "the database is not at schema version 6")
    rc, out = bench("store", boot("code"), "--db", db)
    rc2, out2 = bench("table", "--db", db, "--figure", "per_copy")
    _, _, rows = parse_db_table(out2)
    check(rc == 0 and rc2 == 0 and rows.get(("cpuid", "mix")) == ["-", "2.000 exactly"],
          f"per-copy cells after the upgrade {rows}", out + out2)

"""tests/tools/t_evreaders.py - performance events by name (issue 30 item 4's
readers): the five records (event, event_pass, event_check, event_window,
event_per_copy) known to tools/benchlog and checked (every key; the net
least_min - offset; each per-copy figure recomputed from its least
minimums; every figure names an event that counts; a figure of an event
whose check failed is not verified); `report` prints the events section,
`table --event NAME` the nets and figures per copy, `compare` both runs'
events side by side, `plot --event` hatches the unverified; the lab
database keeps the records (schema 4) and upgrades a schema-3 database of
commit fec1b1a. The logs: tests/tools/evlogs.py (the code= run with the
records a fake-PMU build prints); the records are read with plain json.
"""
import os
import re

import evlogs
import qrtexts
from common import (PNG_SIGNATURE, bench, check, db_rows, old_store, parse_db_table, records, workdir, write)


def test_events_report_section():
    """report: valid; every event with its encoding, counter and pass; the
    passes; the check (its miss said with both figures); the nets; each
    per-copy figure with the event as its unit, the unverified marked."""
    d = workdir("events_report")
    log = evlogs.event_log(d)
    rc, out = bench("report", log, "--no-figures")
    check(rc == 0 and "report: the log is valid" in out, f"report: exit status {rc}", out)
    check("Performance events (events=): 3 event(s), 3 counting here, in 2 pass(es)" in out,
          "no events section heading", out)
    for e in records(log, "event"):
        check(re.search(rf"^    {re.escape(e['name'])} +{e['origin']} +{e['perfevtsel']} +{e['counter']} +{e['pass']} +"
                        rf"{e['event_select']}\.{e['umask']} cmask 0", out, re.M),
              f"event {e['name']}: no row with its encoding, counter and pass", out)
    check("pass 0 of 2: PMC0 L1D.REPLACEMENT (0x430151), FIXED_CTR0 INST_RETIRED.ANY (0x4300c0)" in out,
          "no pass 0 line", out)
    check("pass 1: BR_INST_RETIRED.ALL_BRANCHES (branches): counted 2000000, expected exactly 1000000: MISSED" in out,
          "the failed check is not said with both figures", out)
    for p in records(log, "event_per_copy"):
        want = f"{p['method']}, {p['workload']}: 2.000 {p['event']} per copy, exactly" + \
            ("" if p["verified"] else ", UNVERIFIED")
        check(want + " ((least min 140" in out, f"no per-copy line {want!r}", out)
    check(re.search(r"^  rdtscp +add_chain_64 +BR_INST_RETIRED\.ALL_BRANCHES +1 +164 +100 +64 UNVERIFIED", out, re.M)
          and re.search(r"^  rdtscp +add_chain_64 +L1D\.REPLACEMENT +0 +164 +100 +64 +0", out, re.M),
          "the nets per window are not there, or the unverified not marked", out)
    rc, out = bench("report", evlogs.boot("code"), "--no-figures")
    check(rc == 0 and "Performance events" not in out, "a log without events= has an events section", out)


def damaged(d, name, edit):
    return evlogs.event_log(d, name, edit=edit)


def test_events_checks_find_damage():
    """Each damage is a problem at its record's line: a net that is not
    least_min - offset, a per-copy figure its least minimums do not give, a
    figure of an event without a counting event record, a verified figure
    of an event whose check failed, a record without a key, a pass's
    counter that its event record does not say."""
    d = workdir("events_checks")

    def net(r):
        r["rdtscp"][1]["net"] = 99

    def figure(r):
        r["per_copy"][0].update(least_min_2n=150)

    def unknown(r):
        r["per_copy"][1]["event"] = "L2_RQSTS.MISS"

    def verified(r):
        for x in r["cr0"]:
            x["verified"] = True

    def missing(r):
        del r["head"][0]["perfevtsel"]

    def counter(r):
        r["head"][3]["counters"][0]["counter"] = "PMC1"

    def cannot(r):
        r["head"][1].update(counts=False, counter=None, why="CPUID.0AH:EAX version 0")
    cases = {
        "net": (net, r"event_window of L1D\.REPLACEMENT \(rdtscp/add_chain_64\): net 99 is not least_min - offset "
                     r"\(164 - 100 L1D\.REPLACEMENT\)"),
        "figure": (figure, r"event_per_copy of L1D\.REPLACEMENT \(cpuid/mix\) disagrees with its least minimums "
                           r"\(150 with 2N copies - 120 with N, over 10 copies, spread 0, step 1\): num 2, "
                           r"recomputed 3; per_copy '2\.000', recomputed '3\.000'"),
        "unknown": (unknown, r"event_per_copy of L2_RQSTS\.MISS \(cpuid/mix\): no event record names L2_RQSTS\.MISS"),
        "verified": (verified, r"event_window of BR_INST_RETIRED\.ALL_BRANCHES \(cr0/empty\) says verified, but its "
                               r"pass's check failed \(line \d+: counted 2000000, expected exactly 1000000\)"),
        "missing": (missing, r"corrupted event record: it lacks the key 'perfevtsel'"),
        "counter": (counter, r"event_pass 0: L1D\.REPLACEMENT on PMC1 with perfevtsel 0x430151, its event record "
                             r"\(line \d+\) says counter PMC0"),
        "cannot": (cannot, r"event_window of INST_RETIRED\.ANY \(cpuid/empty\): its event record \(line \d+\) says "
                           r"it cannot count here \(CPUID\.0AH:EAX version 0\)"),
    }
    for name, (edit, want) in cases.items():
        path = damaged(d, f"{name}.log", edit)
        rc, out = bench("report", path, "--no-figures")
        m = re.search(r"^  line (\d+): " + want, out, re.M)
        check(rc == 1 and m, f"{name}: exit status {rc}, no problem matching {want!r}", out)
        with open(path) as f:
            line = f.read().split("\n")[int(m.group(1)) - 1]
        check(line.startswith('{"rec":"event'), f"{name}: the problem's line is not an events record: {line[:80]}")
        check("Performance events (events=)" in out, f"{name}: the events section is not printed", out)


def test_events_table_store_and_plot():
    """store keeps the records (events, event_checks, event_windows,
    event_per_copy); table --event NAME gives the nets (case-insensitive
    name), --figure per_copy the figures, the unverified marked; an
    unknown event names those stored; plot --event hatches the unverified."""
    d = workdir("events_table")
    db, log = os.path.join(d, "lab.sqlite"), evlogs.event_log(d, tag="events-table")
    rc, out = bench("store", log, "--db", db)
    check(rc == 0 and "store: 1 stored" in out, f"store: exit status {rc}", out)
    evs = db_rows(db, "SELECT name, origin, source, perfevtsel, counter, pass, counts, why FROM events ORDER BY rowid")
    want = [(e["name"], e["origin"], e["source"], e["perfevtsel"], e["counter"], e["pass"], 1, None)
            for e in records(log, "event")]
    check(evs == want, f"events rows {evs}, the records give {want}")
    n = db_rows(db, "SELECT (SELECT COUNT(*) FROM event_windows), (SELECT COUNT(*) FROM event_per_copy), "
                    "(SELECT COUNT(*) FROM event_checks), (SELECT SUM(verified = 0) FROM event_per_copy)")[0]
    check(n == (len(records(log, "event_window")), len(records(log, "event_per_copy")), 2, 3),
          f"event_windows, event_per_copy, event_checks rows and unverified figures: {n}")
    rc, out = bench("table", "--db", db, "--event", "l1d.replacement")
    _, head, rows = parse_db_table(out)
    check(rc == 0 and "[L1D.REPLACEMENT]" in head[-1] and rows.get(("rdtscp", "add_chain_64")) == ["64"]
          and ("cpuid", "empty") not in rows, f"table --event: rows {rows}", out)
    rc, out = bench("table", "--db", db, "--event", evlogs.UNVERIFIED, "--figure", "per_copy")
    _, head, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("cr0", "mix")) == ["2.000 exactly UNVERIFIED"] and "UNVERIFIED: the pass's check"
          in out, f"table --event --figure per_copy: rows {rows}", out)
    rc, out = bench("table", "--db", db, "--event", "L2_RQSTS.MISS")
    check(rc == 1 and "no net of event L2_RQSTS.MISS stored (events stored: L1D.REPLACEMENT, INST_RETIRED.ANY, "
          "BR_INST_RETIRED.ALL_BRANCHES)" in out, "an unknown event is not said with those stored", out)
    rc, out = bench("table", "--db", db, "--event", "L1D.REPLACEMENT", "--figure", "var_of_vars")
    check(rc == 1 and "--event takes --figure net" in out, "--event with another figure is not refused", out)
    png = os.path.join(d, "ev.png")
    rc, out = bench("plot", "--db", db, "--event", evlogs.UNVERIFIED, "--figure", "per_copy", "-o", png)
    check(rc == 0 and "3 bars, 3 hatched as UNVERIFIED" in out, f"plot --event: exit status {rc}", out)
    with open(png, "rb") as f:
        check(f.read(8) == PNG_SIGNATURE, "plot --event wrote no PNG")
    rc, out = bench("plot", "--db", db, "--event", "L1D.REPLACEMENT", "-o", png)
    check(rc == 0 and "9 bars" in out and "hatched" not in out, f"plot --event nets: exit status {rc}", out)


def test_events_compare_side_by_side():
    """compare: the events both runs have, their per-copy figures side by
    side (UNVERIFIED marked), the nets with B/A; an event only one has and
    an encoding that differs are said."""
    d = workdir("events_compare")
    a = evlogs.event_log(d, "a.log")

    def edit(r):
        r["head"] = [x for x in r["head"] if x.get("name") != "INST_RETIRED.ANY"]
        r["head"][2]["counters"] = r["head"][2]["counters"][:1]
        for k in ("per_copy", "cpuid", "rdtscp", "cr0"):
            r[k] = [x for x in r[k] if x["event"] != "INST_RETIRED.ANY"]
        r["head"] = [x for x in r["head"] if x.get("event") != "INST_RETIRED.ANY"]
    b = evlogs.event_log(d, "b.log", edit=edit, tag="events-compare")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"compare: exit status {rc}", out)
    check("  only in A: INST_RETIRED.ANY" in out, "the event only A has is not said", out)
    check(re.search(r"^    rdtscp +mix +BR_INST_RETIRED\.ALL_BRANCHES +2\.000 exactly UNVERIFIED +2\.000 exactly "
                    r"UNVERIFIED$", out, re.M), "no per-copy row side by side", out)
    check(re.search(r"^    cr0 +add_chain_64 +L1D\.REPLACEMENT +64 +64 +1\.000$", out, re.M), "no net row with B/A", out)
    rc, out = bench("compare", evlogs.boot("code"), evlogs.boot("code"))
    check("Performance events" not in out, "compare without events= has an events section", out)


def test_events_schema_3_database_of_fec1b1a_upgraded():
    """A lab database of tools/benchdb.py at commit fec1b1a (schema 3,
    before events=) opens upgraded (to schema 5 now): its run kept without
    events; a run with events stored after it has them."""
    d = workdir("events_schema3")
    db, version = old_store("fec1b1a", d, evlogs.boot("code"))
    check(version == 3, f"commit fec1b1a's schema version {version}, expected 3")
    rc, out = bench("store", evlogs.event_log(d, tag="events-schema3"), "--db", db)
    check(rc == 0 and "store: 1 stored" in out, f"store into the schema-3 database: exit status {rc}", out)
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "the database is not at schema version 6")
    rows = db_rows(db, "SELECT run_id, COUNT(*) FROM event_per_copy GROUP BY run_id")
    check(rows == [(2, 9)], f"event_per_copy rows per run {rows}: the old run has none, the new 9")
    rc, out = bench("table", "--db", db, "--event", "INST_RETIRED.ANY", "--figure", "per_copy")
    _, _, cells = parse_db_table(out)
    check(rc == 0 and cells.get(("cpuid", "mix")) == ["-", "2.000 exactly"], f"cells {cells}", out)



def test_events_qr_pe_lines():
    """qr reads the QR text's pe lines (lib/qrtext.h: code='s figure per
    copy in each event by the recommended method, '!' unverified): the
    report says each with its event as the unit, UNVERIFIED marked; store
    keeps them and table --event NAME --figure per_copy gives them."""
    d = workdir("events_qr")
    txt = write(d, "every.txt", qrtexts.whole_text(qrtexts.every_field()))
    rc, out = bench("qr", txt)
    for want in ("rdtscp, mix: 2.000 L1D.REPLACEMENT per copy, exactly (line",
                 "rdtscp, mix: 2.210 +- 0.070 BR_INST_RETIRED.ALL_BRANCHES per copy, UNVERIFIED (line",
                 "rdtscp, mix: below resolution: at most 0.110 MEM_LOAD_RETIRED.L1_MISS per copy (line",
                 "rdtscp, mix: no figure (a least minimum wrapped below zero), UNVERIFIED (line"):
        check(want in out, f"qr: no line {want!r}", out)
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", txt, "--db", db)
    check(rc == 0 and "store: 1 stored" in out, f"store of the QR text: exit status {rc}", out)
    rc, out = bench("table", "--db", db, "--event", "br_inst_retired.all_branches", "--figure", "per_copy")
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows.get(("rdtscp", "mix")) == ["2.210 +-0.070 UNVERIFIED"], f"table rows {rows}", out)

"""tests/tools/t_plan_db.py - plans and the machine's identity in the lab
database (issue 32 items 3 and 4; tools/benchdbplan.py, schema 6): a plan
log stores as one run per experiment, named, with its figures per copy,
and once however often it is stored; machines told apart by their SMBIOS
system and board (table --by machine, table --figure per_copy --by
machine: a column per machine); compare pairs experiments by name and says
different machines or different firmware; a schema-5 database is
upgraded; a log without SMBIOS stores with its identity unknown, never
the same machine as one with it. The logs are tests/tools/planlogs.py's.
"""
import os
import re
import zlib

import planlogs
from common import bench, boot, check, db_rows, old_store, records, unwrapped, workdir, write

# The last commit whose tools/benchdb.py made schema 5 (issue 32's interfaces).
SCHEMA_5 = "7e7008a"


def _store(d, *paths, want=0):
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", *paths, "--db", db)
    check(rc == want, f"store: exit status {rc}, expected {want}", out)
    return db, out


def test_plan_db_one_run_per_experiment():
    """Three experiments, the third skipped: two runs, each with its name,
    index, plan line and words, run_key RUNID/NAME, per-copy figures and
    the boot's SMBIOS (firmware, a DIMM); a line per experiment; the same
    log again is already there, experiment by experiment."""
    d = workdir("plan_db_runs")
    path = planlogs.plan_log(d, skipped=("chase",))
    db, out = _store(d, path)
    for i, name in ((1, "imul_lat"), (2, "add_tp")):
        check(re.search(rf"store: \S+: experiment {i} of 3 \({name}\): stored as run R{i} 'plan/{name}'", out),
              f"no store line of experiment {name}", out)
    check("experiment 3 of 3 (chase): skipped by the kernel (mem=64M" in out, "the skipped experiment", out)
    check(out.rstrip().endswith("2 stored, 0 already there, 0 merged into a run already there, 0 incomplete, "
                                "0 aborted, 0 refused, 1 experiments skipped by the kernel"), "the count line", out)
    rows = db_rows(db, "SELECT r.run_key, e.name, e.idx, e.line, e.words, e.status, e.boot_key FROM runs r "
                       "JOIN experiments e ON e.run_id = r.id ORDER BY r.id")
    check([r[1:6] for r in rows] == [("imul_lat", 1, 3, planlogs.WORDS["imul_lat"], "complete"),
                                     ("add_tp", 2, 4, planlogs.WORDS["add_tp"], "complete")], f"experiments {rows}")
    check(all(r[0] == f"{r[6]}/{r[1]}" for r in rows), f"run keys {rows}")
    per_copy = db_rows(db, "SELECT run_id, method, per_copy, status FROM per_copy ORDER BY rowid")
    check(len(per_copy) == 6 and {p[0] for p in per_copy} == {1, 2} and all(p[2:] == ("2.000", "exact")
                                                                           for p in per_copy),
          f"per_copy rows {per_copy}")
    fw = db_rows(db, "SELECT run_id, bios_vendor, bios_version, bios_date FROM smbios ORDER BY run_id")
    check(fw == [(k, "SeaBIOS", "1.16.3-debian", "04/01/2014") for k in (1, 2)], f"firmware {fw}")
    check(db_rows(db, "SELECT COUNT(*) FROM memory_devices")[0][0] == 2, "the DIMM of each run")
    m = db_rows(db, "SELECT sys_manufacturer, sys_product, sys_uuid, board_manufacturer, board_product FROM machines")
    s = planlogs.SMBIOS
    check(m == [(s["sys_manufacturer"], s["sys_product"], s["sys_uuid"], s["board_manufacturer"],
                 s["board_product"])], f"machines {m}")
    db, out = _store(d, path)
    check(out.count("already stored as run R") == 2 and out.rstrip().endswith(
        "0 stored, 2 already there, 0 merged into a run already there, 0 incomplete, 0 aborted, 0 refused, "
        "1 experiments skipped by the kernel"), "stored twice", out)
    check(db_rows(db, "SELECT COUNT(*) FROM runs")[0][0] == 2, "runs after storing twice")


def _two_machines(d):
    a = planlogs.plan_log(d, "a.log")
    b = planlogs.plan_log(d, "b.log", names=("add_tp", "imul_lat", "other"), tag="b",
                          smbios={"sys_manufacturer": "Lab", "sys_product": "Bench B", "board_product": "B board",
                                  "sys_uuid": None})
    c = planlogs.plan_log(d, "c.log", tag="c", smbios={"bios_version": "1.17.0"})
    return a, b, c


def test_plan_db_table_by_machine():
    """Two machines (the same CPU, other SMBIOS system and board) and a
    second boot of the first with other firmware: --figure per_copy
    --experiment imul_lat --by machine has a row and two machine columns,
    each cell the trusted method's figure; --by machine lists each
    machine's identity, firmware per run, DIMMs and runs."""
    d = workdir("plan_db_table")
    db, out = _store(d, *_two_machines(d))
    check(db_rows(db, "SELECT COUNT(*) FROM machines")[0][0] == 2, "two machines", out)
    rc, out = bench("table", "--db", db, "--figure", "per_copy", "--experiment", "imul_lat", "--by", "machine")
    check(rc == 0, f"table: exit status {rc}", out)
    head = next((ln for ln in out.split("\n") if ln.startswith("  experiment  workload")), "")
    check(re.split(r" {2,}", head.strip()) == ["experiment", "workload", "M1", "M2"], f"columns {head!r}", out)
    rows = [ln for ln in out.split("\n") if ln.startswith("  imul_lat  ")]
    check(len(rows) == 1 and re.split(r" {2,}", rows[0].strip()) ==
          ["imul_lat", "mix", "2.000 exactly (rdtscp)", "2.000 exactly (rdtscp)"], f"rows {rows}", out)
    check("imul_lat on M1: R7 (the last of 2 runs: R1, R7)" in out, "the cell's run", out)
    check("M2: system Lab Bench B, no UUID; board QEMU B board" in out, "machine M2's identity", out)
    check("BIOS SeaBIOS 1.16.3-debian 04/01/2014: runs R1, R2, R3" in out and
          "BIOS SeaBIOS 1.17.0 04/01/2014: runs R7, R8, R9" in out and "different firmware" in out,
          "M1's firmware per run", out)
    rc, out = bench("table", "--db", db, "--figure", "per_copy", "--by", "machine")
    check(rc == 0 and re.search(r"\n  add_tp +mix +2\.000 exactly \(rdtscp\) +2\.000", out) and
          re.search(r"\n  other +mix +- +2\.000 exactly", out), "every experiment, - where not run", out)
    rc, out = bench("table", "--db", db, "--by", "machine", "--experiment", "other")
    check(rc == 0 and re.search(r"R6 +b/other", out) and "experiment 3 of 3 other (plan.txt line 5" in out,
          "--experiment on the net table", out)
    rc, out = bench("table", "--db", db, "--experiment", "nosuch")
    check(rc == 1 and "no run of experiment nosuch stored (experiments stored: add_tp, chase, imul_lat, other)"
          in out, "an experiment not stored", out)


def test_plan_db_compare_pairs_by_name():
    """compare pairs the experiments by name, says those in one log only,
    and different machines (the fields that differ) or the same machine
    with different firmware."""
    d = workdir("plan_db_compare")
    a, b, c = _two_machines(d)
    rc, out = bench("compare", a, b)
    out = unwrapped(out)
    check(rc == 0, f"compare: exit status {rc}", out)
    check("different machines: system manufacturer 'QEMU' (A) vs 'Lab' (B); system product name 'Standard PC "
          "(Q35 + ICH9, 2009)' (A) vs 'Bench B' (B); system UUID" in out, "different machines", out)
    check("experiments paired by name: imul_lat, add_tp; only in A: chase; only in B: other" in out, "pairs", out)
    check(re.search(r"=== experiment imul_lat: A experiment 1 of 3 \(imul_lat\) .*; B experiment 2 of 3 \(imul_lat\)",
                    out), "the imul_lat pair", out)
    rc, out = bench("compare", a, c)
    out = unwrapped(out)
    check("the same machine (QEMU Standard PC (Q35 + ICH9, 2009)), different firmware: BIOS version "
          "'1.16.3-debian' (A) vs '1.17.0' (B)" in out, "different firmware", out)


def test_plan_db_upgrade_from_schema_5():
    """A database made by the schema-5 tools/benchdb.py (one run of the
    code= log) is upgraded when a plan log is stored: the old run's machine
    keeps its runs, its identity unknown; the plan's experiments, whose
    SMBIOS is known, are on another machine."""
    d = workdir("plan_db_upgrade")
    db, version = old_store(SCHEMA_5, d, boot("code"))
    check(version == 5, f"commit {SCHEMA_5}'s schema is {version}, not 5")
    _, out = _store(d, planlogs.plan_log(d, tag="new"))
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "not upgraded to schema 6", out)
    check("stored as run R2 'plan/imul_lat' (serial log), 12 series, on a new machine M2" in out, "a new machine", out)
    rc, out = bench("table", "--db", db, "--by", "machine")
    check(rc == 0 and "SMBIOS identity unknown (a log without SMBIOS: not the same as any machine with one)" in out
          and "BIOS unknown (no SMBIOS): runs R1" in out, "the old run's machine", out)


def test_plan_db_without_identity():
    """A plan log without SMBIOS (no smbios record, no env fields) stores,
    on a machine of unknown identity; a log of the same CPU with SMBIOS is
    another machine; a second identity-less log joins the unknown one."""
    d = workdir("plan_db_no_identity")
    db, out = _store(d, planlogs.plan_log(d, "none.log", smbios=None))
    check("on a new machine M1" in out and "SMBIOS identity unknown" in out, "stored, identity unknown", out)
    db, out = _store(d, planlogs.plan_log(d, "known.log", tag="known"), planlogs.plan_log(d, "none2.log", tag="n2",
                                                                                         smbios=None))
    check("known.log: experiment 1 of 3 (imul_lat): stored as run R4 'known/imul_lat' (serial log), 12 series, on a "
          "new machine M2" in out, "a known identity is another machine", out)
    check("none2.log: experiment 1 of 3 (imul_lat): stored as run R7 'none2/imul_lat' (serial log), 12 series, on "
          "the known machine M1" in out, "unknown joins unknown", out)
    check(db_rows(db, "SELECT COUNT(*) FROM smbios WHERE run_id IN (1, 2, 3, 7, 8, 9)")[0][0] == 0, "smbios rows", out)


def test_plan_db_real_boots():
    """Real plan runs (common.py PLAN: imul_lat, add_tp, ud as a boot
    module under -icount) on QEMU machines of other -smbios values: plan-a
    and plan-b (another system and board), plan-a2 (plan-a's with another
    BIOS version). Stored: a run per experiment, on two machines, the same
    log again stored once; --figure per_copy --by machine: a column per
    machine, 1.000 and 2.000 exactly by the trusted method, ud's fault;
    compare: different machines, different firmware, pairs by name."""
    d = workdir("plan_db_real")
    a, b, a2 = boot("plan-a"), boot("plan-b"), boot("plan-a2")
    db, out = _store(d, a, b, a2, a)
    check(out.rstrip().endswith("9 stored, 3 already there, 0 merged into a run already there, 0 incomplete, "
                                "0 aborted, 0 refused"), "the count line", out)
    check(re.search(r"tools-plan-b\.log: experiment 1 of 3 \(imul_lat\): stored as run R4 'tools-plan-b/imul_lat' "
                    r"\(serial log\), \d+ series, on a new machine M2", out), "plan-b's machine", out)
    check(re.search(r"tools-plan-a2\.log: experiment 1 of 3 \(imul_lat\): stored as run R7 \S+ \(serial log\), \d+ "
                    r"series, on the known machine M1", out), "plan-a2 on plan-a's machine", out)
    fw = db_rows(db, "SELECT run_id, bios_vendor, bios_version, bios_date FROM smbios WHERE run_id IN (1, 7)")
    check(fw == [(1, "Lab BIOS", "1.0", "01/02/2025"), (7, "Lab BIOS", "2.0", "01/02/2025")], f"firmware {fw}")
    dimm = db_rows(db, "SELECT locator, bank, size_bytes, speed_mts, manufacturer, part FROM memory_devices "
                       "WHERE run_id = 4")
    check(dimm == [("DIMM 0", "BANK 0", 268435456, 3200, "Lab RAM", "LAB-256")], f"the DIMM {dimm}")
    rc, out = bench("table", "--db", db, "--figure", "per_copy", "--by", "machine")
    check(rc == 0, f"table: exit status {rc}", out)
    want = {"imul_lat": ["code", "1.000 exactly (rdtscp)", "1.000 exactly (rdtscp)"],
            "add_tp": ["code", "2.000 exactly (rdtscp)", "2.000 exactly (rdtscp)"],
            "ud": ["-", "faulted: your code faulted under 2 methods", "faulted: your code faulted under 2 methods"]}
    for name, cells in want.items():
        row = next((re.split(r" {2,}", ln.strip()) for ln in out.split("\n") if ln.startswith(f"  {name}  ")), None)
        check(row == [name] + cells, f"row {name}: {row}", out)
    check("M2: system Lab Bench B, UUID 5f0ad3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f; board Lab Board B" in out, "M2", out)
    rc, out = bench("compare", a, b)
    out = unwrapped(out)
    check("different machines: system product name 'Bench A' (A) vs 'Bench B' (B); baseboard product 'Board A' (A) "
          "vs 'Board B' (B)" in out and "experiments paired by name: imul_lat, add_tp, ud" in out, "a vs b", out)
    rc, out = bench("compare", a, a2)
    check("the same machine (Lab Bench A), different firmware: BIOS version '1.0' (A) vs '2.0' (B)" in unwrapped(out),
          "a vs a2", out)


def plan_qr_text(d, log, answers):
    """A plan run's QR text (lib/qrtext.h: its head from the log's env and
    tsc_rate records, the x and xa lines of answers: [(name, status, xa
    fields or None)]) written to d, as bench.py qr --text writes one."""
    env = records(log, "env")[0]
    rate = records(log, "tsc_rate")[0]
    body = (f"run {env['run_id']}\nvendor {env['vendor']}\nbrand -\ncpu {env['family']} {env['model']} "
            f"{env['stepping']} -\nhv {env['hypervisor_vendor']}\ntsc {rate['hz']} {rate['ppm']} {rate['source']}\n"
            "size 2 20 0\nlimits 10 1\nm rdtscp t 3 0 0 0 ergodic na 0\n" +
            "".join(f"x {n} {s}\n" + (f"xa {a}\n" if a else "") for n, s, a in answers) +
            "rec rdtscp\nfinal bench: run complete\n")
    return write(d, "plan-qr.txt", f"bench1 1/1 {zlib.crc32(body.encode()):08x}\n{body}")


def test_plan_db_qr_text_merges_into_experiments():
    """A plan run's QR text (its x and xa lines) stored after its serial log
    merges into the experiments of their names (run_key RUNID/NAME), adding
    nothing where the answers agree; an answer that differs is refused;
    stored alone, it makes a run per experiment with its answer."""
    d = workdir("plan_db_qr")
    a = boot("plan-a")
    qr = plan_qr_text(d, a, [("imul_lat", "complete", "rdtscp t exact 1.000 - 1/1"),
                             ("add_tp", "complete", "rdtscp t exact 2.000 - 2/1"), ("ud", "faulted", None)])
    db, out = _store(d, a, qr)
    for i, name in ((1, "imul_lat"), (2, "add_tp"), (3, "ud")):
        check(re.search(rf"plan-qr\.txt: experiment {i} of 3 \({name}\): the same run \(run ID [0-9a-f]{{16}}/{name}\) "
                        rf"as run R{i} 'tools-plan-a/{name}' on machine M1: merged into it \(QR code text\), 0 series "
                        "added or completed", out), f"the QR text's {name} not merged", out)
    check(db_rows(db, "SELECT COUNT(*) FROM runs")[0][0] == 3, "runs after the QR text", out)
    d2 = workdir("plan_db_qr_alone")
    qr = plan_qr_text(d2, a, [("imul_lat", "complete", "rdtscp t exact 1.000 - 1/1"), ("big", "skipped", None)])
    db, out = _store(d2, qr)
    check("experiment 1 of 2 (imul_lat): stored as run R1 'plan-qr/imul_lat' (QR code text)" in out and
          "experiment 2 of 2 (big): skipped by the kernel" in out, "the QR text alone", out)
    check(db_rows(db, "SELECT method, workload, per_copy, status FROM per_copy") == [("rdtscp", "code", "1.000",
                                                                                      "exact")], "its answer", out)
    bad = plan_qr_text(workdir("plan_db_qr_bad"), a, [("imul_lat", "complete", "rdtscp t exact 3.000 - 3/1")])
    db, out = _store(d, bad, want=1)
    check("REFUSED" in out and "per_copy" in out, "a differing answer merged", out)

"""tests/tools/t_store.py - the lab database (tools/benchdb.py) through `bench.py
store` and `table`, checked with plain sqlite3 and json: machines and runs,
the table against the summary records, CSV, a run stored twice, damaged
logs refused with nothing stored, one transaction a run, unsigned 64-bit
figures, every output= level.
"""
import os
import re
import sys

from common import (DB_FIGURES, OUTPUT_LEVELS, ROOT, bench, boot, check, db_counts, db_rows,
                    lines_of, parse_db_table, read, records, store_lab, summaries_of, workdir,
                    write)


def test_db_store_two_machines():
    """Three logs of two machines: one machine per CPU identity (its
    columns equal the env, machine and tsc_rate records), one run per log,
    a series and the summary record's figures per summary record, the
    skipped methods with their reasons."""
    d = workdir("db_store")
    db, logs, out = store_lab(d)
    stored = re.findall(r"stored as run R(\d+) '([^']+)'(?: \([^)]*\))?, (\d+) series, on (a new|the known) machine M(\d+)",
                        out)
    check([(r, m, new) for r, _, _, new, m in stored] ==
          [("1", "1", "a new"), ("2", "1", "the known"), ("3", "2", "a new")],
          f"expected runs R1, R2 on a new machine M1 and R3 on a new machine M2: {stored}", out)
    check(db_counts(db)["machines"] == 2 and db_counts(db)["runs"] == 3, f"counts {db_counts(db)}")
    for run_id, log in enumerate(logs, 1):
        env, rate = records(log, "env")[0], records(log, "tsc_rate")[0]
        micro = records(log, "machine")[0]["microcode"]
        got = db_rows(db, "SELECT m.vendor, m.family, m.model, m.stepping, m.brand, m.microcode, "
                          "m.hypervisor, r.tsc_hz, r.tsc_ppm, r.tsc_source, r.status, r.label, "
                          "r.samples FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.id = ?",
                      (run_id,))[0]
        want = (env["vendor"], env["family"], env["model"], env["stepping"], env["brand"], micro,
                env["hypervisor_vendor"], rate["hz"], rate["ppm"], rate["source"],
                records(log, "end")[0]["status"], os.path.basename(log)[:-4],
                records(log, "config")[0]["samples"])
        check(got == want, f"run R{run_id} ({log}): stored {got}, the records say {want}")
        want_sums = summaries_of(log)
        rows = db_rows(db, f"SELECT s.method, s.workload, s.unit, s.cpu, s.ensembles, "
                           f"{', '.join('su.' + c for c in DB_FIGURES)} FROM series s JOIN summaries "
                           f"su ON su.series_id = s.id WHERE s.run_id = ?", (run_id,))
        check(len(rows) == len(want_sums) > 0, f"R{run_id}: {len(rows)} series stored, the log has "
                                               f"{len(want_sums)} summary records")
        for m, w, unit, cpu, ens, *figs in rows:
            # A figure beyond signed 64 bits is decimal text in SQLite (benchdb.to_db).
            figs = [int(f) if isinstance(f, str) and f.isdigit() else f for f in figs]
            s = want_sums[(m, w)]
            want = [s.get(k) for k in DB_FIGURES.values()]
            check(unit == "tsc_ticks" and cpu is None and ens == s["ensembles"] and figs == want,
                  f"R{run_id} {m}/{w}: stored {unit} cpu={cpu} {ens} ensembles {figs}, the summary "
                  f"record says {want}")
        skips = dict(db_rows(db, "SELECT method, reason FROM skips WHERE run_id = ?", (run_id,)))
        check(skips == {r["method"]: r["reason"] for r in records(log, "skip")},
              f"R{run_id}: skips stored {skips}")


def unmarked(cells):
    """Net cells without the kernel's marks, each mark checked against its
    figure: '!' on a negative net only, '~' (below the resolution: the
    TSC's step, which under plain TCG varies with the host's load) on a net
    of 0 or more only, as the end screen marks them (tools/benchanswer.py)."""
    out = []
    for c in cells:
        mark = c[-1:] if c[-1:] in ("!", "~") else ""
        v = c[:-1] if mark else c
        if v.lstrip("-").isdigit():
            check((mark == "!") == (int(v) < 0) and (mark != "~" or int(v) >= 0),
                  f"net {v} marked {mark!r}: '!' is for negative nets only, '~' for nets of 0 or more")
        out.append(v)
    return out


def test_db_table_matches_summaries():
    """table: a column per run (its label, machine and unit), a row per
    method and workload, each cell the summary record's net_min; the
    method qemu64 skipped says so; --figure and its unit's power."""
    d = workdir("db_table")
    db, logs, _ = store_lab(d)
    rc, out = bench("table", "--db", db)
    check(rc == 0, f"exit status {rc}", out)
    names, header, rows = parse_db_table(out)
    labels = [os.path.basename(p)[:-4] for p in logs]
    check(names == ["method", "workload"] + [f"R{i} {l}" for i, l in enumerate(labels, 1)],
          f"columns {names}", out)
    check(header[1].split() == ["M1", "M1", "M2"] and header[2].count("[TSC ticks]") == 3,
          f"machine and unit header lines: {header[1:]}", out)
    sums = [summaries_of(p) for p in logs]
    keys = {k for s in sums for k in s if k[1] != "empty"}
    check(set(rows) == keys, f"rows {sorted(rows)}, expected {sorted(keys)}", out)
    skipped = {r["method"] for r in records(logs[2], "skip")}
    for key, cells in rows.items():
        want = [str(s[key]["net_min"]) if key in s else "skipped" if key[0] in skipped and i == 2
                else "-" for i, s in enumerate(sums)]
        check(unmarked(cells) == want, f"{key}: cells {cells}, the summary records give {want}", out)
    check("skipped" in rows[("rdtscp", "add_chain_64")] and
          re.search(r"R3 \(M2\): method rdtscp skipped: \S", out), "qemu64's rdtscp skip not said", out)
    check("workload empty is left out: its net is 0 by definition" in out, "no note on empty", out)
    rc, out = bench("table", "--db", db, "--figure", "var_of_vars", "--workload", "empty")
    check(rc == 0, f"--figure var_of_vars: exit status {rc}", out)
    _, header, rows = parse_db_table(out)
    check(header[2].count("[TSC ticks^4]") == 3, f"variance of variances without TSC ticks^4: {header}", out)
    for key, cells in rows.items():
        vv = sums[0][key]["var_of_vars"]  # null where it overflowed (a busy host's TCG run)
        check(key[1] == "empty" and cells[0] == ("overflow" if vv is None else str(vv)),
              f"{key}: {cells[0]}, expected {sums[0][key]['var_of_vars']}", out)
    rc, out = bench("table", "--db", db, "--unit", "core_cycles")
    check(rc == 1 and "no series in core cycles (units stored: tsc_ticks)" in out,
          "a unit not stored: no clear message", out)


def test_db_table_csv():
    import csv
    d = workdir("db_csv")
    db, logs, _ = store_lab(d)
    rc, out = bench("table", "--db", db, "--csv", "--method", "cr0")
    check(rc == 0, f"exit status {rc}", out)
    table = list(csv.reader(out.splitlines()))
    labels = [os.path.basename(p)[:-4] for p in logs]
    check(table[0] == ["method", "workload"] + [f"R{i} {l} (M{m}) [TSC ticks]" for i, l, m in
                                                zip((1, 2, 3), labels, (1, 1, 2))],
          f"CSV header {table[0]}", out)
    sums = [summaries_of(p) for p in logs]
    check(len(table) > 2, "no CSV rows", out)
    for row in table[1:]:
        key = (row[0], row[1])
        check(row[0] == "cr0", f"--method cr0 but a row {row}", out)
        want = [str(s[key]["net_min"]) if key in s else "-" for s in sums]
        check(unmarked(row[2:]) == want, f"{key}: CSV {row[2:]}, the summary records give {want}", out)


def test_db_same_run_twice():
    """A log stored again, and a capture of the same run with other line
    ends and noise: recognised, not stored again, the database unchanged.
    The same CPU at another TSC rate (plain TCG versus -icount) is another
    machine."""
    d = workdir("db_twice")
    db, logs, _ = store_lab(d, ("icount",))
    before, data = db_counts(db), read(db)
    rc, out = bench("store", logs[0], "--db", db)
    check(rc == 0 and re.search(r"already stored as run R1 'tools-icount' on machine M1 \(from .*\): "
                                r"not stored again", out), f"exit status {rc}: no 'already stored'", out)
    noisy = read(logs[0]).replace(b"\r\n", b"\n").replace(b'{"rec":"env"', b'\x1b[0m~{"rec":"env"')
    copy = write(d, "recaptured.log", b"\x1b[2J GNU GRUB noise\r\n" + noisy)
    rc, out = bench("store", copy, "--db", db, "--label", "again")
    check(rc == 0 and "already stored as run R1" in out, "a noisy capture of the run is not recognised", out)
    check(db_counts(db) == before and read(db) == data, f"the database changed: {db_counts(db)}")
    rc, out = bench("store", boot("tcg"), "--db", db)
    check(rc == 0 and "stored as run R2 'tools-tcg'" in out and "on a new machine M2" in out,
          "the same CPU at another TSC rate is not another machine", out)


def test_db_damaged_log_refused():
    """A truncated log and one with a corrupted record are refused with the
    line of the first problem and nothing of them is stored (the file
    unchanged byte for byte); the valid logs of the same command are."""
    d = workdir("db_refused")
    db, _, _ = store_lab(d, ("qemu64",))
    data, before = read(db), db_counts(db)
    lines = lines_of(boot("tcg"))
    keep = len(lines) // 2
    cut = write(d, "cut.log", "\n".join(lines[:keep]) + "\n")
    rc, out = bench("store", cut, "--db", db)
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(re.search(rf"store: .*cut\.log: REFUSED: the log is not valid: first problem at line {keep}: "
                    r"the log is cut short.*; nothing of it stored", out),
          f"no refusal naming line {keep}", out)
    check(read(db) == data, "the database file changed after a refused log")
    # A photo without a QR code, and a text that is not a bench1 code's:
    # recognised as such and refused.
    photo = write(d, "screen.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(64))
    qr = write(d, "qr.txt", "bench1 v=1 vendor=GenuineIntel\n")
    rc, out = bench("store", photo, qr, "--db", db)
    check(rc == 1 and re.search(r"screen\.jpg: REFUSED: .*screen\.jpg: no QR code found", out)
          and "qr.txt: REFUSED: no bench1 QR code in the photos or texts" in out
          and read(db) == data, "a photo without a code or a bad QR text is not refused", out)
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"'))
    bad = list(lines)
    bad[i] = bad[i][:len(bad[i]) // 2]     # the record's tail lost on the line
    broken = write(d, "broken.log", "\n".join(bad))
    rc, out = bench("store", broken, boot("icount"), "--db", db)
    check(rc == 1 and re.search(rf"broken\.log: REFUSED: .*first problem at line {i + 1}: corrupted record",
                                out) and "stored as run R2 'tools-icount'" in out,
          f"the corrupted record (line {i + 1}) refused and the good log stored", out)
    after = db_counts(db)
    check(after["runs"] == before["runs"] + 1 and
          not db_rows(db, "SELECT id FROM runs WHERE source LIKE '%broken.log' OR source LIKE '%cut.log'"),
          f"counts {before} -> {after}")


def test_db_store_is_one_transaction():
    """An error while writing a run (here: raised on the third series)
    leaves nothing of it: no machine, run or series row."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchdb
    import benchlog
    d = workdir("db_transaction")
    path = os.path.join(d, "lab.sqlite")
    conn = benchdb.connect(path, create=True)
    log = benchlog.load(boot("qemu64"))
    real, calls = benchdb.series_figures, []

    def failing(lg, s):
        calls.append(s)
        if len(calls) == 3:
            raise RuntimeError("injected failure")
        return real(lg, s)
    benchdb.series_figures = failing
    try:
        benchdb.store(conn, log, source="x.log")
        raise AssertionError("the injected failure did not reach the caller")
    except RuntimeError:
        pass
    finally:
        benchdb.series_figures = real
    conn.close()
    check(len(calls) == 3, f"series_figures called {len(calls)} times")
    check(set(db_counts(path).values()) == {0}, f"rows left after the failure: {db_counts(path)}")


def test_db_exact_u64_figures():
    """A figure beyond SQLite's signed 64 bits (the kernel's are unsigned
    64-bit) is stored and shown exactly."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchdb
    import benchlog
    d = workdir("db_u64")
    path = os.path.join(d, "lab.sqlite")
    log = benchlog.load(boot("qemu64"))
    big = 2 ** 64 - 1
    s = log.series[("cpuid", "empty", "tsc_ticks", None, None)]
    s.summary["var_of_vars"] = big
    conn = benchdb.connect(path, create=True)
    benchdb.store(conn, log, source="big.log")
    conn.close()
    rc, out = bench("table", "--db", path, "--figure", "var_of_vars", "--method", "cpuid")
    check(rc == 0, f"exit status {rc}", out)
    _, _, rows = parse_db_table(out)
    check(rows[("cpuid", "empty")] == [str(big)], f"cpuid/empty: {rows.get(('cpuid', 'empty'))}", out)


def test_db_every_output_level():
    """Runs stored from output=human, json, both and full (the same -icount
    run; compact ensemble records in json and both) give the same table; a
    human log has no medians: "not in this source", said why."""
    d = workdir("db_levels")
    db, _, out = store_lab(d, tuple(f"output-{lv}" for lv in OUTPUT_LEVELS))
    check(len(re.findall(r"on (?:a new|the known) machine M1", out)) == len(OUTPUT_LEVELS), "not one machine",
          out)
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rows and all(len(set(c)) == 1 and c[0].lstrip("-").isdigit() for c in rows.values()),
          f"the levels' nets differ: {rows}", out)
    rc, out = bench("table", "--db", db, "--figure", "median_of_medians")
    _, _, rows = parse_db_table(out)
    check(rows and all(c[0] == "not in this source" and len(set(c[1:])) == 1 and c[1] != "not in this source"
                       for c in rows.values()) and
          "not in this source: no source stored of that run carries the figure" in out, f"medians: {rows}", out)

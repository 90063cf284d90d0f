"""tests/tools/t_storefolder.py - `bench.py store FOLDER`: the stick's
results/ folder, as the kernel leaves it under UEFI (lib/resultname.h:
"<run ID>.log" written and read back, "<run ID>.part" a write that did not
finish): every *.log stored once, a .part said to be incomplete and not
stored, an aborted run's log (its final line "bench: run aborted") said
aborted and not stored, a summary line counting each; stored again,
nothing is stored."""
import os
import re

from common import bench, boot, check, db_counts, read, records, workdir, write

SUMMARY = re.compile(r"^store: (\d+) stored, (\d+) already there, (\d+) merged into a run already there, "
                     r"(\d+) incomplete, (\d+) aborted, (\d+) refused$", re.M)


def stick_name(log, suffix):
    """The kernel's file name of log's run: its run ID and suffix."""
    return records(log, "env")[0]["run_id"] + suffix


def summary(out):
    m = SUMMARY.search(out)
    check(m is not None, "no summary line 'store: N stored, N already there, ...'", out)
    return tuple(int(g) for g in m.groups())


def test_store_folder_of_stick_results():
    """Two logs and a .part: two runs stored, the .part said; again: nothing."""
    d = workdir("store_folder")
    results = os.path.join(d, "results")
    os.makedirs(results)
    logs = [boot("icount"), boot("qemu64")]
    for log in logs:
        write(results, stick_name(log, ".log"), read(log))
    cut = boot("output-json")
    part = write(results, stick_name(cut, ".part"), read(cut)[:len(read(cut)) // 2])
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", results, "--db", db)
    check(rc == 0, f"store FOLDER: exit status {rc}, expected 0", out)
    check(len(re.findall(r"^store: .*\.log: stored as run R\d+ ", out, re.M)) == 2, "not two runs stored", out)
    check(f"store: incomplete (the run's write did not finish): {part}; not stored" in out,
          "the .part file is not said to be incomplete", out)
    check(summary(out) == (2, 0, 0, 1, 0, 0), f"summary {summary(out)}, expected 2 stored and 1 incomplete", out)
    check(db_counts(db)["runs"] == 2, f"{db_counts(db)['runs']} runs in the database, expected 2", out)
    before = db_counts(db)
    rc, out = bench("store", results, "--db", db)
    check(rc == 0 and len(re.findall(r"already stored as run R\d+ .*not stored again", out)) == 2,
          f"exit status {rc}: the runs stored again are not both said to be there", out)
    check(summary(out) == (0, 2, 0, 1, 0, 0), f"second store: summary {summary(out)}, expected 2 already there", out)
    check(db_counts(db) == before, f"the second store changed the database: {db_counts(db)} (was {before})", out)


def test_store_folder_without_logs():
    """A folder with no *.log and no *.part (e.g. the stick's top, not its
    results/): refused, exit status 1, nothing stored."""
    d = workdir("store_folder_empty")
    empty = os.path.join(d, "BENCH")
    os.makedirs(empty)
    write(empty, "notes.txt", "not a run")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", empty, "--db", db)
    check(rc == 1 and f"store: {empty}: REFUSED: a folder with no run logs (*.log) in it" in out,
          f"exit status {rc}: a folder without logs is not refused", out)
    check(summary(out) == (0, 0, 0, 0, 0, 1), f"summary {summary(out)}", out)


def test_store_aborted_log():
    """A run aborted by a typo in the boot parameters leaves its log
    (under UEFI on the stick, as <run ID>.log): store, given the file or
    its folder, says it ABORTED with its final line, stores nothing and
    counts it in the last line; exit status 0. Failed before: REFUSED (the
    log is not valid: no ensemble records), counted as refused, exit 1."""
    d = workdir("store_aborted")
    results = os.path.join(d, "results")
    os.makedirs(results)
    log = boot("aborted")
    final = [l for l in read(log).decode().replace("\r", "").split("\n") if l.startswith("bench: run aborted")]
    check(len(final) == 1, f"the aborted run's log has {len(final)} final lines 'bench: run aborted'", log)
    path = write(results, stick_name(log, ".log"), read(log))
    good = write(results, stick_name(boot("icount"), ".log"), read(boot("icount")))
    db = os.path.join(d, "lab.sqlite")
    said = (f"store: {path}: ABORTED (its final line: '{final[0]}'): the run did not finish; "
            "nothing of it stored")
    rc, out = bench("store", path, "--db", db)
    check(rc == 0 and said in out, f"store FILE of an aborted run: exit status {rc}, expected 0 and {said!r}",
          out)
    check(summary(out) == (0, 0, 0, 0, 1, 0), f"summary {summary(out)}, expected 1 aborted", out)
    check(db_counts(db)["runs"] == 0, f"{db_counts(db)['runs']} runs in the database after an aborted log", out)
    rc, out = bench("store", results, "--db", db)
    check(rc == 0 and said in out and re.search(rf"^store: {re.escape(good)}: stored as run R\d+ ", out, re.M),
          f"store FOLDER: exit status {rc}: the aborted run not said, or the complete one not stored", out)
    check(summary(out) == (1, 0, 0, 0, 1, 0), f"summary {summary(out)}, expected 1 stored and 1 aborted", out)
    check(db_counts(db)["runs"] == 1, f"{db_counts(db)['runs']} runs in the database, expected 1", out)

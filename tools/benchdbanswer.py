"""tools/benchdbanswer.py - the run's answer in a lab's database (tools/
benchdb.py holds the rest): the per-copy figures of code= (per_copy
records), each method's verdict (verdict records) and the methods'
agreement on a per-copy figure (per_copy_agreement records), each as the
kernel said it, and the flag of each net least minimum (summaries.net_flag).

Tables (added to schema version 3; a database of an older version gets
them, empty, when opened: its runs have no per-copy rows):

  per_copy    one per (run, method, workload, unit, cpu): status (exact,
              figure, below_resolution, below_zero, wrapped: lib/percopy.h),
              per_copy and bound as the record's decimal text [unit per
              copy] (NULL: none), copies (of the N window), num/den (the
              exact fraction of the 2N-N difference over N), spread [unit]
              and the two least minimums [unit] (NULL: not in the source,
              e.g. a QR code's text).
  verdicts    one per (run, method, cpu): the method's own unit, valid,
              ergodic (paper section 4, steps 1-2), variance of variances
              [unit^4] and of minimum values [unit^2] with their limits,
              the offset [unit]; figures of 2^63 or more as decimal text.
  agreements  one per (run, workload, unit, cpu): the methods compared
              (space-separated), agree (1/0), disagree (the record's list
              as JSON: pairs and their gap per copy), trusted (NULL: none)
              and why.

    store_answer(conn, run_id, log)        # in the caller's transaction
    rows, cells = answer_cells(conn, "per_copy", unit="tsc_ticks")
    flags = net_flags(conn, unit="tsc_ticks")
"""
import json

import benchanswer
from benchlog import TSC

TABLES = """
CREATE TABLE per_copy (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    method      TEXT NOT NULL,
    workload    TEXT,
    unit        TEXT NOT NULL,          -- tsc_ticks, core_cycles, instructions
    cpu         INTEGER,                -- NULL: the boot CPU, no per-CPU runs
    status      TEXT,                   -- exact, figure, below_resolution, below_zero, wrapped
    per_copy    TEXT,                   -- [unit per copy] three decimals, as printed; NULL: wrapped
    bound       TEXT,                   -- figure: +- this; below_resolution: at most this; else NULL
    copies      INTEGER,                -- copies the N window executes
    num         INTEGER,                -- the 2N-N difference over N, exactly: num/den
    den         INTEGER,
    spread,                             -- [unit] the least minimums' spreads together
    least_min_n,                        -- [unit]
    least_min_2n                        -- [unit]
);
CREATE TABLE verdicts (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    method      TEXT NOT NULL,
    unit        TEXT,                   -- the method's own unit
    cpu         INTEGER,
    valid       INTEGER,                -- 0: UNKNOWN (a variance missing)
    ergodic     INTEGER,
    var_of_vars,                        -- [unit^4]
    var_of_mins,                        -- [unit^2]
    max_var_of_vars,
    max_var_of_mins,
    offset                              -- [unit]
);
CREATE TABLE agreements (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    workload    TEXT,
    unit        TEXT NOT NULL,
    cpu         INTEGER,
    methods     TEXT,                   -- space-separated
    agree       INTEGER,
    disagree    TEXT,                   -- JSON: [{"a": M1, "b": M2, "gap": "0.840"}]
    trusted     TEXT,                   -- NULL: none
    why         TEXT
);
"""
# Schema version 2 -> 3.
UPGRADE_2 = TABLES + "ALTER TABLE summaries ADD COLUMN net_flag TEXT;\n"

PER_COPY = ("status", "per_copy", "bound", "copies", "num", "den", "spread", "least_min_n", "least_min_2n")
VERDICT = ("unit", "valid", "ergodic", "var_of_vars", "var_of_mins", "max_var_of_vars", "max_var_of_mins",
           "offset")
AGREEMENT = ("methods", "agree", "disagree", "trusted", "why")
# What table --figure shows from these tables: name -> what it is.
FIGURES = {"per_copy": "figure per copy of code= (2N-N; the kernel's status and bound)",
           "verdict": "each method's verdict (paper section 4: ergodic, NOT ergodic and why)"}


def _cpu(rec):
    c = rec.get("cpu")
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def _sql(v):
    """A record's value as SQLite keeps it (tools/benchdb.py to_db): bools as
    0/1, ints of 2^63 or more as decimal text."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int) and not -(1 << 63) <= v < (1 << 63):
        return str(v)
    return v


def answer_rows(log):
    """[(table, key columns, value columns)] of what log says of its answer."""
    out = []
    for _, r in log.by_kind.get("per_copy", []):
        out.append(("per_copy", {"method": r.get("method"), "workload": r.get("workload"),
                                 "unit": r.get("unit") or TSC, "cpu": _cpu(r)},
                    {k: _sql(r.get(k)) for k in PER_COPY}))
    for _, r in log.by_kind.get("verdict", []):
        out.append(("verdicts", {"method": r.get("method"), "cpu": _cpu(r)},
                    {k: _sql(r.get(k)) for k in VERDICT}))
    for _, r in log.by_kind.get("per_copy_agreement", []):
        vals = {"methods": " ".join(map(str, r.get("methods") or [])), "agree": _sql(r.get("agree")),
                "disagree": json.dumps(r.get("disagree") or [], sort_keys=True),
                "trusted": r.get("trusted"), "why": r.get("why")}
        out.append(("agreements", {"workload": r.get("workload"), "unit": r.get("unit") or TSC,
                                   "cpu": _cpu(r)}, vals))
    return [row for row in out if row[1].get("method", "") is not None]


class Conflict(Exception):
    """A source says otherwise than the run's stored answer (raised by
    store_answer when merging)."""


def store_answer(conn, rid, log, rows=None):
    """Store log's answer into run rid inside the caller's transaction: a
    row the run lacks is added; a row it has gets the columns it lacks
    (NULL) from log (a QR code's text has no least minimums, the serial
    log has them). Raises Conflict naming the first figure both carry and
    that differs. Returns the number of rows added or completed. rows:
    [(table, key columns, value columns)] to store instead of the answer's
    (tools/benchdbevents.py)."""
    n = 0
    for table, key, vals in (answer_rows(log) if rows is None else rows):
        where = " AND ".join(f"{k} IS ?" for k in key)
        old = conn.execute(f"SELECT rowid, {', '.join(vals)} FROM {table} WHERE run_id = ? AND {where}",
                           [rid] + list(key.values())).fetchone()
        if old is None:
            cols = ["run_id"] + list(key) + list(vals)
            conn.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                         [rid] + list(key.values()) + list(vals.values()))
            n += 1
            continue
        fill = {}
        for (k, v), was in zip(vals.items(), old[1:]):
            if was is None and v is not None:
                fill[k] = v
            elif was is not None and v is not None and str(was) != str(v):
                raise Conflict(f"its {table} row {', '.join(f'{k} {v}' for k, v in key.items() if v is not None)}"
                               f" says {k} {was} there and {v} in this source")
        if fill:
            conn.execute(f"UPDATE {table} SET {', '.join(k + ' = ?' for k in fill)} WHERE rowid = ?",
                         list(fill.values()) + [old[0]])
            n += 1
    return n


# Workloads whose nets the kernel never flags: the empty window (the offset)
# and the resolution test's loop (bench/wl_paper.c WL_OFFSET, WL_RESOLUTION;
# bench/report.c).
UNFLAGGED = ("empty", "measured_loop")


def net_flag_of(log, s, net):
    """The flag of series s's net least minimum net in log, as the kernel
    gave it (the summary's net_min_flag, a QR code's low line): only a
    flagged net carries one, so a net without is 'none' but where the
    kernel's rule flags it whatever the clock's step (a log of a kernel
    before the flags): negatives 'below_zero', 0 'below_resolution' (below
    one count of any clock); workload empty and the resolution test's
    loop are never flagged; None where there is no net."""
    if not isinstance(net, int):
        return None
    flag = (s.summary or {}).get("net_min_flag")
    if flag in benchanswer.MARKS:
        return flag
    if s.workload in UNFLAGGED:
        return "none"
    return benchanswer.net_flag(net, 1) or "none"


def net_flags(conn, unit=TSC):
    """{((method, workload, counter, cpu), run_id): flag} of every stored net
    in unit: the stored flag; for a run stored before the flags were kept
    (NULL) the kernel's rule at a resolution of 1 (the TSC's step is not
    stored): negatives below zero, 0 below the resolution."""
    out = {}
    for rid, m, w, counter, cpu, net, flag in conn.execute(
            "SELECT s.run_id, s.method, s.workload, s.counter, s.cpu, su.net, su.net_flag FROM series s "
            "JOIN summaries su ON su.series_id = s.id WHERE s.unit = ?", (unit,)):
        net = int(net) if isinstance(net, str) else net
        if flag is None and w not in UNFLAGGED:
            flag = benchanswer.net_flag(net, 1)
        if flag in benchanswer.MARKS:
            out[((m, w, counter, cpu), rid)] = flag
    return out


def answer_cells(conn, figure, unit=TSC, workload=None, method=None):
    """(rows, cells) as tools/benchdb.py figure_cells gives them, for the
    answer's figures: rows (method, workload, None, cpu) in the order
    stored, cells[(row, run_id)] the text the kernel gives it: per_copy
    (benchanswer.per_copy_cell) of code='s figures in unit, verdict
    (benchanswer.verdict_cell) of each method in its own unit (unit not
    applied: a method has one verdict; the workload is '-')."""
    if figure == "per_copy":
        sql = (f"SELECT run_id, method, workload, cpu, {', '.join(PER_COPY)} FROM per_copy WHERE unit = ?",
               [unit])
    elif figure == "verdict":
        sql = (f"SELECT run_id, method, NULL, cpu, {', '.join(VERDICT)} FROM verdicts WHERE 1", [])
    else:
        raise ValueError(f"unknown figure {figure!r}")
    text, args = sql
    if workload and figure == "per_copy":
        text += " AND workload = ?"
        args.append(workload)
    if method:
        text += " AND method = ?"
        args.append(method)
    rows, cells = {}, {}
    names = PER_COPY if figure == "per_copy" else VERDICT
    for r in conn.execute(text + " ORDER BY rowid", args):
        rid, m, w, cpu = r[:4]
        rec = {k: (int(v) if isinstance(v, str) and k not in ("status", "per_copy", "bound", "unit") else v)
               for k, v in zip(names, r[4:])}
        row = (m, w, None, cpu)
        rows.setdefault(row, None)
        cells[(row, rid)] = (benchanswer.per_copy_cell(rec) if figure == "per_copy" else
                             benchanswer.verdict_cell(rec))
    return list(rows), cells


def agreement_lines(conn, run_id):
    """The agreement lines of a run (benchanswer.agreement_text), in the order stored."""
    out = []
    for w, u, cpu, methods, agree, disagree, trusted, why in conn.execute(
            "SELECT workload, unit, cpu, methods, agree, disagree, trusted, why FROM agreements "
            "WHERE run_id = ? ORDER BY rowid", (run_id,)):
        rec = {"workload": w, "unit": u, "methods": (methods or "").split(), "agree": bool(agree),
               "disagree": json.loads(disagree or "[]"), "trusted": trusted, "why": why}
        out.append((f"CPU {cpu}: " if cpu is not None else "") + benchanswer.agreement_text(rec))
    return out

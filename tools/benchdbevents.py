"""tools/benchdbevents.py - performance events (events=, issue 30) in a lab's
database (tools/benchdb.py holds the rest): the event, event_check,
event_window and event_per_copy records of each run, as the kernel said
them (tools/benchlog/events.py checks them before a log is stored).

Tables (schema version 4; a database of an older version gets them, empty,
when opened: its runs have no events):

  events          one per (run, event name, cpu): origin (arch, table,
                  nanobench), source (the data and its version), the
                  encoding (event_select, umask hex text; cmask, inv, edge,
                  anyt), perfevtsel (hex text), counter and pass (NULL:
                  it cannot count here), counts (1/0), why.
  event_checks    one per (run, pass, event, cpu): the on-machine check:
                  kind, expected_lo, expected_hi, counted [the event], ok.
  event_windows   one per (run, method, workload, event, cpu): pass,
                  least_min, offset, net (least_min - offset), median of
                  medians [the event], var_of_vars [event^4], var_of_mins
                  [event^2], verified (1/0: its pass's check held or did
                  not predict it).
  event_per_copy  one per (run, method, workload, event, cpu): code='s
                  2N-N figure per copy in the event (the per_copy table's
                  columns and meaning) and verified.

    store_events(conn, run_id, log)      # in the caller's transaction
    rows, cells = event_cells(conn, "L1D.REPLACEMENT", "net")   # or "per_copy"
    bars = event_bars(conn, name, figure)                       # for plot
"""
import benchdbanswer
from benchlog import events as ev

TABLES = """
CREATE TABLE events (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    name         TEXT NOT NULL,         -- as the kernel resolved it: L1D.REPLACEMENT
    cpu          INTEGER,               -- NULL: the boot CPU, no per-CPU runs
    origin       TEXT,                  -- arch, table, nanobench
    source       TEXT,                  -- the data it came from, with its version and licence
    event_select TEXT,                  -- hex text, as the record: 0x51
    umask        TEXT,
    cmask        INTEGER,
    inv          INTEGER,
    edge         INTEGER,
    anyt         INTEGER,
    perfevtsel   TEXT,                  -- the value written to IA32_PERFEVTSELx / PERF_CTL, hex text
    counter      TEXT,                  -- PMC0, FIXED_CTR1; NULL: it cannot count here
    pass         INTEGER,
    counts       INTEGER,               -- 1: it counts here; 0: why says why not
    why          TEXT
);
CREATE TABLE event_checks (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    pass         INTEGER NOT NULL,
    event        TEXT NOT NULL,
    cpu          INTEGER,
    kind         TEXT,                  -- instructions, branches, core_cycles, ...
    expected_lo,                        -- [the event]
    expected_hi,
    counted,
    ok           INTEGER
);
CREATE TABLE event_windows (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    method       TEXT NOT NULL,
    workload     TEXT,
    event        TEXT NOT NULL,
    cpu          INTEGER,
    pass         INTEGER,
    least_min,                          -- [the event]
    offset,                             -- [the event] the empty window's least minimum
    net,                                -- [the event] least_min - offset
    median_of_medians,                  -- [the event]
    var_of_vars,                        -- [the event^4]
    var_of_mins,                        -- [the event^2]
    verified     INTEGER                -- 0: its pass's check missed: UNVERIFIED
);
CREATE TABLE event_per_copy (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    method       TEXT NOT NULL,
    workload     TEXT,
    event        TEXT NOT NULL,
    cpu          INTEGER,
    status       TEXT,                  -- exact, figure, below_resolution, below_zero, wrapped
    per_copy     TEXT,                  -- [the event per copy] three decimals, as printed; NULL: wrapped
    bound        TEXT,
    copies       INTEGER,
    num          INTEGER,
    den          INTEGER,
    spread,                             -- [the event]
    least_min_n,
    least_min_2n,
    step         INTEGER,
    verified     INTEGER
);
"""
# Schema version 3 -> 4.
UPGRADE_3 = TABLES

EVENT = ("origin", "source", "event_select", "umask", "cmask", "inv", "edge", "anyt", "perfevtsel", "counter",
         "pass", "counts", "why")
CHECK = ("kind", "expected_lo", "expected_hi", "counted", "ok")
WINDOW = ("pass", "least_min", "offset", "net", "median_of_medians", "var_of_vars", "var_of_mins", "verified")
PER_COPY = ("status", "per_copy", "bound", "copies", "num", "den", "spread", "least_min_n", "least_min_2n", "step",
            "verified")
FIGURES = {"net": "net (least minimum - the empty window's) of the event",
           "per_copy": "figure per copy of code= in the event (2N-N; the kernel's status and bound)"}


def _cpu(rec):
    c = rec.get("cpu")
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def event_rows(log):
    """[(table, key columns, value columns)] of log's events records (the
    usable ones: tools/benchlog/events.py)."""
    out = []
    sql = benchdbanswer._sql
    for _, r in ev.usable(log, "event"):
        out.append(("events", {"name": r["name"], "cpu": _cpu(r)}, {k: sql(r[k]) for k in EVENT}))
    for _, r in ev.usable(log, "event_check"):
        out.append(("event_checks", {"pass": r["pass"], "event": r["event"], "cpu": _cpu(r)},
                    {k: sql(r[k]) for k in CHECK}))
    for kind, table, cols in (("event_window", "event_windows", WINDOW), ("event_per_copy", "event_per_copy", PER_COPY)):
        for _, r in ev.shown(log, kind):  # a QR code's pe lines without their least minimums
            out.append((table, {"method": r["method"], "workload": r["workload"], "event": r["event"],
                                "cpu": _cpu(r)}, {k: sql(r.get(k)) for k in cols}))
    return out


def store_events(conn, rid, log):
    """Store log's events records into run rid (benchdbanswer.store_answer's
    rule: a row the run lacks is added, a column it lacks filled; a figure
    both carry that differs raises benchdbanswer.Conflict). Returns the
    rows added or completed."""
    return benchdbanswer.store_answer(conn, rid, log, rows=event_rows(log))


def _find(conn, name):
    """The event's name as stored (names are case-insensitive), or name."""
    r = conn.execute("SELECT event FROM event_windows WHERE upper(event) = upper(?) UNION ALL "
                     "SELECT event FROM event_per_copy WHERE upper(event) = upper(?) LIMIT 1", (name, name)).fetchone()
    return r[0] if r else name


def _records(conn, name, figure, workload=None, method=None):
    """[(run_id, (method, workload, None, cpu), record dict)] of the event's
    stored figures (figure net: event_windows, per_copy: event_per_copy),
    in the order stored."""
    table, cols = (("event_windows", WINDOW) if figure == "net" else ("event_per_copy", PER_COPY))
    text, args = (f"SELECT run_id, method, workload, cpu, event, {', '.join(cols)} FROM {table} "
                  "WHERE upper(event) = upper(?)", [name])
    if workload:
        text += " AND workload = ?"
        args.append(workload)
    if method:
        text += " AND method = ?"
        args.append(method)
    out = []
    for r in conn.execute(text + " ORDER BY rowid", args):
        rec = {"event": r[4]}
        for k, v in zip(cols, r[5:]):
            rec[k] = int(v) if isinstance(v, str) and k not in ("status", "per_copy", "bound") else v
        rec["verified"] = bool(rec["verified"]) if rec.get("verified") is not None else True
        out.append((r[0], (r[1], r[2], None, r[3]), rec))
    return out


def event_cells(conn, name, figure="net", workload=None, method=None):
    """(rows, cells) as tools/benchdb.py figure_cells gives them: rows
    (method, workload, None, cpu), cells[(row, run_id)] the kernel's text
    of the event's net (figure net; the empty window left out, its net is
    0 by definition) or of code='s figure per copy in it (per_copy), with
    ' UNVERIFIED' where its pass's check missed."""
    rows, cells = {}, {}
    for rid, row, rec in _records(conn, name, figure, workload, method):
        if figure == "net" and row[1] == "empty":
            continue
        rows.setdefault(row, None)
        cells[(row, rid)] = ev.net_cell(rec) if figure == "net" else ev.figure_cell(rec)
    return list(rows), cells


def event_bars(conn, name, figure="net", workload=None, method=None):
    """(rows, {(row, run_id): (height, label, verified)}) for plot: the
    net, or the figure per copy as a number (0 where below resolution or
    wrapped, the label saying so)."""
    rows, bars = {}, {}
    for rid, row, rec in _records(conn, name, figure, workload, method):
        if figure == "net" and row[1] == "empty":
            continue
        rows.setdefault(row, None)
        if figure == "net":
            h = rec.get("net") if isinstance(rec.get("net"), int) else None
            bars[(row, rid)] = (h, str(rec.get("net")), rec["verified"])
        else:
            try:
                h = float(rec["per_copy"]) if rec.get("status") in ("exact", "figure", "below_zero") else 0.0
            except (TypeError, ValueError):
                h = None
            bars[(row, rid)] = (h, ev.figure_cell(dict(rec, verified=True)), rec["verified"])
    return list(rows), bars


def stored_name(conn, name):
    return _find(conn, name)


def event_names(conn):
    """The events stored (names), in the order first stored."""
    names = [n for (n,) in conn.execute("SELECT name FROM events GROUP BY upper(name) ORDER BY min(rowid)")]
    return names + [n for (n,) in conn.execute("SELECT event FROM event_per_copy GROUP BY upper(event) "
                                               "ORDER BY min(rowid)") if n.upper() not in map(str.upper, names)]

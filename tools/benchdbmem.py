"""tools/benchdbmem.py - memory, caches and clocks (issue 31) in a lab's
database (tools/benchdb.py holds the rest): each run's settings, asked for
and in effect, its core clock, and the memory hierarchy sweep=latency
measured (tools/benchlog/memclock.py checks the records before a log is
stored).

Tables (schema version 5; a database of an older version gets them, empty,
when opened: its runs' settings are unknown, never taken as the defaults):

  settings        one per (run, name): name as tools/benchlog/memclock.py
                  settings() gives it: the settings asked for, kind 'asked'
                  (mem, mem.pages, mem.type, regs, cache, prefetch, turbo,
                  pstate, sweep: the config record's words), and their
                  effect, kind 'effect' ('area R14': size, page size and
                  memory type; 'cache instruction'; 'prefetcher NAME': on,
                  off, not taken...; 'clock SETTING': taken, not taken),
                  with the record it comes from (JSON text).
  core_clocks     one per (run, cpu): the core clock before and after the
                  settings [Hz] (NULL: not measured), the TSC's rate [Hz],
                  source (aperf_mperf, core_cycles, none), why.
  latency_points  one per (run, unit, bytes, cpu): sweep=latency's figure
                  per load at that area size, in the unit (TSC ticks, core
                  cycles), as the per_copy table keeps a figure per copy
                  (status, per_copy text, bound, copies = loads, num/den,
                  spread, least minimums, step).
  latency_levels  one per (run, unit, name, cpu): a level seen (L1d, L2,
                  L3, L4, DRAM): CPUID's size of it [bytes] (NULL: none
                  listed), the edge of its plateau [bytes] (NULL: none
                  seen), its latency per load [unit] and in ns (text, as
                  printed), why (the record's).

    store_mem(conn, run_id, log)         # in the caller's transaction
    run_settings(conn) -> {run_id: {name: value}}
    settings_lines(conn, runs)           # table's lines on the settings
    latency_table(conn, unit, runs)      # table --figure latency
"""
import json

import benchdbanswer
from benchlog import memclock

TABLES = """
CREATE TABLE settings (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    name         TEXT NOT NULL,         -- turbo, mem.pages, 'area R14', 'prefetcher l2_hw', ...
    kind         TEXT,                  -- asked (the config record), effect (what took effect)
    value        TEXT,                  -- off, 1g, '512 MiB, 1 GiB pages, wb', taken, not taken, ...
    record       TEXT                   -- the record it comes from, JSON
);
CREATE TABLE core_clocks (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    cpu          INTEGER,               -- NULL: the boot CPU, no per-CPU runs
    before_hz    INTEGER,               -- [Hz] NULL: not measured
    after_hz     INTEGER,               -- [Hz] NULL: nothing written, or not measured
    tsc_hz       INTEGER,               -- [Hz]
    source       TEXT,                  -- aperf_mperf, core_cycles, none
    why          TEXT
);
CREATE TABLE latency_points (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    unit         TEXT NOT NULL,         -- tsc_ticks, core_cycles
    bytes        INTEGER NOT NULL,      -- the area's size [bytes]
    cpu          INTEGER,
    loads        INTEGER,               -- loads in the chase [count]
    status       TEXT,                  -- exact, figure, below_resolution, below_zero, wrapped
    per_copy     TEXT,                  -- [unit per load] three decimals, as printed
    bound        TEXT,
    copies       INTEGER,
    num          INTEGER,
    den          INTEGER,
    spread,                             -- [unit]
    least_min_n,
    least_min_2n,
    step         INTEGER
);
CREATE TABLE latency_levels (
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    unit         TEXT NOT NULL,
    name         TEXT NOT NULL,         -- L1d, L2, L3, L4, DRAM
    cpu          INTEGER,
    cpuid_bytes  INTEGER,               -- [bytes] the size CPUID lists; NULL: none
    edge_bytes   INTEGER,               -- [bytes] the plateau's edge; NULL: none seen
    per_load     TEXT,                  -- [unit per load] as printed: 5.000
    ns           TEXT,                  -- [ns] as printed; NULL: no time
    why          TEXT
);
"""
# Schema version 4 -> 5.
UPGRADE_4 = TABLES

POINT = ("loads", "status", "per_copy", "bound", "copies", "num", "den", "spread", "least_min_n", "least_min_2n",
         "step")
CLOCK = ("before_hz", "after_hz", "tsc_hz", "source", "why")
# The kinds whose records give a setting's effect, by the name's first word.
EFFECT = {"area": "mem_area", "cache": "cache_state", "prefetcher": "prefetch", "clock": "clock_setting"}


def _cpu(rec):
    c = rec.get("cpu")
    return c if isinstance(c, int) and not isinstance(c, bool) else None


def _record_of(log, name):
    """The record a setting's effect comes from (JSON), or None."""
    kind = EFFECT.get(name.split()[0]) if " " in name else None
    for _, r in memclock.usable(log, kind) if kind else []:
        key = {"mem_area": r.get("register"), "cache_state": "instruction",
               "prefetch": r.get("control") or r.get("name") or "none", "clock_setting": r.get("setting")}[kind]
        if name.split(" ", 1)[1] == key:
            return json.dumps(r, sort_keys=True, default=str)
    return None


def mem_rows(log):
    """[(table, key columns, value columns)] of what log says of its
    settings, core clock and memory hierarchy."""
    sql = benchdbanswer._sql
    out = []
    asked = {memclock.WORDS.get(k, k) for k in memclock.CONFIG}
    for name, value in memclock.settings(log).items():
        if value is not None:
            out.append(("settings", {"name": name}, {"kind": "asked" if name in asked else "effect",
                                                     "value": str(value), "record": _record_of(log, name)}))
    for _, r in memclock.usable(log, "core_clock"):
        out.append(("core_clocks", {"cpu": _cpu(r)}, {k: sql(r[k]) for k in CLOCK}))
    for _, r in memclock.usable(log, "latency_point"):
        out.append(("latency_points", {"unit": r["unit"], "bytes": r["bytes"], "cpu": _cpu(r)},
                    {k: sql(r[k]) for k in POINT}))
    for _, r in memclock.usable(log, "latency_levels"):
        for lv in r["levels"]:
            out.append(("latency_levels", {"unit": r["unit"], "name": lv["name"], "cpu": _cpu(r)},
                        {"cpuid_bytes": lv["cpuid_bytes"], "edge_bytes": lv["edge_bytes"], "per_load": lv["per_load"],
                         "ns": lv["ns"], "why": r["why"]}))
    return out


def store_mem(conn, rid, log):
    """Store log's settings, core clock and memory hierarchy into run rid
    (benchdbanswer.store_answer's rule: a row the run lacks is added, a
    column it lacks filled; a value both carry that differs raises
    benchdbanswer.Conflict). Returns the rows added or completed."""
    return benchdbanswer.store_answer(conn, rid, log, rows=mem_rows(log))


def run_settings(conn):
    """{run_id: {name: value}} of every run that has settings stored, the
    settings in the order stored (a run without any: stored before schema 5,
    or a kernel before issue 31)."""
    out = {}
    for rid, name, value in conn.execute("SELECT run_id, name, value FROM settings ORDER BY rowid"):
        out.setdefault(rid, {})[name] = value
    return out


def settings_lines(conn, runs):
    """The table's lines on the runs' settings: those every run with
    settings has alike on one line, then each setting that differs with
    each run's value; a run without settings said."""
    per = run_settings(conn)
    have = [r for r in runs if r["id"] in per]
    if not have:
        return ["  none stored (runs of a kernel before issue 31, or stored before schema 5)"]
    names = list(dict.fromkeys(n for r in have for n in per[r["id"]]))
    same = [n for n in names if len({per[r["id"]].get(n) for r in have}) == 1]
    out = []
    if same:
        out.append("  the same in every run: " + ", ".join(f"{n} {per[have[0]['id']][n]}" for n in same))
    for n in names:
        if n not in same:
            out.append(f"  {n} DIFFERS: " + "; ".join(f"R{r['id']} {per[r['id']].get(n, '(not stored)')}"
                                                        for r in have))
    for r in runs:
        if r["id"] not in per:
            out.append(f"  R{r['id']}: no settings stored (a kernel before issue 31, or stored before schema 5): "
                       "not comparable with the others' settings")
    return out


def latency_table(conn, unit, runs):
    """table --figure latency: (header, rows, notes) of sweep=latency's
    figures per load in unit, a row per area size, a column per run of
    runs (tools/benchdb.py list_runs) that has points (with its machine), each cell as the kernel states it
    ('5.000 exactly', '15.100 +-0.200'); the notes give each run's levels.
    A str saying why there is nothing to show."""
    from benchlog import events as ev
    from benchlog import unit_name
    sizes, cells = set(), {}
    for rid, b, status, per_copy, bound in conn.execute(
            "SELECT run_id, bytes, status, per_copy, bound FROM latency_points WHERE unit = ? ORDER BY rowid",
            (unit,)):
        sizes.add(b)
        cells[(b, rid)] = ev.figure_cell({"status": status, "per_copy": per_copy, "bound": bound})
    have = [r for r in runs if any(k[1] == r["id"] for k in cells)]
    if not have:
        return (f"no latency points stored in {unit_name(unit)} (runs with sweep=latency have them; units stored: "
                + (", ".join(u for (u,) in conn.execute("SELECT DISTINCT unit FROM latency_points")) or "none") + ")")
    header = [("size",), ("bytes",)] + [(f"R{r['id']} {r['label']}", f"M{r['machine_id']}",
                                         f"[{unit_name(unit)} per load]") for r in have]
    rows = [[memclock.size_text(b), str(b)] + [cells.get((b, r["id"]), "-") for r in have] for b in sorted(sizes)]
    notes = []
    for r in have:
        lv = conn.execute("SELECT name, cpuid_bytes, edge_bytes, per_load, ns FROM latency_levels WHERE run_id = ? "
                          "AND unit = ? ORDER BY rowid", (r["id"], unit)).fetchall()
        notes.append(f"R{r['id']} levels: " + ("; ".join(
            f"{n} {memclock.size_text(c) if c is not None else '(not in CPUID)'}: {p}" + (f" ({ns} ns)" if ns else "")
            for n, c, e, p, ns in lv) if lv else "none stored"))
    if any("-" in row[2:] for row in rows):
        notes.append("-: no point of that size in that run")
    notes.append("settings of these runs (the pages, the memory type, the prefetchers and the clock shape the curve):")
    notes += [line[2:] for line in settings_lines(conn, have)]
    return header, rows, notes

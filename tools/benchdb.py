"""tools/benchdb.py - a lab's runs in one SQLite file (Python's sqlite3).

    conn = connect("lab.sqlite", create=True)
    result = store(conn, log, source="pc12.log", label="pc12")   # log: a parsed log
    runs, machines = list_runs(conn)
    cells = figure_cells(conn, "net", unit="tsc_ticks", workload=None, method=None)

Tables (schema version SCHEMA_VERSION, in PRAGMA user_version):

  machines   one per CPU and clock: vendor, family/model/stepping, brand
             (CPUID), microcode revision (the machine record), hypervisor
             ('none' when CPUID.1:ECX[31]=0, else its vendor string) and the
             TSC rate of the first run stored (tsc_rate record: Hz, +-ppm,
             source). A run belongs to a machine whose identity fields are
             all equal and whose TSC rate agrees within the two rates' stated
             bounds (a re-measured rate moves by a few ppm; a different
             clock, e.g. QEMU's -icount, is another machine).
  runs       one per run: the kernel's run ID (run_key: the env record's
             run_id, the QR code's run line; kernel/runid.h), the digest of
             the first source's records (run_digest), a label, where it came
             from, its format, the config record and the command line, the
             end record's status and the final line, its own TSC rate, and
             when it was stored (UTC).
  sources    every source stored into a run: its digest (the same source
             stored twice is found, not duplicated), file, format, when. A
             source whose run ID is already stored is merged into that run
             (merge()): the serial log carries every figure of every series,
             the QR code the summary figures it holds; each fills what the
             run did not have yet, and a figure both carry must be equal.
  skips      the methods a run skipped, with the kernel's reason.
  series     one per (run, method, workload, unit, counter, cpu): cpu is
             the CPU's number (MADT order) in a run with cpus= other than
             boot, NULL in a run of the boot CPU only; samples per ensemble
             and ensembles.
  per_copy, verdicts, agreements
             the run's answer: code='s figures per copy, the methods'
             verdicts, their agreement (tools/benchdbanswer.py).
  events, event_checks, event_windows, event_per_copy
             the performance events of events= (tools/benchdbevents.py):
             each event's encoding, counter and pass, the on-machine
             check, each window's net and code='s figure per copy in the
             event, verified or not.
  settings, core_clocks, latency_points, latency_levels
             memory, caches and clocks (issue 31; tools/benchdbmem.py):
             every setting asked for (mem=, mem.pages=, ..., sweep=) and
             what took effect (areas, cache flush, prefetchers, clock
             MSRs taken or not), the core clock before and after, and
             sweep=latency's points and levels.
  experiments, smbios, memory_devices
             a plan run's experiments (each stored as a run of its own,
             run_key 'RUNID/NAME'), each run's SMBIOS identity and firmware,
             the DIMMs it saw (issue 32; tools/benchdbplan.py); machines
             gain the SMBIOS system's manufacturer, product and UUID and
             the board's manufacturer and product (NULL: unknown).
  summaries  the paper's figures of a series (Paoloni 2010, section 3 and
             appendix lines 139-175; the kernel's summary record): min of
             mins (the least minimum), the method's offset (min of mins of
             workload empty), net (min of mins - offset), total variance,
             variance of variances, variance of minimum values, absolute
             max deviation, spurious min values, median of medians, ensemble
             errors. Units: the series' unit (TSC ticks, core cycles,
             instructions), squared for total variance and variance of
             minimum values, to the 4th for variance of variances; spurious
             and errors count ensembles. NULL: the figure is named in
             absent (no source stored carries it: a QR code's text has no
             total variance of a workload, an output=human log no median of
             medians), else the kernel's exact arithmetic overflowed (null
             in the record). net_flag: the net's flag as the kernel marks it
             (below_zero '!', below_resolution '~', none; NULL in a run
             stored before the flags were kept).

Schema version 1 (before run IDs and sources) is upgraded in place when
opened: the run_key and absent columns and the sources table are added;
version 2 (before the answer was kept) gets the net_flag column and the
per_copy, verdicts and agreements tables (tools/benchdbanswer.py), empty
for the runs stored before; version 3 (before events=) gets the events
tables (tools/benchdbevents.py), empty for the runs stored before; version
4 (before issue 31) gets the settings and latency tables
(tools/benchdbmem.py), empty: the runs stored before have no settings,
which table and compare say rather than take them as the defaults;
version 5 (before issue 32) gets the experiments, smbios and
memory_devices tables and the machines' SMBIOS columns, NULL: its
machines' identity is unknown, never equal to a known one.

Figures are exact integers. SQLite's integers are signed 64-bit, the
kernel's figures unsigned 64-bit: a figure of 2^63 or more is stored as its
decimal text (columns without a type, so SQLite converts nothing) and read
back as an int by this module.

store() takes an already-parsed log: a tools/benchlog Log today. Another
reader (the QR code's compact text, "bench1 ...") only has to give an object
with the same attributes store() reads (valid, problems, env, config, end,
final_line, by_kind["tsc_rate"], by_kind["machine"], series, skips) and a
run_digest attribute of its own; tools/benchinput.py decides by the file's type
which reader to use.
"""
import datetime
import hashlib
import json
import os
import re
import sqlite3

import benchdbanswer
import benchdbevents
import benchdbmem
import benchdbplan
from benchlog import TSC
from benchlog import identity as smbios_identity

SCHEMA_VERSION = 6
I64_MAX = (1 << 63) - 1
RUN_KEY = re.compile(r"^[0-9a-f]{16}$")  # kernel/runid.h: 16 lower-case hex digits

SCHEMA = """
CREATE TABLE machines (
    id          INTEGER PRIMARY KEY,
    vendor      TEXT,       -- CPUID.0: GenuineIntel, AuthenticAMD, ...
    family      INTEGER,    -- CPUID.1:EAX, display family (SDM vol. 2A, CPUID)
    model       INTEGER,    -- display model
    stepping    INTEGER,
    brand       TEXT,       -- CPUID.80000002H-80000004H
    microcode   INTEGER,    -- revision (IA32_BIOS_SIGN_ID or PATCH_LEVEL); NULL: unreadable
    hypervisor  TEXT,       -- 'none', or the hypervisor's vendor string; NULL: unknown
    -- SMBIOS (DSP0134; tools/benchdbplan.py MACHINE_COLUMNS), NULL all: the identity is unknown:
    -- type 1 (System Information) Manufacturer, Product Name, UUID (as dmidecode prints it, lower
    -- case; NULL: none given); type 2 (Baseboard Information) Manufacturer, Product (an upgraded
    -- database has them last)
    sys_manufacturer TEXT, sys_product TEXT, sys_uuid TEXT, board_manufacturer TEXT, board_product TEXT,
    tsc_hz      INTEGER,    -- TSC rate [Hz] of the first run stored; NULL: unknown
    tsc_ppm     INTEGER,    -- its bound [ppm]
    tsc_source  TEXT        -- cpuid, pit, ...
);
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    machine_id  INTEGER NOT NULL REFERENCES machines(id),
    digest      TEXT NOT NULL UNIQUE,   -- run_digest() of the first source: SHA-256 of the records, hex
    run_key     TEXT UNIQUE,            -- the kernel's run ID (16 hex digits); NULL: a log before run IDs
    label       TEXT NOT NULL,
    source      TEXT,                   -- the file it was stored from
    format      TEXT NOT NULL,          -- 'serial log'
    stored_utc  TEXT NOT NULL,          -- ISO 8601, UTC
    status      TEXT,                   -- the end record's status: complete, ...
    final_line  TEXT,                   -- 'bench: run complete: ...'
    tsc_hz      INTEGER,                -- this run's TSC rate [Hz], bound [ppm], source
    tsc_ppm     INTEGER,
    tsc_source  TEXT,
    ensembles   INTEGER,                -- config: ensembles per series
    samples     INTEGER,                -- config: samples per ensemble
    warmup      INTEGER,                -- config: warm-up samples [count]
    methods     TEXT,                   -- config: methods selected
    workloads   TEXT,                   -- config: workloads selected
    output      TEXT,                   -- config: output= level
    cmdline     TEXT,                   -- the env record's command line
    config_json TEXT                    -- the whole config record
);
CREATE TABLE sources (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    digest      TEXT NOT NULL UNIQUE,   -- run_digest() of this source
    source      TEXT,                   -- the file(s) it was stored from
    format      TEXT NOT NULL,          -- 'serial log', 'QR code photo', 'QR code text'
    stored_utc  TEXT NOT NULL
);
CREATE TABLE skips (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    method      TEXT NOT NULL,
    reason      TEXT,
    PRIMARY KEY (run_id, method)
);
CREATE TABLE series (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    method      TEXT NOT NULL,
    workload    TEXT,
    unit        TEXT NOT NULL,          -- tsc_ticks, core_cycles, instructions
    counter     TEXT,                   -- NULL: the unit's only counter
    cpu         INTEGER,                -- the CPU measured (cpus=); NULL: the boot CPU, no per-CPU runs
    ensembles   INTEGER,                -- ensembles in the summary
    samples     INTEGER                 -- samples per ensemble
);
CREATE INDEX series_run ON series(run_id);
CREATE TABLE summaries (
    series_id         INTEGER PRIMARY KEY REFERENCES series(id),
    min_of_mins,          -- [unit]     exact integers; 2^63 and more as decimal text
    offset,               -- [unit]     min of mins of the method's workload empty
    net,                  -- [unit]     min_of_mins - offset (may be negative)
    total_variance,       -- [unit^2]
    var_of_vars,          -- [unit^4]
    var_of_mins,          -- [unit^2]
    max_dev_all,          -- [unit]
    spurious,             -- [ensembles]
    median_of_medians,    -- [unit]
    errors,               -- [ensembles]
    absent      TEXT,     -- the figures no source stored carries, space-separated; NULL: none
    net_flag    TEXT      -- net's flag: below_zero, below_resolution, none; NULL: stored before flags
);
""" + benchdbanswer.TABLES + benchdbevents.TABLES + benchdbmem.TABLES + \
    benchdbplan.TABLES

# Schema version 1 -> 2: run IDs, the sources, what a source does not carry.
UPGRADE_1 = """
ALTER TABLE runs ADD COLUMN run_key TEXT;
CREATE UNIQUE INDEX runs_run_key ON runs(run_key);
CREATE TABLE sources (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    digest      TEXT NOT NULL UNIQUE,
    source      TEXT,
    format      TEXT NOT NULL,
    stored_utc  TEXT NOT NULL
);
INSERT INTO sources (run_id, digest, source, format, stored_utc)
    SELECT id, digest, source, format, stored_utc FROM runs;
ALTER TABLE summaries ADD COLUMN absent TEXT;
"""

# The figures of a summary: column -> (what it is, power of the unit).
# Power 0: a count of ensembles.
FIGURES = {
    "net": ("net least minimum (min of mins - the method's offset)", 1),
    "min_of_mins": ("least minimum (min of mins)", 1),
    "offset": ("offset (min of mins of workload empty)", 1),
    "total_variance": ("total variance", 2),
    "var_of_vars": ("variance of variances", 4),
    "var_of_mins": ("variance of minimum values", 2),
    "max_dev_all": ("absolute max deviation", 1),
    "spurious": ("spurious min values", 0),
    "median_of_medians": ("median of medians", 1),
    "errors": ("ensemble errors", 0),
}


class DbError(Exception):
    """The database cannot be used (not SQLite, another schema, missing)."""


class Refused(Exception):
    """A log that must not be stored: invalid (tools/benchlog found
    problems: invalid is True), without an env record, or in a format not
    read yet."""

    def __init__(self, text, invalid=False):
        super().__init__(text)
        self.invalid = invalid


class Stored:
    """What store() did: run_id and machine_id; duplicate is True when the
    run was already there (then nothing was written); new_machine when its
    machine was added; series: how many series were stored; merged when
    the source was merged into a run of the same run ID (merge())."""

    def __init__(self, run_id, machine_id, label, duplicate=False, new_machine=False, series=0,
                 source=None, stored_utc=None, merged=False):
        self.run_id, self.machine_id, self.label = run_id, machine_id, label
        self.merged = merged
        self.duplicate, self.new_machine, self.series = duplicate, new_machine, series
        self.source, self.stored_utc = source, stored_utc


# --- the database -----------------------------------------------------------------

def connect(path, create=False):
    """Open a lab database; with create, make it (and its schema) when it
    does not exist. Raises DbError with a clear message otherwise."""
    if not create and not os.path.isfile(path):
        raise DbError(f"{path}: no such database (tools/bench.py store LOG --db {path} makes it)")
    try:
        conn = sqlite3.connect(path, isolation_level=None)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as e:
        raise DbError(f"{path}: cannot be used as an SQLite database ({e})")
    if version == 0 and not tables:
        if not create:
            raise DbError(f"{path}: an empty database, no runs stored yet")
        conn.executescript("BEGIN IMMEDIATE;\n" + SCHEMA +
                           f"PRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;\n")
    elif version in (1, 2, 3, 4, 5) and "runs" in tables:  # upgraded in place: its runs keep what they had
        conn.executescript("BEGIN IMMEDIATE;\n" + (UPGRADE_1 if version == 1 else "") +
                           (benchdbanswer.UPGRADE_2 if version <= 2 else "") +
                           (benchdbevents.UPGRADE_3 if version <= 3 else "") +
                           (benchdbmem.UPGRADE_4 if version <= 4 else "") + benchdbplan.UPGRADE_5 +
                           f"PRAGMA user_version = {SCHEMA_VERSION};\nCOMMIT;\n")
    elif version != SCHEMA_VERSION or "runs" not in tables:
        conn.close()
        raise DbError(f"{path}: not a bench lab database of schema version {SCHEMA_VERSION} "
                      f"(user_version {version}, tables {sorted(tables) or 'none'})")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def to_db(v):
    """An exact figure as SQLite holds it: ints beyond signed 64 bits as
    decimal text; None stays NULL."""
    if isinstance(v, bool) or v is None:
        return None if v is None else int(v)
    if isinstance(v, int) and not -I64_MAX - 1 <= v <= I64_MAX:
        return str(v)
    return v


def from_db(v):
    """The inverse of to_db: decimal text back to an int (other text, e.g.
    net_flag's, stays text)."""
    return int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v


# --- what a log says ----------------------------------------------------------------

def run_digest(log):
    """SHA-256 (hex) of what identifies a run: every record between the
    markers, re-serialized canonically (sorted keys; noise a capture adds
    before a record or between lines does not count), the paper-format and
    human summary lines (an output=human log has few records), and the final
    line. A reader of another format gives its own run_digest attribute."""
    own = getattr(log, "run_digest", None)
    if own:
        return own
    h = hashlib.sha256()
    for _, rec in log.records:
        h.update(json.dumps(rec, sort_keys=True, separators=(",", ":"), default=str).encode())
        h.update(b"\n")
    for lines in log.paper.values():
        for _, text in lines:
            h.update(text.encode() + b"\n")
    for _, match in log.human.values():
        h.update(match.group(0).encode() + b"\n")
    h.update((log.final_line or "").encode())
    return h.hexdigest()


def tsc_rate(log):
    """(hz, ppm, source) of the tsc_rate record, or (None, None, None) when
    the rate is unknown (hz 0) or not in the log."""
    recs = log.by_kind.get("tsc_rate") or []
    r = recs[0][1] if recs else {}
    hz = r.get("hz")
    if isinstance(hz, int) and not isinstance(hz, bool) and hz > 0:
        return hz, r.get("ppm"), r.get("source")
    return None, None, None


def machine_identity(log):
    """The machines columns for a log's env, machine, tsc_rate and smbios
    records (the SMBIOS columns None where the log has no SMBIOS: unknown)."""
    e = log.env or {}
    recs = log.by_kind.get("machine") or []
    mc = recs[0][1].get("microcode") if recs else None
    hv = e.get("hypervisor")
    hyper = "none" if hv == 0 else (e.get("hypervisor_vendor") or "unknown vendor") if hv else None
    hz, ppm, source = tsc_rate(log)
    return {"vendor": e.get("vendor"), "family": e.get("family"), "model": e.get("model"),
            "stepping": e.get("stepping"), "brand": e.get("brand"),
            "microcode": mc if isinstance(mc, int) else None, "hypervisor": hyper,
            "tsc_hz": hz, "tsc_ppm": ppm, "tsc_source": source,
            **(smbios_identity.identity(log) or dict.fromkeys(benchdbplan.MACHINE_COLUMNS))}


# What a machine is: its CPU (CPUID), microcode, hypervisor, and its SMBIOS
# system and board (benchdbplan.MACHINE_COLUMNS; all NULL: unknown, which
# only an unknown identity matches: never one that is known).
IDENTITY = ("vendor", "family", "model", "stepping", "brand", "microcode", "hypervisor") + \
    benchdbplan.MACHINE_COLUMNS


def same_rate(hz_a, ppm_a, hz_b, ppm_b):
    """Whether two TSC rates [Hz] agree within the sum of their bounds
    [ppm]; two unknown rates agree, a known and an unknown do not."""
    if hz_a is None or hz_b is None:
        return hz_a is None and hz_b is None
    bound = ((ppm_a or 0) + (ppm_b or 0)) * max(hz_a, hz_b)
    return abs(hz_a - hz_b) * 1_000_000 <= bound


def find_machine(conn, ident):
    """The id of the stored machine with this identity, or None."""
    where = " AND ".join(f"{k} IS ?" for k in IDENTITY)
    for mid, hz, ppm in conn.execute(f"SELECT id, tsc_hz, tsc_ppm FROM machines WHERE {where} "
                                     "ORDER BY id", [ident[k] for k in IDENTITY]):
        if same_rate(hz, ppm, ident["tsc_hz"], ident["tsc_ppm"]):
            return mid
    return None


def series_figures(log, s):
    """(the summaries columns of a series, the set of those the log does not
    carry): its summary record's figures (or those recomputed from its
    ensembles), net from the record or as min of mins minus the min of mins
    of the method's workload empty. A figure the record has as null (an
    overflow) is carried; one it lacks (a QR code's text carries no total
    variance of a workload) is not."""
    f, _ = s.figures()
    mins = f.get("min_of_mins")
    offset, net = f.get("offset"), f.get("net_min")
    if offset is None:
        empty = log.series.get((s.method, "empty", s.unit, s.counter, s.cpu))
        if empty is not None and (empty.summary or empty.ensembles):
            offset = empty.figures()[0].get("min_of_mins")
    if net is None and isinstance(mins, int) and isinstance(offset, int):
        net = mins - offset
    out = {"min_of_mins": mins, "offset": offset, "net": net}
    for k in ("total_variance", "var_of_vars", "var_of_mins", "max_dev_all", "spurious",
              "median_of_medians", "errors"):
        out[k] = f.get(k)
    out["net_flag"] = benchdbanswer.net_flag_of(log, s, net)
    absent = {k for k, v in out.items() if v is None and (k in ("offset", "net", "net_flag") or k not in f)}
    return out, absent


def run_key(log):
    """The kernel's run ID of a log (the env record's run_id, or the QR
    code's run line), or None for a log before run IDs; an experiment's log
    of a plan run (tools/benchlog/plan.py): 'RUNID/NAME' (its name is
    unique in the plan), so each experiment is a run of its own and another
    source of the same boot merges into the experiment of its name."""
    v = (log.env or {}).get("run_id")
    if not (isinstance(v, str) and RUN_KEY.match(v)):
        return None
    x = getattr(log, "experiment", None)
    return f"{v}/{x.name}" if x is not None else v


def refusal(log):
    """Why a log must not be stored, or None."""
    if not log.valid:
        first = log.problems[0]
        where = f"line {first.line}" if first.line else "the whole log"
        return (f"the log is not valid: first problem at {where}: {first.text} "
                f"({len(log.problems)} problem(s))")
    if not log.env:
        return "no env record: the machine cannot be identified"
    return None


# --- storing ------------------------------------------------------------------------

def store(conn, log, source=None, label=None, fmt="serial log"):
    """Store one parsed log in one transaction; returns a Stored. Raises
    Refused (nothing written) when the log is not valid (the first problem,
    with its line number) or lacks an env record; a source whose digest is
    already stored is not stored again (Stored.duplicate); a source whose
    run ID (env run_id) is already stored is merged into that run (merge(),
    Stored.merged). Any error while writing rolls the whole run back."""
    why = refusal(log)
    if why:
        raise Refused(why, invalid=not log.valid)
    digest = run_digest(log)
    key = run_key(log)
    label = label or (os.path.splitext(os.path.basename(source))[0] if source else "run")
    conn.execute("BEGIN IMMEDIATE")
    try:
        old = conn.execute("SELECT r.id, r.machine_id, r.label, s.source, s.stored_utc FROM sources s "
                           "JOIN runs r ON r.id = s.run_id WHERE s.digest = ?", (digest,)).fetchone()
        if old:
            conn.execute("ROLLBACK")
            return Stored(old[0], old[1], old[2], duplicate=True, source=old[3], stored_utc=old[4])
        same = key and conn.execute("SELECT id FROM runs WHERE run_key = ?", (key,)).fetchone()
        if same:
            result = merge(conn, same[0], log, digest, source, fmt)
        else:
            result = _insert(conn, log, digest, source, label, fmt)
        conn.execute("COMMIT")
        return result
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def store_experiments(conn, log, source=None, label=None, fmt="serial log"):
    """Store each experiment of a plan run's log (log.experiments,
    tools/benchlog/plan.py; a QR text's, benchdbplan.qr_experiments) as a run of its own (store(): run_key
    'RUNID/NAME', label 'LABEL/NAME'), each in its own transaction; returns
    [(Experiment, Stored, None (skipped: nothing to store) or the Refused
    of that experiment)]. Raises Refused (nothing written) when the plan log
    is not valid or lacks an env record."""
    why = refusal(log)
    if why:
        raise Refused(why, invalid=not log.valid)
    label = label or (os.path.splitext(os.path.basename(source))[0] if source else "run")
    out = []
    for x in log.experiments or benchdbplan.qr_experiments(conn, log):  # a plan's QR text: its x and xa lines
        try:
            out.append((x, store(conn, x.log, source=source, label=f"{label}/{x.name}", fmt=fmt) if x.log else None))
        except Refused as e:  # this experiment only (its own transaction): the others are stored
            out.append((x, e))
    return out


def _insert(conn, log, digest, source, label, fmt):
    ident = machine_identity(log)
    mid = find_machine(conn, ident)
    new = mid is None
    if new:
        cols = list(ident)
        mid = conn.execute(f"INSERT INTO machines ({', '.join(cols)}) VALUES "
                           f"({', '.join('?' * len(cols))})", [ident[k] for k in cols]).lastrowid
    cfg, env, end = log.config or {}, log.env or {}, log.end or {}
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    run = {"machine_id": mid, "digest": digest, "run_key": run_key(log), "label": label,
           "source": source, "format": fmt, "stored_utc": now,
           "status": end.get("status"), "final_line": log.final_line,
           "tsc_hz": ident["tsc_hz"], "tsc_ppm": ident["tsc_ppm"], "tsc_source": ident["tsc_source"],
           "ensembles": cfg.get("ensembles"), "samples": cfg.get("samples"),
           "warmup": cfg.get("warmup"), "methods": cfg.get("methods"),
           "workloads": cfg.get("workloads"), "output": cfg.get("output"),
           "cmdline": env.get("cmdline"),
           "config_json": json.dumps(cfg, sort_keys=True, default=str) if cfg else None}
    rid = conn.execute(f"INSERT INTO runs ({', '.join(run)}) VALUES ({', '.join('?' * len(run))})",
                       [to_db(v) for v in run.values()]).lastrowid
    conn.execute("INSERT INTO sources (run_id, digest, source, format, stored_utc) VALUES (?, ?, ?, ?, ?)",
                 (rid, digest, source, fmt, now))
    for method, reason in skip_reasons(log):
        conn.execute("INSERT INTO skips (run_id, method, reason) VALUES (?, ?, ?)", (rid, method, reason))
    n = sum(1 for s in log.series.values() if (s.summary or s.ensembles) and _add_series(conn, rid, log, s))
    benchdbanswer.store_answer(conn, rid, log)
    benchdbevents.store_events(conn, rid, log)
    benchdbmem.store_mem(conn, rid, log)
    benchdbanswer.store_answer(conn, rid, log, rows=benchdbplan.plan_rows(log))
    return Stored(rid, mid, label, new_machine=new, series=n, source=source, stored_utc=now)


def skip_reasons(log):
    """(method, reason) of each method the log skipped; per-CPU runs: the
    CPUs it was skipped on when not all."""
    for method, (_, reason) in log.skips.items():
        on = [n for (n, m) in getattr(log, "cpu_skips", {}) if m == method and n is not None]
        if on and len(on) < len(log.cpu_order):  # per-CPU runs: skipped on some CPUs only
            reason += f" (on CPU {', '.join(map(str, on))} only)"
        yield method, reason


def _add_series(conn, rid, log, s):
    """Insert series s of log into run rid, with its figures; returns True."""
    f, absent = series_figures(log, s)
    cpu = s.cpu
    sid = conn.execute("INSERT INTO series (run_id, method, workload, unit, counter, cpu, "
                       "ensembles, samples) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (rid, s.method, s.workload, s.unit, s.counter,
                        cpu if isinstance(cpu, int) else None,
                        s.figures()[0].get("ensembles", len(s.ensembles)), s.samples)).lastrowid
    conn.execute(f"INSERT INTO summaries (series_id, {', '.join(f)}, absent) VALUES "
                 f"(?, {', '.join('?' * len(f))}, ?)",
                 [sid] + [to_db(v) for v in f.values()] + [" ".join(sorted(absent)) or None])
    return True


# Runs columns a merged source fills where the run has none yet.
FILLED = ("status", "final_line", "tsc_hz", "tsc_ppm", "tsc_source", "ensembles", "samples", "warmup",
          "methods", "workloads", "output", "cmdline", "config_json")
# What a QR code says for a skip's reason (tools/benchqr.py): the serial log's replaces it.
QR_REASON = "skipped (the reason is in the serial log"


def merge(conn, rid, log, digest, source, fmt):
    """Merge a source of a run already stored (the same run ID) into run
    rid, inside the caller's transaction: each figure the run lacks (NULL
    and named in absent) that this source carries is filled in; series
    and skips the run lacks are added; the run's columns it lacks (FILLED)
    are filled; the source is added to its sources. Raises Refused when
    the source's machine or a figure both carry differs (another run
    under the same ID?): nothing is written. Returns a Stored with merged
    True and series the number of series added or completed."""
    r = conn.execute("SELECT machine_id, label, source, format FROM runs WHERE id = ?", (rid,)).fetchone()
    mid, label, old_source, old_fmt = r
    ident = machine_identity(log)
    m = conn.execute(f"SELECT {', '.join(IDENTITY[:4])} FROM machines WHERE id = ?", (mid,)).fetchone()
    for k, v in zip(IDENTITY[:4], m):
        if ident[k] is not None and v is not None and ident[k] != v:
            raise Refused(f"run ID {run_key(log)} is already stored as run R{rid} on machine M{mid}, "
                          f"whose {k} is {v}, this source's {ident[k]}: not merged")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    n = 0
    for s in log.series.values():
        if not (s.summary or s.ensembles):
            continue
        row = conn.execute("SELECT s.id, su.absent FROM series s JOIN summaries su ON su.series_id = s.id "
                           "WHERE s.run_id = ? AND s.method = ? AND s.workload IS ? AND s.unit = ? AND "
                           "s.counter IS ? AND s.cpu IS ?",
                           (rid, s.method, s.workload, s.unit, s.counter,
                            s.cpu if isinstance(s.cpu, int) else None)).fetchone()
        if row is None:
            n += _add_series(conn, rid, log, s)
            continue
        sid, had = row[0], set((row[1] or "").split())
        f, absent = series_figures(log, s)
        stored = dict(zip(f, (from_db(v) for v in conn.execute(
            f"SELECT {', '.join(f)} FROM summaries WHERE series_id = ?", (sid,)).fetchone())))
        if stored.get("net_flag") is None:  # a run stored before the flags were kept
            had.add("net_flag")
        fill = {k: v for k, v in f.items() if k in had and k not in absent}
        for k, v in f.items():
            if k not in had and k not in absent and stored[k] != v:
                raise Refused(f"run ID {run_key(log)} is already stored as run R{rid}, but its {k} of "
                              f"{s.name} is {stored[k]} there and {v} in this source: not merged")
        if fill:
            left = " ".join(sorted(had - set(fill))) or None
            conn.execute(f"UPDATE summaries SET {', '.join(k + ' = ?' for k in fill)}, absent = ? "
                         "WHERE series_id = ?", [to_db(v) for v in fill.values()] + [left, sid])
            n += 1
        if s.ensembles or s.summary:
            conn.execute("UPDATE series SET ensembles = COALESCE(ensembles, ?), samples = COALESCE(samples, ?) "
                         "WHERE id = ?", (s.figures()[0].get("ensembles", len(s.ensembles)) or None,
                                          s.samples, sid))
    for method, reason in skip_reasons(log):
        conn.execute("INSERT INTO skips (run_id, method, reason) VALUES (?, ?, ?) ON CONFLICT (run_id, method) "
                     "DO UPDATE SET reason = excluded.reason WHERE skips.reason LIKE ?",
                     (rid, method, reason, QR_REASON + "%"))
    cfg, env, end = log.config or {}, log.env or {}, log.end or {}
    new = {"status": end.get("status"), "final_line": log.final_line, "tsc_hz": ident["tsc_hz"],
           "tsc_ppm": ident["tsc_ppm"], "tsc_source": ident["tsc_source"],
           "ensembles": cfg.get("ensembles"), "samples": cfg.get("samples"), "warmup": cfg.get("warmup"),
           "methods": cfg.get("methods"), "workloads": cfg.get("workloads"), "output": cfg.get("output"),
           "cmdline": env.get("cmdline"),
           "config_json": json.dumps(cfg, sort_keys=True, default=str) if cfg else None}
    conn.execute(f"UPDATE runs SET {', '.join(f'{k} = COALESCE({k}, ?)' for k in FILLED)}, source = ?, "
                 "format = ? WHERE id = ?", [to_db(new[k]) for k in FILLED] +
                 [f"{old_source}, {source}", " + ".join(dict.fromkeys(old_fmt.split(" + ") + [fmt])), rid])
    try:
        n += benchdbanswer.store_answer(conn, rid, log)
        n += benchdbevents.store_events(conn, rid, log)
        n += benchdbmem.store_mem(conn, rid, log)
        n += benchdbanswer.store_answer(conn, rid, log, rows=benchdbplan.plan_rows(log))
    except benchdbanswer.Conflict as e:
        raise Refused(f"run ID {run_key(log)} is already stored as run R{rid}, but {e}: not merged")
    conn.execute("INSERT INTO sources (run_id, digest, source, format, stored_utc) VALUES (?, ?, ?, ?, ?)",
                 (rid, digest, source, fmt, now))
    return Stored(rid, mid, label, series=n, source=source, stored_utc=now, merged=True)


# --- reading --------------------------------------------------------------------------

def machine_text(m):
    """One line describing a machines row (a dict)."""
    def hx(v):
        return f"0x{v:x}" if isinstance(v, int) else "?"
    mc = f"microcode {hx(m['microcode'])}" if m["microcode"] is not None else "microcode unreadable"
    hv = ("no hypervisor" if m["hypervisor"] == "none" else
          f"hypervisor {m['hypervisor']}" if m["hypervisor"] else "hypervisor unknown")
    return (f"{m['vendor'] or '?'} family {hx(m['family'])} model {hx(m['model'])} stepping "
            f"{m['stepping'] if m['stepping'] is not None else '?'}, \"{m['brand'] or '?'}\", {mc}, "
            f"{hv}, TSC {rate_text(m['tsc_hz'], m['tsc_ppm'], m['tsc_source'])}; "
            f"{benchdbplan.identity_text(m)}")


def rate_text(hz, ppm, source):
    if hz is None:
        return "rate unknown"
    return f"{hz / 1e6:.3f} MHz +-{ppm if ppm is not None else '?'} ppm ({source or '?'})"


def list_runs(conn):
    """([run dicts], {machine id: machine dict}), runs in the order stored."""
    conn.row_factory = sqlite3.Row
    try:
        runs = [dict(r) for r in conn.execute("SELECT * FROM runs ORDER BY id")]
        machines = {r["id"]: dict(r) for r in conn.execute("SELECT * FROM machines ORDER BY id")}
        for r in runs:
            r["skips"] = {m: why for m, why in conn.execute(
                "SELECT method, reason FROM skips WHERE run_id = ?", (r["id"],))}
    finally:
        conn.row_factory = None
    return runs, machines


class NotInSource:
    """A figure no source of the run carries (summaries.absent)."""

    def __str__(self):
        return "not in this source"

    __repr__ = __str__


NOT_IN_SOURCE = NotInSource()


def figure_cells(conn, figure, unit=TSC, workload=None, method=None):
    """(rows, cells): rows are (method, workload, counter, cpu) in the order
    first stored; cells[(row, run_id)] is the figure: an int, None where it
    overflowed, NOT_IN_SOURCE where no source stored carries it."""
    if figure not in FIGURES:
        raise ValueError(f"unknown figure {figure!r}")
    where, args = ["s.unit = ?"], [unit]
    if workload:
        where.append("s.workload = ?")
        args.append(workload)
    if method:
        where.append("s.method = ?")
        args.append(method)
    rows, cells = {}, {}
    for run_id, m, w, counter, cpu, value, absent in conn.execute(
            f"SELECT s.run_id, s.method, s.workload, s.counter, s.cpu, su.{figure}, su.absent FROM series s "
            f"JOIN summaries su ON su.series_id = s.id WHERE {' AND '.join(where)} ORDER BY s.id",
            args):
        row = (m, w, counter, cpu)
        rows.setdefault(row, None)
        cells[(row, run_id)] = (NOT_IN_SOURCE if value is None and figure in (absent or "").split()
                                else from_db(value))
    return list(rows), cells


def units(conn):
    """The units stored, TSC ticks first."""
    us = [u for (u,) in conn.execute("SELECT DISTINCT unit FROM series ORDER BY unit")]
    return sorted(us, key=lambda u: (u != TSC, u))


# --- the figure -----------------------------------------------------------------------

def run_name(run):
    """'R2 pc12 (M1)': the run's id, label and machine, as tables and
    figures name a column."""
    return f"R{run['id']} {run['label']} (M{run['machine_id']})"


def absent_text(run, method):
    """What a table shows where a run has no such series."""
    return "skipped" if method in run["skips"] else "-"


def plot(conn, path, figure="net", unit=TSC, workload=None, method=None):
    """One PNG comparing the stored runs (matplotlib, Agg): a panel per
    method, in it a group of bars per workload, one bar per run (colour and
    legend: run, label, machine and its brand), the figure in its unit on the
    y axis. With figure net, workload empty is left out (its net is 0 by
    definition), and a flagged net (benchdbanswer.net_flags) is marked as
    the end screen marks it: its label '-20!' (below zero) or '0~' (below
    the resolution), its bar hatched and pale, the marks' meaning under
    the title. Returns (bars drawn, {flag: bars marked}). Raises
    benchplot.NoMatplotlib when matplotlib is missing, DbError when nothing
    matches."""
    import benchanswer
    import benchplot
    from benchlog import unit_name
    runs, machines = list_runs(conn)
    rows, cells = figure_cells(conn, figure, unit, workload, method)
    flags = benchdbanswer.net_flags(conn, unit) if figure == "net" else {}
    marked = {}
    if figure == "net":
        rows = [r for r in rows if r[1] != "empty"]
    if not rows:
        raise DbError(f"nothing to plot: no series in {unit_name(unit)}" +
                      (f", workload {workload}" if workload else "") +
                      (f", method {method}" if method else "") + " in the database")
    plt = benchplot.pyplot()
    what, power = FIGURES[figure]
    methods = list(dict.fromkeys(r[0] for r in rows))
    per = max(sum(1 for r in rows if r[0] == m) for m in methods)
    width = 0.8 / len(runs)
    fig, axes = plt.subplots(len(methods), 1, squeeze=False,
                             figsize=(max(8.0, 1.0 + per * (0.5 + 0.25 * len(runs))),
                                      1.0 + 3.2 * len(methods)))
    bars = 0
    for ax, m in zip(axes[:, 0], methods):
        mrows = [r for r in rows if r[0] == m]
        values = []
        for i, run in enumerate(runs):
            xs, hs, fl = [], [], []
            for k, r in enumerate(mrows):
                x = k + (i - (len(runs) - 1) / 2) * width
                v = cells.get((r, run["id"]))
                if isinstance(v, int):
                    xs.append(x)
                    hs.append(v)
                    fl.append(flags.get((r, run["id"])))
                else:
                    note = (absent_text(run, m) if (r, run["id"]) not in cells else
                            "not in source" if v is NOT_IN_SOURCE else "n/a")
                    ax.text(x, 0, "not run" if note == "-" else note, rotation=90, ha="center",
                            va="bottom", fontsize=7, color="tab:gray")
            brand = machines[run["machine_id"]]["brand"] or "?"
            drawn = ax.bar(xs, hs, width, color=f"C{i % 10}", label=f"{run_name(run)}: {brand}")
            for patch, flag in zip(drawn.patches, fl):
                if flag:
                    patch.set_hatch("///")
                    patch.set_alpha(0.45)
                    marked[flag] = marked.get(flag, 0) + 1
            ax.bar_label(drawn, labels=[benchanswer.net_cell(h, f) for h, f in zip(hs, fl)], fontsize=6,
                         rotation=90, padding=2)
            values += hs
            bars += len(hs)
        ax.set_xticks(range(len(mrows)))
        ax.set_xticklabels([row_name(r) for r in mrows], rotation=15, ha="right")
        ax.set_ylabel(benchplot._scale(ax, values, f"{what.split(' (')[0]} [{unit_name(unit, power)}]"
                                       if power else f"{what} [ensembles]"))
        ax.set_title(f"method {m}")
        ax.axhline(0, color="black", lw=0.6)
        ax.margins(y=0.12)
    legend = "; ".join(benchanswer.MARK_LEGEND[f].split(" (")[0] + ("" if f == "below_zero" else ": not a duration")
                       for f in benchanswer.MARKS if f in marked)
    finish_plot(plt, fig, path, runs, machines, f"{what[0].upper() + what[1:]} per workload: "
                f"{runs_on(runs, machines)}", f"hatched bars, marked: {legend}" if legend else None)
    return bars, marked


def finish_plot(plt, fig, path, runs, machines, title, note=None):
    """The runs' legend (their colours, unhatched whatever their first
    bar) above the panels, the title, the hatched bars' note under them
    (None: none hatched); the PNG written to path."""
    top = 1 - (0.35 + 0.18 * ((len(runs) + 1) // 2)) / fig.get_figheight()
    from matplotlib.patches import Patch
    handles = [Patch(color=f"C{i % 10}", label=f"{run_name(run)}: {machines[run['machine_id']]['brand'] or '?'}")
               for i, run in enumerate(runs)]
    fig.legend(handles=handles, loc="upper center", ncol=2, fontsize=7,
               bbox_to_anchor=(0.5, top + (0.05 + 0.18 * ((len(runs) + 1) // 2)) / fig.get_figheight()))
    fig.suptitle(title)
    bottom = 0
    if note:  # the marks' meaning, as the end screen's note gives it
        fig.text(0.5, 0.01, note, ha="center", va="bottom", fontsize=8)
        bottom = 0.35 / fig.get_figheight()
    fig.tight_layout(rect=(0, bottom, 1, top))
    fig.savefig(path)
    plt.close(fig)


def runs_on(runs, machines):
    """'3 runs on 2 machines'."""
    return (f"{len(runs)} run{'s' if len(runs) != 1 else ''} on {len(machines)} "
            f"machine{'s' if len(machines) != 1 else ''}")


def row_name(row):
    """'workload' plus ', counter X' and ', cpu N' where they are set."""
    _, w, counter, cpu = row
    return (w or "-") + (f", counter {counter}" if counter else "") + \
        (f", cpu {cpu}" if cpu is not None else "")

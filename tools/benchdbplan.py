"""tools/benchdbplan.py - plans and the machine's identity (issue 32) in a
lab's database (tools/benchdb.py holds the rest): each experiment of a
plan run stored as its own run, with its name, index, the plan file and
its line; each run's SMBIOS identity and firmware; the memory devices
(DIMMs) each run saw; the machines told apart by their SMBIOS system and
board as well as their CPU (benchdb.IDENTITY).

Tables (schema version 6; a database of an older version gets them, empty,
and the machines' SMBIOS columns, NULL, when opened: the machines stored
before have an unknown identity, never taken as equal to a known one):

  experiments     one per run that is an experiment of a plan run: the
                  boot's run ID (boot_key; runs.run_key is 'RUNID/NAME', so
                  the same experiment of the same boot is stored once, and
                  another source of that boot merges into the experiment of
                  its name), name, idx (1-based) of of_n, the plan file
                  (file, source efi/module, bytes, CRC-32, defaults), its
                  line in the file and its words, the experiment_end's
                  status (complete, faulted), why, methods run and skipped,
                  ensemble errors, code faults.
  smbios          one per run: the smbios record (DSP0134's fields: entry
                  point, source, version, structures; type 1 version, SKU,
                  family, serial (NULL unless identity=full); type 2
                  version, serial; type 0 BIOS vendor, version, release
                  date: the run's firmware; type 4 socket and speeds [MHz];
                  the problem line) and the env's system, board, bios texts.
  memory_devices  one per (run, handle): a populated type 17 structure:
                  locator, bank, size [bytes], type, speed and configured
                  speed [MT/s], manufacturer, part, serial.

    benchdbanswer.store_answer(conn, run_id, log, rows=plan_rows(log))  # in the caller's transaction
    machine_lines(conn, machine_id)      # the identity, firmware, DIMMs of a machine, in words
    identity_text(m)                     # a machines row's SMBIOS identity
    experiment_table(conn, unit, runs, machines, name)  # table --figure per_copy --by machine
"""
import benchanswer
import benchdbanswer
from benchlog import identity as ident

# The machines columns of the SMBIOS identity (benchdb.IDENTITY adds them; its CREATE TABLE
# machines names them).
MACHINE_COLUMNS = tuple(col for col, _ in ident.IDENTITY)

TABLES = """
CREATE TABLE experiments (
    run_id          INTEGER PRIMARY KEY REFERENCES runs(id),
    boot_key        TEXT,               -- the boot's run ID (16 hex digits); runs.run_key is boot_key/name
    name            TEXT NOT NULL,      -- the plan line's NAME
    idx             INTEGER,            -- 1-based, in the plan's order
    of_n            INTEGER,            -- experiments in the plan
    plan_file       TEXT,               -- plan.txt
    plan_source     TEXT,               -- efi, module
    plan_bytes      INTEGER,            -- [bytes]
    plan_crc32      TEXT,               -- 0x........
    plan_defaults   TEXT,               -- the defaults line's words
    line            INTEGER,            -- its line in the plan file
    words           TEXT,               -- its words: code=480fafc0 unroll=100
    status          TEXT,               -- complete, faulted
    why             TEXT,
    methods_run     INTEGER,
    methods_skipped INTEGER,
    ensemble_errors INTEGER,
    code_faults     INTEGER
);
CREATE TABLE smbios (
    run_id          INTEGER NOT NULL REFERENCES runs(id),
    entry           TEXT,               -- the entry point: 2.1, 3.0
    source          TEXT,               -- efi (the configuration table), scan (F0000H-FFFFFH)
    version         TEXT,               -- 3.0.0
    structures      INTEGER,
    table_phys      TEXT,
    table_bytes     INTEGER,
    sys_version     TEXT,               -- type 1 (System Information)
    sys_sku         TEXT,
    sys_family      TEXT,
    sys_serial      TEXT,               -- NULL unless identity=full
    board_version   TEXT,               -- type 2 (Baseboard Information)
    board_serial    TEXT,
    bios_vendor     TEXT,               -- type 0 (BIOS Information): the run's firmware
    bios_version    TEXT,
    bios_date       TEXT,               -- BIOS Release Date, as the table gives it (mm/dd/yyyy)
    cpu_socket      TEXT,               -- type 4 (Processor Information)
    cpu_current_mhz INTEGER,            -- [MHz]
    cpu_max_mhz     INTEGER,            -- [MHz]
    problem         TEXT,               -- the one line about a malformed table; NULL: none
    system          TEXT,               -- the env record's texts
    board           TEXT,
    bios            TEXT
);
CREATE TABLE memory_devices (
    run_id               INTEGER NOT NULL REFERENCES runs(id),
    handle               TEXT,          -- 0x0036
    locator              TEXT,          -- DIMM 0
    bank                 TEXT,
    size_bytes           INTEGER,       -- [bytes]
    type                 TEXT,          -- DDR4, ...
    speed_mts            INTEGER,       -- [MT/s]
    configured_speed_mts INTEGER,       -- [MT/s]
    manufacturer         TEXT,
    part                 TEXT,
    serial               TEXT           -- NULL unless identity=full
);
"""
# Schema version 5 -> 6.
UPGRADE_5 = "".join(f"ALTER TABLE machines ADD COLUMN {c} TEXT;\n" for c in MACHINE_COLUMNS) + TABLES

SMBIOS = ("entry", "source", "version", "structures", "table_phys", "table_bytes", "sys_version", "sys_sku",
          "sys_family", "sys_serial", "board_version", "board_serial") + ident.FIRMWARE + (
          "cpu_socket", "cpu_current_mhz", "cpu_max_mhz", "problem")
DEVICE = ("locator", "bank", "size_bytes", "type", "speed_mts", "configured_speed_mts", "manufacturer", "part",
          "serial")
END = ("status", "why", "methods_run", "methods_skipped", "ensemble_errors", "code_faults")


def plan_rows(log):
    """[(table, key columns, value columns)] of what log says of its
    experiment (log.experiment: tools/benchlog/plan.py), its identity and
    its memory devices."""
    out = []
    x = getattr(log, "experiment", None)
    if x is not None:
        plan = (log.by_kind.get("plan") or [(None, {})])[0][1]
        vals = {"boot_key": (log.env or {}).get("run_id"), "idx": x.index, "of_n": x.rec.get("of"),
                "plan_file": plan.get("file"), "plan_source": plan.get("source"), "plan_bytes": plan.get("bytes"),
                "plan_crc32": plan.get("crc32"), "plan_defaults": plan.get("defaults"), "line": x.rec.get("line"),
                "words": x.rec.get("words")}
        vals.update({k: benchdbanswer._sql((x.end or {}).get(k)) for k in END})
        out.append(("experiments", {"name": x.name}, vals))
    r = ident.smbios(log)
    env = log.env or {}
    if r is not None or any(env.get(k) for k in ("system", "board", "bios")):
        vals = {k: (r or {}).get(k) for k in SMBIOS}
        vals.update({k: env.get(k) for k in ("system", "board", "bios")})
        # keyed by the env's system text, which a QR code's sys line carries too: it merges into the row
        out.append(("smbios", {"system": vals.pop("system")}, vals))
    for d in ident.memory_devices(log):
        out.append(("memory_devices", {"handle": d.get("handle")}, {k: d.get(k) for k in DEVICE}))
    return out


def identity_text(m):
    """A machines row's (a dict) SMBIOS identity: 'system QEMU Standard PC
    (...), UUID ...; board QEMU Q35', or that it is unknown."""
    if not any(m.get(c) for c in MACHINE_COLUMNS):
        return "SMBIOS identity unknown (a log without SMBIOS: not the same as any machine with one)"
    system = " ".join(m[c] for c in ("sys_manufacturer", "sys_product") if m.get(c)) or "not given"
    board = " ".join(m[c] for c in ("board_manufacturer", "board_product") if m.get(c)) or "not given"
    return f"system {system}" + (f", UUID {m['sys_uuid']}" if m.get("sys_uuid") else ", no UUID") + f"; board {board}"


def firmware_text(row):
    """'BIOS SeaBIOS 1.16.3-debian 04/01/2014' of an smbios row (a dict), or
    that it is not known."""
    if row is None:
        return "BIOS unknown (no SMBIOS)"
    words = " ".join(str(row[k]) for k in ident.FIRMWARE if row.get(k)) or row.get("bios")
    return f"BIOS {words}" if words else "BIOS not given"


def run_smbios(conn):
    """{run_id: smbios row (a dict)}."""
    cols = [d[1] for d in conn.execute("PRAGMA table_info(smbios)")]
    return {r[0]: dict(zip(cols, r)) for r in conn.execute(f"SELECT {', '.join(cols)} FROM smbios ORDER BY rowid")}


def run_experiments(conn):
    """{run_id: experiments row (a dict)}."""
    cols = [d[1] for d in conn.execute("PRAGMA table_info(experiments)")]
    return {r[0]: dict(zip(cols, r)) for r in conn.execute(f"SELECT {', '.join(cols)} FROM experiments")}


def machine_lines(conn, machine_id, runs):
    """The lines of table --by machine under a machine: its firmware as each
    of its runs (of runs, dicts of benchdb.list_runs) saw it, grouped, and
    the memory devices of its last run."""
    fw = run_smbios(conn)
    mine = [r for r in runs if r["machine_id"] == machine_id]
    groups = {}
    for r in mine:
        groups.setdefault(firmware_text(fw.get(r["id"])), []).append(f"R{r['id']}")
    out = [f"{text}: runs {', '.join(ids)}" for text, ids in groups.items()]
    if len(groups) > 1:
        out.append("the runs of this machine saw different firmware (BIOS version or date)")
    if mine:
        last = mine[-1]["id"]
        dimms = conn.execute(f"SELECT handle, {', '.join(DEVICE)} FROM memory_devices WHERE run_id = ? "
                             "ORDER BY rowid", (last,)).fetchall()
        for d in dimms:
            out.append(f"memory device {d[0]}: {ident.dimm_text(dict(zip(DEVICE, d[1:])))} (R{last})")
    return out


def machine_heading(m):
    """'M1: system ..., board ...' of a machines row (a dict), the CPU's brand after it."""
    return f"M{m['id']}: {identity_text(m)}; CPU \"{m.get('brand') or '?'}\""


def experiment_cells(conn, unit, runs, name=None):
    """{(experiment name, workload): {run_id: (cell, method)}} of the trusted
    method's figure per copy (its per_copy_agreement's trusted, benchanswer's
    words) in unit, for each run of runs that is an experiment (of that name
    when given); cell 'no method trusted (why)' where none is, 'faulted:
    why' (the experiment_end's) where the experiment has no figure to agree
    on (workload None)."""
    exps = run_experiments(conn)
    out = {}
    for r in runs:
        x = exps.get(r["id"])
        if x is None or (name and x["name"].lower() != name.lower()):
            continue
        if not conn.execute("SELECT 1 FROM agreements WHERE run_id = ? AND unit = ?", (r["id"], unit)).fetchone():
            # no figure to agree on: its code faulted, or it measured no code
            out.setdefault((x["name"], None), {})[r["id"]] = (
                f"{x['status']}: {x['why'] or 'no why given'}" if x["status"] != "complete" else "no figure per copy")
            continue
        for w, trusted, why in conn.execute("SELECT workload, trusted, why FROM agreements WHERE run_id = ? AND "
                                            "unit = ? AND cpu IS NULL ORDER BY rowid", (r["id"], unit)):
            row = conn.execute(f"SELECT {', '.join(benchdbanswer.PER_COPY)} FROM per_copy WHERE run_id = ? AND "
                               "method IS ? AND workload IS ? AND unit = ? AND cpu IS NULL",
                               (r["id"], trusted, w, unit)).fetchone() if trusted else None
            if row is None:
                cell = f"no method trusted ({why or 'no why given'})"
            else:
                rec = {k: (int(v) if isinstance(v, str) and k not in ("status", "per_copy", "bound") else v)
                       for k, v in zip(benchdbanswer.PER_COPY, row)}
                cell = f"{benchanswer.per_copy_cell(rec)} ({trusted})"
            out.setdefault((x["name"], w), {})[r["id"]] = cell
    return out


def experiment_table(conn, unit, runs, machines, name=None):
    """table --figure per_copy --by machine: (header, rows, notes) of a
    uops.info-style table of one's own experiments: a row per experiment
    (and workload), a column per machine, each cell the trusted method's
    figure per copy in unit as the kernel words it, of the machine's last
    run of that experiment; the notes say which run each cell is and which
    machines ran an experiment more than once. A str saying why there is
    nothing to show."""
    from benchlog import unit_name
    cells = experiment_cells(conn, unit, runs, name)
    if not cells:
        known = sorted({x["name"] for x in run_experiments(conn).values()})
        return (f"no figure per copy in {unit_name(unit)} of " + (f"experiment {name}" if name else "any experiment")
                + f" stored (experiments stored: {', '.join(known) if known else 'none: plan runs have them'})")
    by_id = {r["id"]: r for r in runs}
    cols = sorted({by_id[rid]["machine_id"] for per in cells.values() for rid in per})
    header = [("experiment",), ("workload",)] + [(f"M{mid}", f"[{unit_name(unit)} per copy]") for mid in cols]
    rows, notes = [], []
    for (xname, w), per in cells.items():
        line = [xname, w or "-"]
        for mid in cols:
            mine = [rid for rid in per if by_id[rid]["machine_id"] == mid]
            line.append(per[mine[-1]] if mine else "-")
            if mine:
                notes.append(f"{xname} on M{mid}: R{mine[-1]}" + (
                    f" (the last of {len(mine)} runs: {', '.join(f'R{k}' for k in mine)})" if len(mine) > 1 else ""))
        rows.append(line)
    notes = [f"each cell: the figure per copy (2N-N) of the method the kernel's per_copy_agreement trusts, "
             "in its words ('exactly' only where the minimums did not spread; +- its bound)"] + notes
    if any("-" in r[2:] for r in rows):
        notes.append("-: that machine has no run of that experiment stored")
    return header, rows, notes


# What every experiment of a plan's QR text shares (the rest is the boot's or another experiment's).
QR_SHARED = ("machine", "tsc_rate", "tsc_step", "smbios", "memory_device")


def qr_experiments(conn, log):
    """The experiments of a plan run's QR text (tools/benchqr.py: its x and
    xa lines, log.qr_experiments) as plan.py gives a serial log's: an
    Experiment each, whose log holds the boot's env, machine and TSC rate
    and its answer (the xa line: the trusted method's per_copy record, its
    workload the one the run of RUNID/NAME has stored, else 'code', the
    workload code= is named by default), and a digest of its own; None for
    a skipped one. Stored with benchdb.store, each merges into the run of
    its name (run_key RUNID/NAME) or is a run of its own."""
    import collections
    import copy
    import hashlib
    from benchlog import plan
    out = []
    boot = (log.env or {}).get("run_id")
    for q in log.qr_experiments:
        x = plan.Experiment(None, {"rec": "experiment", "index": q["index"], "of": len(log.qr_experiments),
                                   "name": q["name"], "line": None, "words": None})
        x.end = {"rec": "experiment_end", "index": q["index"], "name": q["name"], "status": q["status"], "why": None}
        out.append(x)
        if q["status"] == "skipped":
            continue
        sub = copy.copy(log)
        sub.by_kind = collections.defaultdict(list, {k: v for k, v in log.by_kind.items() if k in QR_SHARED})
        if q["answer"]:
            row = conn.execute("SELECT p.workload FROM per_copy p JOIN runs r ON r.id = p.run_id WHERE r.run_key = ? "
                               "AND p.method = ? ORDER BY p.rowid", (f"{boot}/{q['name']}", q["answer"]["method"])
                               ).fetchone()
            rec = {k: v for k, v in q["answer"].items() if k != "experiment"}
            sub.by_kind["per_copy"] = [(None, dict(rec, workload=row[0] if row else "code"))]
        sub.series, sub.skips, sub.cpu_skips = collections.OrderedDict(), collections.OrderedDict(), {}
        sub.run_digest = hashlib.sha256(f"{log.run_digest}/{q['name']}".encode()).hexdigest()
        sub.experiment, x.log = x, sub
    return out

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
"""
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
        out.append(("smbios", {"entry": (r or {}).get("entry")}, vals))
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

"""tools/benchlog/identity.py - the machine's identity from its SMBIOS
tables (issue 32; DMTF DSP0134; docs/RECORDS.md): the env record's fields
system, board, bios, system_uuid, smbios, the smbios record (one, the
table's strings as DSP0134 names them) and the memory_device records (one
per populated type 17 structure), with what can be checked of them.

    smbios          entry (2.1, 3.0), source (efi, scan), table_phys,
                    table_bytes, version, structures; type 1 sys_* (System
                    Information: Manufacturer, Product Name, Version, UUID,
                    Serial Number, SKU Number, Family), type 2 board_*
                    (Baseboard Information), type 0 bios_* (BIOS Information:
                    Vendor, BIOS Version, BIOS Release Date), type 4
                    cpu_socket, cpu_current_mhz, cpu_max_mhz [MHz], type 17
                    memory_devices [count], problem (the one line about a
                    malformed table)
    memory_device   handle, locator, bank, size_bytes [bytes], type (DDR4 ...),
                    speed_mts and configured_speed_mts [MT/s], manufacturer,
                    part, serial

Checks (check_identity, called by checks.check; each problem at its
record's line): every key each record needs (FIELDS); serial numbers
(sys_serial, board_serial, a memory_device's serial) only where the config
says identity=full (identity=short, the default, leaves them out); at most
one smbios record; as many memory_device records as the smbios record's
memory_devices; the env's smbios and system_uuid are the smbios record's
version and sys_uuid; the env's system, board, bios, system_uuid and
smbios are texts or null.

identity(log) gives the fields that tell machines apart (the lab database,
compare): system and board manufacturer and product, the system's UUID;
firmware(log) the BIOS's vendor, version and date; both None where the log
has no SMBIOS (a kernel before issue 32, a machine without the tables): an
unknown identity, never equal to a known one.
"""
from .events import _or_none, _str
from .model import is_uint

_S = _or_none(_str)
_N = _or_none(is_uint)
FIELDS = {
    "smbios": {"entry": _or_none(lambda v: v in ("2.1", "3.0")), "source": _or_none(lambda v: v in ("efi", "scan")),
               "table_phys": _S, "table_bytes": _N, "version": _S, "structures": _N,
               "sys_manufacturer": _S, "sys_product": _S, "sys_version": _S, "sys_uuid": _S, "sys_serial": _S,
               "sys_sku": _S, "sys_family": _S, "board_manufacturer": _S, "board_product": _S,
               "board_version": _S, "board_serial": _S, "bios_vendor": _S, "bios_version": _S, "bios_date": _S,
               "cpu_socket": _S, "cpu_current_mhz": _N, "cpu_max_mhz": _N, "memory_devices": _N, "problem": _S},
    "memory_device": {"handle": _S, "locator": _S, "bank": _S, "size_bytes": _N, "type": _S, "speed_mts": _N,
                      "configured_speed_mts": _N, "manufacturer": _S, "part": _S, "serial": _S},
}
KINDS = tuple(FIELDS)
# The env record's fields (each a string or null).
ENV = ("system", "board", "bios", "system_uuid", "smbios")
# What tells machines apart: (the machines column, the smbios record's key).
IDENTITY = (("sys_manufacturer", "sys_manufacturer"), ("sys_product", "sys_product"), ("sys_uuid", "sys_uuid"),
            ("board_manufacturer", "board_manufacturer"), ("board_product", "board_product"))
FIRMWARE = ("bios_vendor", "bios_version", "bios_date")
SERIALS = ("sys_serial", "board_serial")


def malformed(kind, rec):
    """Why a record of these kinds cannot be used, or None."""
    from .events import malformed as m
    return m(kind, rec, FIELDS)


def smbios(log):
    """The first usable smbios record, or None."""
    for _, r in log.by_kind.get("smbios", []):
        if malformed("smbios", r) is None:
            return r
    return None


def identity(log):
    """{column: value} of the fields that tell machines apart (IDENTITY),
    or None when the log has no SMBIOS system or board (unknown)."""
    r = smbios(log)
    if r is None:
        return None
    out = {col: r.get(key) for col, key in IDENTITY}
    return out if any(v is not None for v in out.values()) else None


def firmware(log):
    """{bios_vendor, bios_version, bios_date} of the smbios record (the env's
    bios text where only it is there: bios_version holds it), or None."""
    r = smbios(log)
    if r is not None:
        out = {k: r.get(k) for k in FIRMWARE}
        return out if any(v is not None for v in out.values()) else None
    text = (log.env or {}).get("bios")
    return {"bios_vendor": None, "bios_version": text, "bios_date": None} if isinstance(text, str) else None


def memory_devices(log):
    """The usable memory_device records, in log order."""
    return [r for _, r in log.by_kind.get("memory_device", []) if malformed("memory_device", r) is None]


def identity_lines(log):
    """The machine's identity in words, a line each: system, board, BIOS,
    UUID, SMBIOS version and source, each DIMM; one line when unknown."""
    r, env = smbios(log), log.env or {}
    if r is None and not any(env.get(k) for k in ENV):
        return ["identity: unknown (no SMBIOS record: a kernel before issue 32, or no SMBIOS tables found)"]
    r = r or {}

    def words(*keys):
        return " ".join(str(r[k]) for k in keys if r.get(k)) or None
    out = [f"system: {words('sys_manufacturer', 'sys_product', 'sys_version') or env.get('system') or 'not given'}"
           + (f", UUID {r.get('sys_uuid') or env.get('system_uuid')}" if r.get("sys_uuid") or env.get("system_uuid")
              else ", no UUID"),
           f"board: {words('board_manufacturer', 'board_product', 'board_version') or env.get('board') or 'not given'}",
           f"BIOS: {words('bios_vendor', 'bios_version', 'bios_date') or env.get('bios') or 'not given'}"]
    if r:
        out.append(f"SMBIOS {r.get('version') or env.get('smbios') or '?'} ({r.get('entry') or '?'} entry point, "
                   f"from {r.get('source') or '?'}), {r.get('structures')} structures"
                   + (f"; PROBLEM: {r['problem']}" if r.get("problem") else ""))
        if r.get("cpu_socket") or r.get("cpu_current_mhz"):
            out.append(f"processor: socket {r.get('cpu_socket') or '?'}, current speed "
                       f"{r['cpu_current_mhz'] if r.get('cpu_current_mhz') is not None else '?'} MHz, max speed "
                       f"{r['cpu_max_mhz'] if r.get('cpu_max_mhz') is not None else '?'} MHz")
    for d in memory_devices(log):
        out.append(f"memory device {d.get('handle')}: {dimm_text(d)}")
    return out


def dimm_text(d):
    """'DIMM 0 (bank 0): 16 GiB DDR4, 3200 MT/s (configured 2933 MT/s), Samsung M378...'."""
    size = d.get("size_bytes")
    size = (f"{size >> 30} GiB" if size and size % (1 << 30) == 0 else
            f"{size >> 20} MiB" if size and size % (1 << 20) == 0 else f"{size} bytes" if size else "size unknown")
    speed = f"{d['speed_mts']} MT/s" if d.get("speed_mts") is not None else "speed unknown"
    conf = f" (configured {d['configured_speed_mts']} MT/s)" if d.get("configured_speed_mts") is not None else ""
    return (f"{d.get('locator') or '?'}" + (f" ({d['bank']})" if d.get("bank") else "") +
            f": {size} {d.get('type') or '?'}, {speed}{conf}, {d.get('manufacturer') or '?'} {d.get('part') or ''}"
            ).rstrip()


def check_identity(log):
    """The checks of the module docstring, each problem at its record's line."""
    full = (log.config or {}).get("identity") == "full" or getattr(log, "identity_full", False)
    recs = log.by_kind.get("smbios", [])
    for no, r in recs[1:]:
        log.problem(no, f"a second smbios record (the first is line {recs[0][0]})")
    devices = log.by_kind.get("memory_device", [])
    for no, r in recs[:1]:
        if malformed("smbios", r):
            continue
        if not full:
            for k in SERIALS:
                if r.get(k) is not None:
                    log.problem(no, f"smbios record gives {k} {r[k]!r}, but the config does not say identity=full "
                                    "(serial numbers are left out unless it does)")
        if is_uint(r.get("memory_devices")) and r["memory_devices"] != len(devices):
            log.problem(no, f"smbios record counts {r['memory_devices']} memory devices, the log has "
                            f"{len(devices)} memory_device records")
        env = log.env or {}
        for k, key in (("smbios", "version"), ("system_uuid", "sys_uuid")):
            if k in env and env[k] != r.get(key):
                log.problem(log.env_line, f"the env record's {k} is {env[k]!r}, the smbios record's {key} "
                                          f"{r.get(key)!r} (line {no})")
    for k in ENV:
        v = (log.env or {}).get(k)
        if v is not None and not isinstance(v, str):
            log.problem(log.env_line, f"the env record's {k} is {str(v)[:40]!r}, not a text or null")
    if not full:
        for no, r in devices:
            if not malformed("memory_device", r) and r.get("serial") is not None:
                log.problem(no, f"memory_device {r.get('handle')} gives serial {r['serial']!r}, but the config "
                                "does not say identity=full")

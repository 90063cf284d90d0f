"""tools/benchlog/memclock.py - memory, caches and clocks (issue 31;
docs/RECORDS.md): the config record's settings, the line "config: memory
and clocks: ...", and the seven records of the settings' effect and of
sweep=latency, with what can be checked of them.

    mem_area        one per area (register R14, RDI, RSI, RBP, RSP or
                    sweep): bytes, physical base phys, page_bytes, type,
                    guard (the unmapped page after it), pointer
    cache_state     cache=: mode, the instruction, lines and bytes flushed,
                    one flush's cost in TSC ticks, or why none
    prefetch        one per prefetcher control (or one with control null
                    saying why none): the MSR and bit, wanted, the value
                    before, written, read back, the state, why, source
    clock_setting   one per MSR write attempted for turbo=, pstate= (HWP:
                    hwp): before, written, read back, taken, why
    core_clock      the core clock before and after [Hz], the TSC's rate
                    [Hz], measured from APERF/MPERF or core cycles
    latency_point   sweep=latency: one per area size and unit: the per_copy
                    record's fields (lib/percopy.h) of the pointer chase,
                    a copy being one load
    latency_levels  one per unit: the levels seen (L1d, L2, L3, L4, DRAM:
                    the edge of each plateau, its latency per load, in ns)
                    beside the caches CPUID lists

Checks (check_memclock, called by checks.check; each problem at its
record's line): every key each record needs (FIELDS); the config's
settings are words the kernel prints (CONFIG) and the line "config:
memory and clocks:" says what the record says; a mem_area's guard is phys
+ bytes (on a 4 KiB page boundary), bytes a multiple of 4 KiB,
R14's bytes are mem= when the command line had no problem; the cache
state is cache='s and names an instruction or why not; a prefetch control
says on or off after a write only where the bit read back is the bit
written, a clock setting says taken only where the value read back is the
value written (a read-back that is the value before a write that changed
it is a problem; one where other bits moved a note: the record does not
name the setting's bits), each says why where it is not taken; the core clock's
TSC rate is the tsc_rate record's, after_hz only where a clock setting was
written; each latency_point's num/den, per_copy, status and bound
recomputed from its least minimums (events.percopy, as event_per_copy's);
a latency_levels record's edges are sizes of its unit's points, rising,
each level's latency within its unit's points' range, its ns the
latency over the TSC's rate (TSC ticks), and a level's CPUID size one
of cpuid_caches.

settings(log) gives every setting of a run by name, the ones asked for
(the config record) and the effect (mem_area, cache_state, prefetch,
clock_setting records): what compare and the lab database compare.
"""
import collections
import decimal
import re

from . import events
from .events import _bool, _hex, _or_none, _str, percopy
from .model import is_uint

KNOBS = ("keep", "off", "on")
# The config record's settings (kernel/config.c) and their words.
CONFIG = collections.OrderedDict([
    ("mem_bytes", is_uint),
    ("mem_pages", lambda v: v in ("auto", "4k", "2m", "1g")),
    ("mem_type", lambda v: v in ("wb", "wt", "wc", "wp", "uc")),
    ("regs", lambda v: v in ("default", "nanobench")),
    ("cache", lambda v: v in ("warm", "flush", "wbinvd")),
    ("prefetch", lambda v: v in KNOBS),
    ("turbo", lambda v: v in KNOBS),
    ("pstate", lambda v: v in ("keep", "base", "max") or (isinstance(v, str) and v.isdigit()
                                                           and 1 <= int(v) <= 255)),
    ("sweep", lambda v: v in ("off", "latency")),
])
# The settings' names as the command line spells them (config key -> word).
WORDS = {"mem_bytes": "mem", "mem_pages": "mem.pages", "mem_type": "mem.type"}
# "config: memory and clocks: mem=1M mem.pages=auto ... sweep=off"
LINE = re.compile(r"^config: memory and clocks: (.*)$")

REGISTERS = ("R14", "RDI", "RSI", "RBP", "RSP", "sweep")
PAGES = (4096, 2097152, 1073741824)
UNITS = ("tsc_ticks", "core_cycles")
LEVELS = ("L1d", "L2", "L3", "L4", "DRAM")
STATES = ("on", "off", "not_taken", "unknown", "not_documented")
STATUSES = ("exact", "figure", "below_resolution", "below_zero", "wrapped")


def _decimal(v):
    if not isinstance(v, str):
        return False
    try:
        decimal.Decimal(v)
    except decimal.InvalidOperation:
        return False
    return True


def _levels(v):
    return isinstance(v, list) and all(
        isinstance(x, dict) and x.get("name") in LEVELS and _or_none(is_uint)(x.get("cpuid_bytes"))
        and _or_none(is_uint)(x.get("edge_bytes")) and _decimal(x.get("per_load"))
        and _or_none(_decimal)(x.get("ns")) for x in v)


def _caches(v):
    return isinstance(v, list) and all(
        isinstance(x, dict) and is_uint(x.get("level")) and _str(x.get("type")) and is_uint(x.get("bytes"))
        for x in v)


FIELDS = {
    "mem_area": {"register": lambda v: v in REGISTERS, "bytes": is_uint, "phys": _hex,
                 "page_bytes": lambda v: v in PAGES, "type": CONFIG["mem_type"], "guard": _hex, "pointer": _hex},
    "cache_state": {"mode": CONFIG["cache"],
                    "instruction": _or_none(lambda v: v in ("clflushopt", "clflush", "wbinvd")),
                    "lines": _or_none(is_uint), "bytes": _or_none(is_uint), "cost_tsc": _or_none(is_uint),
                    "why": _or_none(_str)},
    "prefetch": {"control": _or_none(_str), "name": _or_none(_str), "msr": _or_none(_hex),
                 "bit": _or_none(is_uint), "wanted": lambda v: v in KNOBS, "before": _or_none(_hex),
                 "written": _or_none(_hex), "read": _or_none(_hex), "state": lambda v: v in STATES,
                 "why": _or_none(_str), "source": _or_none(_str)},
    # msr and before null: a setting not attempted where no MSR is there
    # (i31-clock prints it so; the shared contract has them as hex)
    "clock_setting": {"setting": lambda v: v in ("turbo", "pstate", "hwp"), "msr": _or_none(_hex),
                      "before": _or_none(_hex),
                      "written": _or_none(_hex), "read": _or_none(_hex), "taken": _bool, "why": _or_none(_str)},
    "core_clock": {"before_hz": _or_none(is_uint), "after_hz": _or_none(is_uint), "tsc_hz": is_uint,
                   "source": lambda v: v in ("aperf_mperf", "core_cycles", "none"), "why": _or_none(_str)},
    "latency_point": {"bytes": is_uint, "loads": is_uint, "unit": lambda v: v in UNITS, "copies": is_uint,
                      "least_min_n": is_uint, "least_min_2n": is_uint,
                      "num": lambda v: isinstance(v, int) and not isinstance(v, bool), "den": is_uint,
                      "per_copy": _or_none(_str), "status": lambda v: v in STATUSES, "spread": is_uint,
                      "bound": _or_none(_str), "step": is_uint},
    "latency_levels": {"unit": lambda v: v in UNITS, "levels": _levels, "cpuid_caches": _caches,
                       "why": _or_none(_str)},
}
KINDS = tuple(FIELDS)


def malformed(kind, rec):
    """Why a record of these kinds cannot be used (a key missing or not what
    it holds), or None."""
    return events.malformed(kind, rec, FIELDS)


def usable(log, kind):
    """[(line, record)] of kind whose keys are all there; a QR code's text
    (tools/benchqr.py: its lat lines) gives latency_levels without
    cpuid_caches (not in the text): taken as none listed."""
    recs = log.by_kind.get(kind, [])
    if kind == "latency_levels" and getattr(log, "qr_crc", None):
        recs = [(no, dict({"cpuid_caches": []}, **r)) for no, r in recs]
    return [(no, r) for no, r in recs if malformed(kind, r) is None]


def size_text(n):
    """Bytes in the largest binary unit dividing them exactly, as lib/memsize.c
    memsize_text: '512 MiB', '4 KiB', '4097 bytes'; None -> '?'."""
    if not is_uint(n):
        return "?"
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"


def size_word(n):
    """Bytes as mem= takes them back (lib/memsize.c memsize_word): '1M', '4K'."""
    if not is_uint(n):
        return "?"
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def line_settings(line):
    """The words of a 'config: memory and clocks:' line as the config
    record's keys and values ({'mem_bytes': 1048576, 'mem_pages': 'auto',
    ...}); None when it is not that line."""
    m = LINE.match(line)
    if not m:
        return None
    out = {}
    back = {v: k for k, v in WORDS.items()}
    for word in m.group(1).split():
        k, _, v = word.partition("=")
        key = back.get(k, k)
        if key == "mem_bytes":
            mm = re.fullmatch(r"(\d+)([KMG]?)", v)
            v = int(mm.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[mm.group(2)] if mm else v
        out[key] = v
    return out


def hz_text(hz):
    """A core clock in GHz to 2 decimals ('2.90 GHz'); None -> 'unknown'."""
    return f"{hz / 1e9:.2f} GHz" if is_uint(hz) else "unknown"


def settings(log):
    """Every setting of the run, by name, in order: the ones asked for (the
    config record's words: mem, mem.pages, mem.type, regs, cache, prefetch,
    turbo, pstate, sweep; None where the log has no such key: a kernel
    before issue 31), then their effect: 'area R14' (size, page size,
    type), 'cache flush' (the instruction), 'prefetcher NAME' (its state),
    'clock SETTING' (taken, not taken)."""
    cfg = log.config or {}
    out = collections.OrderedDict()
    for k in CONFIG:
        v = cfg.get(k)
        out[WORDS.get(k, k)] = size_word(v) if k == "mem_bytes" and v is not None else v
    for _, r in usable(log, "mem_area"):
        out[f"area {r['register']}"] = (f"{size_text(r['bytes'])}, {size_text(r['page_bytes'])} pages, "
                                        f"{r['type']}")
    for _, r in usable(log, "cache_state"):
        out["cache instruction"] = r["instruction"] or "none"
    for _, r in usable(log, "prefetch"):
        out[f"prefetcher {r['control'] or r['name'] or 'none'}"] = r["state"].replace("_", " ")
    for _, r in usable(log, "clock_setting"):
        out[f"clock {r['setting']}"] = ("taken" if r["taken"] else "not taken")
    return out


def settings_differ(a, b):
    """['turbo keep -> off', 'mem.pages 4k -> 1g', ...]: each setting whose
    value differs between settings dicts a and b (a setting one of them
    lacks: 'not in A' / 'not in B')."""
    out = []
    for k in dict.fromkeys(list(a) + list(b)):
        va, vb = a.get(k), b.get(k)
        if va != vb:
            out.append(f"{k} {va if va is not None else '(not in A)'} -> {vb if vb is not None else '(not in B)'}")
    return out


def prefetch_text(r):
    """A prefetch record in the kernel's words: 'L2 hardware prefetcher:
    off (MSR 0x1a4 bit 0 = 1, read back)', or why not."""
    name = r.get("name") or r.get("control") or "prefetchers"
    state = (r.get("state") or "?").replace("_", " ")
    where = (f"MSR {r.get('msr')} bit {r.get('bit')}" if r.get("msr") is not None else "no MSR")
    vals = ", ".join(f"{k} {r.get(k)}" for k in ("before", "written", "read") if r.get(k) is not None)
    return (f"{name}: {state} (wanted {r.get('wanted')}; {where}" + (f"; {vals}" if vals else "") + ")" +
            (f": {r['why']}" if r.get("why") else "") + (f" [{r['source']}]" if r.get("source") else ""))


def clock_text(r):
    """A clock_setting record in words: 'turbo: MSR 0x1a0 before 0x..., written
    0x..., read 0x...: taken' or 'not taken: why'."""
    vals = ", ".join(f"{k} {r.get(k)}" for k in ("before", "written", "read") if r.get(k) is not None)
    return (f"{r.get('setting')}: MSR {r.get('msr')} {vals}: " +
            ("taken" if r.get("taken") else "not taken") + (f" ({r['why']})" if r.get("why") else ""))


def core_clock_text(r):
    """'core clock: 2.90 GHz before, 2.40 GHz = TSC x 1.000 after (aperf_mperf)'."""
    if r.get("source") == "none":
        return f"core clock: not measured: {r.get('why') or '?'}"
    tsc = r.get("tsc_hz")
    after = ("not measured again (nothing written)" if r.get("after_hz") is None else
             f"{hz_text(r['after_hz'])}" + (f" = TSC x {r['after_hz'] / tsc:.3f}" if is_uint(tsc) and tsc else "") +
             " after")
    return (f"core clock: {hz_text(r.get('before_hz'))} before, {after} ({r.get('source')}, TSC "
            f"{hz_text(tsc)})" + (f": {r['why']}" if r.get("why") else ""))


def area_text(r):
    """'R14: 512 MiB at 0x40000000, 1 GiB pages, wb, guard 0x60000000'."""
    return (f"{r.get('register')}: {size_text(r.get('bytes'))} at {r.get('phys')}, "
            f"{size_text(r.get('page_bytes'))} pages, {r.get('type')}, guard page at {r.get('guard')}, "
            f"pointer {r.get('pointer')}")


def cache_text(r):
    """'cache=flush: clflushopt of 16400 lines (1049600 bytes), 51234 TSC ticks a flush'."""
    if r.get("instruction") is None:
        return f"cache={r.get('mode')}: nothing done before a sample" + (f": {r['why']}" if r.get("why") else "")
    what = (f"{r['instruction']} of {r.get('lines')} lines ({r.get('bytes')} bytes)"
            if r["instruction"] != "wbinvd" else "wbinvd")
    cost = f", {r['cost_tsc']} TSC ticks a flush" if is_uint(r.get("cost_tsc")) else ", its cost unknown"
    return f"cache={r.get('mode')}: {what}{cost}" + (f" ({r['why']})" if r.get("why") else "")


def _d(v):
    try:
        return decimal.Decimal(v)
    except (TypeError, decimal.InvalidOperation):
        return None


def _check_config(log):
    cfg = log.config or {}
    for k, ok in CONFIG.items():
        if k in cfg and not ok(cfg[k]):
            log.problem(log.config_line, f"config record: {WORDS.get(k, k)}={str(cfg[k])[:40]!r} is not "
                                         "a value the kernel prints there")
    line = getattr(log, "memclock_line", None)
    if line and log.config and not getattr(log, "config_from_human", False):
        no, said = line
        for k, v in said.items():
            if k in cfg and cfg[k] != v:
                log.problem(no, f"the line 'config: memory and clocks:' says {WORDS.get(k, k)}="
                                f"{size_word(v) if k == 'mem_bytes' and is_uint(v) else v}, the config record "
                                f"(line {log.config_line}) "
                                f"{size_word(cfg[k]) if k == 'mem_bytes' and is_uint(cfg[k]) else cfg[k]}")


def _check_areas(log):
    cfg = log.config or {}
    seen = {}
    for no, r in usable(log, "mem_area"):
        reg, phys, guard = r["register"], int(r["phys"], 16), int(r["guard"], 16)
        if reg != "sweep" and reg in seen:
            log.problem(no, f"mem_area {reg}: a second area for {reg} (the first is line {seen[reg]})")
        seen.setdefault(reg, no)
        if guard != phys + r["bytes"]:
            log.problem(no, f"mem_area {reg}: guard {r['guard']} is not phys + bytes ({r['phys']} + {r['bytes']} "
                            f"= {phys + r['bytes']:#x}): the guard page is the page after the area")
        if r["bytes"] % 4096 or not r["bytes"]:
            log.problem(no, f"mem_area {reg}: {r['bytes']} bytes, not a whole number of 4 KiB pages")
        if guard % 4096:
            log.problem(no, f"mem_area {reg}: guard {r['guard']} is not on a 4 KiB page boundary")
        if reg == "R14" and is_uint(cfg.get("mem_bytes")) and cfg.get("problems") == 0 \
                and r["bytes"] != cfg["mem_bytes"]:
            log.problem(no, f"mem_area R14: {size_text(r['bytes'])}, the config record says "
                            f"mem={size_word(cfg['mem_bytes'])}")


def _check_cache(log):
    cfg = log.config or {}
    recs = usable(log, "cache_state")
    for no, r in recs[1:]:
        log.problem(no, f"a second cache_state record (the first is line {recs[0][0]})")
    for no, r in recs[:1]:
        if cfg.get("cache") and r["mode"] != cfg["cache"]:
            log.problem(no, f"cache_state mode {r['mode']}, the config record says cache={cfg['cache']}")
        if r["mode"] == "warm" and r["instruction"] is not None:
            log.problem(no, f"cache_state: mode warm with the instruction {r['instruction']}: warm flushes nothing")
        if r["mode"] == "flush" and r["instruction"] == "wbinvd" or \
                r["mode"] == "wbinvd" and r["instruction"] not in (None, "wbinvd"):
            log.problem(no, f"cache_state: mode {r['mode']} with the instruction {r['instruction']}")
        if r["mode"] != "warm" and r["instruction"] is None and not r["why"]:
            log.problem(no, f"cache_state: mode {r['mode']} but no instruction and no why")
        if r["instruction"] in ("clflush", "clflushopt") and (r["lines"] is None or r["bytes"] is None):
            log.problem(no, f"cache_state: {r['instruction']} without the lines and bytes it flushes")


def _check_prefetch(log):
    cfg = log.config or {}
    for no, r in usable(log, "prefetch"):
        name = r["name"] or r["control"] or "prefetch"
        if cfg.get("prefetch") and r["wanted"] != cfg["prefetch"]:
            log.problem(no, f"prefetch {name}: wanted {r['wanted']}, the config record says "
                            f"prefetch={cfg['prefetch']}")
        if r["control"] is None and not r["why"]:
            log.problem(no, "prefetch: no control named and no why")
        if r["written"] is not None and r["state"] in ("on", "off") and (
                r["read"] is None or r["bit"] is None or
                (int(r["read"], 16) >> r["bit"] & 1) != (int(r["written"], 16) >> r["bit"] & 1)):
            log.problem(no, f"prefetch {name}: state {r['state']} (taken) but read back {r['read']} where "
                            f"{r['written']} was written (bit {r['bit']}): not taken")
        if r["written"] is not None and r["state"] in ("on", "off") and r["wanted"] != "keep" \
                and r["state"] != r["wanted"]:
            log.problem(no, f"prefetch {name}: {r['wanted']} written and read back, but the state says "
                            f"{r['state']}")
        if r["state"] in ("not_taken", "unknown", "not_documented") and not r["why"]:
            log.problem(no, f"prefetch {name}: state {r['state']} without why")


def _stuck(r):
    """Whether a clock_setting's write shows in its read-back: True when read
    = written; False when nothing was written or read back, or the read-back
    is the value before a write that changed it; None otherwise (other bits
    than the setting's moved: the record does not name the setting's
    bits, so the kernel's judgement stands)."""
    if r["written"] is None or r["read"] is None:
        return False
    w, rd = int(r["written"], 16), int(r["read"], 16)
    if rd == w:
        return True
    if r["before"] is not None and rd == int(r["before"], 16):
        return False
    return None


def _check_clocks(log):
    written = False
    for no, r in usable(log, "clock_setting"):
        written = written or r["written"] is not None
        stuck = _stuck(r)
        if r["taken"] and stuck is False:
            log.problem(no, f"clock_setting {r['setting']} (MSR {r['msr']}): taken, but read back {r['read']} "
                            f"where {r['written']} was written: taken only when the read-back shows it")
        elif r["taken"] and stuck is None:
            log.note(no, f"clock_setting {r['setting']} (MSR {r['msr']}): taken with read back {r['read']} where "
                         f"{r['written']} was written: other bits than the setting's changed (the kernel judges "
                         "the setting's bits, which the record does not name)")
        if not r["taken"] and not r["why"]:
            log.problem(no, f"clock_setting {r['setting']} (MSR {r['msr']}): not taken, without why")
    rates = [r for _, r in log.by_kind.get("tsc_rate", []) if is_uint(r.get("hz")) and r.get("hz")]
    recs = usable(log, "core_clock")
    for no, r in recs[1:]:
        log.problem(no, f"a second core_clock record (the first is line {recs[0][0]})")
    for no, r in recs[:1]:
        if r["source"] == "none" and (r["before_hz"] is not None or r["after_hz"] is not None or not r["why"]):
            log.problem(no, "core_clock: source none, yet a clock given or no why")
        if r["after_hz"] is not None and not written:
            log.problem(no, f"core_clock: after_hz {r['after_hz']} but no clock_setting record says a value "
                            "was written")
        if rates and r["tsc_hz"] != rates[0]["hz"]:
            log.problem(no, f"core_clock: tsc_hz {r['tsc_hz']}, the tsc_rate record says {rates[0]['hz']} Hz")


def _check_latency(log):
    cfg = log.config or {}
    points = collections.defaultdict(list)
    for no, r in usable(log, "latency_point"):
        mine = percopy(r["least_min_n"], r["least_min_2n"], r["copies"], r["spread"], r["step"])
        theirs = {k: r[k] for k in mine}
        if mine != theirs:
            diff = "; ".join(f"{k} {theirs[k]!r}, recomputed {mine[k]!r}" for k in mine if mine[k] != theirs[k])
            log.problem(no, f"latency_point of {size_text(r['bytes'])} in {r['unit']} disagrees with its least "
                            f"minimums ({r['least_min_2n']} with 2N loads - {r['least_min_n']} with N, over "
                            f"{r['copies']} loads, spread {r['spread']}, step {r['step']}): {diff}")
        us = points[r["unit"]]
        if us and r["bytes"] <= us[-1][1]["bytes"]:
            log.problem(no, f"latency_point of {size_text(r['bytes'])} in {r['unit']} after one of "
                            f"{size_text(us[-1][1]['bytes'])} (line {us[-1][0]}): sizes must rise")
        us.append((no, r))
    if points and cfg.get("sweep") not in (None, "latency"):
        log.problem(points[next(iter(points))][0][0], f"latency_point records, but the config record says "
                                                      f"sweep={cfg.get('sweep')}")
    rates = [r for _, r in log.by_kind.get("tsc_rate", []) if is_uint(r.get("hz")) and r.get("hz")]
    seen = {}
    for no, r in usable(log, "latency_levels"):
        u = r["unit"]
        if u in seen:
            log.problem(no, f"a second latency_levels record in {u} (the first is line {seen[u]})")
            continue
        seen[u] = no
        if not r["levels"]:
            if not r["why"]:
                log.problem(no, f"latency_levels in {u}: no level and no why")
            continue
        pts = {p["bytes"]: p for _, p in points.get(u, [])}
        figs = [_d(p["per_copy"]) for p in pts.values() if p["status"] in ("exact", "figure")]
        figs = [f for f in figs if f is not None]
        if not pts:
            log.problem(no, f"latency_levels in {u}: levels but no latency_point record in {u}")
            continue
        last = None
        cached = {c["bytes"] for c in r["cpuid_caches"]}
        for lv in r["levels"]:
            e = lv["edge_bytes"]
            if e is not None and e not in pts:
                log.problem(no, f"latency_levels in {u}: {lv['name']}'s edge {size_text(e)} is no latency_point's "
                                "size")
            if e is not None and last is not None and e <= last:
                log.problem(no, f"latency_levels in {u}: {lv['name']}'s edge {size_text(e)} is not above the "
                                f"level before's ({size_text(last)})")
            last = e if e is not None else last
            pl = _d(lv["per_load"])
            if figs and pl is not None and not min(figs) <= pl <= max(figs):
                log.problem(no, f"latency_levels in {u}: {lv['name']}'s {lv['per_load']} per load is outside the "
                                f"points' figures ({min(figs)}..{max(figs)} {u} per load)")
            if lv["cpuid_bytes"] is not None and lv["cpuid_bytes"] not in cached:
                log.problem(no, f"latency_levels in {u}: {lv['name']}'s CPUID size {size_text(lv['cpuid_bytes'])} "
                                "is none of cpuid_caches")
            if u == "tsc_ticks" and lv["ns"] is not None and rates and pl is not None:
                want = pl * decimal.Decimal(10 ** 9) / rates[0]["hz"]
                if abs(_d(lv["ns"]) - want) > max(decimal.Decimal("0.002"), want / 100):
                    log.problem(no, f"latency_levels in {u}: {lv['name']}'s {lv['ns']} ns is not {lv['per_load']} "
                                    f"TSC ticks at {rates[0]['hz']} Hz ({want:.3f} ns)")


def check_memclock(log):
    """The checks of the module docstring."""
    _check_config(log)
    if not any(log.by_kind.get(k) for k in KINDS):
        return
    _check_areas(log)
    _check_cache(log)
    _check_prefetch(log)
    _check_clocks(log)
    _check_latency(log)

"""tools/benchlog/reading.py - reading a captured serial log into a Log
(model.py): parse(text), load(path).

The kernel prints human lines and, between the lines
"BEGIN bench-records v1" and "END bench-records", one JSON object per line
(docs/RECORDS.md "Machine-readable output"). This is the one parser of those logs: it
finds the records, tolerating what a serial capture adds (CR/LF mixes,
GRUB's escape sequences, control characters, noise lines, noise before a
record on its line), files them into series, then has checks.py check them.

Every output= level is read. output=json, output=both and output=full print
records; json and both (the default) print each ensemble as a compact
record, {"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,NMIS,SMIS]}, which is read as the
ensemble record it stands for, with the figures it holds and those that
follow from it and from the method record before it: method, workload,
unit, ensemble, param, samples, primary, min, max, max_dev, variance,
median, nmis, smis, error (COMPACT_KEYS); output=full's records have more
(mean, quantiles...), and every figure in both is the same for the same
run. output=human prints few records: human.py makes its series from its
lines. Unknown record kinds and keys are kept and otherwise ignored.

Exact figures: integers are Python ints (no 64-bit limit); "mean" and other
decimals are decimal.Decimal, so "25.746" stays exactly that.
"""
import decimal
import json
import re

from . import events, identity, memclock, plan
from .checks import check, check_cpu
from .human import from_human_lines, human_line
from .model import BEGIN, END, KNOWN_KINDS, PAPER, TSC, Dump, Log, Problem, is_uint

# CSI sequences (ESC [ params intermediates final), charset selection,
# single-character escapes: what GRUB and terminals send over a serial line.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()*+][A-Za-z0-9]|\x1b[=>78cDEHMNOZ]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
RUN_HEADER = re.compile(r"^method (\S+): .*; workload (\S+): ")
CPU_RUN_LINE = re.compile(r"^cpus: measuring on CPU (\d+) \(APIC ID (\d+)")
FINAL = re.compile(r"bench: (?:run (?:complete|aborted)|nested exception.*run aborted)")

# The compact ensemble record: its unit numbers (bench/results.h enum unit) and
# the keys of the ensemble record it is read as.
COMPACT = re.compile(r'\{"e":\[')
COMPACT_UNITS = ("tsc_ticks", "core_cycles", "instructions")
COMPACT_KEYS = ("rec", "method", "workload", "unit", "ensemble", "param", "samples", "primary", "min",
                "max", "max_dev", "variance", "median", "nmis", "smis", "error")


def final_match(line):
    """The run's final line ("bench: run complete ..." or "... run aborted
    ..."), from where it starts in a cleaned line, or None. Noise before it
    on the line is tolerated; a record or the echoed command line is not a
    final line."""
    if line.startswith("{") or line.startswith("env:") or line.startswith("config:"):
        return None
    m = FINAL.search(line)
    return line[m.start():] if m else None


def clean_line(raw):
    """One physical line as text: escape sequences and control characters
    removed. A carriage return inside the line (a terminal's "back to column
    0") splits it; the segments are returned in order."""
    raw = ANSI.sub("", raw).rstrip("\r")
    return [CONTROL.sub("", seg).rstrip() for seg in raw.split("\r")]


def logical_lines(text):
    """(line number, text) for every line, numbered as an editor numbers the
    file's lines (by LF)."""
    for no, raw in enumerate(text.split("\n"), 1):
        for seg in clean_line(raw):
            yield no, seg


def load(path):
    """The Log of the file at path (bytes not UTF-8 replaced), with its path
    and size; an empty file is one problem."""
    with open(path, "rb") as f:
        data = f.read()
    log = parse(data.decode("utf-8", errors="replace"))
    log.path, log.size = path, len(data)
    for x in log.experiments:  # a plan run's (plan.py): named after the file and the experiment
        if x.log is not None:
            x.log.path, x.log.size = f"{path} ({x.label})", len(data)
    if not data:
        log.problems = [Problem(None, f"{path}: the file is empty (0 bytes): nothing was captured")]
    return log


def _key(rec):
    unit = rec.get("unit") or TSC
    cpu = rec.get("cpu")
    return (rec.get("method"), rec.get("workload"), unit, rec.get("counter"),
            cpu if is_uint(cpu) else None)


def _uints(v):
    return isinstance(v, list) and all(is_uint(x) for x in v)


def _str(v):
    return isinstance(v, str)


# Keys a record of a known kind must have for this module to use it, with
# the test each value must pass; and keys that, when present, must pass one.
_ENSEMBLE = {"method": _str, "ensemble": is_uint, "min": is_uint, "max": is_uint,
             "max_dev": is_uint}
REQUIRED = {
    "method": {"method": _str},
    "skip": {"method": _str, "reason": _str},
    "ensemble": _ENSEMBLE,
    "summary": {"method": _str},
    "samples": {"method": _str, "ensemble": is_uint, "offset": is_uint, "total": is_uint,
                "values": _uints},
    "cpu_run": {"cpu": is_uint, "apic_id": is_uint},
}
# Keys any record may carry (per-CPU runs), with their test.
ANY_KIND = {"cpu": is_uint, "apic_id": is_uint}
OPTIONAL = {
    "ensemble": {"samples": is_uint, "variance": lambda v: v is None or is_uint(v),
                 "workload": _str},
    "summary": {"workload": _str},
    "method": {"workload": _str},
}


def _malformed(kind, rec):
    """Why a record of a known kind cannot be used, or None."""
    if kind in events.FIELDS:
        return events.malformed(kind, rec)
    if kind in memclock.FIELDS:
        return memclock.malformed(kind, rec)
    if kind in identity.FIELDS:
        return identity.malformed(kind, rec)
    if kind in plan.FIELDS:
        return plan.malformed(kind, rec)
    for k, ok in REQUIRED.get(kind, {}).items():
        if k not in rec:
            return f"lacks the key {k!r}"
        if not ok(rec[k]):
            return f"has {k}={str(rec[k])[:40]!r}, not what a {kind} record holds there"
    for k, ok in list(OPTIONAL.get(kind, {}).items()) + list(ANY_KIND.items()):
        if k in rec and not ok(rec[k]):
            return f"has {k}={str(rec[k])[:40]!r}, not what a {kind} record holds there"
    return None


def expand_compact(values, header):
    """The ensemble record a compact record's array stands for, given the
    method record before it (a dict); or a string saying why it cannot be
    read. Positions: U (0 TSC ticks, 1 core cycles, 2 instructions), J,
    MIN, MAX, VARIANCE (null: overflow), MEDIAN, NMIS, and SMIS (absent
    where MSR_SMI_COUNT is not read)."""
    if not isinstance(values, list) or len(values) not in (7, 8):
        return "is not an array of 7 or 8 figures"
    u, j, low, high, var, med, nmis = values[:7]
    smis = values[7] if len(values) == 8 else None
    if not (is_uint(u) and u < len(COMPACT_UNITS)):
        return f"has the unit {json.dumps(u)[:20]}, not 0, 1 or 2"
    if not all(is_uint(x) for x in (j, low, high, med, nmis)) or \
            not (var is None or is_uint(var)) or (len(values) == 8 and not is_uint(smis)):
        return "holds something that is not a figure where a figure belongs"
    if low > high:
        return f"has its minimum {low} above its maximum {high}"
    if header is None:
        return "comes before any method record: its method and workload are unknown"
    unit = COMPACT_UNITS[u]
    cpu = {k: header[k] for k in ("cpu", "apic_id") if k in header}
    return {"rec": "ensemble", **cpu, "method": header.get("method"), "workload": header.get("workload"),
            "unit": unit, "ensemble": j,
            "param": j if header.get("resolution") is True else header.get("param"),
            "samples": header.get("samples"), "primary": unit == (header.get("unit") or TSC),
            "min": low, "max": high, "max_dev": high - low, "variance": var, "median": med,
            "nmis": nmis, "smis": smis, "error": None if var is not None else "overflow"}


def parse(text, part=None):
    """The Log of a log's text, read and checked: what is wrong with it is
    in log.problems (each at its line), never an exception. A plan run's
    log (plan.py) is read as the boot's Log with an experiment's Log each
    (log.experiments); part is plan.py's: 'plan' (the boot's lines of a
    plan log) or 'experiment' (one experiment's)."""
    if part is None and plan.is_plan_log(text):
        return plan.parse_plan(text, parse, logical_lines)
    log = Log()
    log.part = part
    header = None   # the last method record: the context of compact records
    log.lines = list(logical_lines(text))
    log.line_count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    inside = False
    current = None  # (method, workload, cpu) of the paper-format lines being printed
    cpu = None      # the CPU being measured (per-CPU runs), from its line or cpu_run record
    for no, line in log.lines:
        if line:
            log.last_line = (no, line)
        if line == BEGIN or (line.endswith(BEGIN) and not inside):
            if log.begin_line:
                log.problem(no, f"a second '{BEGIN}' line (the first is line {log.begin_line}): "
                                "two runs in one log? capture one run per file")
            log.begin_line = log.begin_line or no
            inside = True
            continue
        if line == END or (line.endswith(END) and inside):
            inside = False
            log.end_marker_line = no
            continue
        final = final_match(line)
        if final:
            log.final_line, log.final_line_no = final, no
            continue
        m = CPU_RUN_LINE.match(line)
        if m and inside:
            cpu = int(m.group(1))
            log.cpu_lines.setdefault(cpu, (no, int(m.group(2))))
            # output=human prints no cpu_run record: the line starts the run
            log.cpu_current = (no, {"rec": "cpu_run", "cpu": cpu, "apic_id": int(m.group(2))})
        m = RUN_HEADER.match(line)
        if m:
            current = (m.group(1), m.group(2), cpu)
        if PAPER.match(line) and current:
            log.paper.setdefault(current, []).append((no, line))
        if inside and not line.startswith("{"):
            human_line(log, no, line, current, cpu)
            said = memclock.line_settings(line)
            if said is not None and getattr(log, "memclock_line", None) is None:
                log.memclock_line = (no, said)
        # Every line that starts with "{" between the markers is a record
        # (README); a record after noise on its line is recovered.
        start = 0 if line.startswith("{") else line.find('{"rec"')
        if start < 0:
            found = COMPACT.search(line)
            start = found.start() if found else -1
        if start < 0:
            continue
        if not inside:
            if start == 0:
                log.note(no, "a record outside the BEGIN/END markers, ignored")
            continue
        if start > 0:
            log.note(no, f"{start} characters of noise before a record, ignored")
        try:
            rec = json.loads(line[start:], parse_float=decimal.Decimal)
        except ValueError as e:
            log.problem(no, f"corrupted record ({e}): {line[:72]}{'...' if len(line) > 72 else ''}")
            continue
        if isinstance(rec, dict) and list(rec) == ["e"]:
            rec = expand_compact(rec["e"], header)
            if isinstance(rec, str):
                log.problem(no, f"corrupted compact ensemble record: it {rec}: {line[:72]}")
                continue
            log.compact += 1
        if not isinstance(rec, dict) or not isinstance(rec.get("rec"), str):
            log.problem(no, f"a JSON line that is not a record (no \"rec\" kind): {line[:72]}")
            continue
        if rec["rec"] == "method":
            header = rec
        elif rec["rec"] == "cpu_run" and is_uint(rec.get("cpu")):
            cpu = rec["cpu"]
        _file(log, no, rec)
    from_human_lines(log)
    check(log)
    return log


def _file(log, no, rec):
    kind = rec["rec"]
    log.records.append((no, rec))
    log.by_kind[kind].append((no, rec))
    why = _malformed(kind, rec)
    if why:
        log.problem(no, f"corrupted {kind} record: it {why}")
        return
    check_cpu(log, no, kind, rec)
    if kind == "cpu_run":
        if rec["cpu"] in log.cpu_runs:
            log.problem(no, f"a second cpu_run record for CPU {rec['cpu']} (the first is line "
                            f"{log.cpu_runs[rec['cpu']][0]})")
        else:
            log.cpu_runs[rec["cpu"]] = (no, rec)
        log.cpu_current = (no, rec)
    elif kind in ("env", "config", "end"):
        if getattr(log, kind) is not None:
            log.problem(no, f"a second {kind} record (the first is line {getattr(log, kind + '_line')})")
            return
        setattr(log, kind, rec)
        setattr(log, kind + "_line", no)
    elif kind == "method":
        s = log.get_series(_key(rec))
        if s.header:
            log.problem(no, f"a second method record for {s.name} (the first is line {s.header_line})")
        s.header, s.header_line = rec, no
        log.run_headers.setdefault((s.method, s.workload, s.cpu), (rec, no))
    elif kind == "skip":
        if rec.get("workload") is None:
            log.cpu_skips[(_key(rec)[4], rec["method"])] = (no, rec["reason"])
            if rec["method"] not in log.skips or _key(rec)[4] is None:
                log.skips[rec["method"]] = (no, rec["reason"])
                log.method(rec["method"]).skip, log.method(rec["method"]).skip_line = rec["reason"], no
    elif kind == "ensemble":
        s = log.get_series(_key(rec))
        s.ensembles.append(rec)
        s.ensemble_lines.append(no)
    elif kind == "summary":
        s = log.get_series(_key(rec))
        if s.summary:
            log.problem(no, f"a second summary record for {s.name} (the first is line {s.summary_line})")
        s.summary, s.summary_line = rec, no
    elif kind == "samples":
        _add_samples(log, no, rec)
    elif kind not in KNOWN_KINDS:
        log.unknown_kinds[kind] += 1


def _add_samples(log, no, rec):
    key, j = _key(rec), rec["ensemble"]
    s = log.get_series(key)
    d = s.dumps[-1] if s.dumps and s.dumps[-1].ensemble == j else None
    if d is None:
        d = Dump(key, j)
        s.dumps.append(d)
        log.dumps.append(d)
    if d.broken:
        return
    d.lines.append(no)
    if d.total is None:
        d.total = rec["total"]
    elif rec["total"] != d.total:
        log.problem(no, f"samples of {s.name} ensemble {j}: total {rec['total']}, "
                        f"the earlier chunks said {d.total}")
        d.broken = True
        return
    if rec["offset"] != len(d.values):
        what = "missing" if rec["offset"] > len(d.values) else "repeated"
        log.problem(no, f"samples of {s.name} ensemble {j}: a chunk at offset {rec['offset']}, "
                        f"expected offset {len(d.values)}: samples {what} (a chunk line lost or "
                        f"corrupted?)")
        d.broken = True
        return
    d.values.extend(rec["values"])
    if len(d.values) > d.total:
        log.problem(no, f"samples of {s.name} ensemble {j}: {len(d.values)} values, more than "
                        f"the total {d.total}")
        d.broken = True


#!/usr/bin/env python3
"""tools/benchlog.py - read and check a captured bench serial log.

The kernel prints human lines and, between the lines
"BEGIN bench-records v1" and "END bench-records", one JSON object per line
(README "Machine-readable output"). This module is the one parser of those
logs: it finds the records, tolerating what a serial capture adds (CR/LF
mixes, GRUB's escape sequences, control characters, noise lines, noise
before a record on its line), groups them into series, and checks them
against each other and against the paper's formulas.

    log = parse(text)                     # or load(path)
    log.valid                             # no problems found
    log.problems                          # [Problem(line, text)], each naming its line
    log.env, log.config, log.end          # records (dicts), or None
    log.series[("cpuid", "empty", "tsc_ticks", None, None)]  # one Series per
                                          # (method, workload, unit, counter, cpu)
    log.runs()                            # the TSC series, in log order
    log.skips                             # {method: (line, reason)}
    log.by_kind["verdict"]                # [(line, record)] for any kind,
                                          # known or not
    log.dumps                             # [Dump]: raw samples (dump=N)

A series holds its method record (header), ensemble records, summary record,
paper-format lines and dumped samples.

Per-CPU runs (cpus= other than boot, README "Every core"): the run measures
each selected CPU in turn. Before each CPU's run come the line "cpus:
measuring on CPU N (APIC ID A, ...)" and a cpu_run record (cpu, apic_id,
core_type, package, core, thread); while that CPU is measured, and while its
end-of-run tables are printed, every record carries "cpu" and "apic_id"
right after its kind. Compact ensemble records and paper-format lines carry
no cpu: they belong to the method record before them, as on one CPU. The
series key's fifth element is that cpu (None in a log without per-CPU runs:
cpus=boot, and every log before them), so one log holds the same (method,
workload, unit) once per CPU; every check below is made per CPU, and the end
record's methods_run, methods_skipped and ensemble_errors are sums over the
CPUs measured (cpus_measured of them). log.cpu_order lists the CPUs in the
order measured, log.cpu_info(N) what the log says of CPU N,
log.cpu_skips[(cpu, method)] each CPU's skips (log.skips keeps the first
reason per method). A record of another CPU inside a CPU's run, a series
record without "cpu" there, or an apic_id that is not its cpu_run's is a
problem at its line.

Every output= level is read. output=json, output=both and output=full print
records; json and both (the default) print each ensemble as a compact
record, {"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,NMIS,SMIS]} (README
"Machine-readable output"), which is read as the ensemble record it stands
for, with the figures it holds and those that follow from it and from the
method record before it: method, workload, unit, ensemble, param, samples,
primary, min, max, max_dev, variance, median, nmis, smis, error
(COMPACT_KEYS); output=full's records have more (mean, quantiles...), and
every figure in both is the same for the same run. output=human prints the paper-format lines, the human summary, skip and
config lines, and only the records of the environment and the end. For a
(method, workload) without records, the series is made from its human lines
(log.from_paper lists them): each paper-format line gives its ensemble's
minimum, max deviation and variance (maximum = minimum + max deviation),
the "method M: E ensembles x S samples" line the size and unit, the
"summary M/W:" and "result M/W:" lines the summary, and a
"method M: SKIPPED: why" line a skip; these are checked as records are.
Means, medians and quantiles are not in such a log. Records are keyed by (method,
workload, unit, counter, cpu); keys a record lacks are None, so older logs
without workloads and future ones with more counters read the same way.
Unknown record kinds and keys are kept and otherwise ignored.

Exact figures: integers are Python ints (no 64-bit limit); "mean" and other
decimals are decimal.Decimal, so "25.746" stays exactly that.
"""
import collections
import decimal
import json
import re
import sys

BEGIN = "BEGIN bench-records v1"
END = "END bench-records"
TSC = "tsc_ticks"

# CSI sequences (ESC [ params intermediates final), charset selection,
# single-character escapes: what GRUB and terminals send over a serial line.
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()*+][A-Za-z0-9]|\x1b[=>78cDEHMNOZ]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
PAPER = re.compile(
    r"^loop_size:(\d+) >>>> variance\(cycles\): (\d+|ERROR[^;]*); "
    r"max_deviation: (\d+) ;min time: (\d+)$")
RUN_HEADER = re.compile(r"^method (\S+): .*; workload (\S+): ")
# output=human lines (bench/report.c), read for a series without records.
HUMAN_SIZE = re.compile(
    r"^method (\S+): (\d+) ensembles x (\d+) samples, (\d+) warm-up samples discarded"
    r"(; ensemble j measures the loop)?.*; in the paper-format lines below 'cycles' means "
    r"(.+?) and variances are in ")
HUMAN_SKIP = re.compile(r"^method (\S+): SKIPPED: (.*)$")
_FIG = r"(\d+|ERROR)"
HUMAN_SUMMARY = re.compile(
    r"^summary (\S+)/(\S+): least minimum (\d+) .*?minimums (\d+)\.\.(\d+) (.+?); "
    rf"total variance {_FIG} .*?; variance of variances {_FIG} .*?; variance of minimum values "
    rf"{_FIG} .*?; absolute max deviation (\d+) .*?; (\d+) spurious min values; "
    r"(\d+) ensemble errors")
HUMAN_RESULT = re.compile(r"^result (\S+)/(\S+): (-?\d+) (.+?) net \(least minimum (\d+) - offset (\d+)\)")
CPU_RUN_LINE = re.compile(r"^cpus: measuring on CPU (\d+) \(APIC ID (\d+)")
HUMAN_CONFIG = re.compile(r"^config: (ensembles=\d+ samples=\d+ .*) \((\d+) command-line problems?\)$")
FINAL = re.compile(r"bench: (?:run (?:complete|aborted)|nested exception.*run aborted)")

# The compact ensemble record: its unit numbers (bench/results.h enum unit) and
# the keys of the ensemble record it is read as.
COMPACT = re.compile(r'\{"e":\[')
COMPACT_UNITS = ("tsc_ticks", "core_cycles", "instructions")
COMPACT_KEYS = ("rec", "method", "workload", "unit", "ensemble", "param", "samples", "primary", "min",
                "max", "max_dev", "variance", "median", "nmis", "smis", "error")
UNIT_NAMES = {"tsc_ticks": "TSC ticks", "core_cycles": "core cycles",
              "instructions": "instructions", "ns": "ns"}
# Kinds this module files; any other kind is kept in by_kind only.
CORE_KINDS = ("env", "config", "method", "skip", "ensemble", "summary", "samples", "end", "cpu_run")
# Kinds that make series: inside a CPU's run each must carry "cpu".
SERIES_KINDS = ("method", "skip", "ensemble", "summary", "samples")
# Kinds printed only inside a CPU's run: their cpu must be that run's.
RUN_KINDS = SERIES_KINDS + ("verdict", "resolution", "recommendation", "counters")
# Kinds tools/bench.py shows but nothing here checks.
SHOWN_KINDS = ("verdict", "resolution", "recommendation", "counters", "counters_choice", "pmu",
               "tsc_rate", "machine", "quiet", "serial_estimate", "acpi", "cpus")
# Figures of a summary record recomputed from its ensembles, with the power
# of the unit each is in.
SUMMARY_FIGURES = (("ensembles", 0), ("spurious", 0), ("min_of_mins", 1), ("max_of_mins", 1),
                   ("max_dev_all", 1), ("total_variance", 2), ("var_of_vars", 4),
                   ("var_of_mins", 2), ("errors", 0))
U64 = 1 << 64
U128 = 1 << 128


def unit_name(unit, power=1):
    """'tsc_ticks' -> 'TSC ticks', with ^power for variances."""
    name = UNIT_NAMES.get(unit, str(unit or "units").replace("_", " "))
    return name if power == 1 else f"{name}^{power}"


def with_unit(value, unit, power=1):
    """A figure and its unit: '21 TSC ticks', '89 TSC ticks^2'; None -> 'n/a'."""
    if value is None:
        return "n/a (overflow)"
    if power == 0:
        return str(value)
    return f"{value} {unit_name(unit, power)}"


def fmt_milli(milli):
    """Thousandths as the kernel prints them (lib/fmt fmt_milli): 25746 -> '25.746'."""
    return f"{milli // 1000}.{milli % 1000:03d}"


# --- the paper's statistics, exactly as lib/stats.c computes them ---------

def var_calc(xs):
    """The paper's var_calc (appendix lines 73-97): (n*Σx² - (Σx)²) // n²,
    or None where lib/stats.c reports an overflow of its 128-bit sums or a
    result beyond 64 bits."""
    n = len(xs)
    if n == 0:
        return None
    s = sum(xs)
    sq = sum(x * x for x in xs)
    if sq >= U128 or n * sq >= U128 or s * s >= U128:
        return None
    q = (n * sq - s * s) // (n * n)
    return q if q < U64 else None


def mean_milli(xs):
    """The mean in thousandths, floored (lib/stats.c acc_mean_milli), or None."""
    if not xs:
        return None
    s = sum(xs)
    q = s * 1000 // len(xs)
    return None if s * 1000 >= U128 or q >= U64 else q


def ensemble_stats(xs):
    """What the kernel's ensemble record holds for samples xs: min, max,
    max_dev, variance (None on overflow) and mean (a Decimal, None on
    overflow)."""
    var, mm = var_calc(xs), mean_milli(xs)
    bad = var is None or mm is None
    return {"samples": len(xs), "min": min(xs), "max": max(xs), "max_dev": max(xs) - min(xs),
            "variance": None if bad else var,
            "mean": None if bad else decimal.Decimal(fmt_milli(mm))}


def summary_stats(ensembles):
    """The paper's summary (appendix lines 139-175) of ensemble records, in
    ensemble order, as lib/stats.c summary_add/summary_finish compute it.
    Figures that overflow there are None."""
    mins, variances, spurious, max_dev_all, errors, prev = [], [], 0, 0, 0, None
    for e in ensembles:
        if not e.get("samples", 1):
            errors += 1
            continue
        if prev is not None and prev > e["min"]:
            spurious += 1
        prev = e["min"]
        max_dev_all = max(max_dev_all, e["max_dev"])
        mins.append(e["min"])
        if e.get("error") is not None or e.get("variance") is None:
            errors += 1
        else:
            variances.append(e["variance"])
    total = None
    if variances and sum(variances) < U128:
        total = sum(variances) // len(variances)
        total = total if total < U64 else None
    return {"ensembles": len(mins), "spurious": spurious,
            "min_of_mins": min(mins) if mins else None,
            "max_of_mins": max(mins) if mins else None,
            "max_dev_all": max_dev_all, "total_variance": total,
            "var_of_vars": var_calc(variances), "var_of_mins": var_calc(mins),
            "errors": errors}


# --- the model --------------------------------------------------------------

class Problem:
    """Something wrong with the log, at a line (1-based, as an editor counts
    them) or about the whole log (line None)."""

    def __init__(self, line, text):
        self.line, self.text = line, text

    def __str__(self):
        return f"line {self.line}: {self.text}" if self.line else self.text

    __repr__ = __str__


class Series:
    """One (method, workload, unit, counter, cpu): the ensembles of one run
    of a workload under a method, in one unit, on one CPU (None: the log
    has no per-CPU runs)."""

    def __init__(self, key):
        self.key = key
        self.method, self.workload, self.unit, self.counter, self.cpu = key
        self.header = None            # the "method" record, in the series of the
        self.header_line = None       # method's own unit (its primary series)
        self.run_header = None        # the method record of this (method, workload)
        self.run_header_line = None
        self.ensembles = []           # records, in log order
        self.ensemble_lines = []      # their line numbers
        self.summary = None
        self.summary_line = None
        self.paper = []               # (line, text) of the paper-format lines
        self.dumps = []               # Dump objects
        self._by_number = {}          # ensemble number -> (record, line)
        self._indexed = 0

    @property
    def name(self):
        """'cpuid/empty', plus the unit when it is not the TSC's."""
        n = f"{self.method}/{self.workload or '-'}"
        if self.unit != TSC:
            n += f" [{unit_name(self.unit)}{', ' + str(self.counter) if self.counter else ''}]"
        if self.cpu is not None:
            n += f" on CPU {self.cpu}"
        return n

    @property
    def primary(self):
        """Whether this is the method's own unit (TSC ticks for the paper's
        methods; counters beside them are secondary series)."""
        return self.header is not None

    @property
    def samples(self):
        """Samples per ensemble, from the method record or the ensembles."""
        h = self.header or self.run_header
        if h and isinstance(h.get("samples"), int):
            return h["samples"]
        return self.ensembles[0].get("samples") if self.ensembles else None

    @property
    def announced(self):
        """How many ensembles the method record announced."""
        h = self.header or self.run_header
        if h and isinstance(h.get("ensembles"), int):
            return h["ensembles"]
        return None

    def _index(self):
        if self._indexed != len(self.ensembles):
            self._by_number = {}
            for e, no in zip(self.ensembles, self.ensemble_lines):
                self._by_number.setdefault(e["ensemble"], (e, no))
            self._indexed = len(self.ensembles)
        return self._by_number

    def ensemble(self, j):
        """The first ensemble record numbered j, or None."""
        return self._index().get(j, (None, None))[0]

    def line_of(self, j):
        return self._index().get(j, (None, None))[1]

    def is_resolution(self):
        """Whether ensemble j measures a loop of growing size (paper 3.3):
        workload measured_loop, a method record with "param": "ensemble", or
        ensemble records whose "param" rises with the ensemble number."""
        if self.workload == "measured_loop":
            return True
        if self.header and (self.header.get("resolution") is True or self.header.get("param") == "ensemble"):
            return True
        params = [e.get("param") for e in self.ensembles]
        return (len(params) > 2 and all(isinstance(p, int) for p in params)
                and all(a < b for a, b in zip(params, params[1:])))

    def figures(self):
        """The summary figures: from the summary record, or recomputed from
        the ensembles when there is none (a log cut short)."""
        if self.summary:
            return self.summary, True
        return summary_stats(self.ensembles), False


class Dump:
    """One ensemble's raw samples, from "samples" records (dump=N)."""

    def __init__(self, key, ensemble):
        self.key, self.ensemble = key, ensemble
        self.method, self.workload, self.unit, self.counter, self.cpu = key
        self.values = []
        self.total = None
        self.lines = []
        self.broken = False
        self.check = None     # {"figure": (recomputed, recorded)} once compared
        self.record_line = None
        self.note = None      # why it was not compared

    @property
    def complete(self):
        return not self.broken and self.total is not None and len(self.values) == self.total

    def mismatches(self):
        return {k: v for k, v in (self.check or {}).items() if v[0] != v[1]}


class Method:
    def __init__(self, name):
        self.name = name
        self.skip = None       # reason
        self.skip_line = None
        self.series = []       # its series (every unit), in log order


class Log:
    def __init__(self):
        self.path = None
        self.size = 0
        self.lines = []           # (line number, cleaned text)
        self.line_count = 0       # lines in the file, as an editor counts them
        self.last_line = (0, "")  # last non-empty line
        self.records = []         # (line, record) inside the markers
        self.by_kind = collections.defaultdict(list)
        self.env = self.config = self.end = None
        self.env_line = self.config_line = self.end_line = None
        self.series = collections.OrderedDict()
        self.methods = collections.OrderedDict()
        self.skips = collections.OrderedDict()
        self.dumps = []
        self.begin_line = self.end_marker_line = None
        self.final_line = None
        self.final_line_no = None
        self.problems = []
        self.notes = []           # harmless oddities: noise, unknown kinds
        self.unknown_kinds = collections.Counter()
        self.run_headers = {}     # (method, workload, cpu) -> (method record, line)
        self.paper = collections.OrderedDict()  # (method, workload, cpu) -> [(line, text)]
        self.human = {}           # output=human lines: ("size"|"summary"|"result", m, w, cpu[, unit])
                                  # -> (line, match)
        self.human_skips = collections.OrderedDict()  # (cpu, method) -> (line, reason)
        self.cpu_skips = collections.OrderedDict()    # (cpu, method) -> (line, reason)
        self.cpu_runs = collections.OrderedDict()     # cpu -> (line, cpu_run record)
        self.cpu_lines = collections.OrderedDict()    # cpu -> (line, APIC ID): "cpus: measuring on"
        self.human_config = None  # (line, match)
        self.from_paper = []      # the series made from human lines (no records)
        self.compact = 0          # ensemble records read from compact ones
        self.cpu_current = None   # (line, cpu_run record) of the CPU being read

    @property
    def valid(self):
        return not self.problems

    @property
    def complete(self):
        return bool(self.final_line and self.final_line.startswith("bench: run complete"))

    def problem(self, line, text):
        self.problems.append(Problem(line, text))

    def note(self, line, text):
        self.notes.append(Problem(line, text))

    def get_series(self, key):
        if key not in self.series:
            self.series[key] = Series(key)
            self.method(key[0]).series.append(self.series[key])
        return self.series[key]

    def method(self, name):
        if name not in self.methods:
            self.methods[name] = Method(name)
        return self.methods[name]

    def runs(self, unit=TSC, cpu=...):
        """The series in one unit (default: TSC ticks), in log order; of one
        CPU when cpu is given (None: the series of a log without per-CPU
        runs)."""
        return [s for s in self.series.values() if s.unit == unit and (cpu is ... or s.cpu == cpu)]

    @property
    def cpu_order(self):
        """The CPUs measured, in the order measured (their cpu_run records or
        "cpus: measuring on CPU N" lines, then any other CPU a series names);
        [] for a log without per-CPU runs."""
        order = list(self.cpu_runs) or list(self.cpu_lines)
        for s in self.series.values():
            if s.cpu is not None and s.cpu not in order:
                order.append(s.cpu)
        return order

    def cpu_info(self, cpu):
        """What the log says of CPU cpu: its entry of the env's cpus record
        (apic_id, core_type, package, core, thread, online, boot), updated
        with its cpu_run record; {} when the log says nothing."""
        info = {}
        for e in (dict(self.by_kind["cpus"][0][1]).get("list") or []) if self.by_kind.get("cpus") else []:
            if isinstance(e, dict) and e.get("cpu") == cpu:
                info.update(e)
        if cpu in self.cpu_runs:
            info.update({k: v for k, v in self.cpu_runs[cpu][1].items() if k != "rec"})
        elif cpu in self.cpu_lines and "apic_id" not in info:
            info["apic_id"] = self.cpu_lines[cpu][1]
        return info

    def cpu_label(self, cpu):
        """'CPU 1 (APIC ID 2, P-core, package 0, core 1, thread 0)'."""
        i = self.cpu_info(cpu)
        parts = [f"APIC ID {i['apic_id']}" if isinstance(i.get("apic_id"), int) else "APIC ID ?"]
        if i.get("core_type"):
            parts.append(str(i["core_type"]))
        parts += [f"{k} {i[k]}" for k in ("package", "core", "thread") if isinstance(i.get(k), int)]
        return f"CPU {cpu} ({', '.join(parts)})"

    def other_units(self):
        return sorted({s.unit for s in self.series.values() if s.unit != TSC})

    def companion(self, series, unit=TSC):
        """The series of the same method and workload in another unit."""
        for s in self.series.values():
            if s.method == series.method and s.workload == series.workload and s.unit == unit \
                    and s.cpu == series.cpu and s is not series:
                return s
        return None


# --- reading ----------------------------------------------------------------

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
    with open(path, "rb") as f:
        data = f.read()
    log = parse(data.decode("utf-8", errors="replace"))
    log.path, log.size = path, len(data)
    if not data:
        log.problems = [Problem(None, f"{path}: the file is empty (0 bytes): nothing was captured")]
    return log


def _key(rec):
    unit = rec.get("unit") or TSC
    cpu = rec.get("cpu")
    return (rec.get("method"), rec.get("workload"), unit, rec.get("counter"),
            cpu if _is_uint(cpu) else None)


def _is_uint(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _uints(v):
    return isinstance(v, list) and all(_is_uint(x) for x in v)


def _str(v):
    return isinstance(v, str)


# Keys a record of a known kind must have for this module to use it, with
# the test each value must pass; and keys that, when present, must pass one.
_ENSEMBLE = {"method": _str, "ensemble": _is_uint, "min": _is_uint, "max": _is_uint,
             "max_dev": _is_uint}
REQUIRED = {
    "method": {"method": _str},
    "skip": {"method": _str, "reason": _str},
    "ensemble": _ENSEMBLE,
    "summary": {"method": _str},
    "samples": {"method": _str, "ensemble": _is_uint, "offset": _is_uint, "total": _is_uint,
                "values": _uints},
    "cpu_run": {"cpu": _is_uint, "apic_id": _is_uint},
}
# Keys any record may carry (per-CPU runs), with their test.
ANY_KIND = {"cpu": _is_uint, "apic_id": _is_uint}
OPTIONAL = {
    "ensemble": {"samples": _is_uint, "variance": lambda v: v is None or _is_uint(v),
                 "workload": _str},
    "summary": {"workload": _str},
    "method": {"workload": _str},
}


def _malformed(kind, rec):
    """Why a record of a known kind cannot be used, or None."""
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
    if not (_is_uint(u) and u < len(COMPACT_UNITS)):
        return f"has the unit {json.dumps(u)[:20]}, not 0, 1 or 2"
    if not all(_is_uint(x) for x in (j, low, high, med, nmis)) or \
            not (var is None or _is_uint(var)) or (len(values) == 8 and not _is_uint(smis)):
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


def parse(text):
    log = Log()
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
            _human_line(log, no, line, current, cpu)
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
        elif rec["rec"] == "cpu_run" and _is_uint(rec.get("cpu")):
            cpu = rec["cpu"]
        _file(log, no, rec)
    _check(log)
    return log


def _human_line(log, no, line, current, cpu):
    """Keep the output=human lines a series without records is made from,
    keyed by the CPU being measured (None: no per-CPU runs)."""
    m = HUMAN_SIZE.match(line)
    if m and current and m.group(1) == current[0]:
        log.human.setdefault(("size",) + current, (no, m))
        return
    m = HUMAN_SKIP.match(line)
    if m:
        log.human_skips.setdefault((cpu, m.group(1)), (no, m.group(2)))
        return
    m = HUMAN_SUMMARY.match(line)
    if m:
        log.human.setdefault(("summary", m.group(1), m.group(2), cpu, _unit_key(m.group(6))), (no, m))
        return
    m = HUMAN_RESULT.match(line)
    if m:
        log.human.setdefault(("result", m.group(1), m.group(2), cpu, _unit_key(m.group(4))), (no, m))
        return
    m = HUMAN_CONFIG.match(line)
    if m and log.human_config is None:
        log.human_config = (no, m)


def _unit_key(name):
    """'TSC ticks' -> 'tsc_ticks' (UNIT_NAMES reversed); other names as keys."""
    for k, v in UNIT_NAMES.items():
        if v == name:
            return k
    return name.replace(" ", "_")


def _int_or_none(text):
    return None if text.startswith("ERROR") else int(text)


def _from_human_lines(log):
    """output=human: series, skips and config from the human lines where the
    log has no records of them (module docstring)."""
    for (m, w, cpu), lines in log.paper.items():
        size = log.human.get(("size", m, w, cpu))
        unit = _unit_key(size[1].group(6)) if size else TSC
        s = log.get_series((m, w, unit, None, cpu))
        if s.ensembles or s.header or s.summary or (m, w, cpu) in log.run_headers:
            continue  # records: the paper-format lines are checked against them
        log.from_paper.append(s)
        if size:
            no, g = size
            s.header, s.header_line = {
                "rec": "method", "method": m, "workload": w, "unit": unit,
                "ensembles": int(g.group(2)), "samples": int(g.group(3)),
                "warmup": int(g.group(4)), "resolution": bool(g.group(5))}, no
            log.run_headers[(m, w, cpu)] = (s.header, no)
        for no, text in lines:
            g = PAPER.match(text)
            var, dev, low = g.group(2), int(g.group(3)), int(g.group(4))
            rec = {"rec": "ensemble", "method": m, "workload": w, "unit": unit,
                   "ensemble": int(g.group(1)), "min": low, "max": low + dev, "max_dev": dev,
                   "variance": _int_or_none(var), "error": "overflow" if var.startswith("ERROR") else None}
            if s.header:
                rec["samples"] = s.header["samples"]
            s.ensembles.append(rec)
            s.ensemble_lines.append(no)
        summ = log.human.get(("summary", m, w, cpu, unit))
        if summ:
            no, g = summ
            s.summary, s.summary_line = {
                "rec": "summary", "method": m, "workload": w, "unit": unit,
                "min_of_mins": int(g.group(3)), "max_of_mins": int(g.group(5)),
                "total_variance": _int_or_none(g.group(7)), "var_of_vars": _int_or_none(g.group(8)),
                "var_of_mins": _int_or_none(g.group(9)), "max_dev_all": int(g.group(10)),
                "spurious": int(g.group(11)), "errors": int(g.group(12))}, no
            if int(g.group(4)) != int(g.group(3)):
                log.problem(no, f"{s.name}: the summary line's least minimum {g.group(3)} and "
                                f"minimums {g.group(4)}..{g.group(5)} disagree")
            res = log.human.get(("result", m, w, cpu, unit))
            if res:
                s.summary["net_min"], s.summary["offset"] = int(res[1].group(3)), int(res[1].group(6))
            elif w == "empty":
                s.summary["offset"], s.summary["net_min"] = s.summary["min_of_mins"], 0
    if not log.by_kind.get("skip"):
        for (cpu, m), (no, why) in log.human_skips.items():
            log.cpu_skips.setdefault((cpu, m), (no, why))
            if m not in log.skips:
                log.skips[m] = (no, why)
                log.method(m).skip, log.method(m).skip_line = why, no
    if not log.cpu_runs:
        for cpu, (no, apic) in log.cpu_lines.items():
            log.cpu_runs[cpu] = (no, {"rec": "cpu_run", "cpu": cpu, "apic_id": apic})
    if log.config is None and log.human_config:
        no, g = log.human_config
        words = dict(w.split("=", 1) for w in g.group(1).split() if "=" in w)
        cfg = {"rec": "config", "problems": int(g.group(2))}
        for k in ("ensembles", "samples", "warmup"):
            if words.get(k, "").isdigit():
                cfg[k] = int(words[k])
        for k in ("methods", "workloads", "output", "pmu"):
            if k in words:
                cfg[k] = words[k]
        cfg["resolution"] = words.get("resolution") == "on"
        cfg["dump"] = int(words["dump"]) if words.get("dump", "").isdigit() else None
        for k, key in (("verdict.var_of_vars", "max_var_of_vars"), ("verdict.var_of_mins", "max_var_of_mins")):
            if words.get(k, "").isdigit():
                cfg[key] = int(words[k])
        log.config, log.config_line = cfg, no


def _file(log, no, rec):
    kind = rec["rec"]
    log.records.append((no, rec))
    log.by_kind[kind].append((no, rec))
    why = _malformed(kind, rec)
    if why:
        log.problem(no, f"corrupted {kind} record: it {why}")
        return
    _check_cpu(log, no, kind, rec)
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
    elif kind not in CORE_KINDS and kind not in SHOWN_KINDS:
        log.unknown_kinds[kind] += 1


def _check_cpu(log, no, kind, rec):
    """Per-CPU runs: a record's cpu and apic_id are those of the cpu_run
    record before it; a series record inside a CPU's run carries them."""
    cur = log.cpu_current
    if kind not in RUN_KINDS:
        return  # e.g. a per-CPU record of the env section (TSC sync): no run to belong to
    if "cpu" not in rec:
        if cur and kind in SERIES_KINDS:
            log.problem(no, f"a {kind} record without \"cpu\" inside the run of CPU {cur[1]['cpu']} "
                            f"(which starts at line {cur[0]})")
        return
    if cur is None:
        log.problem(no, f"a {kind} record of CPU {rec['cpu']} before any CPU's run starts (no "
                        "cpu_run record or 'cpus: measuring on CPU' line before it)")
    elif rec["cpu"] != cur[1]["cpu"]:
        log.problem(no, f"a {kind} record of CPU {rec['cpu']} inside the run of CPU {cur[1]['cpu']} "
                        f"(which starts at line {cur[0]})")
    elif "apic_id" in rec and rec["apic_id"] != cur[1]["apic_id"]:
        log.problem(no, f"a {kind} record of CPU {rec['cpu']} with APIC ID {rec['apic_id']}, the start "
                        f"of its run (line {cur[0]}) says APIC ID {cur[1]['apic_id']}")


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


# --- checking -----------------------------------------------------------------

def _where_cut(log):
    """Which series was being printed when the log stops."""
    for s in reversed(list(log.series.values())):
        if s.ensembles or s.header:
            last = s.ensembles[-1]["ensemble"] if s.ensembles else None
            of = f" of {s.announced}" if s.announced else ""
            after = f"after ensemble {last}{of}" if last is not None else "before its first ensemble"
            return f"inside the records of {s.name}, {after}"
    return "before the first method"


def _check(log):
    last_no, last_text = log.last_line
    shown = last_text if len(last_text) <= 60 else last_text[:57] + "..."
    cut = False
    if not any(t for _, t in log.lines):
        log.problem(None, "the log is empty: nothing was captured")
        return
    _from_human_lines(log)
    if not log.begin_line:
        log.problem(None, f"no '{BEGIN}' line in {last_no} lines: not a bench log, the kernel "
                          "printed nothing (output=...?) or the capture started too late")
    elif not log.end_marker_line:
        cut = True
        log.problem(last_no, f"the log is cut short: it stops here ({shown!r}), {_where_cut(log)}, "
                             f"with no '{END}' line" +
                             ("" if log.final_line else " and no final 'bench: run ...' line"))
    if log.begin_line and log.end_marker_line and not log.final_line:
        log.problem(last_no, f"no final 'bench: run complete' line: the capture stops here "
                             f"({shown!r}), after '{END}' (line {log.end_marker_line})")
    if log.final_line and not log.final_line.startswith("bench: run complete"):
        log.problem(log.final_line_no, f"the run did not complete: {log.final_line}")
    if log.begin_line and log.end_marker_line and not log.skips and not summary_only(log) and \
            not any(s.ensembles for s in log.series.values()):
        log.problem(log.end_marker_line, "no ensemble records and no paper-format lines between "
                                         "the markers")
    if log.begin_line and log.end_marker_line and log.records and log.end is None:
        log.problem(log.end_marker_line, "no 'end' record before the END line")

    # The paper-format lines are the method's own unit's (the unit of its
    # method record; TSC ticks when there is none, with output=human).
    for (m, w, cpu), lines in log.paper.items():
        h = log.run_headers.get((m, w, cpu), ({}, None))[0]
        log.get_series((m, w, h.get("unit") or TSC, None, cpu)).paper = lines
    for s in list(log.series.values()):
        s.run_header, s.run_header_line = log.run_headers.get((s.method, s.workload, s.cpu),
                                                              (None, None))
    # Cut short: the run being printed (in every unit) is incomplete, not wrong.
    last = _last_series(log)
    for s in log.series.values():
        _check_series(log, s, cut and last is not None and
                      (s.method, s.workload, s.cpu) == (last.method, last.workload, last.cpu))
    for d in log.dumps:
        _check_dump(log, d)
    if log.end_marker_line:
        _check_methods(log)
    for kind, n in sorted(log.unknown_kinds.items()):
        log.note(None, f"{n} record(s) of kind {kind!r}, not known to this tool: ignored")
    log.problems.sort(key=lambda p: (p.line is not None, p.line or 0))


def _last_series(log):
    for s in reversed(list(log.series.values())):
        if s.ensembles or s.header:
            return s
    return None


def summary_only(log):
    """Whether the log is an output=summary run's: summaries without any
    per-ensemble line or record, so there is nothing to count or recompute."""
    return (log.config or {}).get("output") == "summary"


def _check_series(log, s, in_progress):
    u = s.unit
    if summary_only(log):
        if s.ensembles or s.paper:
            log.problem((s.ensemble_lines or [s.paper[0][0] if s.paper else None])[0],
                        f"{s.name}: per-ensemble lines in an output=summary log")
        elif s.header and s.summary is None and not in_progress:
            log.problem(s.header_line, f"{s.name}: a method record but no summary record")
        return
    if not s.ensembles and not s.summary:
        if s.header and not in_progress and not s.paper:
            log.problem(s.header_line, f"{s.name}: a method record but no ensemble records")
        return
    # Numbering: 0, 1, 2, ... in order.
    expect = 0
    for e, no in zip(s.ensembles, s.ensemble_lines):
        j = e["ensemble"]
        if j != expect:
            if j > expect:
                gone = f"ensemble {expect}" if j == expect + 1 else f"ensembles {expect}..{j - 1}"
                log.problem(no, f"{s.name}: ensemble {j} follows ensemble {expect - 1}: "
                                f"{gone} missing (a record line lost or corrupted?)"
                            if expect else f"{s.name}: the first ensemble is {j}: {gone} missing")
            else:
                log.problem(no, f"{s.name}: ensemble {j} again after ensemble {expect - 1} "
                                "(repeated or out of order)")
        expect = j + 1
        if e["min"] > e["max"] or e["max_dev"] != e["max"] - e["min"]:
            log.problem(no, f"{s.name} ensemble {j}: min {e['min']}, max {e['max']} and max_dev "
                            f"{e['max_dev']} {unit_name(u)} disagree (max_dev must be max - min)")
        if s.samples is not None and e.get("samples") not in (None, s.samples):
            log.problem(no, f"{s.name} ensemble {j}: {e.get('samples')} samples, the method record "
                            f"says {s.samples}")
    want = s.announced
    if want is not None and len(s.ensembles) != want and not in_progress:
        log.problem(s.summary_line or (s.ensemble_lines or [s.header_line])[-1],
                    f"{s.name}: {len(s.ensembles)} ensemble records, the method record "
                    f"(line {s.header_line or s.run_header_line}) announced {want}")
    # The paper-format lines say the same as the records.
    for no, text in s.paper:
        m = PAPER.match(text)
        j = int(m.group(1))
        e = s.ensemble(j)
        if e is None:
            continue  # the numbering check reports it
        var = str(e["variance"]) if e.get("variance") is not None else None
        if (var is not None and m.group(2) != var) or int(m.group(3)) != e["max_dev"] \
                or int(m.group(4)) != e["min"]:
            log.problem(no, f"{s.name}: the paper-format line for loop_size {j} disagrees with its "
                            f"record (line {s.line_of(j)}): {text!r}")
    # The summary agrees with the ensembles.
    if s.summary is None:
        if not in_progress and s.ensembles:
            log.problem(s.ensemble_lines[-1], f"{s.name}: no summary record after its last ensemble")
        return
    if in_progress:
        return
    mine = summary_stats(s.ensembles)
    for fig, power in SUMMARY_FIGURES:
        if fig not in s.summary:
            continue
        theirs = s.summary[fig]
        if theirs != mine[fig]:
            log.problem(s.summary_line,
                        f"summary of {s.name} disagrees with its ensemble records: {fig} is "
                        f"{with_unit(theirs, u, power)}, the ensembles give "
                        f"{with_unit(mine[fig], u, power)}")
    if all(_is_uint(s.summary.get(k)) for k in ("min_of_mins", "offset")) and \
            isinstance(s.summary.get("net_min"), int):
        if s.summary["net_min"] != s.summary["min_of_mins"] - s.summary["offset"]:
            log.problem(s.summary_line, f"summary of {s.name}: net_min {s.summary['net_min']} is not "
                                        "min_of_mins - offset")


def _check_dump(log, d):
    s = log.series.get(d.key)
    if d.broken:
        d.note = "its chunks are broken"
        return
    if d.total is not None and len(d.values) < d.total:
        if log.end_marker_line:
            log.problem(d.lines[-1], f"samples of {s.name} ensemble {d.ensemble}: {len(d.values)} of "
                                     f"{d.total} values, the rest is missing")
        d.note = f"only {len(d.values)} of {d.total} values were captured"
        return
    e = s.ensemble(d.ensemble)
    d.record_line = s.line_of(d.ensemble)
    if e is None:
        if log.end_marker_line:
            log.problem(d.lines[0], f"samples of {s.name} ensemble {d.ensemble} but no ensemble "
                                    "record for it")
        d.note = "no ensemble record to compare with"
        return
    if e.get("samples") is not None and e["samples"] != len(d.values):
        d.note = (f"the kernel dumped the first {len(d.values)} of {e['samples']} samples "
                  "(DUMP_MAX_SAMPLES): not comparable with the ensemble record")
        return
    mine = ensemble_stats(d.values)
    d.check = {k: (mine[k], e[k]) for k in ("min", "max", "max_dev", "variance", "mean") if k in e}
    bad = d.mismatches()
    if bad:
        units = {"variance": 2}
        log.problem(d.record_line,
                    f"the dumped samples of {s.name} ensemble {d.ensemble} (lines {d.lines[0]}-"
                    f"{d.lines[-1]}) do not give this ensemble record: " +
                    "; ".join(f"{k} recomputed {with_unit(a, d.unit, units.get(k, 1))}, recorded "
                              f"{with_unit(b, d.unit, units.get(k, 1))}" for k, (a, b) in bad.items()))


def _check_methods(log):
    """Each CPU measured (or the one CPU of a log without per-CPU runs) ran
    or skipped every method selected; the end record's counts are the sums
    over the CPUs."""
    cfg = log.config or {}
    ran = list(dict.fromkeys((s.cpu, s.method) for s in log.series.values()
                             if s.ensembles or (summary_only(log) and s.summary)))
    cpus = log.cpu_order or [None]
    if isinstance(cfg.get("methods"), str):
        have = {(s.cpu, s.method) for s in log.series.values()}
        for cpu in cpus:
            on = f" on CPU {cpu}" if cpu is not None else ""
            for name in filter(None, cfg["methods"].split(",")):
                if (cpu, name) not in have and (cpu, name) not in log.cpu_skips:
                    log.problem(log.end_marker_line, f"method {name} was selected (config record, line "
                                                     f"{log.config_line}) but neither ran nor was "
                                                     f"skipped{on}")
    if isinstance(cfg.get("workloads"), str):
        for cpu, m in ran:
            have = {s.workload for s in log.methods[m].series if s.cpu == cpu}
            for w in filter(None, cfg["workloads"].split(",")):
                if w not in have:
                    log.note(log.end_marker_line, f"workload {w} was selected but method {m} "
                                                  "has no records of it" +
                                                  (f" on CPU {cpu}" if cpu is not None else ""))
    end = log.end or {}
    checks = (("methods_run", len(ran)), ("methods_skipped", len(log.cpu_skips)),
              ("ensemble_errors", sum((s.summary or {}).get("errors") or 0
                                      for s in log.series.values())),
              ("cpus_measured", len(log.cpu_order) or 1))
    for k, mine in checks:
        if _is_uint(end.get(k)) and end[k] != mine:
            log.problem(log.end_line, f"the end record says {k}={end[k]}, the records give {mine}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: benchlog.py LOG   (tools/bench.py report LOG prints the full report)")
    lg = load(sys.argv[1])
    for p in lg.problems:
        print("error:", p)
    for s in lg.runs():
        fig, _ = s.figures()
        print(f"{s.name}: {len(s.ensembles)} ensembles, least minimum "
              f"{with_unit(fig.get('min_of_mins'), s.unit)}, variance of variances "
              f"{with_unit(fig.get('var_of_vars'), s.unit, 4)}, variance of minimum values "
              f"{with_unit(fig.get('var_of_mins'), s.unit, 2)}")
    for name, (_, why) in lg.skips.items():
        print(f"{name}: skipped: {why}")
    sys.exit(0 if lg.valid else 1)

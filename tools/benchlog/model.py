"""tools/benchlog/model.py - what a parsed log holds: the Log, its Series (one
per method, workload, unit, counter and CPU), the Dumps of raw samples, the
Methods, the Problems found; the log format's names (the markers, the
paper-format line, the record kinds) and the units' names.

reading.py fills these objects and checks.py checks them; the report
(tools/benchreport.py), the database (tools/benchdb.py), the figures
(tools/benchplot.py) and the QR code's reader (tools/benchqr.py) read them.
docs/RECORDS.md "Machine-readable output" describes the records.
"""
import collections
import re

from .stats import summary_stats

BEGIN = "BEGIN bench-records v1"
END = "END bench-records"
TSC = "tsc_ticks"

# The paper-format line (paper 3.1.2, appendix; bench/report.c): ensemble
# j's variance, max deviation and minimum.
# The variance is exact (group 2), with PAPER64_NOTE (bench/report.h) where the
# paper's own 64-bit code would have overflowed; "none (no samples)" where it is
# missing; "ERROR (...)" in logs of kernels before the figures were exact.
PAPER64_NOTE = " (too large for the paper's 64-bit code)"
PAPER = re.compile(
    r"^loop_size:(\d+) >>>> variance\(cycles\): (\d+|ERROR[^;]*|none \(no samples\))"
    rf"(?:{re.escape(PAPER64_NOTE)})?; "
    r"max_deviation: (\d+) ;min time: (\d+)$")
UNIT_NAMES = {"tsc_ticks": "TSC ticks", "core_cycles": "core cycles",
              "instructions": "instructions", "ns": "ns"}
# Kinds reading.py files; any other kind is kept in by_kind only.
CORE_KINDS = ("env", "config", "method", "skip", "ensemble", "summary", "samples", "end", "cpu_run")
# Kinds that make series: inside a CPU's run each must carry "cpu".
SERIES_KINDS = ("method", "skip", "ensemble", "summary", "samples")
# Kinds printed only inside a CPU's run: their cpu must be that run's.
RUN_KINDS = SERIES_KINDS + ("verdict", "resolution", "recommendation", "counters")
# Kinds the report (tools/benchreport.py) shows but nothing here checks.
SHOWN_KINDS = ("verdict", "resolution", "recommendation", "counters", "counters_choice", "pmu",
               "tsc_rate", "tsc_step", "machine", "quiet", "serial_estimate", "acpi", "cpus",
               # the user's code (code=): its bytes, the per-copy figure, the methods' agreement on it
               "code", "per_copy", "per_copy_agreement",
               # tools/benchrecords.py: a line each under "Platform and measurement records"
               "clocks", "smp", "smp_test", "tsc_sync", "tsc_adjust", "smi_unreadable", "walk",
               "code_offset", "code_fault", "cpu_compare", "plan_file",
               # performance events by name (events=): events.py checks them
               "event", "event_pass", "event_check", "event_window", "event_per_copy", "topdown",
               # memory, caches and clocks (issue 31): memclock.py checks them
               "mem_area", "cache_state", "prefetch", "clock_setting", "core_clock", "latency_point",
               "latency_levels",
               # a plan run (issue 32): plan.py reads them; the machine's identity: identity.py
               "plan", "experiment", "experiment_end", "smbios", "memory_device")
# Kinds the kernel prints after the final line, outside the record markers,
# on the serial port only: never in the file saved or sent, nor in what
# `bench.py capture` keeps (it stops at the final line); tools/benchlog
# reads up to the final line, so it never meets them in a run's log
# (docs/RECORDS.md: send, the result of send=).
AFTER_FINAL_KINDS = ("send",)
# Every kind the tools know: a record of another kind is noted "not known to
# this tool: ignored" (tests/tools/t_kinds.py: every kind the kernel's
# source prints is here).
KNOWN_KINDS = CORE_KINDS + SHOWN_KINDS + AFTER_FINAL_KINDS


def unit_name(unit, power=1):
    """'tsc_ticks' -> 'TSC ticks', with ^power for variances."""
    name = UNIT_NAMES.get(unit, str(unit or "units").replace("_", " "))
    return name if power == 1 else f"{name}^{power}"


def with_unit(value, unit, power=1):
    """A figure and its unit: '21 TSC ticks', '89 TSC ticks^2'; None -> 'n/a'
    (a figure the record does not give: null, or a log of a kernel before
    the figures were exact, where null meant an overflow)."""
    if value is None:
        return "n/a"
    if power == 0:
        return str(value)
    return f"{value} {unit_name(unit, power)}"


def is_uint(v):
    """Whether a record's value is a figure: an int >= 0, not a bool."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def summary_only(log):
    """Whether the log is an output=summary run's: summaries without any
    per-ensemble line or record, so there is nothing to count or recompute."""
    return (log.config or {}).get("output") == "summary"


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
    """A method named in the log: its series in every unit, in log order,
    and why it was skipped (its skip record or line), if it was."""

    def __init__(self, name):
        self.name = name
        self.skip = None       # reason
        self.skip_line = None
        self.series = []       # its series (every unit), in log order


class Log:
    """A parsed log: its lines, records, series, skips, dumps and problems
    (tools/benchlog/__init__.py lists what a caller reads)."""

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
        self.memclock_line = None  # (line, settings): "config: memory and clocks: ..." (memclock.py)
        self.config_from_human = False  # the config made from the human lines (output=human)
        self.from_paper = []      # the series made from human lines (no records)
        self.compact = 0          # ensemble records read from compact ones
        self.cpu_current = None   # (line, cpu_run record) of the CPU being read
        self.part = None          # plan.py: 'plan' (a plan log's boot), 'experiment' (one of its experiments)
        self.experiments = []     # plan.py: an Experiment per experiment record of a plan log
        self.experiment = None    # plan.py: the Experiment this Log is the log of

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

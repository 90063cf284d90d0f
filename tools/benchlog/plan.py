"""tools/benchlog/plan.py - a plan run's log (issue 32; README "A plan:
many experiments in one boot"; docs/RECORDS.md): one boot that measures
each experiment of a plan file in turn.

    plan            once, after the plan is checked: file, source (efi,
                    module), bytes, crc32, experiments [count], defaults
    experiment      at the start of experiment index (1-based) of N: name,
                    line (the plan file's line), words; every record from
                    here up to its experiment_end belongs to it (its own
                    config, code, method, ensemble, summary, per_copy, ...)
    experiment_end  its end: index, name, status (complete, faulted,
                    skipped), why, methods_run, methods_skipped,
                    ensemble_errors, code_faults
    end             gains experiments_run, experiments_faulted,
                    experiments_skipped

parse_plan(text, parse_one) reads such a log as one Log (the boot: env,
machine, tsc_rate, smbios, the plan record, the end record) whose
experiments list holds an Experiment per experiment record, each with a
Log of its own (Experiment.log: the boot's lines before the first
experiment, its own lines, the lines after the last one, every other line
left blank so that line numbers stay the file's; its end record made from
its experiment_end). Each experiment's log is checked as a run's log is
(checks.py); its problems are the plan log's, prefixed "experiment I
(NAME): ". A skipped experiment has no log (None).

Checks (each problem at its line): one plan record; experiments numbered
1..N in order, N the plan record's experiments and each experiment's of;
each closed by its experiment_end (same index and name); names unique;
a status complete, faulted or skipped, consistent with the faults seen
(faulted: code_faults > 0; complete: none and no code_fault record; skipped:
no method run, and why); the end record's experiments_run (complete +
faulted), experiments_faulted and experiments_skipped the log's.
"""
import json

from .events import _or_none, _str
from .identity import check_identity
from .model import is_uint

STATUSES = ("complete", "faulted", "skipped")
FIELDS = {
    "plan": {"file": _str, "source": lambda v: v in ("efi", "module"), "bytes": is_uint, "crc32": _str,
             "experiments": is_uint, "defaults": _or_none(_str)},
    "experiment": {"index": is_uint, "of": is_uint, "name": _str, "line": is_uint, "words": _str},
    "experiment_end": {"index": is_uint, "name": _str, "status": lambda v: v in STATUSES, "why": _or_none(_str),
                       "methods_run": is_uint, "methods_skipped": is_uint, "ensemble_errors": is_uint,
                       "code_faults": is_uint},
}
KINDS = tuple(FIELDS)
END_COUNTS = ("experiments_run", "experiments_faulted", "experiments_skipped")
# Records kept out of an experiment's log when they come before the first
# experiment: the boot's own configuration (the experiment has its own).
BOOT_ONLY = ('{"rec":"config"',)


def malformed(kind, rec):
    """Why a record of these kinds cannot be used, or None."""
    from .events import malformed as m
    return m(kind, rec, FIELDS)


class Experiment:
    """One experiment of a plan log: its experiment record (rec, at line),
    its experiment_end (end, at end_line; None: not closed), the lines it
    spans (first, last: the file's line numbers) and its Log (None: skipped,
    or not closed)."""

    def __init__(self, line, rec):
        self.line, self.rec = line, rec
        self.end = self.end_line = None
        self.first, self.last = line, line
        self.log = None

    @property
    def index(self):
        return self.rec.get("index")

    @property
    def name(self):
        return self.rec.get("name")

    @property
    def status(self):
        return (self.end or {}).get("status")

    @property
    def label(self):
        """'experiment 2 of 5 (imul_lat)'."""
        return f"experiment {self.index} of {self.rec.get('of')} ({self.name})"


def _record(line):
    i = line.find('{"rec":"')
    if i < 0:
        return None
    try:
        rec = json.loads(line[i:])
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None


def is_plan_log(text):
    """Whether the text holds an experiment record."""
    return '{"rec":"experiment"' in text


def spans(text, logical_lines):
    """(experiments, end record line, gaps): an Experiment per experiment
    record, in log order, each spanning its lines up to its experiment_end
    (or up to the line before the next experiment or the end record)."""
    out, end_no, cur = [], None, None
    for no, line in logical_lines(text):
        if not line.startswith("{") and '{"rec":"' not in line:
            continue
        rec = _record(line)
        kind = rec.get("rec") if rec else None
        if kind == "experiment":
            if cur is not None:
                cur.last = no - 1
            cur = Experiment(no, rec)
            out.append(cur)
        elif kind == "experiment_end" and cur is not None:
            cur.end, cur.end_line, cur.last = rec, no, no
            cur = None
        elif kind == "end":
            end_no = no
            if cur is not None:
                cur.last = no - 1
                cur = None
        elif cur is not None:
            cur.last = no
    return out, end_no


def _end_of(e, end):
    """The end record of experiment e's own log: its experiment_end's counts,
    the boot's status and config problems."""
    rec = {"rec": "end", "status": (end or {}).get("status", "complete")}
    for k in ("methods_run", "methods_skipped", "ensemble_errors"):
        rec[k] = e.end[k]
    for k in ("config_problems", "nmis"):
        if k in (end or {}):
            rec[k] = end[k]
    rec["code_faults"] = e.end["code_faults"]
    return json.dumps(rec, separators=(",", ":"))


def experiment_text(phys, e, exps, end_no, end):
    """The text of experiment e's own log: the file's lines with every other
    experiment's (and the lines between experiments) blank."""
    first, last = exps[0].first, max(x.last for x in exps)
    out = []
    for no, raw in enumerate(phys, 1):
        if e.first <= no <= e.last:
            out.append(raw)
        elif no < first:
            out.append("" if raw.lstrip().startswith(BOOT_ONLY) or raw.startswith("config: ") else raw)
        elif no > last:
            out.append(_end_of(e, end) if no == end_no else raw)
        else:
            out.append("")
    return "\n".join(out)


def parse_plan(text, parse_one, logical_lines):
    """The Log of a plan log (module docstring): parse_one(text, part) is
    reading.py's parser of one run's text (part 'plan': the boot's lines
    only, without a run's checks of methods and series)."""
    exps, end_no = spans(text, logical_lines)
    phys = text.split("\n")
    top_text = "\n".join("" if any(x.first <= no <= x.last for x in exps) else raw
                         for no, raw in enumerate(phys, 1))
    log = parse_one(top_text, "plan")
    log.experiments = exps
    # the records inside the experiments, for a caller listing every record
    for x in exps:
        if malformed("experiment", x.rec):
            log.problem(x.line, f"corrupted experiment record: it {malformed('experiment', x.rec)}")
            continue
        if x.end is not None and malformed("experiment_end", x.end):
            log.problem(x.end_line, f"corrupted experiment_end record: it {malformed('experiment_end', x.end)}")
            x.end = None
        if x.end is None or x.status == "skipped":
            continue
        x.log = parse_one(experiment_text(phys, x, exps, end_no, log.end), "experiment")
        x.log.experiment = x
        _take_problems(log, x, end_no)
    check_plan(log)
    log.identity_full = any((x.log.config or {}).get("identity") == "full" for x in exps if x.log)
    check_identity(log)
    log.problems.sort(key=lambda p: (p.line is not None, p.line or 0))
    return log


def _take_problems(log, x, end_no):
    """Experiment x's problems that are its own (at its lines, its end record
    or the whole of its log), prefixed with its name."""
    seen = {str(p) for p in log.problems}
    for p in x.log.problems:
        if p.line is not None and not (x.first <= p.line <= x.last) and p.line != end_no \
                and p.line != log.end_marker_line:
            continue  # a line of the boot's: the plan log's own problem
        line = x.end_line if p.line == end_no else p.line
        text = p.text.replace("the end record says", "its experiment_end says") if p.line == end_no else p.text
        if p.line is None and str(p) in seen:
            continue
        log.problem(line, f"{x.label}: {text}")


def check_plan(log):
    """The checks of the module docstring."""
    plans = log.by_kind.get("plan", [])
    exps = log.experiments
    for no, _ in plans[1:]:
        log.problem(no, f"a second plan record (the first is line {plans[0][0]})")
    if not plans:
        log.problem(exps[0].line, "experiment records without a plan record before them")
    plan = plans[0][1] if plans else {}
    n = plan.get("experiments") if is_uint(plan.get("experiments")) else None
    names = {}
    for k, x in enumerate(exps, 1):
        if malformed("experiment", x.rec):
            continue
        if x.index != k:
            log.problem(x.line, f"{x.label}: numbered {x.index}, but it is the log's experiment {k} "
                                "(experiments are numbered 1..N in order)")
        if n is not None and x.rec.get("of") != n:
            log.problem(x.line, f"{x.label}: of {x.rec.get('of')}, the plan record says {n} experiments")
        if x.name in names:
            log.problem(x.line, f"{x.label}: the name {x.name!r} again (the first is line {names[x.name]})")
        names.setdefault(x.name, x.line)
        if x.end is None:
            log.problem(x.last, f"{x.label}: not closed by its experiment_end record (it stops here)")
            continue
        if (x.end.get("index"), x.end.get("name")) != (x.index, x.name):
            log.problem(x.end_line, f"{x.label}: closed by the experiment_end of experiment "
                                    f"{x.end.get('index')} ({x.end.get('name')})")
        _check_status(log, x)
    if n is not None and n != len(exps) and log.end is not None:
        log.problem(log.end_line, f"the plan record says {n} experiments, the log has {len(exps)} "
                                  "experiment records")
    end = log.end or {}
    closed = [x for x in exps if x.end is not None]
    mine = {"experiments_run": sum(1 for x in closed if x.status in ("complete", "faulted")),
            "experiments_faulted": sum(1 for x in closed if x.status == "faulted"),
            "experiments_skipped": sum(1 for x in closed if x.status == "skipped")}
    for k, v in mine.items():
        if log.end is not None and k not in end:
            log.problem(log.end_line, f"the end record of a plan run lacks {k} (the log gives {v})")
        elif is_uint(end.get(k)) and end[k] != v:
            log.problem(log.end_line, f"the end record says {k}={end[k]}, the experiments' records give {v}")


def _check_status(log, x):
    """An experiment_end's status against the faults seen in its lines."""
    e = x.end
    faults = len(x.log.by_kind.get("code_fault", [])) if x.log else 0
    if e["status"] == "faulted" and not e["code_faults"]:
        log.problem(x.end_line, f"{x.label}: status faulted with code_faults 0")
    if e["status"] == "complete" and (e["code_faults"] or faults):
        log.problem(x.end_line, f"{x.label}: status complete, but {e['code_faults'] or faults} code fault(s) "
                                "(code_faults, code_fault records): faulted")
    if e["status"] == "skipped" and (e["methods_run"] or not e.get("why")):
        log.problem(x.end_line, f"{x.label}: status skipped, but " +
                    (f"{e['methods_run']} methods run" if e["methods_run"] else "no why"))

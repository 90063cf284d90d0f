"""tools/benchlog/human.py - a series read from the human lines, for a log
without its records (output=human).

output=human prints the paper-format lines, the human summary, skip and
config lines, and only the records of the environment and the end. For a
(method, workload) without records, the series is made from its human lines
(log.from_paper lists them): each paper-format line gives its ensemble's
minimum, max deviation and variance (maximum = minimum + max deviation),
the "method M: E ensembles x S samples" line the size and unit, the
"summary M/W:" and "result M/W:" lines the summary, and a
"method M: SKIPPED: why" line a skip; checks.py checks these as it checks
records. Means, medians and quantiles are not in such a log. The lines'
format is bench/report.c's.
"""
import re

from .model import PAPER, TSC, UNIT_NAMES

# output=human lines (bench/report.c), read for a series without records.
HUMAN_SIZE = re.compile(
    r"^method (\S+): (\d+) ensembles x (\d+) samples, (\d+) warm-up samples discarded"
    r"(; ensemble j measures the loop)?.*; in the paper-format lines below 'cycles' means "
    r"(.+?) and variances are in ")
HUMAN_SKIP = re.compile(r"^method (\S+): SKIPPED: (.*)$")
# A figure: exact (its note, if any, follows), "none" where it is missing, or
# "ERROR" in logs of kernels before the figures were exact.
_FIG = r"(\d+|ERROR|none)"
HUMAN_SUMMARY = re.compile(
    r"^summary (\S+)/(\S+): least minimum (\d+) .*?minimums (\d+)\.\.(\d+) (.+?); "
    rf"total variance {_FIG} .*?; variance of variances {_FIG} .*?; variance of minimum values "
    rf"{_FIG} .*?; absolute max deviation (\d+) .*?; (\d+) spurious min values; "
    r"(\d+) ensemble errors")
HUMAN_RESULT = re.compile(r"^result (\S+)/(\S+): (-?\d+) (.+?) net \(least minimum (\d+) - offset (\d+)\)")
HUMAN_CONFIG = re.compile(r"^config: (ensembles=\d+ samples=\d+ .*) \((\d+) command-line problems?\)$")


def human_line(log, no, line, current, cpu):
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
    """A figure's text as an int; None for "ERROR ..." or "none ..."."""
    return int(text) if text.isdigit() else None


def from_human_lines(log):
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
                   "variance": _int_or_none(var),
                   "error": None if var.isdigit() else "overflow" if var.startswith("ERROR") else "no samples"}
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
        if getattr(log, "memclock_line", None):  # "config: memory and clocks: ...": its settings
            cfg.update(log.memclock_line[1])
        log.config, log.config_line = cfg, no
        log.config_from_human = True


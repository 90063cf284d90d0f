"""tools/benchlog/checks.py - the consistency checks of a parsed log: each
series against itself (ensembles numbered 0, 1, 2, ...; max_dev = max -
min; as many ensembles as its method record announced), its paper-format
lines against its records, its summary recomputed from its ensembles with
the paper's formulas (stats.py), each dump of raw samples against its
ensemble record, the methods selected against those run or skipped, the end
record's counts against the records; each per_copy_agreement record
against the per_copy records of its unit (the methods compared, the
intervals that do not overlap); the performance events' records
(events.py: fields, nets, per-copy figures recomputed, verified marks);
memory, caches and clocks (memclock.py: areas, flushes, prefetchers and
clocks taken only when read back, latency points recomputed, levels);
where and why a log stops short.

Per-CPU runs (cpus=): every check is made per CPU; a record of another CPU
inside a CPU's run, a series record without "cpu" there, or an apic_id that
is not its cpu_run's is a problem at its line (check_cpu, called as each
record is filed); the end record's methods_run, methods_skipped and
ensemble_errors are sums over the CPUs measured (cpus_measured of them).

Each problem is a Problem at the line it is about (log.problem); harmless
oddities are notes (log.note).
"""
from .events import check_events
from .identity import check_identity
from .memclock import check_memclock
from .model import (BEGIN, END, PAPER, RUN_KINDS, SERIES_KINDS, TSC, is_uint, summary_only, unit_name,
                    with_unit)
from .stats import ensemble_stats, summary_stats

# Figures of a summary record recomputed from its ensembles, with the power
# of the unit each is in.
SUMMARY_FIGURES = (("ensembles", 0), ("spurious", 0), ("min_of_mins", 1), ("max_of_mins", 1),
                   ("max_dev_all", 1), ("total_variance", 2), ("var_of_vars", 4),
                   ("var_of_mins", 2), ("errors", 0))


def check_cpu(log, no, kind, rec):
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


def _where_cut(log):
    """Which series was being printed when the log stops."""
    for s in reversed(list(log.series.values())):
        if s.ensembles or s.header:
            last = s.ensembles[-1]["ensemble"] if s.ensembles else None
            of = f" of {s.announced}" if s.announced else ""
            after = f"after ensemble {last}{of}" if last is not None else "before its first ensemble"
            return f"inside the records of {s.name}, {after}"
    return "before the first method"


def check(log):
    """Check a log once every line is read (reading.parse calls it): the
    markers, the final line, each series, dump and method (module
    docstring); problems sorted by line, those about the whole log first."""
    last_no, last_text = log.last_line
    shown = last_text if len(last_text) <= 60 else last_text[:57] + "..."
    cut = False
    if not any(t for _, t in log.lines):
        log.problem(None, "the log is empty: nothing was captured")
        return
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
    boot = log.part == "plan"  # a plan log's boot: its experiments are checked on their own (plan.py)
    if log.begin_line and log.end_marker_line and not log.skips and not summary_only(log) and not boot and \
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
    if log.end_marker_line and not boot:
        _check_methods(log)
    _check_agreements(log)
    check_events(log)
    check_memclock(log)
    if log.part is None:  # a plan log's: plan.py, once its experiments' configs are read
        check_identity(log)
    for kind, n in sorted(log.unknown_kinds.items()):
        log.note(None, f"{n} record(s) of kind {kind!r}, not known to this tool: ignored")
    log.problems.sort(key=lambda p: (p.line is not None, p.line or 0))


def _last_series(log):
    for s in reversed(list(log.series.values())):
        if s.ensembles or s.header:
            return s
    return None


def _faulted(log, s):
    """Whether code= faulted in s's window (a code_fault record of its
    method, workload and CPU, bench/code.c): the kernel skips the workload
    for the method, so its method record has no ensembles (a load past the
    end of mem='s area: the guard page's #PF, issue 31)."""
    return any((r.get("method"), r.get("workload"), r.get("cpu")) == (s.method, s.workload, s.cpu)
               for _, r in log.by_kind.get("code_fault", []))


def _check_series(log, s, in_progress):
    u = s.unit
    if summary_only(log):
        if s.ensembles or s.paper:
            log.problem((s.ensemble_lines or [s.paper[0][0] if s.paper else None])[0],
                        f"{s.name}: per-ensemble lines in an output=summary log")
        elif s.header and s.summary is None and not in_progress and not _faulted(log, s):
            log.problem(s.header_line, f"{s.name}: a method record but no summary record")
        return
    if not s.ensembles and not s.summary:
        if s.header and not in_progress and not s.paper and not _faulted(log, s):
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
    if all(is_uint(s.summary.get(k)) for k in ("min_of_mins", "offset")) and \
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
        if is_uint(end.get(k)) and end[k] != mine:
            log.problem(log.end_line, f"the end record says {k}={end[k]}, the records give {mine}")



def per_copy_interval(rec):
    """A per_copy record's interval as (low, high, copies): its 2N-N
    difference -+ its bound in the unit over copies (lib/percopy.h: the
    spreads plus 2 x (step - 1)); None for a wrapped figure or a record
    without the figures (a kernel before "step": step 1)."""
    n, n2, c, spread = (rec.get(k) for k in ("least_min_n", "least_min_2n", "copies", "spread"))
    step = rec.get("step", 1)
    if rec.get("status") == "wrapped" or not all(is_uint(v) for v in (n, n2, c, spread, step)):
        return None
    bound = spread + 2 * (max(step, 1) - 1)
    return n2 - n - bound, n2 - n + bound, max(c, 1)


def _check_agreements(log):
    """Each per_copy_agreement record (bench/coderesult.c) names the
    methods with a figure in its unit (the per_copy records of its CPU, not
    wrapped), says they agree exactly when no two intervals are apart, and
    names as disagreeing exactly the pairs whose intervals do not overlap."""
    for no, rec in log.by_kind.get("per_copy_agreement", []):
        unit, cpu = rec.get("unit"), rec.get("cpu")
        pcs = {r.get("method"): r for _, r in log.by_kind.get("per_copy", [])
               if r.get("unit") == unit and r.get("cpu") == cpu and r.get("status") != "wrapped"}
        names = rec.get("methods") or []
        if sorted(names) != sorted(pcs):
            log.problem(no, f"per_copy_agreement in {unit} names methods {names}, the per_copy records "
                            f"give figures by {sorted(pcs)}")
            continue
        if any(per_copy_interval(pcs[m]) is None for m in names):
            continue  # figures the record does not give (a QR text, an older kernel): nothing to recompute
        apart = set()
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                ia, ib = per_copy_interval(pcs[a]), per_copy_interval(pcs[b])
                if ia and ib and ia[2] == ib[2] and (ia[1] < ib[0] or ib[1] < ia[0]):
                    apart.add(frozenset((a, b)))
        said = {frozenset((d.get("a"), d.get("b"))) for d in rec.get("disagree") or []}
        if said != apart or rec.get("agree") != (not apart):
            log.problem(no, f"per_copy_agreement in {unit}: agree {rec.get('agree')} with pairs "
                            f"{sorted(sorted(p) for p in said)}, the per_copy records' intervals are apart "
                            f"for {sorted(sorted(p) for p in apart)}")
        if rec.get("trusted") is not None and rec.get("trusted") not in names:
            log.problem(no, f"per_copy_agreement in {unit} trusts {rec.get('trusted')}, which has no figure")

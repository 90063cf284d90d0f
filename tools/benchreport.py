"""tools/benchreport.py - the text of `bench.py report` (and of `bench.py
qr`, which reports a QR code's text the same way): report_text(log).

In order: where the run ran (tools/benchtext.py env_facts), the measured
code disassembled (code=), the problems, the paper's statistics table per
unit (paper 3.1.2: min of mins, net = min of mins - the method's offset,
total variance, variance of variances, variance of minimums, absolute max
deviation, spurious minimums), per CPU and side by side for per-CPU runs
(P-cores, then E-cores), the skipped methods, the records beside the
statistics (verdicts, the resolution test, counters, the recommendation),
the performance events (events=: tools/benchevfig.py, their encodings,
passes, check, nets and per-copy figures, UNVERIFIED marked),
memory, caches and clocks (tools/benchmemtext.py: the settings asked for
and what took effect, the memory hierarchy's points and levels),
the platform's and the measurement's records (tools/benchrecords.py), each
dumped ensemble recomputed from its raw samples, the figures written, the
notes, and the verdict on the log.
"""
import benchanswer
import benchasm
import benchevfig
import benchmemtext
import benchlog
from benchlog import TSC, unit_name, with_unit
from benchrecords import platform_lines
from benchtext import env_facts, ratio, table

def per_copy_text(rec):
    """A per_copy record's figure as the kernel's line gives it (bench/
    coderesult.c, lib/percopy.h): exact, +- its bound, below resolution
    (at most the bound), below zero, or no figure where a least minimum
    wrapped; a record of a kernel before the status field: the figure."""
    unit = unit_name(rec.get("unit") or TSC)
    status, fig, bound = rec.get("status"), rec.get("per_copy"), rec.get("bound")
    if status == "wrapped" or fig is None:
        return "no figure (a least minimum wrapped below zero)"
    if status == "below_resolution":
        return f"below resolution: at most {bound} {unit}"
    if status == "below_zero":
        return f"below zero ({fig} {unit}): not a duration"
    if status == "figure" and bound is not None:
        return f"{fig} +- {bound} {unit}"
    return f"{fig} {unit}" + (", exactly" if status == "exact" else "")

def run_id_text(log):
    """The run's ID (kernel/runid.h: the env record's run_id, the QR text's
    run line), or why there is none."""
    rid = (log.env or {}).get("run_id")
    return rid if isinstance(rid, str) and rid else "none (a kernel before run IDs, or no env record)"


def code_line(rec):
    """The code record's heading: its size and copies as the source gives
    them (a QR text's code line has no bytes: the copies of the N window
    instead)."""
    size = (f"{rec['code_bytes']} bytes x unroll {rec.get('unroll', '?')}" if rec.get("code_bytes") is not None
            else f"unroll {rec.get('unroll', '?')}, {rec.get('copies', '?')} copies in the N window "
                 "(its bytes are in the serial log)")
    return (f"Measured code (workload {rec.get('workload') or 'code'}): {size}" +
            (f" in a loop of {rec['loops']} iterations" if rec.get("loops") else ""))


def net_of(log, s):
    """The net least minimum of series s (min of mins - the offset of its
    method on its CPU, paper 3.1.2): the summary's net_min, or recomputed
    from the ensembles of workload empty; None for workload empty or when
    there is no offset."""
    f, _ = s.figures()
    net = f.get("net_min")
    if net is None and s.workload != "empty":
        empty = log.series.get((s.method, "empty", s.unit, s.counter, s.cpu))
        if empty is not None and empty.ensembles and isinstance(f.get("min_of_mins"), int):
            net = f["min_of_mins"] - min(e["min"] for e in empty.ensembles)
    return None if s.workload == "empty" else net


def figure_row(log, s):
    f, from_summary = s.figures()
    mark = "" if from_summary else " *"
    net = net_of(log, s)
    if net is None:
        net = "-"
    # A QR code's text has summaries without ensemble records (tools/benchqr.py).
    count = len(s.ensembles) or f.get("ensembles", 0)
    return [s.method, (s.workload or "-") + mark,
            f"{count} x {s.samples if s.samples is not None else '?'}",
            _cell(f, "min_of_mins"), _v(net), _cell(f, "total_variance"),
            _cell(f, "var_of_vars"), _cell(f, "var_of_mins"), _cell(f, "max_dev_all"),
            _cell(f, "spurious")]


def _v(x):
    """A table cell: the figure, or 'n/a' where the record gives none (null:
    a figure missing; in logs of kernels before the figures were exact, an
    overflow)."""
    return "n/a" if x is None else str(x)


def _cell(f, key):
    """_v of figure key, or '-' where the log does not carry it at all (a
    QR code's text carries only some figures)."""
    return _v(f[key]) if key in f else "-"


def figure_table(log, unit, cpu=..., indent="  "):
    """The statistics table of the series in unit (of one CPU when cpu is
    given)."""
    u = unit
    header = [("method",), ("workload",), ("ensembles x samples", "[count x count]"),
              ("min of mins", f"[{unit_name(u)}]"), ("net", f"[{unit_name(u)}]"),
              ("total variance", f"[{unit_name(u, 2)}]"),
              ("variance of variances", f"[{unit_name(u, 4)}]"),
              ("variance of minimums", f"[{unit_name(u, 2)}]"),
              ("abs max deviation", f"[{unit_name(u)}]"), ("spurious", "[ensembles]")]
    return table(header, [figure_row(log, s) for s in log.runs(u, cpu) if s.ensembles or s.summary],
                 indent)


def core_type_order(log):
    """The CPUs measured, P-cores first, then E-cores, then the others (a
    hybrid machine's columns grouped by core type, CPUID 1AH)."""
    rank = {"P-core": 0, "E-core": 1}
    return sorted(log.cpu_order, key=lambda n: (rank.get(log.cpu_info(n).get("core_type"), 2),
                                                log.cpu_order.index(n)))


def cpu_side_by_side(log, unit):
    """Per (method, workload), the net least minimum on each CPU measured,
    side by side; on a hybrid machine the P-cores' columns, then the
    E-cores', and the least net of each kind with the ratio E/P."""
    order = core_type_order(log)
    types = {n: log.cpu_info(n).get("core_type") for n in order}
    hybrid = "P-core" in types.values() and "E-core" in types.values()
    rows, cells = [], {}
    for s in log.runs(unit):
        if s.cpu is None or s.workload == "empty" or not (s.ensembles or s.summary):
            continue
        row = (s.method, s.workload or "-")
        if row not in cells:
            rows.append(row)
            cells[row] = {}
        cells[row][s.cpu] = net_of(log, s)
    u = f"[{unit_name(unit)}]"
    header = [("method",), ("workload",)]
    typed = any(types.values())
    header += [(f"CPU {n}", f"APIC ID {log.cpu_info(n).get('apic_id', '?')}") +
               ((types[n] or "-",) if typed else ()) + (u,) for n in order]
    if hybrid:
        header += [("least net", "of P-cores", "", u), ("least net", "of E-cores", "", u),
                   ("E/P", "", "", "[ratio]")]
    body = []
    for row in rows:
        line = list(row)
        for n in order:
            if n in cells[row]:
                line.append(_v(cells[row][n]) if cells[row][n] is not None else "-")
            else:
                line.append("skipped" if (n, row[0]) in log.cpu_skips else "not run")
        if hybrid:
            best = []
            for kind in ("P-core", "E-core"):
                vals = [cells[row][n] for n in order if types[n] == kind
                        and isinstance(cells[row].get(n), int)]
                best.append(min(vals) if vals else None)
            line += [_v(best[0]) if best[0] is not None else "-",
                     _v(best[1]) if best[1] is not None else "-", ratio(best[0], best[1])]
        body.append(line)
    return table(header, body) if body else []


def report_text(log, figures=None, figure_error=None):
    """The report of a parsed log (a tools/benchlog Log, or tools/benchqr's
    Log of a QR code's text) as lines without newlines (module docstring).
    figures: [(path, what)] of the PNG files written, None when none were
    drawn; figure_error: why none could be."""
    out = []
    w = out.append
    w(f"report: {log.path} ({log.line_count} lines, {log.size} bytes)")
    if log.env or log.config or log.cpu_order:
        for label, value in env_facts(log):
            w(f"  {label + ':':15s} {value}")
    if log.final_line:
        w(f"  {'final line:':15s} {log.final_line} (line {log.final_line_no})")
    w(f"  {'run ID:':15s} {run_id_text(log)}")
    if getattr(log, "qr_crc", None):
        w(f"  {'read from:':15s} the QR code's text (its CRC-32 {log.qr_crc} checks the joined text): "
          "the figures it carries; '-' marks a figure that is only in the serial log")
    if log.from_paper:
        w(f"  {'read from:':15s} the paper-format and summary lines of {len(log.from_paper)} series, "
          "which have no records (output=human): each ensemble's minimum, max deviation and "
          "variance; means, medians and quantiles are not in this log")
    for _, rec in log.by_kind.get("code", []):
        w("")
        w(code_line(rec))
        for part in ("init", "code"):
            try:
                insns = benchasm.disassemble(bytes.fromhex(rec.get(part) or ""))
            except ValueError:
                insns = []
            for off, hx, text in insns:
                w(f"  {part + ':':6s} {off:4d}  {hx:24s} {text}")
    code = log.by_kind["code"][-1][1] if log.by_kind.get("code") else {}
    for _, rec in log.by_kind.get("per_copy", []):
        copies = rec.get("copies", code.get("copies"))
        w(f"  per copy, {rec.get('method')}: {per_copy_text(rec)} (2N-N over "
          f"{copies if copies is not None else 'N (not in this source)'} copies)")
    for _, rec in log.by_kind.get("per_copy_agreement", []):
        w(f"  methods compared, {benchanswer.agreement_text(rec)}")
    if log.problems:
        w("")
        w(f"PROBLEMS: the log is not valid ({len(log.problems)}):")
        for p in log.problems:
            w(f"  {p}")
    units = [TSC] + log.other_units()
    for u in units:
        if not any(s.ensembles or s.summary for s in log.runs(u)):
            continue
        w("")
        w(f"Paper statistics per method and workload, in {unit_name(u)} (min of mins of workload "
          f"'empty' is the method's offset;")
        w("net = min of mins - offset; spurious = ensembles whose minimum is below the previous "
          "one's)" + (", per CPU measured, in the order measured:" if log.cpu_order else ":"))
        if log.cpu_order:
            for n in log.cpu_order:
                if any(s.ensembles or s.summary for s in log.runs(u, n)):
                    w(f"  {log.cpu_label(n)}:")
                    out.extend(figure_table(log, u, n, indent="    "))
            side = cpu_side_by_side(log, u)
            if side:
                w("")
                w(f"Net least minimum per CPU, side by side, in {unit_name(u)} (min of mins - the "
                  "method's offset on that CPU; workload empty, the offset, is in the tables above"
                  + ("; P-cores first, then E-cores" if side and "E/P" in side[0] else "") + "):")
                out.extend(side)
        else:
            out.extend(figure_table(log, u))
        if any(not s.summary and s.ensembles for s in log.runs(u)):
            w("  * no summary record (the log is cut short): figures recomputed from the "
              "ensemble records")
    if log.skips and log.cpu_order:
        w("")
        w("Skipped methods, per CPU:")
        for (n, name), (no, why) in log.cpu_skips.items():
            w(f"  CPU {n}: {name}: {why} (line {no})")
    elif log.skips:
        w("")
        w("Skipped methods:")
        for name, (no, why) in log.skips.items():
            w(f"  {name}: {why} (line {no})")
    extra_kinds(log, w)
    out.extend(benchevfig.report_lines(log))
    out.extend(benchmemtext.report_lines(log))
    platform = platform_lines(log)
    if platform:
        w("")
        w("Platform and measurement records:")
        for line in platform:
            w(f"  {line}")
    if getattr(log, "qr_disturbances", None):
        w("")
        w("SMIs and NMIs during each method's ensembles (na: SMIs not counted on this machine; "
          "unread: MSR_SMI_COUNT faulted):")
        for name, smis, nmis in log.qr_disturbances:
            w(f"  {name}: {smis} SMIs, {nmis} NMIs")
    dump_section(log, w)
    if figures is not None or figure_error:
        w("")
        if figure_error:
            w(f"Figures: none written: {figure_error}")
        elif len(log.cpu_order) > 1:
            w(f"Figures ({len(figures)} PNG files), of {log.cpu_label(log.cpu_order[0])} only, the "
              "first CPU measured (the other CPUs' figures are in the tables above):")
        else:
            w(f"Figures ({len(figures)} PNG files):")
        for path, what in figures or []:
            w(f"  {path}: {what}")
    if log.notes:
        w("")
        w("Notes:")
        for n in log.notes:
            w(f"  {n}")
    w("")
    if log.valid and getattr(log, "qr_crc", None):
        n = sum(1 for s in log.series.values() if s.summary)
        w(f"report: the QR code's text is valid ({n} series, {len(log.skips)} method(s) skipped)")
    elif log.valid and benchlog.summary_only(log):
        n = sum(1 for s in log.series.values() if s.summary)
        w(f"report: the log is valid ({n} series summarized, no per-ensemble lines (output=summary), "
          f"{len(log.skips)} method(s) skipped)")
    elif log.valid and log.cpu_order:
        n = sum(1 for s in log.series.values() if s.ensembles)
        w(f"report: the log is valid ({n} series of ensembles on {len(log.cpu_order)} CPU(s), "
          f"{len(log.cpu_skips)} method skip(s) over the CPUs)")
    elif log.valid:
        n = sum(1 for s in log.series.values() if s.ensembles)
        w(f"report: the log is valid ({n} series of ensembles, {len(log.skips)} method(s) skipped)")
    else:
        w(f"report: the log is NOT valid: {len(log.problems)} problem(s), listed under PROBLEMS")
    return out


def dump_section(log, w):
    """Each dumped ensemble's statistics recomputed from its raw samples,
    and whether they are the kernel's ensemble record's, exactly."""
    if not log.dumps:
        return
    w("")
    w("Dumped samples (dump=N), recomputed with the paper's var_calc "
      "(n*sum(x^2) - sum(x)^2) // n^2:")
    for d in log.dumps:
        s = log.series[d.key]
        head = (f"  {s.name} ensemble {d.ensemble}: {len(d.values)} samples "
                f"(lines {d.lines[0]}-{d.lines[-1]})")
        if d.check is None:
            w(f"{head}: not compared: {d.note}")
            continue
        u = d.unit
        power = {"variance": 2}
        figs = ", ".join(f"{k} {with_unit(v[0], u, power.get(k, 1))}" for k, v in d.check.items())
        # output=human: the ensemble's figures are its paper-format line's
        what = "paper-format line" if s in log.from_paper else "ensemble record"
        bad = d.mismatches()
        if bad:
            w(f"{head}: {figs}: DO NOT MATCH the {what} (line {d.record_line}): " +
              ", ".join(f"{k} recorded {with_unit(b, u, power.get(k, 1))}"
                        for k, (_, b) in bad.items()))
        else:
            w(f"{head}: {figs}: match the {what} (line {d.record_line}) exactly")


def extra_kinds(log, w):
    """Records beside the paper's statistics: verdicts, the resolution test,
    the counters read beside the TSC, the recommendation. Shown when
    present; their absence is not an error."""
    verdicts = log.by_kind.get("verdict", [])
    if verdicts:
        w("")
        w("Verdicts (paper 4, steps 1-2: a method is fit when its variances are ~0)" +
          (", per CPU:" if log.cpu_order else ":"))
        for no, v in verdicts:
            u = v.get("unit") or TSC
            state = ("UNKNOWN" if v.get("valid") is False else
                     "ergodic" if v.get("ergodic") else "NOT ergodic")
            w(f"  {on_cpu(v)}{v.get('method')}: {state}: variance of variances "
              f"{with_unit(v.get('var_of_vars'), u, 4)} (limit "
              f"{with_unit(v.get('max_var_of_vars'), u, 4)}), variance of minimum values "
              f"{with_unit(v.get('var_of_mins'), u, 2)} (limit "
              f"{with_unit(v.get('max_var_of_mins'), u, 2)}), offset "
              f"{with_unit(v.get('offset'), u)} (line {no})")
    res = log.by_kind.get("resolution", [])
    if res:
        w("")
        w("Resolution test (paper 3.3.1):")
        for no, r in res:
            it = r.get("resolution_iterations")
            step = r.get("step", r.get("step_ticks"))
            w(f"  {on_cpu(r)}{r.get('method')}: {r.get('loop_sizes')} loop sizes; minimum flat until loop "
              f"size {r.get('flat_until')}, then {r.get('changes')} changes; resolution "
              f"{str(it) + ' loop iterations' if it is not None else 'not found'}, step "
              f"{with_unit(step, r.get('unit') or TSC)}; "
              f"{'rising strictly' if r.get('strictly_increasing') else 'not rising strictly'} "
              f"(line {no})")
    for no, c in log.by_kind.get("counters_choice", []):
        w("")
        if c.get("beside"):
            w(f"{on_cpu(c)}Counters read beside the TSC methods: {c.get('instructions')} (instructions retired) "
              f"and {c.get('core_cycles')} (core cycles) (line {no})")
        else:
            w(f"{on_cpu(c)}Counters read beside the TSC methods: none: {c.get('reason')} (line {no})")
    counters = log.by_kind.get("counters", [])
    if counters:
        w("")
        w("Counters per method and workload, net of the method's offset:")
        per_cpu = any("cpu" in c for _, c in counters)
        rows = [([str(c.get("cpu", "-"))] if per_cpu else []) +
                [c.get("method"), c.get("workload") or "-", _v(c.get("net_core_cycles")),
                 _v(c.get("net_instructions")), _v(c.get("core_cycles_per_tsc_tick"))]
                for _, c in counters]
        out = table(([("CPU",)] if per_cpu else []) +
                    [("method",), ("workload",), ("net", "[core cycles]"),
                     ("net", "[instructions]"), ("ratio", "[core cycles per TSC tick]")], rows)
        for line in out:
            w(line)
    recs = log.by_kind.get("recommendation", [])
    per_cpu = any("cpu" in r for _, r in recs)
    if per_cpu:
        w("")
        w("Recommendation per CPU:")
    for no, r in recs:
        if not per_cpu:
            w("")
        w(f"{'  ' + log.cpu_label(r['cpu']) if 'cpu' in r else 'Recommendation'}: "
          f"{('method ' + r['method']) if r.get('method') else 'none'}: "
          f"{r.get('reason', '')} (line {no})")


def on_cpu(rec):
    """'CPU 1: ' for a record of a per-CPU run, '' otherwise."""
    return f"CPU {rec['cpu']}: " if isinstance(rec.get("cpu"), int) else ""


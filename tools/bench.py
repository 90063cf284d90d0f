#!/usr/bin/env python3
"""tools/bench.py - host tools for a bench run's serial log.

    bench.py capture [--device /dev/ttyUSB0 --baud 115200 | -] [-o FILE] [--timeout S]
        Save the serial output (a device, or standard input) until the run's
        final line. Exit 0 when the final line was seen, 1 otherwise.
    bench.py report LOG [-o OUTDIR] [--no-figures]
        Check the log, print the paper's statistics per method and workload,
        and write the paper's figures as PNG files into OUTDIR (default: the
        log's path without .log, plus "-report"). Exit 0 when the log is
        valid, 1 when it is not (what could be read is still reported).
        A log of per-CPU runs (cpus=): the statistics per CPU and a table
        of each CPU's net side by side (P-cores, then E-cores); figures of
        the first CPU.
    bench.py qr PHOTO... [--text FILE]
        Decode the QR code of the results in photos or screenshots of the
        screen (zbarimg, Debian zbar-tools), join the parts of a code shown
        in turn (1/2, 2/2), and print the report `report` prints for a serial
        log, with the figures the code's text carries. The code's text
        itself ('bench1 ...', e.g. from a phone's scanner app) is read too.
        Exit 0 when the text is complete and valid.
    bench.py compare LOG_A LOG_B
        The figures of two runs side by side, with the ratio B/A, and how
        their environments differ; series matched per CPU, and said when the
        runs measured different CPUs. Exit 0 when both logs are valid.
    bench.py store LOG|PHOTO... --db LAB.sqlite [--label NAME]
        Store runs in a lab's SQLite database (machines, runs, series, the
        paper's figures): a run already there is said and not stored again;
        an invalid log is refused with its first problem's line, nothing of
        it stored. Photos of the QR code (or its text) are stored with the
        figures the code carries; the codes of all photos given are joined
        by run. Exit 1 when a log was refused.
    bench.py table --db LAB.sqlite [--workload W] [--method M] [--unit U]
                   [--figure F] [--csv]
        The stored runs side by side (a column per run, with its machine,
        and per CPU for per-CPU runs; a row per method and workload), net
        least minimum by default.
    bench.py plot --db LAB.sqlite [-o FILE.png] [--workload W] [--method M]
        One figure comparing the runs: bars of net per workload per method.
    bench.py asm CODE [--init TEXT] [--unroll N] [--loops N] [--name WORD]
        Assemble CODE (nasm, Intel syntax, 64-bit; ';' between instructions)
        and print the boot parameters that measure it (code=HEX ...), to
        paste into GRUB's editor (key e on a menu entry). Exit 1 when nasm
        cannot assemble it. README "Measuring your own code".

Figures need matplotlib (Debian: python3-matplotlib, for /usr/bin/python3);
capture from a device needs pyserial (python3-serial). The log format is in
the README, "Machine-readable output"; tools/benchlog.py reads it.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchasm  # noqa: E402
import benchdb  # noqa: E402
import benchlog  # noqa: E402
import benchqr  # noqa: E402
from benchlog import TSC, unit_name, with_unit  # noqa: E402


# --- text helpers -------------------------------------------------------------

def table(header, rows, indent="  "):
    """Columns padded to their widest cell; header is a list of tuples of
    header lines (name, unit)."""
    depth = max(len(h) for h in header)
    cells = [[h[i] if i < len(h) else "" for h in header] for i in range(depth)] + rows
    widths = [max(len(str(r[c])) for r in cells) for c in range(len(header))]
    out = []
    for r in cells:
        out.append(indent + "  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    return out


def env_facts(log):
    """(label, value) pairs describing where a run ran."""
    e = log.env or {}

    def hx(k):
        return f"0x{e[k]:x}" if isinstance(e.get(k), int) else "?"
    hv = e.get("hypervisor")
    hyper = ("none (no CPUID hypervisor bit)" if hv == 0 else
             f"yes, vendor {e.get('hypervisor_vendor') or '?'}" if hv else "?")
    proto = e.get("boot_protocol")
    loader = f"{e.get('loader', '?')} (multiboot{proto if proto is not None else '?'})"
    cfg = log.config or {}
    size = (f"{cfg.get('ensembles', '?')} ensembles x {cfg.get('samples', '?')} samples, "
            f"{cfg.get('warmup', '?')} warm-up samples")
    yn = {0: "no", 1: "yes", False: "no", True: "yes"}
    rate = dict(log.by_kind["tsc_rate"][0][1]) if log.by_kind.get("tsc_rate") else {}
    if isinstance(rate.get("hz"), int) and rate["hz"] > 0:
        tsc_rate = (f"{rate['hz']} Hz (+-{rate.get('ppm', '?')} ppm, measured with "
                    f"{rate.get('source', '?')})")
    else:
        tsc_rate = "unknown" if rate else "? (not in this log's format)"
    est = dict(log.by_kind["serial_estimate"][0][1]) if log.by_kind.get("serial_estimate") else {}
    serial = f"{log.size} bytes captured" if log.size else "?"
    if isinstance(est.get("bytes"), int):
        at = (f", {est['ms'] / 1000:.1f} s at {est['baud']} baud" if isinstance(est.get("ms"), int)
              and isinstance(est.get("baud"), int) else ", no serial port")
        serial += f"; the kernel's estimate {est['bytes']} bytes{at}"
    ens = ("compact ensemble records (output=both or json)" if log.compact else
           "full ensemble records" if log.by_kind.get("ensemble") else
           "summaries only, no per-ensemble lines (output=summary)" if benchlog.summary_only(log) else
           "no ensemble records")
    facts = [("cpu brand", e.get("brand", "?")),
            ("cpu", f"{e.get('vendor', '?')} family {hx('family')} model {hx('model')} "
                    f"stepping {e.get('stepping', '?')}"),
            ("hypervisor", hyper),
            ("invariant TSC", yn.get(e.get("invariant_tsc"), "?")),
            ("TSC rate", tsc_rate),
            ("boot loader", loader),
            ("memory", f"{e['memory_usable_mib']} MiB usable" if "memory_usable_mib" in e else "?"),
            ("ACPI", acpi_text(log)),
            ("command line", e.get("cmdline", "?")),
            ("run size", size),
            ("serial log", f"{serial}; {ens}"),
            ("methods", cfg.get("methods", "?")),
            ("workloads", cfg.get("workloads", "(not in this log's format)"))]
    if log.cpu_order or getattr(log, "by_kind", {}).get("cpus"):
        facts.insert(1, ("CPUs", cpus_text(log)))
    return facts


def cpus_text(log):
    """The env's cpus record and the CPUs measured, in a few words."""
    c = dict(log.by_kind["cpus"][0][1]) if log.by_kind.get("cpus") else {}
    listed = (f"{c.get('count', '?')} listed (cpus={c.get('selection', '?')}), " if c else "")
    if not log.cpu_order:
        return listed + "the boot CPU measured (no per-CPU runs)"
    return listed + f"{len(log.cpu_order)} measured: " + ", ".join(log.cpu_label(n) for n in log.cpu_order)


def acpi_text(log):
    """The acpi record in a few words: tables, CPUs of the MADT, HPET, PM timer."""
    if not log.by_kind.get("acpi"):
        return "? (not in this log's format)"
    a = dict(log.by_kind["acpi"][0][1])
    if not a.get("rsdp"):
        return "no RSDP found"
    hpet = (f"HPET at {a['hpet_base']:#x} ({a.get('hpet_period_fs')} fs a tick)"
            if isinstance(a.get("hpet_base"), int) and a["hpet_base"] else "no HPET")
    pm = (f"PM timer at port {a['pm_timer_port']:#x} ({a.get('pm_timer_bits')}-bit)"
          if isinstance(a.get("pm_timer_port"), int) and a["pm_timer_port"] else "no PM timer")
    return (f"revision {a.get('revision', '?')}, {a.get('tables', '?')} tables ({a.get('bad_checksums', '?')} "
            f"bad checksums), MADT: {a.get('cpus_enabled', '?')} of {a.get('cpus_listed', '?')} CPUs enabled, "
            f"{hpet}, {pm}, {a.get('problems', '?')} problems")


def ratio(a, b):
    """B/A as text: a plain number, 'inf' when only A is 0, '-' when both are."""
    if not isinstance(a, int) or not isinstance(b, int):
        return "n/a"
    if a == 0:
        return "- (both 0)" if b == 0 else "inf (A is 0)"
    r = b / a
    return f"{r:.3g}"


# --- report -------------------------------------------------------------------

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
    """A table cell: the figure, or 'overflow' where the kernel's exact
    integer arithmetic overflowed (null in the record)."""
    return "overflow" if x is None else str(x)


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
    out = []
    w = out.append
    w(f"report: {log.path} ({log.line_count} lines, {log.size} bytes)")
    if log.env or log.config or log.cpu_order:
        for label, value in env_facts(log):
            w(f"  {label + ':':15s} {value}")
    if log.final_line:
        w(f"  {'final line:':15s} {log.final_line} (line {log.final_line_no})")
    if getattr(log, "qr_crc", None):
        w(f"  {'read from:':15s} the QR code's text (run {log.qr_crc}): the figures it carries; "
          "'-' marks a figure that is only in the serial log")
    if log.from_paper:
        w(f"  {'read from:':15s} the paper-format and summary lines of {len(log.from_paper)} series, "
          "which have no records (output=human): each ensemble's minimum, max deviation and "
          "variance; means, medians and quantiles are not in this log")
    for _, rec in log.by_kind.get("code", []):
        w("")
        w(f"Measured code (workload {rec.get('workload')}): {rec.get('code_bytes')} bytes x unroll "
          f"{rec.get('unroll')}" + (f" in a loop of {rec['loops']} iterations" if rec.get("loops") else ""))
        for part in ("init", "code"):
            try:
                insns = benchasm.disassemble(bytes.fromhex(rec.get(part) or ""))
            except ValueError:
                insns = []
            for off, hx, text in insns:
                w(f"  {part + ':':6s} {off:4d}  {hx:24s} {text}")
    for _, rec in log.by_kind.get("per_copy", []):
        w(f"  per copy, {rec.get('method')}: {rec.get('per_copy')} {unit_name(rec.get('unit') or TSC)} "
          f"(2N-N over {rec.get('copies')} copies)")
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


def default_outdir(path):
    base, ext = os.path.splitext(path)
    return (base if ext in (".log", ".txt") else path) + "-report"


def cmd_report(args):
    log = benchlog.load(args.log)
    figures = err = None
    outdir = args.outdir or default_outdir(args.log)
    if not args.no_figures and any(s.ensembles for s in log.series.values()):
        import benchplot
        try:
            figures = benchplot.all_figures(log, outdir)
        except benchplot.NoMatplotlib as e:
            err = str(e)
    lines = report_text(log, figures, err)
    text = "\n".join(lines) + "\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    if figures:
        with open(os.path.join(outdir, "report.txt"), "w", encoding="utf-8") as f:
            f.write(text)
    if err:
        print(f"report: WARNING: no figures: {err}", file=sys.stderr)
    elif not args.no_figures and benchlog.summary_only(log):
        print("report: no figures: an output=summary log has no per-ensemble lines to draw "
              "(boot with output=both for the paper's figures)", file=sys.stderr)
    return 0 if log.valid else 1


# --- compare ------------------------------------------------------------------

COMPARED = (("min of mins", "min_of_mins", 1), ("net (min of mins - offset)", "net_min", 1),
            ("total variance", "total_variance", 2), ("variance of variances", "var_of_vars", 4),
            ("variance of minimum values", "var_of_mins", 2),
            ("absolute max deviation", "max_dev_all", 1), ("spurious min values", "spurious", 0))


def compare_text(a, b):
    out = []
    w = out.append
    w(f"compare: A = {a.path}")
    w(f"         B = {b.path}")
    for tag, log in (("A", a), ("B", b)):
        if not log.valid:
            w(f"  {tag} is NOT a valid log ({len(log.problems)} problem(s), first: {log.problems[0]}); "
              f"'bench.py report {log.path}' lists them")
    w("")
    w("Environment:")
    rows = []
    fa_, fb_ = dict(env_facts(a)), dict(env_facts(b))
    for label in dict.fromkeys([k for k, _ in env_facts(a)] + [k for k, _ in env_facts(b)]):
        va, vb = (f.get(label, cpus_text(lg) if label == "CPUs" else "-")
                  for f, lg in ((fa_, a), (fb_, b)))
        rows.append([label, va, vb, "same" if va == vb else "DIFFERS"])
    out.extend(table([("",), ("A",), ("B",), ("",)], rows))
    norm_a, norm_b = cpu_matching(a, b, w)
    series_a = {norm_a(s.key): s for s in a.series.values() if s.ensembles or s.summary}
    series_b = {norm_b(s.key): s for s in b.series.values() if s.ensembles or s.summary}
    keys_a, keys_b = list(series_a), set(series_b)
    for key in keys_a:
        if key not in keys_b:
            continue
        sa, sb = series_a[key], series_b[key]
        fa, _ = sa.figures()
        fb, _ = sb.figures()
        u = sa.unit
        w("")
        w(f"{sa.name if sa.cpu is not None else sb.name} (A: "
          f"{len(sa.ensembles) or fa.get('ensembles', 0)} ensembles x {sa.samples} samples, "
          f"B: {len(sb.ensembles) or fb.get('ensembles', 0)} x {sb.samples})")
        rows = []
        for label, k, power in COMPARED:
            if k == "net_min" and (sa.workload == "empty" or k not in fa or k not in fb):
                continue
            va, vb = fa.get(k), fb.get(k)
            if k == "min_of_mins" and sa.workload == "empty":
                label = "offset (min of mins)"
            if power == 0:
                rows.append([label, f"{va} ensembles", f"{vb} ensembles", ratio(va, vb)])
            else:
                rows.append([label, with_unit(va, u, power), with_unit(vb, u, power), ratio(va, vb)])
        out.extend(table([("figure",), ("A",), ("B",), ("B/A",)], rows))
    only_a = [series_a[k].name for k in keys_a if k not in keys_b]
    only_b = [series_b[k].name for k in series_b if k not in set(keys_a)]
    if only_a or only_b or a.skips or b.skips:
        w("")
    if only_a:
        w(f"Only in A: {', '.join(only_a)}")
    if only_b:
        w(f"Only in B: {', '.join(only_b)}")
    for tag, log in (("A", a), ("B", b)):
        if log.cpu_order:
            for (n, name), (_, why) in log.cpu_skips.items():
                w(f"Skipped in {tag} on CPU {n}: method {name}: {why}")
            continue
        for name, (_, why) in log.skips.items():
            w(f"Skipped in {tag}: method {name}: {why}")
    return out


def boot_cpu(log):
    """The boot CPU's number: its entry in the env's cpus record (boot:
    true), else the first CPU measured; None when the log says nothing."""
    c = dict(log.by_kind["cpus"][0][1]) if log.by_kind.get("cpus") else {}
    for e in c.get("list") or []:
        if isinstance(e, dict) and e.get("boot") is True and isinstance(e.get("cpu"), int):
            return e["cpu"]
    return log.cpu_order[0] if log.cpu_order else None


def cpu_matching(a, b, w):
    """How series of A and B are matched: by (method, workload, unit,
    counter, cpu). When the CPUs measured differ (number or APIC ID), say
    so; a log without per-CPU runs measured the boot CPU, matched with the
    other log's boot CPU. Returns the two key functions."""
    def cpus(log):
        return [(n, log.cpu_info(n).get("apic_id")) for n in log.cpu_order]
    ca, cb = cpus(a), cpus(b)
    same = lambda key: key  # noqa: E731
    if ca == cb:
        return same, same

    def text(log):
        return (", ".join(log.cpu_label(n) for n in log.cpu_order) if log.cpu_order
                else "the boot CPU only (no per-CPU runs)")
    w("")
    w("CPUs: the two runs measured DIFFERENT CPUs:")
    w(f"  A: {text(a)}")
    w(f"  B: {text(b)}")
    maps = [same, same]
    for i, (log, other, tag, otag) in enumerate(((a, b, "A", "B"), (b, a, "B", "A"))):
        boot = boot_cpu(other)
        if not log.cpu_order and boot is not None:
            maps[i] = lambda key, boot=boot: key[:4] + (boot,) if key[4] is None else key
            w(f"  {tag}'s series (its boot CPU's) are compared with {otag}'s boot CPU, CPU {boot}")
    both = {n for n, _ in ca} & {n for n, _ in cb}
    for n in sorted(both):
        if dict(ca)[n] != dict(cb)[n]:
            w(f"  CPU {n} has APIC ID {dict(ca)[n]} in A and {dict(cb)[n]} in B: compared by CPU "
              "number")
    w("  series of a CPU only one run measured are listed under 'Only in A' / 'Only in B'")
    return maps[0], maps[1]


def cmd_compare(args):
    a, b = benchlog.load(args.log_a), benchlog.load(args.log_b)
    try:
        print("\n".join(compare_text(a, b)))
    except BrokenPipeError:
        pass
    return 0 if a.valid and b.valid else 1


def cmd_asm(args):
    try:
        print(benchasm.boot_parameters(args.code, args.init, args.unroll, args.loops, args.name))
    except benchasm.AsmError as e:
        print(f"bench.py asm: {e}", file=sys.stderr)
        return 1
    return 0


# --- the lab database (tools/benchdb.py) -----------------------------------------------

def read_for_store(path):
    """(parsed log, format name) for tools/benchdb.py store(), chosen by the
    file's first bytes: a serial log is read with tools/benchlog.py (every
    output= level); a photo or screenshot of the screen's QR code, or the
    code's text ('bench1 ...'), with tools/benchqr.py, which gives the same
    log object holding the figures the text carries. A code of several
    parts needs every part: store_groups() joins the files of one run."""
    kind = benchqr.file_kind(path)
    if kind is None:
        return benchlog.load(path), "serial log"
    try:
        return benchqr.load(path), "QR code text" if kind == "text" else "QR code photo"
    except benchqr.QrError as e:
        raise benchdb.Refused(str(e))


def store_groups(paths):
    """The runs to store, in the order given: [(label path, [paths], log or
    Refused, format)]. Serial logs are one run each; the QR codes of all the
    photos and texts are grouped by run (their CRC), so one run's parts may
    be in several photos and one photo may hold several runs' codes."""
    out, qr_at, codes = [], None, []
    for path in paths:
        if not os.path.isfile(path):
            out.append((path, [path], benchdb.Refused("no such file"), None))
            continue
        kind = benchqr.file_kind(path)
        if kind is None:
            try:
                log, fmt = read_for_store(path)
                out.append((path, [path], log, fmt))
            except benchdb.Refused as e:
                out.append((path, [path], e, None))
            continue
        try:
            found = benchqr.read_texts(path)
        except benchqr.QrError as e:
            out.append((path, [path], benchdb.Refused(str(e)), None))
            continue
        if qr_at is None:
            qr_at = len(out)
            out.append(None)
        codes += [(path, kind, t) for t in found]
    if qr_at is not None:
        runs = benchqr.group(codes)
        out[qr_at:qr_at + 1] = [(files[0], files, benchqr.from_texts(texts, path=", ".join(files)),
                                 "QR code text" if all(k == "text" for k in kinds) else "QR code photo")
                                for files, kinds, texts in runs] or \
            [(codes[0][0] if codes else "?", [c[0] for c in codes],
              benchdb.Refused("no bench1 QR code in the photos or texts"), None)]
    return out


def open_db(args, create=False):
    try:
        return benchdb.connect(args.db, create=create)
    except benchdb.DbError as e:
        print(f"bench.py {args.command}: {e}", file=sys.stderr)
        return None


def cmd_store(args):
    if args.label and len(args.logs) > 1:
        print("bench.py store: --label names one run: give one LOG with it", file=sys.stderr)
        return 2
    conn = open_db(args, create=True)
    if conn is None:
        return 1
    refused = 0
    for path, files, log, fmt in store_groups(args.logs):
        shown = path if len(files) == 1 else f"{path} (with {', '.join(files[1:])})"
        try:
            if isinstance(log, benchdb.Refused):
                raise log
            r = benchdb.store(conn, log, source=", ".join(files), label=args.label, fmt=fmt)
        except benchdb.Refused as e:
            more = f" ('bench.py report {path}' lists the problems)" if e.invalid else ""
            print(f"store: {shown}: REFUSED: {e}; nothing of it stored{more}")
            refused += 1
            continue
        if r.duplicate:
            print(f"store: {shown}: already stored as run R{r.run_id} '{r.label}' on machine "
                  f"M{r.machine_id} (from {r.source}, {r.stored_utc}): not stored again")
        else:
            m = benchdb.list_runs(conn)[1][r.machine_id]
            print(f"store: {shown}: stored as run R{r.run_id} '{r.label}' ({fmt}), {r.series} series, on "
                  f"{'a new' if r.new_machine else 'the known'} machine M{r.machine_id}: "
                  f"{benchdb.machine_text(m)}")
    conn.close()
    return 1 if refused else 0


# Figures the kernel computes with overflow checks: NULL there is an overflow.
OVERFLOWING = ("total_variance", "var_of_vars", "var_of_mins")


def db_cell(cells, row, run, figure):
    """A table cell: the figure, 'overflow' or 'n/a' where it is NULL,
    'skipped' or '-' where the run has no such series."""
    if (row, run["id"]) not in cells:
        return benchdb.absent_text(run, row[0])
    v = cells[(row, run["id"])]
    if v is None:
        return "overflow" if figure in OVERFLOWING else "n/a"
    return str(v)


def db_table(conn, args):
    """(header, rows, runs, notes) of the side-by-side table, or a message
    (str) saying why there is none."""
    runs, machines = benchdb.list_runs(conn)
    if not runs:
        return f"{args.db}: no runs stored"
    rows, cells = benchdb.figure_cells(conn, args.figure, args.unit, args.workload, args.method)
    notes = []
    # A column per (run, CPU): a run of per-CPU runs has a column per CPU
    # measured (cpu NULL: a run of the boot CPU only, one column).
    cols = []
    for r in runs:
        cpus = sorted({row[3] for row in rows if (row, r["id"]) in cells} - {None})
        r["cpus"] = cpus
        cols += [(r, c) for c in cpus or [None]]
    per_cpu = any(c is not None for _, c in cols)
    rows = list(dict.fromkeys(row[:3] + (None,) for row in rows))
    if args.figure == "net" and any(r[1] == "empty" for r in rows):
        rows = [r for r in rows if r[1] != "empty"]
        notes.append("workload empty is left out: its net is 0 by definition "
                     "(--figure offset shows each method's offset)")
    if not rows:
        return (f"{args.db}: no series in {unit_name(args.unit)}"
                + (f", workload {args.workload}" if args.workload else "")
                + (f", method {args.method}" if args.method else "")
                + f" (units stored: {', '.join(benchdb.units(conn)) or 'none'})")
    _, power = benchdb.FIGURES[args.figure]
    u = f"[{unit_name(args.unit, power)}]" if power else "[ensembles]"
    header = [("method",), ("workload",)] + [
        (f"R{r['id']} {r['label']}", f"M{r['machine_id']}") +
        ((f"CPU {c}" if c is not None else "boot CPU",) if per_cpu else ()) + (u,) for r, c in cols]
    body = [[row[0], benchdb.row_name(row)] +
            [db_cell(cells, row[:3] + (c,), r, args.figure) for r, c in cols] for row in rows]
    shown = {row[0] for row in rows}
    for r in runs:
        for m, why in r["skips"].items():
            if m in shown:
                notes.append(f"R{r['id']} (M{r['machine_id']}): method {m} skipped: {why}")
    everywhere = sorted(set.intersection(*(set(r["skips"]) for r in runs)) - shown)
    if everywhere and not args.method:
        notes.append(f"skipped by every run: {', '.join(everywhere)} (the reasons: bench.py report "
                     "LOG, or the database's skips table)")
    flat = [c for line in body for c in line[2:]]
    if "-" in flat:
        notes.append("-: not measured in that run (not selected)")
    if "n/a" in flat:
        notes.append("n/a: not in that run's log (e.g. medians in an output=human log)")
    if "overflow" in flat:
        notes.append("overflow: the kernel's exact arithmetic overflowed (null in the record)")
    if per_cpu:
        notes.append("a column per CPU of a run with per-CPU runs (cpus=; APIC IDs and core types: "
                     "bench.py report LOG); boot CPU: a run of the boot CPU only")
    return header, body, (runs, machines, cols), notes


def cmd_table(args):
    conn = open_db(args)
    if conn is None:
        return 1
    made = db_table(conn, args)
    conn.close()
    if isinstance(made, str):
        print(f"bench.py table: {made}", file=sys.stderr)
        return 1
    header, body, (runs, machines, cols), notes = made
    if args.csv:
        import csv
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["method", "workload"] + [f"{benchdb.run_name(r)}"
                                             f"{' CPU ' + str(c) if c is not None else ''} {h[-1]}"
                                             for (r, c), h in zip(cols, header[2:])])
        w.writerows(body)
        return 0
    what, _ = benchdb.FIGURES[args.figure]
    out = [f"table: {args.db}: {what}, in {unit_name(args.unit)}: {benchdb.runs_on(runs, machines)}",
           "", "Machines:"]
    out += [f"  M{mid}  {benchdb.machine_text(m)}" for mid, m in machines.items()]
    out += ["", "Runs:"]
    for r in runs:
        size = (f"{r['ensembles']} ensembles x {r['samples']} samples"
                if r["ensembles"] is not None else "size unknown")
        out.append(f"  R{r['id']}  M{r['machine_id']}  {r['label']}: {r['status'] or 'status unknown'}, "
                   f"{size}, output={r['output'] or '?'}, TSC "
                   f"{benchdb.rate_text(r['tsc_hz'], r['tsc_ppm'], r['tsc_source'])}, stored "
                   f"{r['stored_utc']} from {r['source']}" +
                   (f"; CPUs {', '.join(map(str, r['cpus']))}" if r["cpus"] else ""))
    out.append("")
    out += table(header, body)
    if notes:
        out += [""] + [f"  {n}" for n in notes]
    try:
        print("\n".join(out))
    except BrokenPipeError:
        pass
    return 0


def cmd_plot(args):
    conn = open_db(args)
    if conn is None:
        return 1
    path = args.output or os.path.splitext(args.db)[0] + f"-{args.figure}.png"
    import benchplot
    try:
        bars = benchdb.plot(conn, path, args.figure, args.unit, args.workload, args.method)
    except (benchplot.NoMatplotlib, benchdb.DbError) as e:
        print(f"bench.py plot: no figure written: {e}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print(f"plot: {path}: {benchdb.FIGURES[args.figure][0]} in {unit_name(args.unit)}, {bars} bars")
    return 0


def cmd_qr(args):
    """The report of a QR code's photos (or texts): as cmd_report prints it
    for a serial log, with the figures the code's text carries."""
    for path in args.photos:
        if not os.path.isfile(path):
            print(f"bench.py qr: {path}: no such file", file=sys.stderr)
            return 1
    try:
        log = benchqr.load(args.photos)
    except benchqr.QrError as e:
        print(f"bench.py qr: {e}", file=sys.stderr)
        return 1
    if args.text:  # the joined parts as one code's text: 'bench1 1/1 CRC', the body
        with open(args.text, "w", encoding="utf-8") as f:
            f.write(f"bench1 1/1 {log.qr_crc}\n{log.qr_body}")
    try:
        print("\n".join(report_text(log)))
    except BrokenPipeError:
        pass
    return 0 if log.valid else 1


def cmd_capture(args):
    import benchcapture
    return benchcapture.main(args)


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="{capture,report,qr,compare,store,table,plot,asm}")
    sub.required = True
    c = sub.add_parser("capture", help="save a run's serial output until its final line")
    c.add_argument("source", nargs="?", choices=["-"], help="'-': standard input (the default)")
    c.add_argument("--device", help="serial device, e.g. /dev/ttyUSB0 (needs python3-serial)")
    c.add_argument("--baud", type=int, default=115200, help="baud rate (default 115200)")
    c.add_argument("-o", "--output", help="log file to write (default bench-DATE-TIME.log)")
    c.add_argument("--timeout", type=float, default=None,
                   help="give up after S seconds without the final line (default: no limit)")
    c.add_argument("-q", "--quiet", action="store_true",
                   help="do not echo the lines to standard error")
    c.set_defaults(func=cmd_capture)
    r = sub.add_parser("report", help="check a log, print its statistics, draw its figures")
    r.add_argument("log")
    r.add_argument("-o", "--outdir", help="directory for the PNG figures (default LOG-report/)")
    r.add_argument("--no-figures", action="store_true", help="print the report only")
    r.set_defaults(func=cmd_report)
    m = sub.add_parser("compare", help="two runs side by side, with ratios B/A")
    m.add_argument("log_a")
    m.add_argument("log_b")
    m.set_defaults(func=cmd_compare)
    s = sub.add_parser("store", help="store runs in a lab's SQLite database")
    s.add_argument("logs", nargs="+", metavar="LOG",
                   help="serial logs (bench.py capture), photos of the QR code, or its text")
    s.add_argument("--db", required=True, help="the database file (made when missing)")
    s.add_argument("--label", help="the run's name in tables (default: the log's file name)")
    s.set_defaults(func=cmd_store)
    for name, helptext, func in (("table", "the stored runs side by side", cmd_table),
                                 ("plot", "one figure comparing the stored runs", cmd_plot)):
        t_ = sub.add_parser(name, help=helptext)
        t_.add_argument("--db", required=True, help="the database file")
        t_.add_argument("--workload", help="only this workload")
        t_.add_argument("--method", help="only this method")
        t_.add_argument("--unit", default=TSC, help="tsc_ticks (default), core_cycles, instructions")
        t_.add_argument("--figure", default="net", choices=list(benchdb.FIGURES),
                        help="the summary figure (default net: min of mins - the method's offset)")
        if name == "table":
            t_.add_argument("--csv", action="store_true", help="CSV on standard output")
        else:
            t_.add_argument("-o", "--output", help="PNG file (default: the database's name "
                                                   "without .sqlite, plus -FIGURE.png)")
        t_.set_defaults(func=func)
    q = sub.add_parser("qr", help="read the QR code of the results from photos of the screen")
    q.add_argument("photos", nargs="+", metavar="PHOTO",
                   help="photos or screenshots (PNG, JPEG, ...) of every code, or the codes' texts")
    q.add_argument("--text", help="also write the codes' joined text to this file (as one code's "
                                  "text, 'bench1 1/1 CRC' first: bench.py qr and store read it)")
    q.set_defaults(func=cmd_qr)
    a = sub.add_parser("asm", help="assemble code into the boot parameters that measure it")
    a.add_argument("code", help="instructions, Intel syntax (nasm), ';' between them")
    a.add_argument("--init", help="instructions run before each sample, outside the window")
    a.add_argument("--unroll", help="copies of the code in the window (unroll=)")
    a.add_argument("--loops", help="iterations of a loop around the copies (loops=)")
    a.add_argument("--name", help="the workload's name in the records (code.name=)")
    a.set_defaults(func=cmd_asm)
    args = p.parse_args(argv)
    if args.command == "capture" and args.device and args.source:
        p.error("capture: give either --device or '-', not both")
    for attr in ("log", "log_a", "log_b"):
        path = getattr(args, attr, None)
        if path is not None and not os.path.isfile(path):
            print(f"bench.py {args.command}: {path}: no such file", file=sys.stderr)
            return 1
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

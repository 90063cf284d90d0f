"""tools/benchtable.py - the text of `bench.py table`: the runs stored in a
lab's database (tools/benchdb.py) side by side, a column per run (and per
CPU for per-CPU runs) with its machine, a row per method and workload,
each cell one summary figure (default: the net least minimum, marked as
the end screen marks it: -20! below zero, 0~ below the resolution), or the
answer's (tools/benchdbanswer.py: per_copy, code='s figure per copy as the
kernel states it; verdict, each method's), or with --event NAME the
event's net per window or figure per copy (tools/benchdbevents.py,
UNVERIFIED marked); the machines, runs and their settings (memory,
caches, clocks: those alike once, each that differs per run) listed
above it and notes on what the cells mean below; or the same table as CSV
rows.
"""
import benchanswer
import benchdb
import benchdbanswer
import benchdbevents
import benchdbmem
import benchdbplan
from benchlog import unit_name
from benchtext import table

# Figures the kernel computes with overflow checks: NULL there is an overflow.
OVERFLOWING = ("total_variance", "var_of_vars", "var_of_mins")


def db_cell(cells, row, run, figure, flags=None):
    """A table cell: the figure (a net with its flag's mark, flags:
    benchdbanswer.net_flags), 'not in this source' where no source of the
    run carries it, 'overflow' or 'n/a' where it is NULL otherwise,
    'skipped' or '-' where the run has no such series."""
    if (row, run["id"]) not in cells:
        return benchdb.absent_text(run, row[0])
    v = cells[(row, run["id"])]
    if v is benchdb.NOT_IN_SOURCE:
        return str(v)
    if v is None:
        return "overflow" if figure in OVERFLOWING else "n/a"
    return benchanswer.net_cell(v, (flags or {}).get((row, run["id"])))


def figure_of(conn, args):
    """(rows, cells, flags, unit header) of --figure: a summary figure
    (benchdb.figure_cells; flags of the nets) or one of the answer's; with
    --event NAME the event's net or figure per copy (tools/benchdbevents.py)."""
    if getattr(args, "event", None):
        rows, cells = benchdbevents.event_cells(conn, args.event, args.figure, args.workload, args.method)
        name = benchdbevents.stored_name(conn, args.event)
        return rows, cells, {}, f"[{name} per copy]" if args.figure == "per_copy" else f"[{name}]"
    if args.figure in benchdbanswer.FIGURES:
        rows, cells = benchdbanswer.answer_cells(conn, args.figure, args.unit, args.workload, args.method)
        u = (f"[{unit_name(args.unit)} per copy]" if args.figure == "per_copy" else "[method's own unit]")
        return rows, cells, {}, u
    rows, cells = benchdb.figure_cells(conn, args.figure, args.unit, args.workload, args.method)
    _, power = benchdb.FIGURES[args.figure]
    flags = benchdbanswer.net_flags(conn, args.unit) if args.figure == "net" else {}
    return rows, cells, flags, f"[{unit_name(args.unit, power)}]" if power else "[ensembles]"


def db_table(conn, args):
    """(header, rows, runs, notes) of the side-by-side table, or a message
    (str) saying why there is none."""
    runs, machines = benchdb.list_runs(conn)
    if not runs:
        return f"{args.db}: no runs stored"
    runs = by_machine(conn, args, runs, machines)
    if isinstance(runs, str):
        return runs
    if getattr(args, "event", None) and args.figure not in benchdbevents.FIGURES:
        return (f"--event takes --figure net (the default: the event's net per window) or per_copy (code='s "
                f"figure per copy in the event), not {args.figure}")
    rows, cells, flags, u = figure_of(conn, args)
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
    if not rows and getattr(args, "event", None):
        known = benchdbevents.event_names(conn)
        return (f"{args.db}: no {args.figure} of event {args.event} stored"
                + (f", workload {args.workload}" if args.workload else "")
                + (f", method {args.method}" if args.method else "")
                + f" (events stored: {', '.join(known) if known else 'none: runs with events= have them'})")
    if not rows and args.figure in benchdbanswer.FIGURES:
        return (f"{args.db}: no {args.figure} stored" + (f" in {unit_name(args.unit)}" if args.figure == "per_copy"
                                                         else "") +
                (f", workload {args.workload}" if args.workload and args.figure == "per_copy" else "") +
                (f", method {args.method}" if args.method else "") +
                (" (runs with code= have figures per copy)" if args.figure == "per_copy" else
                 " (runs stored before verdicts were kept have none)"))
    if not rows:
        return (f"{args.db}: no series in {unit_name(args.unit)}"
                + (f", workload {args.workload}" if args.workload else "")
                + (f", method {args.method}" if args.method else "")
                + f" (units stored: {', '.join(benchdb.units(conn)) or 'none'})")
    header = [("method",), ("workload",)] + [
        (f"R{r['id']} {r['label']}", f"M{r['machine_id']}") +
        ((f"CPU {c}" if c is not None else "boot CPU",) if per_cpu else ()) + (u,) for r, c in cols]
    body = [[row[0], benchdb.row_name(row)] +
            [db_cell(cells, row[:3] + (c,), r, args.figure, flags) for r, c in cols] for row in rows]
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
    for flag, mark in benchanswer.MARKS.items():
        if any(c.endswith(mark) for c in flat):
            notes.append(benchanswer.MARK_LEGEND[flag])
    if any(c.endswith(benchdbevents.ev.UNVERIFIED) for c in flat):
        notes.append(benchdbevents.ev.UNVERIFIED_WHY)
    if getattr(args, "event", None):
        notes.append(f"each cell in {benchdbevents.stored_name(conn, args.event)}, the event its unit" +
                     ("; the empty window is left out: its net is 0 by definition" if args.figure == "net" else ""))
    elif args.figure == "per_copy":
        notes.append("per copy: the 2N-N figure of code= ((least min(2N) - least min(N)) / N); 'exactly' "
                     "only where the minimums did not spread; +- its bound; 'below resolution (<= X)': at "
                     "most X; 'below zero': not a duration; 'wrapped': a least minimum wrapped, no figure")
        for r in runs:
            notes += [f"R{r['id']} (M{r['machine_id']}): {line}"
                      for line in benchdbanswer.agreement_lines(conn, r["id"])]
    if "-" in flat:
        notes.append("-: not measured in that run (not selected)")
    if str(benchdb.NOT_IN_SOURCE) in flat:
        notes.append("not in this source: no source stored of that run carries the figure (a QR code "
                     "carries no total variance of a workload; store the run's serial log too, and the "
                     "figures merge into the same run)")
    if "n/a" in flat:
        notes.append("n/a: not in that run's log (e.g. medians in an output=human log)")
    if "overflow" in flat:
        notes.append("overflow: the kernel's exact arithmetic overflowed (null in the record)")
    if per_cpu:
        notes.append("a column per CPU of a run with per-CPU runs (cpus=; APIC IDs and core types: "
                     "bench.py report LOG); boot CPU: a run of the boot CPU only")
    return header, body, (runs, machines, cols, benchdbmem.settings_lines(conn, runs)), notes


def by_machine(conn, args, runs, machines):
    """The runs table shows: those of experiment --experiment NAME (any
    case) when given, grouped by machine with --by machine (each machine's
    lines, benchdbplan.machine_lines, in machines[id]["lines"]); each run's
    experiment in r["experiment"]. A str when no run is of that experiment."""
    exps = benchdbplan.run_experiments(conn)
    for r in runs:
        x = exps.get(r["id"])
        r["experiment"] = (f"experiment {x['idx']} of {x['of_n']} {x['name']} ({x['plan_file']} line {x['line']}: "
                           f"{x['words']})" if x else None)
    if getattr(args, "experiment", None):
        runs = [r for r in runs if r["id"] in exps and exps[r["id"]]["name"].lower() == args.experiment.lower()]
        if not runs:
            known = sorted({x["name"] for x in exps.values()})
            return (f"{args.db}: no run of experiment {args.experiment} stored (experiments stored: "
                    f"{', '.join(known) if known else 'none: plan runs have them'})")
    if getattr(args, "by", None) == "machine":
        runs = sorted(runs, key=lambda r: r["machine_id"])
        for mid, m in machines.items():
            m["lines"] = benchdbplan.machine_lines(conn, mid, runs)
    return runs


def csv_rows(made):
    """The CSV of db_table's (header, body, ...): a header row naming each
    column's run, CPU and unit, then the body."""
    header, body, (_, _, cols, _), _ = made
    return [["method", "workload"] + [f"{benchdb.run_name(r)}"
                                      f"{' CPU ' + str(c) if c is not None else ''} {h[-1]}"
                                      for (r, c), h in zip(cols, header[2:])]] + body


def table_text(args, made):
    """The lines of the table of db_table's result made for args (--db,
    --figure, --unit): the machines, the runs, the table, the notes."""
    header, body, (runs, machines, _, settings), notes = made
    what = (benchdbanswer.FIGURES[args.figure] if args.figure in benchdbanswer.FIGURES
            else benchdb.FIGURES[args.figure][0])
    unit = ("in each method's own unit" if args.figure == "verdict" else f"in {unit_name(args.unit)}")
    if getattr(args, "event", None):
        what, unit = benchdbevents.FIGURES[args.figure], f"event {header[2][-1][1:-1]}"
    out = [f"table: {args.db}: {what}, {unit}: {benchdb.runs_on(runs, machines)}",
           "", "Machines:"]
    grouped = getattr(args, "by", None) == "machine"
    for mid, m in machines.items():
        if grouped and not any(r["machine_id"] == mid for r in runs):
            continue
        out.append(f"  M{mid}  {benchdb.machine_text(m)}")
        if grouped:  # its firmware per run, its DIMMs, its runs under it
            out += [f"        {line}" for line in m["lines"]]
            out += [f"        {line}" for line in run_lines([r for r in runs if r["machine_id"] == mid])]
    if not grouped:
        out += ["", "Runs:"] + run_lines(runs)
    out += ["", "Settings (memory, caches and clocks: asked for, and what took effect; tools/benchdbmem.py):"]
    out += settings
    out.append("")
    out += table(header, body)
    if notes:
        out += [""] + [f"  {n}" for n in notes]
    return out


def run_lines(runs):
    """A line per run: its id, machine, label, status, size, TSC rate, where
    it was stored from, its CPUs, and its experiment of a plan run."""
    out = []
    for r in runs:
        size = (f"{r['ensembles']} ensembles x {r['samples']} samples"
                if r["ensembles"] is not None else "size unknown")
        out.append(f"  R{r['id']}  M{r['machine_id']}  {r['label']}: {r['status'] or 'status unknown'}, "
                   f"{size}, output={r['output'] or '?'}, TSC "
                   f"{benchdb.rate_text(r['tsc_hz'], r['tsc_ppm'], r['tsc_source'])}, stored "
                   f"{r['stored_utc']} from {r['source']}" +
                   (f"; CPUs {', '.join(map(str, r['cpus']))}" if r["cpus"] else "") +
                   (f"; {r['experiment']}" if r.get("experiment") else ""))
    return out

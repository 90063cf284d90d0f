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
        First the two runs' answers side by side: each method's verdict
        (paper section 4; why where it is not ergodic) and code='s figures
        per copy as the kernel states them, and the methods' agreement;
        then an overview within 100 columns: per series both runs have, the
        two least minimums, their ratio B/A and 'B vs A' (same, same within
        the spread of the minimums, B higher, B lower), and which facts of
        the environments differ; then the details: every figure of each
        series side by side with the ratio B/A, and the environments; series
        matched per CPU, and said when the runs measured different CPUs;
        whether the runs come from different machines (the SMBIOS identity
        fields that differ) or the same machine with other firmware; plan
        runs' experiments paired by name (those only in one said).
        Exit 0 when both logs are valid.
    bench.py store LOG|PHOTO|FOLDER... --db LAB.sqlite [--label NAME]
        Store runs in a lab's SQLite database (machines, runs, series, the
        paper's figures): a run already there is said and not stored again;
        a folder (the stick's results/) gives its *.log files, and its
        *.part files (a run whose write did not finish) are said, not stored;
        a source of a run already stored from another source (the same run
        ID: its serial log and its QR code) is merged into that run, each
        filling the figures the other does not carry;
        an invalid log is refused with its first problem's line, nothing of
        it stored; an aborted run's log (its final line "bench: run
        aborted ...") is said ABORTED with that line, nothing of it stored.
        Photos of the QR code (or its text) are stored with the
        figures the code carries; the codes of all photos given are joined
        by run. A plan run's log: a run per experiment (run key RUNID/NAME,
        label LABEL/NAME), a line each; a skipped experiment said, not
        stored. Last a line counting what was stored, already there, merged,
        incomplete, aborted and refused. Exit 1 when a log was refused.
    bench.py table --db LAB.sqlite [--workload W] [--method M] [--unit U]
                   [--figure F] [--event NAME] [--csv] [--by machine] [--experiment NAME]
        The stored runs side by side (a column per run, with its machine,
        and per CPU for per-CPU runs; a row per method and workload), net
        least minimum by default (marked as on the end screen: -20! below
        zero, 0~ below the resolution); --figure per_copy: code='s figure
        per copy as the kernel states it (exactly, +-, below resolution,
        below zero) and the methods' agreement; --figure verdict: each
        method's verdict (ergodic, NOT ergodic and why); --figure latency:
        sweep=latency's figure per load per area size, a column per run,
        the levels below; the runs' settings (memory, caches, clocks) that
        differ are listed per run; --event NAME: a
        performance event's net per window (events=), or with --figure
        per_copy code='s figure per copy in it; UNVERIFIED marked.
        --by machine: the runs grouped under their machine (CPU, SMBIOS
        system and board, each run's BIOS, DIMMs); with --figure per_copy
        one's own experiments of plan runs, a row each, a column per
        machine, each cell the trusted method's figure per copy;
        --experiment NAME: only the runs of that experiment.
    bench.py plot --db LAB.sqlite [-o FILE.png] [--workload W] [--method M] [--event NAME]
        One figure comparing the runs: bars of net per workload per method.
        With --event NAME: the event's nets, or with --figure per_copy
        code='s figures per copy in it, per method; unverified bars hatched.
    bench.py plot --latency LOG [-o FILE.png]
        The latency curve of a sweep=latency run: latency per load against
        the area's size (log scale), CPUID's cache sizes as vertical lines,
        the levels found annotated. Exit 1 when the log has no latency point.
    bench.py asm CODE [--init TEXT] [--unroll N] [--loops N] [--name WORD]
        Assemble CODE (nasm, Intel syntax, 64-bit; ';' between instructions)
        and print the boot parameters that measure it (code=HEX ...), to
        paste into GRUB's editor (key e on a menu entry). Exit 1 when nasm
        cannot assemble it. README "Measuring your own code".
    bench.py plan FILE.asm [-o plan.txt | --stick MOUNTPOINT [--force]]
        A plan file (plan=, README "Writing a plan") from an annotated
        assembly file: ';; experiment NAME [WORD...]' opens an experiment,
        ';; init' its init code, ';; code' its measured code, ';; defaults
        WORD...' the words every experiment shares; the rest is nasm source.
        Each part assembled (nasm) and checked against bench/code.h's
        CODE_MAX_BYTES; the plan printed, written to -o, or to the stick's
        FAT partition mounted at MOUNTPOINT (MOUNTPOINT/plan.txt; refused
        without its results/ folder unless --force). Exit 1 on any problem,
        each named by its .asm line. tools/plan-example.asm has five.
    bench.py events [--cpu FAMILY-MODEL[-STEPPING]] [--vendor intel|amd|hygon]
                    [--search WORD]
        Without --cpu the event tables the image carries (intel/perfmon's
        core files, libpfm4's AMD Zen tables; tools/events/README.md) and
        which CPUs select each; with --cpu (CPUID's display family and model
        in hex: 6-5E, 6-55-7, 17-31) that CPU's events: name, event select,
        umask, cmask, flags, counters and the IA32_PERFEVTSELx or PERF_CTL
        value, those whose name holds WORD with --search. Exit 1 when no
        table is selected, 2 on a malformed --cpu.
    bench.py serve [--port N] [--bind ADDR] [--db FILE] [--token T] [--max-bytes N]
        The lab's collector (README "A rack: results over the network"):
        an HTTP server (waitress, Debian's python3-waitress) on ADDR:N
        (default 0.0.0.0:8080, send='s default port; N 0: a free one) that
        stores each POSTed log in the database (default lab.sqlite; made
        when missing) as store does, and keeps it in FILE's folder -logs/;
        the answer is JSON (201 stored, 200 already there, 400 not a bench
        log or truncated or invalid, 401 without --token's T, 413 over
        --max-bytes, default 64 MiB). GET /: the lab's page, the runs
        newest first, updating by itself; /runs: the same as JSON;
        /runs/R3/report, /runs/R3/compare. One line per request on standard
        error. Runs until interrupted; exit 1 when it cannot start.

Figures need matplotlib (Debian: python3-matplotlib, for /usr/bin/python3):
when the Python running bench.py lacks it, bench.py runs itself again with
/usr/bin/python3 (or the python3 on PATH) if that one has it, or says how to
get it;
capture from a device needs pyserial (python3-serial). The log format is in
docs/RECORDS.md, "Machine-readable output"; tools/benchlog/ reads it.
"""
# (The docstring is also --help's text.) This file is the command line only:
# what each command prints is made by tools/benchreport.py (report, qr),
# tools/benchcompare.py (compare) and tools/benchtable.py (table), with
# tools/benchtext.py; tools/benchinput.py reads the files store is given;
# logs are read by tools/benchlog/, QR codes by tools/benchqr.py; the
# database is tools/benchdb.py, the figures tools/benchplot.py, capture
# tools/benchcapture.py, asm tools/benchasm.py, plan tools/benchplanasm.py (the
# format: tools/benchplan.py), events tools/mkevents.py, serve tools/benchserve.py
# (its application tools/benchserveapp.py, its page tools/benchservepage.py).
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchanswer  # noqa: E402
import benchasm  # noqa: E402
import benchdb  # noqa: E402
import benchdbanswer  # noqa: E402
import benchlog  # noqa: E402
import benchplan  # noqa: E402
import benchplanasm  # noqa: E402
import benchqr  # noqa: E402
import benchserve  # noqa: E402
import benchserveapp  # noqa: E402
import mkevents  # noqa: E402
import benchtable  # noqa: E402
import benchplantext  # noqa: E402
from benchinput import expand_folders, store_groups  # noqa: E402
from benchlog import TSC, unit_name  # noqa: E402
from benchreport import report_text  # noqa: E402


def default_outdir(path):
    """report's default -o: the log's path without .log (or .txt), plus '-report'."""
    base, ext = os.path.splitext(path)
    return (base if ext in (".log", ".txt") else path) + "-report"


def cmd_report(args):
    log = benchlog.load(args.log)
    figures = err = None
    outdir = args.outdir or default_outdir(args.log)
    if not args.no_figures and log.experiments:  # a plan run: each experiment's figures in OUTDIR/NAME/
        import benchplot
        try:
            figures = {x.name: benchplot.all_figures(x.log, os.path.join(outdir, x.name))
                       for x in log.experiments if x.log and any(s.ensembles for s in x.log.series.values())}
        except benchplot.NoMatplotlib as e:
            err = str(e)
    elif not args.no_figures and any(s.ensembles for s in log.series.values()):
        import benchplot
        try:
            figures = benchplot.all_figures(log, outdir)
            if log.by_kind.get("latency_point"):
                import benchmemplot
                try:
                    d = benchmemplot.plot(log, os.path.join(outdir, "latency.png"))
                    figures.append((os.path.join(outdir, "latency.png"), f"the latency curve of sweep=latency "
                                    f"({d['points']} points, {len(d['levels'])} levels)"))
                except ValueError:
                    pass
        except benchplot.NoMatplotlib as e:
            err = str(e)
    lines = benchplantext.report_lines(log, figures, err)
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


def cmd_compare(args):
    a, b = benchlog.load(args.log_a), benchlog.load(args.log_b)
    try:
        print("\n".join(benchplantext.compare_lines(a, b)))
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


def cmd_plan(args):
    if args.output and args.stick:
        print("bench.py plan: give either -o FILE or --stick MOUNTPOINT, not both", file=sys.stderr)
        return 2
    try:
        target = benchplanasm.stick_target(args.stick, args.force) if args.stick else args.output
        text = benchplanasm.build(args.source)
    except benchplanasm.PlanAsmError as e:
        for problem in e.problems:
            print(f"bench.py plan: {problem}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"bench.py plan: {args.source}: {e.strerror}", file=sys.stderr)
        return 1
    if not target:
        sys.stdout.write(text)
        return 0
    with open(target, "w", newline="\n") as f:
        f.write(text)
    n = len(benchplan.parse(text.encode("utf-8")).experiments)
    print(f"bench.py plan: wrote {target} ({len(text)} bytes, {n} experiment{'s' if n != 1 else ''} "
          f"from {args.source})")
    return 0


def open_db(args, create=False):
    """The connection to --db, or None after saying why there is none."""
    try:
        return benchdb.connect(args.db, create=create)
    except benchdb.DbError as e:
        print(f"bench.py {args.command}: {e}", file=sys.stderr)
        return None


def aborted_line(log):
    """The final line of a log whose run was aborted (the kernel's "bench:
    run aborted ..." line, kernel/exit.h: a bad boot parameter, an
    exception, no memory; under UEFI the stick keeps it as <run ID>.log
    too), or None."""
    final = getattr(log, "final_line", None)
    return final if final and "run aborted" in final else None


def cmd_store(args):
    paths, incomplete = expand_folders(args.logs)
    if args.label and len(paths) > 1:
        print("bench.py store: --label names one run: give one LOG with it", file=sys.stderr)
        return 2
    conn = open_db(args, create=True)
    if conn is None:
        return 1
    refused = stored = there = merged = aborted = skipped = 0
    for path in incomplete:
        print(f"store: incomplete (the run's write did not finish): {path}; not stored")
    for path, files, log, fmt in store_groups(paths):
        shown = path if len(files) == 1 else f"{path} (with {', '.join(files[1:])})"
        if aborted_line(log):
            print(f"store: {shown}: ABORTED (its final line: '{aborted_line(log)}'): the run did not finish; "
                  "nothing of it stored")
            aborted += 1
            continue
        try:
            if isinstance(log, benchdb.Refused):
                raise log
            if getattr(log, "experiments", None) or getattr(log, "qr_experiments", None):
                # a plan run: a run per experiment, a line each
                done = [(f"{shown}: {x.label}", x.log, r, x) for x, r in
                        benchdb.store_experiments(conn, log, source=", ".join(files), label=args.label, fmt=fmt)]
            else:
                done = [(shown, log, benchdb.store(conn, log, source=", ".join(files), label=args.label, fmt=fmt),
                         None)]
        except benchdb.Refused as e:
            more = f" ('bench.py report {path}' lists the problems)" if e.invalid else ""
            print(f"store: {shown}: REFUSED: {e}; nothing of it stored{more}")
            refused += 1
            continue
        for what, one, r, x in done:
            if isinstance(r, benchdb.Refused):
                refused += 1
                print(f"store: {what}: REFUSED: {r}; nothing of this experiment stored")
            elif r is None:
                skipped += 1
                print(f"store: {what}: skipped by the kernel ({x.end.get('why') or 'no why given'}): no figures, "
                      "nothing stored")
            elif r.duplicate:
                there += 1
                print(f"store: {what}: already stored as run R{r.run_id} '{r.label}' on machine "
                      f"M{r.machine_id} (from {r.source}, {r.stored_utc}): not stored again")
            elif r.merged:
                merged += 1
                print(f"store: {what}: the same run (run ID {benchdb.run_key(one)}) as run R{r.run_id} "
                      f"'{r.label}' on machine M{r.machine_id}: merged into it ({fmt}), {r.series} series "
                      "added or completed")
            else:
                stored += 1
                m = benchdb.list_runs(conn)[1][r.machine_id]
                print(f"store: {what}: stored as run R{r.run_id} '{r.label}' ({fmt}), {r.series} series, on "
                      f"{'a new' if r.new_machine else 'the known'} machine M{r.machine_id}: "
                      f"{benchdb.machine_text(m)}")
    conn.close()
    print(f"store: {stored} stored, {there} already there, {merged} merged into a run already there, "
          f"{len(incomplete)} incomplete, {aborted} aborted, {refused} refused" +
          (f", {skipped} experiments skipped by the kernel" if skipped else ""))
    return 1 if refused else 0


def cmd_table(args):
    conn = open_db(args)
    if conn is None:
        return 1
    if args.figure == "latency":
        return table_latency(args, conn)
    if args.by == "machine" and args.figure == "per_copy" and not args.event:
        return table_experiments(args, conn)
    made = benchtable.db_table(conn, args)
    conn.close()
    if isinstance(made, str):
        print(f"bench.py table: {made}", file=sys.stderr)
        return 1
    if args.csv:
        import csv
        csv.writer(sys.stdout, lineterminator="\n").writerows(benchtable.csv_rows(made))
        return 0
    try:
        print("\n".join(benchtable.table_text(args, made)))
    except BrokenPipeError:
        pass
    return 0


def table_experiments(args, conn):
    """table --figure per_copy --by machine [--experiment NAME]: one's own
    experiments across machines, uops.info-style (tools/benchdbplan.py)."""
    import benchdbplan
    from benchtext import table
    runs, machines = benchdb.list_runs(conn)
    made = benchdbplan.experiment_table(conn, args.unit, runs, machines, args.experiment)
    if isinstance(made, str):
        conn.close()
        print(f"bench.py table: {args.db}: {made}", file=sys.stderr)
        return 1
    header, rows, notes = made
    if args.csv:
        conn.close()
        import csv
        csv.writer(sys.stdout, lineterminator="\n").writerows([[" ".join(h) for h in header]] + rows)
        return 0
    out = [f"table: {args.db}: figure per copy of each experiment by the method the kernel trusts, in "
           f"{unit_name(args.unit)}, a column per machine", "", "Machines:"]
    for h in header[2:]:
        mid = int(h[0][1:])
        out += [f"  {benchdbplan.machine_heading(machines[mid])}"]
        out += [f"        {line}" for line in benchdbplan.machine_lines(conn, mid, runs)]
    conn.close()
    print("\n".join(out + [""] + table(header, rows) + [""] + [f"  {n}" for n in notes]))
    return 0


def table_latency(args, conn):
    """table --figure latency: sweep=latency's figures per load per size, a
    column per run (tools/benchdbmem.py)."""
    import benchdb
    import benchdbmem
    from benchtext import table
    made = benchdbmem.latency_table(conn, args.unit, benchdb.list_runs(conn)[0])
    conn.close()
    if isinstance(made, str):
        print(f"bench.py table: {args.db}: {made}", file=sys.stderr)
        return 1
    header, rows, notes = made
    if args.csv:
        import csv
        csv.writer(sys.stdout, lineterminator="\n").writerows([[" ".join(h) for h in header]] + rows)
        return 0
    print("\n".join([f"table: {args.db}: latency per load of sweep=latency (a pointer chase, 2N-N), in "
                     f"{unit_name(args.unit)}", ""] + table(header, rows) + [""] + [f"  {n}" for n in notes]))
    return 0


def cmd_plot(args):
    if args.latency:
        return plot_latency(args)
    if not args.db:
        print("bench.py plot: give --db LAB.sqlite (the runs stored), or --latency LOG", file=sys.stderr)
        return 2
    conn = open_db(args)
    if conn is None:
        return 1
    import benchplot
    if args.event or args.figure == "per_copy":
        return plot_event(args, conn, benchplot)
    path = args.output or os.path.splitext(args.db)[0] + f"-{args.figure}.png"
    try:
        bars, marked = benchdb.plot(conn, path, args.figure, args.unit, args.workload, args.method)
    except (benchplot.NoMatplotlib, benchdb.DbError) as e:
        print(f"bench.py plot: no figure written: {e}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    marks = ", ".join(f"{n} {flag.replace('_', ' ')} ('{benchanswer.MARKS[flag]}')" for flag, n in marked.items())
    print(f"plot: {path}: {benchdb.FIGURES[args.figure][0]} in {unit_name(args.unit)}, {bars} bars"
          + (f", marked as on the end screen: {marks}" if marks else ""))
    return 0


def plot_event(args, conn, benchplot):
    """plot --event NAME: the event's nets (or --figure per_copy, code='s
    figures per copy in it) per method, unverified bars hatched."""
    import benchevplot
    try:
        if not args.event:
            raise benchdb.DbError("--figure per_copy is plotted for an event: give --event NAME")
        if args.figure not in ("net", "per_copy"):
            raise benchdb.DbError(f"--event takes --figure net (the default) or per_copy, not {args.figure}")
        path = args.output or os.path.splitext(args.db)[0] + f"-{args.event}-{args.figure}.png"
        bars, unverified = benchevplot.plot(conn, path, args.event, args.figure, args.workload, args.method)
    except (benchplot.NoMatplotlib, benchdb.DbError) as e:
        print(f"bench.py plot: no figure written: {e}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print(f"plot: {path}: {'figure per copy of code=' if args.figure == 'per_copy' else 'net'} in event "
          f"{args.event}, {bars} bars" + (f", {unverified} hatched as UNVERIFIED (its pass's check missed)"
                                           if unverified else ""))
    return 0


def plot_latency(args):
    """plot --latency LOG: the latency curve of sweep=latency (tools/benchmemplot.py)."""
    import benchmemplot
    import benchplot
    if not os.path.isfile(args.latency):
        print(f"bench.py plot: {args.latency}: no such file", file=sys.stderr)
        return 1
    log = benchlog.load(args.latency)
    path = args.output or default_outdir(args.latency)[:-len("-report")] + "-latency.png"
    try:
        d = benchmemplot.plot(log, path)
    except (benchplot.NoMatplotlib, ValueError) as e:
        print(f"bench.py plot: no figure written: {e}", file=sys.stderr)
        return 1
    print(f"plot: {path}: latency per load in {', '.join(unit_name(u) for u in d['units'])} against the area's "
          f"size (log scale), {d['points']} points" +
          (f" ({d['left_out']} without a figure left out)" if d["left_out"] else "") +
          f", {len(d['caches'])} CPUID cache sizes marked, {len(d['levels'])} levels annotated" +
          ("" if log.valid else f"; the log is NOT valid ({len(log.problems)} problems: bench.py report lists them)"))
    return 0 if log.valid else 1


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


def cmd_events(args):
    args.events = mkevents.EVENTS
    return mkevents.list_main(args)


def cmd_capture(args):
    import benchcapture
    return benchcapture.main(args)


def cmd_serve(args):
    return benchserve.main(args)


def with_waitress(argv):
    """For serve: when this Python lacks waitress, run bench.py again with
    the first of benchplot.CANDIDATES that has it (Debian's python3-waitress
    is for /usr/bin/python3), saying so; or say how to get it (exit 1)."""
    import benchplot
    try:
        import waitress  # noqa: F401
        return None
    except ImportError:
        pass
    other = None if os.environ.get(REEXEC) else benchplot.other_python(module="waitress")
    if other:
        print(f"bench.py: waitress is not available to {sys.executable}: running with {other}, which has it",
              file=sys.stderr)
        sys.stderr.flush()
        os.execve(other, [other, os.path.abspath(__file__)] + list(argv), dict(os.environ, **{REEXEC: other}))
    print(f"bench.py serve: waitress is not available to {sys.executable}, nor to any of "
          f"{', '.join(benchplot.CANDIDATES)}: install it (Debian, Ubuntu: apt-get install python3-waitress; "
          "tools/deps.sh does)", file=sys.stderr)
    return 1


# Set in the environment of bench.py run again by with_matplotlib: the
# Python it chose, so that it is not looked for twice.
REEXEC = "BENCH_PY_MATPLOTLIB"


def with_matplotlib(argv):
    """For a command that draws (plot; report without --no-figures): when
    this Python lacks matplotlib, run bench.py again with the first of
    benchplot.CANDIDATES that has it (as the Makefile runs Debian's
    /usr/bin/python3), saying so; otherwise return, and the command says
    how to get it (benchplot.how_to_get)."""
    import benchplot
    if benchplot.has_matplotlib() or os.environ.get(REEXEC):
        return
    other = benchplot.other_python()
    if other:
        print(f"bench.py: matplotlib is not available to {sys.executable}: running with {other}, "
              "which has it", file=sys.stderr)
        sys.stderr.flush()
        os.execve(other, [other, os.path.abspath(__file__)] + list(argv),
                  dict(os.environ, **{REEXEC: other}))


def main(argv=None):
    p = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command",
                           metavar="{capture,report,qr,compare,store,table,plot,asm,plan,events,serve}")
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
                   help="serial logs (bench.py capture), photos of the QR code, or its text; "
                        "a folder: its *.log files (the stick's results/)")
    s.add_argument("--db", required=True, help="the database file (made when missing)")
    s.add_argument("--label", help="the run's name in tables (default: the log's file name)")
    s.set_defaults(func=cmd_store)
    for name, helptext, func in (("table", "the stored runs side by side", cmd_table),
                                 ("plot", "one figure comparing the stored runs", cmd_plot)):
        t_ = sub.add_parser(name, help=helptext)
        t_.add_argument("--db", required=name == "table", help="the database file")
        t_.add_argument("--workload", help="only this workload")
        t_.add_argument("--method", help="only this method")
        t_.add_argument("--unit", default=TSC, help="tsc_ticks (default), core_cycles, instructions")
        t_.add_argument("--event", metavar="NAME",
                        help="a performance event of events= (e.g. L1D.REPLACEMENT): its net per window, or "
                             "with --figure per_copy code='s figure per copy in it")
        t_.add_argument("--figure", default="net",
                        choices=list(benchdb.FIGURES) + (list(benchdbanswer.FIGURES) + ["latency"] if name == "table"
                                                         else ["per_copy"]),
                        help="the summary figure (default net: min of mins - the method's offset)" +
                             ("; per_copy: code='s figure per copy; verdict: each method's verdict; latency: "
                              "sweep=latency's figures per load per size"
                              if name == "table" else ""))
        if name == "table":
            t_.add_argument("--csv", action="store_true", help="CSV on standard output")
            t_.add_argument("--by", choices=("machine",),
                            help="machine: the runs grouped under their machine (SMBIOS system, board, BIOS); "
                                 "with --figure per_copy one's own experiments, a row each, a column per machine")
            t_.add_argument("--experiment", metavar="NAME",
                            help="only the runs of this experiment of a plan run (its name in the plan)")
        else:
            t_.add_argument("-o", "--output", help="PNG file (default: the database's name "
                                                   "without .sqlite, plus -FIGURE.png)")
            t_.add_argument("--latency", metavar="LOG", help="the latency curve of a sweep=latency run's log "
                                                             "(default -o: LOG without .log, plus -latency.png)")
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
    pl = sub.add_parser("plan", help="a plan file (plan=) from an annotated assembly file")
    pl.add_argument("source", metavar="FILE.asm", help="';; experiment NAME [WORD...]', ';; init', ';; code', "
                                                      "';; defaults WORD...' annotations in nasm source")
    pl.add_argument("-o", "--output", help="the plan file to write (default: standard output)")
    pl.add_argument("--stick", metavar="MOUNTPOINT", help="write MOUNTPOINT/plan.txt on the stick's FAT partition")
    pl.add_argument("--force", action="store_true", help="with --stick: write even without a results/ folder there")
    pl.set_defaults(func=cmd_plan)
    e = sub.add_parser("events", help="the performance-event tables, or one CPU's events")
    e.add_argument("--cpu", help="FAMILY-MODEL[-STEPPING] in hex, as CPUID gives them (6-5E, 17-31)")
    e.add_argument("--vendor", choices=("intel", "amd", "hygon"),
                   help="default: amd for families 17H, 19H, 1AH, hygon for 18H, else intel")
    e.add_argument("--search", help="only events whose name holds WORD (any case)")
    e.set_defaults(func=cmd_events)
    v = sub.add_parser("serve", help="the lab's collector: stores POSTed logs, shows the runs on a page")
    v.add_argument("--port", type=int, default=benchserve.DEFAULT_PORT,
                   help=f"TCP port (default {benchserve.DEFAULT_PORT}, send='s default; 0: a free one)")
    v.add_argument("--bind", default=benchserve.DEFAULT_BIND,
                   help=f"the address to listen on (default {benchserve.DEFAULT_BIND}: all)")
    v.add_argument("--db", default="lab.sqlite", help="the lab database (default lab.sqlite; made when missing)")
    v.add_argument("--token", help="refuse POSTs without ?token=T or 'Authorization: Bearer T' (401)")
    v.add_argument("--max-bytes", type=int, default=benchserveapp.DEFAULT_MAX_BYTES,
                   help=f"the largest body stored, in bytes (default "
                        f"{benchserveapp.size_text(benchserveapp.DEFAULT_MAX_BYTES)}); over it: 413")
    v.set_defaults(func=cmd_serve)
    argv = sys.argv[1:] if argv is None else argv
    args = p.parse_args(argv)
    if args.command == "plot" or (args.command == "report" and not args.no_figures):
        with_matplotlib(argv)
    if args.command == "serve" and with_waitress(argv):
        return 1
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

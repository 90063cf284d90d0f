"""tools/benchevplot.py - `bench.py plot --event NAME`: one PNG of a
performance event's figures (events=, issue 30) from a lab's database
(tools/benchdbevents.py): a panel per method, a group of bars per workload
(the event's net, least minimum - the empty window's) or, with figure
per_copy, per code= workload (code='s figure per copy in the event), one
bar per run; the event is the unit on the axis; a figure whose pass's
check missed (verified false) is hatched and pale, labelled UNVERIFIED,
as the flagged bars of tools/benchdb.py plot are.
"""
import benchdb
import benchdbevents
import benchplot
from benchlog import events as ev


def plot(conn, path, name, figure="net", workload=None, method=None):
    """Write the PNG; returns (bars drawn, bars hatched as unverified).
    Raises benchplot.NoMatplotlib, benchdb.DbError when nothing matches."""
    runs, machines = benchdb.list_runs(conn)
    rows, bars = benchdbevents.event_bars(conn, name, figure, workload, method)
    if not rows:
        known = benchdbevents.event_names(conn)
        raise benchdb.DbError(f"nothing to plot: no {figure} of event {name} stored" +
                              (f", workload {workload}" if workload else "") +
                              (f", method {method}" if method else "") +
                              f" (events stored: {', '.join(known) if known else 'none'})")
    stored = benchdbevents.stored_name(conn, name)
    plt = benchplot.pyplot()
    methods = list(dict.fromkeys(r[0] for r in rows))
    per = max(sum(1 for r in rows if r[0] == m) for m in methods)
    width = 0.8 / len(runs)
    fig, axes = plt.subplots(len(methods), 1, squeeze=False,
                             figsize=(max(8.0, 1.0 + per * (0.5 + 0.25 * len(runs))), 1.0 + 3.2 * len(methods)))
    drawn_n, hatched = 0, 0
    unit = f"{stored} per copy" if figure == "per_copy" else stored
    for ax, m in zip(axes[:, 0], methods):
        mrows = [r for r in rows if r[0] == m]
        values = []
        for i, run in enumerate(runs):
            xs, hs, labels, verified = [], [], [], []
            for k, r in enumerate(mrows):
                x = k + (i - (len(runs) - 1) / 2) * width
                b = bars.get((r, run["id"]))
                if b is None or b[0] is None:
                    ax.text(x, 0, "not run" if b is None else b[1], rotation=90, ha="center", va="bottom",
                            fontsize=7, color="tab:gray")
                    continue
                xs.append(x)
                hs.append(b[0])
                labels.append(b[1] + ("" if b[2] else f" {ev.UNVERIFIED}"))
                verified.append(b[2])
            brand = machines[run["machine_id"]]["brand"] or "?"
            drawn = ax.bar(xs, hs, width, color=f"C{i % 10}", label=f"{benchdb.run_name(run)}: {brand}")
            for patch, ok in zip(drawn.patches, verified):
                if not ok:
                    patch.set_hatch("///")
                    patch.set_alpha(0.45)
                    hatched += 1
            ax.bar_label(drawn, labels=labels, fontsize=6, rotation=90, padding=2)
            values += hs
            drawn_n += len(hs)
        ax.set_xticks(range(len(mrows)))
        ax.set_xticklabels([benchdb.row_name(r) for r in mrows], rotation=15, ha="right")
        ax.set_ylabel(benchplot._scale(ax, values, f"{'per copy' if figure == 'per_copy' else 'net'} [{unit}]"))
        ax.set_title(f"method {m}")
        ax.axhline(0, color="black", lw=0.6)
        ax.margins(y=0.12)
    benchdb.finish_plot(plt, fig, path, runs, machines,
                        f"{'Figure per copy of code=' if figure == 'per_copy' else 'Net'} in event {stored}: "
                        f"{benchdb.runs_on(runs, machines)}",
                        "hatched bars: UNVERIFIED (the pass's check missed its expectation for the event)"
                        if hatched else None)
    return drawn_n, hatched

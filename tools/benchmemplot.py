"""tools/benchmemplot.py - the latency curve of sweep=latency (issue 31
item 5): `bench.py plot --latency LOG [-o FILE.png]`, and a figure of
`bench.py report` when the log has latency points.

One PNG (matplotlib, Agg, as tools/benchplot.py's figures): the area's
size on a log-2 x axis [bytes], the latency per load in each unit the log
has (TSC ticks, core cycles) on the y axis, a point per latency_point
record whose figure is a number (exact, or +- its bound as an error bar;
below resolution and wrapped points are left out and counted), the caches
CPUID lists as dashed vertical lines (latency_levels' cpuid_caches; one
line a size, naming every cache of it), and
each level found annotated at its edge ('L2: 15.000'). What was drawn is
written into the PNG's text chunks too (Software, and Description: the
axes' scales and labels, the lines and the annotations), so a test or a
lab script can read it back without looking at pixels.
"""
import decimal

import benchplot
from benchlog import memclock, unit_name

FIGURES = ("exact", "figure")


def curve(log, unit):
    """(sizes [bytes], figures per load, bounds) of the points of unit whose
    figure is a number, and how many were left out."""
    xs, ys, errs, left = [], [], [], 0
    for _, r in memclock.usable(log, "latency_point"):
        if r["unit"] != unit:
            continue
        if r["status"] not in FIGURES or r["per_copy"] is None:
            left += 1
            continue
        xs.append(r["bytes"])
        ys.append(float(decimal.Decimal(r["per_copy"])))
        errs.append(float(decimal.Decimal(r["bound"])) if r["status"] == "figure" and r["bound"] else 0.0)
    return xs, ys, errs, left


def plot(log, path):
    """Write the latency curve of log to path; returns a dict of what was
    drawn: units, points, left_out, caches (CPUID sizes marked), levels
    (annotations). Raises benchplot.NoMatplotlib; ValueError when the log
    has no latency point with a figure."""
    units = [u for u in ("tsc_ticks", "core_cycles") if curve(log, u)[0]]
    if not units:
        n = len(log.by_kind.get("latency_point", []))
        raise ValueError(f"no latency point with a figure in {log.path or 'the log'} ({n} latency_point records"
                         "; sweep=latency prints them)")
    plt = benchplot.pyplot()
    from matplotlib.ticker import FuncFormatter
    fig, axes = plt.subplots(len(units), 1, squeeze=False, figsize=(9.0, 1.2 + 3.8 * len(units)))
    drawn = {"units": units, "points": 0, "left_out": 0, "caches": [], "levels": []}
    desc = []
    for ax, u in zip(axes[:, 0], units):
        xs, ys, errs, left = curve(log, u)
        drawn["points"] += len(xs)
        drawn["left_out"] += left
        ax.errorbar(xs, ys, yerr=errs if any(errs) else None, marker="o", ms=3, lw=1, color="C0",
                    label="per load (2N-N)")
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: memclock.size_text(int(v)) if v >= 1 else ""))
        ax.set_xlabel("area size [bytes], log scale")
        ax.set_ylabel(f"latency per load [{unit_name(u)}]")
        lvrecs = [r for _, r in memclock.usable(log, "latency_levels") if r["unit"] == u]
        caches = [c for r in lvrecs[:1] for c in r["cpuid_caches"]]
        sizes = {}  # one line a size: L1 data and L1 instruction of 64 KiB share theirs
        for c in caches:
            sizes.setdefault(c["bytes"], []).append(f"L{c['level']} {c['type']}")
        for b, names in sizes.items():
            ax.axvline(b, color="tab:gray", ls="--", lw=0.8)
            ax.text(b, 0.98, f" {', '.join(names)} {memclock.size_text(b)} (CPUID)",
                    transform=ax.get_xaxis_transform(), rotation=90, va="top", ha="right", fontsize=7,
                    color="tab:gray")
            drawn["caches"].append(b)
        for r in lvrecs[:1]:
            for lv in r["levels"]:
                x = lv["edge_bytes"] or (xs[-1] if xs else None)
                if x is None:
                    continue
                y = float(decimal.Decimal(lv["per_load"]))
                label = f"{lv['name']}: {lv['per_load']}" + (f" ({lv['ns']} ns)" if lv["ns"] else "")
                ax.annotate(label, (x, y), textcoords="offset points", xytext=(-4, 8), ha="right", fontsize=8,
                            arrowprops={"arrowstyle": "-", "color": "C3", "lw": 0.6})
                ax.plot([x], [y], marker="s", color="C3", ms=5)
                drawn["levels"].append(label)
        ax.set_ylim(bottom=0)
        ax.grid(True, which="major", lw=0.3)
        ax.set_title(f"{unit_name(u)} per load" + (f" ({left} point{'s' if left != 1 else ''} without a figure left out)" if left else ""))
        desc.append(f"unit={u}; xscale={ax.get_xscale()}; xlabel={ax.get_xlabel()}; ylabel={ax.get_ylabel()}; "
                    f"points={len(xs)}; cpuid_lines={','.join(str(c['bytes']) for c in caches)}; "
                    f"levels={' | '.join(drawn['levels'])}")
    e = log.env or {}
    fig.suptitle(f"Memory latency (sweep=latency): {e.get('brand', '?')}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": "bench.py plot --latency", "Description": " || ".join(desc)})
    plt.close(fig)
    return drawn

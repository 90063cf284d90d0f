"""tools/benchplot.py - the paper's figures from a parsed log (tools/benchlog/).

Each function writes one PNG with matplotlib's Agg backend (no display
needed) and returns its path. Axes carry units; titles say which figure of
Paoloni's paper (2010) the plot mirrors:

  min_var       minimum and variance per ensemble: Figures 1-2 (CPUID method,
                3.1.2), 3-4 (RDTSCP, 3.2.2), 5-6 (CR0 alternative, 3.2.3)
  resolution    minimum versus loop size (the resolution test, 3.3:
                Figures 7-10)
  histogram     the distribution of one ensemble's raw samples (dump=N)
  cycles_vs_tsc core cycles beside TSC ticks, when the log has core-cycle
                records

matplotlib is imported on first use, so the rest of the tools work without it.
A Python without it is helped: other_python() finds one that has it (as the
Makefile uses Debian's /usr/bin/python3, whose python3-matplotlib a pyenv's or
a venv's python3 on PATH does not see), and tools/bench.py runs itself again
with that one; when there is none, how_to_get() says how to install it.
"""
import collections
import os
import re
import shutil
import subprocess
import sys

from benchlog import TSC, unit_name

# The paper's figure numbers (minimum, variance) for the offset of each method.
PAPER_FIGURES = {"cpuid": (1, 2), "rdtscp": (3, 4), "cr0": (5, 6)}
PAPER_SECTIONS = {"cpuid": "3.1.2", "rdtscp": "3.2.2", "cr0": "3.2.3"}
_plt = None


class NoMatplotlib(Exception):
    pass


# Where a Python with matplotlib is looked for, in order: the Makefile's
# PYTHON (Debian's own, which sees python3-matplotlib), then the python3 on
# PATH, then a locally built one.
CANDIDATES = ("/usr/bin/python3", "python3", "/usr/local/bin/python3")


def has_matplotlib():
    """Whether this Python can import matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def other_python(candidates=CANDIDATES, module="matplotlib"):
    """The path of the first of candidates (a path, or a name looked up on
    PATH) that imports module (matplotlib; bench.py serve asks for waitress;
    each tried with a 60 s timeout), or None."""
    for c in candidates:
        path = shutil.which(c)
        if not path:
            continue
        try:
            if subprocess.run([path, "-c", f"import {module}"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60).returncode == 0:
                return path
        except (OSError, subprocess.TimeoutExpired):
            continue
    return None


def how_to_get(reason=""):
    """What to do when no Python here has matplotlib, as one sentence."""
    return (f"matplotlib is not available to {sys.executable}{': ' + reason if reason else ''}, nor to "
            f"any of {', '.join(CANDIDATES)}: install it (Debian, Ubuntu: sudo apt-get install "
            f"python3-matplotlib, for /usr/bin/python3, which bench.py then finds by itself; "
            f"elsewhere: {sys.executable} -m pip install matplotlib)")


def pyplot():
    """matplotlib.pyplot on the Agg backend, or NoMatplotlib saying how to get it."""
    global _plt
    if _plt is None:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise NoMatplotlib(how_to_get(str(e)))
        plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "font.size": 9,
                             "axes.grid": True, "grid.alpha": 0.3})
        _plt = plt
    return _plt


def slug(*parts):
    return "-".join(re.sub(r"[^A-Za-z0-9_.-]+", "_", str(p)) for p in parts if p is not None)


def _save(fig, path):
    fig.savefig(path)
    pyplot().close(fig)
    return path


def _scale(ax, values, unit_label):
    """Linear axis, or symmetric-log when a few huge values would flatten
    the rest (interrupts or host preemption under TCG)."""
    pos = sorted(v for v in values if v is not None)
    if pos and pos[-1] > 100 * (pos[len(pos) // 2] + 1):
        ax.set_yscale("symlog", linthresh=1)
        return unit_label + ", log scale"
    return unit_label


def _int_ticks():
    from matplotlib.ticker import MaxNLocator
    return MaxNLocator(integer=True)


def _origin(s):
    h = s.header or {}
    seq = h.get("sequence")
    return f"{s.method} ({seq})" if seq else s.method


def min_var(s, outdir):
    """Minimum and variance per ensemble of series s (paper Figures 1-6)."""
    plt = pyplot()
    xs = [e["ensemble"] for e in s.ensembles]
    mins = [e["min"] for e in s.ensembles]
    variances = [e.get("variance") for e in s.ensembles]
    a, b = PAPER_FIGURES.get(s.method, (None, None))
    if a and s.workload in ("empty", None):
        mirror = (f"paper Figure {a}", f"paper Figure {b}")
    elif a:
        mirror = (f"as paper Figure {a}, workload {s.workload}",
                  f"as paper Figure {b}, workload {s.workload}")
    else:
        mirror = ("as paper Figures 1, 3, 5", "as paper Figures 2, 4, 6")
    u = s.unit
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    ms = 5 if len(xs) <= 100 else 2
    ax1.plot(xs, mins, marker=".", ms=ms, lw=0.8, color="tab:blue")
    ax1.set_title(f"Minimum value per ensemble ({mirror[0]})")
    ax1.set_xlabel("ensemble (the paper's loop_size)")
    ax1.xaxis.set_major_locator(_int_ticks())
    ax1.set_ylabel(f"minimum value [{unit_name(u)}]")
    lo, hi = min(mins), max(mins)
    ax1.set_ylim(0, hi + max(1, (hi - lo) * 0.2, hi * 0.1))
    ax2.plot([x for x, v in zip(xs, variances) if v is not None],
             [v for v in variances if v is not None], marker=".", ms=ms, lw=0.8, color="tab:red")
    ax2.set_title(f"Variance per ensemble ({mirror[1]})")
    ax2.set_xlabel("ensemble (the paper's loop_size)")
    ax2.xaxis.set_major_locator(_int_ticks())
    ax2.set_ylabel(_scale(ax2, variances, f"variance [{unit_name(u, 2)}]"))
    if max((v or 0) for v in variances) == 0:
        ax2.set_ylim(-0.05, 1)
    fig.suptitle(f"{s.name}: {_origin(s)}, {len(xs)} ensembles x {s.samples} samples")
    fig.tight_layout()
    return _save(fig, os.path.join(outdir, slug("minvar", s.method, s.workload, _unit_tag(s)) + ".png"))


def resolution(s, outdir, offset=None):
    """Minimum versus loop size (paper 3.3, Figures 7-10)."""
    plt = pyplot()
    xs = [e.get("param", e["ensemble"]) for e in s.ensembles]
    if not all(isinstance(x, int) for x in xs):
        xs = [e["ensemble"] for e in s.ensembles]
    mins = [e["min"] for e in s.ensembles]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.step(xs, mins, where="post", lw=1, color="tab:blue", label="minimum per loop size")
    ax.plot(xs, mins, ".", color="tab:blue")
    if offset is not None:
        ax.axhline(offset, color="tab:gray", ls="--", lw=0.8,
                   label=f"offset of {s.method} ({offset} {unit_name(s.unit)})")
    ax.set_xlabel("loop size j (iterations of measured_loop)")
    ax.xaxis.set_major_locator(_int_ticks())
    ax.set_ylabel(f"minimum value [{unit_name(s.unit)}]")
    ax.set_title(f"{s.name}: minimum value versus loop size "
                 f"(the resolution test, paper 3.3, Figures 7-10)")
    ax.legend(loc="upper left")
    fig.tight_layout()
    return _save(fig, os.path.join(outdir, slug("resolution", s.method, s.workload, _unit_tag(s)) + ".png"))


def histogram(d, s, outdir):
    """The distribution of one dumped ensemble's raw samples."""
    plt = pyplot()
    values = sorted(d.values)
    n = len(values)
    u = d.unit
    # Show the bulk: up to the 99th percentile or Tukey's far fence
    # (q3 + 3 IQR), whichever is higher; name what lies beyond.
    def rank(p):
        return values[max(0, min(n - 1, -(-n * p // 100) - 1))]
    q1, q3 = rank(25), rank(75)
    cut = max(rank(99), q3 + 3 * max(q3 - q1, 1))
    shown = [v for v in values if v <= cut]
    beyond = n - len(shown)
    lo, hi = shown[0], shown[-1]
    distinct = sorted(set(shown))
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if len(distinct) <= 60:
        tally = collections.Counter(shown)
        counts = [tally[v] for v in distinct]
        width = max(0.8, min((b - a) for a, b in zip(distinct, distinct[1:])) * 0.8) \
            if len(distinct) > 1 else 0.8
        ax.bar(distinct, counts, width=width, color="tab:blue")
    else:
        ax.hist(shown, bins=80, color="tab:blue")
    ax.set_yscale("log")
    ax.axvline(values[0], color="tab:green", ls="--", lw=0.8,
               label=f"minimum {values[0]} {unit_name(u)}")
    median = values[(n + 1) // 2 - 1]
    ax.axvline(median, color="tab:orange", ls="--", lw=0.8,
               label=f"median {median} {unit_name(u)}")
    ax.set_xlabel(f"sample [{unit_name(u)}]")
    ax.set_ylabel("number of samples (log scale)")
    title = f"{s.name}, ensemble {d.ensemble}: distribution of its {n} raw samples (dump={d.ensemble})"
    if beyond:
        title += (f"\n{beyond} sample{'s' if beyond > 1 else ''} above {hi} {unit_name(u)} "
                  f"(up to {values[-1]} {unit_name(u)}) not shown")
    ax.set_title(title)
    if lo == hi:
        ax.set_xlim(lo - 2, hi + 2)
    ax.legend(loc="upper right")
    fig.tight_layout()
    return _save(fig, os.path.join(outdir, slug("hist", s.method, s.workload, _unit_tag(s),
                                                f"e{d.ensemble}") + ".png"))


def cycles_vs_tsc(tsc, cyc, outdir):
    """Per-ensemble minimums in core cycles beside those in TSC ticks, and
    one against the other: the TSC's rate is not the core clock's when
    turbo or frequency scaling is on."""
    plt = pyplot()
    pairs = []
    for e in cyc.ensembles:
        t = tsc.ensemble(e["ensemble"])
        if t is not None:
            pairs.append((e["ensemble"], t["min"], e["min"]))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    xs = [p[0] for p in pairs]
    ax1.plot(xs, [p[1] for p in pairs], marker=".", lw=0.8, label=f"minimum [{unit_name(TSC)}]")
    ax1.plot(xs, [p[2] for p in pairs], marker=".", lw=0.8,
             label=f"minimum [{unit_name(cyc.unit)}]")
    ax1.set_xlabel("ensemble")
    ax1.set_ylabel(f"minimum value [{unit_name(TSC)} or {unit_name(cyc.unit)}]")
    ax1.set_title("Minimum per ensemble in both units")
    ax1.legend()
    ax2.plot([p[1] for p in pairs], [p[2] for p in pairs], "o", ms=3)
    if pairs:
        top = max(max(p[1] for p in pairs), max(p[2] for p in pairs))
        ax2.plot([0, top], [0, top], "--", color="tab:gray", lw=0.8, label="1 core cycle per TSC tick")
        ax2.legend()
    ax2.set_xlabel(f"minimum [{unit_name(TSC)}]")
    ax2.set_ylabel(f"minimum [{unit_name(cyc.unit)}]")
    ax2.set_title(f"{unit_name(cyc.unit)} versus {unit_name(TSC)}")
    fig.suptitle(f"{tsc.method}/{tsc.workload or '-'}: {unit_name(cyc.unit)}"
                 f"{' (' + str(cyc.counter) + ')' if cyc.counter else ''} vs TSC ticks "
                 "(not in the paper: its 'cycles' are TSC ticks)")
    fig.tight_layout()
    return _save(fig, os.path.join(outdir, slug("cycles-vs-tsc", tsc.method, tsc.workload,
                                                cyc.unit, cyc.counter) + ".png"))


def _unit_tag(s):
    return None if s.unit == TSC and not s.counter else slug(s.unit, s.counter)


def all_figures(log, outdir):
    """Every figure the log has data for; returns [(path, what)]. A log of
    per-CPU runs: the figures of the first CPU measured only (the report's
    tables hold every CPU's figures)."""
    os.makedirs(outdir, exist_ok=True)
    out = []
    first = log.cpu_order[0] if log.cpu_order else None
    for s in log.series.values():
        if not s.ensembles or s.cpu != first:
            continue
        # Counters read beside a TSC method (secondary series) are drawn
        # against the TSC below, not on their own.
        own_unit = (s.run_header or {}).get("unit") or TSC
        secondary = not s.primary and s.unit != own_unit
        if s.is_resolution() and not secondary:
            empty = log.series.get((s.method, "empty", s.unit, s.counter, s.cpu))
            off = min(e["min"] for e in empty.ensembles) if empty and empty.ensembles else None
            out.append((resolution(s, outdir, off), f"{s.name}: minimum vs loop size (Figures 7-10)"))
        if not secondary:
            a, b = PAPER_FIGURES.get(s.method, ("1, 3, 5", "2, 4, 6"))
            out.append((min_var(s, outdir), f"{s.name}: minimum and variance per ensemble "
                                            f"(as Figures {a} and {b})"))
        for d in s.dumps:
            if d.values:
                out.append((histogram(d, s, outdir), f"{s.name}: histogram of ensemble {d.ensemble}"))
        if s.unit == "core_cycles":
            tsc = log.companion(s, TSC)
            if tsc and tsc.ensembles:
                out.append((cycles_vs_tsc(tsc, s, outdir), f"{s.name}: versus TSC ticks"))
    return out

"""tools/benchlog/stats.py - the paper's statistics, exactly as the kernel
computes them: the Python twin of lib/stats.c.

G. Paoloni, "How to Benchmark Code Execution Times on Intel IA-32 and IA-64
Instruction Set Architectures" (Intel, 2010), appendix: var_calc (lines
73-97) and the summary of the ensembles (lines 139-175). lib/stats.c
computes in 320 bits (lib/wide.h), wide enough that no figure overflows;
here the sums are Python ints, so a figure recomputed here equals the
record's exactly. A figure is None only where it is missing (no values).
The checks (checks.py) recompute each summary record from its ensembles and
each dumped ensemble from its raw samples with these.
"""
import decimal

U64 = 1 << 64


def fmt_milli(milli):
    """Thousandths as the kernel prints them (lib/fmt fmt_milli): 25746 -> '25.746'."""
    return f"{milli // 1000}.{milli % 1000:03d}"


def var_calc(xs):
    """The paper's var_calc (appendix lines 73-97): (n*Σx² - (Σx)²) // n²,
    exact; None for no values."""
    n = len(xs)
    if n == 0:
        return None
    s = sum(xs)
    return (n * sum(x * x for x in xs) - s * s) // (n * n)


def paper64_overflows(xs):
    """Whether the paper's own 64-bit var_calc would overflow on xs (n*Σx²
    or (Σx)² at or above 2^64): where the kernel's paper-format line says
    so beside the true value (bench/report.h PAPER64_NOTE)."""
    s = sum(xs)
    return len(xs) * sum(x * x for x in xs) >= U64 or s * s >= U64


def mean_milli(xs):
    """The mean in thousandths, floored (lib/stats.c acc_mean_milli), or None."""
    if not xs:
        return None
    return sum(xs) * 1000 // len(xs)


def ensemble_stats(xs):
    """What the kernel's ensemble record holds for samples xs: min, max,
    max_dev, variance and mean (a Decimal)."""
    var, mm = var_calc(xs), mean_milli(xs)
    bad = var is None or mm is None
    return {"samples": len(xs), "min": min(xs), "max": max(xs), "max_dev": max(xs) - min(xs),
            "variance": None if bad else var,
            "mean": None if bad else decimal.Decimal(fmt_milli(mm))}


def summary_stats(ensembles):
    """The paper's summary (appendix lines 139-175) of ensemble records, in
    ensemble order, as lib/stats.c summary_add/summary_finish compute it.
    Figures are None only where missing (no ensemble with samples)."""
    mins, variances, spurious, max_dev_all, errors, prev = [], [], 0, 0, 0, None
    for e in ensembles:
        if not e.get("samples", 1):
            errors += 1
            continue
        if prev is not None and prev > e["min"]:
            spurious += 1
        prev = e["min"]
        max_dev_all = max(max_dev_all, e["max_dev"])
        mins.append(e["min"])
        if e.get("error") is not None or e.get("variance") is None:
            errors += 1
        else:
            variances.append(e["variance"])
    total = sum(variances) // len(variances) if variances else None
    return {"ensembles": len(mins), "spurious": spurious,
            "min_of_mins": min(mins) if mins else None,
            "max_of_mins": max(mins) if mins else None,
            "max_dev_all": max_dev_all, "total_variance": total,
            "var_of_vars": var_calc(variances), "var_of_mins": var_calc(mins),
            "errors": errors}

"""tests/boot/t_nooverflow.py - figures that never overflow (issue 22, Found
3): every figure of a run prints as a number, exact (lib/wide.h: 320-bit
sums), and equal to Python's integers on the ensembles' records; where the
paper's own 64-bit code would have overflowed, the paper-format line says
so beside the true value; a verdict is ergodic or NOT ergodic, never
UNKNOWN, as soon as its figures exist.

Two runs: under TCG at a size where the image of 09f761c printed
"variance of variances = ERROR (overflow)" and "verdict cr0: UNKNOWN" (the
host's noise: variances of TSC ticks^4 beyond 64 bits, sums of their
squares beyond 128), and under -icount with a code= body whose length is
the TSC's low 21 bits (RDTSC; AND EAX, 0x1FFFFF; MOV ECX, EAX; INC ECX;
LOOP $): exact and the same every run, its variance of variances beyond
64 bits (09f761c: ERROR (overflow))."""
import re

from qemu import PAPER64_NOTE, check, expect_complete, qemu, var_calc

VERDICT = re.compile(r"^verdict (\w+): (ergodic|NOT ergodic|UNKNOWN): ")
FIGURE_LINE = re.compile(r"^(total variance|variance of variances|variance of minimum values) = (.*)$")
# RDTSC; AND EAX, 0x1FFFFF; MOV ECX, EAX; INC ECX; LOOP $ (1 to 2^21 iterations: with
# 2^20 one method's variance of variances came out at 2.6e18, below 2^64)
TSC_LOOP = "0f3125ffff1f0089c1ffc1e2fe"


def paper64(xs):
    """Whether the paper's 64-bit var_calc overflows on xs (lib/stats.h)."""
    return len(xs) * sum(x * x for x in xs) >= 1 << 64 or sum(xs) ** 2 >= 1 << 64


def expect_exact_figures(run):
    """No "overflow" anywhere; every summary figure an int equal to Python's
    on the ensemble records; the paper's summary lines (primary series, in
    order) give the same figures, with PAPER64_NOTE exactly where the
    paper's own 64-bit code would have overflowed; every verdict known.
    Returns the primary summary records."""
    text = run.text
    check("overflow" not in text.lower(), "the run printed 'overflow'",
          "\n".join(l for l in run.lines if "overflow" in l.lower()))
    primary = []
    for s in run.by("summary"):
        ens = run.by("ensemble", method=s["method"], workload=s["workload"], unit=s["unit"])
        check(len(ens) == s["ensembles"] and all(isinstance(e["variance"], int) for e in ens),
              f"{s['method']}/{s['workload']}: ensemble records without an exact variance", text)
        vv, mins = [e["variance"] for e in ens], [e["min"] for e in ens]
        want = {"total_variance": sum(vv) // len(vv), "var_of_vars": var_calc(vv), "var_of_mins": var_calc(mins)}
        for k, v in want.items():
            check(s[k] == v, f"{s['method']}/{s['workload']}/{s['unit']}: {k} {s[k]}, Python's {v}", text)
        if s["primary"]:
            primary.append((s, [sum(vv) >= 1 << 64, paper64(vv), paper64(mins)]))
    lines = [FIGURE_LINE.match(l) for l in run.lines if FIGURE_LINE.match(l)]
    check(len(lines) == 3 * len(primary), f"{len(lines)} paper summary figure lines for {len(primary)} series",
          text)
    for i, (s, notes) in enumerate(primary):
        for m, key, note in zip(lines[3 * i:3 * i + 3], ("total_variance", "var_of_vars", "var_of_mins"), notes):
            want = f"{s[key]}{PAPER64_NOTE if note else ''}"
            check(m.group(2) == want, f"{s['method']}/{s['workload']}: '{m.group(1)} = {m.group(2)}', "
                  f"expected '{want}'", text)
    verdicts = [VERDICT.match(l) for l in run.lines if l.startswith("verdict ")]
    check(verdicts and all(verdicts), "malformed or no verdict lines", text)
    for m in verdicts:
        v = run.one("verdict", method=m.group(1))
        check(m.group(2) != "UNKNOWN" and v["valid"] is True,
              f"{m.group(1)}: verdict {m.group(2)} (record {v}): its figures exist", text)
        check((m.group(2) == "ergodic") == v["ergodic"], f"{m.group(1)}: the line and the record differ", text)
    return [s for s, _ in primary]


def test_nooverflow_tcg_figures_and_verdicts():
    """Plain TCG, 20 ensembles of 1000 samples: 09f761c printed "ERROR
    (overflow)" for most variances of variances and UNKNOWN for a verdict;
    now every figure is a number and every verdict ergodic or NOT ergodic."""
    rc, text = qemu("nooverflow-tcg", "q35-tcg", "ensembles=20 samples=1000")
    expect_exact_figures(expect_complete(rc, text))


def test_nooverflow_icount_beyond_64_bits():
    """-icount, code= of a loop 1 to 2^21 iterations long chosen by the TSC:
    the code workload's variance of variances is beyond 64 bits (09f761c:
    ERROR (overflow)), exact, with the paper's 64-bit note."""
    rc, text = qemu("nooverflow-icount", "icount",
                    f"ensembles=4 samples=20 warmup=2 workloads=add_chain_64 code={TSC_LOOP}")
    run = expect_complete(rc, text)
    primary = expect_exact_figures(run)
    code = [s for s in primary if s["workload"] == "code"]
    check(code and all(s["var_of_vars"] >= 1 << 64 for s in code),
          f"the code workload's variances of variances: {[s['var_of_vars'] for s in code]}, "
          "expected beyond 64 bits", text)
    for s in primary:
        v = run.one("verdict", method=s["method"]) if s["workload"] == "empty" else None
        check(v is None or v["ergodic"] is True, f"{s['method']}: not ergodic under icount: {v}", text)

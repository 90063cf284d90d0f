"""tests/tools/t_overview.py - `bench.py compare` opens with an overview
within 100 columns (issue 22, "Tools that know the kernel"), after the
runs' answers (issue 29: tests/tools/t_answerdb.py): one line per series
both runs have, with the two least minimums (from the summary records, read
here with plain json), their ratio B/A and 'B vs A' (not the paper's
verdict); every line of the output, the details too, within 100 columns;
the rule of 'B vs A' itself (tools/benchcompare.py b_vs_a).
"""
import os
import re
import sys

from common import ROOT, bench, boot, check, records

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchcompare  # noqa: E402

WIDTH = 100


def test_compare_opens_with_an_overview():
    a, b = boot("tcg"), boot("qemu64")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"exit status {rc}", out)
    lines = out.split("\n")
    wide = [f"line {i}: {len(l)} columns" for i, l in enumerate(lines, 1) if len(l) > WIDTH]
    check(not wide, f"lines wider than {WIDTH} columns: {wide[:5]}", out)
    check(lines[3].startswith("Answer:"), "the output does not open with the runs' answers", out)
    details = lines.index("Details")
    check(any(l.startswith("Overview:") for l in lines[:details]), "no overview before the details", out)
    head = next((i for i, l in enumerate(lines) if re.match(r"  series +A +B +B/A +B vs A$", l)),
                len(lines))
    check(head < details, "no overview table (series, A, B, B/A, B vs A) before the details", out)
    rows = {}
    for l in lines[head + 1:details]:
        m = re.match(r"  (\S+) +(\d+|n/a) +(\d+|n/a) +(\S+(?: \(both 0\)| \(A is 0\))?) +(.+)$", l)
        if m:
            rows[m.group(1)] = m.groups()[1:]
    sa = {(s["method"], s["workload"]): s for s in records(a, "summary") if s["unit"] == "tsc_ticks"}
    sb = {(s["method"], s["workload"]): s for s in records(b, "summary") if s["unit"] == "tsc_ticks"}
    both = [k for k in sa if k in sb]
    check(len(both) > 3 and len(rows) == len(both),
          f"{len(rows)} overview rows for {len(both)} series in both runs", out)
    for m, w in both:
        x, y = sa[(m, w)]["min_of_mins"], sb[(m, w)]["min_of_mins"]
        got = rows.get(f"{m}/{w}")
        check(got is not None and got[0] == str(x) and got[1] == str(y),
              f"{m}/{w}: overview row {got}, expected least minimums {x} and {y}", out)
        want = f"{y / x:.3g}" if x else ("- (both 0)" if y == 0 else "inf (A is 0)")
        check(got[2] == want, f"{m}/{w}: ratio {got[2]}, expected {want}", out)
        check(got[3] == benchcompare.b_vs_a(sa[(m, w)], sb[(m, w)]),
              f"{m}/{w}: B vs A {got[3]!r}", out)
    check(re.search(r"\nEnvironment: .*cpu brand.* differ", out),
          "the overview does not name the environment facts that differ", out)
    check(re.search(r"\n  \d+ series only in A, \d+ only in B", out),
          "the overview does not count the series only one run has", out)


def test_compare_b_vs_a_rule():
    v = benchcompare.b_vs_a
    check(v({"min_of_mins": 5}, {"min_of_mins": 5}) == "same", "equal minimums are not 'same'")
    # spread: isqrt(9) + isqrt(4) = 5 TSC ticks
    check(v({"min_of_mins": 100, "var_of_mins": 9}, {"min_of_mins": 105, "var_of_mins": 4})
          == "same within spread (5)", "a difference within the spread")
    check(v({"min_of_mins": 100, "var_of_mins": 9}, {"min_of_mins": 106, "var_of_mins": 4}) == "B higher",
          "a difference beyond the spread, B higher")
    check(v({"min_of_mins": 100}, {"min_of_mins": 99}) == "B lower", "B lower without spreads")
    check(v({"min_of_mins": None}, {"min_of_mins": 5}) == "n/a" and v({}, {"min_of_mins": 5}) == "n/a",
          "a missing least minimum is not 'n/a'")

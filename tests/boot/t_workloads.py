"""tests/boot/t_workloads.py - the paper's procedure on real code (issue:
workload registry, overhead subtraction, resolution test, robust statistics,
verdict): calibrated workloads are exact under -icount, the resolution test's
minimums rise strictly, every method is ergodic under -icount, and a user's
workload file is picked up with no other edit."""
import os
import re

import builds
from qemu import ICOUNT_NET, METHODS, check, expect_complete, expect_method_ran, expect_workload_ran, qemu

VERDICT = re.compile(r"^verdict (\w+): (ergodic|NOT ergodic): variance of variances (\d+) TSC ticks\^4 "
                     r"\((<=|>) (\d+)\), variance of minimum values (\d+) TSC ticks\^2 \((<=|>) (\d+)\); "
                     r"offset (\d+) TSC ticks \(paper section 4, steps 1-2\)$")
RECOMMEND = re.compile(r"^recommendation: (use method (\w+) \(.+\): .+|none: .+)$")


def test_icount_calibrated_workloads_exact():
    """Each calibrated workload's net result is its instruction count."""
    rc, text = qemu("icount-workloads", "icount", "ensembles=6 samples=100")
    run = expect_complete(rc, text)
    for m in METHODS:
        expect_method_ran(run, m, 6, 100)
        v = run.one("verdict", method=m)
        check(v["ergodic"] is True, f"{m}: not ergodic under icount: {v}", text)
        for w, net in ICOUNT_NET.items():
            ens, s = expect_workload_ran(run, m, w, 6, 100)
            check(s["net_min"] == net, f"{m}/{w}: net {s['net_min']} TSC ticks, expected {net}", text)
            check(s["net_median"] == net, f"{m}/{w}: net median {s['net_median']}, expected {net}", text)
            check(all(e["variance"] == 0 for e in ens), f"{m}/{w}: variance under icount", text)
            check(run.has_line(f"result {m}/{w}: {net} TSC ticks net"), f"no result line for {m}/{w}", text)
    rec = run.one("recommendation")
    check(rec["method"] == "rdtscp", f"recommendation {rec}", text)


def test_icount_resolution():
    """Paper 3.3 under -icount: minimums rise strictly with the loop size."""
    rc, text = qemu("icount-resolution", "icount", "ensembles=40 samples=50 resolution=on workloads=measured_function")
    run = expect_complete(rc, text)
    for m in METHODS:
        ens, s = expect_workload_ran(run, m, "measured_loop", 40, 50)
        mins = [e["min"] for e in ens]
        check(all(b > a for a, b in zip(mins, mins[1:])), f"{m}: minimums not strictly rising: {mins}", text)
        check([e["param"] for e in ens] == list(range(40)), f"{m}: loop sizes are not 0..39", text)
        # Loop size 1 adds the loop's set-up as well; after that every
        # iteration adds the same instructions.
        step = mins[2] - mins[1]
        check(all(b - a == step for a, b in zip(mins[1:], mins[2:])), f"{m}: uneven steps {mins}", text)
        r = run.one("resolution", method=m)
        check(r["spurious"] == 0 and r["strictly_increasing"] is True and r["resolution_iterations"] == 1
              and r["step"] == step and r["unit"] == "tsc_ticks" and r["flat_until"] == 0 and r["changes"] == 39,
              f"{m}: resolution record {r}", text)
        check(run.has_line(f"resolution {m}: minimum flat for loop sizes 0..0"), f"no resolution line for {m}", text)


def test_tcg_verdict_and_recommendation_lines():
    """Plain TCG: whatever the figures, the verdicts and the recommendation are well formed."""
    rc, text = qemu("tcg-verdict", "q35-tcg", "ensembles=10 samples=500 workloads=add_chain_64")
    run = expect_complete(rc, text)
    seen = set()
    for line in run.lines:
        if line.startswith("verdict ") and " UNKNOWN: " in line:
            # a figure overflowed (a host that preempted QEMU for long):
            # the record says so and no verdict is drawn
            m = line.split()[1].rstrip(":")
            v = run.one("verdict", method=m)
            check(v["valid"] is False and v["ergodic"] is False, f"{m}: UNKNOWN line, record {v}", text)
            seen.add(m)
        elif line.startswith("verdict "):
            mt = VERDICT.match(line)
            check(mt, f"malformed verdict line {line!r}", text)
            m = mt.group(1)
            v = run.one("verdict", method=m)
            check((mt.group(2) == "ergodic") == v["ergodic"] and int(mt.group(3)) == v["var_of_vars"]
                  and int(mt.group(6)) == v["var_of_mins"], f"verdict line and record differ for {m}", text)
            check(v["valid"] is True and v["ergodic"] == (v["var_of_vars"] <= 10 and v["var_of_mins"] <= 1),
                  f"{m}: verdict disagrees with the thresholds: {v}", text)
            seen.add(m)
    check(seen == set(METHODS), f"verdict lines for {sorted(seen)}", text)
    recs = [l for l in run.lines if l.startswith("recommendation:")]
    check(len(recs) == 1 and RECOMMEND.match(recs[0]), f"recommendation line {recs}", text)
    rec = run.one("recommendation")
    ergodic = {m for m in METHODS if run.one("verdict", method=m)["ergodic"]}
    want = next((m for m in ("rdtscp", "cr0", "cpuid") if m in ergodic), None)
    check(rec["method"] == want, f"recommended {rec['method']}, expected {want} (ergodic: {ergodic})", text)


def test_thresholds_from_command_line():
    """verdict.* thresholds change the verdict: nothing is ergodic below 0."""
    rc, text = qemu("tcg-thresholds", "q35-tcg", "ensembles=6 samples=300 workloads=add_chain_64 "
                    "verdict.var_of_vars=1000000000000 verdict.var_of_mins=1000000")
    run = expect_complete(rc, text)
    for m in METHODS:
        check(run.one("verdict", method=m)["max_var_of_vars"] == 1000000000000, "threshold not applied", text)


def test_user_workload_file():
    """A workload file added with no other edit is registered and measured."""
    build = builds.variant("user-workload", "tests/boot/wl_user_test.c")
    rc, text = qemu("user-workload", "icount", "ensembles=4 samples=50 workloads=user_ten_nops",
                    image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    for m in METHODS:
        _, s = expect_workload_ran(run, m, "user_ten_nops", 4, 50)
        check(s["net_min"] == 10, f"{m}: user workload net {s['net_min']}, expected 10", text)

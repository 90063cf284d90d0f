"""tests/boot/t_lean.py - the lean serial log (issue 13, section 3): by
default the kernel prints each ensemble as a compact record,
{"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,NMIS,SMIS]} (docs/RECORDS.md
"Machine-readable output"), and output=full the full record. Under -icount the same run
measures the same samples whatever it prints, so every figure of a compact
record must equal the full record's, and tools/benchlog/ must read both
logs to the same series. The config section estimates the serial bytes and
their time at the console's baud rate."""
import os
import re
import sys

from qemu import ROOT, check, expect_complete, expect_workload_ran, qemu
from runner import once

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402

# "varied" (tools/bench.py asm): each sample loops (a count kept in the
# scratch area at R14) mod 8 times, so that even under -icount an
# ensemble's minimum, median and maximum differ and its variance is not 0:
# a figure in the wrong position of the compact record cannot pass.
#   mov rcx, [r14]; inc qword [r14]; and ecx, 7; jz .done; .l: dec ecx; jnz .l; .done:
VARIED = "code=498b0e49ff0683e1077404ffc975fc code.name=varied"
# Intel's vendor: the LFENCE methods run and SMIs are counted (MSR_SMI_COUNT),
# so the records carry SMIS; resolution=on: param is the ensemble number.
LEAN = f"ensembles=6 samples=203 methods=cpuid,rdtscp,lfence workloads=add_chain_64 resolution=on {VARIED}"
COMPACT_MAX_BYTES = 160  # the bound; the kernel's is 157 whatever the figures


def lean_run(level, extra):
    return expect_complete(*qemu(f"lean-{level}", "icount-intel", LEAN + extra))


def boot_both():
    """The same run at the default output and at output=full, under -icount
    (booted once for the tests of this module: runner.once)."""
    return (once("lean-default", lambda: lean_run("default", "")),
            once("lean-full", lambda: lean_run("full", " output=full")))


def test_compact_records_equal_full_icount():
    lean, full = boot_both()
    text = lean.text
    compact = [l for l in lean.lines if l.startswith('{"e":[')]
    check(compact and not any(l.startswith('{"rec":"ensemble"') for l in lean.lines),
          "the default output does not print compact ensemble records only", text)
    check(lean.compact == len(compact) and full.compact == 0,
          f"{lean.compact} compact records read of {len(compact)}; {full.compact} in the output=full log", text)
    longest = max(compact, key=len)
    check(len(longest) + 1 <= COMPACT_MAX_BYTES, f"a compact record of {len(longest) + 1} bytes: {longest}", text)
    le, fe = lean.by("ensemble"), full.by("ensemble")
    check(len(le) == len(fe) == len(compact), f"{len(le)} compact and {len(fe)} full ensemble records", text)
    for a, b in zip(le, fe):
        where = f"{b['method']}/{b['workload']} ensemble {b['ensemble']} ({b['unit']})"
        bad = {k: (v, b.get(k)) for k, v in a.items() if b.get(k, "absent") != v}
        check(not bad, f"{where}: compact figures differ from the full record's (compact, full): {bad}", text)
    check(any(e["min"] < e["median"] < e["max"] and e["variance"] > 0 for e in le),
          "no ensemble with min < median < max and a variance: the comparison proves little", text)
    check(all(e["smis"] is not None for e in le), "SMIs not in every compact record (vendor=GenuineIntel)", text)
    check(lean.paper == full.paper and lean.paper, "the paper-format lines differ between the two levels", text)
    # Every check of the harness on the compact log, as on the full one
    # (its paper-format lines are keyed by workload names of word
    # characters: not code.2n's).
    for run in (lean, full):
        for m in ("cpuid", "rdtscp", "lfence"):
            for w in ("empty", "measured_loop", "add_chain_64"):
                expect_workload_ran(run, m, w, 6, 203)
    # The summaries: the same figures, but for the time the ensembles took,
    # printing included (inside the timed loop).
    for a, b in zip(lean.by("summary"), full.by("summary")):
        a, b = dict(a), dict(b)
        check(a.pop("elapsed_ticks") < b.pop("elapsed_ticks"),
              "printing compact records took no less time than full ones", text)
        check(a == b, f"summaries differ: {a} != {b}", text)


def test_host_parser_reads_both_to_the_same_series():
    lean, full = boot_both()
    a, b = benchlog.parse(lean.text), benchlog.parse(full.text)
    check(a.valid and b.valid, f"problems: default {a.problems[:3]}, full {b.problems[:3]}", lean.text)
    check(a.compact == lean.compact and b.compact == 0, f"benchlog read {a.compact} compact records", lean.text)
    check(list(a.series) == list(b.series) and len(a.series) == 15, f"series {list(a.series)} vs {list(b.series)}")
    for key, sa in a.series.items():
        sb = b.series[key]
        check(len(sa.ensembles) == len(sb.ensembles) == 6, f"{sa.name}: ensembles {len(sa.ensembles)}, "
              f"{len(sb.ensembles)}")
        for ea, eb in zip(sa.ensembles, sb.ensembles):
            check(set(ea) == set(benchlog.COMPACT_KEYS), f"{sa.name}: keys {sorted(ea)}")
            check(ea == {k: eb[k] for k in benchlog.COMPACT_KEYS}, f"{sa.name}: {ea} != {eb}")
        check(sa.header == sb.header and [t for _, t in sa.paper] == [t for _, t in sb.paper],
              f"{sa.name}: method record or paper-format lines differ")
        fa, fb = sa.figures()[0], sb.figures()[0]
        check({k: v for k, v in fa.items() if k != "elapsed_ticks"} ==
              {k: v for k, v in fb.items() if k != "elapsed_ticks"}, f"{sa.name}: summaries {fa} != {fb}")


def test_serial_estimate_line_and_record():
    """The config section's estimate: its line and record, the time at the
    console= baud rate (8N1: 10 bits a byte), and within 25 % of the bytes
    the run printed (-icount: a deterministic log; the estimate assumes
    the figures of a noisy run)."""
    for name, args, level in (("lean-estimate", "", "compact"), ("lean-estimate-full", " output=full", "full")):
        rc, text = qemu(name, "icount", "ensembles=20 samples=100 console=ttyS0,57600" + args)
        run = expect_complete(rc, text)
        est = run.one("serial_estimate")
        printed = len(text.encode())
        check(est["baud"] == 57600 and est["ms"] == est["bytes"] * 10000 // 57600,
              f"the record's time is not its bytes at 57600 baud: {est}", text)
        check(est["compact"] == (level == "compact") and est["paper_lines"] == 420
              and est["ensemble_records"] == 420 and est["series"] == 21 and est["methods_run"] == 3,
              f"{level}: the counts of 3 methods x 7 workloads x 20 ensembles: {est}", text)
        check(abs(est["bytes"] - printed) <= printed // 4,
              f"{level}: estimated {est['bytes']} bytes, the run printed {printed}", text)
        line = next((l for l in run.lines if l.startswith("serial: ")), "")
        want = (rf"serial: this run prints about {(est['bytes'] + 500) // 1000} KB \({est['bytes']} bytes\), "
                rf"about {est['ms'] // 1000}\.{est['ms'] % 1000 // 100} s at 57600 baud \(8N1: 10 bits a byte\); "
                rf"an estimate: .* 420 paper-format lines, 420 {level} ensemble records ")
        check(re.match(want, line), f"the config section's estimate line: {line!r}", text)
    rc, text = qemu("lean-estimate-human", "q35-tcg", "ensembles=2 samples=10 methods=cr0 output=human")
    run = expect_complete(rc, text)
    check(not run.by("serial_estimate") and run.has_line("serial: this run prints ") and
          re.search(r"14 paper-format lines, no ensemble records ",
                    next(l for l in run.lines if l.startswith("serial: "))),
          "output=human: the estimate line (no record) does not count 14 paper-format lines and no records", text)


def test_output_summary_same_summaries_no_ensemble_lines_icount():
    """output=summary (the level for long runs: printing a small part of
    the measuring time): the same run as the default's, with no
    paper-format line and no ensemble record, and every summary, method,
    verdict and resolution record equal to the default run's (but the
    elapsed TSC ticks, which printing changes); tools/benchlog/ reads it
    as valid, and the estimate counts no per-ensemble line."""
    lean, _ = boot_both()
    rc, text = qemu("lean-summary", "icount-intel", LEAN + " output=summary")
    summ = expect_complete(rc, text)
    per_ens = [l for l in summ.lines if l.startswith(("loop_size:", '{"e":[', '{"rec":"ensemble"'))]
    check(not per_ens, f"output=summary printed {len(per_ens)} per-ensemble lines, the first {per_ens[:1]}", text)
    for kind in ("summary", "method", "verdict", "resolution", "recommendation"):
        a, b = lean.by(kind), summ.by(kind)
        a = [{k: v for k, v in r.items() if k != "elapsed_ticks"} for r in a]
        b = [{k: v for k, v in r.items() if k != "elapsed_ticks"} for r in b]
        check(a and a == b, f"{kind} records differ from the default run's: {len(a)} and {len(b)}; "
              f"first difference {next(((x, y) for x, y in zip(a, b) if x != y), None)}", text)
    check(len(summ.by("summary")) == 15, f"{len(summ.by('summary'))} summary records, not 15", text)
    log = benchlog.parse(text)
    check(log.valid and benchlog.summary_only(log), f"benchlog: valid {log.valid}, {log.problems[:3]}", text)
    check(all(s.summary and not s.ensembles for s in log.series.values()) and len(log.series) == 15,
          "benchlog's series are not 15 summaries without ensembles", text)
    est = summ.one("serial_estimate")
    check(est["paper_lines"] == 0 and est["ensemble_records"] == 0 and est["series"] == 15,
          f"the estimate counts per-ensemble lines at output=summary: {est}", text)
    check(abs(est["bytes"] - len(text.encode())) <= len(text.encode()) // 4,
          f"estimated {est['bytes']} bytes, the run printed {len(text.encode())}", text)
    check(summ.has_line("serial: this run prints ") and
          "no per-ensemble lines or records (output=summary)" in
          next(l for l in summ.lines if l.startswith("serial: ")), "the estimate line does not say so", text)

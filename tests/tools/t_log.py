"""tests/tools/t_log.py - how a log is read (tools/benchlog), through `bench.py
report`: damaged logs (cut short, no final line, empty, a corrupted record,
an ensemble lost, a summary that disagrees), noise (escape sequences, lone
CRs, garbage lines, noise before a record), each dumped ensemble recomputed
with the paper's formulas and an altered sample found, unknown kinds and
keys ignored, counters beside the TSC, a method in its own unit; and the
formulas of tools/benchlog/stats.py themselves.
"""
import json
import os
import random
import re
import sys

from common import (ROOT, bench, boot, check, check_pngs, lines_of, records, table_rows, workdir,
                    write)


# --- damaged logs ------------------------------------------------------------------

def test_cut_log():
    lines = lines_of(boot("tcg"))
    keep = len(lines) // 2
    d = workdir("cut_log")
    log = write(d, "cut.log", "\n".join(lines[:keep]) + "\n")
    rc, out = bench("report", log, "-o", os.path.join(d, "fig"))
    check(rc == 1, f"exit status {rc}, expected 1 (invalid)", out)
    check(re.search(rf"line {keep}: the log is cut short: it stops here", out),
          f"no message naming line {keep}, where the log stops", out)
    check("no 'END bench-records' line" in out and "no final 'bench: run ...' line" in out,
          "the message does not say what is missing", out)
    check(table_rows(out), "what could be read is not reported", out)
    check("report: the log is NOT valid" in out, "no final 'NOT valid' line", out)


def test_no_final_line():
    lines = lines_of(boot("qemu64"))
    final = max(i for i, l in enumerate(lines) if l.startswith("bench: run complete"))
    d = workdir("no_final_line")
    log = write(d, "nofinal.log", "\n".join(lines[:final]) + "\n")
    rc, out = bench("report", log, "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(f"line {final}: no final 'bench: run complete' line" in out,
          f"no message about the missing final line naming line {final}", out)


def test_noisy_log_is_valid():
    """Garbage lines, escape sequences, CR LF / lone CR, NULs: still valid,
    and the same statistics as the clean log."""
    clean = boot("tcg")
    rng = random.Random(7)
    junk_chars = "abcdefXYZ0123456789 !#$%&()*+-./:;<=>?@[]^_|~\t\x00\x07\x1b"
    out_lines = ["\x1b[2J\x1b[H\x1b[?25l\x1b[0;30;47m GNU GRUB  version 2.06 \x1b[0m\r",
                 "\x1b(B\x1b)0\x1b[1;1H\x1b[7m*bench: quick run          \x1b[0m\r",
                 "\x1b[24;1HThe highlighted entry will be executed automatically in 3s.\r\r"]
    for i, line in enumerate(lines_of(clean)):
        if i % 37 == 5:
            junk = "".join(rng.choice(junk_chars) for _ in range(rng.randint(1, 60)))
            out_lines.append(junk.replace("{", "(") + "\r")
        if i % 11 == 3 and line.startswith("{"):
            line = "\x1b[0m" + line.rstrip("\r") + "\x1b[K\r"   # escape codes around a record
        elif i % 13 == 4:
            line = "\x1b[1;32m" + line.rstrip("\r") + "\x1b[0m"  # colour, LF only
        elif i % 17 == 6:
            line = "\x00\x00" + line
        out_lines.append(line)
    d = workdir("noisy_log")
    noisy = write(d, "noisy.log", "\n".join(out_lines))
    rc, out = bench("report", noisy, "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0: noise must be tolerated", out)
    rc2, out2 = bench("report", clean, "--no-figures")
    check(table_rows(out) == table_rows(out2) and table_rows(out),
          "the noisy log's statistics differ from the clean log's", out)


def test_noise_before_a_record_on_its_line():
    lines = lines_of(boot("qemu64"))
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"'))
    lines[i] = "~#\x1b[0m" + lines[i]
    d = workdir("noise_before_record")
    rc, out = bench("report", write(d, "x.log", "\n".join(lines)), "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0 (the record is intact)", out)
    check(f"line {i + 1}: 2 characters of noise before a record" in out, "no note about the noise", out)


def test_empty_file():
    d = workdir("empty_file")
    log = write(d, "empty.log", b"")
    rc, out = bench("report", log)
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check("the file is empty (0 bytes)" in out, "no clear message about the empty file", out)
    rc, out = bench("report", write(d, "blank.log", "\r\n\n  \n"), "--no-figures")
    check(rc == 1 and "the log is empty" in out, "blank file: no clear message", out)
    rc, out = bench("report", write(d, "other.log", "Linux version 6.1\nlogin: \n"), "--no-figures")
    check(rc == 1 and "no 'BEGIN bench-records v1' line" in out, "not a bench log: no clear message", out)
    rc, out = bench("report", os.path.join(d, "missing.log"))
    check(rc == 1 and "no such file" in out, "missing file: no clear message", out)


def test_corrupted_record():
    lines = lines_of(boot("tcg"))
    idx = [k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"')]
    i = idx[len(idx) // 3]
    cut = lines[i].index('"max"')
    lines[i] = lines[i][:cut] + lines[i][cut + 3:]   # '"max"' -> '"m"' then broken
    lines[i] = lines[i].replace(',"variance":', ',"variance:', 1)
    d = workdir("corrupted_record")
    rc, out = bench("report", write(d, "bad.log", "\n".join(lines)), "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(re.search(rf"line {i + 1}: corrupted record", out),
          f"no error naming line {i + 1}, the corrupted record", out)


def test_ensemble_gap():
    lines = lines_of(boot("tcg"))
    idx = [k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"')]
    i = idx[5]
    gone = json.loads(lines[i])
    del lines[i]
    nxt = next(k for k in range(i, len(lines)) if lines[k].startswith('{"rec":"ensemble"'))
    d = workdir("ensemble_gap")
    rc, out = bench("report", write(d, "gap.log", "\n".join(lines)), "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(f"line {nxt + 1}: {gone['method']}/{gone['workload']}: ensemble {gone['ensemble'] + 1} "
          f"follows ensemble {gone['ensemble'] - 1}: ensemble {gone['ensemble']} missing" in out,
          "the numbering gap is not reported at the next ensemble's line", out)


def test_summary_disagrees():
    lines = lines_of(boot("tcg"))
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"summary"'))
    s = json.loads(lines[i])
    lines[i] = lines[i].replace(f'"total_variance":{s["total_variance"]},',
                                f'"total_variance":{s["total_variance"] + 1},')
    d = workdir("summary_disagrees")
    rc, out = bench("report", write(d, "sum.log", "\n".join(lines)), "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(f"line {i + 1}: summary of {s['method']}/{s['workload']} disagrees with its ensemble "
          f"records: total_variance is {s['total_variance'] + 1} TSC ticks^2, the ensembles give "
          f"{s['total_variance']} TSC ticks^2" in out, "the disagreement is not reported", out)


# --- recomputation of the dumped samples -------------------------------------------------

def var_calc(xs):
    return (len(xs) * sum(x * x for x in xs) - sum(xs) ** 2) // len(xs) ** 2


def test_recomputed_statistics_icount():
    log = boot("icount")
    rc, out = bench("report", log, "--no-figures")
    check(rc == 0, f"exit status {rc}", out)
    samples = {}
    for r in records(log, "samples"):
        samples.setdefault((r["method"], r["workload"], r["ensemble"]), []).extend(r["values"])
    ens = {(r["method"], r["workload"], r["ensemble"]): r for r in records(log, "ensemble")}
    check(samples, "the icount log has no dumped samples")
    for key, xs in samples.items():
        e = ens[key]
        # The paper's formulas, here, from the raw samples: the kernel is exact.
        check((min(xs), max(xs), var_calc(xs)) == (e["min"], e["max"], e["variance"]),
              f"{key}: kernel record {e} vs samples")
        m, w, j = key
        check(re.search(rf"  {m}/{w} ensemble {j}: {len(xs)} samples .*: match the ensemble "
                        rf"record \(line \d+\) exactly", out), f"{key}: no exact match reported", out)


def test_altered_sample_does_not_match():
    lines = lines_of(boot("icount"))
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"samples"'))
    r = json.loads(lines[i])
    old = lines[i]
    vals = r["values"]
    vals[17] += 1000
    lines[i] = old[:old.index('"values":[')] + '"values":[' + ",".join(map(str, vals)) + "]}\r"
    d = workdir("altered_sample")
    rc, out = bench("report", write(d, "alt.log", "\n".join(lines)), "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1: a sample was altered", out)
    name = f"{r['method']}/{r['workload']} ensemble {r['ensemble']}"
    check(re.search(rf"  {name}: .*: DO NOT MATCH the ensemble record \(line \d+\): max recorded",
                    out), "the mismatch is not reported in the dump section", out)
    check(re.search(rf"line \d+: the dumped samples of {name} .* variance recomputed \d+ TSC ticks\^2",
                    out), "no problem naming the ensemble record's line", out)

def test_unknown_kinds_and_keys_ignored():
    lines = lines_of(boot("qemu64"))
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"'))
    lines[i] = lines[i].replace('"error":null}', '"error":null,"future":{"a":[1,2]},"x2":"y"}')
    lines.insert(i + 1, '{"rec":"future_kind","method":"cpuid","value":42}\r')
    d = workdir("unknown_kinds")
    rc, out = bench("report", write(d, "fut.log", "\n".join(lines)), "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0: unknown kinds and keys are ignored", out)
    check("1 record(s) of kind 'future_kind', not known to this tool: ignored" in out,
          "the unknown kind is not mentioned", out)


def test_core_cycles_view():
    """Counters read beside the TSC (ensemble and summary records in
    core_cycles and instructions, and a counters record, as the kernel
    prints them where the PMU counts; QEMU's TCG has none) get their own
    tables and a core-cycles-vs-TSC figure. Derived from a real log."""
    lines = lines_of(boot("qemu64"))
    out_lines = []
    for l in lines:
        out_lines.append(l)
        if l.startswith('{"rec":"ensemble","method":"cpuid"') or \
                l.startswith('{"rec":"summary","method":"cpuid"'):
            for unit in ("core_cycles", "instructions"):
                out_lines.append(l.replace('"unit":"tsc_ticks"', f'"unit":"{unit}"'))
        if l.startswith('{"rec":"summary","method":"cpuid","workload":"empty"'):
            out_lines.append('{"rec":"counters","method":"cpuid","workload":"empty","net_core_cycles":0,'
                             '"net_instructions":0,"core_cycles_per_tsc_tick":1.000}\r')
    d = workdir("core_cycles")
    rc, out = bench("report", write(d, "cyc.log", "\n".join(out_lines)), "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    tsc = table_rows(out)
    for unit in ("core cycles", "instructions"):
        rows = table_rows(out, unit)
        check(rows and all(k[0] == "cpuid" for k in rows) and
              all(rows[k][5:] == tsc[k][5:] for k in rows), f"no or wrong {unit} table", out)
    check("Counters per method and workload, net of the method's offset:" in out,
          "the counters record is not shown", out)
    pngs = check_pngs(d, ["cycles-vs-tsc-cpuid-empty-core_cycles.png", "minvar-cpuid-empty.png"], out)
    check(not any(p.startswith("minvar-") and ("core_cycles" in p or "instructions" in p)
                  for p in pngs), f"min/variance figures of the counters beside the TSC: {pngs}")


def test_method_in_its_own_unit():
    """A method whose own unit is not the TSC's (the ctr_ methods count core
    cycles): its paper-format lines are checked against the records of that
    unit. Derived from a real log by relabelling cpuid's records."""
    lines = [l.replace('"unit":"tsc_ticks"', '"unit":"core_cycles"') if '"method":"cpuid"' in l else l
             for l in lines_of(boot("qemu64"))]
    d = workdir("own_unit")
    rc, out = bench("report", write(d, "own.log", "\n".join(lines)), "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    check(("cpuid", "empty") in table_rows(out, "core cycles") and
          ("cpuid", "empty") not in table_rows(out), "cpuid is not reported in core cycles", out)
    check_pngs(d, ["minvar-cpuid-empty-core_cycles.png"], out)
    i = next(k for k, l in enumerate(lines) if l.startswith("loop_size:1 >>>>"))
    lines[i] = re.sub(r"min time: (\d+)", lambda m: f"min time: {int(m.group(1)) + 1}", lines[i])
    rc, out = bench("report", write(d, "own-bad.log", "\n".join(lines)), "--no-figures")
    check(rc == 1 and f"line {i + 1}: cpuid/empty [core cycles]: the paper-format line for loop_size 1 "
          "disagrees with its record" in out, "a wrong paper-format line is not reported", out)


def test_benchlog_formulas():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchlog
    check(benchlog.var_calc([1, 2, 3, 4]) == 1, "var_calc([1,2,3,4]) is (4*30-100)//16 = 1")
    check(benchlog.var_calc([5] * 1000) == 0, "var_calc of equal samples")
    check(benchlog.var_calc([2 ** 64 - 1] * 2) == 0, "Σx² beyond 128 bits: exact, 0")
    check(benchlog.var_calc([0, 2 ** 63]) == 2 ** 124, "a variance beyond 64 bits: exact, 2^124")
    check(benchlog.var_calc([]) is None, "no values: no variance")
    check(benchlog.paper64_overflows([2 ** 32]) and not benchlog.paper64_overflows([2 ** 32 - 1]),
          "the paper's 64-bit var_calc: (Σx)² = 2^64 overflows it, (2^32-1)² does not")
    st = benchlog.ensemble_stats([21, 42, 21])
    check(str(st["mean"]) == "28.000" and st["variance"] == 98 and st["max_dev"] == 21,
          f"ensemble_stats([21,42,21]) = {st}")
    s = benchlog.summary_stats([{"min": 5, "max": 9, "max_dev": 4, "variance": 2, "samples": 3},
                                {"min": 4, "max": 4, "max_dev": 0, "variance": 0, "samples": 3}])
    check(s["spurious"] == 1 and s["total_variance"] == 1 and s["var_of_mins"] == 0 and
          s["var_of_vars"] == 1 and s["max_dev_all"] == 4, f"summary_stats: {s}")

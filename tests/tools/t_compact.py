"""tests/tools/t_compact.py - the compact ensemble records ({"e":[...]},
output=both, the default, and json): reported and compared as output=full's
records of the same run, each kind of damage reported at its line, the
counters' units; an output=human method in its own unit.
"""
import json
import re

from common import bench, boot, check, compare_ratios, lines_of, table_rows, workdir, write


def compact_lines(lines):
    """Indices of the compact ensemble records, {"e":[...]}."""
    return [k for k, l in enumerate(lines) if l.startswith('{"e":[')]


def test_compact_and_full_report_compare_the_same():
    """output=both (compact ensemble records) and output=full of the same
    -icount run: report gives the same statistics and counts the same
    ensembles (said compact or full); compare finds no figure that differs."""
    a, b = boot("output-both"), boot("output-full")
    n = len(compact_lines(lines_of(a)))
    check(n == len([l for l in lines_of(b) if l.startswith('{"rec":"ensemble"')]) > 0 and
          not any(l.startswith('{"rec":"ensemble"') for l in lines_of(a)),
          f"{n} compact records in the output=both log, not as many as the full ones in output=full's")
    rc, oa = bench("report", a, "--no-figures")
    rc2, ob = bench("report", b, "--no-figures")
    check(rc == rc2 == 0 and "report: the log is valid" in oa, f"exit status {rc}, {rc2}", oa)
    check(table_rows(oa) == table_rows(ob) and table_rows(oa), "the tables differ", oa + ob)
    check("compact ensemble records" in oa and "; full ensemble records" in ob,
          "the report does not say which ensemble records the log has", oa)
    rc, out = bench("compare", a, b)
    check(rc == 0, f"compare: exit status {rc}", out)
    figures = compare_ratios(out)
    check(figures and all(r in ("1", "- (both 0)") for r in figures),
          f"compare finds figures that differ: {sorted(set(figures))}", out)


def test_compact_damaged():
    """A damaged compact record is reported at its line: a unit that is not
    0, 1 or 2, a line cut short, one lost (the gap at the next of its
    series), a maximum that disagrees with the paper-format line, a minimum
    above the maximum, one before any method record; noise before one on
    its line is tolerated."""
    lines = lines_of(boot("output-both"))
    idx = compact_lines(lines)
    d = workdir("compact_damaged")

    def report(name, ls):
        return bench("report", write(d, name, "\n".join(ls)), "--no-figures")

    i = idx[5]  # cpuid/empty ensemble 5 of 8
    bad = list(lines)
    bad[i] = bad[i].replace('{"e":[0,', '{"e":[7,', 1)
    rc, out = report("unit.log", bad)
    check(rc == 1 and f"line {i + 1}: corrupted compact ensemble record: it has the unit 7, not 0, 1 or 2"
          in out, "a unit out of range is not reported at its line", out)
    bad = list(lines)
    bad[i] = bad[i][:len(bad[i]) // 2]
    rc, out = report("cut.log", bad)
    check(rc == 1 and re.search(rf"line {i + 1}: corrupted record", out), "a cut record not reported", out)
    bad = list(lines)
    gone = json.loads(bad[i])["e"][1]
    del bad[i]
    nxt = next(k for k in range(i, len(bad)) if bad[k].startswith('{"e":['))
    rc, out = report("gap.log", bad)
    check(rc == 1 and re.search(rf"line {nxt + 1}: \S+: ensemble {gone + 1} follows ensemble {gone - 1}: "
                                rf"ensemble {gone} missing", out), f"the lost record (ensemble {gone}) "
          f"is not reported at the next one's line {nxt + 1}", out)
    e = json.loads(lines[i])["e"]
    for pos, name, why in ((3, "figure.log", rf"line {i}: \S+: the paper-format line for loop_size {e[1]} "
                                             rf"disagrees with its record \(line {i + 1}\)"),
                           (2, "minmax.log", rf"line {i + 1}: corrupted compact ensemble record: it has its "
                                             rf"minimum {e[3] + 1} above its maximum {e[3]}")):
        bad, f = list(lines), list(e)
        f[pos] = e[3] + 1   # the maximum, or the minimum, one above the maximum
        bad[i] = json.dumps({"e": f}, separators=(",", ":"))
        rc, out = report(name, bad)
        check(rc == 1 and re.search(why, out), f"{name}: a compact record with {f} is not reported: {why}", out)
    bad = list(lines)
    begin = next(k for k, l in enumerate(bad) if l.rstrip("\r") == "BEGIN bench-records v1")
    bad.insert(begin + 1, bad[i])
    rc, out = report("early.log", bad)
    check(rc == 1 and f"line {begin + 2}: corrupted compact ensemble record: it comes before any method "
          "record" in out, "a compact record before any method record", out)
    ok = list(lines)
    ok[i] = "~#" + ok[i]
    rc, out = report("noise.log", ok)
    check(rc == 0 and f"line {i + 1}: 2 characters of noise before a record" in out,
          "noise before a compact record is not tolerated", out)


def test_compact_counter_units():
    """Compact records of the counters beside the TSC (U 1 and 2, as the
    kernel prints them where the PMU counts; QEMU's TCG has none) are read
    in core cycles and instructions. Derived from a real log."""
    out_lines, method = [], None
    for l in lines_of(boot("output-both")):
        out_lines.append(l)
        if l.startswith('{"rec":"method"'):
            method = json.loads(l)["method"]
        elif l.startswith('{"e":[0,') and method == "cpuid":
            out_lines += [l.replace('{"e":[0,', f'{{"e":[{u},', 1) for u in (1, 2)]
        elif l.startswith('{"rec":"summary","method":"cpuid"'):
            out_lines += [l.replace('"unit":"tsc_ticks"', f'"unit":"{unit}"').replace(
                '"primary":true', '"primary":false') for unit in ("core_cycles", "instructions")]
    d = workdir("compact_counters")
    rc, out = bench("report", write(d, "cyc.log", "\n".join(out_lines)), "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0", out)
    tsc = table_rows(out)
    for unit in ("core cycles", "instructions"):
        rows = table_rows(out, unit)
        check(rows and all(k[0] == "cpuid" for k in rows) and all(rows[k][5:] == tsc[k][5:] for k in rows),
              f"no or wrong {unit} table", out)


def test_output_human_own_unit():
    """output=human, a method whose own unit is core cycles (the ctr_
    methods; QEMU's TCG has none, so cpuid's human lines are relabelled):
    its series are read in that unit, from its header and summary lines."""
    lines = [l.replace("TSC ticks", "core cycles") if l.startswith(("method cpuid:", "summary cpuid/",
                                                                    "result cpuid/")) else
             l.replace('"unit":"tsc_ticks"', '"unit":"core_cycles"') if '"method":"cpuid"' in l else l
             for l in lines_of(boot("output-human"))]
    d = workdir("output_human_own_unit")
    rc, out = bench("report", write(d, "own.log", "\n".join(lines)), "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0", out)
    cyc, tsc = table_rows(out, "core cycles"), table_rows(out)
    check(("cpuid", "empty") in cyc and ("cpuid", "empty") not in tsc and ("rdtscp", "empty") in tsc,
          "cpuid is not reported in core cycles from its human lines", out)

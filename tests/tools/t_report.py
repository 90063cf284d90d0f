"""tests/tools/t_report.py - `bench.py report` on real logs: the statistics
table against the summary records (read with plain json), the figures (PNG
files), the skipped methods, the resolution test, every output= level
reported the same (output=summary through report, compare and store too),
the ACPI line, a damaged output=human log, the default output directory.
"""
import os
import re

from common import (OUTPUT_LEVELS, bench, boot, check, check_pngs, check_table_against_summaries,
                    compare_ratios, lines_of, methods_run, parse_db_table, read, records, store_lab, table_rows,
                    workdir, write)


def test_report_tcg():
    log = boot("tcg")
    d = workdir("report_tcg")
    rc, out = bench("report", log, "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0 (valid log)", out)
    check("report: the log is valid" in out, "no 'the log is valid' line", out)
    ran = methods_run(log)
    check(ran == ["cpuid", "cr0", "rdtscp"], f"methods in the log: {ran}")
    rows = check_table_against_summaries(log, out)
    for m in ran:
        check((m, "empty") in rows, f"the table has no row for method {m}", out)
    dumps = {(r["method"], r["workload"], r["ensemble"]) for r in records(log, "samples")}
    check(out.count("match the ensemble record") == len(dumps) > 0 and "DO NOT MATCH" not in out,
          f"expected {len(dumps)} dumped ensembles matching their records", out)
    expected = [f"minvar-{m}-empty.png" for m in ran] + [f"hist-{m}-{w}-e{j}.png" for m, w, j in dumps]
    check_pngs(d, expected, out)
    check(os.path.getsize(os.path.join(d, "report.txt")) > 0, "no report.txt in the output directory")
    for unit in ("TSC ticks^2", "TSC ticks^4", "[ensembles]"):
        check(unit in out, f"no unit {unit!r} in the report", out)


def test_report_icount_exact():
    log = boot("icount")
    d = workdir("report_icount")
    rc, out = bench("report", log, "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    rows = check_table_against_summaries(log, out)
    for key, cells in rows.items():
        check(cells[7:11] == ["0", "0", "0", "0"],
              f"{key}: under -icount every variance and max deviation is 0: {cells}", out)
    check_pngs(d, [f"minvar-{m}-empty.png" for m in methods_run(log)], out)


def test_report_qemu64_skips_rdtscp():
    log = boot("qemu64")
    d = workdir("report_qemu64")
    rc, out = bench("report", log, "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    skips = {s["method"]: s["reason"] for s in records(log, "skip")}
    check("rdtscp" in skips, f"rdtscp is not skipped under -cpu qemu64: {skips}")
    check("Skipped methods:\n" in out and f"\n  rdtscp: {skips['rdtscp']} (line " in out,
          "the report does not list rdtscp as skipped with its reason", out)
    for m, why in skips.items():
        check(f"\n  {m}: {why} (line " in out, f"skipped method {m} not listed", out)
    rows = check_table_against_summaries(log, out)
    check(("cpuid", "empty") in rows and ("cr0", "empty") in rows and
          not any(m == "rdtscp" for m, _ in rows), f"table rows: {sorted(rows)}", out)
    pngs = check_pngs(d, ["minvar-cpuid-empty.png", "minvar-cr0-empty.png"], out)
    check(not any("rdtscp" in p for p in pngs), f"a figure of the skipped method: {pngs}")


def test_report_resolution_figures():
    log = boot("resolution")
    d = workdir("report_resolution")
    rc, out = bench("report", log, "-o", d)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    ran = methods_run(log)
    check_pngs(d, [f"resolution-{m}-measured_loop.png" for m in ran], out)
    check("Resolution test (paper 3.3.1):" in out, "no resolution section", out)
    # No loop of growing size in the plain run: no resolution figure there.
    d2 = workdir("report_no_resolution")
    rc, out = bench("report", boot("qemu64"), "-o", d2)
    check(not any(f.startswith("resolution-") for f in os.listdir(d2)),
          "a resolution figure for a run without the resolution test", out)


def test_report_every_output_level():
    """output=human, json, both and full: each log reports as valid, with the same
    statistics (exact under -icount), the same skipped methods and dumped
    samples matching what they are compared with. A human log has no
    ensemble records: its series are read from the paper-format and summary
    lines (before, it was refused: 'the end record says methods_run=3, the
    records give 0')."""
    tables, skipped, outs = {}, {}, {}
    json_log = boot("output-json")
    for level in OUTPUT_LEVELS:
        log = boot(f"output-{level}")
        d = workdir(f"output_{level}")
        rc, out = bench("report", log, "-o", d)
        check(rc == 0 and "report: the log is valid" in out, f"output={level}: exit status {rc}, "
              "expected 0 (valid log)", out)
        tables[level], outs[level] = table_rows(out), out
        check(tables[level], f"output={level}: no statistics table", out)
        skipped[level] = re.findall(r"\n  (\w+): .* \(line \d+\)", out.split("Skipped methods:")[-1]
                                    .split("\n\n")[0]) if "Skipped methods:" in out else []
        from_paper = "read from:" in out
        check(from_paper == (level == "human"), f"output={level}: the 'read from:' line is "
              f"{'missing' if level == 'human' else 'there'}", out)
        dumped = {(r["method"], r["workload"]) for r in records(log, "samples")}
        what = "paper-format line" if level == "human" else "ensemble record"
        check(dumped and out.count(f"match the {what} (line") == len(dumped) and "DO NOT MATCH" not in out,
              f"output={level}: expected {len(dumped)} dumps matching their {what}s", out)
        check_pngs(d, [f"minvar-{m}-empty.png" for m in methods_run(json_log)], out)
    check(tables["human"] == tables["json"] == tables["both"] == tables["full"],
          f"the levels' statistics differ: human {tables['human']} json {tables['json']}")
    check(skipped["human"] == skipped["json"] == skipped["both"] == skipped["full"] and skipped["json"],
          f"the levels' skipped methods differ: {skipped}")
    # ... and they are the summary records' (read here with plain json)
    check_table_against_summaries(json_log, outs["human"])


def test_report_compare_store_output_summary():
    """output=summary (no per-ensemble lines): report reads it as valid
    with the same statistics as output=both of the same -icount run, says
    it has no figures to draw and why; compare finds no figure that
    differs; store and table give the same nets."""
    a, b = boot("output-summary"), boot("output-both")
    check(not any(l.startswith(("loop_size:", '{"e":[')) for l in lines_of(a)), "per-ensemble lines at "
          "output=summary")
    d = workdir("output_summary")
    rc, out = bench("report", a, "-o", d)
    _, ob = bench("report", b, "--no-figures")
    check(rc == 0 and "report: the log is valid (21 series summarized, no per-ensemble lines (output=summary)"
          in out and "summaries only, no per-ensemble lines (output=summary)" in out, f"exit status {rc}", out)
    check(table_rows(out) and table_rows(out) == table_rows(ob), "the statistics differ from output=both's",
          out + ob)
    check("no figures: an output=summary log has no per-ensemble lines" in out and
          not any(f.endswith(".png") for f in os.listdir(d)), "figures, or no word why there are none", out)
    rc, out = bench("compare", a, b)
    figures = compare_ratios(out)
    check(rc == 0 and figures and all(r in ("1", "- (both 0)") for r in figures) and
          "(A: 8 ensembles x 200 samples, B: 8 x 200)" in out, f"compare: {sorted(set(figures))}", out)
    db, _, out = store_lab(workdir("db_summary"), ("output-summary", "output-both"))
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rc == 0 and rows and all(len(c) == 2 and c[0] == c[1] for c in rows.values()),
          f"the nets of output=summary and output=both differ: {rows}", out)


def test_report_acpi_line():
    """The report's environment says what the acpi record says (q35: HPET,
    PM timer, the MADT's CPUs), and the record is not an unknown kind."""
    log = boot("output-both")
    a = records(log, "acpi")
    check(len(a) == 1 and a[0]["rsdp"], f"acpi records: {a}")
    rc, out = bench("report", log, "--no-figures")
    want = (f"  ACPI:           revision {a[0]['revision']}, {a[0]['tables']} tables (0 bad checksums), MADT: "
            f"1 of 1 CPUs enabled, HPET at 0xfed00000 ({a[0]['hpet_period_fs']} fs a tick), PM timer at port "
            f"{a[0]['pm_timer_port']:#x} (24-bit), 0 problems")
    check(rc == 0 and want in out.split("\n") and "kind 'acpi'" not in out, f"no line {want!r}", out)


def test_output_human_damaged():
    """A human log is checked as records are: a paper-format line that
    disagrees with the summary line is reported at its line."""
    lines = lines_of(boot("output-human"))
    i = next(k for k, l in enumerate(lines) if l.startswith("loop_size:1 >>>>"))
    lines[i] = re.sub(r"min time: (\d+)", lambda m: f"min time: {int(m.group(1)) + 1}", lines[i])
    summary = next(k for k in range(i, len(lines)) if lines[k].startswith("summary "))
    d = workdir("output_human_damaged")
    rc, out = bench("report", write(d, "bad.log", "\n".join(lines)), "--no-figures")
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(re.search(rf"line {summary + 1}: summary of cpuid/empty disagrees with its ensemble records: "
                    r"max_of_mins is \d+ TSC ticks, the ensembles give \d+ TSC ticks", out),
          f"the altered paper-format line (line {i + 1}) is not reported at the summary line", out)

def test_report_default_outdir():
    d = workdir("report_default_outdir")
    log = write(d, "run.log", read(boot("qemu64")))
    rc, out = bench("report", log)
    check(rc == 0, f"exit status {rc}", out)
    check(os.path.isfile(os.path.join(d, "run-report", "minvar-cpuid-empty.png")),
          "no figures in LOG-report/ next to the log", out)

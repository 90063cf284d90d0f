#!/usr/bin/env python3
"""tests/tools/run_tool_tests.py - test the host tools (tools/bench.py capture,
report, compare, asm, and store, table and plot of a lab database;
tools/benchlog.py, tools/benchdb.py) on logs the kernel really printed.

The runner boots $BENCH_BUILD/bench32.elf (default build/) under QEMU, each
run with a timeout, and caches the logs as $BENCH_BUILD/logs/tools-*.log
(with the QEMU command beside them in tools-*.cmd; a rebuilt kernel or a
changed command boots again):

  tools-tcg.log         plain TCG -cpu max, dump=3, output=full
  tools-icount.log      -icount shift=0: exact figures, dump=3, output=full
  tools-qemu64.log      -cpu qemu64: RDTSCP is skipped, output=full
  tools-resolution.log  -icount, resolution=on (the paper's 3.3)
  tools-output-*.log    -icount, the same small run at output=human, json, both and full

Damaged logs for the negative cases are made from these. The tools run as
commands, as a user runs them (sys.executable tools/bench.py ...), and what
they print is checked against the records read here with plain json, not
with tools/benchlog.py. Outputs are kept in $BENCH_BUILD/tools-tests/<test>/.

Each test prints PASS, FAIL (with the reason; an unexpected exception with
its traceback: tests/runner.py) or SKIP (with the reason); the last line is
"tools: N passed, N failed, N skipped", also written as "P F S" to
$BENCH_BUILD/results/tools.txt. Exit status 1 when a test failed.

    /usr/bin/python3 tests/tools/run_tool_tests.py            # all tests
    /usr/bin/python3 tests/tools/run_tool_tests.py capture    # names containing "capture"
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from runner import run_all  # noqa: E402

BUILD = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
KERNEL = os.path.join(BUILD, "bench32.elf")
LOGS = os.path.join(BUILD, "logs")
WORK = os.path.join(BUILD, "tools-tests")
BENCH = os.path.join(ROOT, "tools", "bench.py")
PY = sys.executable
QEMU_TIMEOUT = 120
TOOL_TIMEOUT = 180
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ICOUNT = ["-icount", "shift=0,align=off,sleep=off"]

# tcg, icount and qemu64 print full ensemble records (output=full), which
# the damaged-log tests edit; the default's compact records have their own
# tests below ("the compact ensemble records").
RUNS = {
    "tcg": (["-cpu", "max"], "ensembles=20 samples=1000 dump=3 output=full"),
    "icount": (["-cpu", "max"] + ICOUNT, "ensembles=20 samples=1000 dump=3 output=full"),
    "qemu64": (["-cpu", "qemu64"], "ensembles=10 samples=500 dump=1 workloads=add_chain_64 output=full"),
    "resolution": (["-cpu", "max"] + ICOUNT,
                   "ensembles=24 samples=200 resolution=on workloads=measured_function"),
    "code": (["-cpu", "max"] + ICOUNT,
             "ensembles=4 samples=100 workloads=add_chain_64 code=480fafc04801d8 unroll=10 code.name=mix"),
}
# Every output= level (README "Boot parameters"), the same run: under
# -icount its figures are exact, so every level must report the same.
OUTPUT_LEVELS = ("human", "json", "both", "full")
for _level in OUTPUT_LEVELS:
    RUNS[f"output-{_level}"] = (["-cpu", "max"] + ICOUNT,
                                f"ensembles=8 samples=200 dump=2 output={_level}")


# output=summary: the same run without per-ensemble lines (no dump=: the
# samples of an ensemble have no ensemble record to match there).
RUNS["output-summary"] = (["-cpu", "max"] + ICOUNT, "ensembles=8 samples=200 output=summary")


class Skip(Exception):
    pass


def check(cond, msg, output=""):
    if not cond:
        raise AssertionError(msg + ("\n" + tail(output) if output else ""))


def tail(text, n=15):
    lines = [l for l in text.replace("\r", "").split("\n") if l.strip()]
    return "\n".join("    | " + l[:220] for l in lines[-n:])


# --- real logs ------------------------------------------------------------------

def qemu_cmd(cpu_args, append):
    return (["qemu-system-x86_64", "-machine", "q35", "-m", "256M", "-display", "none",
             "-serial", "stdio", "-no-reboot", "-monitor", "none",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"] + cpu_args +
            ["-kernel", KERNEL, "-append", append])


_booted = {}


def boot(name):
    """The path of a real log, booting the kernel when the cached one is
    missing, older than the kernel, or from another command."""
    if name in _booted:
        return _booted[name]
    if not shutil.which("qemu-system-x86_64"):
        raise Skip("qemu-system-x86_64 is not installed")
    cmd = qemu_cmd(*RUNS[name])
    path = os.path.join(LOGS, f"tools-{name}.log")
    meta = os.path.join(LOGS, f"tools-{name}.cmd")
    line = " ".join(cmd) + "\n"
    fresh = (os.path.exists(path) and os.path.exists(meta) and open(meta).read() == line
             and os.path.getmtime(path) >= os.path.getmtime(KERNEL))
    if not fresh:
        os.makedirs(LOGS, exist_ok=True)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, timeout=QEMU_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise AssertionError(f"QEMU timed out after {QEMU_TIMEOUT} s: {line}"
                                 + tail((e.stdout or b"").decode(errors="replace")))
        text = p.stdout.decode(errors="replace")
        check(p.returncode == 33, f"QEMU exit status {p.returncode}, expected 33 (run complete): "
                                  f"{line}{p.stderr.decode(errors='replace')[-500:]}", text)
        with open(path, "wb") as f:
            f.write(p.stdout)
        with open(meta, "w") as f:
            f.write(line)
    _booted[name] = path
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def records(path, kind=None):
    """The records of a log, read with plain json (not tools/benchlog.py)."""
    out = []
    for line in read(path).decode(errors="replace").replace("\r", "").split("\n"):
        if line.startswith('{"rec"'):
            r = json.loads(line)
            if kind is None or r["rec"] == kind:
                out.append(r)
    return out


def workdir(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def bench(*args, stdin=None, timeout=TOOL_TIMEOUT):
    """Run tools/bench.py; returns (exit status, stdout + stderr)."""
    p = subprocess.run([PY, BENCH] + [str(a) for a in args], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    out = p.stdout.decode(errors="replace")
    check("Traceback (most recent call last)" not in out, "bench.py crashed", out)
    return p.returncode, out


def table_rows(out, unit="TSC ticks"):
    """The statistics table's rows: {(method, workload): [cells]}."""
    rows, on = {}, False
    for line in out.split("\n"):
        if line.startswith("Paper statistics per method and workload, in " + unit):
            on = True
            continue
        if on and line.startswith("  ") and not line.startswith("   "):
            cells = line.split()
            if cells[0] not in ("method", "*"):
                rows[(cells[0], cells[1].rstrip("*"))] = cells
        elif on and not line.strip():
            if rows:
                break
    return rows


def check_pngs(outdir, expected, out):
    pngs = sorted(f for f in os.listdir(outdir) if f.endswith(".png"))
    for name in expected:
        check(name in pngs, f"figure {name} missing from {outdir} (found: {pngs[:8]}...)", out)
    for name in pngs:
        data = read(os.path.join(outdir, name))
        check(len(data) > 1000 and data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR",
              f"{name}: not a valid, non-empty PNG ({len(data)} bytes)")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        check(width >= 300 and height >= 200, f"{name}: {width}x{height} pixels")
    return pngs


def check_table_against_summaries(log, out):
    """Every summary record is a table row with its figures."""
    rows = table_rows(out)
    for s in records(log, "summary"):
        key = (s["method"], s["workload"])
        check(key in rows, f"no table row for {key}", out)
        cells = rows[key]
        want = [s["min_of_mins"], s["total_variance"], s["var_of_vars"], s["var_of_mins"],
                s["max_dev_all"], s["spurious"]]
        want = ["overflow" if v is None else str(v) for v in want]   # null: overflow
        check(cells[2:4] == [str(s["ensembles"]), "x"] and cells[5] == want[0]
              and cells[7:12] == want[1:],
              f"table row {cells} disagrees with the summary record {s}", out)
    return rows


def methods_run(log):
    return sorted({r["method"] for r in records(log, "method")})


def lines_of(path):
    return read(path).decode().split("\n")


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


# --- report on real logs -------------------------------------------------------------

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
    ratios = re.findall(r"^  \S.*?  (\S+(?: \(both 0\))?)$", out.split("\n\n", 2)[2], re.M)
    figures = [r for r in ratios if r != "B/A"]
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


# --- the compact ensemble records (output=both, the default, and json) ---------------------

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
    ratios = re.findall(r"^  \S.*?  (\S+(?: \(both 0\))?)$", out.split("\n\n", 2)[2], re.M)
    figures = [r for r in ratios if r != "B/A"]
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


def test_report_default_outdir():
    d = workdir("report_default_outdir")
    log = write(d, "run.log", read(boot("qemu64")))
    rc, out = bench("report", log)
    check(rc == 0, f"exit status {rc}", out)
    check(os.path.isfile(os.path.join(d, "run-report", "minvar-cpuid-empty.png")),
          "no figures in LOG-report/ next to the log", out)


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


# --- compare -------------------------------------------------------------------------

def test_compare_ratios():
    a, b = boot("tcg"), boot("icount")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"exit status {rc}", out)
    sa = {(s["method"], s["workload"]): s for s in records(a, "summary")}
    sb = {(s["method"], s["workload"]): s for s in records(b, "summary")}
    for key in sa:
        m, w = key
        check(f"\n{m}/{w} (A: " in out, f"no section for {m}/{w}", out)
        x, y = sa[key]["min_of_mins"], sb[key]["min_of_mins"]
        want = f"{y / x:.3g}" if x else ("- (both 0)" if y == 0 else "inf (A is 0)")
        label = "offset \\(min of mins\\)" if w == "empty" else "min of mins"
        check(re.search(rf"\n  {label} +{x} TSC ticks +{y} TSC ticks +{re.escape(want)}\n", out),
              f"{m}/{w}: least-minimum row with ratio {want} missing", out)
    check(re.search(r"figure +A +B +B/A", out), "no B/A column", out)
    check(re.search(r"total variance +\d+ TSC ticks\^2 +0 TSC ticks\^2 +0\n", out),
          "no total variance row with its units and ratio", out)
    check(re.search(r"cpu brand +QEMU TCG CPU.* +QEMU TCG CPU.* +same", out), "no cpu brand row", out)


def test_compare_environments_differ():
    a, b = boot("tcg"), boot("qemu64")
    rc, out = bench("compare", a, b)
    check(rc == 0, f"exit status {rc}", out)
    check(re.search(r"cpu brand +\S.* +DIFFERS", out), "the cpu brands differ but are not flagged", out)
    for label in ("hypervisor", "boot loader"):
        check(re.search(rf"  {label} +\S", out), f"no {label} row", out)
    check(re.search(r"\nOnly in A: .*\brdtscp/empty\b", out) and "Skipped in B: method rdtscp: " in out,
          "the skipped method is not reported", out)


# --- capture -------------------------------------------------------------------------

def run_capture(d, chunks, args=(), keep_open=True, limit=60):
    """Feed chunks to 'bench.py capture -' through a pipe, left open after
    them when keep_open (capture must then stop by itself) and closed
    otherwise; returns (exit status, its messages, saved bytes, seconds)."""
    path = os.path.join(d, "captured.log")
    p = subprocess.Popen([PY, BENCH, "capture", "-", "-o", path, "-q"] + list(args),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = []
    reader = threading.Thread(target=lambda: output.append(p.stdout.read()))
    reader.start()
    start = time.time()
    try:
        for c in chunks:
            p.stdin.write(c)
            p.stdin.flush()
            time.sleep(0.005)
        if not keep_open:
            p.stdin.close()
        p.wait(timeout=limit)
    except BrokenPipeError:
        p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError(f"capture did not exit within {limit} s")
    finally:
        took = time.time() - start
        try:
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        reader.join(10)
    saved = read(path) if os.path.exists(path) else None
    return p.returncode, b"".join(output).decode(errors="replace"), saved, took


def split_chunks(data, n=4096):
    return [data[i:i + n] for i in range(0, len(data), n)]


def test_capture_stops_at_final_line():
    log = read(boot("tcg"))
    after = b"\x1b[2J\x1b[H GNU GRUB  version 2.06 (after a reboot)\r\n\x1b[7m*bench\x1b[0m\r\n"
    d = workdir("capture_final")
    # The pipe stays open after the final line: capture must stop by itself.
    rc, out, saved, took = run_capture(d, split_chunks(log + after, 1000), keep_open=True)
    check(rc == 0, f"exit status {rc}, expected 0", out)
    check(saved == log, f"saved {len(saved or b'')} bytes, expected the {len(log)} bytes up to and "
                        "including the final line", out)
    check(took < 20, f"capture took {took:.1f} s: it did not stop at the final line", out)
    check("capture: final line after" in out and "bench: run complete" in out, "no final message", out)
    rc, rep = bench("report", os.path.join(d, "captured.log"), "--no-figures")
    check(rc == 0, "the captured log does not report as valid", rep)


def test_capture_noisy_stream_lone_cr():
    log = read(boot("qemu64")).replace(b"\r\n", b"\n")
    lines = log.split(b"\n")
    final = max(i for i, l in enumerate(lines) if l.startswith(b"bench: run complete"))
    body = b"\r".join(lines[:final])                      # lone-CR line ends
    stream = (b"\x1b[2J\x1b[H\x1b[?25l\x00 GNU GRUB \x1b[0m\r\n" + body + b"\r"
              + b"\x1b[0m\x07" + lines[final] + b"\r")      # noise before the final line
    d = workdir("capture_noisy")
    rc, out, saved, took = run_capture(d, split_chunks(stream, 333), keep_open=True)
    check(rc == 0, f"exit status {rc}, expected 0: the final line is there", out)
    check(saved.endswith(lines[final] + b"\r\n") and took < 20,
          f"the saved log does not end with the final line ({saved[-80:]!r})", out)
    rc, rep = bench("report", os.path.join(d, "captured.log"), "--no-figures")
    check(rc == 0, "the captured log (lone-CR line ends) does not report as valid", rep)


def test_capture_truncated_stream():
    log = read(boot("tcg"))
    half = log[:len(log) // 2]
    d = workdir("capture_truncated")
    rc, out, saved, _ = run_capture(d, split_chunks(half), keep_open=False)
    check(rc == 1, f"exit status {rc}, expected 1 (no final line)", out)
    check("the stream ended after" in out and "without the run's final line" in out,
          "no clear message about the cut stream", out)
    check(saved == half, "the partial log was not saved as received", out)


def test_capture_timeout():
    log = read(boot("tcg"))
    d = workdir("capture_timeout")
    rc, out, saved, took = run_capture(d, [log[:5000]], args=["--timeout", "2"], keep_open=True,
                                       limit=30)
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check("no final line within 2 s" in out, "no message about the time limit", out)
    check(took < 15, f"capture took {took:.1f} s with --timeout 2")
    check(saved == log[:5000], "the partial log was not saved", out)


def test_capture_serial_device():
    """--device: the run's output written to a pseudo-terminal, read through
    pyserial as from a USB-serial adapter."""
    try:
        subprocess.run([PY, "-c", "import serial"], check=True, capture_output=True)
    except subprocess.CalledProcessError:
        raise Skip(f"pyserial is not installed for {PY} (Debian: python3-serial)")
    log = read(boot("qemu64"))
    master, slave = os.openpty()
    d = workdir("capture_device")
    path = os.path.join(d, "serial.log")
    p = subprocess.Popen([PY, BENCH, "capture", "--device", os.ttyname(slave), "--baud", "115200",
                          "-q", "-o", path, "--timeout", "60"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        first = p.stdout.readline().decode(errors="replace")
        check(first.startswith("capture: reading"), f"capture did not start: {first!r}")
        time.sleep(0.5)  # the port is open and raw before anything is sent
        for c in split_chunks(log, 512):
            os.write(master, c)
        p.wait(timeout=60)
        rest = p.stdout.read().decode(errors="replace")
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
        os.close(slave)
    check(p.returncode == 0, f"exit status {p.returncode}, expected 0", first + rest)
    check(read(path) == log, "the log read from the device differs from what was sent", rest)


def test_capture_live_qemu():
    """QEMU's serial output piped straight into capture."""
    if not shutil.which("qemu-system-x86_64"):
        raise Skip("qemu-system-x86_64 is not installed")
    d = workdir("capture_live")
    path = os.path.join(d, "live.log")
    cmd = " ".join(f"'{a}'" for a in qemu_cmd(["-cpu", "max"],
                                              "ensembles=5 samples=200 workloads=add_chain_64"))
    p = subprocess.run(["bash", "-c",
                        f"timeout {QEMU_TIMEOUT} {cmd} | '{PY}' '{BENCH}' capture - -q -o '{path}'"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=QEMU_TIMEOUT + 30)
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 0, f"exit status {p.returncode}, expected 0", out)
    rc, rep = bench("report", path, "-o", os.path.join(d, "fig"))
    check(rc == 0, "the captured log does not report as valid", rep)


# --- format evolution ------------------------------------------------------------------

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
    check(benchlog.var_calc([2 ** 64 - 1] * 2) is None, "a 128-bit overflow must give None")
    st = benchlog.ensemble_stats([21, 42, 21])
    check(str(st["mean"]) == "28.000" and st["variance"] == 98 and st["max_dev"] == 21,
          f"ensemble_stats([21,42,21]) = {st}")
    s = benchlog.summary_stats([{"min": 5, "max": 9, "max_dev": 4, "variance": 2, "samples": 3},
                                {"min": 4, "max": 4, "max_dev": 0, "variance": 0, "samples": 3}])
    check(s["spurious"] == 1 and s["total_variance"] == 1 and s["var_of_mins"] == 0 and
          s["var_of_vars"] == 1 and s["max_dev_all"] == 4, f"summary_stats: {s}")


def test_asm_boot_parameters():
    rc, out = bench("asm", "imul rax, rbx")
    check(rc == 0 and out.strip() == "code=480fafc3", f"asm printed {out!r}", out)
    rc, out = bench("asm", "add rax, rbx; add rcx, rdx", "--init", "mov r8, r14", "--unroll", "100",
                    "--loops", "3", "--name", "adds")
    check(rc == 0 and out.strip() == "code=4801d84801d1 init=4d89f0 unroll=100 loops=3 code.name=adds",
          f"asm printed {out!r}", out)
    rc, out = bench("asm", "imul rax, rbx, rcx, rdx")
    check(rc == 1 and "invalid combination of opcode and operands" in out, f"a bad line: {rc} {out!r}", out)


def test_report_shows_the_measured_code():
    log = boot("code")
    rc, out = bench("report", log, "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0 (valid log)", out)
    for want in ("Measured code (workload mix): 7 bytes x unroll 10", "imul   rax,rax", "add    rax,rbx",
                 "per copy, cpuid: 2.000 TSC ticks (2N-N over 10 copies)"):
        check(want in out, f"the report lacks {want!r}", out)


# --- the lab database (store, table, plot) ----------------------------------------------------

# Three logs of two machines: -cpu max under -icount (two runs of one
# machine: same CPUID, microcode, hypervisor and TSC rate) and -cpu qemu64.
LAB = ("icount", "output-json", "qemu64")
# The figures of the summaries table and the summary record's key for each.
DB_FIGURES = {"min_of_mins": "min_of_mins", "offset": "offset", "net": "net_min",
              "total_variance": "total_variance", "var_of_vars": "var_of_vars",
              "var_of_mins": "var_of_mins", "max_dev_all": "max_dev_all", "spurious": "spurious",
              "median_of_medians": "median_of_medians", "errors": "errors"}


def db_rows(db, sql, args=()):
    """Rows of a query, read with plain sqlite3 (not tools/benchdb.py)."""
    import sqlite3
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def db_counts(db):
    return {t: db_rows(db, f"SELECT COUNT(*) FROM {t}")[0][0]
            for t in ("machines", "runs", "skips", "series", "summaries")}


def store_lab(d, names=LAB):
    db = os.path.join(d, "lab.sqlite")
    logs = [boot(n) for n in names]
    rc, out = bench("store", *logs, "--db", db)
    check(rc == 0, f"store: exit status {rc}, expected 0", out)
    return db, logs, out


def parse_db_table(out):
    """The side-by-side table: (column names, {(method, workload): cells}),
    the first header line's names split at two or more spaces."""
    lines = out.split("\n")
    i = next((k for k, l in enumerate(lines) if l.startswith("  method  workload")), None)
    check(i is not None, "no table header 'method  workload'", out)
    names = re.split(r" {2,}", lines[i].strip())
    rows = {}
    for l in lines[i + 1:]:
        if not l.strip():
            break
        cells = l.split()
        if cells[0].startswith("M") or cells[0].startswith("["):
            continue    # the machine and unit header lines
        rows[(cells[0], cells[1])] = cells[2:]
    return names, lines[i:i + 3], rows


def summaries_of(log):
    return {(s["method"], s["workload"]): s for s in records(log, "summary")
            if s.get("unit", "tsc_ticks") == "tsc_ticks"}


def test_db_store_two_machines():
    """Three logs of two machines: one machine per CPU identity (its
    columns equal the env, machine and tsc_rate records), one run per log,
    a series and the summary record's figures per summary record, the
    skipped methods with their reasons."""
    d = workdir("db_store")
    db, logs, out = store_lab(d)
    stored = re.findall(r"stored as run R(\d+) '([^']+)'(?: \([^)]*\))?, (\d+) series, on (a new|the known) machine M(\d+)",
                        out)
    check([(r, m, new) for r, _, _, new, m in stored] ==
          [("1", "1", "a new"), ("2", "1", "the known"), ("3", "2", "a new")],
          f"expected runs R1, R2 on a new machine M1 and R3 on a new machine M2: {stored}", out)
    check(db_counts(db)["machines"] == 2 and db_counts(db)["runs"] == 3, f"counts {db_counts(db)}")
    for run_id, log in enumerate(logs, 1):
        env, rate = records(log, "env")[0], records(log, "tsc_rate")[0]
        micro = records(log, "machine")[0]["microcode"]
        got = db_rows(db, "SELECT m.vendor, m.family, m.model, m.stepping, m.brand, m.microcode, "
                          "m.hypervisor, r.tsc_hz, r.tsc_ppm, r.tsc_source, r.status, r.label, "
                          "r.samples FROM runs r JOIN machines m ON m.id = r.machine_id WHERE r.id = ?",
                      (run_id,))[0]
        want = (env["vendor"], env["family"], env["model"], env["stepping"], env["brand"], micro,
                env["hypervisor_vendor"], rate["hz"], rate["ppm"], rate["source"],
                records(log, "end")[0]["status"], os.path.basename(log)[:-4],
                records(log, "config")[0]["samples"])
        check(got == want, f"run R{run_id} ({log}): stored {got}, the records say {want}")
        want_sums = summaries_of(log)
        rows = db_rows(db, f"SELECT s.method, s.workload, s.unit, s.cpu, s.ensembles, "
                           f"{', '.join('su.' + c for c in DB_FIGURES)} FROM series s JOIN summaries "
                           f"su ON su.series_id = s.id WHERE s.run_id = ?", (run_id,))
        check(len(rows) == len(want_sums) > 0, f"R{run_id}: {len(rows)} series stored, the log has "
                                               f"{len(want_sums)} summary records")
        for m, w, unit, cpu, ens, *figs in rows:
            s = want_sums[(m, w)]
            want = [s.get(k) for k in DB_FIGURES.values()]
            check(unit == "tsc_ticks" and cpu is None and ens == s["ensembles"] and figs == want,
                  f"R{run_id} {m}/{w}: stored {unit} cpu={cpu} {ens} ensembles {figs}, the summary "
                  f"record says {want}")
        skips = dict(db_rows(db, "SELECT method, reason FROM skips WHERE run_id = ?", (run_id,)))
        check(skips == {r["method"]: r["reason"] for r in records(log, "skip")},
              f"R{run_id}: skips stored {skips}")


def test_db_table_matches_summaries():
    """table: a column per run (its label, machine and unit), a row per
    method and workload, each cell the summary record's net_min; the
    method qemu64 skipped says so; --figure and its unit's power."""
    d = workdir("db_table")
    db, logs, _ = store_lab(d)
    rc, out = bench("table", "--db", db)
    check(rc == 0, f"exit status {rc}", out)
    names, header, rows = parse_db_table(out)
    labels = [os.path.basename(p)[:-4] for p in logs]
    check(names == ["method", "workload"] + [f"R{i} {l}" for i, l in enumerate(labels, 1)],
          f"columns {names}", out)
    check(header[1].split() == ["M1", "M1", "M2"] and header[2].count("[TSC ticks]") == 3,
          f"machine and unit header lines: {header[1:]}", out)
    sums = [summaries_of(p) for p in logs]
    keys = {k for s in sums for k in s if k[1] != "empty"}
    check(set(rows) == keys, f"rows {sorted(rows)}, expected {sorted(keys)}", out)
    skipped = {r["method"] for r in records(logs[2], "skip")}
    for key, cells in rows.items():
        want = [str(s[key]["net_min"]) if key in s else "skipped" if key[0] in skipped and i == 2
                else "-" for i, s in enumerate(sums)]
        check(cells == want, f"{key}: cells {cells}, the summary records give {want}", out)
    check("skipped" in rows[("rdtscp", "add_chain_64")] and
          re.search(r"R3 \(M2\): method rdtscp skipped: \S", out), "qemu64's rdtscp skip not said", out)
    check("workload empty is left out: its net is 0 by definition" in out, "no note on empty", out)
    rc, out = bench("table", "--db", db, "--figure", "var_of_vars", "--workload", "empty")
    check(rc == 0, f"--figure var_of_vars: exit status {rc}", out)
    _, header, rows = parse_db_table(out)
    check(header[2].count("[TSC ticks^4]") == 3, f"variance of variances without TSC ticks^4: {header}", out)
    for key, cells in rows.items():
        vv = sums[0][key]["var_of_vars"]  # null where it overflowed (a busy host's TCG run)
        check(key[1] == "empty" and cells[0] == ("overflow" if vv is None else str(vv)),
              f"{key}: {cells[0]}, expected {sums[0][key]['var_of_vars']}", out)
    rc, out = bench("table", "--db", db, "--unit", "core_cycles")
    check(rc == 1 and "no series in core cycles (units stored: tsc_ticks)" in out,
          "a unit not stored: no clear message", out)


def test_db_table_csv():
    import csv
    d = workdir("db_csv")
    db, logs, _ = store_lab(d)
    rc, out = bench("table", "--db", db, "--csv", "--method", "cr0")
    check(rc == 0, f"exit status {rc}", out)
    table = list(csv.reader(out.splitlines()))
    labels = [os.path.basename(p)[:-4] for p in logs]
    check(table[0] == ["method", "workload"] + [f"R{i} {l} (M{m}) [TSC ticks]" for i, l, m in
                                                zip((1, 2, 3), labels, (1, 1, 2))],
          f"CSV header {table[0]}", out)
    sums = [summaries_of(p) for p in logs]
    check(len(table) > 2, "no CSV rows", out)
    for row in table[1:]:
        key = (row[0], row[1])
        check(row[0] == "cr0", f"--method cr0 but a row {row}", out)
        want = [str(s[key]["net_min"]) if key in s else "-" for s in sums]
        check(row[2:] == want, f"{key}: CSV {row[2:]}, the summary records give {want}", out)


def test_db_same_run_twice():
    """A log stored again, and a capture of the same run with other line
    ends and noise: recognised, not stored again, the database unchanged.
    The same CPU at another TSC rate (plain TCG versus -icount) is another
    machine."""
    d = workdir("db_twice")
    db, logs, _ = store_lab(d, ("icount",))
    before, data = db_counts(db), read(db)
    rc, out = bench("store", logs[0], "--db", db)
    check(rc == 0 and re.search(r"already stored as run R1 'tools-icount' on machine M1 \(from .*\): "
                                r"not stored again", out), f"exit status {rc}: no 'already stored'", out)
    noisy = read(logs[0]).replace(b"\r\n", b"\n").replace(b'{"rec":"env"', b'\x1b[0m~{"rec":"env"')
    copy = write(d, "recaptured.log", b"\x1b[2J GNU GRUB noise\r\n" + noisy)
    rc, out = bench("store", copy, "--db", db, "--label", "again")
    check(rc == 0 and "already stored as run R1" in out, "a noisy capture of the run is not recognised", out)
    check(db_counts(db) == before and read(db) == data, f"the database changed: {db_counts(db)}")
    rc, out = bench("store", boot("tcg"), "--db", db)
    check(rc == 0 and "stored as run R2 'tools-tcg'" in out and "on a new machine M2" in out,
          "the same CPU at another TSC rate is not another machine", out)


def test_db_damaged_log_refused():
    """A truncated log and one with a corrupted record are refused with the
    line of the first problem and nothing of them is stored (the file
    unchanged byte for byte); the valid logs of the same command are."""
    d = workdir("db_refused")
    db, _, _ = store_lab(d, ("qemu64",))
    data, before = read(db), db_counts(db)
    lines = lines_of(boot("tcg"))
    keep = len(lines) // 2
    cut = write(d, "cut.log", "\n".join(lines[:keep]) + "\n")
    rc, out = bench("store", cut, "--db", db)
    check(rc == 1, f"exit status {rc}, expected 1", out)
    check(re.search(rf"store: .*cut\.log: REFUSED: the log is not valid: first problem at line {keep}: "
                    r"the log is cut short.*; nothing of it stored", out),
          f"no refusal naming line {keep}", out)
    check(read(db) == data, "the database file changed after a refused log")
    # A photo without a QR code, and a text that is not a bench1 code's:
    # recognised as such and refused.
    photo = write(d, "screen.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(64))
    qr = write(d, "qr.txt", "bench1 v=1 vendor=GenuineIntel\n")
    rc, out = bench("store", photo, qr, "--db", db)
    check(rc == 1 and re.search(r"screen\.jpg: REFUSED: .*screen\.jpg: no QR code found", out)
          and "qr.txt: REFUSED: no bench1 QR code in the photos or texts" in out
          and read(db) == data, "a photo without a code or a bad QR text is not refused", out)
    i = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"ensemble"'))
    bad = list(lines)
    bad[i] = bad[i][:len(bad[i]) // 2]     # the record's tail lost on the line
    broken = write(d, "broken.log", "\n".join(bad))
    rc, out = bench("store", broken, boot("icount"), "--db", db)
    check(rc == 1 and re.search(rf"broken\.log: REFUSED: .*first problem at line {i + 1}: corrupted record",
                                out) and "stored as run R2 'tools-icount'" in out,
          f"the corrupted record (line {i + 1}) refused and the good log stored", out)
    after = db_counts(db)
    check(after["runs"] == before["runs"] + 1 and
          not db_rows(db, "SELECT id FROM runs WHERE source LIKE '%broken.log' OR source LIKE '%cut.log'"),
          f"counts {before} -> {after}")


def test_db_store_is_one_transaction():
    """An error while writing a run (here: raised on the third series)
    leaves nothing of it: no machine, run or series row."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchdb
    import benchlog
    d = workdir("db_transaction")
    path = os.path.join(d, "lab.sqlite")
    conn = benchdb.connect(path, create=True)
    log = benchlog.load(boot("qemu64"))
    real, calls = benchdb.series_figures, []

    def failing(lg, s):
        calls.append(s)
        if len(calls) == 3:
            raise RuntimeError("injected failure")
        return real(lg, s)
    benchdb.series_figures = failing
    try:
        benchdb.store(conn, log, source="x.log")
        raise AssertionError("the injected failure did not reach the caller")
    except RuntimeError:
        pass
    finally:
        benchdb.series_figures = real
    conn.close()
    check(len(calls) == 3, f"series_figures called {len(calls)} times")
    check(set(db_counts(path).values()) == {0}, f"rows left after the failure: {db_counts(path)}")


def test_db_exact_u64_figures():
    """A figure beyond SQLite's signed 64 bits (the kernel's are unsigned
    64-bit) is stored and shown exactly."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchdb
    import benchlog
    d = workdir("db_u64")
    path = os.path.join(d, "lab.sqlite")
    log = benchlog.load(boot("qemu64"))
    big = 2 ** 64 - 1
    s = log.series[("cpuid", "empty", "tsc_ticks", None, None)]
    s.summary["var_of_vars"] = big
    conn = benchdb.connect(path, create=True)
    benchdb.store(conn, log, source="big.log")
    conn.close()
    rc, out = bench("table", "--db", path, "--figure", "var_of_vars", "--method", "cpuid")
    check(rc == 0, f"exit status {rc}", out)
    _, _, rows = parse_db_table(out)
    check(rows[("cpuid", "empty")] == [str(big)], f"cpuid/empty: {rows.get(('cpuid', 'empty'))}", out)


def test_db_every_output_level():
    """Runs stored from output=human, json, both and full (the same -icount
    run; compact ensemble records in json and both) give the same table; a
    human log has no medians: n/a, said why."""
    d = workdir("db_levels")
    db, _, out = store_lab(d, tuple(f"output-{lv}" for lv in OUTPUT_LEVELS))
    check(len(re.findall(r"on (?:a new|the known) machine M1", out)) == len(OUTPUT_LEVELS), "not one machine",
          out)
    rc, out = bench("table", "--db", db)
    _, _, rows = parse_db_table(out)
    check(rows and all(len(set(c)) == 1 and c[0].lstrip("-").isdigit() for c in rows.values()),
          f"the levels' nets differ: {rows}", out)
    rc, out = bench("table", "--db", db, "--figure", "median_of_medians")
    _, _, rows = parse_db_table(out)
    check(rows and all(c[0] == "n/a" and len(set(c[1:])) == 1 and c[1] != "n/a" for c in rows.values()) and
          "n/a: not in that run's log" in out, f"medians: {rows}", out)


def test_db_plot():
    d = workdir("db_plot")
    db, _, _ = store_lab(d)
    png = os.path.join(d, "lab.png")
    # Without matplotlib (an import that fails): a clear message, no file.
    fake = os.path.join(d, "nompl", "matplotlib")
    os.makedirs(fake)
    write(fake, "__init__.py", "raise ImportError('matplotlib hidden by the test')\n")
    p = subprocess.run([PY, BENCH, "plot", "--db", db, "-o", png], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=TOOL_TIMEOUT,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(fake)))
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 1 and "no figure written: matplotlib is not available" in out and
          "Traceback" not in out and not os.path.exists(png), "no clear message without matplotlib", out)
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        raise Skip(f"matplotlib is not available to {PY} (Debian: python3-matplotlib)")
    rc, out = bench("plot", "--db", db, "-o", png)
    check(rc == 0 and f"plot: {png}: net least minimum" in out, f"exit status {rc}", out)
    check_pngs(d, ["lab.png"], out)
    bars = int(re.search(r"(\d+) bars", out).group(1))
    want = sum(1 for p in LAB for k in summaries_of(boot(p)) if k[1] != "empty")
    check(bars == want, f"{bars} bars, expected one per run and non-empty series: {want}", out)
    rc, out = bench("plot", "--db", db, "--workload", "no_such")
    check(rc == 1 and "nothing to plot: no series in TSC ticks, workload no_such" in out,
          "an empty selection: no clear message", out)


# --- the QR code of the results (tools/bench.py qr, store; tools/benchqr.py) ------

_qr_shot = {}


def qr_shot():
    """(screendump PNG, serial log) of one BIOS run through GRUB on a 1024x768
    VESA framebuffer (tests/boot/screen.py's Machine, t_bootpaths' test ISO):
    the summary with the QR code of its results below it."""
    if _qr_shot:
        return _qr_shot["png"], _qr_shot["log"]
    if not shutil.which("zbarimg") or not shutil.which("grub-mkrescue"):
        raise Skip("zbarimg (zbar-tools) or grub-mkrescue (grub-common) is not installed")
    sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
    os.environ["BENCH_BUILD"] = BUILD
    from screen import HALTED, Machine  # noqa: E402
    from t_bootpaths import grub_test_iso  # noqa: E402
    iso = grub_test_iso("tools-qr", "\tmultiboot2 /boot/bench.elf ensembles=6 samples=300 warmup=50\n"
                                    "\tset gfxpayload=1024x768x32")
    with Machine("tools-qr", ["-cdrom", iso]) as m:
        m.wait_for(HALTED, m.serial_text, 240)
        m.wait_halted(60)
        m.framebuffer_text()
        text = m.serial_text()
    d = workdir("qr_shot")
    _qr_shot["png"] = shutil.copy(m.files + ".png", os.path.join(d, "screen.png"))
    _qr_shot["log"] = write(d, "serial.log", text)
    return _qr_shot["png"], _qr_shot["log"]


def test_qr_photo_report_matches_serial_log():
    """bench.py qr on a screendump: the report's statistics table holds, for
    every series the code carries, the serial log's figures (min of mins,
    net, and the empty window's variances), and is the serial report's
    table where the code carries a figure ('-' where it does not); the
    joined text (--text) read back gives the same report."""
    png, log = qr_shot()
    d = workdir("qr_report")
    txt = os.path.join(d, "code.txt")
    rc, out = bench("qr", png, "--text", txt)
    check(rc == 0 and "report: the QR code's text is valid" in out, f"exit status {rc}", out)
    rows = table_rows(out)
    rc, serial = bench("report", log, "--no-figures")
    srows = table_rows(serial)
    sums = records(log, "summary")
    check(rows and len(rows) == len([s for s in sums if s["unit"] == "tsc_ticks"]),
          f"{len(rows)} rows from the code, {len(sums)} summary records", out)
    for s in sums:
        cells = rows[(s["method"], s["workload"])]
        want = [str(s["min_of_mins"]), "-" if s["workload"] == "empty" else str(s["net_min"])]
        if s["workload"] == "empty":
            want += ["overflow" if s[k] is None else str(s[k])
                     for k in ("total_variance", "var_of_vars", "var_of_mins")]
        else:
            want += ["-", "-", "-"]
        check(cells[5:10] == want, f"{s['method']}/{s['workload']}: {cells[5:10]} from the code, the "
              f"summary record gives {want}", out)
        scells = srows[(s["method"], s["workload"])]
        check([c for c, q in zip(scells[2:], cells[2:]) if q != "-"] == [c for c in cells[2:] if c != "-"],
              f"{s['method']}/{s['workload']}: the code's row {cells} is not the serial report's {scells}", out)
    for v in records(log, "verdict"):
        state = "UNKNOWN" if not v["valid"] else "ergodic" if v["ergodic"] else "NOT ergodic"
        # a TCG run on a busy host may overflow the variance of variances: the
        # tools say so (benchlog.with_unit), never a number
        vv = "n/a (overflow)" if v["var_of_vars"] is None else f"{v['var_of_vars']} TSC ticks^4"
        check(f"  {v['method']}: {state}: variance of variances {vv} (limit "
              f"{v['max_var_of_vars']} TSC ticks^4)" in out, f"no verdict line for {v['method']}", out)
    final = [l for l in read(log).decode().splitlines() if l.startswith("bench: run complete")][-1]
    check(f"final line:     {final}" in out, "not the serial log's final line", out)
    rc, again = bench("qr", txt)
    check(rc == 0 and table_rows(again) == rows, "the code's text read back gives another table", again)


def test_qr_store_photo_and_text():
    """store accepts the screendump: the run is stored on the machine of the
    same run's serial log (the same identity), its net figures are the
    serial log's; the photo again, or its text, is the same run; a text
    whose other part is missing is refused with nothing stored."""
    png, log = qr_shot()
    d = workdir("qr_store")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", png, "--db", db)
    check(rc == 0 and "stored as run R1 'screen' (QR code photo)" in out and "a new machine M1" in out,
          "the photo is not stored", out)
    rc, out = bench("store", log, "--db", db)
    check(rc == 0 and "stored as run R2 'serial' (serial log)" in out and "the known machine M1" in out,
          "the serial log of the same run is not on the photo's machine", out)
    rc, out = bench("table", "--db", db, "--csv")
    rows = [l.split(",") for l in out.strip().split("\n")[1:]]
    check(rows and all(r[2] == r[3] for r in rows), "net figures differ between photo and serial log", out)
    rc, text = bench("qr", png, "--text", os.path.join(d, "code.txt"))
    rc, out = bench("store", png, os.path.join(d, "code.txt"), "--db", db)
    check(rc == 0 and out.count("already stored as run R1") == 1, "the photo and its text again: not "
          "recognised as run R1 (one run, its codes joined)", out)
    body = read(os.path.join(d, "code.txt")).decode()
    half = write(d, "half.txt", "bench1 1/2 0123abcd\n" + body)
    data = read(db)
    rc, out = bench("store", half, "--db", db)
    check(rc == 1 and "code 2/2 missing" in out and read(db) == data,
          "a code whose second part is missing is not refused", out)


# --- per-CPU runs (cpus=, issue 14) ------------------------------------------------------------

# The CPUs of the crafted logs: (cpu, APIC ID, core type, package, core, thread),
# a hybrid machine's two P-cores then two E-cores.
HYBRID = ((0, 0, "P-core", 0, 0, 0), (1, 2, "P-core", 0, 1, 0), (2, 8, "E-core", 0, 4, 0),
          (3, 9, "E-core", 0, 5, 0))


def _shift_line(line, d, cpu, apic):
    """One line of a CPU's run: records get "cpu" and "apic_id" after their
    kind; d TSC ticks are added to every minimum, maximum and median (and to
    the figures following from them) of a workload other than empty, so each
    CPU's net differs by d and every check of the log still holds."""
    if line.startswith('{"rec":'):
        r = json.loads(line)
        if d and r["rec"] == "ensemble":
            for k in ("min", "max", "median"):
                r[k] += d
            if "mean" in r:
                r["mean"] = round(r["mean"] + d, 3)
        if d and r["rec"] == "summary":
            for k in ("min_of_mins", "max_of_mins", "net_min", "median_of_medians"):
                if isinstance(r.get(k), int):
                    r[k] += d
        if d and r["rec"] == "samples":
            r["values"] = [v + d for v in r["values"]]
        kind = r.pop("rec")
        return json.dumps({"rec": kind, "cpu": cpu, "apic_id": apic, **r}, separators=(",", ":"))
    if d and line.startswith('{"e":['):
        e = json.loads(line)["e"]
        e[2], e[3], e[5] = e[2] + d, e[3] + d, e[5] + d
        return json.dumps({"e": e}, separators=(",", ":"))
    if d and line.startswith("loop_size:"):
        return re.sub(r"min time: (\d+)$", lambda m: f"min time: {int(m.group(1)) + d}", line)
    if d and re.match(r"summary \S+/\S+: ", line):
        return re.sub(r"least minimum (\d+) (.*?)minimums (\d+)\.\.(\d+) ", lambda g: (
            f"least minimum {int(g.group(1)) + d} {g.group(2)}minimums {int(g.group(3)) + d}.."
            f"{int(g.group(4)) + d} "), line)
    if d and re.match(r"result \S+/\S+: ", line):
        return re.sub(r": (-?\d+) (.+?) net \(least minimum (\d+) - ", lambda g: (
            f": {int(g.group(1)) + d} {g.group(2)} net (least minimum {int(g.group(3)) + d} - "), line)
    return line


def multi_cpu_log(name, cpus=HYBRID):
    """A log of per-CPU runs (cpus=all) made from a real one-CPU log: the
    env's cpus record, then the measurement part (from the first method to
    the end record, with the end-of-run tables) once per CPU, after its
    'cpus: measuring on CPU N' line and cpu_run record, CPU k's figures k
    TSC ticks above the real ones (workload empty unchanged); the end
    record's counts summed, cpus_measured. output=human prints no records
    but env and end (and samples): no cpus or cpu_run records there."""
    lines = read(boot(name)).decode().replace("\r", "").split("\n")
    recs = any(l.startswith('{"rec":"method"') or l.startswith('{"rec":"summary"') for l in lines)
    first = next(k for k, l in enumerate(lines) if l.startswith("method ") or
                 l.startswith('{"rec":"method"') or l.startswith('{"rec":"skip"'))
    end = next(k for k, l in enumerate(lines) if l.startswith('{"rec":"end"'))
    listed = [{"cpu": c, "apic_id": a, "online": True, "boot": c == cpus[0][0], "core_type": t,
               "package": p, "core": co, "thread": th} for c, a, t, p, co, th in cpus]
    out = lines[:first - 1] + [f"cpus: {len(cpus)} CPUs listed, selection all"]
    if recs:
        out.append(json.dumps({"rec": "cpus", "count": len(cpus), "selection": "all", "list": listed},
                              separators=(",", ":")))
    out += lines[first - 1:first]
    for d, (c, a, t, p, co, th) in enumerate(cpus):
        out.append(f"cpus: measuring on CPU {c} (APIC ID {a}, {t}, package {p} core {co} thread {th})")
        if recs:
            out.append(json.dumps({"rec": "cpu_run", "cpu": c, "apic_id": a, "core_type": t, "package": p,
                                   "core": co, "thread": th}, separators=(",", ":")))
        empty = True
        for l in lines[first:end]:
            m = re.match(r"^method \S+: .*; workload (\S+): ", l)
            if m:
                empty = m.group(1) == "empty"
            if l.startswith('{"rec":"method"'):
                empty = json.loads(l).get("workload") == "empty"
            out.append(_shift_line(l, 0 if empty else d, c, a))
    e = json.loads(lines[end])
    for k in ("methods_run", "methods_skipped", "ensemble_errors"):
        e[k] *= len(cpus)
    e["cpus_measured"] = len(cpus)
    return "\n".join(out + [json.dumps(e, separators=(",", ":"))] + lines[end + 1:])


def cpu_summaries(path):
    """{cpu: {(method, workload): summary record}} of a crafted log, read
    with plain json."""
    out = {}
    for s in records(path, "summary"):
        out.setdefault(s["cpu"], {})[(s["method"], s["workload"])] = s
    return out


def cpu_tables(out):
    """The report's per-CPU statistics tables: {heading: {(method, workload): cells}}."""
    tables, cur = {}, None
    for line in out.split("\n"):
        m = re.match(r"^  (CPU \d+ \(APIC ID .*\)):$", line)
        if m:
            cur = tables.setdefault(m.group(1), {})
        elif cur is not None and line.startswith("    ") and not line.startswith("     "):
            cells = line.split()
            if cells[0] not in ("method",):
                cur[(cells[0], cells[1])] = cells
        elif cur is not None and not line.strip():
            if tables and len(tables) >= 1 and not line.startswith("  CPU"):
                cur = None
    return tables


def side_by_side(out):
    """The side-by-side table: (header lines, {(method, workload): cells})."""
    lines = out.split("\n")
    i = next((k for k, l in enumerate(lines) if l.startswith("Net least minimum per CPU, side by side")),
             None)
    check(i is not None, "no side-by-side table of the CPUs", out)
    head, rows = [], {}
    for l in lines[i + 1:]:
        if not l.strip():
            break
        cells = l.split()
        if cells[0] == "method" or l.startswith("      "):
            head.append(l)
        else:
            rows[(cells[0], cells[1])] = cells[2:]
    return head, rows


def test_cpus_report_groups_per_cpu():
    """A four-CPU hybrid log (full records, dumps): valid; a statistics
    table per CPU under a heading with its APIC ID and core type, each row
    its CPU's summary record; the side-by-side table's cells the summary
    records' net_min per CPU, P-cores first, the least net of each kind and
    E/P; verdicts and the recommendation per CPU; the figures of CPU 0 only."""
    d = workdir("cpus_report")
    path = write(d, "cpus4.log", multi_cpu_log("icount"))
    rc, out = bench("report", path, "-o", os.path.join(d, "figs"))
    check(rc == 0 and "report: the log is valid (84 series of ensembles on 4 CPU(s)" in out,
          f"exit status {rc}: the four-CPU log is not valid", out)
    sums = cpu_summaries(path)
    check(sorted(sums) == [0, 1, 2, 3], f"the crafted log's CPUs: {sorted(sums)}")
    tables = cpu_tables(out)
    want_heads = [f"CPU {c} (APIC ID {a}, {t}, package {p}, core {co}, thread {th})"
                  for c, a, t, p, co, th in HYBRID]
    check(list(tables) == want_heads, f"per-CPU headings {list(tables)}, expected {want_heads}", out)
    for (c, *_), head in zip(HYBRID, want_heads):
        rows = tables[head]
        check(set(rows) == set(sums[c]), f"CPU {c}: rows {sorted(rows)}", out)
        for key, s in sums[c].items():
            cells = rows[key]
            want = [str(s["min_of_mins"]), "-" if key[1] == "empty" else str(s["net_min"])]
            check(cells[5:7] == want, f"CPU {c} {key}: cells {cells[5:7]}, the summary record says {want}",
                  out)
    head, rows = side_by_side(out)
    check(head[0].split()[2:] == ["CPU", "0", "CPU", "1", "CPU", "2", "CPU", "3", "least", "net", "least",
                                  "net", "E/P"] and head[2].split() == ["P-core", "P-core", "E-core", "E-core"],
          f"side-by-side header {head}", out)
    keys = {k for k in sums[0] if k[1] != "empty"}
    check(set(rows) == keys, f"side-by-side rows {sorted(rows)}", out)
    for key in keys:
        nets = [sums[c][key]["net_min"] for c, *_ in HYBRID]
        p, e = min(nets[:2]), min(nets[2:])
        want = [str(n) for n in nets] + [str(p), str(e), f"{e / p:.3g}" if p else rows[key][6]]
        check(rows[key] == want, f"{key}: side by side {rows[key]}, the summary records give {want}", out)
    for c, *_ in HYBRID:
        for v in records(path, "verdict"):
            if v["cpu"] == c:
                check(f"\n  CPU {c}: {v['method']}: ergodic" in out, f"no verdict of {v['method']} on CPU {c}", out)
        check(re.search(rf"\n  CPU {c} \(APIC ID \d+, [PE]-core.*\): method rdtscp: ", out),
              f"no recommendation for CPU {c}", out)
    if "Figures: none written" not in out:
        check(re.search(r"Figures \(\d+ PNG files\), of CPU 0 \(APIC ID 0, P-core.*\) only", out)
              and " on CPU 1:" not in out.split("Figures (")[1].split("\n\n")[0],
              "figures not limited to CPU 0, or not said", out)


def test_cpus_every_output_level():
    """The same four-CPU run at output=human (no records but env, end and
    samples: the CPUs from the 'cpus: measuring on' lines), json and both
    (compact records, which carry no cpu) gives the same side-by-side table."""
    d = workdir("cpus_levels")
    tables = {}
    for level in ("human", "json", "both", "summary"):
        path = write(d, f"{level}.log", multi_cpu_log(f"output-{level}"))
        rc, out = bench("report", path, "--no-figures")
        check(rc == 0 and "report: the log is valid" in out, f"output={level}: exit status {rc}", out)
        tables[level] = side_by_side(out)[1]
    sums = cpu_summaries(os.path.join(d, "both.log"))
    want = {k: [str(sums[c][k]["net_min"]) for c, *_ in HYBRID] for k in sums[0] if k[1] != "empty"}
    for level, rows in tables.items():
        got = {k: v[:4] for k, v in rows.items()}
        check(got == want, f"output={level}: side by side {got}, the records of output=both give {want}")


def test_cpus_damaged_log():
    """A four-CPU log damaged: each problem at its line, naming its CPU."""
    d = workdir("cpus_damaged")
    lines = multi_cpu_log("icount").split("\n")
    runs = [k for k, l in enumerate(lines) if l.startswith('{"rec":"cpu_run"')]
    # An ensemble record of CPU 2 lost: the gap at the next one's line.
    idx = [k for k in range(runs[2], runs[3]) if lines[k].startswith('{"rec":"ensemble"')]
    gone = json.loads(lines[idx[5]])
    bad = lines[:idx[5]] + lines[idx[5] + 1:]
    rc, out = bench("report", write(d, "gap.log", "\n".join(bad)), "--no-figures")
    check(rc == 1 and f"line {idx[6]}: {gone['method']}/{gone['workload']} on CPU 2: ensemble "
                      f"{gone['ensemble'] + 1} follows ensemble {gone['ensemble'] - 1}: ensemble "
                      f"{gone['ensemble']} missing" in out, "the gap on CPU 2 is not reported at its line", out)
    # A record of CPU 3 inside CPU 1's run.
    k = next(k for k in range(runs[1], runs[2]) if lines[k].startswith('{"rec":"summary"'))
    bad = list(lines)
    bad[k] = bad[k].replace('"cpu":1,"apic_id":2,', '"cpu":3,"apic_id":9,')
    rc, out = bench("report", write(d, "moved.log", "\n".join(bad)), "--no-figures")
    check(rc == 1 and f"line {k + 1}: a summary record of CPU 3 inside the run of CPU 1 (which starts at "
                      f"line {runs[1] + 1})" in out, "a record of another CPU is not reported", out)
    # A wrong APIC ID, and a record without cpu inside a CPU's run.
    bad = list(lines)
    bad[k] = bad[k].replace('"cpu":1,"apic_id":2,', '"cpu":1,"apic_id":3,')
    j = next(j for j in range(runs[3], len(lines)) if lines[j].startswith('{"rec":"method"'))
    bad[j] = bad[j].replace('"cpu":3,"apic_id":9,', "")
    rc, out = bench("report", write(d, "apic.log", "\n".join(bad)), "--no-figures")
    check(rc == 1 and f"line {k + 1}: a summary record of CPU 1 with APIC ID 3, the start of its run (line "
                      f"{runs[1] + 1}) says APIC ID 2" in out and
          f"line {j + 1}: a method record without \"cpu\" inside the run of CPU 3" in out,
          "a wrong APIC ID or a record without cpu is not reported", out)
    # CPU 3's skip of a method lost; the end record counting one CPU's methods.
    s = next(s for s in range(runs[3], len(lines)) if lines[s].startswith('{"rec":"skip"'))
    end = next(e for e in range(len(lines)) if lines[e].startswith('{"rec":"end"'))
    rec = json.loads(lines[end])
    bad = list(lines)
    bad[end] = bad[end].replace(f'"methods_run":{rec["methods_run"]},',
                                f'"methods_run":{rec["methods_run"] // 4},')
    bad[s] = ""
    rc, out = bench("report", write(d, "counts.log", "\n".join(bad)), "--no-figures")
    method = json.loads(lines[s])["method"]
    check(rc == 1 and f"line {end + 1}: the end record says methods_run={rec['methods_run'] // 4}, the "
                      f"records give {rec['methods_run']}" in out and
          f"the end record says methods_skipped={rec['methods_skipped']}, the records give "
          f"{rec['methods_skipped'] - 1}" in out and
          f"method {method} was selected (config record, line" in out and "skipped on CPU 3" in out,
          "the per-CPU counts are not checked against the end record", out)
    # A single-CPU run's log still has no cpu anywhere and is valid (cpus=boot).
    rc, out = bench("report", boot("icount"), "--no-figures")
    check(rc == 0 and " on CPU " not in out and "per CPU" not in out, "a cpus=boot log reads as per-CPU", out)


def test_cpus_compare():
    """compare: two four-CPU runs: series matched per (cpu, method,
    workload), each ratio from the records; a one-CPU run against a
    four-CPU one: the CPU sets differ, said, the one CPU matched with the
    boot CPU; a two-CPU run: the other CPUs' series only in one."""
    d = workdir("cpus_compare")
    a = write(d, "a.log", multi_cpu_log("icount"))
    b = write(d, "b.log", multi_cpu_log("output-full"))
    rc, out = bench("compare", a, b)
    check(rc == 0 and "DIFFERENT CPUs" not in out, f"exit status {rc}, or the same CPUs said to differ", out)
    sa, sb = cpu_summaries(a), cpu_summaries(b)
    for c in sa:
        for (m, w), s in sa[c].items():
            x, y = s["min_of_mins"], sb[c][(m, w)]["min_of_mins"]
            label = "offset \\(min of mins\\)" if w == "empty" else "min of mins"
            sec = out.split(f"\n{m}/{w} on CPU {c} (A: ")
            check(len(sec) == 2 and re.search(rf"\n  {label} +{x} TSC ticks +{y} TSC ticks +"
                                              rf"{re.escape(f'{y / x:.3g}')}\n", sec[1].split("\n\n")[0]),
                  f"{m}/{w} on CPU {c}: no section with {x} and {y}", out)
    rc, out = bench("compare", boot("icount"), b)
    check(rc == 0 and "CPUs: the two runs measured DIFFERENT CPUs:" in out and
          "A: the boot CPU only (no per-CPU runs)" in out and
          "A's series (its boot CPU's) are compared with B's boot CPU, CPU 0" in out and
          re.search(r"\ncpuid/add_chain_64 on CPU 0 \(A: 20 ensembles", out) and
          re.search(r"\nOnly in B: .*cpuid/add_chain_64 on CPU 3", out) and
          # the kernel's cpus record (every run) says what it listed first
          re.search(r"  CPUs +(?:\d+ listed \(cpus=boot\), )?the boot CPU measured \(no per-CPU runs\) +"
                    r"\d+ listed .*4 measured.* +DIFFERS", out),
          "one CPU against four: not said or not matched with the boot CPU", out)
    two = write(d, "two.log", multi_cpu_log("output-full", HYBRID[:2]))
    rc, out = bench("compare", two, b)
    check(rc == 0 and "DIFFERENT CPUs" in out and re.search(r"\ncpuid/vaddb on CPU 1 \(A: ", out) and
          re.search(r"\nOnly in B: .*cpuid/vaddb on CPU 2", out) and "\nOnly in A:" not in out,
          "two CPUs against four: not said", out)


def test_cpus_store_table():
    """store keeps each series' CPU; table: a column per (run, CPU), each
    cell the summary record's net_min; a run of the boot CPU only is one
    column, 'boot CPU'; --csv names the CPU."""
    d = workdir("cpus_db")
    db = os.path.join(d, "lab.sqlite")
    path = write(d, "cpus4.log", multi_cpu_log("icount"))
    rc, out = bench("store", boot("icount"), path, "--db", db)
    check(rc == 0 and "stored as run R2 'cpus4' (serial log), 84 series" in out, f"store: exit status {rc}", out)
    sums = cpu_summaries(path)
    got = db_rows(db, "SELECT s.cpu, s.method, s.workload, su.net FROM series s JOIN summaries su ON "
                      "su.series_id = s.id WHERE s.run_id = 2")
    want = sorted((c, m, w, s["net_min"]) for c in sums for (m, w), s in sums[c].items())
    check(sorted(got) == want, f"stored series {sorted(got)[:4]}..., the records {want[:4]}...")
    check(db_rows(db, "SELECT COUNT(*) FROM series WHERE run_id = 1 AND cpu IS NOT NULL")[0][0] == 0,
          "the cpus=boot run's series have a cpu")
    rc, out = bench("table", "--db", db)
    check(rc == 0, f"table: exit status {rc}", out)
    names, header, rows = parse_db_table(out)
    rows = {k: v for k, v in rows.items() if k != ("boot", "CPU")}   # the CPU header line
    lines = out.split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("  method  workload"))
    check(lines[i + 2].split() == ["boot", "CPU", "CPU", "0", "CPU", "1", "CPU", "2", "CPU", "3"],
          f"CPU header line {lines[i + 2]!r}", out)
    one = summaries_of(boot("icount"))
    for key, cells in rows.items():
        want = [str(one[key]["net_min"])] + [str(sums[c][key]["net_min"]) for c in range(4)]
        check(cells == want, f"{key}: cells {cells}, the records give {want}", out)
    rc, out = bench("table", "--db", db, "--csv", "--method", "cr0")
    check(rc == 0 and out.split("\n")[0].endswith(",R2 cpus4 (M1) CPU 3 [TSC ticks]"), "CSV header", out)


TESTS = [v for k, v in list(globals().items()) if k.startswith("test_") and callable(v)]


def main(argv):
    if not os.path.exists(KERNEL):
        print(f"tools: {KERNEL} is missing: run 'make kernel' (BUILD={BUILD}) first")
        return 2
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        print(f"tools: WARNING: matplotlib is not available to {PY}: the figure checks will fail "
              "(Debian: apt-get install python3-matplotlib, and run this with /usr/bin/python3)")
    selected = [t for t in TESTS if not argv or any(a in t.__name__ for a in argv)]
    return run_all("tools", [(t.__name__[len("test_"):], t) for t in selected], Skip, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/tools/t_memclock.py - memory, caches and clocks in the host tools
(issue 31 items 5 and 6): tools/benchlog knows the settings and the seven
records (tools/benchlog/memclock.py) and catches a forged figure per load,
a forged "taken", a wrong guard page, levels that are not the points';
report has a section for the settings and one for the memory hierarchy;
the lab database (schema 5, tools/benchdbmem.py) keeps every setting and
the latency points and levels, and upgrades a schema-4 database; compare
and table say which settings differ; plot --latency draws the curve.
The logs are tests/tools/memlogs.py's (the code= run with the records
written by hand after the contracts of docs/RECORDS.md).
"""
import os
import re
import subprocess
import zlib

import memlogs
from common import PNG_SIGNATURE, PY, Skip, bench, boot, check, db_rows, old_store, read, unwrapped, workdir


def _problems(path):
    rc, out = bench("report", path, "--no-figures")
    return rc, out


def test_memclock_report_sections():
    """A log with every record is valid; report shows the settings asked for
    and in effect, and the memory hierarchy: a row per size with its figure
    per load, each level, CPUID's caches."""
    d = workdir("memclock_report")
    rc, out = _problems(memlogs.mem_log(d))
    check(rc == 0 and "report: the log is valid" in out, f"exit status {rc}: the log is not valid", out)
    check("Memory, caches and clocks (asked for, then what took effect):" in out, "no settings section", out)
    check("  asked for: mem=1M mem.pages=auto mem.type=wb regs=default cache=warm prefetch=keep turbo=keep "
          "pstate=keep sweep=latency" in out, "the settings asked for", out)
    check("  memory area R14: 1 MiB at 0x800000, 4 KiB pages, wb, guard page at 0x900000" in out, "no area line", out)
    check(re.search(r"prefetcher L2 hardware prefetcher: not taken \(wanted keep; MSR 0x1a4 bit 0; before 0x0, "
                    r"written 0x1, read 0x0\)", out), "no prefetcher line", out)
    check("clock setting turbo: MSR 0x1a0 before 0x850089, written 0x4000850089, read 0x850089: not taken" in out,
          "no clock line", out)
    check("core clock: 2.90 GHz before, not measured again (nothing written)" in out, "no core clock line", out)
    check("The memory hierarchy (sweep=latency: a pointer chase, 2N-N per load), in TSC ticks per load:" in out,
          "no memory hierarchy section", out)
    for b in memlogs.SIZES:
        check(re.search(rf"\n  \S+ \S+ +{b} +{memlogs.LOADS} +{memlogs.latency_of(b)}\.000 exactly\n", out),
              f"no row of {b} bytes", out)
    for name, cpuid, lat in (("L1d", "32 KiB", 5), ("L2", "512 KiB", 15), ("L3", "8 MiB", 50),
                             ("DRAM", "not listed by CPUID", 200)):
        check(re.search(rf"  level {name} {cpuid} \([^)]*\): {lat}\.000 TSC ticks per load, {lat}\.0\d\d ns", out),
              f"no level line of {name}", out)
    check("CPUID's caches: L1 data 32 KiB, L2 unified 512 KiB, L3 unified 8 MiB" in out, "no CPUID caches", out)


def _forged(d, name, edit, want):
    path = memlogs.mem_log(d, name, edit=edit)
    rc, out = _problems(path)
    check(rc == 1 and "the log is NOT valid" in out, f"{name}: exit status {rc}, the forged log passed", out)
    check(re.search(want, out), f"{name}: no problem matching {want!r}", out)
    return path


def test_memclock_forged_records():
    """Forged records are problems at their line: a figure per load that its
    least minimums do not give, a clock MSR or prefetcher said taken where
    the value read back is not the value written, a guard page that is not
    after the area, a level edge no point has, a config line saying other
    than the config record; store refuses such a log."""
    d = workdir("memclock_forged")

    def fig(r):
        r["latency"][4]["per_copy"] = "14.000"
    path = _forged(d, "figure.log", fig, r"line \d+: latency_point of 64 KiB in tsc_ticks disagrees with its least "
                                         r"minimums .*per_copy '14\.000', recomputed '15\.000'")

    def taken(r):
        r["settings"][3].update(taken=True, why=None)
    _forged(d, "taken.log", taken, r"clock_setting turbo \(MSR 0x1a0\): taken, but read back 0x850089 where "
                                   r"0x4000850089 was written")

    def prefetch(r):
        r["settings"][2].update(state="off", wanted="off", why=None)
        r["config"][0]["prefetch"] = "off"
    _forged(d, "prefetch.log", prefetch, r"prefetch L2 hardware prefetcher: state off \(taken\) but read back 0x0 "
                                         r"where 0x1 was written")

    def guard(r):
        r["settings"][0]["guard"] = "0x901000"
    _forged(d, "guard.log", guard, r"mem_area R14: guard 0x901000 is not phys \+ bytes")

    def edge(r):
        r["latency"][-1]["levels"][1]["edge_bytes"] = 600000
    _forged(d, "edge.log", edge, r"latency_levels in tsc_ticks: L2's edge 600000 bytes is no latency_point's size")

    def line(r):
        r["config"][0] = dict(r["config"][0])
    p = memlogs.mem_log(d, "line.log", edit=line)
    text = read(p).decode().replace("turbo=keep pstate", "turbo=off pstate")
    with open(p, "w") as f:
        f.write(text)
    rc, out = _problems(p)
    check(rc == 1 and re.search(r"the line 'config: memory and clocks:' says turbo=off, the config record "
                                r"\(line \d+\) keep", out), f"line.log: exit status {rc}", out)
    rc, out = bench("store", path, "--db", os.path.join(d, "lab.sqlite"))
    check(rc == 1 and "REFUSED" in out and "latency_point of 64 KiB" in out, f"store of a forged log: {rc}", out)


def test_memclock_database_and_table():
    """store keeps every setting (asked for and in effect), the core clock,
    the points and levels (schema 5); table lists the settings alike once
    and those that differ per run."""
    d = workdir("memclock_db")
    db = os.path.join(d, "lab.sqlite")
    a = memlogs.mem_log(d, "a.log", tag="memclock-a")
    b = memlogs.mem_log(d, "b.log", settings={"turbo": "off", "mem_pages": "1g", "mem_bytes": 1 << 30},
                        tag="memclock-b")
    rc, out = bench("store", a, b, "--db", db)
    check(rc == 0 and "store: 2 stored" in out, f"store: exit status {rc}", out)
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "the database is not at schema version 6")
    got = dict(db_rows(db, "SELECT name, value FROM settings WHERE run_id = 2"))
    want = {"mem": "1G", "mem.pages": "1g", "turbo": "off", "sweep": "latency", "area R14": "1 GiB, 1 GiB pages, wb",
            "prefetcher l2_hw": "not taken", "clock turbo": "not taken", "cache instruction": "none"}
    for k, v in want.items():
        check(got.get(k) == v, f"settings of R2: {k} is {got.get(k)!r}, expected {v!r} ({got})")
    kinds = dict(db_rows(db, "SELECT name, kind FROM settings WHERE run_id = 1"))
    check(kinds.get("turbo") == "asked" and kinds.get("clock turbo") == "effect", f"setting kinds {kinds}")
    pts = db_rows(db, "SELECT bytes, per_copy, status FROM latency_points WHERE run_id = 1 ORDER BY bytes")
    check(len(pts) == len(memlogs.SIZES) and pts[4] == (65536, "15.000", "exact"), f"latency points {pts}")
    lvs = db_rows(db, "SELECT name, cpuid_bytes, edge_bytes, per_load FROM latency_levels WHERE run_id = 1")
    check(lvs[:2] == [("L1d", 32768, 32768, "5.000"), ("L2", 524288, 524288, "15.000")] and len(lvs) == 4,
          f"latency levels {lvs}")
    clk = db_rows(db, "SELECT before_hz, after_hz, source FROM core_clocks WHERE run_id = 1")
    check(clk == [(2900000000, None, "aperf_mperf")], f"core clock {clk}")
    rc, out = bench("table", "--db", db)
    check(rc == 0 and "Settings (memory, caches and clocks" in out, f"table: exit status {rc}, no settings", out)
    check(re.search(r"\n  turbo DIFFERS: R1 keep; R2 off\n", out) and
          re.search(r"\n  mem\.pages DIFFERS: R1 auto; R2 1g\n", out), "the differing settings per run", out)
    check(re.search(r"\n  the same in every run: .*regs default, cache warm, prefetch keep", out),
          "the settings alike once", out)
    rc, out = bench("table", "--db", db, "--figure", "latency")
    check(rc == 0 and re.search(r"\n  64 KiB +65536 +15\.000 exactly +15\.000 exactly\n", out) and
          re.search(r"\n  R2 levels: L1d 32 KiB: 5\.000 \(5\.0\d\d ns\); L2 512 KiB: 15\.000", out) and
          "turbo DIFFERS: R1 keep; R2 off" in out, f"table --figure latency: exit status {rc}", out)
    rc, out = bench("table", "--db", db, "--figure", "latency", "--unit", "core_cycles")
    check(rc == 1 and "no latency points stored in core cycles" in out, f"no points in core cycles: {rc}", out)


def test_memclock_schema_4_database_upgraded():
    """A lab database of tools/benchdb.py at commit 6c90f11 (schema 4, before
    the settings were kept) opens upgraded to schema 5: its run kept without
    settings, which table says rather than take the defaults; a run stored
    after it has its settings and latency points."""
    d = workdir("memclock_schema4")
    db, version = old_store("6c90f11", d, boot("code"))
    check(version == 4, f"commit 6c90f11's schema version {version}, expected 4")
    rc, out = bench("store", memlogs.mem_log(d, tag="memclock-schema4"), "--db", db)
    check(rc == 0 and "store: 1 stored" in out, f"store into the schema-4 database: exit status {rc}", out)
    check(db_rows(db, "PRAGMA user_version")[0][0] == 6, "the database is not at schema version 6")
    check(db_rows(db, "SELECT COUNT(*) FROM settings WHERE run_id = 1")[0][0] == 0 and
          db_rows(db, "SELECT COUNT(*) FROM latency_points WHERE run_id = 2")[0][0] == len(memlogs.SIZES),
          "the old run has settings, or the new one no latency points")
    rc, out = bench("table", "--db", db)
    check(rc == 0 and "R1: no settings stored" in out and "not comparable with the others' settings" in out,
          f"table: exit status {rc}: the run without settings not said", out)


def test_memclock_compare_settings_differ():
    """compare names each setting that differs ('turbo keep -> off',
    'mem.pages auto -> 1g') and says when a log has none; the same settings
    are said the same."""
    d = workdir("memclock_compare")
    a = memlogs.mem_log(d, "a.log")
    b = memlogs.mem_log(d, "b.log", settings={"turbo": "off", "mem_pages": "1g", "mem_bytes": 1 << 30})
    rc, out = bench("compare", a, b)
    out = unwrapped(out)
    check(rc == 0, f"compare: exit status {rc}", out)
    m = re.search(r"\n  settings differ: (.*)\n", out)
    check(m and "turbo keep -> off" in m.group(1) and "mem.pages auto -> 1g" in m.group(1) and
          "mem 1M -> 1G" in m.group(1), "the settings that differ", out)
    check("settings: the same" not in out, "said the same", out)
    rc, out = bench("compare", a, memlogs.mem_log(d, "c.log"))
    out = unwrapped(out)
    check(rc == 0 and "settings: the same in both runs (mem 1M, mem.pages auto" in out, "the same settings", out)
    rc, out = bench("compare", boot("code"), a)
    out = unwrapped(out)
    check(re.search(r"settings: A's log has none \(a kernel before them\)", out) or
          re.search(r"settings differ: .*\(not in A\)", out), "a log without settings compared silently", out)


def _png_text(path):
    """{keyword: text} of a PNG's tEXt chunks."""
    data, out, i = read(path), {}, 8
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"tEXt":
            k, _, v = body.partition(b"\0")
            out[k.decode("latin-1")] = v.decode("latin-1")
        elif kind == b"zTXt":
            k, _, v = body.partition(b"\0")
            out[k.decode("latin-1")] = zlib.decompress(v[1:]).decode("latin-1")
        elif kind == b"iTXt":
            k, _, rest = body.partition(b"\0")
            rest = rest[2:]
            _, _, rest = rest.partition(b"\0")
            _, _, rest = rest.partition(b"\0")
            out[k.decode("latin-1")] = rest.decode("utf-8")
        i += 12 + n
    return out


def test_memclock_plot_latency():
    """plot --latency LOG draws the curve: a PNG whose axes (read back from
    its Description) are the size on a log scale and the latency per load in
    TSC ticks, with CPUID's three cache sizes as lines and the four levels
    annotated; a log without points writes nothing and says why; report
    draws it among its figures."""
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        raise Skip(f"matplotlib is not available to {PY}")
    d = workdir("memclock_plot")
    log = memlogs.mem_log(d)
    png = os.path.join(d, "curve.png")
    rc, out = bench("plot", "--latency", log, "-o", png)
    check(rc == 0 and "15 points, 3 CPUID cache sizes marked, 4 levels annotated" in out, f"plot: exit status {rc}",
          out)
    data = read(png)
    check(data.startswith(PNG_SIGNATURE) and len(data) > 1000, f"{png}: not a PNG")
    desc = _png_text(png).get("Description", "")
    for want in ("unit=tsc_ticks", "xscale=log", "xlabel=area size [bytes], log scale",
                 "ylabel=latency per load [TSC ticks]", "points=15", "cpuid_lines=32768,524288,8388608",
                 "L1d: 5.000", "L2: 15.000", "L3: 50.000", "DRAM: 200.000"):
        check(want in desc, f"the figure's Description lacks {want!r}: {desc}")
    rc, out = bench("plot", "--latency", boot("code"), "-o", os.path.join(d, "none.png"))
    check(rc == 1 and "no figure written: no latency point" in out and not os.path.exists(os.path.join(d, "none.png")),
          f"a log without points: exit status {rc}", out)
    rc, out = bench("report", log, "-o", os.path.join(d, "report"))
    check(rc == 0 and os.path.exists(os.path.join(d, "report", "latency.png")) and "the latency curve" in out,
          f"report: exit status {rc}, no latency.png", out)


def test_memclock_guard_fault_log_valid():
    """A run whose code= loads one byte past mem='s area (the guard page's
    #PF, issue 31 item 1) has a method record without ensembles where it
    faulted and a code_fault record saying so: the log is valid and store
    keeps it (failed before: 'cpuid/mix.2n: a method record but no
    ensemble records', store refused the log)."""
    d = workdir("memclock_fault")
    lines = read(memlogs.mem_log(d)).decode().split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith('{"rec":"method"') and '"workload":"mix.2n"' in ln)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("method "))
    fault = ('{"rec":"code_fault","method":"cpuid","workload":"mix.2n","vector":14,"name":"#PF","error_code":0,'
             '"cr2":9437184,"part":"code","offset":0,"copy":11,"after":false,"loop_offset":268,"jump_copy":null,'
             '"jump_byte":null,"jump_lands":null,"halt":null}')
    lines[start + 1:end] = ["code cpuid/mix.2n: FAULT #PF page fault (vector 14, error code 0x0, CR2=0x900000) at byte 0 "
                            "of code= (copy 11 of 20); this workload is skipped for method cpuid, the run goes on",
                            fault, ""]
    path = os.path.join(d, "fault.log")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    rc, out = _problems(path)
    check(rc == 0 and "no ensemble records" not in out, f"report: exit status {rc}: the fault log not valid", out)
    rc, out = bench("store", path, "--db", os.path.join(d, "lab.sqlite"))
    check(rc == 0 and "store: 1 stored" in out, f"store: exit status {rc}", out)


def test_memclock_settings_of_an_output_human_log():
    """An output=human log has no config record: its settings come from the
    line 'config: memory and clocks: ...', so compare finds them the same as
    the output=json run's record (failed before: no settings line)."""
    rc, out = bench("compare", boot("output-human"), boot("output-json"))
    out = unwrapped(out)
    check(rc == 0 and "settings: the same in both runs (mem 1M, mem.pages auto, mem.type wb, regs default, cache "
          "warm, prefetch keep, turbo keep, pstate keep, sweep off" in out, f"compare: exit status {rc}", out)

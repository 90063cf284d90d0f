"""tests/tools/t_cpus.py - per-CPU runs (cpus=, issue 14), on logs of a hybrid
machine's four CPUs made from real one-CPU logs (multi_cpu_log): report per
CPU and side by side, every output= level, damage reported naming its CPU,
compare per CPU, store and table with a column per CPU.
"""
import json
import os
import re

from common import (bench, boot, check, db_rows, parse_db_table, read, records, summaries_of,
                    another_run, unwrapped, workdir, write)


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
    lines = another_run(read(boot(name)).decode().replace("\r", ""), f"{name} {cpus}").split("\n")
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
          re.search(r"\nOnly in B: .*cpuid/add_chain_64 on CPU 3", unwrapped(out)) and
          # the kernel's cpus record (every run) says what it listed first
          re.search(r"\n  CPUs +DIFFERS:\n +A: (?:\d+ listed \(cpus=boot\), )?the boot CPU measured "
                    r"\(no per-CPU runs\)\n +B: \d+ listed .*4 measured", out),
          "one CPU against four: not said or not matched with the boot CPU", out)
    two = write(d, "two.log", multi_cpu_log("output-full", HYBRID[:2]))
    rc, out = bench("compare", two, b)
    check(rc == 0 and "DIFFERENT CPUs" in out and re.search(r"\ncpuid/vaddb on CPU 1 \(A: ", out) and
          re.search(r"\nOnly in B: .*cpuid/vaddb on CPU 2", unwrapped(out)) and "\nOnly in A:" not in out,
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
    rows = {k: v for k, v in rows.items() if k != ("boot CPU", "CPU 0")}   # the CPU header line
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

"""tests/boot/t_cpus.py - cpus= (issue "Real machines", item 4;
bench/percpu.c, lib/cpus.c): every CPU listed with its APIC ID and its
package/core/thread, the selected CPUs measured in turn, one at a time,
each with its own quieting, PMU check and complete summaries, every record
of a CPU's run carrying "cpu" and "apic_id"; a side-by-side table per
workload; the default (cpus=boot) unchanged but for the CPU list; bad
values one line each. Under -icount every CPU's figures are exact."""
import os
import sys

from qemu import ROOT, check, expect_complete, qemu
sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402
from screen import HALTED, Machine
from t_bootpaths import expect_complete_halted

SMALL = "ensembles=3 samples=100 warmup=0 methods=cpuid,rdtscp workloads=add_chain_64,measured_function"
NETS = {"add_chain_64": 64, "measured_function": 1}  # instructions, exact under -icount
OFFSETS = {"cpuid": 5, "rdtscp": 3}


def run_cpus(name, smp, args, machine="icount"):
    rc, text = qemu(name, machine, f"{SMALL} {args}", smp=smp)
    return expect_complete(rc, text)


def measured_records(run):
    """The records of each CPU's run, by CPU number: every record between a
    cpu_run record and the next (or the side-by-side table), which must
    all carry that CPU's "cpu" and "apic_id"."""
    out, cur = {}, None
    for r in run.recs:
        if r.get("rec") == "cpu_run":
            cur = r
            out[r["cpu"]] = []
            continue
        if r.get("rec") in ("cpu_compare", "end"):
            cur = None
        # compact ensemble records ({"e":[...]}, read here as "ensemble"
        # records) belong to the method record before them: no cpu of their own
        if cur is not None and "rec" in r and not (r["rec"] == "ensemble" and "cpu" not in r):
            check(r.get("cpu") == cur["cpu"] and r.get("apic_id") == cur["apic_id"],
                  f"a {r.get('rec')} record of CPU {cur['cpu']}'s run without its cpu/apic_id: {r}", run.text)
            out[cur["cpu"]].append(r)
    return out


def expect_exact(run, recs, cpu):
    """One CPU's run: both methods ergodic with the icount offsets, each
    workload's net exact, its own pmu and quiet records."""
    text = run.text
    kinds = {r["rec"] for r in recs}
    check({"quiet", "pmu", "method", "summary", "verdict", "recommendation"} <= kinds,
          f"CPU {cpu}: records {sorted(kinds)}", text)
    for r in recs:
        if r["rec"] == "summary" and r["unit"] == "tsc_ticks":
            if r["workload"] == "empty":
                check(r["min_of_mins"] == OFFSETS[r["method"]], f"CPU {cpu}: offset {r}", text)
            else:
                check(r["net_min"] == NETS[r["workload"]], f"CPU {cpu}: net {r}", text)
    sums = [r for r in recs if r["rec"] == "summary"]
    check(len(sums) == 6, f"CPU {cpu}: {len(sums)} summary records, expected 2 methods x 3 workloads", text)


def test_cpus_all_smp4_icount():
    """-smp 4, cpus=all: four CPUs measured in turn, APIC IDs 0-3, each
    with complete, exact summaries; the side-by-side records; the end
    record and the final line count the four runs."""
    run = run_cpus("cpus-all", "4", "cpus=all")
    text = run.text
    lst = run.one("cpus")
    check(lst["count"] == 4 and lst["online"] == 4 and [c["apic_id"] for c in lst["list"]] == [0, 1, 2, 3]
          and [c["core"] for c in lst["list"]] == [0, 1, 2, 3] and lst["list"][0]["boot"], f"cpus {lst}", text)
    runs = run.by("cpu_run")
    check([(r["cpu"], r["apic_id"]) for r in runs] == [(0, 0), (1, 1), (2, 2), (3, 3)], f"cpu_run {runs}", text)
    per = measured_records(run)
    for cpu in range(4):
        expect_exact(run, per[cpu], cpu)
        check(run.has_line(f"cpus: measuring on CPU {cpu} (APIC ID {cpu}"), f"no line for CPU {cpu}", text)
    cmp = run.by("cpu_compare")
    check(sorted(c["workload"] for c in cmp) == ["add_chain_64", "measured_function"] and
          all(c["cpus"] == [0, 1, 2, 3] and c["net"] == [NETS[c["workload"]]] * 4 for c in cmp),
          f"cpu_compare {cmp}", text)
    end = run.one("end")
    check(end["cpus_measured"] == 4 and end["methods_run"] == 8, f"end {end}", text)
    check(run.final_line().endswith(", on 4 CPUs (exit code 0x10)"), f"final line {run.final_line()}", text)
    log = benchlog.parse(text)  # the host tools read it per CPU
    check(log.valid and sorted({k[4] for k in log.series}) == [0, 1, 2, 3] and len(log.series) == 24,
          f"benchlog: valid {log.valid}, {log.problems[:3]}, series {len(log.series)}", text)
    check(run.one("cpus")["selection"] == "all", "the cpus record's selection", text)
    est, printed = run.one("serial_estimate"), len(text.encode())
    check(est["series"] == 24 and abs(est["bytes"] - printed) <= printed // 4,
          f"the serial estimate for 4 CPUs: {est}, printed {printed} bytes", text)


def test_cpus_default_unchanged_but_the_list():
    """-smp 4 with the default cpus=boot: the APs are not started, the CPU
    list is printed (the others 'not started'), no record carries "cpu",
    and the measurement records equal a -smp 1 run's (icount)."""
    four = run_cpus("cpus-default-4", "4", "")
    one = run_cpus("cpus-default-1", "1", "")
    text = four.text
    check(not four.by("cpu_run") and not four.by("smp") and not four.has_line("smp: "),
          "the APs were started, or a per-CPU run, with cpus=boot", text)
    check(not any("cpu" in r for r in four.recs if r.get("rec") not in ("cpus",)),
          "a record carries cpu with cpus=boot", text)
    lst = four.one("cpus")
    check(lst["count"] == 4 and lst["online"] == 1 and
          four.has_line("cpus: CPU 3: APIC ID 3, package 0 core 3 thread 0, core type not read (not started)"),
          f"the CPU list: {lst}", text)
    for kind in ("method", "summary", "verdict", "recommendation"):
        a = [{k: v for k, v in r.items() if k != "elapsed_ticks"} for r in four.by(kind)]
        b = [{k: v for k, v in r.items() if k != "elapsed_ticks"} for r in one.by(kind)]
        check(a and a == b, f"{kind} records differ between -smp 4 and -smp 1", text)
    check(four.final_line() == one.final_line(), f"final lines {four.final_line()!r} {one.final_line()!r}", text)


def test_cpus_two_sockets():
    """-smp 2,sockets=2, cpus=all: two CPUs in two packages."""
    run = run_cpus("cpus-sockets", "2,sockets=2", "cpus=all")
    lst = run.one("cpus")
    check([(c["package"], c["core"], c["thread"]) for c in lst["list"]] == [(0, 0, 0), (1, 0, 0)],
          f"topology {lst}", run.text)
    check([r["cpu"] for r in run.by("cpu_run")] == [0, 1], "not CPUs 0 and 1 measured", run.text)
    per = measured_records(run)
    for cpu in (0, 1):
        expect_exact(run, per[cpu], cpu)


def test_cpus_one_per_core_threads():
    """-smp 4,threads=2, cpus=one-per-core: the first thread of each core,
    CPUs 0 and 2."""
    run = run_cpus("cpus-threads", "4,threads=2", "cpus=one-per-core")
    lst = run.one("cpus")
    check([(c["core"], c["thread"]) for c in lst["list"]] == [(0, 0), (0, 1), (1, 0), (1, 1)],
          f"topology {lst}", run.text)
    check([r["cpu"] for r in run.by("cpu_run")] == [0, 2] and run.one("end")["cpus_measured"] == 2,
          f"measured {[r['cpu'] for r in run.by('cpu_run')]}", run.text)
    check(run.has_line("cpus: cpus=one-per-core: measuring 2 CPUs in turn: 0,2"), "no selection line", run.text)


def test_cpus_bad_values():
    """cpus=7 on -smp 4: one line, the boot CPU measured instead; cpus=x: one
    line, a command-line problem, the boot CPU; cpus=2,9: CPU 2 measured, 9
    said not to exist."""
    run = run_cpus("cpus-7", "4", "cpus=7", "q35-tcg")
    check(run.has_line("cpus=: CPU 7 does not exist: this machine has 4 CPUs in its MADT") and
          run.has_line("cpus=: no CPU selected is online: measuring the boot CPU (number 0, APIC ID 0) instead")
          and [r["cpu"] for r in run.by("cpu_run")] == [0], "cpus=7", run.text)
    run = run_cpus("cpus-x", "4", "cpus=x problems=ignore", "q35-tcg")
    bad = [l for l in run.lines if l.startswith("cpus=x: ")]
    check(len(bad) == 1 and bad[0].endswith("; measuring the boot CPU only") and not run.by("cpu_run")
          and run.one("end")["config_problems"] == 1, f"cpus=x: {bad}", run.text)
    run = run_cpus("cpus-2-9", "4", "cpus=2,9", "q35-tcg")
    check(run.has_line("cpus=: CPU 9 does not exist") and [r["cpu"] for r in run.by("cpu_run")] == [2],
          "cpus=2,9", run.text)


def test_cpus_screen_per_cpu_section():
    """The screen summary's per-CPU section (VGA text): a column per CPU
    measured with each workload's net, as the cpu_compare records say."""
    with Machine("cpus-screen", machine="icount", append=f"{SMALL} cpus=all", smp="3", serial=True) as m:
        m.wait_for(HALTED, m.vga_text, m.timeout, every=1.0)
        m.wait_halted(60)
        lines, text = m.vga_text(), m.serial_text()
    run = expect_complete_halted(text)
    screen = "\n".join(lines)
    head = [l for l in lines if l.startswith("workload") and "CPU 0" in l]
    check(head and head[0].split()[1:] == ["CPU", "0", "CPU", "1", "CPU", "2"], "no per-CPU header", screen)
    for c in run.by("cpu_compare"):
        row = [l for l in lines if l.split() and l.split()[0] == c["workload"]]
        check(row and row[0].split()[1:] == [str(v) for v in c["net"]],
              f"{c['workload']}: screen row {row}, records {c['net']}", screen)

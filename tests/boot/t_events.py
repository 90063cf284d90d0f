"""tests/boot/t_events.py - events= (issue 30 items 2, 3, 5, 6;
docs/EVENTS.md): names resolved from CPUID alone, so under QEMU TCG (no
PMU: CPUID.0AH:EAX version 0) every `event` record still gives the upstream
encoding, then one line says why nothing counts, and the run measures the
rest; a misspelt name stops the run with a did-you-mean; the paper-size
run with events= fits in 8 MiB; and in the fake-PMU test build (RDPMC reads
the TSC: under -icount every event counts instructions retired) the events
are scheduled onto counters, each pass is printed and checked:
instructions retired verified exactly, a branch event caught counting
wrong and marked unverified.

The expected PERFEVTSEL values come from the host tool (`tools/bench.py
events --cpu FAMILY-MODEL-STEPPING`, the same upstream data the image's
tables are generated from), for the family, model and stepping the run's
own env record gives: QEMU 7.2's Icelake-Server says model 0x86
(Snowridge's), not an Ice Lake server's 0x6A, and the tables follow
CPUID."""
import os
import re
import subprocess

import builds
from qemu import EXIT_FAILURE, ROOT, Run, check, expect_complete, qemu
from runner import once

QUICK = "ensembles=2 samples=50 warmup=10 methods=rdtscp workloads=add_chain_64"

# About ten items a model: architectural events, the model's own (one with
# a counter mask), nanoBench lines (AMD: one with a 12-bit EvtSel) and a
# group.
EVENTS = {
    "Skylake-Client": ["INST_RETIRED.ANY", "cpu_clk_unhalted.thread", "BR_INST_RETIRED.ALL_BRANCHES",
                       "BR_MISP_RETIRED.ALL_BRANCHES", "LONGEST_LAT_CACHE.MISS", "L1D.REPLACEMENT",
                       "UOPS_ISSUED.ANY", "DTLB_LOAD_MISSES.WALK_ACTIVE", "D1.01:L1_HIT", "branches"],
    "Icelake-Server": ["INST_RETIRED.ANY", "CPU_CLK_UNHALTED.CORE", "BR_INST_RETIRED.ALL_BRANCHES",
                       "BR_MISP_RETIRED.ALL_BRANCHES", "LONGEST_LAT_CACHE.MISS", "MEM_UOPS_RETIRED.ALL_LOADS",
                       "icache.misses", "UOPS_ISSUED.ANY", "C0.00:MY_INSTS", "branches"],
    "Snowridge": ["INST_RETIRED.ANY", "CPU_CLK_UNHALTED.CORE", "BR_INST_RETIRED.ALL_BRANCHES",
                  "BR_MISP_RETIRED.ALL_BRANCHES", "LONGEST_LAT_CACHE.MISS", "MEM_UOPS_RETIRED.ALL_LOADS",
                  "ICACHE.MISSES", "UOPS_ISSUED.ANY", "C4.00.CMSK=1:BR_CMSK", "branches"],
    "EPYC-Rome": ["RETIRED_INSTRUCTIONS", "CYCLES_NOT_IN_HALT", "RETIRED_BRANCH_INSTRUCTIONS",
                  "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "retired_uops", "RETIRED_FUSED_INSTRUCTIONS",
                  "LS_DISPATCH.LD_DISPATCH", "076.00", "1D0.00:FUSED", "branches"],
}
GROUPS = ("topdown", "branches", "caches")
# nanoBench lines: (EvtSel, UMASK, CMSK) beside the PERFEVTSEL flags the
# tool gives a plain event of the same CPU (a reference event with neither
# counter mask nor flags).
NANOBENCH = {"D1.01:L1_HIT": ("L1_HIT", 0xD1, 0x01, 0), "C0.00:MY_INSTS": ("MY_INSTS", 0xC0, 0, 0),
             "C4.00.CMSK=1:BR_CMSK": ("BR_CMSK", 0xC4, 0, 1), "076.00": ("076.00", 0x076, 0, 0),
             "1D0.00:FUSED": ("FUSED", 0x1D0, 0, 0)}
REFERENCE = {"Skylake-Client": "LONGEST_LAT_CACHE.MISS", "Icelake-Server": "LONGEST_LAT_CACHE.MISS",
             "Snowridge": "LONGEST_LAT_CACHE.MISS", "EPYC-Rome": "RETIRED_INSTRUCTIONS"}


def tool_encodings(fms):
    """{NAME: perfevtsel} of `tools/bench.py events --cpu fms`, once per fms."""
    def run():
        p = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "bench.py"), "events", "--cpu", fms],
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"tools/bench.py events --cpu {fms}: status {p.returncode}", p.stdout + p.stderr)
        return parse_tool(p.stdout)
    return once(("events-tool", fms), run)


def parse_tool(out):
    """The tool's table: a header line naming the columns, then one event a
    line; its perfevtsel column by the header's position."""
    lines = out.splitlines()
    header = [i for i, l in enumerate(lines) if l.startswith("name ") and " perfevtsel " in l]
    check(len(header) == 1, "tools/bench.py events: no header line with name and perfevtsel", out[:2000])
    h = lines[header[0]]
    start, end = h.index("perfevtsel"), h.index("extra MSR")
    got = {}
    for l in lines[header[0] + 1:]:
        if l.strip():
            got.setdefault(l.split()[0], int(l[start:end].strip(), 16))
    return got


def nanobench_expected(item, flags, vendor_amd):
    name, evtsel, umask, cmask = NANOBENCH[item]
    v = flags | (evtsel & 0xFF) | umask << 8 | cmask << 24
    return name, v | ((evtsel >> 8) << 32 if vendor_amd else 0)


def fms_of(run):
    env = run.one("env")
    return f"{env['family']:X}-{env['model']:02X}-{env['stepping']:X}"


def expect_records_without_counters(run, text, cpu):
    """Every event record with its encoding and counts false, one for
    every item but a group; the one line; no pass; the method measured."""
    evs = run.by("event")
    names = {e["name"] for e in evs}
    for item in EVENTS[cpu]:
        if item in GROUPS:
            continue
        name = NANOBENCH[item][0] if item in NANOBENCH else item.upper()
        check(name in names, f"{cpu}: no event record for {item}", text)
    check(len(names) == len(evs), f"{cpu}: an event twice: {sorted(e['name'] for e in evs)}", text)
    for e in evs:
        check(e["counts"] is False and e["counter"] is None and e["pass"] is None and e["why"],
              f"{cpu}: an event record says it counts: {e}", text)
        check(re.fullmatch(r"0x[0-9a-f]+", e["perfevtsel"]), f"{cpu}: perfevtsel {e}", text)
        for key in ("name", "origin", "source", "event_select", "umask", "cmask", "inv", "edge", "anyt"):
            check(key in e, f"{cpu}: no {key} in {e}", text)
    cannot = [l for l in run.lines if l.startswith("events: cannot count here: ")]
    check(len(cannot) == 1 and cannot[0].endswith("; the event records above say what would be programmed"),
          f"{cpu}: the cannot-count line: {cannot}", text)
    check(not run.by("event_pass") and not run.by("event_check"), f"{cpu}: a pass without counters", text)
    check(run.by("summary", method="rdtscp", workload="add_chain_64"), f"{cpu}: add_chain_64 not measured", text)
    return evs, cannot[0]


def check_model(cpu):
    """A run under QEMU TCG on cpu: each event record's PERFEVTSEL the
    tool's for the CPU the run's env record names (nanoBench lines: their
    fields over the tool's flags of a plain event)."""
    rc, text = qemu(f"events-{cpu}", "q35-tcg", f"{QUICK} events={','.join(EVENTS[cpu])}", cpu=cpu)
    run = expect_complete(rc, text)
    evs, cannot = expect_records_without_counters(run, text, cpu)
    fms = fms_of(run)
    want = tool_encodings(fms)
    by_name = {e["name"]: e for e in evs}
    flags = want[REFERENCE[cpu]] & 0xFF0000
    for item in EVENTS[cpu]:
        if item in NANOBENCH:
            name, v = nanobench_expected(item, flags, cpu == "EPYC-Rome")
            check(by_name[name]["origin"] == "nanobench" and int(by_name[name]["perfevtsel"], 16) == v,
                  f"{cpu}: {item}: {by_name[name]}, expected perfevtsel {v:#x}", text)
    for e in evs:
        if e["origin"] == "nanobench":
            continue
        check(e["name"] in want, f"{cpu} ({fms}): {e['name']} not in the tool's list", text)
        check(int(e["perfevtsel"], 16) == want[e["name"]],
              f"{cpu}: {e['name']}: perfevtsel {e['perfevtsel']}, the tool says {want[e['name']]:#x}", text)
    return run, cannot


def test_events_skylake_client():
    """Skylake-Client (6-5E): the SDM's and perfmon's names, nanoBench's
    D1.01 and the branches group; why: CPUID.0AH version 0."""
    run, cannot = check_model("Skylake-Client")
    check("CPUID.0AH:EAX[7:0]" in cannot, f"why: {cannot}", run.text)


def test_events_icelake_server():
    """Icelake-Server, whose CPUID under QEMU 7.2 says 6-86: the table
    that model selects (perfmon's mapfile), as on a real 6-86."""
    run, cannot = check_model("Icelake-Server")
    check("CPUID.0AH:EAX[7:0]" in cannot, f"why: {cannot}", run.text)


def test_events_snowridge():
    """Snowridge (6-86): a nanoBench line with a counter mask."""
    run, cannot = check_model("Snowridge")
    check("CPUID.0AH:EAX[7:0]" in cannot, f"why: {cannot}", run.text)


def test_events_epyc_rome():
    """EPYC-Rome (17-31): AMD's names, the 12-bit EvtSel split over
    PERF_CTL bits 7:0 and 35:32; TCG keeps no PERF_CTL value: the line
    names the register, what was written and what came back."""
    run, cannot = check_model("EPYC-Rome")
    check(re.search(r"WRMSR 0xc001020[0-9a-f]|WRMSR 0xc001000[0-3]", cannot) and "read back" in cannot,
          f"why: {cannot}", run.text)


def test_events_pmu_off_human():
    """pmu=off, output=human (no event records): one line per event with
    the value it would program, the why line naming pmu=off, the run
    measured."""
    names = EVENTS["Skylake-Client"]
    rc, text = qemu("events-off", "q35-tcg", f"{QUICK} output=human pmu=off events={','.join(names)}",
                    cpu="Skylake-Client")
    run = expect_complete(rc, text)
    lines = [l for l in run.lines if re.match(r"events: \S+ \((arch|table|nanobench), .*\): "
                                              r"(IA32_PERFEVTSELx = 0x[0-9a-f]+|fixed counter \d only)$", l)]
    items = [n for n in names if n not in GROUPS]
    check(len(lines) >= len(items), f"{len(lines)} event lines for {len(items)} items and a group", text)
    cannot = [l for l in run.lines if l.startswith("events: cannot count here: ")]
    check(cannot == ["events: cannot count here: pmu=off: no counter is touched; the event lines above say "
                     "what would be programmed"], f"the cannot-count line: {cannot}", text)
    check(run.has_line("method rdtscp: "), "rdtscp not measured", text)


def test_events_misspelt_stops():
    """A name the CPU's table does not have: one config: line with a
    did-you-mean, the run stopped before measuring with its final line."""
    rc, text = qemu("events-typo", "q35-tcg", f"{QUICK} events=INST_RETIRED.ANY,L1D.REPLACMENT",
                    cpu="Skylake-Client")
    run = Run(rc, text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", text)
    line = [l for l in run.lines if l.startswith("config: events=L1D.REPLACMENT: ")]
    check(len(line) == 1 and "did you mean L1D.REPLACEMENT" in line[0], f"the problem's line: {line}", text)
    check(run.final_line() == "bench: run aborted: 1 command-line problem, said above (problems=ignore measures "
          "anyway) (exit code 0x11)", f"final line {run.final_line()!r}", text)
    check(run.one("end")["status"] == "config_problems", "end record", text)
    check(not run.by("summary"), "measured although events= has a problem", text)


def test_events_paper_size_in_8m():
    """The paper-size run (1000 x 100,000) with ten events completes in
    8 MiB of guest RAM: samples= fits (no problem), every event printed."""
    names = ",".join(EVENTS["Skylake-Client"])
    rc, text = qemu("events-8m", "q35-8m", "ensembles=1000 samples=100000 methods=rdtscp workloads=none "
                    f"output=summary events={names}", cpu="Skylake-Client")
    run = expect_complete(rc, text)
    check(run.one("config")["samples"] == 100000 and run.one("config")["problems"] == 0,
          f"config {run.one('config')}", text)
    items = [n for n in EVENTS["Skylake-Client"] if n not in GROUPS]
    check(len(run.by("event")) >= len(items), f"{len(run.by('event'))} event records for {len(items)} items", text)
    check(run.one("summary", method="rdtscp", workload="empty")["ensembles"] == 1000, "the empty window", text)


def test_events_fake_pmu_passes_and_check():
    """Fake PMU under -icount: every event on a counter (Skylake's list
    takes 2 passes: most of its events count on PMC0-3 only), the pass
    lines and records agree with the event records (no counter twice in a
    pass), every pass checked before its windows (bench/evrun.c calls
    events_pass_begin); the check: INST_RETIRED.ANY (FIXED_CTR0) 2N
    instructions exactly, ok; BR_INST_RETIRED.ALL_BRANCHES N expected, 2N
    counted: caught, marked unverified."""
    image = os.path.join(builds.fake_pmu(), "bench32.elf")
    names = ",".join(EVENTS["Skylake-Client"])
    rc, text = qemu("events-fake", "icount", f"{QUICK} events={names}", image=image, cpu="Skylake-Client")
    run = expect_complete(rc, text)
    evs = run.by("event")
    check(evs and all(e["counts"] and e["counter"] and e["pass"] is not None and e["why"] is None for e in evs),
          f"an event without a counter: {[e for e in evs if not e['counts']]}", text)
    passes = run.by("event_pass")
    check(passes and all(p["passes"] == len(passes) for p in passes), f"event_pass records {passes}", text)
    for p in passes:
        counters = [c["counter"] for c in p["counters"]]
        check(len(set(counters)) == len(counters), f"a counter twice in pass {p}", text)
        line = [l for l in run.lines if l.startswith(f"events: pass {p['pass'] + 1} of {len(passes)}: ")]
        check(len(line) == 1, f"pass {p['pass'] + 1}: line {line}", text)
        for c in p["counters"]:
            e = [e for e in evs if e["name"] == c["event"]]
            check(e and e[0]["counter"] == c["counter"] and e[0]["pass"] == p["pass"],
                  f"pass {p}: {c} disagrees with the event record {e}", text)
            check(f"{c['counter']} {c['event']}" in line[0], f"pass line {line[0]} lacks {c}", text)
        check(any(l.startswith(f"events: pass {p['pass'] + 1} check: ") for l in run.lines),
              f"pass {p['pass'] + 1} was not checked", text)
    checks = {c["event"]: c for c in run.by("event_check")}
    ins = checks.get("INST_RETIRED.ANY")
    check(ins and ins["kind"] == "instructions" and ins["ok"] and ins["counted"] == ins["expected_lo"]
          == ins["expected_hi"] == 2000000, f"INST_RETIRED.ANY check {ins}", text)
    br = checks.get("BR_INST_RETIRED.ALL_BRANCHES")
    check(br and br["kind"] == "branches" and not br["ok"] and br["expected_lo"] == 1000000
          and br["counted"] == 2000000, f"BR_INST_RETIRED.ALL_BRANCHES check {br}", text)
    check(any("INST_RETIRED.ANY 2000000 instructions expected, 2000000 counted: ok" in l
              for l in run.lines if l.startswith("events: pass ")), "no check line for INST_RETIRED.ANY", text)
    check(any("BR_INST_RETIRED.ALL_BRANCHES 1000000 branch instructions expected, 2000000 counted: counts wrong, "
              "its figures are marked unverified" in l for l in run.lines if l.startswith("events: pass ")),
          "no check line catching BR_INST_RETIRED.ALL_BRANCHES", text)
    check(not run.has_line("events: cannot count here"), "the fake PMU cannot count", text)

"""tests/boot/t_events_measure.py - the windows of each events pass
(events=; bench/evrun.c, bench/methods.h SEQ_EV_*), end to end in the fake
PMU test build (make FAKE_PMU=1: the PMU's MSRs in memory, RDPMC read as
RDTSC) under QEMU -icount, where the TSC counts instructions: every event
then counts the instructions between its two reads, so each window's net
is its body's instruction count for every event, code='s per copy is
exactly 1.000 of each event for one instruction per copy, the branch
event's figures stay marked unverified (the check predicts branches, the
fake counter counts instructions), the your-code section carries them,
and the log passes tools/bench.py report."""
import os

import builds
from qemu import bench_report, check, expect_complete, qemu

INS, BR = "INST_RETIRED.ANY", "BR_INST_RETIRED.ALL_BRANCHES"
EVENTS_METHODS = ("rdtscp", "lfence")
ARGS = (f"ensembles=3 samples=20 warmup=5 methods={','.join(EVENTS_METHODS)} workloads=add_chain_64 "
        f"events={INS},{BR} code=4801c0 unroll=10 walk=on")


def fake_pmu_build():
    """build/fakepmu (builds.fake_pmu: make FAKE_PMU=1 kernel iso, once)."""
    return builds.fake_pmu()


def test_events_per_copy_fake_pmu_icount():
    """Fake PMU, -icount: event_window records of the empty window (net 0),
    add_chain_64 (net 64), code N and 2N (net 10 and 20) for both events
    under each method; event_per_copy exactly 1.000 per copy, INST_RETIRED.ANY
    verified, the branch event unverified and said so; the walk of each
    events window counts its body only; the your-code section's rows; the
    log read by tools/bench.py report."""
    build = fake_pmu_build()
    rc, text = qemu("events-fake-percopy", "icount-intel", ARGS, image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    for m in EVENTS_METHODS:
        for ev in (INS, BR):
            for w, net in (("empty", 0), ("add_chain_64", 64), ("code", 10), ("code.2n", 20)):
                r = run.one("event_window", method=m, workload=w, event=ev)
                check(r["net"] == net and r["least_min"] - r["offset"] == net,
                      f"{m}/{w} {ev}: net {r['net']} (least min {r['least_min']}, offset {r['offset']}), "
                      f"expected {net}", text)
                check(r["var_of_vars"] == 0 and r["var_of_mins"] == 0 and r["median_of_medians"] == r["least_min"],
                      f"{m}/{w} {ev}: not exact under -icount: {r}", text)
                check(r["verified"] == (ev == INS), f"{m}/{w} {ev}: verified {r['verified']}", text)
            empty = run.one("event_window", method=m, workload="empty", event=ev)
            check(empty["offset"] == empty["least_min"], f"{m} {ev}: the empty window's offset {empty}", text)
            pc = run.one("event_per_copy", method=m, workload="code", event=ev)
            check(pc["per_copy"] == "1.000" and pc["status"] == "exact" and pc["num"] == 1 and pc["den"] == 1
                  and pc["copies"] == 10 and pc["step"] == 1 and pc["spread"] == 0 and pc["bound"] is None
                  and pc["least_min_2n"] - pc["least_min_n"] == 10,
                  f"{m} {ev}: per copy {pc}", text)
            check(pc["verified"] == (ev == INS), f"{m} {ev}: per copy verified {pc['verified']}", text)
        check(run.has_line(f"event_per_copy {m}/code: 1.000 {INS} per copy, exactly 1 "), f"{m}: {INS} line", text)
        br = [l for l in run.lines if l.startswith(f"event_per_copy {m}/code: 1.000 {BR} per copy, exactly 1 ")]
        check(len(br) == 1 and "(unverified: " in br[0], f"{m}: the branch event's line is not marked: {br}", text)
        check(run.has_line(f"events {m}/add_chain_64 pass "), f"{m}: no events line for add_chain_64", text)
        for w, body in (("empty", 0), ("add_chain_64", 64), ("code", 10), ("code.2n", 20)):
            walks = [l for l in run.lines if l.startswith(f"walk events {m}/{w} pass ")]
            check(len(walks) == 1 and f": body {body} instructions; 0 instructions between the start sequence "
                  "and the body, 0 between the body and the stop sequence" in walks[0],
                  f"{m}/{w}: walk of the events window {walks}", text)
    rows = [l.split() for l in run.lines if l.split()[:1] and l.split()[0] in EVENTS_METHODS
            and len(l.split()) >= 5 and l.split()[1] in (INS, BR)]
    check(len(rows) == 2 * len(EVENTS_METHODS) and all(r[2] == "10" and r[3:5] == ["1.000", "exactly"] for r in rows)
          and all((r[1] == BR) == (r[-1] == "(unverified)") for r in rows),
          f"your code section's event rows: {rows}", text)
    p, _ = bench_report(text)
    check(p.returncode == 0, f"tools/bench.py report rejects the log:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")


def test_events_code_fault_once():
    """Fake PMU, code=0f0b (UD2): the user's code faults once per method, in
    the method's own windows; the events passes measure the empty window and
    the workloads and leave code= out, with no second fault line."""
    build = fake_pmu_build()
    rc, text = qemu("events-fake-fault", "icount-intel",
                    f"ensembles=2 samples=10 warmup=2 methods={','.join(EVENTS_METHODS)} workloads=add_chain_64 "
                    f"events={INS},{BR} code=0f0b", image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    for m in EVENTS_METHODS:
        check(len(run.by("code_fault", method=m)) == 1, f"{m}: {len(run.by('code_fault', method=m))} code_fault "
              "records, expected 1", text)
        check(run.one("event_window", method=m, workload="add_chain_64", event=INS)["net"] == 64,
              f"{m}: add_chain_64's events window", text)
        check(not run.by("event_window", method=m, workload="code") and not run.by("event_per_copy", method=m),
              f"{m}: code='s events windows measured after it faulted", text)


def test_events_buffers_most_that_fit_8m():
    """Fake PMU in 8 MiB, samples=200000 and three events in one pass: their
    sample buffers (3 x 1.6 MB) do not fit beside the TSC's (1.6 MB) in the
    5 MiB the image leaves, so one line says how many samples the events
    windows use (the most that fit) and they are measured with those; the
    method's own windows keep samples=200000. (100000 fit since issue 31
    made the image 2 MiB smaller.)"""
    build = fake_pmu_build()
    rc, text = qemu("events-fake-8m", "q35-8m",
                    "ensembles=2 samples=200000 warmup=5 methods=rdtscp workloads=add_chain_64 "
                    f"events={INS},{BR},CPU_CLK_UNHALTED.THREAD",
                    image=os.path.join(build, "bench32.elf"), cpu="max,vendor=GenuineIntel")
    run = expect_complete(rc, text)
    fit = [l for l in run.lines if l.startswith("events: samples=200000 needs 4800000 bytes for the sample buffers "
                                                 "of 3 events read in one pass")]
    check(len(fit) == 1 and "the most that fit" in fit[0], f"the buffers' line: {fit}", text)
    check(run.one("summary", method="rdtscp", workload="add_chain_64", unit="tsc_ticks")["samples_total"] == 400000,
          "the method's own windows lost samples", text)
    for ev in (INS, BR, "CPU_CLK_UNHALTED.THREAD"):
        run.one("event_window", method="rdtscp", workload="add_chain_64", event=ev)

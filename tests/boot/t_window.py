"""tests/boot/t_window.py - nothing but the measured code in the window.

Three proofs that each sampling loop's window holds exactly the start
sequence after its read, the body, and the stop sequence up to its read:

- statically, in the built kernel: every sampling function's markers stand
  where nothing of the compiler's lies between the start sequence and the
  body, or between the body and the stop sequence (check_windows.py), for
  every method, the counter methods, the counters-beside loops and the
  loops with an events pass beside the TSC included (whose RDPMC reads lie
  outside the TSC window, with nothing but movs between two of them);
  and the checker does find such code in a loop written the old way;
- dynamically, under -icount (a TSC tick is an instruction): the kernel
  single-steps one sample of each window (walk=on, RFLAGS.TF) and counts the
  instructions the body executed; the net result the run prints must equal
  that count exactly, for every workload and TSC method, measured_loop at
  each loop size, and a C workload written to tempt the compiler (added
  through EXTRA_SRC); and each method's offset stays at its instruction
  count (5/3/5/3/4).
"""
import os
import subprocess
import tempfile

import builds
import check_windows
from qemu import (BUILD, COUNTER_METHODS, ICOUNT_OFFSETS, INTEL_MAX, METHODS, MODERN, ROOT, check,
                  expect_complete, qemu)

TSC_METHODS = METHODS + MODERN
EXTRA = "tests/boot/wl_user_test.c tests/boot/wl_tempt_test.c"


def workloads_in(elf):
    p = subprocess.run(["nm", elf], capture_output=True, text=True, timeout=60, check=True)
    return sorted(l.split()[2][len("bench_workload_"):] for l in p.stdout.splitlines()
                  if len(l.split()) == 3 and l.split()[2].startswith("bench_workload_"))


# sweep=latency's sampling functions (bench/sweep.c): the N and 2N windows
# of every TSC method and of ctr_rdpmc.
SWEEP_LOOPS = 2 * (len(TSC_METHODS) + 1)


def sweep_loops_in(elf):
    return sorted(n for n in check_windows.functions(elf) if n.startswith("bench_fill_sweep"))


def expect_clean_windows(elf):
    n, problems = check_windows.check(elf)
    wls = workloads_in(elf)
    want = len(wls) * (3 * len(TSC_METHODS) + len(COUNTER_METHODS)) + SWEEP_LOOPS
    check(not problems, f"{elf}: windows with code that is not the body:\n" + "\n".join(problems))
    check(n == want, f"{elf}: {n} sampling functions checked, expected {want} "
          f"({len(wls)} workloads x (3 x {len(TSC_METHODS)} TSC loops: alone, counters beside, events beside; "
          f"+ {len(COUNTER_METHODS)} counter loops) + {SWEEP_LOOPS} sweep=latency loops)")
    return wls


def test_window_static_every_sampling_loop():
    """The built kernel: no sampling loop has code between its markers."""
    wls = expect_clean_windows(os.path.join(BUILD, "bench.elf"))
    check({"empty", "saddb", "vaddb", "measured_loop"} <= set(wls), f"workloads {wls}")


def test_window_static_sweep_loads_only():
    """sweep=latency's windows (bench/sweep.c) are checked with the others, and
    each holds exactly its 251 or 502 dependent loads mov (%r8),%r8 between
    the start's read and the stop's: nothing else, so 2N-N is N loads."""
    elf = os.path.join(BUILD, "bench.elf")
    loops = sweep_loops_in(elf)
    check(len(loops) == SWEEP_LOOPS, f"{len(loops)} sweep loops, expected {SWEEP_LOOPS}: {loops}")
    fns = check_windows.functions(elf)
    ms = check_windows.marks(elf)
    for name in loops:
        a, size = fns[name]
        begin = [x for x, k in ms if k == check_windows.BODY_BEGIN and a <= x < a + size]
        end = [x for x, k in ms if k == check_windows.BODY_END and a <= x < a + size]
        check(len(begin) == 1 and len(end) == 1, f"{name}: one window's markers ({begin}, {end})")
        body = check_windows.disassemble(elf, begin[0], end[0])
        loads = int(name[len("bench_fill_sweep"):].split("_")[0])
        ops = [" ".join(l.split("\t")[1].split()) for l in body]
        check(ops == ["mov (%r8),%r8"] * loads, f"{name}: its body is not {loads} loads mov (%r8),%r8: "
              f"{len(ops)} instructions, first {ops[:3]}")


def test_window_static_check_finds_an_event_read_inside():
    """Negative control: an events loop whose stop reads a counter before the TSC is reported."""
    elf = os.path.join(BUILD, "bench.elf")
    fns = check_windows.functions(elf)
    name = sorted(n for n in fns if check_windows.EVENTS.match(n))[0]
    a, size = fns[name]
    insns = check_windows.disassemble(elf, a, a + size)
    check(not check_windows.event_reads(name, insns), f"{name}: {check_windows.event_reads(name, insns)}")
    tsc = [i for i, l in enumerate(insns) if l.split("\t")[1].split()[0] in ("rdtsc", "rdtscp")]
    moved = insns[:tsc[1]] + ["0:\trdpmc"] + insns[tsc[1]:]
    moved.remove(next(l for l in reversed(insns) if l.endswith("rdpmc")))
    problems = check_windows.event_reads(name, moved)
    check(any("not outside the TSC window" in p for p in problems), f"not found: {problems}")


def test_window_static_check_finds_a_gap():
    """Negative control: a loop that combines the start's EDX:EAX in C is reported."""
    with tempfile.TemporaryDirectory() as d:
        obj, elf = os.path.join(d, "gap.o"), os.path.join(d, "gap.elf")
        for cmd in (["gcc", "-std=gnu11", "-O2", "-ffreestanding", "-fno-pic", "-fno-pie", "-mno-red-zone",
                     "-mgeneral-regs-only", "-c", "-o", obj, os.path.join(ROOT, "tests/boot/window_gap_test.c")],
                    ["ld", "-nostdlib", "-e", "bench_fill_gap_cpuid", "-Ttext=0x100000", "-o", elf, obj]):
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            check(p.returncode == 0, f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
        n, problems = check_windows.check(elf)
    check(n == 1 and len(problems) == 1, f"the checker found {problems} in {n} functions, expected one problem")
    check("between the start sequence and the body" in problems[0] and "shl" in problems[0],
          f"the problem does not name the combine: {problems[0]}")


def test_window_icount_walk_equals_net():
    """Under -icount every net result equals the body's single-stepped instruction count."""
    build = builds.variant("window", EXTRA)
    wls = expect_clean_windows(os.path.join(build, "bench.elf"))
    check("tempt" in wls and "user_ten_nops" in wls, f"test workloads not registered: {wls}")
    measured = [w for w in wls if w not in ("empty", "measured_loop")]
    rc, text = qemu("icount-window", "icount-intel",
                    f"ensembles=6 samples=40 warmup=5 walk=on resolution=on workloads={','.join(measured)}",
                    image=os.path.join(build, "bench32.elf"))
    run = expect_complete(rc, text)
    compared = 0
    for m in TSC_METHODS:
        if run.by("skip", method=m):
            check(m == "serialize", f"{m} skipped under {INTEL_MAX}", text)
            continue
        walks = {(r["workload"], r["param"]): r for r in run.by("walk", method=m)}
        for (w, param), r in walks.items():
            check(r["complete"] and r["windows"] == 1 and r["gap_before"] == 0 and r["gap_after"] == 0,
                  f"{m}/{w}({param}): the walk found code outside the body: {r}", text)
        offset = run.one("verdict", method=m)["offset"]
        check(offset == ICOUNT_OFFSETS[m], f"{m}: offset {offset} TSC ticks, expected {ICOUNT_OFFSETS[m]}", text)
        check(walks[("empty", 0)]["body"] == 0, f"{m}: empty body {walks[('empty', 0)]}", text)
        for w in measured:
            s = run.one("summary", method=m, workload=w, unit="tsc_ticks")
            r = [v for (ww, _), v in walks.items() if ww == w]
            check(len(r) == 1, f"{m}/{w}: {len(r)} walk records", text)
            check(s["net_min"] == r[0]["body"], f"{m}/{w}: net {s['net_min']} TSC ticks, but the body "
                  f"executed {r[0]['body']} instructions", text)
            compared += 1
        ens = run.by("ensemble", method=m, workload="measured_loop")
        check([e["param"] for e in ens] == list(range(6)), f"{m}: measured_loop sizes {ens}", text)
        for e in ens:
            body = walks[("measured_loop", e["param"])]["body"]
            check(e["min"] - offset == body, f"{m}/measured_loop({e['param']}): net {e['min'] - offset} TSC "
                  f"ticks, but the body executed {body} instructions", text)
            compared += 1
    check(compared >= 5 * (len(measured) + 6), f"only {compared} (method, workload) nets compared", text)

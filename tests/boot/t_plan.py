"""tests/boot/t_plan.py - a plan: many experiments in one boot (issue 32,
README "Running a plan", bench/plan.c): the plan file as a boot module
(QEMU -initrd "PATH plan.txt", multiboot1), under -icount so that every
figure per copy is exact. Each experiment's records come in the plan's
order between its experiment and experiment_end records, and its per_copy
figure equals the one of the same words booted alone; a faulting
experiment is said and the next runs; a walk (walk=on) in an experiment
counts exactly its body; a plan with bad lines stops before measuring,
naming the file, the line and the experiment; plan=missing.txt says why.
"""
import os

from qemu import EXIT_FAILURE, LOGS, Run, check, expect_complete, qemu

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"
MACHINE = "icount"

# name, words, the figure per copy in TSC ticks (one instruction a tick
# under -icount) or None when the code faults.
EXPERIMENTS = [
    ("imul_lat", "code=480fafc0 unroll=100", "1.000"),                        # IMUL RAX,RAX
    ("ud", "code=0f0b unroll=2", None),                                       # UD2: #UD, the next runs
    ("add_tp", "code=4801c04801c3 unroll=50 walk=on", "2.000"),               # ADD RAX,RAX; ADD RBX,RAX
    ("chase", "init=4d8936 code=4d8b364d8b36 unroll=10 loops=2 mem=64K", "2.000"),  # MOV [R14],R14; 2 loads
]


def plan_file(name, text):
    """A plan file of its own for run name (the tests run in parallel)."""
    os.makedirs(LOGS, exist_ok=True)
    path = os.path.join(LOGS, f"plan-{name}.txt")
    with open(path, "w", encoding="ascii") as f:
        f.write(text)
    return path


def plan_run(name, text, append=""):
    path = plan_file(name, text)
    return qemu(name, MACHINE, f"plan=plan.txt {append}".strip(), extra=["-initrd", f"{path} plan.txt"])


def between(run, index):
    """The records of experiment index (1-based): after its experiment record,
    before its experiment_end."""
    start = next(i for i, r in enumerate(run.recs) if r.get("rec") == "experiment" and r["index"] == index)
    end = next(i for i, r in enumerate(run.recs) if r.get("rec") == "experiment_end" and r["index"] == index)
    return run.recs[start + 1:end]


def per_copy_of(recs):
    pcs = [r for r in recs if r.get("rec") == "per_copy" and r["unit"] == "tsc_ticks" and r["method"] == "rdtscp"]
    return pcs[0] if len(pcs) == 1 else None


def test_plan_four_experiments_in_order_as_alone():
    """Four experiments in one boot: in order, each with its own config record
    and answer; UD2 faulted and the next ran; walk=on counts the body; the end
    record and final line count them; imul_lat and chase alone give the same
    per_copy figures."""
    text = f"# issue 32's plan\ndefaults {SMALL}\n" + "".join(
        f"{n} {w}\n" if n != "chase" else f"{n} {w.split(' code=')[0]} \\\n  code={w.split(' code=')[1]}\n"
        for n, w, _ in EXPERIMENTS)
    rc, log = plan_run("plan-four", text)
    run = expect_complete(rc, log)
    plan = run.one("plan")
    check(plan["file"] == "plan.txt" and plan["source"] == "module" and plan["experiments"] == 4
          and plan["defaults"] == SMALL and plan["bytes"] == len(text), f"plan record {plan}", log)
    starts = run.by("experiment")
    check([(r["index"], r["of"], r["name"], r["line"]) for r in starts] ==
          [(1, 4, "imul_lat", 3), (2, 4, "ud", 4), (3, 4, "add_tp", 5), (4, 4, "chase", 6)],
          f"experiment records {starts}", log)
    check(starts[3]["words"] == EXPERIMENTS[3][1], f"chase's words (a continued line) {starts[3]}", log)
    ends = run.by("experiment_end")
    check([(r["index"], r["status"]) for r in ends] ==
          [(1, "complete"), (2, "faulted"), (3, "complete"), (4, "complete")], f"experiment_end records {ends}", log)
    check(ends[1]["code_faults"] == 1 and "faulted" in ends[1]["why"], f"ud's end {ends[1]}", log)
    figures = {}
    for i, (name, words, fig) in enumerate(EXPERIMENTS, 1):
        inside = between(run, i)
        cfgs = [r for r in inside if r.get("rec") == "config"]
        check(len(cfgs) == 1 and cfgs[0]["ensembles"] == 2 and cfgs[0]["samples"] == 20,
              f"{name}: its own config record {cfgs}", log)
        pc = per_copy_of(inside)
        figures[name] = pc
        if name == "ud":
            check(pc is None or pc.get("status") != "exact", f"ud: no figure per copy {pc}", log)
            continue
        check(pc is not None, f"{name}: no per_copy record between its experiment records", log)
        if fig:
            check(pc["per_copy"] == fig and pc["status"] == "exact", f"{name}: per copy {pc}, expected {fig}", log)
    walks = [r for r in between(run, 3) if r.get("rec") == "walk" and r.get("workload") == "code"]
    check(walks and all(w["body"] == 100 and w["gap_before"] == 0 and w["gap_after"] == 0 for w in walks),
          f"add_tp walk=on: the window holds exactly its 100 instructions: {walks}", log)
    end = run.one("end")
    check((end["experiments_run"], end["experiments_faulted"], end["experiments_skipped"]) == (4, 1, 0),
          f"end record {end}", log)
    check("; plan plan.txt: 4 experiments run, 1 faulted, 0 skipped (exit code 0x10)" in run.final_line(),
          f"final line {run.final_line()!r}", log)
    for i, (name, words, _) in enumerate(EXPERIMENTS, 1):
        check(run.has_line(f"plan: experiment {i} of 4: {name} (plan.txt line {i + 2}): "),
              f"{name}: its line before", log)
    for name in ("imul_lat", "chase"):
        words = dict((n, w) for n, w, _ in EXPERIMENTS)[name]
        rc1, log1 = qemu(f"plan-alone-{name}", MACHINE, f"{SMALL} {words}")
        alone = per_copy_of(expect_complete(rc1, log1).recs)
        keys = ("copies", "least_min_n", "least_min_2n", "num", "den", "per_copy", "status")
        check(alone and all(alone[k] == figures[name][k] for k in keys),
              f"{name}: in the plan {figures[name]}, alone {alone}", log1)


def test_plan_bad_lines_stop_before_measuring():
    """An unknown key (did you mean), a bad value, a boot-wide key in an
    experiment line, a name twice: each one line naming the file, the line and
    the experiment; nothing measured; end status config_problems."""
    text = (f"defaults {SMALL}\n"
            "good code=90\n"
            "typo code=90 unrol=10\n"
            "badval code=90 unroll=0\n"
            "bootwide code=90 smp=on\n"
            "good code=90 unroll=2\n")
    rc, log = plan_run("plan-bad", text)
    run = Run(rc, log)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (stopped)", log)
    for prefix in ("plan: plan.txt line 3 (typo): unknown key 'unrol' (did you mean unroll?)",
                   "plan: plan.txt line 4 (badval): unroll=0 is ",
                   "plan: plan.txt line 5 (bootwide): smp= applies to the whole boot: put it in the defaults line "
                   "or on the command line",
                   "plan: plan.txt line 6"):
        check(run.has_line(prefix), f"no line starting {prefix!r}", log)
    check(not run.by("experiment") and not run.by("per_copy") and not run.by("method"),
          "something was measured", log)
    check(run.one("end") == {"rec": "end", "status": "config_problems"}, f"end record {run.by('end')}", log)
    check(run.final_line().startswith("bench: run aborted: 4 command-line problems"),
          f"final line {run.final_line()!r}", log)


def test_plan_missing_file_says_why():
    """plan=missing.txt with no such module: the plan line says why, it is a
    command-line problem, the run stops before measuring."""
    rc, log = qemu("plan-missing", MACHINE, f"plan=missing.txt {SMALL}")
    run = Run(rc, log)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", log)
    pf = run.one("plan_file")
    check(pf["source"] == "none" and pf["why"], f"plan_file record {pf}", log)
    check(run.has_line("config: plan=missing.txt: "), "no config: line saying why", log)
    check(run.one("end")["status"] == "config_problems", f"end record {run.by('end')}", log)
    check(run.final_line().startswith("bench: run aborted: 1 command-line problem,"),
          f"final line {run.final_line()!r}", log)


def test_plan_end_screen_rows():
    """The end screen (VGA text) has a row per experiment in the plan's order,
    its status and its answer with the unit (failed before: no plan rows, the
    last experiment's 'your code' section)."""
    from screen import HALTED, Machine
    path = plan_file("plan-screen", f"defaults {SMALL}\nimul_lat code=480fafc0 unroll=100\nud code=0f0b\n"
                                    "add_tp code=4801c04801c3 unroll=50\n")
    with Machine("plan-screen", machine=MACHINE, append="plan=plan.txt", args=["-initrd", f"{path} plan.txt"]) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        rows, serial = m.vga_text(), m.serial_text()
    want = ["plan plan.txt: 3 experiments, each its code's figure per copy",
            "imul_lat         complete rdtscp 1.000 exactly TSC ticks per copy",
            "ud               faulted  your code faulted under 1 method",
            "add_tp           complete rdtscp 2.000 exactly TSC ticks per copy"]
    at = [next((i for i, r in enumerate(rows) if r.rstrip() == w), None) for w in want]
    check(None not in at and at == sorted(at), f"the screen lacks the rows {want} in order:\n" + "\n".join(rows),
          serial)

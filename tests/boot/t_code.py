"""tests/boot/t_code.py - your own code, measured without rebuilding
(code=, init=, unroll=, loops=; bench/code.c, lib/codegen.c): exact under
-icount for every TSC method, the generated empty window equal to the
compiled offsets, the 2N-N figure, faults in the user's code survived, bad
values refused with one line each, and `make run CODE=...` end to end."""
import os
import subprocess

import builds
from qemu import BUILD, ICOUNT_OFFSETS, METHODS, MODERN, ROOT, check, expect_complete, qemu

TSC_METHODS = [m for m in METHODS + MODERN if m != "serialize"]  # TCG has no SERIALIZE
SMALL = "ensembles=3 samples=40 warmup=5 workloads=add_chain_64"


def code_run(name, args, machine="icount-intel"):
    rc, text = qemu(name, machine, f"{SMALL} {args}")
    return expect_complete(rc, text), text


def test_code_nops_exact_per_copy_and_offsets():
    """code=90 unroll=100: net 100 instructions and 1 per copy for every TSC method;
    the generated empty window equals the compiled offset; the walk counts 100."""
    run, text = code_run("code-nops", "code=90 unroll=100 walk=on")
    rec = run.one("code")
    check(rec["code"] == "90" and rec["unroll"] == 100 and rec["code_bytes"] == 1, f"code record {rec}", text)
    for m in TSC_METHODS:
        off = run.one("code_offset", method=m)
        check(off["generated_min"] == off["offset"] == ICOUNT_OFFSETS[m],
              f"{m}: generated empty window {off['generated_min']}, compiled offset {off['offset']}, "
              f"expected {ICOUNT_OFFSETS[m]} TSC ticks", text)
        s = run.one("summary", method=m, workload="code", unit="tsc_ticks")
        check(s["net_min"] == 100, f"{m}: code net {s['net_min']} TSC ticks, expected 100", text)
        s2 = run.one("summary", method=m, workload="code.2n", unit="tsc_ticks")
        check(s2["net_min"] == 200, f"{m}: code.2n net {s2['net_min']} TSC ticks, expected 200", text)
        pc = run.one("per_copy", method=m, unit="tsc_ticks")
        check(pc["num"] == 1 and pc["den"] == 1 and pc["per_copy"] == "1.000" and pc["copies"] == 100,
              f"{m}: per copy {pc}", text)
        check(run.has_line(f"per_copy {m}/code: 1.000 TSC ticks per copy, exactly 1 "), f"{m}: per_copy line", text)
        walk = run.one("walk", method=m, workload="code")
        check(walk["body"] == 100 and walk["gap_before"] == 0 and walk["gap_after"] == 0, f"{m}: walk {walk}", text)
    check(any(l.startswith("code ") and l.split()[1:2] == ["100"] or l.strip().startswith("code ")
              for l in run.lines if l.startswith("code")), "no code row in the summary table", text)


def test_code_unroll_and_loop():
    """code=4801d8 unroll=37 loops=3: 111 ADDs + the loop's own dec;jnz x 3 = 117 instructions."""
    run, text = code_run("code-loop", "code=4801d8 unroll=37 loops=3 code.name=add_rr")
    for m in TSC_METHODS:
        s = run.one("summary", method=m, workload="add_rr", unit="tsc_ticks")
        check(s["net_min"] == 111 + 2 * 3, f"{m}: net {s['net_min']} TSC ticks, expected 117", text)
        pc = run.one("per_copy", method=m, unit="tsc_ticks")
        check(pc["per_copy"] == "1.000" and pc["copies"] == 111, f"{m}: per copy {pc}", text)


def test_code_faults_survived():
    """ud2 in code=, and a load from an unmapped address: one line and record per
    method, the other workloads' results, exit 33."""
    for name, args, vec, part, offset in (
            ("code-ud2", "code=90900f0b unroll=3", 6, "code", 2),
            ("code-pf", "init=49b80000000000100000 code=498b00", 14, "code", 0)):
        run, text = code_run(name, args, "icount")
        faults = run.by("code_fault")
        ran = [m for m in ("cpuid", "rdtscp", "cr0") if not run.by("skip", method=m)]
        check(sorted(f["method"] for f in faults) == sorted(ran), f"{name}: faults {faults}", text)
        for f in faults:
            check(f["vector"] == vec and f["part"] == part and f["offset"] == offset,
                  f"{name}: fault record {f}", text)
            check(run.has_line(f"code {f['method']}/code: FAULT "), f"{name}: no FAULT line", text)
            check(run.one("summary", method=f["method"], workload="add_chain_64", unit="tsc_ticks"),
                  "other workload missing", text)
            check(not run.by("summary", method=f["method"], workload="code"), f"{name}: code summarized", text)
        if vec == 14:
            check(all(f["cr2"] == 1 << 44 for f in faults), f"{name}: CR2 {faults}", text)


def test_code_bad_values():
    """Each bad value: one clear line naming the key; the run goes on without the code workload."""
    cases = [("code=480", "config: code= has an odd number of hex digits"),
             ("code=zz", "config: code= has a character that is not a hex digit at position 1"),
             ("code=" + "90" * 4097, "config: code= has 4097 bytes, more than 4096"),
             ("code=90 unroll=0", "config: unroll=0"),
             ("code=90 loops=-1", "config: loops=-1"),
             ("code=", "config: code=")]
    for i, (args, want) in enumerate(cases):
        rc, text = qemu(f"code-bad-{i}", "q35-tcg",
                        f"ensembles=2 samples=20 methods=cpuid workloads=add_chain_64 problems=ignore {args}")
        run = expect_complete(rc, text)
        hits = [l for l in run.lines if l.startswith(want)]
        check(len(hits) == 1, f"{args[:40]}: expected one line starting {want!r}, got {hits}", text)
        cfg_lines = [l for l in run.lines if l.startswith("config: ")
                     and not l.startswith(("config: ensembles=", "config: memory and clocks: "))]
        if "unroll=0" in args or "loops=" in args:
            check(len(cfg_lines) == 1, f"{args}: {cfg_lines}", text)
            check(run.by("summary", workload="code"), f"{args}: the code still runs with the default", text)
        else:
            check(len(cfg_lines) == 1, f"{args[:40]}: config lines {cfg_lines}", text)
            check(not run.by("summary", workload="code") and not run.by("code"),
                  f"{args[:40]}: the code workload ran", text)
        check(run.one("end")["config_problems"] >= 1, f"{args[:40]}: not counted as a problem", text)


def test_make_run_code_end_to_end():
    """make run CODE='add rax, rbx' UNROLL=10: assembled on the host, measured, logged."""
    p = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-code-1.log",
                     "CODE=add rax, rbx", "UNROLL=10",
                     "ARGS=ensembles=2 samples=50 methods=cpuid workloads=add_chain_64"],
                    capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    check(p.returncode == 0, f"make run failed ({p.returncode}):\n{out[-2000:]}")
    check("code=4801d8 unroll=10" in out, "the boot parameters were not passed", out)
    check("per_copy cpuid/code: " in out and '"rec":"per_copy"' in out, "no per_copy figure", out)
    r = subprocess.run(["python3", os.path.join(ROOT, "tools/bench.py"), "report", "--no-figures",
                        os.path.join(BUILD, "logs", "run-code-1.log")], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and "add    rax,rbx" in r.stdout, f"report: {r.stdout[-1500:]}{r.stderr[-500:]}")
    bad = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-code-2.log",
                       "CODE=add rax, rbx, rcx"],
                      capture_output=True, text=True, timeout=400)
    check(bad.returncode != 0 and "invalid combination of opcode and operands" in bad.stdout + bad.stderr
          and "CODE could not be assembled" in bad.stdout + bad.stderr,
          f"a bad CODE: {bad.stdout[-800:]}{bad.stderr[-800:]}")

"""tests/boot/t_contain_code.py - code= contained by its generated loop
(lib/codegen.c, bench/code.c, bench/walk.c): the epilogue restores the
descriptor tables, RFLAGS and CR0 before anything else, so code that loads
GDTR, sets TF, TS or EM leaves no forged figure and no second fault; every
general register has its documented value before init= (none points into
the kernel); a trap is reported at the instruction that raised it; walk=on
reports and skips a fault like a normal run. Every run ends with its final
line and exit 33. All under -icount, where the figures are exact."""
from qemu import METHODS, check, expect_complete, qemu

SMALL = "ensembles=3 samples=40 warmup=5 workloads=add_chain_64 methods=" + ",".join(METHODS)


def contained(name, args):
    """A run of code= args: complete (final line, exit 33, valid records), no
    forged record (a method named null), no NMI counted, and every method
    measured the other workload."""
    rc, text = qemu(name, "icount", f"{SMALL} {args}")
    run = expect_complete(rc, text)
    check(not run.has_line("method (null)") and not run.by("skip", method=None),
          f"{name}: records of no method (the kernel resumed on a wrong stack)", text)
    check(run.one("end")["nmis"] == 0, f"{name}: end record {run.one('end')}", text)
    for m in METHODS:
        s = run.one("summary", method=m, workload="add_chain_64", unit="tsc_ticks")
        check(s["net_min"] == 64, f"{name}: {m}: add_chain_64 net {s['net_min']} TSC ticks, expected 64", text)
    return run, text


def expect_faults(name, run, text, vector, offset, after=False, copy=1, part="code"):
    """One code_fault record and FAULT line per method, vector at byte offset
    of copy `copy`, and no summary of the faulted workload."""
    for m in METHODS:
        f = run.one("code_fault", method=m)
        check(f["vector"] == vector and f["part"] == part and f["offset"] == offset and f["copy"] == copy
              and f["after"] == after, f"{name}: {m}: fault record {f}", text)
        check(run.has_line(f"code {m}/code: FAULT "), f"{name}: {m}: no FAULT line", text)
        check(not run.by("summary", method=m, workload="code"), f"{name}: {m}: faulted code summarized", text)


def test_contain_lgdt_lidt_no_forged_figures():
    """code= lgdt [r14]; lidt [r14] (the zeroed scratch: limit 0, base 0), no
    fault: the epilogue loads the kernel's tables back, so the end record's
    NMI count is the true 0 (it was the real-mode IVT read as a counter) and
    the code's net is its 2 instructions."""
    run, text = contained("code-contain-lgdt", "code=410f0116410f011e")
    for m in METHODS:
        s = run.one("summary", method=m, workload="code", unit="tsc_ticks")
        check(s["net_min"] == 2, f"{m}: code net {s['net_min']} TSC ticks, expected 2", text)
        check(not run.by("disturbed", method=m), f"{m}: NMIs forged", text)


def test_contain_registers_zero_at_init():
    """init= ORs every general register but RSP and R14 into RAX and runs UD2
    unless the result is 0: no fault, and code= (10 NOPs) measures 10 per
    method. Before, RDI pointed past the scratch area, RBP into the kernel's
    stack and RSI held the sample count."""
    init = "4809d84809c84809d04809f04809f84809e84c09c04c09c84c09d04c09d84c09e04c09e84c09f84885c074020f0b"
    run, text = contained("code-contain-regs", f"init={init} code=90 unroll=10")
    check(not run.by("code_fault"), f"a register was not 0 at init: {run.by('code_fault')}", text)
    for m in METHODS:
        s = run.one("summary", method=m, workload="code", unit="tsc_ticks")
        check(s["net_min"] == 10, f"{m}: code net {s['net_min']} TSC ticks, expected 10", text)


def test_contain_stosb_every_method_reports():
    """code=aa (stosb) x 100, many samples: RDI starts at its documented 0
    every sample, so the code no longer walks over code='s own lengths
    ("the generated loop does not fit (a bug)"): every method reports its
    result, or a #PF at byte 0 where page 0 is unmapped."""
    run, text = contained("code-contain-stosb", "code=aa unroll=100 samples=400")
    check(not any("does not fit" in l for l in run.lines), "the generated loop did not fit", text)
    for m in METHODS:
        faults, s = run.by("code_fault", method=m), run.by("summary", method=m, workload="code", unit="tsc_ticks")
        check(len(faults) + len(s) == 1, f"{m}: neither a result nor a fault: {faults} {s}", text)
        if s:
            check(s[0]["net_min"] == 100, f"{m}: code net {s[0]['net_min']} TSC ticks, expected 100", text)
            check(run.one("per_copy", method=m, unit="tsc_ticks")["per_copy"] == "1.000", f"{m}: per copy", text)
        else:
            f = faults[0]
            check(f["vector"] == 14 and f["cr2"] == 0 and f["offset"] == 0 and f["copy"] == 1,
                  f"{m}: fault {f}", text)


def test_contain_tf_ts_em_left_set():
    """A fault that leaves RFLAGS.TF, CR0.TS or CR0.EM set: the epilogue puts
    them back before FXRSTOR64 (which raised #NM) and before single-stepping
    itself; one fault line per method and the run goes on.
    TF: pushfq; or qword [rsp], 0x100; popfq; nop: the #DB follows the NOP
    (the instruction after the POPF that set TF, SDM Vol. 3B 18.3.1.4).
    TS: mov rax, cr0; or al, 8; mov cr0, rax; movaps xmm0, xmm1: #NM.
    EM: the same with or al, 4: #UD (SSE with EM set)."""
    for name, code, vector, offset, after in (
            ("code-contain-tf", "9c48810c24000100009d90", 1, 10, True),
            ("code-contain-ts", "0f20c00c080f22c00f28c1", 7, 8, False),
            ("code-contain-em", "0f20c00c040f22c00f28c1", 6, 8, False)):
        run, text = contained(name, f"code={code}")
        expect_faults(name, run, text, vector, offset, after)
        if after:
            check(run.has_line("code cpuid/code: FAULT #DB debug (vector 1, error code 0x0) after the "
                               "instruction ending at byte 10 of code= (copy 1 of 1)"), f"{name}: FAULT line", text)


def test_contain_traps_at_their_instruction():
    """Trap-class vectors leave RIP after the instruction: #BP of int3 (CC)
    is reported at byte 0 of copy 1 (not the next copy; with one copy, not
    "outside init= and code="); INT 4 (CD 04, #OF) two bytes back."""
    run, text = contained("code-contain-int3", "code=cc")
    expect_faults("code-contain-int3", run, text, 3, 0)
    check(run.has_line("code cpuid/code: FAULT #BP breakpoint (vector 3, error code 0x0) at byte 0 of code= "
                       "(copy 1 of 1)"), "the #BP line", text)
    run, text = contained("code-contain-int4", "code=9090cd04 unroll=3")
    expect_faults("code-contain-int4", run, text, 4, 2)


def test_contain_walk_survives_fault():
    """walk=on with ud2 in code=: the walked sample's fault is reported and the
    workload skipped, as without walk=on (it ended the run, exit 35); the
    other workloads are still walked."""
    run, text = contained("code-contain-walk", "code=90900f0b walk=on")
    expect_faults("code-contain-walk", run, text, 6, 2)
    for m in METHODS:
        check(run.one("walk", method=m, workload="add_chain_64")["body"] == 64, f"{m}: walk", text)
        check(not run.by("walk", method=m, workload="code"), f"{m}: a walk of the faulted code", text)


def test_contain_leave_ret():
    """code= leave; ret (c9 c3): RBP is 0, not the kernel's frame pointer, so
    LEAVE no longer returns into kernel code on a wrong stack (which printed
    'method (null): SKIPPED' records, then hung). With page 0 unmapped and
    exceptions on IST stacks (the kernel's part of issue 21), LEAVE's load
    from address 0 is a #PF at byte 0 of copy 1."""
    run, text = contained("code-contain-leave", "code=c9c3")
    expect_faults("code-contain-leave", run, text, 14, 0)

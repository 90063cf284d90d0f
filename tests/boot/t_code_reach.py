"""tests/boot/t_code_reach.py - the code's faults are the code's (issue 29
item 10; bench/code.c code_trap, lib/codefault.c): a fault or a watchdog
stop wherever code='s bytes reach is a row of the code naming the byte and
the copy that caused it, and the run goes on (its final line, exit 33):
a jump into the generated loop's epilogue (code=eb60, which ended the run:
#UD, exit 35) and into its prologue, a jump to the epilogue's first byte
that returns without a fault (the loop left early, its samples never
stored), HLT and MWAIT stopped by the watchdog (named at their own byte:
the NMI leaves RIP after them), and a PAUSE loop. Under -icount (the PAUSE
loop under TCG), one method each where the watchdog's 1000 ms of virtual
time cost host time.
The loop's offsets that the jumps aim at are read from the runs' own
records (loop_offset), not written here."""
import struct

from qemu import METHODS, check, expect_complete, qemu

SMALL = "ensembles=3 samples=40 warmup=5 workloads=add_chain_64"
TIMEOUT = 180  # seconds of host time: a 1000 ms watchdog bound under -icount, on a busy 2-core box


def reach_run(name, code, methods, timeout=None, machine="icount"):
    """code= with methods (under -icount unless machine says): complete, one code_fault record and
    FAULT line per method, add_chain_64 measured by each, no NMI counted.
    Returns (run, text, {method: code_fault record})."""
    rc, text = qemu(name, machine, f"{SMALL} methods={','.join(methods)} code={code}", timeout=timeout)
    run = expect_complete(rc, text)
    check(not any("run aborted" in l for l in run.lines), f"{name}: run aborted", text)
    faults = {}
    for m in methods:
        fs = run.by("code_fault", method=m)
        check(len(fs) == 1, f"{name}: {m}: {len(fs)} code_fault records, expected 1", text)
        faults[m] = fs[0]
        check(run.has_line(f"code {m}/code: FAULT "), f"{name}: {m}: no FAULT line", text)
        check(run.by("summary", method=m, workload="add_chain_64"), f"{name}: {m}: add_chain_64 not measured", text)
        check(not run.by("summary", method=m, workload="code"), f"{name}: {m}: the faulted code summarized", text)
    check(run.one("end")["nmis"] == 0, f"{name}: NMIs counted: {run.one('end')}", text)
    return run, text, faults


def fault_line(run, m):
    return next(l for l in run.lines if l.startswith(f"code {m}/code: FAULT "))


def test_code_reach_jump_into_epilogue():
    """code=eb60 (jmp +0x60) lands in the loop's epilogue, whose bytes, read
    from there, raise #UD (cpuid, rdtscp) or pop from the private stack's
    upper guard page (cr0: #PF): the code's fault, in the epilogue, by the
    jump at byte 0 of copy 1, for every method; the your-code table says
    so. Before: 'run aborted by exception #UD', exit 35."""
    run, text, faults = reach_run("reach-eb60", "eb60", METHODS)
    for m, f in faults.items():
        check(f["vector"] in (6, 14) and f["part"] == "epilogue" and f["copy"] == 0 and f["jump_copy"] == 1
              and f["jump_byte"] == 0 and f["jump_lands"] <= f["loop_offset"], f"{m}: fault record {f}", text)
        line = fault_line(run, m)
        check(f"at byte {f['offset']} of the loop's epilogue (byte {f['loop_offset']} of the generated loop), "
              "where the jump at byte 0 of copy 1 lands" in line, f"{m}: FAULT line {line!r}", text)
        row = [l for l in run.lines if l.startswith(m + " ") and "FAULT" in l]
        check(row == [f"{m:<14} FAULT {f['name']} at byte {f['offset']} of the loop's epilogue (from copy 1): no figure"],
              f"{m}: your-code row {row}", text)


def test_code_reach_halt_mwait_pause():
    """HLT (code=f4) and MWAIT (xor ecx, ecx; xor eax, eax; mwait) stopped by
    the watchdog: named at their own byte of copy 1 (before, HLT read 'at
    byte 252 of the generated loop, outside init= and code=': the NMI
    leaves RIP after it). A PAUSE loop (pause; jmp $-2): at one of its two
    instructions, no halting instruction named."""
    for name, code, offset, halt in (("reach-hlt", "f4", 0, "HLT"), ("reach-mwait", "31c931c00f01c9", 4, "MWAIT")):
        run, text, faults = reach_run(name, code, ["rdtscp"], TIMEOUT)
        f = faults["rdtscp"]
        check(f["name"] == "watchdog" and f["part"] == "code" and f["offset"] == offset and f["copy"] == 1
              and f["halt"] == halt, f"{name}: fault record {f}", text)
        check(run.has_line("code rdtscp/code: FAULT watchdog: the code did not finish within 1000 ms (an NMI from "
                           f"HPET timer 0, vector 2) in the {halt} at byte {offset} of code= (copy 1 of 1); this "
                           "workload is skipped for method rdtscp, the run goes on"), f"{name}: FAULT line", text)
        check(run.has_line(f"rdtscp         FAULT watchdog in {halt} at byte {offset} of copy 1: no figure"),
              f"{name}: your-code row", text)
    run, text, faults = reach_run("reach-pause", "f390ebfc", ["rdtscp"], TIMEOUT, "q35-tcg")
    f = faults["rdtscp"]
    check(f["name"] == "watchdog" and f["part"] == "code" and f["offset"] in (0, 2) and f["copy"] == 1
          and f["halt"] is None, f"reach-pause: fault record {f}", text)


def test_code_reach_jump_into_prologue_and_to_exit():
    """JMP rel32 from copy 1 to the loop's byte 0: the prologue runs again
    on the code's stack (it keeps the code's RSP where the epilogue reads
    the kernel's) and faults at its load through RDI = 0: the code's #PF in
    the prologue, by the jump at byte 0 of copy 1, and the kernel's state
    put back (the run completes). JMP rel32 to the epilogue's first byte:
    the loop returns after 0 samples without a fault: 'left the loop',
    never its unstored samples as figures. The offsets: where copy 1 begins
    (code=f4's record) and where the epilogue begins (code=eb60's)."""
    _, _, f4 = reach_run("reach-layout-f4", "f4", ["rdtscp"], TIMEOUT)
    _, _, eb60 = reach_run("reach-layout-eb60", "eb60", ["rdtscp"])
    code_at = f4["rdtscp"]["loop_offset"]
    # The epilogue begins at loop_offset - offset; after 2 bytes of code=, so after 5: 3 bytes later.
    exit_5 = eb60["rdtscp"]["loop_offset"] - eb60["rdtscp"]["offset"] + 3

    def jmp(target):  # E9 rel32 at byte 0 of copy 1, to the loop's byte target
        return "e9" + struct.pack("<i", target - (code_at + 5)).hex()

    run, text, faults = reach_run("reach-prologue", jmp(0), ["rdtscp"])
    f = faults["rdtscp"]
    check(f["vector"] == 14 and f["cr2"] == 0 and f["part"] == "prologue" and f["jump_copy"] == 1
          and f["jump_byte"] == 0 and f["jump_lands"] == 0, f"prologue: fault record {f}", text)
    check(f"at byte {f['offset']} of the loop's prologue (byte {f['loop_offset']} of the generated loop), where the "
          f"jump at byte 0 of copy 1 lands, {f['loop_offset']} bytes before it" in fault_line(run, "rdtscp"),
          f"prologue: FAULT line {fault_line(run, 'rdtscp')!r}", text)
    run, text, faults = reach_run("reach-exit", jmp(exit_5), ["rdtscp"])
    f = faults["rdtscp"]
    check(f["vector"] is None and f["name"] == "left the loop" and f["part"] == "epilogue" and f["samples"] == 0
          and f["jump_copy"] == 1 and f["jump_lands"] == exit_5, f"exit: fault record {f}", text)
    check(run.has_line("code rdtscp/code: FAULT the code left its loop, without an exception, after 0 of "),
          f"exit: FAULT line {fault_line(run, 'rdtscp')!r}", text)

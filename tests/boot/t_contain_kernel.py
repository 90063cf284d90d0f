"""tests/boot/t_contain_kernel.py - code= contained by the kernel (issue 21
items 6, 7, 11, 18 and the per-CPU data): page 0 unmapped, so a RET or CALL
to 0 faults; guard pages around the private stack, so an overflow is a #PF;
every vector on an IST stack, so a fault with RSP anywhere has its true
frame; a software INT n to any vector (error-code vectors, INT 2) a code
fault with the right fields, INT 2 not counted as an NMI; the per-CPU data
found by CPUID's APIC ID, so an LGDT in code= does not forge the end
record's counters. Each case: a FAULT line and record per method, then the
run's final line (no triple fault, no hang: the machine's timeout)."""
from qemu import Run, check, qemu

ARGS = "ensembles=2 samples=20 warmup=2 methods=cpuid,rdtscp workloads=add_chain_64"
GUARD = 4096
STACK = 16384  # bench/code.c STACK_BYTES


def contained(name, code, unroll=1, extra="", smp=None):
    """Run code= under -icount; the run must reach its final line ('bench:
    run complete', never 'run aborted'), with valid records and an end
    record. Returns the Run and the log."""
    rc, text = qemu(f"contain-{name}", "icount", f"{ARGS} code={code} unroll={unroll} {extra}", smp=smp)
    run = Run(rc, text)
    check(not run.errors, f"{name}: bad records: {run.errors}", text)
    final = run.final_line()
    check(final is not None and final.startswith("bench: run complete"),
          f"{name}: the run did not reach its final line (QEMU exit status {rc})", text)
    check(not any("run aborted" in l for l in run.lines), f"{name}: run aborted", text)
    check(run.one("end")["status"] == "complete", f"{name}: end record", text)
    return run, text


def faults(run, text, name, vector, error_code=0, part=None, cpus=1):
    """One code_fault record per method (and CPU), each of vector with
    error_code (and part), with its FAULT line."""
    fs = run.by("code_fault")
    check(sorted(f["method"] for f in fs) == sorted(["cpuid", "rdtscp"] * cpus), f"{name}: code_fault records {fs}",
          text)
    for f in fs:
        check(f["vector"] == vector and f["error_code"] == error_code and (part is None or f["part"] == part),
              f"{name}: expected vector {vector}, error code {error_code}, part {part}: {f}", text)
        check(run.has_line(f"code {f['method']}/code: FAULT "), f"{name}: no FAULT line", text)
    return fs


def test_contain_ret_and_call_zero():
    """A lone RET (c3) pops from above the stack's top: the upper guard page
    (#PF at byte 0). XOR EAX,EAX; CALL RAX (31 c0 ff d0) jumps to 0: page 0 is
    unmapped, #PF at address 0 (before: the CPU ran the real-mode interrupt
    table as code and the machine hung)."""
    run, text = contained("ret", "c3")
    for f in faults(run, text, "ret", 14, 0, "code"):
        check(f["offset"] == 0, f"ret: {f}", text)
    run, text = contained("call0", "31c0ffd0")
    for f in faults(run, text, "call0", 14, 0):
        check(f["cr2"] == 0 and f["part"] == "page0", f"call 0: {f}", text)


def test_contain_stack_overflow_hits_the_guard():
    """CALL $ (e8 fb ff ff ff) recursion, 2,400 and 8,192 PUSH RAX (64 KiB):
    each runs the 16 KiB stack into the guard page below it, a #PF written
    (error code 2: a write to a page not present) on the #PF's IST stack,
    with CR2 in the guard page; before: the saved state, the IDT and the TSS
    were overwritten (hang, triple fault)."""
    for name, code, unroll in (("call-self", "e8fbffffff", 1), ("push-2400", "50", 2400),
                               ("push-64k", "50", 8192)):
        run, text = contained(name, code, unroll)
        fs = faults(run, text, name, 14, 2, "code")
        cr2 = {f["cr2"] for f in fs}
        check(len(cr2) == 1 and next(iter(cr2)) % GUARD == GUARD - 8, f"{name}: CR2 {cr2}", text)
        if code == "50":
            check(all(f["copy"] == STACK // 8 + 1 for f in fs), f"{name}: the push that faults: {fs}", text)


def test_contain_guard_on_every_cpu():
    """cpus=all on -smp 2: 2,400 pushes fault at the guard on the
    application processor too, started before code= unmapped the guard
    pages (it flushes its TLBs before each command: kernel/paging.c
    paging_sync; QEMU TCG keeps no stale 2 MiB translation, so this does not
    prove the flush, only that the guard holds on every CPU)."""
    run, text = contained("push-ap", "50", 2400, "cpus=all", smp="2")
    fs = faults(run, text, "push-ap", 14, 2, "code", cpus=2)
    check({f.get("cpu") for f in fs} == {0, 1} and all(f["copy"] == STACK // 8 + 1 for f in fs),
          f"push-ap: faults {fs}", text)


def test_contain_software_int_every_kind():
    """INT n from code=: 0EH and 08H push no error code (before: every field
    shifted one slot), 2 (before: counted as an NMI, 'disturbed'), 40H and
    FFH (before: the run ended). Each a code fault of that vector with error
    code 0, no NMI counted."""
    for n in (0x0E, 0x08, 0x02, 0x40, 0xFF):
        name = f"int-{n:02x}"
        run, text = contained(name, f"cd{n:02x}")
        faults(run, text, name, n, 0)
        check(run.one("end")["nmis"] == 0, f"{name}: NMIs counted: {run.one('end')}", text)
        check(not any(l.startswith("bench: EXCEPTION") for l in run.lines), f"{name}: a crash report", text)


def test_contain_rsp_without_ram():
    """MOV RSP, 80000000H (mapped by the boot's 0..4 GiB, no RAM behind it on
    a 256 MiB machine), then UD2: #UD at byte 10, reported from the IST
    stack's frame (before: the frame went to RSP and the dump was all zero)."""
    run, text = contained("rsp-noram", "48bc00000080000000000f0b")
    for f in faults(run, text, "rsp-noram", 6, 0, "code"):
        check(f["offset"] == 10, f"rsp-noram: {f}", text)


def test_contain_lgdt_does_not_forge_counters():
    """LGDT from the zeroed scratch area (R14): GDTR base 0, limit 0. The
    per-CPU data is found by the APIC ID, so the end record's NMI count
    stays 0 (before: the real-mode interrupt table read as counters)."""
    run, text = contained("lgdt", "410f0116")
    check(run.one("end")["nmis"] == 0, f"lgdt: {run.one('end')}", text)

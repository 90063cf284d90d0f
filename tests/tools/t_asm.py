"""tests/tools/t_asm.py - the user's own code: `bench.py asm` prints the boot
parameters that measure it (nasm) and refuses what nasm cannot assemble;
`bench.py report` shows the measured code (code=) disassembled, and its cost
per copy.
"""
from common import bench, boot, check


def test_asm_boot_parameters():
    rc, out = bench("asm", "imul rax, rbx")
    check(rc == 0 and out.strip() == "code=480fafc3", f"asm printed {out!r}", out)
    rc, out = bench("asm", "add rax, rbx; add rcx, rdx", "--init", "mov r8, r14", "--unroll", "100",
                    "--loops", "3", "--name", "adds")
    check(rc == 0 and out.strip() == "code=4801d84801d1 init=4d89f0 unroll=100 loops=3 code.name=adds",
          f"asm printed {out!r}", out)
    rc, out = bench("asm", "imul rax, rbx, rcx, rdx")
    check(rc == 1 and "invalid combination of opcode and operands" in out, f"a bad line: {rc} {out!r}", out)


def test_report_shows_the_measured_code():
    log = boot("code")
    rc, out = bench("report", log, "--no-figures")
    check(rc == 0, f"exit status {rc}, expected 0 (valid log)", out)
    for want in ("Measured code (workload mix): 7 bytes x unroll 10", "imul   rax,rax", "add    rax,rbx",
                 "per copy, cpuid: 2.000 TSC ticks, exactly (2N-N over 10 copies)"):
        check(want in out, f"the report lacks {want!r}", out)

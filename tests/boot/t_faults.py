"""tests/boot/t_faults.py - faults that must end a run cleanly: an NMI
arriving while a #MC or #DF is being reported (NMI, #DF and #MC each on a
stack of their own), and a CPU without long mode (the FATAL line, then QEMU's
failure exit status from 32-bit code)."""
import os
import struct

import builds
from qemu import EXIT_FAILURE, check, clean_lines, qemu
from screen import Machine, symbol_address

VEC_NMI, VEC_DF, VEC_MC = 2, 8, 18
IST_STACK_SIZE = 16384  # kernel/trap.c
BAD_RSP = 0x100001000   # tests/boot/ist_test.c IST_TEST_BAD_RSP


def ist_build():
    """The directory of the image with tests/boot/ist_test.c's
    boot_test_hook (built once: both tests boot it)."""
    return builds.variant("ist-test", "tests/boot/ist_test.c")


def ist_layout(m, elf):
    """{vector: (IST index, top of that IST stack)} for NMI, #DF and #MC, read
    from the IDT and the TSS in guest memory (SDM Vol. 3A 7.14.1 figure 7-8:
    the gate's byte 4 bits 2:0; 9.7 figure 9-11: IST1 at offset 0x24)."""
    idt, tss = symbol_address(elf, "idt"), symbol_address(elf, "tss")
    ists = struct.unpack("<7Q", m.read_memory(tss + 0x24, 56))
    layout = {}
    for v in (VEC_NMI, VEC_DF, VEC_MC):
        index = m.read_memory(idt + 16 * v + 4, 1)[0] & 7
        layout[v] = (index, ists[index - 1] if index else None)
    return layout


def nmi_during_report(case):
    """Boot the test image with ist_test=CASE, stop where the handler starts
    its report (console_emergency), check the IST layout and that the
    handler runs on its own IST stack, inject an NMI, let the report finish.
    Returns (QEMU exit status, serial log lines, layout, RSP at the stop)."""
    build = ist_build()
    elf = os.path.join(build, "bench.elf")
    with Machine(f"ist-{case}", append=f"ist_test={case}", image=os.path.join(build, "bench32.elf"),
                 debug_exit=True, stopped=True) as m:
        m.run_to(symbol_address(elf, "console_emergency"), 60)
        layout = ist_layout(m, elf)
        rsp = m.register(7)
        m.hmp("nmi")
        m.resume()
        rc = m.wait_exit(60)
        text = m.serial_text()
    return rc, text, layout, rsp


def expect_own_ist(layout, vector, rsp, text):
    """NMI, #DF and #MC have distinct IST indices whose stacks do not
    overlap, and the handler of vector was stopped on its own stack."""
    shown = {v: (i, hex(t or 0)) for v, (i, t) in layout.items()}
    check(all(i for i, _ in layout.values()), f"NMI, #DF or #MC on the current stack (IST 0): {shown}", text)
    check(len({i for i, _ in layout.values()}) == 3, f"NMI, #DF and #MC share an IST index: {shown}", text)
    tops = sorted(t for _, t in layout.values())
    check(all(b - a >= IST_STACK_SIZE for a, b in zip(tops, tops[1:])), f"the IST stacks overlap: {shown}", text)
    top = layout[vector][1]
    check(top - IST_STACK_SIZE <= rsp < top,
          f"vector {vector}'s handler runs at RSP 0x{rsp:x}, not on its IST stack (top 0x{top:x})", text)


def expect_report(rc, text, name, vector):
    lines = clean_lines(text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", text)
    check(any(l.startswith(f"bench: EXCEPTION {name} (vector {vector}), error code 0x0") for l in lines),
          f"the report does not describe the {name}: the NMI overwrote its frame", text)
    check("  NMIs received since boot: 1" in lines, "the injected NMI did not arrive during the report", text)
    check(any(l.startswith(f"bench: run aborted by exception {name} at RIP=") for l in lines),
          f"no final 'run aborted by exception {name}' line", text)
    return lines


def test_faults_nmi_during_machine_check_report():
    """INT 18 through the #MC gate; an NMI while its report is printed. The
    report still says #MC at the instruction after the INT, and the handler
    ran on the #MC gate's stack, which the NMI gate does not use."""
    rc, text, layout, rsp = nmi_during_report("mc")
    lines = expect_report(rc, text, "#MC machine check", VEC_MC)
    rip = symbol_address(os.path.join(ist_build(), "bench.elf"), "ist_test_after_int")
    check(any(l.startswith(f"  RIP={rip:016x} ") for l in lines),
          f"the report's RIP is not 0x{rip:x}, after the INT 18", text)
    expect_own_ist(layout, VEC_MC, rsp, text)


def test_faults_nmi_during_double_fault_report():
    """A #GP while delivering a #PF (their gates past the IDT's limit): #DF;
    an NMI while the #DF is reported. The report still says #DF with the
    RSP of the PUSH that faulted."""
    rc, text, layout, rsp = nmi_during_report("df")
    lines = expect_report(rc, text, "#DF double fault", VEC_DF)
    check(any(l.startswith(f"  RSP={BAD_RSP:016x} ") for l in lines),
          f"the report's RSP is not the overflowing stack 0x{BAD_RSP:x}", text)
    expect_own_ist(layout, VEC_DF, rsp, text)


# QEMU CPU models without long mode (CPUID.80000001H:EDX[29] = 0).
NO_LONG_MODE_CPUS = ["pentium3", "n270", "athlon", "qemu32", "coreduo"]
NO_LONG_MODE = ("bench: FATAL: this CPU does not support long mode (CPUID.80000001H:EDX[29]=0); "
                "this image needs an x86-64 CPU")


def test_faults_no_long_mode_exits():
    """32-bit CPUs: boot/entry.asm prints the FATAL line and, still in 32-bit
    code, writes the failure code to isa-debug-exit: QEMU exits with status
    35 (each run has a 30 s timeout; before the fix it halted for ever)."""
    for cpu in NO_LONG_MODE_CPUS:
        # The CPU model is what this test is about; 30 s: the run ends at once.
        rc, text = qemu(f"no-long-mode-{cpu}", "q35-tcg", "ensembles=2 samples=10", cpu=cpu, timeout=30)
        lines = [l for l in clean_lines(text) if l]
        check(lines == [NO_LONG_MODE], f"-cpu {cpu}: the output is not exactly the FATAL line", text)
        check(rc == EXIT_FAILURE, f"-cpu {cpu}: QEMU exit status {rc}, expected {EXIT_FAILURE}", text)

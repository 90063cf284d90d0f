"""tests/boot/vector.py - which code of the built image uses the x87, MMX or
SSE/AVX state, from its disassembly (objdump, binutils).

The kernel's C code is built with -mgeneral-regs-only (Makefile): only the
workloads that measure vector instructions use them, in inline asm, and the
boot code enables them (boot/entry.asm). The tests that check this, and the
KVM tests that leave out the workloads a hypervisor cannot run, read the
image here."""
import re
import subprocess

from qemu import ALL_METHODS

# An operand naming an x87, MMX, SSE/AVX or AVX-512 mask register.
VECTOR_OPERAND = re.compile(r"%(?:[xyz]mm\d+|mm[0-7]|st\b|st\(\d\)|k[0-7]\b)")
# Instructions on that state without such an operand.
VECTOR_STATE = {"emms", "femms", "ldmxcsr", "stmxcsr", "fxsave", "fxsave64", "fxrstor", "fxrstor64",
                "vzeroupper", "vzeroall"}
FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*)$")
# bench_fill_W_M, bench_fillc_W_M and bench_fille_W_M (the events passes): workload W's sampling loop
# for method M (bench/workload.h).
FILL = re.compile(r"^bench_fill[ce]?_(\w+)$")


def disassemble(elf):
    """[(function, address, mnemonic, operands and objdump's comment)]."""
    p = subprocess.run(["objdump", "-d", "--no-show-raw-insn", elf], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    if p.returncode:
        raise AssertionError(f"objdump -d {elf} failed: {p.stdout[-500:]!r}")
    out, func = [], None
    for line in p.stdout.decode("utf-8", errors="replace").splitlines():
        m = FUNCTION.match(line)
        if m:
            func = m.group(2)
            continue
        m = INSN.match(line)
        if m and func:
            out.append((func, int(m.group(1), 16), m.group(2), m.group(3)))
    return out


def uses_vector_state(mnemonic, operands):
    """True for an x87 (f...), MMX, SSE/AVX instruction or one on their state."""
    return (mnemonic in VECTOR_STATE or bool(VECTOR_OPERAND.search(operands.split("#")[0]))
            or (mnemonic.startswith("f") and mnemonic not in ("fs", "fs:")))


def sampling_loop(function):
    """(workload, method) when function is a sampling loop, else None."""
    m = FILL.match(function)
    if not m:
        return None
    for method in sorted(ALL_METHODS, key=len, reverse=True):
        if m.group(1).endswith("_" + method):
            return m.group(1)[:-len(method) - 1], method
    return None


def registered_workloads(elf):
    """The names of the workloads registered in elf (their bench_workload_W
    descriptors, bench/workload.h), sorted."""
    p = subprocess.run(["nm", elf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    names = [l.split()[2][len("bench_workload_"):] for l in p.stdout.decode(errors="replace").splitlines()
             if len(l.split()) == 3 and l.split()[2].startswith("bench_workload_")]
    return sorted(names)


def vector_workloads(elf, insns=None):
    """The workloads whose sampling loops use the x87/MMX/SSE state, sorted."""
    found = set()
    for func, _, mnem, ops in insns or disassemble(elf):
        loop = sampling_loop(func)
        if loop and uses_vector_state(mnem, ops):
            found.add(loop[0])
    return sorted(found)

"""tests/boot/t_regs.py - the registers the built image uses (no QEMU run:
its disassembly). The kernel's C code uses only the general registers
(-mgeneral-regs-only, as Linux and kvm-unit-tests build theirs): the
compiler cannot put SSE into the set-up, where a hypervisor that does not
emulate it stops the guest, nor into a workload, where it would change what
is measured. Only the workloads that measure vector instructions use them,
in inline asm: vaddb is Goossens' MMX code, with EMMS outside the window.
And, after the run, the QR code encoder linked from Debian's
libqrcodegen.a, built with SSE, called through kernel/qr.c's qr_encode,
which saves and restores the x87/SSE state around it (FXSAVE, FXRSTOR)."""
import os
import re
import subprocess

from qemu import BUILD, check
from vector import disassemble, sampling_loop, uses_vector_state

ELF = os.path.join(BUILD, "bench.elf")
# The workloads that measure vector instructions (bench/wl_goossens.c), and
# the boot code's own: FNINIT (boot/entry.asm).
VECTOR_WORKLOADS = {"vaddb"}
BOOT_VECTOR = {("long_mode_entry", "fninit")}
READS = ("rdtsc", "rdtscp", "rdmsr", "rdpmc")
QRCODEGEN_A = "/usr/lib/x86_64-linux-gnu/libqrcodegen.a"  # the Makefile's
QR_CALLER = {("qr_encode", "fxsave"), ("qr_encode", "fxrstor")}


def archive_functions(path=QRCODEGEN_A):
    """The functions the encoder's archive defines (nm: text symbols)."""
    p = subprocess.run(["nm", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    check(p.returncode == 0, f"nm {path} failed", p.stdout.decode(errors="replace"))
    return {l.split()[2] for l in p.stdout.decode(errors="replace").splitlines()
            if len(l.split()) == 3 and l.split()[1] in "tT"}


def listing(insns):
    return "\n".join(f"    | {f} {a:x}: {m} {o}" for f, a, m, o in insns[:12])


def test_regs_general_registers_only_outside_vector_workloads():
    """No x87, MMX or SSE/AVX instruction in the image but in the sampling
    loops of the vector workloads, the boot code's FNINIT, the QR code
    encoder's own functions (libqrcodegen.a, which is linked: its SSE
    moves are there) and qr_encode's FXSAVE and FXRSTOR around it."""
    insns = disassemble(ELF)
    encoder = archive_functions()
    linked = {i[0] for i in insns} & encoder
    check("qrcodegen_encodeBinary" in linked, f"no qrcodegen_encodeBinary in {ELF}: "
          f"the encoder's functions found there: {sorted(linked)}")
    check({(i[0], i[2]) for i in insns if i[0] == "qr_encode"} >= QR_CALLER,
          "qr_encode does not save and restore the x87/SSE state (FXSAVE, FXRSTOR)")
    stray = [i for i in insns if uses_vector_state(i[2], i[3]) and (i[0], i[2]) not in BOOT_VECTOR
             and (i[0], i[2]) not in QR_CALLER and i[0] not in encoder
             and (sampling_loop(i[0]) or ("", ""))[0] not in VECTOR_WORKLOADS]
    check(not stray, f"{len(stray)} x87/MMX/SSE instructions outside the vector workloads' sampling loops "
          "(is the kernel built with -mgeneral-regs-only?):\n" + listing(stray))


def vaddb_row(r):
    """The four instructions of row r of the slides' vaddb (objdump's text):
    two MMX loads, PADDB, one store."""
    off = f"\\+0x{8 * r:x}" if r else ""
    return [re.compile(rf"^movq \S+,%mm(\d) +# [0-9a-f]+ <goossens_x{off}>$"),
            re.compile(rf"^movq \S+,%mm(\d) +# [0-9a-f]+ <goossens_y{off}>$"),
            re.compile(r"^paddb %mm(\d),%mm(\d)$"),
            re.compile(rf"^movq %mm(\d),\S+ +# [0-9a-f]+ <goossens_z{off}>$")]


def find_vaddb_body(ops):
    """The index of the 32-instruction body in ops (['mnemonic operands']), or None."""
    pattern = [p for r in range(8) for p in vaddb_row(r)]
    for start in range(len(ops) - len(pattern) + 1):
        ms = [p.match(o) for p, o in zip(pattern, ops[start:start + len(pattern)])]
        if all(ms) and all(ms[k + 2].group(1) == ms[k + 1].group(1) and ms[k + 2].group(2) == ms[k].group(1)
                           == ms[k + 3].group(1) for k in range(0, len(ms), 4)):
            return start
    return None


def test_regs_vaddb_is_goossens_mmx_code():
    """Every vaddb sampling loop holds the 32-instruction MMX body (8 rows of
    movq x, movq y, paddb, movq z), no SSE register, and one EMMS, before
    the start's counter read, so outside the window."""
    loops = {}
    for f, a, m, o in disassemble(ELF):
        loop = sampling_loop(f)
        if loop and loop[0] == "vaddb":
            loops.setdefault(f, []).append(f"{m} {o}".strip())
    check(len(loops) >= 3, f"only {len(loops)} vaddb sampling loops in {ELF}")
    for f, ops in sorted(loops.items()):
        text = "\n".join(ops)
        check(not any("%xmm" in o for o in ops), f"{f}: SSE registers in vaddb's loop", text)
        body = find_vaddb_body(ops)
        check(body is not None, f"{f}: no MMX body (8 x movq x, movq y, paddb, movq z)", text)
        emms = [i for i, o in enumerate(ops) if o == "emms"]
        check(len(emms) == 1, f"{f}: {len(emms)} EMMS, expected one", text)
        reads = [i for i, o in enumerate(ops[:body]) if o.split()[0] in READS]
        check(reads and emms[0] < reads[-1], f"{f}: EMMS is not before the start's counter read: it is "
              "inside the window", text)

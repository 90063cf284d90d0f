"""tests/boot/t_code_fuzz.py - a code= fuzz (issue 21, What to build 8):
payloads drawn with a fixed seed from hostile and buggy instruction
sequences (returns into nowhere, recursion, push floods, descriptor-table
and flag games, software interrupts to every kind of vector, control-
register bits, endless loops, wild stacks), one QEMU at a time, each run
bounded by its machine's timeout. Every case must end with its final line
and the exit status of a complete run, its records valid JSON, and no
figure forged: the code workload is either measured or reported as a fault
by every method that ran, and no count or figure in the records is one a
run of this size cannot produce.

Out of the fuzz, as the README's contract of code= leaves them to the
user: writes to CR3/CR4/MSRs, port I/O, LIDT/LTR and a fault after a
broken GDT (the CPU needs both to deliver any exception: SDM Vol. 3A 6.14):
`lgdt [r14]` (a GDT of zeros) is a case of its own, with no fault after it
before the loop's epilogue restores GDTR. Jumps into the generated loop's
own parts are in (code=eb60 lands in the epilogue; `jmp $ - 0x100` before
the copies), but not ones that land in the immediates of the loop's MOV
r64, imm64 (`jmp $ - 0x40` from a 12-byte code): they run the addresses
as instructions, which write anywhere, the page tables too (seen: a #PF
with RSVD set in the kernel afterwards), as a write to CR3 would; nor
forward jumps that run the loop's bytes into a page QEMU 7.2's TCG cannot
translate from (`jmp $ + 0x90` x 7: QEMU's assertion `phys_page != -1` in
translator_access ended QEMU).

FUZZ_CASES (environment) sets the number of cases (default below);
FUZZ_SEED the seed. A failing case prints its boot parameters and the
nasm text, to run alone with `make run CODE=...`."""
import os
import random
import sys
import time

from qemu import ROOT, Run, check, qemu, tail

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchasm  # noqa: E402

CASES = int(os.environ.get("FUZZ_CASES", "300"))
SEED = int(os.environ.get("FUZZ_SEED", "20261124"))
SMALL = "ensembles=1 samples=3 warmup=0 methods=cpuid,rdtscp workloads=add_chain_64 problems=ignore"
# Records whose integers are measurements or counts; none of them may be
# larger than a run of 3 samples of a few thousand instructions gives.
FIGURE_RECS = ("summary", "per_copy", "ensemble", "end", "verdict", "code_offset")
FIGURE_MAX = 1 << 44
# A variance is in the unit squared (var_of_vars: to the fourth): its bound
# is FIGURE_MAX to that power, so that one sample stretched by the host's
# load (plain TCG: a TSC tick is host time; 4 ms, 1.2e7 ticks, in one of 3
# samples gives an ensemble variance near 1e14, above 2^44: CI's clean
# clone, case 192) is not taken for a forged figure, while a wrapped
# difference (2^63 and more, squared) still is.
def figure_bound(key):
    return FIGURE_MAX ** (4 if key == "var_of_vars" else 2 if "var" in key else 1)

# Instructions that run and go on, in nasm syntax.
BENIGN = ["nop", "add rax, rbx", "imul rax, rax", "mov rax, [r14 + 8]", "mov [r14 + 16], rax",
          "push rax", "pop rbx", "lea rcx, [rcx + 1]", "xor ecx, ecx", "pause", "lfence", "cpuid",
          "rdtsc", "movdqa xmm0, xmm1", "sidt [r14]", "sgdt [r14 + 16]", "cld", "std", "clc",
          "mov rdi, r14", "mov ecx, 64", "rep stosb", "stosb", "mov rsi, r14", "rep movsb",
          "inc qword [r14]", "cli", "sti", "clac", "stac"]
# Instructions or sequences that end the window with an exception, a hang
# or a wild control transfer (db 0xce: INTO, #UD in 64-bit mode).
HOSTILE = ["ret", "leave", "leave\nret", "xor eax, eax\ncall rax", "xor eax, eax\njmp rax",
           "call $", "ud2", "int3", "int1", "db 0xce", "xor ecx, ecx\ndiv rcx",
           "mov rax, [0]", "mov rax, [rax]", "mov rax, 0x0000800000000000\nmov rax, [rax]",
           "mov ecx, 3000\npush rax\nloop $ - 1", "mov ecx, 70000\npush rax\npush rax\nloop $ - 2",
           "lgdt [0]", "pushfq\nor dword [rsp], 0x100\npopfq",
           "pushfq\nor dword [rsp], 0x40000\npopfq\nmov rax, [rsp + 1]",
           "mov rax, cr0\nor rax, 8\nmov cr0, rax\nmovaps xmm0, xmm1",
           "mov rax, cr0\nor rax, 4\nmov cr0, rax\nfld1",
           "jmp $", "hlt", "cli\nhlt", "mov rsp, 0\npush rax", "mov rsp, 0x3f00000000\npush rax\nud2",
           "mov rsp, 0x0000800000000000\npush rax", "swapgs", "vaddps ymm0, ymm1, ymm2",
           "mov rbp, rsp\nleave\nret", "xor esp, esp\nint3", "xor esi, esi\nmov rax, [rsi]",
           # jumps into the generated loop's own parts (epilogue, prologue, setup) and halts (issue 29 item 10)
           "db 0xeb, 0x60", "jmp $ - 0x100", "xor ecx, ecx\nxor eax, eax\nmwait"]


def int_n(rng):
    n = rng.choice([0, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13, 14, 17, 18, 21, 29, 30, 31, 32, 0x40, 0x80, 0xfe,
                    0xff, rng.randrange(256)])
    return f"int {n:#x}"


def payload(rng):
    """(code text, init text or None, unroll): 1..4 pieces, at least one hostile in most."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        parts.append(int_n(rng) if r < 0.2 else rng.choice(HOSTILE) if r < 0.6 else rng.choice(BENIGN))
    init = rng.choice([None, None, None, "mov rax, r14", "xor ebp, ebp", rng.choice(HOSTILE)])
    return "\n".join(parts), init, rng.choice([1, 1, 2, 7, 100])


def cases():
    rng = random.Random(SEED)
    out = []
    # The issue's own cases first, then the drawn ones.
    for text in ("ret", "jmp $", "mov ecx, 65536 / 8\npush rax\nloop $ - 1", "lgdt [0]", "lgdt [r14]", "int 0x0e",
                 "int 2", "int 0xff", "xor eax, eax\ncall rax", "call $", "db 0xeb, 0x60", "hlt"):
        out.append((text, None, 1))
    while len(out) < CASES:
        out.append(payload(rng))
    return out[:CASES]


def check_case(i, text_code, init, unroll):
    words = [f"code={benchasm.assemble(text_code).hex()}", f"unroll={unroll}"]
    if init:
        words.append(f"init={benchasm.assemble(init).hex()}")
    append = f"{SMALL} {' '.join(words)}"
    where = f"fuzz case {i} (code {text_code!r}, init {init!r}, unroll {unroll}; boot words: {' '.join(words)})"
    try:
        rc, text = qemu(f"fuzz-{i}", "q35-tcg", append, timeout=60)
    except AssertionError as e:  # the run's bound: a hang
        raise AssertionError(f"{where}: {e}") from None
    run = Run(rc, text)
    check(rc == 33, f"{where}: QEMU exit status {rc}, expected 33 (complete)", text)
    check(not run.errors, f"{where}: records that are not JSON: {run.errors[:3]}", text)
    final = run.final_line()
    check(final is not None and final.startswith("bench: run complete"), f"{where}: final line {final!r}", text)
    end = run.one("end")
    check(end["status"] == "complete", f"{where}: end record {end}", text)
    for rec in run.recs:
        if rec.get("rec") in FIGURE_RECS:
            for k, v in rec.items():
                if isinstance(v, int) and not isinstance(v, bool):
                    check(abs(v) < figure_bound(k), f"{where}: forged figure {rec['rec']}.{k} = {v}", text)
    ran = sorted({r["method"] for r in run.by("method")})
    for m in ran:
        measured = run.by("summary", method=m, workload="code")
        faulted = run.by("code_fault", method=m)
        check(len(measured) + len(faulted) >= 1,
              f"{where}: method {m}: the code workload is neither measured nor a fault", text)
    check(all(r.get("method") in ran for r in run.by("code_fault")),
          f"{where}: a fault record of a method that did not run: {run.by('code_fault')}", text)


def test_code_fuzz():
    """CASES payloads, one QEMU at a time: each run complete, valid and unforged."""
    failures, t0 = [], time.monotonic()
    for i, (code, init, unroll) in enumerate(cases()):
        try:
            check_case(i, code, init, unroll)
        except AssertionError as e:
            failures.append(str(e))
            if len(failures) >= 5:
                break
    print(f"fuzz: {i + 1} cases of seed {SEED} in {time.monotonic() - t0:.0f} s; {len(failures)} failed")
    check(not failures, f"{len(failures)} fuzz cases failed:\n" + "\n\n".join(failures))

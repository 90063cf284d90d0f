#!/usr/bin/env python3
"""tests/boot/same_output.py - the kernel's output before and after a change
that must not change it (issue 19: a restructuring with "the program's
output unchanged").

What is captured of a build (capture), for each configuration of CONFIGS
below (drawn from the boot tests' own: the file named beside each), every
one under -icount shift=0,align=off,sleep=off so that a run prints the same
bytes every time (a boot through GRUB nearly: QEMU completes the CD's reads
on threads of the host, so the instructions GRUB runs before the kernel
vary, and with them the phase of the PM timer at the kernel's calibration,
which MASKS masks anyway):
  * NAME.log.gz: QEMU's exit status ("halted" for a run whose screen is
    read: it ends without isa-debug-exit), then the serial log;
  * NAME.screen: where the configuration has one, the final screen as text
    (tests/boot/screen.py: VGA text from 0xB8000, or the framebuffer read
    cell by cell against kernel/font.c) and, for a framebuffer, the SHA-256
    of its pixels (the QR code beside the summary included);
  * windows.txt.gz: the disassembly of every sampling loop (the functions
    holding the window markers of the section bench_marks,
    tests/boot/check_windows.py), where the markers stand, and every
    instruction's bytes and text with what depends on where code and data
    were linked masked (disassembly() says what).
compare then prints every line that differs, with its configuration, after
masking in both captures what legitimately changes when code moves but
behaviour does not (MASKS below, each with its reason); nothing else is
masked.

    same_output.py capture BUILD OUT [-j N] [NAME...]  # BUILD's images (make kernel iso) into OUT
    same_output.py compare A B         # exit 1 on any difference
    same_output.py --base REV [BUILD]  # REV built in a temporary worktree against BUILD (build/)
    same_output.py configs             # the table

The goldens (tests/golden/, captured from the commit in tests/golden/BASE)
are what tests/boot/t_same_output.py compares the current build against.
A change that means to change the output re-captures them and shows the
difference for review:
    make kernel iso
    python3 tests/boot/same_output.py capture build build/same-new
    python3 tests/boot/same_output.py compare tests/golden build/same-new   # review every line
    python3 tests/boot/same_output.py capture build tests/golden && git rev-parse HEAD > tests/golden/BASE
"""
import gzip
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))  # tests/: runner.py, which the boot helpers use

INTEL = "max,vendor=GenuineIntel"
SMALL = "ensembles=3 samples=50"
ONE = "ensembles=3 samples=50 methods=rdtscp workloads=add_chain_64"

Config = namedtuple("Config", "name append machine cpu smp screen source")


def C(name, append, machine="icount", cpu=None, smp=None, screen=None, source=""):
    """One configuration: the command line (append), the machine of
    tests/boot/machines.py it boots (every one under -icount; a cdrom
    machine boots a GRUB ISO of its own, multiboot2, from CD under BIOS),
    QEMU's -cpu when not the machine's, -smp, the screen read at the end
    (None, "vga", "fb") and the boot test it is drawn from."""
    return Config(name, append, machine, cpu, smp, screen, source)


CONFIGS = [
    C("default", SMALL, source="t_methods.py tcg-max"),
    C("default-intel", SMALL, machine="icount-intel", source="t_modern.py"),
    C("methods-paper", "ensembles=3 samples=50 methods=cpuid,rdtscp,cr0 workloads=add_chain_64",
      source="t_methods.py"),
    C("methods-modern", "ensembles=3 samples=50 methods=lfence_rdtscp,lfence,serialize workloads=add_chain_64",
      machine="icount-intel", source="t_modern.py methods-select"),
    C("methods-centaur", "ensembles=3 samples=50 methods=lfence,lfence_rdtscp,rdtscp workloads=add_chain_64",
      cpu="max,vendor=CentaurHauls", source="t_figures.py lfence-centaur"),
    C("pmu-force", "ensembles=3 samples=50 methods=ctr_rdmsr,ctr_rdpmc,rdtscp workloads=add_chain_64 pmu=force",
      machine="icount-intel", source="t_pmu.py pmu-force"),
    C("pmu-off", ONE + " pmu=off", source="t_pmu.py pmu-off"),
    C("workloads-all", "ensembles=2 samples=30 methods=rdtscp workloads=all", source="t_workloads.py"),
    C("workloads-some", "ensembles=3 samples=50 methods=cr0 workloads=measured_function,saddb,vaddb,imul_chain_64",
      machine="icount-intel", source="t_workloads.py"),
    C("resolution", "ensembles=12 samples=30 resolution=on methods=rdtscp workloads=measured_function",
      source="t_workloads.py icount-resolution"),
    C("walk", "ensembles=2 samples=30 walk=on methods=cpuid,rdtscp workloads=add_chain_64,measured_function",
      machine="icount-intel", source="t_window.py"),
    C("code-nops", "ensembles=3 samples=40 warmup=5 workloads=add_chain_64 code=90 unroll=100 walk=on",
      machine="icount-intel", source="t_code.py code-nops"),
    C("code-loop", "ensembles=3 samples=40 warmup=5 workloads=add_chain_64 code=4801d8 unroll=37 loops=3 "
      "code.name=add_rr", machine="icount-intel", source="t_code.py code-loop"),
    C("code-ud2", "ensembles=3 samples=40 warmup=5 workloads=add_chain_64 code=90900f0b unroll=3",
      source="t_code.py code-ud2"),
    C("code-pf", "ensembles=3 samples=40 warmup=5 workloads=add_chain_64 init=49b80000000000100000 code=498b00",
      source="t_code.py code-pf"),
    C("code-bad", "ensembles=2 samples=20 methods=cpuid workloads=add_chain_64 code=zz unroll=0 loops=-1 "
      "problems=ignore",
      source="t_code.py code-bad"),
    C("output-human", ONE + " output=human", source="t_lean.py"),
    C("output-json", ONE + " output=json", source="t_lean.py"),
    C("output-full", ONE + " output=full", source="t_lean.py"),
    C("output-summary", SMALL + " output=summary", machine="icount-intel", source="t_lean.py lean-summary"),
    C("dump", "ensembles=3 samples=20 dump=1 methods=rdtscp workloads=add_chain_64", source="t_input.py input-dump"),
    C("bad-cmdline", "samples=abc bogus=1 ensembles=0 methods=cpuid,nope output=xml nokey warmup=-5 "
      "workloads=nosuch ensembles=2 samples=30 workloads=measured_function pmu=sometimes console=ttyS7",
      source="t_methods.py bad-cmdline, t_pmu.py pmu-bad (there with problems=ignore); here the run "
      "stops before measuring, as t_cmdline_stop.py's"),
    C("long-cmdline", "ensembles=2 samples=20 methods=rdtscp workloads=add_chain_64 problems=ignore " + "x" * 1500,
      source="t_methods.py long-cmdline"),
    C("fault-ud2", "ensembles=2 samples=10 test.fault=ud2", source="t_methods.py fault-ud2"),
    C("fault-gp", "ensembles=2 samples=10 test.fault=gp", source="t_methods.py fault-gp"),
    C("fault-pf", "ensembles=2 samples=10 test.fault=pf", source="t_methods.py fault-pf"),
    C("fault-de", "ensembles=2 samples=10 test.fault=de", source="t_methods.py fault-de"),
    C("cpus-all", "ensembles=3 samples=30 warmup=0 methods=cpuid,rdtscp workloads=add_chain_64,measured_function "
      "cpus=all", smp="4", source="t_cpus.py cpus-all"),
    C("smp-on", "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64 smp=on",
      smp="4", source="t_smp.py"),
    C("cpu-qemu64", SMALL, cpu="qemu64", source="t_methods.py tcg-qemu64"),
    C("cpu-skylake", ONE, cpu="Skylake-Client", source="another CPU model's CPUID"),
    C("machine-pc", ONE, machine="icount-pc", source="t_clocks.py"),
    C("machine-pc-noclocks", ONE, machine="icount-pc-noclocks", source="t_figures.py ns-unknown"),
    C("machine-nohpet", ONE, machine="icount-nohpet", source="t_acpi.py acpi-nohpet"),
    C("mem-high", "ensembles=3 samples=50 methods=cpuid,rdtscp workloads=add_chain_64 code=90 unroll=100 "
      "test.buffers=high", machine="m6g-icount", source="t_memory.py"),
    C("acpi-bad-apic", ONE + " test.acpi_corrupt=APIC", source="t_acpi.py acpi-bad-APIC"),
    C("acpi-bad-facp", ONE + " test.acpi_corrupt=FACP", source="t_acpi.py acpi-bad-FACP"),
    C("screen-vga", "ensembles=3 samples=50 methods=cpuid,rdtscp,cr0", screen="vga",
      source="t_bootpaths.py screen-summary"),
    C("screen-cpus", "ensembles=2 samples=30 warmup=0 methods=cpuid,rdtscp workloads=add_chain_64 cpus=all",
      smp="3", screen="vga", source="t_cpus.py cpus-screen"),
    C("grub-acpi", "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64", machine="icount-cdrom",
      source="t_acpi.py acpi-grub"),
    # Its screen's QR code holds the TSC rate: on a machine without ACPI the
    # rate is the PIT's, which the instruction count before it does not move
    # (MASKS), so the screen's pixels can be compared as they are.
    C("grub-screen", "ensembles=2 samples=30 warmup=0 methods=cpuid,rdtscp workloads=add_chain_64",
      machine="icount-pc-noacpi-cdrom", screen="fb", source="t_qr.py qr-bios, t_bootpaths.py"),
]


# What compare masks in both captures' serial logs and screens before it
# compares them: (pattern, replacement, why). Found by capturing one commit
# twice (identical: the runs are deterministic), by capturing a work in
# progress of the restructuring itself (branch i19-core, whose output
# differed in nothing else), and again with the commit's layout perturbed (a function, data and BSS added before the rest of the kernel
# and of bench/, nothing else: the image's addresses move, and the BSS
# clearing of boot/entry.asm, one REP STOSB step per byte, runs longer, as
# it does whenever a change adds or moves a static variable); or allowed by
# the issue. Every mask keeps the words around the figure, so that a line
# that changes otherwise still differs.
ADDR_LOW, ADDR_HIGH = 0x100000, 0x1000000  # where the image, its BSS stack and page tables lie (linker.ld: 1 MiB)


def _numbers(m):
    """The match with every number in it masked as N."""
    return re.sub(r"\d+(\.\d+)?", "N", m.group(0))


def _low_address(m):
    """A register or address value masked when it lies where the image is."""
    return m.group(1) + ("ADDR" if ADDR_LOW <= int(m.group(2), 16) < ADDR_HIGH else m.group(2))


MASKS = [
    (re.compile(r"\b\d+ TSC ticks elapsed( \(\d+\.\d s\))?"), "N TSC ticks elapsed",
     "issue 19 allows the elapsed-tick figures to change (the driver's instruction count)"),
    (re.compile(r'"elapsed_ticks":\d+'), '"elapsed_ticks":N', "the same, in the records"),
    (re.compile(r"started in \d+ TSC ticks \(\d+\.\d+ ms\)"), "started in N TSC ticks (N ms)",
     "an AP's start-up time is the instruction count of the start path (smp.c, the trampoline): "
     "an elapsed-tick figure too (changed by the perturbation)"),
    (re.compile(r'"start_ticks":\d+'), '"start_ticks":N', "the same, in the smp record"),
    (re.compile(r"^(tsc: (pmtimer|hpet) run|tsc: (pmtimer|hpet) runs differ|clocks: (pmtimer|hpet) "
                r"|tsc: rate used: .*\((pmtimer|hpet):).*$", re.M), _numbers,
     "the calibration against the PM timer and the HPET: their ticks (279 and 10 instructions under "
     "-icount) are read from a phase set by the instruction count before, so their figures move with "
     "that count as elapsed ticks do (the PM timer's changed by the perturbation, the HPET's by a real "
     "restructuring, i19-core); the PIT's never moved"),
    (re.compile(r'\{"name":"(pmtimer|hpet)","hz":\d+,"ppm":\d+,"measured_ppm":\d+'), _numbers,
     "the same, in the clocks record"),
    (re.compile(r'"tsc_rate","hz":\d+,"ppm":\d+,"source":"(pmtimer|hpet)"'
                r'|"(pmtimer|hpet)_hz":\[[\d,]*\],"(pmtimer|hpet)_ppm":\[[\d,]*\]'),
     _numbers, "the same, in the tsc_rate record (the rate itself only when one of those was used)"),
    (re.compile(r'("rec":"core_clock",.*?"tsc_hz":)\d+'), r"\1N",
     "the core_clock record repeats the TSC rate used (the tsc_rate record's, masked above when the PM "
     "timer or the HPET gave it)"),
    (re.compile(r"this run prints about \d+ KB \(\d+ bytes\), about \d+\.\d s"),
     "this run prints about N KB (N bytes), about N s",
     "the serial estimate counts the bytes printed so far: the calibration's lines above, a digit "
     "longer or shorter (changed by the perturbation)"),
    (re.compile(r'"serial_estimate","bytes":\d+,"baud":(\d+),"ms":\d+'), r'"serial_estimate","bytes":N,"baud":\1,"ms":N',
     "the same, in the record"),
    (re.compile(r"\d+ MiB free for sample buffers from (0x[0-9a-f]+)"),
     lambda m: ("N MiB free for sample buffers from ADDR" if int(m.group(1), 16) < ADDR_HIGH else m.group(0)),
     "the sample buffers start at the image's end (_end): the image's size (changed by the perturbation)"),
    (re.compile(r'("buffers_from":)(\d+)'),
     lambda m: m.group(1) + ("ADDR" if int(m.group(2)) < ADDR_HIGH else m.group(2)), "the same, in the env record"),
    (re.compile(r"(\b(?:RIP|RSP|CR3)=)([0-9a-f]{16})\b"), _low_address,
     "a fault report's RIP, stack pointer and page tables' address when they lie in the image "
     "(changed by the perturbation); CR0, CR2, CR4, CS, SS, RFLAGS, the vector and error code stay"),
    (re.compile(r"(\b(?:RAX|RBX|RCX|RDX|RSI|RDI|RBP|R8 |R9 |R1[0-5])=)[0-9a-f]{16}\b"), r"\1N",
     "a fault report's general-purpose registers: what the compiled code around the fault had in them "
     "(addresses moved by the perturbation; other values by a real restructuring, i19-core)"),
    (re.compile(r"^(run: ID |run ID )[0-9a-f]{16}\b", re.M), r"\1N",
     "the run's ID (kernel/runid.h, issue 22) differs at every boot by design: it is made from RDRAND "
     "and the CMOS clock (the host's time under -icount too); the parts it was made from stay"),
    (re.compile(r'"run_id":"[0-9a-f]{16}"'), '"run_id":"N"', "the same, in the env record"),
    (re.compile(r"^log: \d+ bytes before this line, CRC-32 0x[0-9a-f]{8}, (.*)\(buffer \d+ bytes", re.M),
     r"log: N bytes before this line, CRC-32 N, \1(buffer N bytes",
     "the serial log's size and CRC-32 (kernel/console.h) cover the run's ID and the figures masked "
     "above, whose digits vary; the buffer is sized from the serial estimate (masked too)"),
    (re.compile(r"^pixels sha256 [0-9a-f]{64}$", re.M), "pixels sha256 N",
     "the framebuffer's pixels hold the QR code, whose text holds the run's ID (issue 22): they "
     "differ at every boot; the screen's text is still compared cell by cell"),
]


def tsc_hz(log):
    """The TSC rate the run used (its tsc_rate record), or 0."""
    m = re.search(r'"rec":"tsc_rate","hz":(\d+)', log)
    return int(m.group(1)) if m else 0


def ps(ticks, hz):
    """lib/tscfreq.c ticks_to_ps: round half up of ticks x 10^12 / hz."""
    q, r = divmod(ticks * 10 ** 12, hz)
    return q + (2 * r >= hz)


def rate_derived(text, hz):
    """Figures computed from the TSC rate, replaced by a mark where they are
    what the run's own rate (its tsc_rate record) and the ticks beside them
    give (bench/report.c, bench/summary.c, lib/tscfreq.c): '(5.000 ns)', a
    summary table's '5 (5.000)', the screen's '5  5.0' and 'TSC 999.998
    MHz'. Why: the rate is the PM timer's on q35 (or the HPET's), which
    MASKS masks, and a rate 1 ppm off turns 261 TSC ticks from 261.001 ns
    into 261.000 (as a real restructuring, i19-core, did to a screen's
    426.0 ns). A
    figure that is not what the rate gives stays as printed, so that a
    wrong one still differs."""
    if not hz:
        return text

    def ns(decimals):
        def repl(m):
            p = ps(int(m.group(2)), hz)
            want = f"{p // 1000}.{p % 1000:03d}"[:len(str(p // 1000)) + 1 + decimals]  # floored, as printed
            return m.group(1) + m.group(2) + m.group(3) + ("ns" if m.group(4) == want else m.group(4)) + m.group(5)
        return repl
    khz = hz // 1000 + (hz % 1000 >= 500)
    text = text.replace(f"TSC {khz // 1000}.{khz % 1000:03d} MHz", "TSC (rate) MHz")
    text = re.sub(r"(\b)(\d+)( TSC ticks \()(\d+\.\d{3})( ns\))", ns(3), text)
    text = re.sub(r"(^\w+ +)(\d+)( \()(\d+\.\d{3})(\))", ns(3), text, flags=re.M)
    return re.sub(r"(^\w+ +)(\d+)( +)(\d+\.\d)( |$)", ns(1), text, flags=re.M)


def mask(text, hz=0):
    text = rate_derived(text, hz)
    for pattern, repl, _ in MASKS:
        text = pattern.sub(repl, text)
    return text


# --- the sampling loops' disassembly -----------------------------------------
INSN = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$")
BRANCH = re.compile(r"^(\S+)\s+([0-9a-f]+) <[^>]*>$")
NUMBER = re.compile(r"(-?)0x([0-9a-f]+)")
MARK_KINDS = {1: "start_end", 2: "body_begin", 3: "body_end", 4: "stop_begin"}


def symbols(elf):
    """[(address, size, name)] of elf's defined symbols with a size, sorted."""
    p = subprocess.run(["nm", "-S", "--defined-only", elf], capture_output=True, text=True,
                       check=True, timeout=60)
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            out.append((int(f[0], 16), int(f[1], 16), f[3]))
    return sorted(out)


def image_range(elf):
    """[start, end) of the linked image (linker.ld's _start_of_image and _end)."""
    p = subprocess.run(["nm", elf], capture_output=True, text=True, check=True, timeout=60)
    at = {f[2]: int(f[0], 16) for f in (l.split() for l in p.stdout.splitlines()) if len(f) == 3}
    return at["_start_of_image"], at["_end"]


def owner(syms, value):
    """(address, name) of the symbol holding value, or None."""
    for a, size, name in syms:
        if a <= value < a + max(size, 1):
            return a, name
    return None


def mask_bytes(raw, value, width):
    """raw (a list of byte strings) with the last little-endian encoding of
    value in width bytes replaced by "xx"; (list, found)."""
    enc = [f"{b:02x}" for b in (value & ((1 << 8 * width) - 1)).to_bytes(width, "little")]
    for i in range(len(raw) - width, -1, -1):
        if raw[i:i + width] == enc:
            return raw[:i] + ["xx"] * width + raw[i + width:], True
    return raw, False


def normalize_insn(addr, raw, text, fn, image, syms):
    """One instruction of function fn = (start, end) as 'bytes | text' with
    what depends on the link masked:
      * a branch or call out of the function: its target, and its relative
        offset in the bytes ('call OUT');
      * a branch inside: its target as an offset from the function's start
        (the bytes, relative, stay);
      * an address of the image (an absolute operand, or a RIP-relative one
        with objdump's '# address <symbol>' note): 'ADDR+off', off being
        the offset into the symbol that holds it (+? when none does), and
        its bytes 'xx'. An immediate that merely equals an address of the
        image would be masked too: a price paid knowingly."""
    end = addr + len(raw)
    text = text.strip()
    b = BRANCH.match(text)
    if b:
        target = int(b.group(2), 16)
        if fn[0] <= target < fn[1]:
            return " ".join(raw) + f" | {b.group(1)} .+{target - fn[0]:#x}"
        rel = target - end
        for width in (4, 1):
            raw2, ok = mask_bytes(raw, rel, width)
            if ok:
                return " ".join(raw2) + f" | {b.group(1)} OUT"
        return " ".join(raw) + f" | {b.group(1)} OUT (offset not found in the bytes)"
    note = None
    if "#" in text:
        text, note = (s.strip() for s in text.split("#", 1))
    if "(%rip)" in text and note:
        target = int(note.split()[0], 16)
        disp = NUMBER.search(text)
        value = (-1 if disp and disp.group(1) else 1) * int(disp.group(2), 16) if disp else 0
        raw, _ = mask_bytes(raw, value, 4)
        where = owner(syms, target)
        addr_text = f"ADDR+{target - where[0]:#x}" if where else "ADDR+?"
        text = NUMBER.sub(addr_text, text, count=1) if disp else text.replace("(%rip)", addr_text + "(%rip)")
        return " ".join(raw) + " | " + text
    for m in list(NUMBER.finditer(text)):
        value = int(m.group(2), 16)
        if m.group(1) or not image[0] <= value < image[1]:
            continue
        for width in (4, 8):
            raw, ok = mask_bytes(raw, value, width)
            if ok:
                break
        where = owner(syms, value)
        text = text.replace(m.group(0), f"ADDR+{value - where[0]:#x}" if where else "ADDR+?", 1)
    return " ".join(raw) + " | " + text


def disassembly(elf):
    """The sampling loops of elf as lines: for each function holding window
    markers (section bench_marks), by name: its size, each instruction at
    its offset from the function's start (normalize_insn), and the markers
    where they stand."""
    from check_windows import marks
    syms = symbols(elf)
    image = image_range(elf)
    funcs = {}
    for a, kind in marks(elf):
        where = [s for s in syms if s[0] <= a < s[0] + s[1] and s[1]]
        if not where:
            raise AssertionError(f"{elf}: a window marker at {a:#x} in no function")
        s = where[0]
        funcs.setdefault(s, []).append((a - s[0], kind))
    p = subprocess.run(["objdump", "-d", "-w", "--section=.text", elf], capture_output=True,
                       text=True, check=True, timeout=120)
    insns = []
    for line in p.stdout.splitlines():
        m = INSN.match(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2).split(), m.group(3)))
    out = []
    for (start, size, name), ms in sorted(funcs.items(), key=lambda kv: kv[0][2]):
        out.append(f"== {name}: {size} bytes")
        at = {}
        for off, kind in sorted(ms):
            at.setdefault(off, []).append(MARK_KINDS.get(kind, str(kind)))
        for addr, raw, text in insns:
            if start <= addr < start + size:
                for kind in at.pop(addr - start, []):
                    out.append(f"  -- mark {kind}")
                out.append(f"  +{addr - start:#05x}: " + normalize_insn(addr, raw, text, (start, start + size),
                                                                        image, syms))
        for off, kinds in sorted(at.items()):
            out += [f"  -- mark {k} at +{off:#x}" for k in kinds]
    return out


# --- capture -----------------------------------------------------------------
def write_gz(path, text):
    """A gzip file whose bytes depend on text alone (no time stamp)."""
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(text.encode("utf-8"))


def read_gz(path):
    with gzip.open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def run_config(c):
    """(exit status line, serial text, screen lines or None) of one run.
    The process runs in the build directory: the image is named
    bench32.elf on the command line (QEMU puts it before the kernel's
    command line, which the log prints), whatever the build's path."""
    import machines
    from qemu import qemu
    from screen import HALTED, Machine
    name = f"same-{c.name}"
    if machines.get(c.machine).boot == "cdrom":
        from t_bootpaths import grub_test_iso
        boot = dict(image=grub_test_iso(name, f"\tmultiboot2 /boot/bench.elf {c.append}"))
    else:
        boot = dict(append=c.append, image="bench32.elf")
    if not c.screen:
        try:
            rc, text = qemu(name, c.machine, cpu=c.cpu, smp=c.smp, **boot)
        except AssertionError as e:  # a timeout: what the run printed so far is its output
            return f"exit: none: {str(e).splitlines()[0]}", "", None
        return f"exit: {rc}", text, None
    with Machine(name, machine=c.machine, cpu=c.cpu, smp=c.smp, **boot) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout, every=0.5)
        m.wait_halted(60)
        if c.screen == "vga":
            lines = m.vga_text()
        else:
            lines = m.framebuffer_text()
            w_h_rgb = open(m.files + ".ppm", "rb").read()
            lines = lines + [f"pixels sha256 {hashlib.sha256(w_h_rgb).hexdigest()}"]
        text = m.serial_text()
    return "exit: halted", text, lines


def capture(build, out, only=None, jobs=1):
    """Run every configuration (or those named in only) on build's images,
    jobs at a time; write the captures into out. Returns the number of runs."""
    from concurrent.futures import ThreadPoolExecutor
    build, out = os.path.abspath(build), os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    os.chdir(build)
    chosen = [c for c in CONFIGS if not only or c.name in only]
    unknown = set(only or ()) - {c.name for c in CONFIGS}
    if unknown:
        raise SystemExit(f"same-output: no configuration named {', '.join(sorted(unknown))}")
    if not only:  # a whole capture: nothing left of an earlier one (a configuration since removed)
        for f in os.listdir(out):
            if f.endswith((".log.gz", ".screen")) or f == "windows.txt.gz":
                os.unlink(os.path.join(out, f))

    def one(c):
        start = time.time()
        status, text, screen = run_config(c)
        write_gz(os.path.join(out, f"{c.name}.log.gz"), status + "\n" + text.replace("\r", ""))
        if screen is not None:
            with open(os.path.join(out, f"{c.name}.screen"), "w") as f:
                f.write("\n".join(screen) + "\n")
        print(f"same-output: {c.name}: {status}, {len(text)} bytes" + (", screen" if screen else "")
              + f" ({time.time() - start:.1f} s)", flush=True)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for f in [pool.submit(one, c) for c in chosen]:
            f.result()
    if not only:
        write_gz(os.path.join(out, "windows.txt.gz"), "\n".join(disassembly(os.path.join(build, "bench.elf"))) + "\n")
    return len(chosen)


def capture_process(build, out, more=(), quiet=True, timeout=3600):
    """capture() in a process of its own whose BENCH_BUILD is build (the
    boot tests' helpers read their build directory when imported); more:
    its further arguments. Returns (exit status, what it printed, when quiet)."""
    env = dict(os.environ, BENCH_BUILD=os.path.abspath(build))
    cmd = [sys.executable, os.path.abspath(__file__), "capture", build, out] + list(more)
    pipe = subprocess.PIPE if quiet else None
    p = subprocess.run(cmd, env=env, stdout=pipe, stderr=subprocess.STDOUT if quiet else None, timeout=timeout)
    return p.returncode, (p.stdout or b"").decode("utf-8", errors="replace")


# --- compare -----------------------------------------------------------------
def captured(d):
    """{file name: masked lines} of a capture directory; a screen is
    masked with its configuration's TSC rate (from its serial log)."""
    out, rates = {}, {}
    for f in sorted(os.listdir(d)):
        if f.endswith(".log.gz"):
            text = read_gz(os.path.join(d, f))
            rates[f[:-len(".log.gz")]] = hz = tsc_hz(text)
            out[f[:-3]] = mask(text, hz).split("\n")
        elif f == "windows.txt.gz":
            out[f[:-3]] = read_gz(os.path.join(d, f)).split("\n")
    for f in sorted(os.listdir(d)):
        if f.endswith(".screen"):
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                out[f] = mask(fh.read(), rates.get(f[:-len(".screen")], 0)).split("\n")
    return out


def differences(a, b, limit=200):
    """['FILE: line N: - golden' / '+ now'] for every line that differs
    between captures a and b (directories), led by one line naming every
    file that differs and how many of its lines do; at most limit lines."""
    import difflib
    ca, cb = captured(a), captured(b)
    out, count = [], {}
    for f in sorted(set(ca) | set(cb)):
        if f not in ca or f not in cb:
            out.append(f"{f}: only in {a if f in ca else b}")
            count[f] = 1
            continue
        la, lb = ca[f], cb[f]
        if la == lb:
            continue
        before = len(out)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, la, lb, autojunk=False).get_opcodes():
            if tag != "equal":
                out += [f"{f}: line {k + 1}: - {la[k][:300]}" for k in range(i1, i2)]
                out += [f"{f}: line {k + 1}: + {lb[k][:300]}" for k in range(j1, j2)]
        count[f] = len(out) - before
    if not out:
        return []
    head = ["differing: " + ", ".join(f"{f} ({n})" for f, n in count.items())]
    if len(out) > limit:
        out = out[:limit] + [f"... and {len(out) - limit} more lines"]
    return head + out


def compare(a, b):
    diffs = differences(a, b, limit=10 ** 6)
    for d in diffs[1:] + diffs[:1]:
        print(d)
    n = len(captured(a))
    print(f"same-output: {n} files compared, " + ("identical" if not diffs else f"{len(diffs) - 1} lines differ"))
    return 1 if diffs else 0


# --- a commit against a build --------------------------------------------------
def against_base(rev, build):
    """Build rev in a temporary worktree, capture it and build, compare."""
    with tempfile.TemporaryDirectory(prefix="same-output-") as tmp:
        wt = os.path.join(tmp, "base")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", wt, rev], check=True, timeout=120)
        try:
            p = subprocess.run(["make", "-C", wt, "kernel", "iso"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=1200)
            if p.returncode:
                print(p.stdout.decode(errors="replace")[-3000:])
                print(f"same-output: {rev} did not build")
                return 2
            for label, b, out in ((rev, os.path.join(wt, "build"), os.path.join(tmp, "a")),
                                  ("this build", build, os.path.join(tmp, "b"))):
                rc, _ = capture_process(b, out, ["-j", "2"], quiet=False)
                if rc:
                    print(f"same-output: capturing {label} failed")
                    return 2
            return compare(os.path.join(tmp, "a"), os.path.join(tmp, "b"))
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", wt], timeout=120)


def main(argv):
    if len(argv) >= 3 and argv[0] == "capture":
        build = os.path.abspath(argv[1])
        if os.environ.get("BENCH_BUILD") != build:
            return capture_process(argv[1], argv[2], argv[3:], quiet=False)[0]
        for f in ("bench32.elf", "bench.elf"):
            if not os.path.exists(os.path.join(build, f)):
                print(f"same-output: {build}/{f} is missing: run 'make kernel iso' there")
                return 2
        rest, jobs = argv[3:], 1
        if rest[:1] == ["-j"] and len(rest) >= 2:
            rest, jobs = rest[2:], int(rest[1])
        capture(build, argv[2], rest, jobs)
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    if len(argv) in (2, 3) and argv[0] == "--base":
        return against_base(argv[1], argv[2] if len(argv) == 3 else os.path.join(ROOT, "build"))
    if argv == ["configs"]:
        for c in CONFIGS:
            print(f"{c.name:20} {c.machine}{' -cpu ' + c.cpu if c.cpu else ''}{' -smp ' + c.smp if c.smp else ''}"
                  f"{' [screen ' + c.screen + ']' if c.screen else ''} {c.append[:80]}  ({c.source})")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

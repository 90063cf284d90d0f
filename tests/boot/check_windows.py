#!/usr/bin/env python3
"""tests/boot/check_windows.py - check in a built kernel that every sampling
loop's window holds nothing but its body.

Every window (bench/methods.h BENCH_*_WINDOW) is: the start sequence, a
marker MARK_START_END, a marker MARK_BODY_BEGIN, the body, MARK_BODY_END,
MARK_STOP_BEGIN, the stop sequence. The markers are zero-length labels
recorded in the ELF section bench_marks as (address, kind) pairs. When the
compiler puts anything between the start sequence and the body (the combine
of EDX:EAX, a spill, a loop counter's increment) or between the body and the
stop sequence, the two markers of the pair stand at different addresses.
For each sampling function (bench_fill_*, bench_fillc_*) this checks that
the addresses of MARK_START_END equal those of MARK_BODY_BEGIN, those of
MARK_BODY_END those of MARK_STOP_BEGIN, and that all four kinds are there.

The loops with the events of a pass beside the TSC (bench_fille_*,
bench/methods.h SEQ_EV_*) must also read their counters outside the TSC
window: EV_SLOTS RDPMC before the start sequence's TSC read and EV_SLOTS
after the stop sequence's, each group with nothing between two reads but
the load of ECX and the two stores of EDX:EAX (movs). In a build whose
RDPMC is RDTSC (the fake PMU test build) that part is skipped.

    python3 tests/boot/check_windows.py build/bench.elf    # exit 1 on a problem
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

START_END, BODY_BEGIN, BODY_END, STOP_BEGIN = 1, 2, 3, 4
FILL = re.compile(r"^bench_fill[ce]?_\w+$")
EVENTS = re.compile(r"^bench_fille_\w+$")
EV_SLOTS = 16  # bench/events.h BENCH_EV_SLOTS


def marks(elf):
    """The (address, kind) pairs of the section bench_marks."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "marks.bin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=bench_marks", elf, out],
                       check=True, capture_output=True, timeout=60)
        data = open(out, "rb").read()
    return [struct.unpack_from("<QQ", data, i) for i in range(0, len(data) - 15, 16)]


def functions(elf):
    """{name: (address, size)} of the sampling functions."""
    p = subprocess.run(["nm", "-S", "--defined-only", elf], check=True, capture_output=True,
                       text=True, timeout=60)
    found = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4 and FILL.match(f[3]):
            found[f[3]] = (int(f[0], 16), int(f[1], 16))
    return found


def disassemble(elf, start, stop):
    """The instructions in [start, stop), for a problem's message."""
    p = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                        f"--stop-address={stop:#x}", elf], capture_output=True, text=True, timeout=60)
    return [l.strip() for l in p.stdout.splitlines() if re.match(r"^\s+[0-9a-f]+:\t", l)]


def event_reads(name, insns):
    """Problems of an events loop's RDPMC reads (insns: objdump lines)."""
    ops = [l.split("\t")[1].split()[0] if "\t" in l else "" for l in insns]
    pmc = [i for i, o in enumerate(ops) if o == "rdpmc"]
    tsc = [i for i, o in enumerate(ops) if o in ("rdtsc", "rdtscp")]
    if not pmc and len(tsc) > 2:
        return []  # the fake PMU build: its RDPMC is RDTSC
    if len(pmc) != 2 * EV_SLOTS or len(tsc) != 2:
        return [f"{name}: {len(pmc)} RDPMC and {len(tsc)} TSC reads, not {2 * EV_SLOTS} and 2"]
    problems = []
    first, second = pmc[:EV_SLOTS], pmc[EV_SLOTS:]
    if not (first[-1] < tsc[0] and tsc[1] < second[0]):
        problems.append(f"{name}: the events' reads are not outside the TSC window")
    for group in (first, second):
        for a, b in zip(group, group[1:]):
            between = ops[a + 1:b]
            if any(o != "mov" for o in between) or len(between) != 3:
                problems.append(f"{name}: between two RDPMC: {insns[a + 1:b]}")
                break
    return problems


def check(elf):
    """Returns (number of sampling functions checked, [problems])."""
    fns = functions(elf)
    ms = marks(elf)
    problems = []
    for name, (addr, size) in sorted(fns.items()):
        kinds = {k: sorted(a for a, kk in ms if kk == k and addr <= a < addr + size)
                 for k in (START_END, BODY_BEGIN, BODY_END, STOP_BEGIN)}
        if not all(kinds.values()):
            problems.append(f"{name}: window markers missing: "
                            f"{ {k: len(v) for k, v in kinds.items()} }")
            continue
        for a, b, what in ((START_END, BODY_BEGIN, "between the start sequence and the body"),
                           (BODY_END, STOP_BEGIN, "between the body and the stop sequence")):
            if kinds[a] != kinds[b]:
                extra = []
                for x, y in zip(kinds[a], kinds[b]):
                    if x != y:
                        extra += disassemble(elf, min(x, y), max(x, y))
                problems.append(f"{name}: instructions {what}: markers at "
                                f"{[hex(x) for x in kinds[a]]} vs {[hex(x) for x in kinds[b]]}: "
                                + "; ".join(extra[:12]))
        if EVENTS.match(name):
            problems += event_reads(name, disassemble(elf, addr, addr + size))
    return len(fns), problems


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        return 2
    n, problems = check(argv[0])
    for p in problems:
        print("window:", p)
    print(f"windows: {n} sampling functions checked, {len(problems)} with something but the body "
          "between the start's read and the stop's read")
    return 1 if problems or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

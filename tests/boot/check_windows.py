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

    python3 tests/boot/check_windows.py build/bench.elf    # exit 1 on a problem
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

START_END, BODY_BEGIN, BODY_END, STOP_BEGIN = 1, 2, 3, 4
FILL = re.compile(r"^bench_fillc?_\w+$")


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

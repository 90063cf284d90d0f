#!/usr/bin/env python3
"""Rebuild dumps.txt.xz from a clone of github.com/anrieff/libcpuid.

    import.py LIBCPUID_GIT_DIR

Takes every x86 dump of libcpuid's tests/ folder at commit NEWEST, except
the compressed (.test.xz) ones that moved to git LFS at commit LFS_MOVE:
those are read from the commit before it (the parent, BEFORE_LFS), as is a
.test.xz that is an LFS pointer at NEWEST. Only the raw CPUID part of each
dump is kept (libcpuid's expected results, after the line of 80 dashes, are
dropped), rewritten as one line per leaf and sub-leaf (README.md says how).
"""
import lzma
import os
import re
import subprocess
import sys

NEWEST = "2d1e0190b18913925ed0a883c62e05079f6581cd"
LFS_MOVE = "2b2aeea9fab1ccc0e80df5cf7929820478ea6062"
BEFORE_LFS = "098d155c2c9594eda1387989b25a21a084298ac0"
HERE = os.path.dirname(os.path.abspath(__file__))

# libcpuid's own format: array name -> (leaf, whether the index is the sub-leaf)
ARRAYS = {"basic_cpuid": (0, False), "ext_cpuid": (0x80000000, False), "intel_fn4": (4, True),
          "intel_fn11": (0xB, True), "intel_fn12h": (0x12, True), "intel_fn14h": (0x14, True),
          "amd_fn8000001dh": (0x8000001D, True), "amd_fn80000026h": (0x80000026, True)}
LIB_LINE = re.compile(r"^(\w+)\[(\d+)\]=([0-9a-fA-F]{8}) ([0-9a-fA-F]{8}) ([0-9a-fA-F]{8}) ([0-9a-fA-F]{8})")
AIDA_LINE = re.compile(r"^CPUID ([0-9A-Fa-f]{8})[:\s]+([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})-([0-9A-Fa-f]{8})-"
                       r"([0-9A-Fa-f]{8})(?:\s*\[SL ([0-9A-Fa-f]{2})\])?")
CPU_HEAD = re.compile(r"Logical CPU #(\d+)|CPUID Registers \(CPU #(\d+)\)|^CPU#(\d+) AffMask")


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo] + list(args), check=True, capture_output=True).stdout


def parse(text):
    """[(cpu number, {(leaf, sub): (eax, ebx, ecx, edx)})] of one dump."""
    cpus, regs, seen = [], None, {}
    for line in text.splitlines():
        line = line.rstrip()
        if line == "-" * 80:
            break
        m = CPU_HEAD.search(line)
        if m or regs is None and (LIB_LINE.match(line) or AIDA_LINE.match(line)):
            regs, seen = {}, {}
            cpus.append(regs)
            if m:
                continue
        m = LIB_LINE.match(line)
        if m and m.group(1) in ARRAYS:
            base, is_sub = ARRAYS[m.group(1)]
            i = int(m.group(2))
            key = (base, i) if is_sub else (base + i, 0)
            vals = tuple(int(m.group(k), 16) for k in range(3, 7))
            if is_sub or key not in regs:  # the sub-leaf arrays are exact
                regs[key] = vals
            continue
        m = AIDA_LINE.match(line)
        if m:
            leaf = int(m.group(1), 16)
            # Repeated lines of one leaf are its sub-leaves in order, unless
            # [SL nn] names the sub-leaf; the first line of a key is kept.
            sub = int(m.group(6), 16) if m.group(6) else seen.get(leaf, 0)
            seen[leaf] = seen.get(leaf, 0) + 1
            regs.setdefault((leaf, sub), tuple(int(m.group(k), 16) for k in range(2, 6)))
    return [c for c in cpus if (0, 0) in c]


def main():
    repo = sys.argv[1]
    names = git(repo, "ls-tree", "-r", "--name-only", NEWEST, "tests").decode().split()
    out = []
    for name in sorted(names):
        if not (name.endswith(".test") or name.endswith(".test.xz")) or name.startswith("tests/arm/"):
            continue
        data, commit = git(repo, "show", f"{NEWEST}:{name}"), NEWEST
        if name.endswith(".xz"):
            if data.startswith(b"version https://git-lfs"):
                try:
                    data, commit = git(repo, "show", f"{BEFORE_LFS}:{name}"), BEFORE_LFS
                except subprocess.CalledProcessError:  # added after the move: only in LFS
                    print(f"import.py: {name}: only a git LFS pointer, left out")
                    continue
            data = lzma.decompress(data)
        cpus = parse(data.decode("latin-1"))
        if not cpus:
            sys.exit(f"import.py: {name}: no CPUID data")
        out.append(f"dump {name[len('tests/'):]} {commit[:12]} {len(cpus)}")
        for n, regs in enumerate(cpus):
            out.append(f"cpu {n}")
            for (leaf, sub), v in sorted(regs.items()):
                out.append(f"{leaf:08x} {sub:x} {v[0]:08x} {v[1]:08x} {v[2]:08x} {v[3]:08x}")
    text = ("\n".join(out) + "\n").encode()
    with open(os.path.join(HERE, "dumps.txt.xz"), "wb") as f:
        f.write(lzma.compress(text, preset=9 | lzma.PRESET_EXTREME))
    print(f"import.py: {sum(1 for l in out if l.startswith('dump '))} dumps, {len(text)} bytes")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""tests/structure/check_structure.py - the kernel's C and asm code has no
loop in its include/call graph, and each folder uses only what its layer may.

The graph (of boot/, kernel/, lib/, bench/; tests/ is left out):
  * a node is a module: x.c with its x.h; a header without a .c is a node
    of its own, so is each asm file of boot/;
  * an edge A -> B for each `#include "..."` line of A's files naming one
    of B's (resolved against the including file's folder), and for each
    symbol A's object leaves undefined (`nm -u build/<dir>/<x>.o`) that B's
    object defines (`nm --defined-only`): a strong global definition, or
    the weak one when no strong one exists (bench_smi_read and
    boot_test_hook are weak so that a test's EXTRA_SRC may replace them).
  * symbols linker.ld defines (__start_/__stop_ of a section, _bss_start,
    _end...) make no edge; symbols of the QR code archive make an edge to
    the node "libqrcodegen.a", whose own undefined symbols (memset, strlen,
    __assert_fail: the C library kernel/qr.c and lib/string.c provide for
    it) make none: it is a library we link, not a layer of ours.
    Compiler builtins: the kernel is built with -fno-builtin, and what GCC
    still calls (memcpy, memset) is defined in lib/string.c, an edge to lib.

The layering, as a table (LAYERS below): a folder may include from and call
into the folders listed beside it, and nothing else.

    folder   may use                 why
    lib      lib                     freestanding, host-tested: no kernel
    boot     boot                    the first code: hands over to the kernel
                                     only at its ENTRY_POINTS (below)
    kernel   kernel, lib, boot       the platform; boot's data (boot_info,
                                     the page tables, the trap stubs)
    bench    bench, kernel, lib      the measurement, on the platform

The declared exception (ENTRY_POINTS): boot's asm calls the C code at its
entry points (the driver's kernel_main, bench/main.c, after long mode;
trap_handler from every trap stub). Those are the CPU's way into the kernel, not a use of a layer above:
the edges are shown but neither break the layering nor count for loops.

    python3 tests/structure/check_structure.py          # the checks (build/ must be built)
    python3 tests/structure/check_structure.py --graph  # every edge, with its names

Each check prints PASS or FAIL with every loop (its modules, one loop
through them, and every edge inside it with the names that make it, e.g.
`bench/report.c -> bench/run.c: bench_tsc_hz`) or every layering breach;
the documentation's checks (tests/structure/check_docs.py: the README's
quick start first, every link and section reference resolved) run with
them; the last line is "structure: N passed, N failed, N skipped" (tests/runner.py,
also written to build/results/structure.txt for tests/total.py).
"""
import glob
import os
import re
import subprocess
import sys
from collections import defaultdict, deque

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from runner import run_all  # noqa: E402

FOLDERS = ("boot", "kernel", "lib", "bench")
LAYERS = {  # folder: the folders its modules may include from or call into
    "lib": {"lib"},
    "boot": {"boot"},
    "kernel": {"kernel", "lib", "boot"},
    "bench": {"bench", "kernel", "lib"},
}
ENTRY_POINTS = {  # symbol: why boot's asm calls it (the declared exception)
    "kernel_main": "boot/entry.asm calls the run's driver (bench/main.c) once in long mode",
    "trap_handler": "boot/vectors.asm's every trap stub calls it",
    "efi_early": "boot/entry.asm's EFI amd64 entry calls it once, on the firmware's state (kernel/efi.h)",
}
QR_ARCHIVE = "/usr/lib/x86_64-linux-gnu/libqrcodegen.a"  # Makefile QRCODEGEN_A
ARCHIVES = {QR_ARCHIVE: ("libqrcodegen.a", {"kernel"})}  # path: (node, folders that may use it)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LINKER_SYMBOL = re.compile(r"^\s*(\w+)\s*=", re.M)  # linker.ld's `name = .;`


class Skip(Exception):
    pass


def modules(root):
    """{file path relative to root: its module's node name}: x.c and x.h
    are the node "dir/x.c"; a lone header "dir/x.h"; asm "boot/x.asm"."""
    files = []
    for d in FOLDERS:
        files += glob.glob(os.path.join(root, d, "*.[ch]")) + glob.glob(os.path.join(root, d, "*.asm"))
    rel = sorted(os.path.relpath(f, root) for f in files)
    have = set(rel)
    node = {}
    for f in rel:
        stem, ext = os.path.splitext(f)
        node[f] = stem + ".c" if ext == ".h" and stem + ".c" in have else f
    return node


def include_edges(root, node):
    """{(A, B): {'#include "x.h"'}} from the direct include lines."""
    edges = defaultdict(set)
    for f, a in node.items():
        with open(os.path.join(root, f), errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            target = os.path.normpath(os.path.join(os.path.dirname(f), name))
            b = node.get(target)
            if b and b != a:
                edges[(a, b)].add(f'#include "{name}"')
    return edges


def nm(args, files):
    """[(file, type letter, symbol)] of `nm -A args files`."""
    p = subprocess.run(["nm", "-A"] + args + files, capture_output=True, text=True, timeout=120)
    if p.returncode:
        raise AssertionError(f"nm {' '.join(args)} failed: {p.stderr.strip()[:400]}")
    out = []
    for line in p.stdout.splitlines():
        where, _, rest = line.rpartition(":")
        parts = rest.split()
        if len(parts) >= 2:
            out.append((where.split("[")[0] or line.split(":")[0], parts[-2], parts[-1]))
    return out


def objects(root, build, node):
    """{object path: module} of the sources' objects; fails when one is
    missing or older than its source (run `make kernel`)."""
    objs, problems = {}, []
    for f, a in node.items():
        if f.endswith(".h"):
            continue
        o = os.path.join(build, os.path.splitext(f)[0] + ".o")
        if not os.path.exists(o):
            problems.append(f"{o} is missing")
        elif os.path.getmtime(o) < os.path.getmtime(os.path.join(root, f)):
            problems.append(f"{o} is older than {f}")
        else:
            objs[o] = a
    if problems:
        raise AssertionError("run 'make kernel' first: " + "; ".join(problems))
    return objs


def symbol_edges(root, build, node):
    """({(A, B): {symbol}}, {symbol: why no edge}, [unresolved 'A: symbol'])."""
    objs = objects(root, build, node)
    files = sorted(objs)
    strong, weak = {}, {}
    for o, t, s in nm(["--defined-only"], files):
        if t in "TDBRAGSC":
            strong.setdefault(s, objs[o])
        elif t in "WV":
            weak.setdefault(s, objs[o])
    for path, (name, _) in ARCHIVES.items():
        if os.path.exists(path):
            for _, t, s in nm(["--defined-only"], [path]):
                if t.isupper():
                    strong.setdefault(s, name)
    with open(os.path.join(root, "linker.ld")) as fh:
        linker = set(LINKER_SYMBOL.findall(fh.read()))
    edges, unresolved = defaultdict(set), []
    for o, _, s in nm(["-u"], files):
        a = objs[o]
        b = strong.get(s) or weak.get(s)
        if b is None:
            if s not in linker and not s.startswith(("__start_", "__stop_")):
                unresolved.append(f"{a}: {s}")
        elif b != a:
            edges[(a, b)].add(s)
    return edges, unresolved


def folder(n):
    return n.split("/")[0] if "/" in n else None


def exempt(a, b, names):
    """True for an edge of the declared exception: boot's asm calling the
    kernel only at ENTRY_POINTS."""
    return folder(a) == "boot" and folder(b) in ("kernel", "bench") and all(
        x in ENTRY_POINTS for x in names)


def graph(root=ROOT, build=None):
    """{(A, B): sorted names}: include and symbol edges together, and the
    unresolved symbols."""
    build = build or os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
    node = modules(root)
    edges = include_edges(root, node)
    syms, unresolved = symbol_edges(root, build, node)
    for k, v in syms.items():
        edges[k] |= v
    return {k: sorted(v) for k, v in edges.items()}, unresolved


def loops(edges):
    """The strongly connected components of more than one node (Tarjan's
    algorithm, iterative), each a sorted list; exempt edges left out."""
    succ = defaultdict(list)
    for (a, b), names in edges.items():
        if not exempt(a, b, names):
            succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = sorted(set(succ) | {b for v in succ.values() for b in v})
    for start in nodes:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on.add(v)
            if i < len(succ[v]):
                work.append((v, i + 1))
                w = succ[v][i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return sorted(out)


def one_loop(edges, comp):
    """A shortest loop through comp's first node, inside comp."""
    inside = set(comp)
    start = comp[0]
    prev, queue = {start: None}, deque([start])
    while queue:
        v = queue.popleft()
        for (a, b), names in sorted(edges.items()):
            if a != v or b not in inside or exempt(a, b, names):
                continue
            if b == start:
                path = [v]
                while prev[path[-1]]:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if b not in prev:
                prev[b] = v
                queue.append(b)
    return comp


def describe_loops(edges, comps):
    lines = []
    for i, comp in enumerate(comps, 1):
        lines.append(f"loop {i} ({len(comp)} modules): {' '.join(comp)}")
        lines.append("  e.g. " + " -> ".join(one_loop(edges, comp)))
        for (a, b), names in sorted(edges.items()):
            if a in comp and b in comp and not exempt(a, b, names):
                lines.append(f"  {a} -> {b}: {', '.join(names)}")
    return lines


def breaches(edges):
    """['A -> B: names (folder X may not use Y)'] for every edge that
    leaves what LAYERS and ENTRY_POINTS allow."""
    out = []
    for (a, b), names in sorted(edges.items()):
        fa, fb = folder(a), folder(b)
        allowed = LAYERS.get(fa, set())
        if fb is None:  # an archive
            ok = any(fa in users for n, users in ARCHIVES.values() if n == b)
        else:
            ok = fb in allowed or exempt(a, b, names)
        if not ok:
            out.append(f"{a} -> {b}: {', '.join(names)} ({fa}/ may not use {fb or b})")
    return out


_cache = {}


def built():
    if "g" not in _cache:
        _cache["g"] = graph()
    return _cache["g"]


def test_objects_resolved():
    edges, unresolved = built()
    assert edges, "no edge found: no module or no object"
    assert not unresolved, ("symbols no module, archive or linker.ld defines:\n  "
                            + "\n  ".join(unresolved))


def test_no_loop():
    edges, _ = built()
    comps = loops(edges)
    assert not comps, (f"{len(comps)} loops in the include/call graph:\n  "
                       + "\n  ".join(describe_loops(edges, comps)))


def test_layering():
    edges, _ = built()
    bad = breaches(edges)
    assert not bad, (f"{len(bad)} edges against the layering (lib: lib; boot: boot + entry points; "
                     "kernel: kernel, lib, boot; bench: bench, kernel, lib):\n  " + "\n  ".join(bad))


def test_finds_a_planted_loop():
    """The checker itself: a made-up graph's loop and breach are found, an
    entry-point edge is not a loop."""
    g = {("bench/a.c", "bench/b.c"): ["f"], ("bench/b.c", "bench/c.c"): ["g"],
         ("bench/c.c", "bench/a.c"): ["h"], ("lib/x.c", "kernel/y.c"): ["k"],
         ("kernel/multiboot.c", "boot/entry.asm"): ["boot_info"],
         ("boot/entry.asm", "bench/main.c"): ["kernel_main"]}
    assert loops(g) == [["bench/a.c", "bench/b.c", "bench/c.c"]], loops(g)
    assert one_loop(g, ["bench/a.c", "bench/b.c", "bench/c.c"]) == \
        ["bench/a.c", "bench/b.c", "bench/c.c", "bench/a.c"]
    assert [b.split(":")[0] for b in breaches(g)] == ["lib/x.c -> kernel/y.c"], breaches(g)


def main(argv):
    if argv == ["--graph"]:
        edges, unresolved = built()
        for (a, b), names in sorted(edges.items()):
            print(f"{a} -> {b}: {', '.join(names)}" + (" [entry point]" if exempt(a, b, names) else ""))
        for u in unresolved:
            print("unresolved:", u)
        return 0
    if argv:
        print(__doc__)
        return 2
    build = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
    tests = [("structure." + n[len("test_"):], f) for n, f in globals().items()
             if n.startswith("test_") and callable(f)]
    import check_docs  # the documentation's start and links (tests/structure/check_docs.py)
    return run_all("structure", tests + check_docs.tests(), Skip, build)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/boot/t_cache.py - cache=flush|wbinvd (kernel/cacheflush.c, the hook of
lib/codegen.c): the flush before each sample of code= lies outside the window.
Under -icount a TSC tick is an instruction, so any flush instruction inside
a window would change the figures: cache=flush and cache=wbinvd give the
very figures of cache=warm, and walk=on counts the same window. The cost is
said once (line and cache_state record), the lines counted are the areas'
bytes / 64 plus the loop's; CLFLUSH where CLFLUSHOPT is absent, one line
saying why where CLFLUSH is absent too, one line where code= is not given."""
import re

from qemu import check, expect_complete, qemu

ARGS = "ensembles=2 samples=20 warmup=0 methods=rdtscp,cpuid workloads=none code=4801d8 unroll=10 walk=on"
LINE = re.compile(r"^cache: flush before each sample of code=: (CLFLUSHOPT|CLFLUSH) of (\d+) lines \(the areas' "
                  r"(\d+) and the loop's (\d+); the empty and 2N loops' (\d+) and (\d+)\), then (SFENCE|MFENCE): "
                  r"(\d+) TSC ticks each \(measured once, outside the window\)$")
LOOP = re.compile(r"generated loops of (\d+), (\d+) and (\d+) bytes \(empty, N, 2N\)")


def figures(run):
    """What must not change: each summary's minimums and variances, each
    per-copy figure, each walk's counts."""
    keys = ("min_of_mins", "max_of_mins", "total_variance", "var_of_mins", "net_min", "median_of_mins")
    out = {}
    for s in run.by("summary"):
        out[("summary", s["method"], s["workload"], s["unit"])] = tuple(s[k] for k in keys)
    for p in run.by("per_copy"):
        out[("per_copy", p["method"], p["unit"])] = (p["num"], p["den"], p["per_copy"], p["copies"])
    for w in run.by("walk"):
        out[("walk", w["method"], w["workload"])] = (w["gap_before"], w["body"], w["gap_after"])
    return out


def area_lines(run):
    """The areas' lines: each register's mem_area record's bytes / 64."""
    areas = [a for a in run.by("mem_area") if a["register"] != "sweep"]
    return sum(a["bytes"] for a in areas) // 64


def boot(name, cache, cpu=None, more=""):
    rc, text = qemu(name, "icount", f"{ARGS} cache={cache} {more}", cpu=cpu)
    return expect_complete(rc, text), text


def expect_same(warm, run, what, text):
    a, b = figures(warm), figures(run)
    check(a and a == b, f"{what}: figures differ from cache=warm: "
          f"{sorted((k, a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k))[:6]}", text)
    for w in run.by("walk"):
        check(w["gap_before"] == 0 and w["gap_after"] == 0, f"{what}: walk {w}: the window holds more than its body",
              text)


def expect_flush(run, text, insn, fence):
    lines = [m for m in (LINE.match(l) for l in run.lines) if m]
    check(len(lines) == 1, f"{insn}: {len(lines)} 'cache: flush before each sample' lines, expected 1", text)
    m = lines[0]
    check(m.group(1) == insn and m.group(7) == fence, f"{insn}: line says {m.group(1)} then {m.group(7)}", text)
    total, areas, loop, empty, twice, cost = (int(m.group(k)) for k in (2, 3, 4, 5, 6, 8))
    sizes = [int(x) for x in LOOP.search(text).groups()]
    check(areas == area_lines(run), f"{insn}: the areas' {areas} lines, expected {area_lines(run)}", text)
    for got, size, which in ((empty, sizes[0], "empty"), (loop, sizes[1], "N"), (twice, sizes[2], "2N")):
        check(-(-size // 64) <= got <= -(-size // 64) + 1, f"{insn}: the {which} loop of {size} bytes: {got} lines",
              text)
    check(total == areas + loop and cost > 0, f"{insn}: {total} lines = {areas} + {loop}? cost {cost}", text)
    rec = run.one("cache_state")
    want = {"mode": "flush", "instruction": insn.lower(), "lines": total, "bytes": total * 64, "cost_tsc": cost,
            "why": None}
    check(rec == {"rec": "cache_state", **want}, f"{insn}: cache_state record {rec}, expected {want}", text)


def test_cache_flush_outside_the_window():
    """cache=flush (CLFLUSHOPT under -cpu max) and cache=wbinvd: the figures
    and the walks of cache=warm, exactly; each cost said once."""
    warm, text = boot("cache-warm", "warm")
    check(not warm.by("cache_state") and not any(l.startswith("cache:") for l in warm.lines),
          "cache=warm: no cache line nor record", text)
    check(figures(warm), "cache=warm: no figures", text)
    run, text = boot("cache-flush", "flush")
    expect_same(warm, run, "cache=flush", text)
    expect_flush(run, text, "CLFLUSHOPT", "SFENCE")
    lines = run.one("cache_state")["lines"]
    for w in run.by("walk", workload="code"):
        before = warm.one("walk", method=w["method"], workload="code")["steps"]
        check(w["steps"] - before >= lines, f"walk {w['method']}: {w['steps']} steps, {before} under cache=warm: "
              f"the hook's {lines} CLFLUSHOPT not stepped (the flush did not run in the sample)", text)
    run, text = boot("cache-wbinvd", "wbinvd")
    expect_same(warm, run, "cache=wbinvd", text)
    wb = [l for l in run.lines if l.startswith("cache: wbinvd before each sample of code=: WBINVD")]
    check(len(wb) == 1 and "TSC ticks each (measured once, outside the window)" in wb[0], f"wbinvd line {wb}", text)
    rec = run.one("cache_state")
    check(rec["mode"] == "wbinvd" and rec["instruction"] == "wbinvd" and rec["lines"] is None
          and rec["bytes"] is None and rec["cost_tsc"] > 0 and rec["why"] is None, f"wbinvd record {rec}", text)


def test_cache_clflush_without_clflushopt():
    """-cpu max,clflushopt=off: CLFLUSH then MFENCE, the windows unchanged;
    regs=nanobench mem=64K: the five areas' lines, 5 x 1024."""
    run, text = boot("cache-clflush", "flush", cpu="max,clflushopt=off", more="regs=nanobench mem=64K")
    check(area_lines(run) == 5 * 1024, f"regs=nanobench mem=64K: areas of {area_lines(run)} lines", text)
    expect_flush(run, text, "CLFLUSH", "MFENCE")
    for w in run.by("walk"):
        check(w["gap_before"] == 0 and w["gap_after"] == 0 and w["body"] == (10 if w["workload"] == "code" else
              20 if w["workload"] == "code.2n" else 0), f"walk {w}", text)


def test_cache_said_where_not_done():
    """-cpu max,clflush=off: one line naming CPUID.1:EDX[19], the record's why,
    the run complete; cache= without code=: one line, the run complete."""
    run, text = boot("cache-noclflush", "flush", cpu="max,clflush=off")
    check(run.has_line("cache: flush before each sample of code=: not done: no CLFLUSH (CPUID.1:EDX[19] = 0); "
                       "the caches stay as the last sample left them (as cache=warm)"), "no 'not done' line", text)
    rec = run.one("cache_state")
    check(rec["instruction"] is None and rec["lines"] is None and rec["cost_tsc"] is None
          and "CPUID.1:EDX[19]" in rec["why"], f"record {rec}", text)
    rc, text = qemu("cache-nocode", "icount", "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none "
                    "cache=wbinvd")
    run = expect_complete(rc, text)
    check(run.has_line("config: cache=wbinvd applies to code=, which is not given; ignored"),
          "no line saying cache= applies to code=", text)
    check(not run.by("cache_state"), "a cache_state record without code=", text)

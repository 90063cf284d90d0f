"""tests/boot/t_sweep.py - sweep=latency (README "The memory hierarchy",
bench/sweep.c): under QEMU -icount the TSC counts instructions, and a load
`mov (%r8),%r8` is one, so every size's 2N-N figure is exactly 1.000 TSC
tick per load; the sizes run from 4 KiB
in steps of 2^(1/4) up to at least twice the largest cache CPUID lists under
that -cpu; the level finder says the flat curve is flat (no level told
apart), never a level. With too little memory the run says what it swept,
and completes.

Run time (2 cores, measured with everything else idle): the icount run
takes about 31 s where the same run without sweep= takes 16 s; the
machine's timeout is 240 s."""
import os
import re

from qemu import check, expect_complete, qemu

QUICK = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none output=both"
QUARTER = (1000, 1189, 1414, 1682)  # 2^(k/4) in thousandths (bench/sweep.c)


def sizes_upto(top):
    out, k = [], 0
    while True:
        s = (4096 << (k // 4)) * QUARTER[k % 4] // 1000 // 64 * 64
        if s > top:
            return out
        out.append(s)
        k += 1


def largest_cache(levels):
    return max(c["bytes"] for c in levels["cpuid_caches"] if c["type"] != "instruction")


def expect_exact_sweep(run, unit, text, twice=True):
    """The points of unit: all exact 1.000, the sweep's sizes in order; the
    levels record's curve is flat. Returns the points."""
    pts = run.by("latency_point", unit=unit)
    lv = run.one("latency_levels", unit=unit)
    check(pts, f"no latency_point records in {unit}", text)
    bad = [p for p in pts if not (p["status"] == "exact" and p["per_copy"] == "1.000" and p["num"] == 1
                                  and p["den"] == 1 and p["loads"] == 251 and p["copies"] == 251)]
    check(not bad, f"{unit}: points not exactly 1.000 per load: {bad[:3]}", text)
    got = [p["bytes"] for p in pts]
    check(got == sizes_upto(got[-1]), f"{unit}: sizes {got[:6]}... not 4 KiB x 2^(1/4) in order", text)
    if twice:
        check(got[-1] >= 2 * largest_cache(lv) * 1000 // 1189, f"{unit}: the sweep ends at {got[-1]} bytes, "
              f"not about twice the largest cache ({largest_cache(lv)})", text)
    check(lv["levels"] == [] and "flat" in (lv["why"] or ""), f"{unit}: levels {lv}", text)
    return pts


def test_sweep_latency_icount_exact():
    """-icount, -cpu max: 1.000 TSC tick per load exactly at every size, up to
    twice (here four times) the largest cache; one line per size."""
    rc, text = qemu("sweep-icount", "icount", QUICK + " sweep=latency")
    run = expect_complete(rc, text)
    pts = expect_exact_sweep(run, "tsc_ticks", text)
    lines = [l for l in run.lines if re.match(r"^latency: [0-9.]+ (KiB|MiB|GiB): ", l)]
    check(len(lines) == len(pts) and all(" 1.000 TSC ticks per load exactly" in l for l in lines),
          f"{len(lines)} latency lines for {len(pts)} points: {lines[:2]}", text)
    check(any(l.startswith("latency: levels in TSC ticks: the curve is flat from 4 KiB") for l in run.lines),
          "no line saying the curve is flat", text)
    check(any(l.startswith("sweep: latency by rdtscp (the paper's method 2)") for l in run.lines),
          "no line naming the method", text)


def test_sweep_latency_lfence_intel_leaf4():
    """-cpu Skylake-Client (Intel: the caches from CPUID leaf 4), methods=lfence
    only: the sweep takes lfence and says why; 1.000 TSC tick per load
    exactly at every size; the core cycles not measured, with the reason
    (under TCG the fixed counters do not count: no core_cycles records)."""
    rc, text = qemu("sweep-lfence", "icount", QUICK.replace("methods=rdtscp", "methods=lfence") + " sweep=latency",
                    cpu="Skylake-Client")
    run = expect_complete(rc, text)
    expect_exact_sweep(run, "tsc_ticks", text)
    check(any(l.startswith("sweep: latency by lfence (the first method methods= selects") and
              "core cycles not measured: IA32_FIXED_CTR0" in l for l in run.lines),
          "no line naming lfence and why core cycles are not measured", text)
    check(any(l.startswith("sweep: area of ") and "caches from CPUID leaf 4" in l for l in run.lines),
          "the caches not from leaf 4", text)
    check(not run.by("latency_point", unit="core_cycles") and not run.by("latency_levels", unit="core_cycles"),
          "core-cycle records without a counter that counts", text)


def test_sweep_latency_too_little_memory():
    """-m 16M: less than twice the largest cache fits: the run says what it
    swept, sweeps that, and completes."""
    rc, text = qemu("sweep-16m", "q35-16m", QUICK + " sweep=latency")
    run = expect_complete(rc, text)
    said = [l for l in run.lines if l.startswith("sweep: only ")]
    check(len(said) == 1 and "fits in free RAM, less than twice the largest cache CPUID lists" in said[0],
          f"no line saying what fits: {said}", text)
    m = re.search(r"the sweep ends at ([0-9.]+ [KMG]iB)$", said[0])
    pts = run.by("latency_point", unit="tsc_ticks")
    check(m and pts and pts[0]["bytes"] == 4096, f"points {len(pts)}, line {said[0]}", text)
    area = [l for l in run.lines if l.startswith("sweep: area of ")]
    check(len(area) == 1 and area[0].startswith(f"sweep: area of {m.group(1)} "), f"area line {area}", text)


def test_sweep_latency_end_screen():
    """The end screen (VGA text, -icount) carries the levels: one row per
    unit measured, here that no level was told apart in TSC ticks."""
    from screen import HALTED, Machine, unwrapped
    with Machine("sweep-screen", machine="icount", append=QUICK + " sweep=latency") as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        screen = unwrapped(m.vga_text())
        text = m.serial_text()
    rows = [l for l in screen if l.startswith("memory latency, ")]
    check(rows == ["memory latency, TSC ticks per load: no level told apart (a flat curve)"],
          f"the screen's latency rows: {rows}", "\n".join(screen) + "\n" + text[-2000:])

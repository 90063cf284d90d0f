"""tests/boot/t_memory.py - memory above 4 GiB (issue "Real machines", item 6;
kernel/paging.c, kernel/mem.c, lib/paging.c): under -m 6G QEMU's q35 puts
2 GiB of RAM below 4 GiB and the rest from 0x100000000. The sample buffers
come from there (test.buffers=high) and the run is exact under -icount,
with 1 GiB pages and without; a framebuffer in RAM above 4 GiB
(test.fb=high) is drawn through kernel/fb.c's own path and read back from
guest physical memory by the host; a mapping beyond MAXPHYADDR or at a
non-canonical address is refused in one line and the run goes on."""
import os
import re
import time

from qemu import ICOUNT_NET, ICOUNT_OFFSETS, METHODS, check, expect_complete, qemu
from screen import HALTED, Machine, framebuffer_text

FOUR_G = 1 << 32
WORKLOADS = ["add_chain_64", "add_chain_256"]
SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=add_chain_64"


def high_buffers_run(name, cpu, tables):
    """A run under -icount with test.buffers=high (sample buffers and
    code='s generated loops above 4 GiB); tables: the page-table
    pages mapping the buffers should take from the pool."""
    args = (f"ensembles=3 samples=300 warmup=10 methods={','.join(METHODS)} "
            f"workloads={','.join(WORKLOADS)} code=90 unroll=100 test.buffers=high")
    rc, text = qemu(name, "m6g-icount", args, cpu=cpu)
    run = expect_complete(rc, text)
    env = run.one("env")
    check(env["memory_above_4g_mib"] == 4096 and 2000 <= env["memory_below_4g_mib"] < 2048,
          f"env record: RAM below/above 4 GiB {env}", text)
    check(env["buffers_from"] == FOUR_G, f"env record: buffers from 0x{env['buffers_from']:x}", text)
    check(run.has_line("env: memory: ") and "MiB below 4 GiB, 4096 MiB above;" in text
          and "free for sample buffers from 0x100000000 (above 4 GiB)" in text, "env: memory line", text)
    handed = [l for l in run.lines if l.startswith("test: test.buffers=high: mem_alloc handed out ")]
    check(len(handed) == 1, "no line giving what mem_alloc handed out", text)
    lo, hi = (int(x, 16) for x in re.search(r"out 0x([0-9a-f]+)-0x([0-9a-f]+) during", handed[0]).groups())
    check(FOUR_G <= lo < hi < 2 * FOUR_G and "(all above 4 GiB)" in handed[0],
          f"the buffers are not above 4 GiB: {handed[0]}", text)
    check(handed[0].endswith(f"page-table pages taken from the pool: {tables}"),
          f"expected {tables} page-table pages from the pool: {handed[0]}", text)
    for m in METHODS:
        s = run.one("summary", method=m, workload="empty", unit="tsc_ticks")
        check(s["min_of_mins"] == ICOUNT_OFFSETS[m] and s["var_of_vars"] == 0 and s["total_variance"] == 0,
              f"{m}: offset not exact under icount with the buffers above 4 GiB: {s}", text)
        for w in WORKLOADS:
            s = run.one("summary", method=m, workload=w, unit="tsc_ticks")
            check(s["net_min"] == ICOUNT_NET[w] and s["total_variance"] == 0,
                  f"{m}/{w}: net {s['net_min']}, expected {ICOUNT_NET[w]} exactly: {s}", text)
        # code=: its generated loops are in mem_alloc's memory too, above 4 GiB.
        s = run.one("summary", method=m, workload="code", unit="tsc_ticks")
        check(s["net_min"] == 100, f"{m}/code: 100 NOPs gave net {s['net_min']}: {s}", text)
    return run, text


def test_memory_buffers_above_4g_icount_exact():
    """-m 6G, test.buffers=high, 1 GiB pages (TCG max has them): every
    buffer above 4 GiB, offsets and net results exact under -icount."""
    run, text = high_buffers_run("mem-high-1g", "max", 0)
    check("1 GiB pages yes (CPUID.80000001H:EDX[26]=1)" in text, "env: paging line: 1 GiB pages", text)


def test_memory_buffers_above_4g_2m_pages():
    """The same without 1 GiB pages (pdpe1gb off): 2 MiB pages in a page
    directory from the pool."""
    run, text = high_buffers_run("mem-high-2m", "max,pdpe1gb=off", 1)
    check("1 GiB pages no (CPUID.80000001H:EDX[26]=0)" in text, "env: paging line: 1 GiB pages", text)


def test_memory_default_low():
    """-m 256M: no RAM above 4 GiB; the buffers stay below, and
    test.buffers=high says it cannot, in one line."""
    rc, text = qemu("mem-low", "q35-tcg", SMALL + " test.buffers=high")
    run = expect_complete(rc, text)
    env = run.one("env")
    check(env["memory_above_4g_mib"] == 0 and env["buffers_from"] < FOUR_G, f"env record {env}", text)
    check(run.has_line("test: test.buffers=high: no RAM above 4 GiB in the memory map"), "no refusal line", text)


def test_memory_map_refusals():
    """test.map= beyond MAXPHYADDR (40 bits under TCG), at a non-canonical
    address (2^47 with phys-bits=48), and a successful map of the last 4 KiB
    below 2^47 (a PDPT and a PD from the pool): one line each, the run goes on."""
    cases = [("mem-map-maxphy", "max", 0x10000000000,
              "beyond MAXPHYADDR, the physical addresses this CPU has (MAXPHYADDR 40 bits"),
             ("mem-map-canonical", "max,phys-bits=48", 1 << 47, "at or above 2^47")]
    for name, cpu, at, why in cases:
        rc, text = qemu(name, "q35-tcg", f"{SMALL} test.map=0x{at:x}", cpu=cpu)
        run = expect_complete(rc, text)
        refusal = [l for l in run.lines if l.startswith("paging: test.map: cannot map ")]
        check(len(refusal) == 1 and why in refusal[0], f"{name}: refusal line {refusal}", text)
        check(run.has_line(f"test: test.map=0x{at:x}: refused"), f"{name}: no test line", text)
        check(run.one("end")["config_problems"] == 0, f"{name}: counted as a command-line problem", text)
    at = (1 << 47) - 4096
    rc, text = qemu("mem-map-top", "q35-tcg", f"{SMALL} test.map=0x{at:x}", cpu="max,phys-bits=48")
    run = expect_complete(rc, text)
    check(run.has_line(f"test: test.map=0x{at:x}: mapped uncached (UC); read 0x"), "no mapped line", text)
    check(any(l.startswith("env: paging: MAXPHYADDR 48 bits") and "(2 used so far)" in l for l in run.lines),
          "env: paging line: MAXPHYADDR 48, two tables used", text)


def test_memory_framebuffer_above_4g():
    """test.fb=high: a 1024x768 32 bpp framebuffer in RAM above 4 GiB,
    mapped WC through paging_map like a loader's; at the end of the run the
    host copies it out of guest physical memory (pmemsave) and reads it cell
    by cell against kernel/font.c: the one-screen summary and the final line
    are there."""
    with Machine("mem-fb-high", machine="q35-6g", append=f"{SMALL} test.fb=high") as m:
        text = m.wait_for(HALTED, m.serial_text, timeout=m.timeout)
        m.wait_halted(timeout=30)
        found = re.search(r"test: test\.fb=high: a 1024 x 768, 32 bpp framebuffer in RAM above 4 GiB at "
                          r"0x([0-9a-f]+) \((\d+) bytes\)", text)
        check(found is not None, "no test.fb=high line", text)
        at, size = int(found.group(1), 16), int(found.group(2))
        check(at >= FOUR_G and size == 1024 * 768 * 4, f"framebuffer at 0x{at:x}, {size} bytes", text)
        check("screen framebuffer 1024x768, 32 bpp, at 0x%x, 128x48 characters, write-combining (test.fb=high)"
              % at in text, "no console line for the framebuffer", text)
        raw = m.files + ".fb"
        if os.path.exists(raw):
            os.unlink(raw)
        m.hmp(f'pmemsave 0x{at:x} {size} "{raw}"')
        end = time.time() + 10
        while (not os.path.exists(raw) or os.path.getsize(raw) < size) and time.time() < end:
            time.sleep(0.2)
        with open(raw, "rb") as f:
            data = f.read()
        check(len(data) == size, f"pmemsave gave {len(data)} bytes, expected {size}")
        ppm = m.files + ".ppm"
        rgb = bytearray(1024 * 768 * 3)
        rgb[0::3], rgb[1::3], rgb[2::3] = data[2::4], data[1::4], data[0::4]
        with open(ppm, "wb") as f:
            f.write(b"P6 1024 768 255\n" + bytes(rgb))
        screen = framebuffer_text(ppm)
    final = [l for l in text.replace("\r", "").split("\n") if l.startswith("bench: run complete")]
    check(len(final) == 1, "no final line on the serial port", text)
    shown = "\n".join(screen)
    check(any(l.startswith("bench summary: ") for l in screen), "no summary on the framebuffer:\n" + shown[:2000])
    check(final[0][:120] in shown, "the final line is not on the framebuffer:\n" + shown[-2000:])
    check("\ufffd" not in shown, "cells that match no glyph on the framebuffer:\n" + shown[:2000])

"""tests/boot/t_memarea.py - code='s memory areas (mem=, mem.pages=,
mem.type=, regs=; kernel/memarea.c): 512 MiB areas in 1 GiB, 2 MiB and
4 KiB pages whose last byte is loaded in the window and whose guard page
faults with CR2 = the area's end; regs=nanobench's five areas, R14, RDI,
RSI and RBP in the middle of theirs; mem= beyond free RAM and 1 GiB pages
without Page1GB refused with one line each; the parameters without code=
said to apply to code= and sweep=. Exact under -icount."""
from qemu import check, expect_complete, qemu, Run

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"
MIB = 1 << 20


def little(v):
    """An imm64's bytes in hex, little-endian."""
    return v.to_bytes(8, "little").hex()


def test_memarea_512m_last_byte_and_guard_each_page_size():
    """mem=512M in 1 GiB, 2 MiB and 4 KiB pages (a type each): code= loads
    [R14 + R8] and increments R8, which init= sets to the last byte's offset:
    N (one copy) is measured, 2 TSC ticks net; 2N's second copy loads the
    byte after the area: #PF with CR2 = the area's end, its guard page."""
    size = 512 * MIB
    # init: mov r8, size - 1; code: mov al, [r14 + r8]; inc r8
    code = f"code=438a040649ffc0 init=49b8{little(size - 1)}"
    for pages, page_bytes, typ, entry, name in (("1g", 1 << 30, "wb", 0, "write-back (WB, PAT entry 0)"),
                                                 ("2m", 2 * MIB, "wc", 4, "write-combining (WC, PAT entry 4)"),
                                                 ("4k", 4096, "wp", 5, "write-protected (WP, PAT entry 5)")):
        rc, text = qemu(f"memarea-512m-{pages}", "icount-2560m",
                        f"{SMALL} {code} mem=512M mem.pages={pages} mem.type={typ}")
        run = expect_complete(rc, text)
        area = run.one("mem_area")
        phys, guard = int(area["phys"], 16), int(area["guard"], 16)
        check(area["register"] == "R14" and area["bytes"] == size and area["page_bytes"] == page_bytes and
              area["type"] == typ and int(area["pointer"], 16) == phys and guard == phys + size,
              f"{pages}: mem_area record {area}", text)
        check(guard % page_bytes == 0, f"{pages}: the area's end {guard:#x} is not aligned to its pages", text)
        check(run.has_line(f"mem: R14: 512 MiB at {phys:#x} (physically contiguous), {pages[:-1]} "
                           f"{'GiB' if pages == '1g' else 'MiB' if pages == '2m' else 'KiB'} pages, {name}, "
                           f"R14 = {phys:#x}; guard page {guard:#x} unmapped"), f"{pages}: no mem: line", text)
        s = run.one("summary", method="rdtscp", workload="code", unit="tsc_ticks")
        check(s["net_min"] == 2, f"{pages}: the last byte's load and inc: net {s['net_min']}, expected 2", text)
        f = run.one("code_fault", method="rdtscp")
        check(f["workload"] == "code.2n" and f["vector"] == 14 and f["copy"] == 2 and f["offset"] == 0 and
              f["cr2"] == guard, f"{pages}: the byte after the area: fault {f}, expected #PF CR2 {guard:#x}", text)


def test_memarea_nanobench_registers():
    """regs=nanobench mem=8K mem.type=wt: five areas (R14, RDI, RSI, RBP,
    RSP), distinct, each register in its middle; code= loading through each
    and popping and pushing on RSP runs; a load at RDI + 4 KiB (its end)
    faults with CR2 = RDI's guard page."""
    args = f"{SMALL} regs=nanobench mem=8K mem.pages=4k mem.type=wt"
    # mov al,[rdi]; mov al,[rsi]; mov al,[rbp+0]; mov al,[r14]; pop rax; push rax
    rc, text = qemu("memarea-nanobench", "icount", f"{args} code=8a078a068a4500418a065850")
    run = expect_complete(rc, text)
    areas = run.by("mem_area")
    check([a["register"] for a in areas] == ["R14", "RDI", "RSI", "RBP", "RSP"], f"areas {areas}", text)
    spans = []
    for a in areas:
        phys, ptr, guard = int(a["phys"], 16), int(a["pointer"], 16), int(a["guard"], 16)
        check(a["bytes"] == 8192 and a["page_bytes"] == 4096 and a["type"] == "wt" and ptr == phys + 4096 and
              guard == phys + 8192, f"area {a}", text)
        spans.append((phys, guard + 4096))
    spans.sort()
    check(all(spans[i][1] <= spans[i + 1][0] for i in range(4)), f"areas overlap: {spans}", text)
    check(run.has_line("mem: RDI: 8 KiB at ") and
          run.has_line(f"mem: RSP: 8 KiB at {areas[4]['phys']} (physically contiguous), 4 KiB pages, "
                       f"write-through (WT, PAT entry 1), RSP = {areas[4]['pointer']}"), "mem: lines", text)
    check(not run.by("code_fault") and run.one("summary", method="rdtscp", workload="code", unit="tsc_ticks"),
          "the loads through R14, RDI, RSI, RBP and RSP did not run", text)
    # mov al, [rdi + r8] with r8 = 4096: RDI's area's end
    rc, text = qemu("memarea-nanobench-guard", "icount", f"{args} code=428a0407 init=49b8{little(4096)}")
    run = expect_complete(rc, text)
    rdi = run.one("mem_area", register="RDI")
    f = run.one("code_fault", method="rdtscp", workload="code")
    check(f["vector"] == 14 and f["cr2"] == int(rdi["guard"], 16), f"RDI + 4 KiB: {f}, area {rdi}", text)


def test_memarea_refusals():
    """mem= larger than free RAM: one config: line with the largest possible
    mem=, the run stopped with its final line; mem.pages=1g without Page1GB:
    one line naming CPUID.80000001H:EDX[26]; mem= without code= or sweep=:
    one line saying where it applies."""
    rc, text = qemu("memarea-too-large", "icount", f"{SMALL} code=90 mem=1G mem.pages=2m")
    run = Run(rc, text)
    hits = [l for l in run.lines if l.startswith("config: mem=1G: 1 GiB in 2 MiB pages does not fit in free RAM: "
                                                 "the largest possible is mem=")]
    check(len(hits) == 1, f"mem=1G on 256 MiB: {hits}", text)
    largest = hits[0].split("the largest possible is mem=")[1].split()[0]
    check(largest.endswith("M") and 0 < int(largest[:-1]) < 256 and int(largest[:-1]) % 2 == 0,
          f"largest possible {largest!r}: whole 2 MiB pages below 256 MiB", text)
    check(run.final_line() and run.final_line().startswith("bench: run aborted: 1 command-line problem"),
          f"final line {run.final_line()}", text)
    rc, text = qemu("memarea-largest", "icount", f"{SMALL} code=90 mem={largest} mem.pages=2m")
    run = expect_complete(rc, text)
    check(run.one("mem_area")["bytes"] == int(largest[:-1]) * MIB, "the largest possible is not taken", text)

    rc, text = qemu("memarea-no1g", "icount", f"{SMALL} code=90 mem.pages=1g", cpu="max,pdpe1gb=off")
    run = Run(rc, text)
    check(sum(l.startswith("config: mem.pages=1g: this CPU has no 1 GiB pages (CPUID.80000001H:EDX[26] "
                           "Page1GB = 0)") for l in run.lines) == 1, "no Page1GB line", text)
    check(run.final_line() and run.final_line().startswith("bench: run aborted"), "no final line", text)

    rc, text = qemu("memarea-nocode", "icount", f"{SMALL} mem=2M regs=nanobench")
    run = expect_complete(rc, text)
    check(sum(l.startswith("config: mem=, mem.pages=, mem.type= and regs= apply to code= and sweep=")
              for l in run.lines) == 1 and not run.by("mem_area"), "mem= without code=", text)


def test_memarea_above_4g_1g_pages():
    """test.buffers=high on -m 6G: R14's area from RAM above 4 GiB in a 1 GiB
    page (its tables there too): the last byte measured, the byte after a #PF
    with CR2 = its end."""
    code = f"code=438a040649ffc0 init=49b8{little(4096 - 1)}"
    rc, text = qemu("memarea-high-1g", "m6g-icount", f"{SMALL} test.buffers=high {code} mem=4K mem.pages=1g")
    run = expect_complete(rc, text)
    area = run.one("mem_area")
    guard = int(area["guard"], 16)
    check(int(area["phys"], 16) >= 1 << 32 and area["page_bytes"] == 1 << 30 and guard % (1 << 30) == 0,
          f"area above 4 GiB in a 1 GiB page: {area}", text)
    check(run.one("summary", method="rdtscp", workload="code", unit="tsc_ticks")["net_min"] == 2,
          "the last byte's load not measured", text)
    f = run.one("code_fault", method="rdtscp")
    check(f["workload"] == "code.2n" and f["vector"] == 14 and f["cr2"] == guard, f"fault {f}", text)

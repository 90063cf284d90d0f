"""tests/boot/t_xsave.py - vector state for your own code (issue 21, item 5;
kernel/xsave.c, lib/xcr0.c, lib/codegen.c's save and restore): XCR0
enables AVX where CPUID enumerates it, so code= with AVX measures, exact
under -icount, on every CPU measured; the generated loops save and restore
the state with XSAVE64/XRSTOR64, so the kernel and the next method run on;
a CPU without XSAVE or without AVX says so in one line, and the AVX code
is a clean #UD with the run going on. (AVX-512: tests/boot/bochs_tests.py,
QEMU 7.2's TCG has none.)"""
from qemu import check, expect_complete, qemu

SMALL = "ensembles=2 samples=20 warmup=0 methods=cpuid,rdtscp,cr0 workloads=add_chain_64"
VADDPS_YMM = "c5f458c2"  # vaddps ymm0, ymm1, ymm2
LINE = "env: xsave: "
NO_XSAVE = ("env: xsave: XSAVE not supported (CPUID.1:ECX[26]=0): vector state beyond SSE unavailable")
NO_AVX = "; AVX: not available (CPUID.1:ECX.AVX[28]=0)"


def xsave_lines(run):
    return [l for l in run.lines if l.startswith(LINE)]


def expect_exact(run, methods=("cpuid", "rdtscp", "cr0"), cpu=None):
    """vaddps ymm x 100: net 100 (200 for 2N) and 1 per copy for every
    method, no fault, and add_chain_64 after it still 64: exact."""
    text = run.text
    where = {} if cpu is None else {"cpu": cpu}
    check(not run.by("code_fault"), f"a code fault: {run.by('code_fault')}", text)
    for m in methods:
        for w, net in (("code", 100), ("code.2n", 200), ("add_chain_64", 64)):
            s = run.one("summary", method=m, workload=w, unit="tsc_ticks", **where)
            check(s["net_min"] == net and s["total_variance"] == 0,
                  f"{m}/{w}: net {s['net_min']} TSC ticks, variance {s['total_variance']}; expected {net} exactly",
                  text)
        pc = run.one("per_copy", method=m, unit="tsc_ticks", **where)
        check(pc["num"] == 1 and pc["den"] == 1 and pc["copies"] == 100, f"{m}: per copy {pc}", text)


def test_xsave_avx_code_measures_exact():
    """-cpu max (AVX, AVX2, no AVX-512) under -icount: XCR0 = x87|SSE|AVX,
    the line says so; vaddps ymm0, ymm1, ymm2 x 100 measures with nets
    exact for the three methods, one after another, and the workload
    after it (the kernel's state restored by XRSTOR64)."""
    rc, text = qemu("xsave-avx", "icount", f"{SMALL} code={VADDPS_YMM} unroll=100")
    run = expect_complete(rc, text)
    lines = xsave_lines(run)
    check(len(lines) == 1 and lines[0].startswith("env: xsave: XCR0=0x7 (x87, SSE, AVX; ")
          and "save area 832 bytes" in lines[0] and "AVX-512: not available" in lines[0],
          f"the xsave line: {lines}", text)
    expect_exact(run)


def test_xsave_avx_code_on_every_cpu():
    """-smp 2, cpus=all: the other CPU gets the boot CPU's XCR0 as it
    starts (kernel/smp.c), so the AVX code measures there too."""
    rc, text = qemu("xsave-smp", "icount", f"{SMALL} methods=cpuid cpus=all code={VADDPS_YMM} unroll=100",
                    smp="2")
    run = expect_complete(rc, text)
    check([r["cpu"] for r in run.by("cpu_run")] == [0, 1], f"cpu_run {run.by('cpu_run')}", text)
    for cpu in (0, 1):
        expect_exact(run, ("cpuid",), cpu)


def expect_ud(run, lines, want):
    """The one line; the AVX code a #UD at byte 0 of copy 1 for each
    method, the other workload measured after it, the run complete."""
    text = run.text
    check(len(lines) == 1 and want(lines[0]), f"the xsave line: {lines}", text)
    faults = run.by("code_fault")
    check(sorted(f["method"] for f in faults) == ["cpuid", "cr0"] and
          all(f["vector"] == 6 and f["part"] == "code" and f["offset"] == 0 for f in faults),
          f"expected a #UD at byte 0 of code= for cpuid and cr0: {faults}", text)
    for m in ("cpuid", "cr0"):
        check(run.has_line(f"code {m}/code: FAULT #UD invalid opcode (vector 6"), f"{m}: no FAULT line", text)
        s = run.one("summary", method=m, workload="add_chain_64", unit="tsc_ticks")
        check(s["net_min"] == 64, f"{m}/add_chain_64 after the fault: net {s['net_min']}", text)


def test_xsave_absent_qemu64():
    """-cpu qemu64 (no XSAVE): one line says vector state beyond SSE is
    unavailable; the AVX code faults cleanly (#UD) and the run goes on."""
    rc, text = qemu("xsave-qemu64", "icount", f"{SMALL} methods=cpuid,cr0 code={VADDPS_YMM} unroll=100",
                    cpu="qemu64")
    run = expect_complete(rc, text)
    expect_ud(run, xsave_lines(run), lambda l: l == NO_XSAVE)


def test_xsave_without_avx():
    """-cpu max,-avx (XSAVE without AVX): XCR0 = x87|SSE and the line says
    "AVX: not available (CPUID.1:ECX.AVX[28]=0)"; the AVX code is a #UD."""
    rc, text = qemu("xsave-noavx", "icount", f"{SMALL} methods=cpuid,cr0 code={VADDPS_YMM} unroll=100",
                    cpu="max,-avx")
    run = expect_complete(rc, text)
    expect_ud(run, xsave_lines(run), lambda l: l.startswith("env: xsave: XCR0=0x3 (x87, SSE; ")
              and l.endswith(NO_AVX))


# QEMU's TCG hangs on the MOV to CR4 that sets CR4.OSXSAVE where its
# CPUID.(EAX=0DH,ECX=1):EAX is 0 (lib/xcr0.h): Opteron_G4 and _G5.
DECLINED = ("env: xsave: XSAVE not used: a hypervisor (CPUID.1:ECX[31]=1) with CPUID.(EAX=0DH,ECX=1):EAX=0 "
            "(no XSAVEOPT, XSAVEC, XGETBV1, XSAVES): QEMU's TCG takes CR4.OSXSAVE as reserved there and "
            "hangs on the MOV to CR4 that sets it: vector state beyond SSE unavailable")


def test_xsave_declined_on_opteron_g4():
    """-cpu Opteron_G4 (XSAVE and AVX in CPUID.1:ECX, CPUID.(0DH,1):EAX=0):
    the kernel declines XSAVE with the one line naming the bit and the
    leaf, the AVX code is a clean #UD and the run completes (before: the
    banner, then QEMU spun on the MOV to CR4 until the timeout; 60 s, the
    run takes a few)."""
    rc, text = qemu("xsave-opteron-g4", "icount", f"{SMALL} methods=cpuid,cr0 code={VADDPS_YMM} unroll=100",
                    cpu="Opteron_G4", timeout=60)
    run = expect_complete(rc, text)
    expect_ud(run, xsave_lines(run), lambda l: l == DECLINED)


def test_xsave_kept_on_opteron_g4_with_xsaveopt():
    """-cpu Opteron_G4,+xsaveopt (CPUID.(0DH,1):EAX[0]=1): the model's XSAVE
    works under TCG, and is used: XCR0 = x87|SSE|AVX, the AVX code exact."""
    rc, text = qemu("xsave-opteron-g4-xsaveopt", "icount", f"{SMALL} code={VADDPS_YMM} unroll=100",
                    cpu="Opteron_G4,+xsaveopt", timeout=60)
    run = expect_complete(rc, text)
    lines = xsave_lines(run)
    check(len(lines) == 1 and lines[0].startswith("env: xsave: XCR0=0x7 (x87, SSE, AVX; "),
          f"the xsave line: {lines}", text)
    expect_exact(run)

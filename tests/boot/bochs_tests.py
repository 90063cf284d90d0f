#!/usr/bin/env python3
"""tests/boot/bochs_tests.py - the image under Bochs, the second emulator
(tests/boot/bochs.py: its machines and its harness). Each test boots the
stock GRUB menu (iso/grub.cfg, sized down: bochs.stock_iso) from a CD on a
machine of bochs.py's table and checks the serial log. The tests run one
after another, after QEMU's (`make bochs-tests`, in `make check`); each
is skipped, with the reason, where Bochs is not installed. The last line
is "bochs: N passed, N failed, N skipped".

    python3 tests/boot/bochs_tests.py            # all tests
    python3 tests/boot/bochs_tests.py 9600       # tests whose name contains "9600"
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))
import bochs  # noqa: E402
from qemu import (BUILD, EXIT_SUCCESS, ICOUNT_NET, ICOUNT_OFFSETS, Skip, check,  # noqa: E402
                  expect_complete)
from runner import run_all  # noqa: E402

# Small: two ensembles of 20 samples of each method and workload.
SMALL = "ensembles=2 samples=20 warmup=0 workloads=add_chain_64,add_chain_256,imul_chain_64,measured_function"


def boot(name, machine, args):
    """The run's log (qemu.Run) after bochs.bochs(); complete, as
    qemu.expect_complete checks a QEMU run (Bochs has no exit device: the
    kernel's last line stands for QEMU's exit status)."""
    reason = bochs.skip_reason()
    if reason:
        raise Skip(reason)
    text = bochs.bochs(name, machine, bochs.stock_iso(name, args))
    return expect_complete(EXIT_SUCCESS, text)


def exact(name, machine):
    """Under sync=none Bochs's TSC counts instructions, as QEMU's -icount:
    every method that ran has the offset QEMU's -icount gives
    (qemu.ICOUNT_OFFSETS) in every ensemble, and every calibrated workload
    the net qemu.ICOUNT_NET; cpuid and cr0 run on every CPU, rdtscp where
    CPUID says it is there."""
    run = boot(name, machine, SMALL)
    text, env = run.text, run.one("env")
    ran = {r["method"] for r in run.by("verdict")}
    want = {"cpuid", "cr0"} | ({"rdtscp"} if env["rdtscp"] else set())
    check(want <= ran, f"{machine}: methods run {sorted(ran)}, expected at least {sorted(want)}", text)
    for m in sorted(ran):
        for e in run.by("ensemble", method=m, workload="empty"):
            check(e["min"] == ICOUNT_OFFSETS[m] and e["variance"] == 0,
                  f"{machine}: method {m}: ensemble {e['ensemble']}: offset {e['min']} TSC ticks, variance "
                  f"{e['variance']}; expected {ICOUNT_OFFSETS[m]} exactly (the instructions, as under -icount)",
                  text)
        for w, net in ICOUNT_NET.items():
            s = run.one("summary", method=m, workload=w)
            check(s["net_min"] == net and s["total_variance"] == 0,
                  f"{machine}: {m}/{w}: net {s['net_min']} TSC ticks, total variance {s['total_variance']}; "
                  f"expected {net} exactly", text)
    return run


def test_bochs_skylake_exact():
    """Intel Skylake-X (corei7_skylake_x): offsets and nets exact."""
    exact("bochs-skylake", "bochs-skylake")


def test_bochs_penryn_exact():
    """Intel Core 2 Penryn (core2_penryn_t9600): offsets and nets exact."""
    exact("bochs-penryn", "bochs-penryn")


def test_bochs_ryzen_exact():
    """AMD Zen (ryzen): offsets and nets exact."""
    exact("bochs-ryzen", "bochs-ryzen")


def test_bochs_clawhammer_exact():
    """AMD K8 (athlon64_clawhammer: no RDTSCP): offsets and nets exact."""
    run = exact("bochs-clawhammer", "bochs-clawhammer")
    check(run.one("env")["rdtscp"] == 0 and run.by("skip", method="rdtscp"),
          "athlon64_clawhammer: RDTSCP (K8 revision F and later) should be absent and rdtscp skipped", run.text)


def test_bochs_avx512_code():
    """Skylake-X (corei7_skylake_x) has AVX-512, which QEMU 7.2's TCG has
    not: XCR0 enables opmask, ZMM_Hi256 and Hi16_ZMM (kernel/xsave.c), and
    code= vaddps zmm0, zmm1, zmm2 x 100 measures, exact; the loop's XRSTOR64
    leaves the kernel as it was, so the workload after it is exact too."""
    run = boot("bochs-avx512", "bochs-skylake", "ensembles=2 samples=20 warmup=0 methods=cpuid "
               "workloads=add_chain_64 code=62f1744858c2 unroll=100")
    check(run.has_line("env: xsave: XCR0=0xe7 (x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM; ")
          and any(l.startswith("env: xsave: ") and "save area 2688 bytes" in l for l in run.lines),
          "the xsave line does not say AVX-512 state with its 2688-byte area", run.text)
    check(not run.by("code_fault"), f"a code fault: {run.by('code_fault')}", run.text)
    for w, net in (("code", 100), ("code.2n", 200), ("add_chain_64", 64)):
        s = run.one("summary", method="cpuid", workload=w, unit="tsc_ticks")
        check(s["net_min"] == net and s["total_variance"] == 0,
              f"cpuid/{w}: net {s['net_min']} TSC ticks, variance {s['total_variance']}; expected {net} exactly",
              run.text)
    pc = run.one("per_copy", method="cpuid", unit="tsc_ticks")
    check(pc["num"] == 1 and pc["den"] == 1, f"per copy {pc}", run.text)



def test_bochs_cache_flush():
    """Core 2 Penryn has CLFLUSH but not CLFLUSHOPT: cache=flush flushes with
    CLFLUSH then MFENCE before each sample of code=, its cost said once, and
    the figures stay exact (the flush is outside the window; Bochs's TSC
    counts instructions)."""
    run = boot("bochs-cache-flush", "bochs-penryn", "ensembles=2 samples=20 warmup=0 methods=cpuid "
               "workloads=none code=4801d8 unroll=10 cache=flush")
    rec = run.one("cache_state")
    check(rec["instruction"] == "clflush" and rec["lines"] and rec["cost_tsc"] and rec["why"] is None,
          f"cache_state {rec}", run.text)
    check(any(l.startswith("cache: flush before each sample of code=: CLFLUSH of ") and "then MFENCE: " in l
              for l in run.lines), "no 'cache: flush ... CLFLUSH ... then MFENCE' line", run.text)
    for w, net in (("code", 10), ("code.2n", 20)):
        s = run.one("summary", method="cpuid", workload=w, unit="tsc_ticks")
        check(s["net_min"] == net and s["total_variance"] == 0,
              f"cpuid/{w}: net {s['net_min']} TSC ticks, variance {s['total_variance']}; expected {net} exactly",
              run.text)

def test_bochs_8bpp_firmware_vga_text():
    """Firmware whose VBE offers only 8 bpp (indexed) modes (Bochs's rfb
    display): the stock menu's gfxpayload finds none of its 32 and 24 bpp
    modes and falls back to VGA text, never to an indexed mode (GRUB faults
    handing one over); the run completes on the text screen."""
    run = boot("bochs-8bpp", "bochs-rfb", SMALL + " methods=cpuid")
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen VGA text 80x25"),
          "the console line does not say VGA text 80x25", run.text)


def test_bochs_serial_9600():
    """console=ttyS0,9600 on a UART paced in emulated time (1.04 ms a
    byte): the port is found and the whole log arrives, to the last line."""
    run = boot("bochs-9600", "bochs-60mhz", "ensembles=2 samples=20 warmup=0 methods=cpuid "
               "workloads=measured_function console=ttyS0,9600")
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 9600 baud 8N1;"),
          "the console line does not say ttyS0 at 9600 baud", run.text)
    check(not any("stopped answering" in l for l in run.lines), "the UART was given up mid-run", run.text)
    check(run.one("serial_estimate")["baud"] == 9600, "the serial estimate is not at 9600 baud", run.text)


def test_bochs_4cpu_tsc_steps():
    """Four CPUs: Bochs runs each a quantum of 5 instructions in turn, so
    the TSC read on one moves in steps of 5 TSC ticks. The kernel finds the
    step from the figures (every TSC-tick figure a multiple of 5; sure from
    8 distinct figures) and says so (the tsc step line and record), and a
    net below the resolution is flagged, never printed as a duration."""
    run = boot("bochs-4cpu", "bochs-4cpu", "ensembles=3 samples=40 warmup=0 methods=cpuid,rdtscp,cr0 "
               "workloads=all")
    step = run.by("tsc_step")
    check(len(step) == 1 and step[0]["step"] == 5 and step[0]["sure"],
          f"the TSC's step of 5 is not said as sure: tsc_step records {step}", run.text)
    check(run.has_line("tsc step: the TSC moves in steps of 5 ticks"), "no 'tsc step:' line", run.text)
    low = [s for s in run.by("summary") if s["workload"] != "empty" and s["unit"] == "tsc_ticks"
           and s["net_min"] < 5]
    check(low, "no net below a step of 5 TSC ticks: the test no longer shows a flag", run.text)
    # A series printed before the step is sure is flagged at the resolution
    # known then (1 tick; bench/results.h): its nets are multiples of 5, so a
    # net below 5 is 0 or below zero and flagged either way.
    for s in low:
        check(s.get("net_min_flag") in ("below_zero", "below_resolution") and s.get("resolution") in (1, 5),
              f"{s['method']}/{s['workload']}: net {s['net_min']} TSC ticks, below the step of 5, flag "
              f"{s.get('net_min_flag')} at resolution {s.get('resolution')}", run.text)


def main(argv):
    tests = [(n[len("test_"):], f) for n, f in sorted(globals().items())
             if n.startswith("test_") and callable(f) and (not argv or any(a in n for a in argv))]
    return run_all("bochs", tests, Skip, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

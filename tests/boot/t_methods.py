"""tests/boot/t_methods.py - the paper's three methods, the environment
header, bad input and exception diagnostics, and the ISO through GRUB."""
import os

import builds
from qemu import (CMDLINE_MAX, EXIT_FAILURE, ICOUNT_OFFSETS, METHODS, check, clean_lines, expect_complete,
                  expect_method_ran, qemu)

QUICK = "workloads=measured_function"  # keep the runs short: one workload beside empty


def test_tcg_max_all_methods():
    """TCG -cpu max: the header, all three methods, records consistent."""
    rc, text = qemu("tcg-max", "q35-tcg", f"ensembles=20 samples=500 {QUICK}")
    run = expect_complete(rc, text)
    for label in ("env: cpu:", "env: brand:", "env: rdtscp: yes (CPUID.80000001H:EDX[27]=1)",
                  "env: invariant tsc:", "env: hypervisor:", "env: memory:", "env: boot: multiboot1",
                  "env: command line:"):
        check(run.has_line(label), f"header line '{label}' missing", text)
    env = run.one("env")
    check(env["rdtscp"] == 1 and env["boot_protocol"] == 1, f"env record {env}", text)
    cfg = run.one("config")
    check(cfg["ensembles"] == 20 and cfg["samples"] == 500, f"config record {cfg}", text)
    for m in METHODS:
        expect_method_ran(run, m, 20, 500)
    # TCG's max CPU is an AMD without SERIALIZE: the modern methods say why they skip.
    for m, why in (("lfence_rdtscp", "CPUID 80000021H:EAX[2]=0"), ("lfence", "CPUID 80000021H:EAX[2]=0"),
                   ("serialize", "CPUID.(EAX=07H,ECX=0):EDX[14]=0")):
        check(any(l.startswith(f"method {m}: SKIPPED: ") and why in l for l in run.lines),
              f"no skip line for {m} naming {why}", text)
    end = run.one("end")
    check(end["methods_run"] == 3 and end["methods_skipped"] == 5, f"end {end}", text)


def test_tcg_qemu64_skips_rdtscp():
    """-cpu qemu64 has no RDTSCP: method 2 prints its skip line, the others run."""
    rc, text = qemu("tcg-qemu64", "q35-qemu64", f"ensembles=10 samples=300 {QUICK}")
    run = expect_complete(rc, text)
    check("method rdtscp: SKIPPED: RDTSCP is not supported (CPUID.80000001H:EDX[27]=0)" in run.lines,
          "no skip line for rdtscp", text)
    check(run.by("skip", method="rdtscp") and not run.by("ensemble", method="rdtscp")
          and not any(k[0] == "rdtscp" for k in run.paper), "rdtscp measured although skipped", text)
    for m in ("cpuid", "cr0"):
        expect_method_ran(run, m, 10, 300)
    end = run.one("end")
    check(end["methods_run"] == 2 and end["methods_skipped"] == 6, f"end {end}", text)


def test_icount_exact():
    """-icount shift=0: the TSC counts instructions, so every method is exact."""
    rc, text = qemu("icount", "icount", f"ensembles=30 samples=200 {QUICK}")
    run = expect_complete(rc, text)
    for m in METHODS:
        s = expect_method_ran(run, m, 30, 200)
        for e in run.by("ensemble", method=m, workload="empty"):
            check(e["variance"] == 0 and e["max_dev"] == 0,
                  f"method {m}: ensemble {e['ensemble']} not exact under icount: {e}", text)
            check(e["min"] == ICOUNT_OFFSETS[m],
                  f"method {m}: offset {e['min']} instructions, expected {ICOUNT_OFFSETS[m]}", text)
        check(s["var_of_mins"] == 0 and s["var_of_vars"] == 0 and s["spurious"] == 0
              and s["total_variance"] == 0, f"method {m}: summary not exact: {s}", text)


def test_bad_command_line():
    """Every bad word gets one message naming its key; with problems=ignore
    the run completes (without it, it stops: t_cmdline_stop.py)."""
    args = ("samples=abc bogus=1 ensembles=0 methods=cpuid,nope output=xml nokey "
            f"warmup=-5 workloads=nosuch ensembles=4 samples=100 {QUICK} problems=ignore")
    rc, text = qemu("bad-cmdline", "q35-tcg", args)
    run = expect_complete(rc, text)
    want = [
        "config: samples=abc is not a number; accepted: 1..10000000",
        "config: unknown key 'bogus'; known keys:",
        "config: ensembles=0 is out of range; accepted: 1..1000000",
        "config: methods=cpuid,nope names an unknown item; accepted: all, or a comma-separated list of: cpuid rdtscp cr0 lfence_rdtscp lfence serialize ctr_rdmsr ctr_rdpmc",
        "config: output=xml is not an accepted value; accepted: human json both full summary; keeping both",
        "config: 'nokey' is not of the form key=value; ignored",
        "config: warmup=-5 is not a number; accepted: 0..10000000",
        "config: workloads=nosuch names an unknown item; accepted: all, or a comma-separated list of: ",
    ]
    for w in want:
        check(run.has_line(w), f"missing message starting {w!r}", text)
    # keys given again override: one note, not a problem (t_input.py)
    check(run.has_line("config: given more than once (the last valid value is used): "
                       "ensembles, samples, workloads"), "no note of the repeated keys", text)
    problems = run.one("config")["problems"]
    check(problems == len(want), f"config problems {problems} != {len(want)}", text)
    for m in METHODS:
        expect_method_ran(run, m, 4, 100)


def test_overlong_command_line():
    rc, text = qemu("long-cmdline", "q35-tcg", f"ensembles=2 samples=50 {QUICK} problems=ignore " + "x" * (CMDLINE_MAX + 500))
    run = expect_complete(rc, text)
    check(any(f"only the first {CMDLINE_MAX} are read" in l for l in run.lines), "no over-long message", text)


def fault_test(kind, name):
    rc, text = qemu(f"fault-{kind}", "q35-tcg", f"ensembles=2 samples=10 test.fault={kind}")
    lines = clean_lines(text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (aborted)", text)
    check(any(l.startswith(f"bench: EXCEPTION {name}") for l in lines), f"no '{name}' diagnostic", text)
    for reg in ("RIP=", "CR2=", "RAX=", "R15="):
        check(any(reg in l for l in lines), f"diagnostic lacks {reg}", text)
    check(any(l.startswith("bench: run aborted by exception") for l in lines), "no final line", text)
    return lines


def test_fault_ud2():
    fault_test("ud2", "#UD invalid opcode (vector 6)")


def test_fault_gp():
    fault_test("gp", "#GP general protection (vector 13)")


def test_fault_pf():
    lines = fault_test("pf", "#PF page fault (vector 14)")
    check(any("CR2=0000100000000000" in l for l in lines), "CR2 is not the faulting address")


def test_fault_de():
    fault_test("de", "#DE divide error (vector 0)")


def test_iso_bios_cdrom():
    """GRUB from the ISO under BIOS: multiboot2, the default menu entry."""
    rc, text = qemu("iso-bios", "bios-cdrom")
    run = expect_complete(rc, text)
    env = run.one("env")
    check(env["boot_protocol"] == 2 and env["loader"].startswith("GRUB"), f"env {env}", text)
    cfg = run.one("config")
    for m in METHODS:
        expect_method_ran(run, m, cfg["ensembles"], cfg["samples"])


def test_iso_uefi_cdrom():
    """GRUB from the ISO under UEFI (OVMF)."""
    rc, text = qemu("iso-uefi", "ovmf-cdrom")
    run = expect_complete(rc, text)
    check(run.one("env")["boot_protocol"] == 2, "not multiboot2", text)


def test_fault_before_console():
    """A #UD before multiboot parsing and console set-up (a test build whose
    boot_test_hook executes ud2): the diagnostic still reaches the serial
    port (console_emergency) and QEMU exits with the failure status."""
    build = builds.variant("early-fault", "tests/boot/early_fault_test.c")
    rc, text = qemu("early-fault", "q35-tcg", "ensembles=2 samples=10", image=os.path.join(build, "bench32.elf"))
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE}", text)
    lines = clean_lines(text)
    check(any(l.startswith("bench: EXCEPTION #UD invalid opcode (vector 6)") for l in lines),
          "no #UD diagnostic on the serial port", text)
    check(any(l.startswith("bench: run aborted by exception #UD") for l in lines),
          "no 'run aborted' final line", text)
    check(not any(l.startswith("console: ") for l in lines), "the console was set up before the fault", text)

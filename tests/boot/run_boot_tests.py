#!/usr/bin/env python3
"""tests/boot/run_boot_tests.py - boot the image under QEMU and check what it prints.

Every QEMU run has a timeout. Each test prints PASS, FAIL (with the reason and
the last lines of the log) or SKIP (with the reason); the last line is
"boot: N passed, N failed, N skipped". Logs are kept in build/logs/test-*.log.

    python3 tests/boot/run_boot_tests.py            # all tests
    python3 tests/boot/run_boot_tests.py icount     # tests whose name contains "icount"
"""
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402

BUILD = os.path.join(ROOT, "build")
KERNEL32 = os.path.join(BUILD, "bench32.elf")
ISO = os.path.join(BUILD, "bench.iso")
LOGS = os.path.join(BUILD, "logs")
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS.fd"

EXIT_SUCCESS = 33  # (0x10 << 1) | 1, kernel/exit.h
EXIT_FAILURE = 35  # (0x11 << 1) | 1
METHODS = ["cpuid", "rdtscp", "cr0"]
ICOUNT = ["-icount", "shift=0,align=off,sleep=off"]

# Under -icount shift=0 the TSC advances one tick per instruction, so a
# method's offset is the exact number of instructions from its first RDTSC
# (counted) to its second TSC read (not counted): RDTSC + the two movs of
# the start, then the stop sequence up to its read (bench/methods.h).
#   cpuid:  rdtsc, mov, mov | xor, cpuid          -> 5
#   rdtscp: rdtsc, mov, mov |                     -> 3
#   cr0:    rdtsc, mov, mov | mov cr0,rax; mov rax,cr0 -> 5
ICOUNT_OFFSETS = {"cpuid": 5, "rdtscp": 3, "cr0": 5}


class Skip(Exception):
    pass


def qemu(name, args, timeout=90, cpu="max"):
    """Run QEMU with the serial port on stdout; returns (exit status, text)."""
    cmd = ["qemu-system-x86_64", "-machine", "q35", "-m", "256M", "-display", "none",
           "-serial", "stdio", "-no-reboot", "-monitor", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if cpu:
        cmd += ["-cpu", cpu]
    cmd += args
    os.makedirs(LOGS, exist_ok=True)
    log_path = os.path.join(LOGS, f"test-{name}.log")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = e.stdout or b"", None
    text = out.decode("utf-8", errors="replace")
    with open(log_path, "w", encoding="utf-8") as f:
        f.write(" ".join(cmd) + "\n" + text)
    if rc is None:
        raise AssertionError(f"QEMU timed out after {timeout} s (log {log_path})\n" + tail(text))
    return rc, text


def kernel(append, **kw):
    return ["-kernel", KERNEL32, "-append", append]


def tail(text, n=12):
    lines = [l for l in text.replace("\r", "").split("\n") if l.strip()]
    return "\n".join("    | " + l for l in lines[-n:])


def check(cond, msg, text=""):
    if not cond:
        raise AssertionError(msg + ("\n" + tail(text) if text else ""))


def expect_complete(rc, text):
    log = benchlog.parse(text)
    check(rc == EXIT_SUCCESS, f"QEMU exit status {rc}, expected {EXIT_SUCCESS} (run complete)", text)
    check(not log.errors, f"log problems: {log.errors}", text)
    check(log.final_line and log.final_line.startswith("bench: run complete"),
          "no final 'bench: run complete' line", text)
    check(log.end and log.end["status"] == "complete", f"end record {log.end}", text)
    return log


def expect_method_ran(log, m, ensembles, samples, text):
    meth = log.methods.get(m)
    check(meth and meth.header, f"method {m}: no method record", text)
    check(meth.skip is None, f"method {m}: unexpectedly skipped: {meth.skip}", text)
    check(len(meth.ensembles) == ensembles,
          f"method {m}: {len(meth.ensembles)} ensemble records, expected {ensembles}", text)
    check(len(log.paper_lines.get(m, [])) == ensembles,
          f"method {m}: {len(log.paper_lines.get(m, []))} paper-format lines, expected {ensembles}", text)
    for j, e in enumerate(meth.ensembles):
        check(e["ensemble"] == j and e["samples"] == samples and e["unit"] == "tsc_ticks",
              f"method {m}: ensemble record {j} is {e}", text)
        check(e["min"] <= e["max"] and e["max_dev"] == e["max"] - e["min"] and e["min"] > 0,
              f"method {m}: inconsistent ensemble {e}", text)
        check(e["error"] is None, f"method {m}: ensemble {j} error {e['error']}", text)
    # The paper lines and the records carry the same figures.
    for line, e in zip(log.paper_lines[m], meth.ensembles):
        want = (f"loop_size:{e['ensemble']} >>>> variance(cycles): {e['variance']}; "
                f"max_deviation: {e['max_dev']} ;min time: {e['min']}")
        check(line == want, f"method {m}: paper line {line!r} != record {want!r}", text)
    s = meth.summary
    check(s is not None, f"method {m}: no summary record", text)
    check(s["ensembles"] == ensembles, f"method {m}: summary {s}", text)
    mins = [e["min"] for e in meth.ensembles]
    check(s["min_of_mins"] == min(mins) and s["max_of_mins"] == max(mins),
          f"method {m}: summary minimums disagree with the ensembles", text)
    check(s["max_dev_all"] == max(e["max_dev"] for e in meth.ensembles),
          f"method {m}: absolute max deviation disagrees with the ensembles", text)
    spurious = sum(1 for a, b in zip(mins, mins[1:]) if a > b)
    check(s["spurious"] == spurious, f"method {m}: spurious {s['spurious']} != {spurious}", text)
    n = len(mins)
    vv = [e["variance"] for e in meth.ensembles]
    var_calc = lambda xs: (len(xs) * sum(x * x for x in xs) - sum(xs) ** 2) // (len(xs) ** 2)
    check(s["var_of_mins"] == var_calc(mins), f"method {m}: variance of minimum values", text)
    check(s["var_of_vars"] == var_calc(vv), f"method {m}: variance of variances", text)
    check(s["total_variance"] == sum(vv) // n, f"method {m}: total variance", text)
    for label in ("total number of spurious min values = ", "total variance = ",
                  "absolute max deviation = ", "variance of variances = ",
                  "variance of minimum values = "):
        check(any(l.startswith(label) for l in log.lines), f"no paper summary line '{label}'", text)


# ---------------------------------------------------------------- the tests

def test_tcg_max_all_methods():
    """TCG -cpu max: the header, all three methods, records consistent."""
    rc, text = qemu("tcg-max", kernel("ensembles=20 samples=500"))
    log = expect_complete(rc, text)
    for label in ("env: cpu:", "env: brand:", "env: rdtscp: yes (CPUID.80000001H:EDX[27]=1)",
                  "env: invariant tsc:", "env: hypervisor:", "env: memory:", "env: boot: multiboot1",
                  "env: command line:"):
        check(any(l.startswith(label) for l in log.lines), f"header line '{label}' missing", text)
    check(log.env and log.env["rdtscp"] == 1, f"env record {log.env}", text)
    check(log.config["ensembles"] == 20 and log.config["samples"] == 500,
          f"config record {log.config}", text)
    for m in METHODS:
        expect_method_ran(log, m, 20, 500, text)
    check(log.end["methods_run"] == 3 and log.end["methods_skipped"] == 0, f"end {log.end}", text)


def test_tcg_qemu64_skips_rdtscp():
    """-cpu qemu64 has no RDTSCP: method 2 prints its skip line, the others run."""
    rc, text = qemu("tcg-qemu64", kernel("ensembles=10 samples=300"), cpu="qemu64")
    log = expect_complete(rc, text)
    check("method rdtscp: SKIPPED: RDTSCP is not supported (CPUID.80000001H:EDX[27]=0)" in log.lines,
          "no skip line for rdtscp", text)
    check(log.methods["rdtscp"].skip and not log.methods["rdtscp"].ensembles
          and "rdtscp" not in log.paper_lines, "rdtscp measured although skipped", text)
    for m in ("cpuid", "cr0"):
        expect_method_ran(log, m, 10, 300, text)
    check(log.end["methods_run"] == 2 and log.end["methods_skipped"] == 1, f"end {log.end}", text)


def test_icount_exact():
    """-icount shift=0: the TSC counts instructions, so every method is exact."""
    rc, text = qemu("icount", ICOUNT + kernel("ensembles=30 samples=200"))
    log = expect_complete(rc, text)
    for m in METHODS:
        expect_method_ran(log, m, 30, 200, text)
        meth = log.methods[m]
        for e in meth.ensembles:
            check(e["variance"] == 0 and e["max_dev"] == 0,
                  f"method {m}: ensemble {e['ensemble']} not exact under icount: {e}", text)
            check(e["min"] == ICOUNT_OFFSETS[m],
                  f"method {m}: offset {e['min']} instructions, expected {ICOUNT_OFFSETS[m]}", text)
        s = meth.summary
        check(s["var_of_mins"] == 0 and s["var_of_vars"] == 0 and s["spurious"] == 0
              and s["total_variance"] == 0, f"method {m}: summary not exact: {s}", text)


def test_bad_command_line():
    """Every bad word gets one message naming its key; the run completes."""
    args = ("samples=abc bogus=1 ensembles=0 methods=cpuid,nope output=xml nokey "
            "warmup=-5 ensembles=4 samples=100")
    rc, text = qemu("bad-cmdline", kernel(args))
    log = expect_complete(rc, text)
    want = [
        "config: samples=abc is not a number; accepted: 1..10000000",
        "config: unknown key 'bogus'; known keys:",
        "config: ensembles=0 is out of range; accepted: 1..1000000",
        "config: methods=cpuid,nope names an unknown item; accepted: all, or a comma-separated list of: cpuid rdtscp cr0",
        "config: output=xml is not an accepted value; accepted: human json both; keeping both",
        "config: 'nokey' is not of the form key=value; ignored",
        "config: warmup=-5 is not a number; accepted: 0..10000000",
        "config: key 'ensembles' given more than once",
        "config: key 'samples' given more than once",
    ]
    for w in want:
        check(any(l.startswith(w) for l in log.lines), f"missing message starting {w!r}", text)
    check(log.config["problems"] == len(want), f"config problems {log.config['problems']} != {len(want)}", text)
    for m in METHODS:
        expect_method_ran(log, m, 4, 100, text)


def test_overlong_command_line():
    rc, text = qemu("long-cmdline", kernel("ensembles=2 samples=50 " + "x" * 1500))
    log = expect_complete(rc, text)
    check(any("only the first 1024 are read" in l for l in log.lines), "no over-long message", text)


def fault_test(kind, name):
    rc, text = qemu(f"fault-{kind}", kernel(f"ensembles=2 samples=10 test.fault={kind}"))
    lines = benchlog.clean(text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (aborted)", text)
    check(any(l.startswith(f"bench: EXCEPTION {name}") for l in lines), f"no '{name}' diagnostic", text)
    for reg in ("RIP=", "CR2=", "RAX=", "R15="):
        check(any(reg in l for l in lines), f"diagnostic lacks {reg}", text)
    check(any(l.startswith("bench: run aborted by exception") for l in lines), "no final line", text)


def test_fault_ud2():
    fault_test("ud2", "#UD invalid opcode (vector 6)")


def test_fault_gp():
    fault_test("gp", "#GP general protection (vector 13)")


def test_fault_pf():
    fault_test("pf", "#PF page fault (vector 14)")
    _, text = qemu("fault-pf", kernel("test.fault=pf"))
    check(any("CR2=0000100000000000" in l for l in benchlog.clean(text)), "CR2 not the faulting address", text)


def test_fault_de():
    fault_test("de", "#DE divide error (vector 0)")


def test_iso_bios_cdrom():
    """GRUB from the ISO under BIOS: multiboot2, the default menu entry."""
    rc, text = qemu("iso-bios", ["-cdrom", ISO], timeout=120)
    log = expect_complete(rc, text)
    check(log.env["boot_protocol"] == 2 and log.env["loader"].startswith("GRUB"),
          f"env {log.env}", text)
    for m in METHODS:
        expect_method_ran(log, m, log.config["ensembles"], log.config["samples"], text)


def test_iso_uefi_cdrom():
    """GRUB from the ISO under UEFI (OVMF)."""
    if not os.path.exists(OVMF_CODE):
        raise Skip(f"{OVMF_CODE} not installed (Debian package ovmf)")
    vars_copy = os.path.join(LOGS, "ovmf-vars.fd")
    os.makedirs(LOGS, exist_ok=True)
    shutil.copyfile(OVMF_VARS, vars_copy)
    rc, text = qemu("iso-uefi", ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
                                 "-drive", f"if=pflash,format=raw,file={vars_copy}",
                                 "-cdrom", ISO], timeout=180)
    log = expect_complete(rc, text)
    check(log.env["boot_protocol"] == 2, f"env {log.env}", text)


def test_kvm():
    """KVM, when /dev/kvm works: the real CPU under a hypervisor."""
    if not os.path.exists("/dev/kvm"):
        raise Skip("/dev/kvm does not exist (no hardware virtualization here)")
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        raise Skip("/dev/kvm is not readable and writable by this user")
    rc, text = qemu("kvm", ["-accel", "kvm"] + kernel("ensembles=10 samples=1000"), cpu="host")
    if rc not in (EXIT_SUCCESS, EXIT_FAILURE) and "failed to initialize kvm" in text.lower():
        raise Skip("QEMU could not initialize KVM: " + tail(text, 2))
    log = expect_complete(rc, text)
    for m in METHODS:
        if not log.methods[m].skip:
            expect_method_ran(log, m, 10, 1000, text)


TESTS = [v for k, v in list(globals().items()) if k.startswith("test_")]


def main(argv):
    for f in (KERNEL32, ISO):
        if not os.path.exists(f):
            print(f"boot: {f} is missing: run 'make kernel iso' first")
            return 2
    selected = [t for t in TESTS if not argv or any(a in t.__name__ for a in argv)]
    passed = failed = skipped = 0
    for t in selected:
        name = t.__name__[len("test_"):]
        start = time.time()
        try:
            t()
        except Skip as e:
            skipped += 1
            print(f"SKIP {name}: {e}")
        except AssertionError as e:
            failed += 1
            print(f"FAIL {name} ({time.time() - start:.1f} s): {e}")
        else:
            passed += 1
            print(f"PASS {name} ({time.time() - start:.1f} s)")
        sys.stdout.flush()
    print(f"boot: {passed} passed, {failed} failed, {skipped} skipped")
    os.makedirs(os.path.join(BUILD, "results"), exist_ok=True)
    with open(os.path.join(BUILD, "results", "boot.txt"), "w") as f:
        f.write(f"{passed} {failed} {skipped}\n")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/boot/qemu.py - what the boot tests share: running QEMU with a
timeout, and checks of a run's log. The build directory is $BENCH_BUILD, or
build/ at the top of the tree."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402

BUILD = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
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



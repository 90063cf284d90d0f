"""tests/boot/qemu.py - what the boot tests share: running QEMU on a machine
of the table (tests/boot/machines.py) with its timeout, reading a run's
log, and checks of it. The build directory is $BENCH_BUILD, or build/ at
the top of the tree.

The tests read the log with their own small parser (Run below), not with
tools/benchlog/, so that the host tools are tested against the kernel
rather than against themselves."""
import json
import os
import re
import subprocess
import threading

import machines
from machines import BUILD, INTEL_MAX, ISO, KERNEL32, LOGS, OVMF_CODE, OVMF_VARS, ROOT  # noqa: F401

EXIT_SUCCESS = 33  # (0x10 << 1) | 1, kernel/exit.h
EXIT_FAILURE = 35  # (0x11 << 1) | 1
METHODS = ["cpuid", "rdtscp", "cr0"]  # the paper's
MODERN = ["lfence_rdtscp", "lfence", "serialize"]
COUNTER_METHODS = ["ctr_rdmsr", "ctr_rdpmc"]  # Goossens' (need a PMU: skipped under TCG)
ALL_METHODS = METHODS + MODERN + COUNTER_METHODS
# The kernel reads this many characters of its command line (lib/cmdline.h).
with open(os.path.join(ROOT, "lib", "cmdline.h")) as _h:
    CMDLINE_MAX = int(re.search(r"#define CFG_MAX_LINE (\d+)", _h.read()).group(1))
BEGIN, END = "BEGIN bench-records v1", "END bench-records"

# Under -icount shift=0 the TSC advances one tick per instruction, so a
# method's offset is the exact number of instructions from its first RDTSC
# (counted) to its second TSC read (not counted): RDTSC + the two stores of
# the start, then the stop sequence up to its read (bench/methods.h).
#   cpuid:  rdtsc, mov, mov | xor, cpuid          -> 5
#   rdtscp: rdtsc, mov, mov |                     -> 3
#   cr0:    rdtsc, mov, mov | mov cr0,rax; mov rax,cr0 -> 5
#   lfence_rdtscp: rdtsc, mov, mov |              -> 3
#   lfence: rdtsc, mov, mov | lfence              -> 4
ICOUNT_OFFSETS = {"cpuid": 5, "rdtscp": 3, "cr0": 5, "lfence_rdtscp": 3, "lfence": 4}
# ... and a calibrated workload's net result is its instruction count.
ICOUNT_NET = {"add_chain_64": 64, "add_chain_256": 256, "imul_chain_64": 64,
              "measured_function": 1}

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>78cDEHM]")
# Beside a paper-format figure where the paper's own 64-bit code would
# have overflowed (bench/report.h PAPER64_NOTE); the figure is exact.
PAPER64_NOTE = " (too large for the paper's 64-bit code)"
PAPER = re.compile(r"^loop_size:(\d+) >>>> variance\(cycles\): (\S+)"
                   rf"(?:{re.escape(PAPER64_NOTE)})?; "
                   r"max_deviation: (\d+) ;min time: (\d+)$")
RUN_HEADER = re.compile(r"^method (\w+): .*; workload (\w+): ")


class Skip(Exception):
    pass


def machine_flags(run, machine, **kw):
    """machines.flags(run, machine, **kw); Skip when the machine's firmware
    or accelerator is not here."""
    m = machines.get(machine)
    machines.may_boot(machine)
    if m.firmware == "ovmf" and not (os.path.exists(OVMF_CODE) and os.path.exists(OVMF_VARS)):
        raise Skip(f"{OVMF_CODE} not installed (Debian package ovmf)")
    if m.accel == "kvm" and not os.path.exists("/dev/kvm"):
        raise Skip("/dev/kvm does not exist (no hardware virtualization here)")
    if m.accel == "kvm" and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        raise Skip("/dev/kvm is not readable and writable by this user")
    return machines.flags(run, machine, **kw)


def command(name, machine, append=None, image=None, cpu=None, smp=None, extra=None, monitor="none"):
    """The QEMU command line of run name on machine (append, image, cpu,
    smp: machines.flags), its serial port on stdout, isa-debug-exit for the
    kernel's exit status, the monitor at monitor; then extra, the test's own
    flags."""
    return (["qemu-system-x86_64", "-display", "none", "-serial", "stdio", "-no-reboot", "-monitor", monitor,
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
            + machine_flags(name, machine, append=append, image=image, cpu=cpu, smp=smp) + (extra or []))


def qemu(name, machine, append=None, image=None, cpu=None, smp=None, extra=None, cwd=None, timeout=None,
         wrap=None):
    """Run QEMU (command() above; in directory cwd, if given; after the
    command prefix wrap, e.g. netns.prefix()) for the machine's timeout, or
    timeout seconds; returns (exit status, text). The log is
    logs/test-NAME.log: run names are unique across the tests."""
    cmd = (wrap or []) + command(name, machine, append, image, cpu, smp, extra)
    timeout = timeout or machines.get(machine).timeout
    log_path = run_files(name) + ".log"
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout, cwd=cwd)
        out, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = e.stdout or b"", None
    text = out.decode("utf-8", errors="replace")
    with open(log_path, "w", encoding="utf-8") as f:
        f.write(" ".join(cmd) + "\n" + text)
    if rc is None:
        raise AssertionError(f"QEMU timed out after {timeout} s (log {log_path})\n" + tail(text))
    return rc, text


_claimed, _claim_lock = set(), threading.Lock()


def run_files(name):
    """logs/test-NAME, where the files of run name start (its .log, ...);
    no other run of this suite run may have the name (AssertionError): the
    tests run in parallel, and two runs of one name would write one log."""
    with _claim_lock:
        if name in _claimed:
            raise AssertionError(f"a second QEMU run named {name!r}: its files would be the first's")
        _claimed.add(name)
    os.makedirs(LOGS, exist_ok=True)
    return os.path.join(LOGS, f"test-{name}")


def tail(text, n=12):
    lines = [l for l in text.replace("\r", "").split("\n") if l.strip()]
    return "\n".join("    | " + l[:200] for l in lines[-n:])


def check(cond, msg, text=""):
    if not cond:
        raise AssertionError(msg + ("\n" + tail(text) if text else ""))


def clean_lines(text):
    return ANSI.sub("", text.replace("\r", "")).split("\n")


UNITS = ("tsc_ticks", "core_cycles", "instructions")  # bench/results.h enum unit


def compact_ensemble(values, header, where):
    """The ensemble record a compact one, {"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,
    NMIS,SMIS]} (docs/RECORDS.md "Machine-readable output"), stands for: the keys of
    the full record it holds or that follow from it and from the method
    record before it (header); the full record's other keys (mean,
    quantiles...) are absent."""
    check(header is not None, f"{where}: a compact ensemble record before any method record")
    check(isinstance(values, list) and len(values) in (7, 8) and values[0] in (0, 1, 2),
          f"{where}: a compact ensemble record of another shape: {values}")
    u, j, low, high, var, med, nmis = values[:7]
    return {"rec": "ensemble", "method": header["method"], "workload": header["workload"],
            "unit": UNITS[u], "ensemble": j, "param": j if header["resolution"] else header["param"],
            "samples": header["samples"], "primary": UNITS[u] == header["unit"], "min": low, "max": high,
            "max_dev": high - low, "variance": var, "median": med, "nmis": nmis,
            "smis": values[7] if len(values) == 8 else None,
            "error": None if var is not None else "no samples"}


class Run:
    """A run's log: its lines, its records, and the paper-format lines of
    each (method, workload)."""

    def __init__(self, rc, text):
        self.rc, self.text = rc, text
        self.lines = clean_lines(text)
        self.recs, self.errors, self.paper = [], [], {}
        self.compact = 0  # compact ensemble records read (output=both, json)
        inside, current, header = False, None, None
        for no, line in enumerate(self.lines, 1):
            if line == BEGIN:
                inside = True
            elif line == END:
                inside = False
            m = RUN_HEADER.match(line)
            if m:
                current = (m.group(1), m.group(2))
            if PAPER.match(line) and current:
                self.paper.setdefault(current, []).append(line)
            if inside and line.startswith("{"):
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    self.errors.append(f"line {no}: {e}: {line[:80]}")
                    continue
                if list(rec) == ["e"]:
                    rec = compact_ensemble(rec["e"], header, f"line {no}")
                    self.compact += 1
                header = rec if rec.get("rec") == "method" else header
                self.recs.append(rec)

    def by(self, kind, **kw):
        return [r for r in self.recs if r.get("rec") == kind
                and all(r.get(k) == v for k, v in kw.items())]

    def one(self, kind, **kw):
        found = self.by(kind, **kw)
        check(len(found) == 1, f"expected one {kind} record {kw}, found {len(found)}", self.text)
        return found[0]

    def has_line(self, prefix):
        return any(l.startswith(prefix) for l in self.lines)

    def final_line(self):
        finals = [l for l in self.lines if l.startswith("bench: run ")]
        return finals[-1] if finals else None


def bench_report(text):
    """tools/bench.py report on a run's serial log: (its completed process,
    every file it wrote, read into one string)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "run.log")
        with open(log, "w", encoding="utf-8") as f:
            f.write(text)
        p = subprocess.run(["python3", os.path.join(ROOT, "tools", "bench.py"), "report", log, "-o",
                            os.path.join(d, "report")], capture_output=True, text=True, timeout=300)
        shown = "".join(open(os.path.join(r, n), encoding="utf-8", errors="replace").read()
                        for r, _, ns in os.walk(os.path.join(d, "report")) for n in ns)
    return p, shown


def expect_complete(rc, text):
    run = Run(rc, text)
    check(rc == EXIT_SUCCESS, f"QEMU exit status {rc}, expected {EXIT_SUCCESS} (run complete)", text)
    check(not run.errors, f"bad records: {run.errors}", text)
    check(BEGIN in run.lines and END in run.lines, "record markers missing", text)
    final = run.final_line()
    check(final is not None and final.startswith("bench: run complete"),
          "no final 'bench: run complete' line", text)
    check(run.lines.index(END) < max(i for i, l in enumerate(run.lines) if l == final),
          "the final line is not after the records", text)
    check(run.one("end")["status"] == "complete", "end record status", text)
    return run


def var_calc(xs):
    """The paper's var_calc (appendix lines 73-97), exact."""
    return (len(xs) * sum(x * x for x in xs) - sum(xs) ** 2) // (len(xs) ** 2)


def kernel_var_calc(xs):
    """var_calc as lib/stats.c computes it (320 bits, lib/wide.h): exact."""
    return var_calc(xs)


def kernel_total_variance(vv):
    """The paper's total variance (mean of the ensemble variances) as
    lib/stats.c computes it: exact."""
    return sum(vv) // len(vv)


def expect_workload_ran(run, m, w, ensembles, samples):
    """Check the ensembles and summary of (method m, workload w) against each
    other, the paper-format lines and the paper's formulas."""
    text = run.text
    ens = run.by("ensemble", method=m, workload=w)
    check(len(ens) == ensembles, f"{m}/{w}: {len(ens)} ensemble records, expected {ensembles}", text)
    paper = run.paper.get((m, w), [])
    check(len(paper) == ensembles, f"{m}/{w}: {len(paper)} paper-format lines, expected {ensembles}", text)
    for j, e in enumerate(ens):
        check(e["ensemble"] == j and e["samples"] == samples and e["unit"] == "tsc_ticks",
              f"{m}/{w}: ensemble record {j} is {e}", text)
        check(e["min"] <= e["median"] <= e["max"], f"{m}/{w}: median out of range in {e}", text)
        if "p1" in e:  # a full record (output=full): the quantiles too
            check(e["min"] <= e["p1"] <= e["q1"] <= e["median"] <= e["q3"] <= e["p99"] <= e["max"],
                  f"{m}/{w}: quantiles out of order in {e}", text)
            lo, hi = e["median_ci95"]
            check(lo <= e["median"] <= hi, f"{m}/{w}: median outside its CI in {e}", text)
            check(e["outliers_3iqr"] <= e["outliers_1_5iqr"] <= samples, f"{m}/{w}: outliers {e}", text)
        check(e["max_dev"] == e["max"] - e["min"], f"{m}/{w}: max_dev in {e}", text)
        check(e["error"] is None, f"{m}/{w}: ensemble {j} error {e['error']}", text)
    for line, e in zip(paper, ens):
        want = (f"loop_size:{e['ensemble']} >>>> variance(cycles): {e['variance']}; "
                f"max_deviation: {e['max_dev']} ;min time: {e['min']}")
        # the note where the paper's 64-bit var_calc would have overflowed
        # (the samples are not in the records: either is the record's figure)
        check(line in (want, want.replace("; max_dev", PAPER64_NOTE + "; max_dev", 1)),
              f"{m}/{w}: paper line {line!r} != record {want!r}", text)
    s = run.one("summary", method=m, workload=w)
    mins = [e["min"] for e in ens]
    vv = [e["variance"] for e in ens]
    check(s["ensembles"] == ensembles, f"{m}/{w}: summary {s}", text)
    check(s["min_of_mins"] == min(mins) and s["max_of_mins"] == max(mins),
          f"{m}/{w}: summary minimums disagree with the ensembles", text)
    check(s["max_dev_all"] == max(e["max_dev"] for e in ens),
          f"{m}/{w}: absolute max deviation disagrees with the ensembles", text)
    spurious = sum(1 for a, b in zip(mins, mins[1:]) if a > b)
    check(s["spurious"] == spurious, f"{m}/{w}: spurious {s['spurious']} != {spurious}", text)
    check(s["var_of_mins"] == kernel_var_calc(mins), f"{m}/{w}: variance of minimum values", text)
    check(s["var_of_vars"] == kernel_var_calc(vv), f"{m}/{w}: variance of variances", text)
    check(s["total_variance"] == kernel_total_variance(vv), f"{m}/{w}: total variance", text)
    check(s["median_of_mins"] == sorted(mins)[(len(mins) + 1) // 2 - 1],
          f"{m}/{w}: median of minimums {s['median_of_mins']}", text)
    check(s["net_min"] == s["min_of_mins"] - s["offset"], f"{m}/{w}: net_min", text)
    return ens, s


def expect_method_ran(run, m, ensembles, samples):
    """The empty window of method m ran and is consistent; returns its summary."""
    run.one("method", method=m, workload="empty")
    check(not run.by("skip", method=m), f"method {m}: unexpectedly skipped", run.text)
    _, s = expect_workload_ran(run, m, "empty", ensembles, samples)
    for label in ("total number of spurious min values = ", "total variance = ",
                  "absolute max deviation = ", "variance of variances = ",
                  "variance of minimum values = "):
        check(run.has_line(label), f"no paper summary line '{label}'", run.text)
    v = run.one("verdict", method=m)
    check(v["offset"] == s["min_of_mins"], f"verdict {v} disagrees with the summary", run.text)
    check(run.has_line(f"verdict {m}: "), f"no verdict line for {m}", run.text)
    return s

#!/usr/bin/env python3
"""tests/bench/run_benchmarks.py - benchmarks that print figures against the
project's goals (not timed pass/fail tests: a goal missed is printed, not
failed). What each asserts is real and said in its docstring; the last line
is "bench: N passed, N failed, N skipped", also written as "P F S" to
$BENCH_BUILD/results/bench.txt (tests/total.py adds the suites up).

    /usr/bin/python3 tests/bench/run_benchmarks.py           # all
    /usr/bin/python3 tests/bench/run_benchmarks.py serial    # names containing "serial"

serial_budget (issue 13, "a lean serial log"): the default run's serial log
against 300 KB, and the paper's full run's printing time at 115200 baud
against 10 % of its measuring time on a 3 GHz machine."""
import json
import os
import select
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from runner import run_all  # noqa: E402
import benchlog  # noqa: E402

BUILD = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
KERNEL = os.path.join(BUILD, "bench32.elf")
LOGS = os.path.join(BUILD, "logs")
QEMU_TIMEOUT = 300       # a default-size boot takes ~12 s on an idle core
BAUD = 115200            # the default console (kernel/console.c); 8N1: 10 bits a byte
TSC_HZ = 3 * 10 ** 9     # "a 3 GHz machine"
GOAL_BYTES = 300 * 1000  # the default run's serial log
GOAL_FRACTION = 0.10     # the paper's full run: printing / measuring
PAPER = (1000, 100000)   # the paper's full run: ensembles x samples (Paoloni 2010, 3.1.2)
WARMUP = 1000            # the default warm-up samples per series (kernel/config.h)
PROGRESS_TICKS = 4 * 10 ** 9  # a progress line at most this often (bench/run.c)


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def qemu_cmd(append):
    return ["qemu-system-x86_64", "-machine", "q35", "-m", "256M", "-display", "none",
            "-serial", "stdio", "-no-reboot", "-monitor", "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-cpu", "max",
            "-kernel", KERNEL, "-append", append]


def boot(name, append):
    """A complete run's serial log (bytes), kept as build/logs/bench-NAME.log."""
    if not shutil.which("qemu-system-x86_64"):
        raise Skip("qemu-system-x86_64 is not installed")
    try:
        p = subprocess.run(qemu_cmd(append), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=QEMU_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{name}: QEMU timed out after {QEMU_TIMEOUT} s ('{append}')")
    os.makedirs(LOGS, exist_ok=True)
    with open(os.path.join(LOGS, f"bench-{name}.log"), "wb") as f:
        f.write(p.stdout)
    check(p.returncode == 33, f"{name}: QEMU exit status {p.returncode}, expected 33 (run complete): "
                              f"{p.stderr.decode(errors='replace')[-300:]}")
    return p.stdout


def estimate_only(append, bound=60):
    """The kernel's serial_estimate record for a run of these boot
    parameters: boot, read until the config section has printed it, stop
    QEMU (the run itself is not waited for)."""
    p = subprocess.Popen(qemu_cmd(append), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL)
    buf, deadline = b"", time.monotonic() + bound
    try:
        while b'"rec":"serial_estimate"' not in buf or not buf.rstrip(b"\r").endswith(b"\n"):
            left = deadline - time.monotonic()
            check(left > 0, f"no serial_estimate record within {bound} s of booting '{append}'")
            if select.select([p.stdout], [], [], left)[0]:
                chunk = os.read(p.stdout.fileno(), 65536)
                check(chunk, f"QEMU stopped before the serial_estimate record ('{append}')")
                buf += chunk
    finally:
        p.kill()
        p.wait(timeout=30)
    line = next(l for l in buf.decode(errors="replace").split("\n") if '"rec":"serial_estimate"' in l)
    return json.loads(line[line.index("{"):])


def digits_below(n):
    """Characters of the numbers 0..n-1, summed (the ensemble numbers)."""
    return sum(len(str(j)) for j in range(n))


def kb(n):
    return f"{n} bytes ({n / 1000:.1f} KB)"


def seconds(n):
    """Printing time of n bytes at BAUD, 8N1."""
    return n * 10 / BAUD


def shape(data, log):
    """A log's parts: total bytes, its per-ensemble lines (paper-format
    lines and ensemble records) and how many, the ensemble numbers'
    characters in them, the series of the method's own unit, progress lines."""
    per_ens = n_per_ens = jchars = progress = paper = 0
    for raw in data.split(b"\n"):
        t = raw.decode(errors="replace").rstrip("\r")
        if t.startswith("loop_size:"):
            j = t[len("loop_size:"):t.index(" ")]
            paper += len(raw) + 1
        elif t.startswith('{"e":['):
            j = str(json.loads(t)["e"][1])
        elif t.startswith('{"rec":"ensemble"'):
            j = str(json.loads(t)["ensemble"])
        else:
            if t.startswith("progress: "):
                progress += len(raw) + 1
            continue
        per_ens += len(raw) + 1
        n_per_ens += 1
        jchars += len(j)
    series = [s for s in log.series.values() if s.primary and s.ensembles]
    return {"bytes": len(data), "per_ens": per_ens, "n_per_ens": n_per_ens, "jchars": jchars,
            "series": series, "progress": progress, "paper": paper}


def extrapolate(sh, ensembles, measure_ticks):
    """The bytes of the same run at another number of ensembles: the part
    that does not grow with ensembles as measured (less the progress lines,
    which grow with the measuring time: one of ~110 bytes per PROGRESS_TICKS),
    plus per (series, ensemble) the measured bytes of its lines without the
    ensemble number, plus the ensemble numbers' characters."""
    n_series_ens = sum(len(s.ensembles) for s in sh["series"])
    lines_per = sh["n_per_ens"] / n_series_ens
    body = (sh["per_ens"] - sh["jchars"]) / n_series_ens
    fixed = sh["bytes"] - sh["per_ens"] - sh["progress"]
    progress = measure_ticks // PROGRESS_TICKS * 110
    return round(fixed + progress + len(sh["series"]) * (ensembles * body + lines_per * digits_below(ensembles)))


def test_serial_budget():
    """Boots the default run (plain TCG, -cpu max) at output=both (compact
    records, the default) and output=full (as before issue 13) and prints
    the serial log's bytes, measured, against 300 KB; then the paper's full
    run extrapolated from them, and its measuring time estimated from
    samples x (offset + net) in TSC ticks at 3 GHz, and the fraction
    printing / measuring against 10 %. Asserts that both runs complete,
    that their logs are valid, that the kernel's own estimate (config
    section) is within 25 % of the bytes it printed, and that every figure
    is computed; not the goals."""
    lean, full = boot("default", ""), boot("default-full", "output=full")
    summ = boot("default-summary", "output=summary")
    check(benchlog.parse(summ.decode(errors="replace")).valid, "the output=summary default log is not valid")
    logs = {k: benchlog.parse(d.decode(errors="replace")) for k, d in (("lean", lean), ("full", full))}
    for k, lg in logs.items():
        check(lg.valid, f"the {k} default log is not valid: {lg.problems[:3]}")
    shapes = {"lean": shape(lean, logs["lean"]), "full": shape(full, logs["full"])}
    series = shapes["lean"]["series"]
    check(series and len(series) == len(shapes["full"]["series"]), "no series, or not as many in both logs")
    cfg = logs["lean"].config
    ens, smp = cfg["ensembles"], cfg["samples"]
    p = print
    p(f"serial budget: the default run booted at its sizes ({ens} ensembles x {smp} samples; plain QEMU TCG "
      f"-cpu max: {len({s.method for s in series})} methods run, {len(series)} series), bytes measured, "
      "not extrapolated")
    for k, level in (("lean", "output=both, compact ensemble records (the default)"),
                     ("full", "output=full, full ensemble records (the default before)")):
        n = shapes[k]["bytes"]
        est = logs[k].by_kind["serial_estimate"][0][1]
        off = (est["bytes"] - n) / n
        check(abs(off) <= 0.25, f"{k}: the kernel estimated {est['bytes']} bytes, the run printed {n}")
        p(f"  {level}: {kb(n)}, {seconds(n):.1f} s at {BAUD} baud; the kernel's estimate "
          f"{est['bytes']} bytes ({off:+.1%})")
        shapes[k]["estimate"] = est["bytes"]
    n = shapes["lean"]["bytes"]
    p(f"  goal: the default run's serial log at most {GOAL_BYTES // 1000} KB: {n / 1000:.1f} KB, "
      f"{'met' if n <= GOAL_BYTES else 'NOT met'} ({n / GOAL_BYTES:.0%} of it; "
      f"{shapes['full']['bytes'] / GOAL_BYTES:.0%} before)")
    for k in ("lean", "full"):
        sh = shapes[k]
        p(f"  per ensemble of a series, {k}: {sh['per_ens'] / sum(len(s.ensembles) for s in series):.1f} "
          f"bytes ({sh['n_per_ens'] // sum(len(s.ensembles) for s in series)} lines); besides: "
          f"{sh['bytes'] - sh['per_ens']} bytes")

    # The paper's full run: the same series at 1000 x 100000.
    pe, ps = PAPER
    sums = [s.summary for s in series]
    check(all(isinstance(x.get("min_of_mins"), int) for x in sums), "a summary without min_of_mins")
    per_sample = sum(x["min_of_mins"] for x in sums)   # offset + net, each series
    ticks = (pe * ps + WARMUP) * per_sample
    measuring = ticks / TSC_HZ
    check(measuring > 0, "no measuring time")
    p(f"paper's full run ({pe} ensembles x {ps} samples, the same {len(series)} series): bytes extrapolated "
      f"from the default run's per ensemble and series (figures with as many digits as at {smp} samples)")
    p(f"  measuring: {ticks} TSC ticks = {measuring:.1f} s at {TSC_HZ / 1e9:.0f} GHz, estimated as "
      f"({pe} x {ps} + {WARMUP} warm-up) samples x (offset + net) of each series, from the default "
      f"run's summary records (offset + net summed over its {len(series)} series: {per_sample} TSC ticks)")
    fractions = {}
    for k, level in (("lean", "output=both"), ("full", "output=full")):
        b = extrapolate(shapes[k], pe, ticks)
        check(b > shapes[k]["bytes"], f"{k}: the extrapolation {b} is below the default run's bytes")
        fractions[k] = seconds(b) / measuring
        p(f"  printing, {level}: {kb(b)}, {seconds(b):.1f} s ({seconds(b) / 60:.1f} min) at {BAUD} baud = "
          f"{fractions[k]:.0%} of the measuring time")
    est = estimate_only(f"ensembles={pe} samples={ps}")
    check(isinstance(est.get("bytes"), int) and est["bytes"] > 0, f"the kernel's estimate: {est}")
    p(f"  the kernel's estimate for that run (config section of a boot at that size, stopped there): "
      f"{kb(est['bytes'])}, {est['ms'] / 1000:.1f} s at {est['baud']} baud")
    # output=summary prints nothing per ensemble: its bytes do not grow with
    # the ensembles but for the progress lines.
    ssh = shape(summ, benchlog.parse(summ.decode(errors="replace")))
    check(ssh["per_ens"] == 0, f"output=summary printed {ssh['n_per_ens']} per-ensemble lines")
    b = ssh["bytes"] - ssh["progress"] + ticks // PROGRESS_TICKS * 110
    frac = seconds(b) / measuring
    p(f"  printing, output=summary: {kb(b)}, {seconds(b):.1f} s at {BAUD} baud = {frac:.1%} of the measuring "
      f"time (the default run printed {kb(ssh['bytes'])} at that level): the goal of at most "
      f"{GOAL_FRACTION:.0%} {'met' if frac <= GOAL_FRACTION else 'NOT met'} at output=summary")
    sh = shapes["lean"]
    paper = sh["paper"] / sum(len(s.ensembles) for s in series) * len(series) * pe
    p(f"  goal: printing at most {GOAL_FRACTION:.0%} of the measuring time, at output=both: {fractions['lean']:.0%}, "
      f"{'met' if fractions['lean'] <= GOAL_FRACTION else 'NOT met'} ({fractions['full']:.0%} before); "
      f"the paper-format lines alone, which the lean level keeps, are {len(series) * pe} lines, "
      f"{paper / 1000:.0f} KB, {seconds(paper):.1f} s = {seconds(paper) / measuring:.0%} of it")


TESTS = [v for k, v in list(globals().items()) if k.startswith("test_") and callable(v)]


def main(argv):
    if not os.path.exists(KERNEL):
        print(f"bench: {KERNEL} is missing: run 'make kernel' (BUILD={BUILD}) first")
        return 2
    selected = [t for t in TESTS if not argv or any(a in t.__name__ for a in argv)]
    return run_all("bench", [(t.__name__[len("test_"):], t) for t in selected], Skip, BUILD)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/boot/t_cmdline_stop.py - a bad command line stops the run before it
measures (issue "A lab day without surprises", item 1): every problem's
line with a "did you mean" (lib/nearest.c), then the config line and record,
an end record of status config_problems and the final line `bench: run
aborted: N command-line problems`, QEMU's exit status 35, the problem lines
again at the bottom of the screen and the halt line `run aborted: nothing
measured` (issue 29), and `make run` failing; problems=ignore
measures anyway, as every run did before. The test.* keys are read but not
listed among the known keys. And `make run QEMU_ARGS=...` passes QEMU its
flags (item 7: -smp 4 with cpus=all).
"""
import builds
from qemu import BUILD, EXIT_FAILURE, Run, check, expect_complete, qemu
from screen import Machine

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=add_chain_64"
FINAL = "bench: run aborted: {n} command-line problem{s}, said above (problems=ignore measures anyway) (exit code 0x11)"

# The typos, one word each, and the line each must give.
TYPOS = [
    ("ensemble=1000", "config: unknown key 'ensemble' (did you mean ensembles?); known keys: "),
    ("sampels=100", "config: unknown key 'sampels' (did you mean samples?); known keys: "),
    ("methods=rdtsc", "config: methods=rdtsc names an unknown item (rdtsc: did you mean rdtscp?); accepted: "),
    ("output=sumary", "config: output=sumary is not an accepted value (did you mean summary?); accepted: "),
    ("cpus=al", "cpus=al: not a word or a list of CPU numbers 0..65535 (did you mean all?) (accepted: "),
    ("wrkloads=add_chain_64", "config: unknown key 'wrkloads' (did you mean workloads?); known keys: "),
    ("workloads=add_chain64",
     "config: workloads=add_chain64 names an unknown item (add_chain64: did you mean add_chain_64?); "),
    ("pmu=of", "config: pmu=of is not an accepted value (did you mean off?); accepted: auto off force"),
]


def expect_stopped(rc, text, n):
    """The run stopped for n command-line problems before measuring."""
    run = Run(rc, text)
    check(rc == EXIT_FAILURE, f"QEMU exit status {rc}, expected {EXIT_FAILURE} (aborted)", text)
    check(not run.errors, f"bad records: {run.errors}", text)
    check(run.final_line() == FINAL.format(n=n, s="" if n == 1 else "s"), f"final line {run.final_line()!r}", text)
    check(run.one("end") == {"rec": "end", "status": "config_problems"}, f"end record {run.by('end')}", text)
    check(run.one("config")["problems"] == n, f"config record {run.one('config')}", text)
    check(not run.by("method") and not run.by("summary") and not run.has_line("method "),
          "something was measured", text)
    return run


def test_cmdline_ensemble_typo_stops():
    """ensemble=1000 (the issue's "Done when"): one line suggesting
    ensembles, the run stopped before measuring, exit status 35; the known
    keys listed without the test.* ones, with problems. With problems=ignore
    the same line, then the run measures and completes."""
    rc, text = qemu("cl-ensemble", "q35-tcg", "ensemble=1000")
    run = expect_stopped(rc, text, 1)
    line = [l for l in run.lines if l.startswith("config: unknown key 'ensemble'")]
    check(len(line) == 1 and "(did you mean ensembles?)" in line[0], f"the key's line: {line}", text)
    listed = line[0].split("known keys: ", 1)[-1].split(";")[0].split()
    check("problems" in listed and "cpus" in listed and "mem.pages" in listed and "test." not in line[0],
          f"known keys: problems listed, no test.* key: {line[0]}", text)
    rc, text = qemu("cl-ensemble-ignore", "q35-tcg", "ensemble=1000 problems=ignore " + SMALL)
    run = expect_complete(rc, text)
    check(run.has_line("config: unknown key 'ensemble' (did you mean ensembles?)"), "no line for ensemble=", text)
    check(run.one("config")["problems"] == 1 and run.one("end")["config_problems"] == 1,
          f"problems: config {run.one('config')['problems']}, end {run.one('end')}", text)
    check(run.by("summary", method="rdtscp", workload="add_chain_64"), "nothing measured", text)


def test_cmdline_eight_typos_one_boot():
    """The issue's eight typos in one boot: each has its line and its
    suggestion, the eight are counted, the run stops before measuring."""
    rc, text = qemu("cl-typos", "q35-tcg", " ".join(w for w, _ in TYPOS))
    run = expect_stopped(rc, text, len(TYPOS))
    for word, line in TYPOS:
        check(run.has_line(line), f"{word}: no line starting {line!r}", text)


def test_cmdline_value_problems_of_the_keys_users_stop():
    """A problem found by a key's user after parsing (code=zz, bench/code.c)
    stops the run as well."""
    rc, text = qemu("cl-code-bad", "q35-tcg", SMALL + " code=zz")
    run = expect_stopped(rc, text, 1)
    check(any(l.startswith("config: code=") for l in run.lines), "no code= line", text)


def test_cmdline_stop_screen():
    """The screen (VGA text) ends with the problem lines again and the final
    line, though the run's boot lines scrolled them away, and the halt line
    says that nothing was measured, not that the results are final (failed
    before: "bench: halted; the results above are final")."""
    with Machine("cl-screen", machine="q35-tcg", append="ensemble=1000 output=sumary", debug_exit=False) as m:
        m.wait_for("bench: run aborted", m.serial_text, m.timeout, every=1.0)
        m.wait_halted(60)
        rows, serial = m.vga_text(), m.serial_text()
    screen = "".join(r.ljust(80) for r in rows)
    for want in ("unknown key 'ensemble' (did you mean ensembles?)", "(did you mean summary?)",
                 FINAL.format(n=2, s="s")):
        check(want in screen, f"the screen lacks {want!r}:\n" + "\n".join(rows), serial)
    check(serial.count("(did you mean ensembles?)") == 1, "the serial log has the line more than once", serial)
    halt = "bench: halted; run aborted: nothing measured (power off or reset the machine)"
    check(halt in screen and halt in serial and "results above are final" not in screen + serial,
          f"the halt line is not {halt!r}:\n" + "\n".join(rows), serial)


def test_cmdline_make_run_fails_and_takes_qemu_args():
    """make run ARGS=ensemble=1000 fails, saying why; make run
    QEMU_ARGS='-smp 4' ARGS='cpus=all ...' measures the four CPUs."""
    p = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-cmdline_stop-1.log",
                     "ARGS=ensemble=1000"], capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    check(p.returncode != 0 and FINAL.format(n=1, s="") in out and "make run: the run did not complete" in out,
          f"make run with a typo: status {p.returncode}", out)
    p = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-cmdline_stop-2.log",
                     "QEMU_ARGS=-smp 4", "ARGS=cpus=all " + SMALL],
                    capture_output=True, text=True, timeout=400)
    out = p.stdout + p.stderr
    run = Run(33 if p.returncode == 0 else p.returncode, out)
    check(p.returncode == 0 and run.one("end")["cpus_measured"] == 4,
          f"make run QEMU_ARGS='-smp 4': status {p.returncode}", out)
    check("cpus: 4 CPUs in the MADT, 4 online" in out, "not four CPUs", out)

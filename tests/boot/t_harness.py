"""tests/boot/t_harness.py - the test harness itself, without QEMU: how a
failure is reported and how tests run side by side (tests/runner.py), and the screen-summary check
(t_bootpaths.expect_screen_summary) on what a busy host can make a run
print: a missing variance (null in the records, "none" on the screen) and
the verdict it leaves unknown. That is what once failed `make check` with
"TypeError: '<' not supported between instances of 'NoneType' and 'int'",
when a variance could overflow (now every figure is exact: lib/wide.h)."""
import io
import json
import threading
import time

from qemu import BEGIN, END, Run, check
from runner import run_one, run_tests
from screen import HALTED
from t_bootpaths import expect_screen_summary


def fails_with(fn):
    """The AssertionError fn raises (failing if it raises none, or another
    exception)."""
    try:
        fn()
    except AssertionError as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} did not fail")


def test_harness_runner_prints_traceback():
    """An unexpected exception and a bare assert get the full traceback;
    an assertion with a message gets the message alone."""
    def broken():
        return None < 0

    def bare():
        assert 1 == 2

    def clear():
        check(False, "what is wrong")
    for fn, traceback, shown in ((broken, True, "TypeError: '<' not supported"), (bare, True, "assert 1 == 2"),
                                 (clear, False, "FAIL clear (")):
        out = io.StringIO()
        check(run_one(fn.__name__, fn, KeyError, out) == "fail", f"{fn.__name__} did not fail")
        text = out.getvalue()
        check(("Traceback (most recent call last)" in text) == traceback and shown in text,
              f"{fn.__name__}: {'no ' if traceback else 'a '}traceback, or no {shown!r}:\n{text}")


def summary_run(var_of_vars, valid, ergodic):
    """A run's records: cpuid's empty window (var_of_vars, None when it is
    missing), its verdict, and measured_function's net."""
    recs = [{"rec": "summary", "method": "cpuid", "workload": "empty", "unit": "tsc_ticks", "min_of_mins": 26,
             "total_variance": 3650923618, "var_of_vars": var_of_vars, "var_of_mins": 0, "net_min": 0},
            {"rec": "verdict", "method": "cpuid", "unit": "tsc_ticks", "valid": valid, "ergodic": ergodic},
            {"rec": "summary", "method": "cpuid", "workload": "measured_function", "unit": "tsc_ticks",
             "min_of_mins": 33, "net_min": 7}]
    return Run(None, "\n".join([BEGIN] + [json.dumps(r) for r in recs] + [END]) + "\n")


def summary_screen(var_of_vars, ergodic):
    """The one-screen summary of summary_run, as bench/summary.c draws it."""
    return ["bench summary: QEMU TCG CPU version 2.5+",
            "AuthenticAMD fam 6 model 6 step 3, microcode n/a, TSC 2600.000 MHz",
            "4 ensembles x 300 samples; SMIs not readable, NMIs 0",
            f"{'method':<13} {'offset':>7} {'ns':>8} {'total var':>9} {'var of vars':>11} {'var of mins':>11} ergodic",
            f"{'cpuid':<13} {26:>7} {'10.0':>8} {'3.65e9':>9} {var_of_vars:>11} {0:>11} {ergodic}",
            "units: TSC ticks (ctr_: core cycles); variances in unit^2, var of vars unit^4",
            "recommended: none ergodic (ergodic: var of vars <= 10, var of mins <= 1; paper",
            "net of the offset (least minimum), by cpuid",
            f"{'workload':<24} {'TSC ticks':>10} {'ns':>9}",
            f"{'measured_function':<24} {7:>10} {'2.7':>9}",
            "bench: run complete: 1 method run, 0 skipped, 0 ensemble errors, 0 command-line problems",
            HALTED + " the results above are final (power off or reset the machine)", ""]


def test_harness_screen_summary_missing_variances():
    """null in the records is "none" on the screen and an invalid verdict
    "unknown": the check accepts them, and a screen that disagrees fails
    with a message, not a TypeError."""
    expect_screen_summary(summary_screen("none", "unknown"), "missing", summary_run(None, False, False))
    expect_screen_summary(summary_screen("12139", "NO"), "exact", summary_run(12139, True, False))
    for screen, run, want in ((summary_screen("12139", "unknown"), summary_run(None, False, False),
                               "cpuid var of vars 12139 on screen, None in the records"),
                              (summary_screen("none", "NO"), summary_run(None, False, False),
                               "cpuid verdict NO on screen, valid=False")):
        msg = fails_with(lambda: expect_screen_summary(screen, "disagreeing", run))
        check(want in msg, f"expected a failure saying {want!r}, got: {msg[:300]}")


def test_harness_parallel_runner_whole_output_and_alone():
    """run_tests two at a time (tests/runner.py): each test's output comes
    out in one piece with its line though the tests print at the same time,
    two tests do run together, and the one named alone has none beside it."""
    lock, starts = threading.Lock(), []
    running, two = set(), threading.Event()

    def printer(name):
        def test():
            with lock:
                running.add(name)
                starts.append((name, frozenset(running)))
                if len(running) == 2:
                    two.set()
            # Each but the alone one waits (bounded) until two have run
            # together: on a loaded machine a thread may start after the
            # other's 0.1 s, which is no fault of the runner's.
            if name != "c":
                two.wait(30)
            for i in range(5):
                print(f"{name} piece {i}")
                time.sleep(0.02)
            with lock:
                running.discard(name)
        return test
    out = io.StringIO()
    results = run_tests([(n, printer(n)) for n in "abcde"], KeyError, jobs=2, alone={"c"}, out=out)
    text = out.getvalue()
    check(sorted(r[:2] for r in results) == [(n, "pass") for n in "abcde"], f"results {results}", text)
    for n in "abcde":
        check("".join(f"{n} piece {i}\n" for i in range(5)) + f"PASS {n} (" in text,
              f"test {n}'s output is not in one piece with its line", text)
    check(any(len(beside) == 2 for _, beside in starts), f"no two tests ran together: {starts}", text)
    check(all((name == "c") == ("c" in beside) and (name != "c" or beside == {"c"}) for name, beside in starts),
          f"the alone test had another beside it: {starts}", text)

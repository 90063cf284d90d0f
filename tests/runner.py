"""tests/runner.py - what the boot and tool test runners share
(tests/boot/run_boot_tests.py, tests/tools/run_tool_tests.py): run test
functions, one by one or several at a time, print one PASS, FAIL or SKIP
line each, then "SUITE: N passed, N failed, N skipped", also written as
"P F S" to $BUILD/results/SUITE.txt (tests/total.py adds them up).

A test fails by raising AssertionError with a message that says what is
wrong: that message is printed alone. Any other exception (a TypeError in
a test, a broken harness), and an assertion without a message, is printed
with its full traceback, so that the failure can be found from the log.

Tests run at the same time are threads of this process (they wait on QEMU
and make, which run beside each other): what a test prints is kept until it
ends and printed whole with its line, and what several tests share is made
once (once() below)."""
import io
import os
import queue
import sys
import threading
import time
import traceback


def run_one(name, test, skip_type, out=None):
    """Run test(); print its line on out (default sys.stdout); return
    "pass", "fail" or "skip"."""
    out = out or sys.stdout
    start = time.time()
    try:
        test()
        result, line = "pass", f"PASS {name} ({time.time() - start:.1f} s)"
    except skip_type as e:
        result, line = "skip", f"SKIP {name}: {e}"
    except AssertionError as e:
        result = "fail"
        line = f"FAIL {name} ({time.time() - start:.1f} s): " + (
            str(e) or f"an assertion without a message:\n{traceback.format_exc()}")
    except Exception as e:  # a broken test is a failure, not a crash of the suite
        result = "fail"
        line = f"FAIL {name} ({time.time() - start:.1f} s): {type(e).__name__}: {e}\n{traceback.format_exc()}"
    print(line.rstrip("\n"), file=out)
    out.flush()
    return result


class ThreadOutput(io.TextIOBase):
    """sys.stdout while tests run in threads: what a thread that has a
    buffer (local.out) prints goes there, the rest to the real stdout."""

    def __init__(self, real):
        self.real, self.local = real, threading.local()

    def write(self, s):
        return (getattr(self.local, "out", None) or self.real).write(s)

    def flush(self):
        (getattr(self.local, "out", None) or self.real).flush()


def run_tests(tests, skip_type, jobs=1, alone=frozenset(), started=None, out=None):
    """Run [(name, test)] in that order, up to jobs at a time; a test named
    in alone starts when no other runs, and none starts beside it. Each
    test's line (and what it printed) is printed whole on out (default
    sys.stdout) when it ends. started(name, alone) is called in the test's
    thread before it runs. Returns [(name, "pass"|"fail"|"skip", seconds)]
    in the order they ended."""
    results, out = [], out or sys.stdout
    if jobs <= 1:
        for name, test in tests:
            if started:
                started(name, True)
            t0 = time.time()
            results.append((name, run_one(name, test, skip_type, out), time.time() - t0))
        return results
    ended, installed = queue.Queue(), not isinstance(sys.stdout, ThreadOutput)
    if installed:  # else these tests run inside a test of a parallel run, whose tee serves
        sys.stdout = ThreadOutput(sys.stdout)
    tee = sys.stdout

    def work(name, test, by_itself):
        buf, result, t0 = io.StringIO(), "fail", time.time()
        tee.local.out = buf
        try:
            if started:
                started(name, by_itself)
            result = run_one(name, test, skip_type, buf)
        finally:  # whatever happens, the runner hears of the end
            ended.put((name, result, time.time() - t0, buf.getvalue()))

    pending, running = list(tests), set()
    try:
        while pending or running:
            while pending and len(running) < jobs and not running & alone:
                name, test = pending[0]
                if name in alone and running:
                    break
                pending.pop(0)
                running.add(name)
                threading.Thread(target=work, args=(name, test, name in alone), daemon=True).start()
            name, result, seconds, text = ended.get()
            running.discard(name)
            out.write(text)
            out.flush()
            results.append((name, result, seconds))
    finally:
        if installed:
            sys.stdout = tee.real
    return results


def summarize(suite, results, build):
    """Print the summary line of [(name, result, seconds)] and write the
    results file. Returns the exit status: 0 when nothing failed and
    something passed, else 1."""
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for _, result, _ in results:
        counts[result] += 1
    passed, failed, skipped = counts["pass"], counts["fail"], counts["skip"]
    print(f"{suite}: {passed} passed, {failed} failed, {skipped} skipped")
    os.makedirs(os.path.join(build, "results"), exist_ok=True)
    with open(os.path.join(build, "results", f"{suite}.txt"), "w") as f:
        f.write(f"{passed} {failed} {skipped}\n")
    return 0 if failed == 0 and passed > 0 else 1


def run_all(suite, tests, skip_type, build):
    """Run [(name, test)] one by one, then summarize()."""
    return summarize(suite, run_tests(tests, skip_type), build)


_once, _once_lock = {}, threading.Lock()


def once(key, make):
    """make(), the first time key is asked for in this process; its result
    after that. Tests that ask at the same time wait for the first (a boot
    or a build several tests share). An exception is not kept: the next
    caller tries again, as each test would if it made the thing itself."""
    with _once_lock:
        slot = _once.setdefault(key, {"lock": threading.Lock()})
    with slot["lock"]:
        if "value" not in slot:
            slot["value"] = make()
        return slot["value"]

"""tests/runner.py - what the boot and tool test runners share
(tests/boot/run_boot_tests.py, tests/tools/run_tool_tests.py): run test
functions one by one, print one PASS, FAIL or SKIP line each, then
"SUITE: N passed, N failed, N skipped", also written as "P F S" to
$BUILD/results/SUITE.txt (tests/total.py adds them up).

A test fails by raising AssertionError with a message that says what is
wrong: that message is printed alone. Any other exception (a TypeError in
a test, a broken harness), and an assertion without a message, is printed
with its full traceback, so that the failure can be found from the log."""
import os
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


def run_all(suite, tests, skip_type, build):
    """Run [(name, test)]; print the summary line and write the results
    file. Returns the exit status: 0 when nothing failed and something
    passed, else 1."""
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for name, test in tests:
        counts[run_one(name, test, skip_type)] += 1
    passed, failed, skipped = counts["pass"], counts["fail"], counts["skip"]
    print(f"{suite}: {passed} passed, {failed} failed, {skipped} skipped")
    os.makedirs(os.path.join(build, "results"), exist_ok=True)
    with open(os.path.join(build, "results", f"{suite}.txt"), "w") as f:
        f.write(f"{passed} {failed} {skipped}\n")
    return 0 if failed == 0 and passed > 0 else 1


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

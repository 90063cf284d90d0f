"""tests/boot/t_same_output.py - the kernel prints what it printed at the
commit of tests/golden/BASE (issue 19: a restructuring with the output
unchanged): every configuration of tests/boot/same_output.py (drawn from the
other boot tests', all under -icount) captured from this build, serial log,
final screen and the sampling loops' disassembly, and compared with the
goldens captured at that commit, after the masks same_output.py lists with
their reasons (the elapsed-tick figures, the PM timer's calibration, the
image's addresses). A change that means to change the output re-captures
the goldens and reviews the difference (same_output.py's docstring)."""
import os

import same_output
from qemu import BUILD, LOGS, ROOT, check

GOLDEN = os.path.join(ROOT, "tests", "golden")


def test_same_output_goldens():
    """This build's captures equal the goldens, line for line."""
    with open(os.path.join(GOLDEN, "BASE")) as f:
        base = f.read().strip()
    out = os.path.join(LOGS, "same-output")
    # Two runs at a time: under -icount what a run prints does not depend on
    # how fast the host runs it. Each QEMU run has its machine's timeout.
    rc, text = same_output.capture_process(BUILD, out, ["-j", "2"], timeout=1800)
    check(rc == 0, f"capturing this build's output failed (exit status {rc})", text)
    diffs = same_output.differences(GOLDEN, out, limit=80)
    check(not diffs, f"the output differs from the goldens of {base[:12]} (tests/golden; this build's in "
          f"{out}); each line: file, line, '-' golden, '+' now:\n" + "\n".join(diffs))


# The machines its runs boot, named in same_output.CONFIGS (for the runner's order).
test_same_output_goldens.boots = {c.machine for c in same_output.CONFIGS}


def test_same_output_masks_hide_only_their_figures():
    """The masks (same_output.MASKS, rate_derived) hide the figures they
    name and keep every other difference: a word, a wrong ns figure, CR2."""
    hz = 999998000  # 261 TSC ticks are 261.001 ns at this rate

    def same(a, b):
        return same_output.mask(a, hz) == same_output.mask(b, hz)
    line = "summary cpuid/add_chain_256: least minimum 261 TSC ticks (261.001 ns); 477318 TSC ticks elapsed"
    check(same(line, line.replace("477318", "477999")), "an elapsed-tick figure is not masked")
    check(not same(line, line.replace("261.001", "261.000")), "a wrong ns figure is masked")
    check(not same(line, line.replace("least", "lowest")), "a changed word is masked")
    fault = "  RIP=0000000000104d64 CS=0008 RFLAGS=0000000000000046\n  RSP=0000000000153e60 SS=0010 CR2=0000000000000000"
    check(same(fault, fault.replace("104d64", "105d64").replace("153e60", "156e60")),
          "the image's addresses in a fault report are not masked")
    check(not same(fault, fault.replace("CR2=0000000000000000", "CR2=0000100000000000")), "CR2 is masked")
    check(not same(fault, fault.replace("RFLAGS=0000000000000046", "RFLAGS=0000000000000246")), "RFLAGS is masked")
    run = ("run: ID 5fa8d84403b9994a (made from the TSC at boot, the APIC ID 0, RDRAND, the CMOS clock)\n"
           '{"rec":"env","run_id":"5fa8d84403b9994a","vendor":"AuthenticAMD"}\nrun ID 5fa8d84403b9994a (the serial')
    check(same(run, run.replace("5fa8d84403b9994a", "0123456789abcdef")), "the run ID is not masked")
    check(not same(run, run.replace("RDRAND", "RDSEED")), "what the run ID was made from is masked")
    check(not same(run, run.replace("AuthenticAMD", "GenuineIntel")), "the env record around the run ID is masked")
    check(not same(run, run.replace('"run_id":"5fa8d84403b9994a"', '"run_id":"5fa8d844"')),
          "a run ID that is not 16 hex digits is masked")
    screen = "run ID 5fa8d84403b9994a (the serial log's and the QR code's too)\npixels sha256 " + "ab" * 32
    check(same(screen, screen.replace("ab" * 32, "cd" * 32)), "the framebuffer's pixel hash is not masked")
    check(not same(screen, screen.replace("QR code's", "QR codes")), "the screen's text is masked")

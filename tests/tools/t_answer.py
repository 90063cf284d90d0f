"""tests/tools/t_answer.py - code='s lines of the QR text (lib/qrtext.h:
code, pc, cf; issue 21) read by tools/benchqr.py as the serial log's
records: code, per_copy (status, figure, bound, fraction) and code_fault."""
import os
import sys

from common import ROOT, check

# The lines of a QR text before its methods (lib/qrtext.h).
QR_HEAD = ("vendor GenuineIntel\nbrand -\ncpu 6 1 2 -\nhv none\ntsc 1000000000 5 pit\n"
           "size 3 50 10\nlimits 1 1\n")


def test_qr_text_code_lines():
    """A code line, a pc line per method and unit (a figure, below
    resolution, wrapped) and a cf line become records, with no problem."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr  # noqa: E402
    body = (QR_HEAD + "m cpuid t 40 0 0 9 ergodic na 0\nm rdtscp t 35 0 0 0 ergodic na 0\n"
            "m cr0 t 40 0 0 0 ergodic na 0\nw imul 0 221 -\n"
            "code imul 100 100 0\n"
            "pc cpuid t below_resolution 0.000 0.110 0/1\n"
            "pc rdtscp t figure 2.210 0.070 221/100\n"
            "pc cpuid i wrapped - - -\n"
            "cf cr0 #UD code 0 1\n"
            "rec rdtscp\nfinal bench: run complete: 3 methods run, 0 skipped, 0 ensemble errors, "
            "0 command-line problems, your code FAULTED under 1 method (exit code 0x10)\n")
    log = benchqr.parse_body(body)
    check(not log.problems, f"problems: {log.problems}")
    check([r for _, r in log.by_kind["code"]] == [{"rec": "code", "workload": "imul", "copies": 100,
                                                  "unroll": 100, "loops": 0}], f"code: {log.by_kind['code']}")
    pcs = [r for _, r in log.by_kind["per_copy"]]
    # the code line's workload and copies, as the serial log's per_copy records carry them
    check(pcs[0] == {"rec": "per_copy", "method": "cpuid", "workload": "imul", "copies": 100, "unit": "tsc_ticks",
                     "status": "below_resolution", "per_copy": "0.000", "bound": "0.110", "num": 0, "den": 1},
          f"below resolution: {pcs[0]}")
    check(pcs[1]["status"] == "figure" and pcs[1]["num"] == 221 and pcs[1]["den"] == 100
          and pcs[1]["bound"] == "0.070", f"figure: {pcs[1]}")
    check(pcs[2]["unit"] == "instructions" and pcs[2]["status"] == "wrapped" and pcs[2]["per_copy"] is None
          and pcs[2]["num"] is None, f"wrapped: {pcs[2]}")
    check([r for _, r in log.by_kind["code_fault"]] == [{"rec": "code_fault", "method": "cr0", "name": "#UD",
                                                        "part": "code", "offset": 0, "copy": 1,
                                                        "workload": "imul", "copies": 100}],
          f"code_fault: {log.by_kind['code_fault']}")
    check(log.end and log.end["status"] == "complete" and log.end["methods_run"] == 3, f"end: {log.end}")


def test_report_per_copy_status():
    """report's per-copy line says what the kernel's does for each status of a
    per_copy record: never "None" where a least minimum wrapped, never a bare
    figure where it is below resolution."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchreport  # noqa: E402
    cases = [({"status": "exact", "per_copy": "1.000", "unit": "tsc_ticks"}, "1.000 TSC ticks, exactly"),
             ({"status": "figure", "per_copy": "2.210", "bound": "0.070"}, "2.210 +- 0.070 TSC ticks"),
             ({"status": "below_resolution", "per_copy": "0.000", "bound": "0.110"},
              "below resolution: at most 0.110 TSC ticks"),
             ({"status": "below_zero", "per_copy": "-0.500"}, "below zero (-0.500 TSC ticks): not a duration"),
             ({"status": "wrapped", "per_copy": None}, "no figure (a least minimum wrapped below zero)")]
    for rec, want in cases:
        got = benchreport.per_copy_text(dict(rec, rec="per_copy", method="cpuid"))
        check(got == want, f"{rec['status']}: {got!r}, expected {want!r}")


def test_qr_text_why_lines():
    """With no serial port the QR text gives a why line per skipped method
    (lib/qrtext.h): read as the method's skip reason, with no note that the
    line is unknown."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr  # noqa: E402
    body = (QR_HEAD + "m cpuid t 40 0 0 9 ergodic na 0\n"
            "skip serialize lfence\nwhy serialize SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)\n"
            "why lfence LFENCE is not known to be dispatch-serializing\nw add_chain_64 64\n"
            "rec cpuid\nfinal bench: run complete: 1 method run, 2 skipped, 0 ensemble errors, "
            "0 command-line problems (exit code 0x10)\n")
    log = benchqr.parse_body(body)
    check(not log.problems, f"problems: {log.problems}")
    notes = [n for n in log.notes if "why" in str(n)]
    check(not notes, f"why lines noted as unknown: {notes}")
    check(log.skips["serialize"][1] == "SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)"
          and log.skips["lfence"][1] == "LFENCE is not known to be dispatch-serializing",
          f"skip reasons: {log.skips}")

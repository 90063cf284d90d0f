"""tests/tools/qrtexts.py - QR texts (lib/qrtext.h's "bench1" format) as the
kernel makes them, for the tests of `bench.py qr` and of what it feeds
(tests/tools/t_qrtexts.py):

  * golden_texts(): the QR text of every complete run of tests/golden/
    (real serial logs of the boot tests' configurations), made from its
    records by tests/boot/t_qr.py's expected_body (which the boot tests
    check against the code decoded from the screen) plus code='s code, pc
    and cf lines (lib/qrtext.c put_code, bench/screen.c qr_code_lines);
  * every_field(): one text holding every alternative the format has for
    each line (no run line, microcode and brand '-', a sys line with a null
    board, an unknown TSC rate,
    a tstep of 'may', 'ovf' figures, verdicts unknown and not-ergodic,
    SMIs na and unread, skip and why lines, groups with units left out,
    low lines, a loop, every per-copy kind, faults in code, init and the
    loop, no recommendation, a FAULTED final line), and the same text cut
    into two numbered codes (part_texts).
The logs are read with the boot tests' parser (tests/boot/qemu.py Run), not
with tools/benchlog.
"""
import glob
import gzip
import importlib.util
import os
import zlib

from common import ROOT

GOLDEN = os.path.join(ROOT, "tests", "golden")
PC_LETTER = {"tsc_ticks": "t", "core_cycles": "c", "instructions": "i"}
FAULT_PART = {"code": "code", "init": "init", "loop": "loop", "c": "code", "i": "init", "l": "loop"}


def _boot_t_qr():
    """tests/boot/t_qr.py, loaded by its path (tests/tools/t_qr.py has its name)."""
    spec = importlib.util.spec_from_file_location("boot_t_qr", os.path.join(ROOT, "tests", "boot", "t_qr.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def code_lines(run):
    """code='s lines of the QR text (lib/qrtext.h code, pc, cf) from the
    run's code, per_copy and code_fault records; [] without code=."""
    code = run.by("code")
    if not code:
        return []
    c = code[-1]
    pcs, faults = run.by("per_copy"), run.by("code_fault")
    if not pcs and not faults:
        return []  # results_code_ran: the code workload never ran
    copies = pcs[0]["copies"] if pcs else c["unroll"] * max(c.get("loops") or 0, 1)
    out = [f"code {c['workload']} {copies} {c['unroll']} {c.get('loops') or 0}"]
    for p in pcs:
        frac = "-" if p["per_copy"] is None else f"{p['num']}/{p['den']}"
        out.append(f"pc {p['method']} {PC_LETTER[p['unit']]} {p['status']} {p['per_copy'] or '-'} "
                   f"{p['bound'] or '-'} {frac}")
    for f in faults:
        out.append(f"cf {f['method']} {f.get('name') or '#?'} {FAULT_PART.get(f.get('part'), 'code')} "
                   f"{f.get('offset') or 0} {f.get('copy') or 0}")
    return out


def body_of(text, t_qr=None):
    """The QR text's body of a serial log's text, or None where the kernel
    shows no code (a run that did not complete) or expected_body cannot
    make it (a run of several CPUs' records, cpus=)."""
    import qemu  # tests/boot (on the path: common.py)
    run = qemu.Run(None, text)
    final = run.final_line()
    if not final or not final.startswith("bench: run complete") or not run.by("env"):
        return None
    try:
        lines = (t_qr or _boot_t_qr()).expected_body(run)
    except AssertionError:  # one record of a kind expected
        return None
    lines[-2:-2] = code_lines(run)
    return "\n".join(lines) + "\n"


def golden_texts():
    """[(configuration, body)]: the QR text's body of each golden log whose
    run completed (the kernel shows the code after the final line of a
    complete run)."""
    t_qr = _boot_t_qr()
    out = []
    for path in sorted(glob.glob(os.path.join(GOLDEN, "*.log.gz"))):
        with gzip.open(path, "rt", errors="replace") as f:
            status, _, text = f.read().partition("\n")
        body = body_of(text, t_qr)
        if body is not None:
            out.append((os.path.basename(path)[:-len(".log.gz")], body))
    return out


def every_field():
    """One body with every alternative of every line (module docstring)."""
    return "\n".join([
        "vendor AuthenticAMD", "cpu 23 49 0 -", "brand -", "hv TCGTCGTCGTCG", "sys Acme Widget 9000||LabBIOS F12 05/10/2023",
        "tsc 0 0 none",
        "tstep 21 may", "size 4 100 10", "limits 10 1",
        "m cpuid t 5/6/2 ovf ovf ovf unknown unread 0",
        "m rdtscp t 3 12 99 7 not-ergodic na 2",
        "m ctr_rdpmc c -/40 0 0 0 ergodic 3 1",
        "skip serialize lfence",
        "why serialize SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)",
        "why lfence -",
        "w add_chain_64 64/66/64 -20 -/70",
        "low add_chain_64 - z -",
        "w measured_function 0 - -",
        "low measured_function r - -",
        "w mix 20 -3 -/25/2",
        "low mix - z -",
        "code mix 30 10 3",
        "pc cpuid t exact 2.000 - 2/1",
        "pc cpuid c figure 2.210 0.070 221/100",
        "pc cpuid i below_resolution 0.000 0.110 0/1",
        "pc rdtscp t below_zero -0.300 - -3/10",
        "pc ctr_rdpmc c wrapped - - -",
        "pa t no rdtscp cpuid:rdtscp:2.100", "pa c yes -",
        "pe rdtscp L1D.REPLACEMENT exact 2.000 -",
        "pe rdtscp BR_INST_RETIRED.ALL_BRANCHES figure! 2.210 0.070",
        "pe rdtscp MEM_LOAD_RETIRED.L1_MISS below_resolution 0.000 0.110",
        "pe rdtscp CYCLE_ACTIVITY.STALLS_TOTAL wrapped! - -",
        "cf cpuid #UD code 2 3",
        "cf rdtscp #GP init 0 0",
        "cf ctr_rdpmc watchdog loop 5 0",
        "rec none",
        "final bench: run complete: 3 methods run, 2 skipped, 0 ensemble errors, 0 command-line problems, "
        "your code FAULTED under 3 methods (exit code 0x10)",
    ]) + "\n"


def whole_text(body):
    """A body as one code's text: its 'bench1 1/1 CRC' header first."""
    return f"bench1 1/1 {zlib.crc32(body.encode()):08x}\n{body}"


def part_texts(body, n=2):
    """A body cut at line ends into n codes' texts (lib/qrtext.c qrtext_split)."""
    lines = body.splitlines(keepends=True)
    cut = [len(lines) * i // n for i in range(n + 1)]
    crc = f"{zlib.crc32(body.encode()):08x}"
    return [f"bench1 {i + 1}/{n} {crc}\n" + "".join(lines[cut[i]:cut[i + 1]]) for i in range(n)]

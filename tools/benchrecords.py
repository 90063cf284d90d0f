"""tools/benchrecords.py - the report's lines for the records beside the
paper's statistics that say how the platform and the measurement itself
behaved: the clocks the TSC was calibrated against (clocks), the other CPUs
(smp, smp_test, tsc_sync, tsc_adjust), the SMI counter lost (smi_unreadable),
the single-stepped windows (walk), the user's code (code_offset,
code_fault), the CPUs side by side (cpu_compare) and the plan file read
(plan_file: kernel/planfile.c).

    for line in platform_lines(log): ...

One line a record (a walk's records are counted per method), each naming
its log line; a field a record lacks prints as '?' (an older or a newer
kernel). tools/benchreport.py prints these under "Platform and measurement
records"; tools/benchlog/model.py SHOWN_KINDS lists them among the kinds the
tools know, and tests/tools/t_kinds.py checks that every kind the kernel's
source prints is one of those.
"""
from benchlog import TSC, unit_name


def _q(v):
    return "?" if v is None else v


def _clocks(no, r):
    parts = []
    for c in r.get("clocks") or []:
        if not isinstance(c, dict):
            continue
        if c.get("hz"):
            parts.append(f"{c.get('name')} {c['hz']} Hz +-{_q(c.get('ppm'))} ppm")
        else:
            parts.append(f"{c.get('name')} absent")
    return (f"clocks: {'; '.join(parts) or 'none listed'}; used: {_q(r.get('used'))}; "
            f"{_q(r.get('disagree'))} disagreeing (line {no})")


def _smp(no, r):
    down = [f"CPU {c.get('cpu')}: {c.get('why')}" for c in r.get("cpus") or []
            if isinstance(c, dict) and c.get("online") is False]
    return (f"other CPUs: {_q(r.get('online'))} of {_q(r.get('listed'))} online, parked with "
            f"{_q(r.get('park'))}" + (f"; not started: {r['why']}" if r.get("why") else "") +
            (f"; offline: {', '.join(down)}" if down else "") + f" (line {no})")


def _smp_test(no, r):
    return (f"smp test: CPU {_q(r.get('cpu'))} {'ran' if r.get('ran') else 'did NOT run'} the call "
            f"(it says CPU {_q(r.get('said_cpu'))}, APIC ID {_q(r.get('said_apic_id'))}, "
            f"{'its own' if r.get('own_stack') else 'ANOTHER'} stack), {_q(r.get('ticks'))} TSC ticks "
            f"(line {no})")


def _tsc_sync(no, r):
    return (f"TSC sync: CPU {_q(r.get('cpu'))} against CPU {_q(r.get('against'))}: "
            f"{_q(r.get('warps'))} backward steps, the largest {_q(r.get('max_warp_ticks'))} TSC ticks"
            + ("" if r.get("complete", True) else ", INCOMPLETE") + f" (line {no})")


def _tsc_adjust(no, r):
    if not r.get("present"):
        return f"IA32_TSC_ADJUST: not present (line {no})"
    if "cpu" not in r:
        return f"IA32_TSC_ADJUST: present (line {no})"
    v = r.get("value")
    return (f"IA32_TSC_ADJUST on CPU {r['cpu']}: "
            f"{'unreadable' if v is None else str(v) + ' TSC ticks'} (line {no})")


def _smi_unreadable(no, r):
    return (f"SMIs unreadable from {r.get('method')}/{r.get('workload')} ensemble "
            f"{_q(r.get('ensemble'))} on: MSR_SMI_COUNT faulted ({_q(r.get('fault'))}) (line {no})")


def _code_offset(no, r):
    u = r.get("unit") or TSC
    return (f"code offset, {r.get('method')}/{r.get('workload')}: the generated empty window's least "
            f"minimum {_q(r.get('generated_min'))} {unit_name(u)}, the method's offset "
            f"{_q(r.get('offset'))} {unit_name(u)} ({_q(r.get('samples'))} samples) (line {no})")


def _code_fault(no, r):
    cr2 = f", CR2 {r['cr2']:#x}" if isinstance(r.get("cr2"), int) else ""
    err = f"{r['error_code']:#x}" if isinstance(r.get("error_code"), int) else "?"
    return (f"code FAULT, {r.get('method')}/{r.get('workload')}: {_q(r.get('name'))} (vector "
            f"{_q(r.get('vector'))}, error code {err}{cr2}) in {_q(r.get('part'))} at offset "
            f"{_q(r.get('offset'))}, copy {_q(r.get('copy'))}: the workload skipped (line {no})")


def _cpu_compare(no, r):
    pairs = ", ".join(f"CPU {c} {n}" for c, n in zip(r.get("cpus") or [], r.get("net") or []))
    return (f"net per CPU, {r.get('method')}/{r.get('workload')}: {pairs or 'none'} "
            f"[{unit_name(r.get('unit') or TSC)}] (line {no})")


def _plan_file(no, r):
    size = f"{r['bytes']} bytes, CRC-32 {_q(r.get('crc32'))}" if r.get("bytes") is not None else "no bytes"
    return (f"plan file {_q(r.get('file'))}: source {_q(r.get('source'))}, {size}" +
            (f": {r['why']}" if r.get("why") else "") + f" (line {no})")


# kind -> its line; the order printed.
LINES = {"clocks": _clocks, "smp": _smp, "smp_test": _smp_test, "tsc_sync": _tsc_sync,
         "tsc_adjust": _tsc_adjust, "smi_unreadable": _smi_unreadable, "code_offset": _code_offset,
         "code_fault": _code_fault, "cpu_compare": _cpu_compare, "plan_file": _plan_file}


def _walks(log):
    """One line per method for its walk records: windows walked, complete."""
    per = {}
    for no, r in log.by_kind.get("walk", []):
        m = per.setdefault(r.get("method"), [0, 0, no])
        m[0] += 1
        m[1] += r.get("complete") is not False
    return [f"walk, {m}: {n} windows single-stepped, {ok} complete (from line {no})"
            for m, (n, ok, no) in per.items()]


def platform_lines(log):
    """The lines (without indent) of every record of a kind in LINES, and
    the walks, in the order of LINES."""
    out = []
    for kind, fn in LINES.items():
        for no, r in log.by_kind.get(kind, []):
            out.append(fn(no, r))
    return out + _walks(log)

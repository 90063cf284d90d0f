"""tools/benchanswer.py - the run's answer in the words and marks the kernel
uses for it, for every tool that prints it (report, qr, compare, table,
plot): a per-copy figure (the per_copy record; bench/coderesult.c
code_per_copy_text), a method's verdict (the verdict record; paper
section 4, steps 1-2), the methods' agreement on a per-copy figure (the
per_copy_agreement record) and the mark of a flagged net least minimum
(bench/summary.c summary_net_cell: '!' below zero, '~' below the
resolution; bench/results.c results_net_flag).

    per_copy_cell({"status": "figure", "per_copy": "2.210", "bound": "0.070"})  # '2.210 +-0.070'
    verdict_cell(rec)       # 'ergodic', 'NOT ergodic: variance of variances 12 > 10 TSC ticks^4'
    agreement_text(rec)     # 'tsc_ticks: the methods agree (cpuid, rdtscp)' ...
    net_cell(-20, "below_zero")                                                  # '-20!'
"""
from benchlog import TSC, unit_name

# bench/summary.h SUMMARY_MARK_ZERO, SUMMARY_MARK_RESOLUTION.
MARKS = {"below_zero": "!", "below_resolution": "~"}
MARK_LEGEND = {"below_zero": "! below zero: not a duration",
               "below_resolution": "~ below the resolution (less than one step of its clock: the TSC's "
                                   "step in TSC ticks, 1 count for the counters): not a duration"}


def net_flag(net, resolution=1):
    """The kernel's flag of a net least minimum net [its unit] measured by a
    clock moving in steps of resolution (>= 1; bench/results.c
    results_net_flag): 'below_zero', 'below_resolution' or None; None for
    a net that is not an int."""
    if not isinstance(net, int) or isinstance(net, bool):
        return None
    if net < 0:
        return "below_zero"
    return "below_resolution" if net < max(resolution, 1) else None


def net_cell(net, flag):
    """A net least minimum as the end screen writes it: the figure, with
    '!' (below zero) or '~' (below the resolution) after it when flagged."""
    return f"{net}{MARKS.get(flag, '')}"


def per_copy_cell(rec):
    """A per_copy record's figure in a table cell, as the kernel's tables
    and end screen give it (bench/coderesult.c code_per_copy_text; figures
    per copy in the record's unit, three decimals): '1.000 exactly',
    '2.210 +-0.070', 'below resolution (<= 0.500)', '-3.000 below zero',
    'wrapped: no figure'; a status this tool does not know: the status and
    whatever figures the record has, never a bare number."""
    status, fig, bound = rec.get("status"), rec.get("per_copy"), rec.get("bound")
    if status == "wrapped" or (fig is None and status != "below_resolution"):
        return "wrapped: no figure"
    if status == "exact":
        return f"{fig} exactly"
    if status == "figure":
        return f"{fig} +-{bound if bound is not None else '?'}"
    if status == "below_resolution":
        return f"below resolution (<= {bound if bound is not None else '?'})"
    if status == "below_zero":
        return f"{fig} below zero"
    return f"{status or 'status unknown'}: {fig}" + (f" +-{bound}" if bound is not None else "")


def code_fault_cell(rec):
    """A code_fault record in a table cell, as the kernel's code row says
    it (bench/coderesult.c code_fault_text): 'FAULT #UD at byte 0 of copy
    1', '... of init=', '... of the generated loop'."""
    part, off = rec.get("part"), rec.get("offset", "?")
    where = (f"byte {off} of copy {rec.get('copy', '?')}" if part == "code" else
             f"byte {off} of init=" if part == "init" else f"byte {off} of the generated loop")
    return f"FAULT {rec.get('name') or '?'} at {where}"


def verdict_state(rec):
    """A verdict record's state: 'ergodic', 'NOT ergodic' or 'UNKNOWN'
    (paper section 4, steps 1-2; bench/report.c report_verdict)."""
    if rec.get("valid") is not None and not rec.get("valid"):  # False in a record, 0 in the database
        return "UNKNOWN"
    return "ergodic" if rec.get("ergodic") else "NOT ergodic"


def verdict_why(rec):
    """Why a verdict is not 'ergodic': each variance above its limit with
    its unit (the method's own: TSC ticks, core cycles), or missing
    (lib/figures.c verdict_ergodic: UNKNOWN where a variance is missing
    and the other is within its limit); '' for an ergodic method."""
    state = verdict_state(rec)
    if state == "ergodic":
        return ""
    if state == "UNKNOWN":
        return "a variance of the empty window is missing (no ensemble had statistics)"
    u = rec.get("unit") or TSC
    why = []
    for key, limit, name, power in (("var_of_vars", "max_var_of_vars", "variance of variances", 4),
                                    ("var_of_mins", "max_var_of_mins", "variance of minimum values", 2)):
        v, lim = rec.get(key), rec.get(limit)
        if v is None:
            why.append(f"{name} missing")
        elif isinstance(lim, int) and v > lim:
            why.append(f"{name} {v} > {lim} {unit_name(u, power)}")
    return ", ".join(why)


def verdict_cell(rec):
    """A verdict record as 'ergodic', or 'NOT ergodic: ...' / 'UNKNOWN:
    ...' with verdict_why."""
    why = verdict_why(rec)
    return verdict_state(rec) + (f": {why}" if why else "")


def agreement_text(rec):
    """A per_copy_agreement record in one line: the unit, whether the
    methods' per-copy figures agree (their intervals overlap), which
    disagree and by how much (the gap between their intervals, per copy in
    the unit), and the method the recommendation trusts and why."""
    u = unit_name(rec.get("unit") or TSC)
    methods = ", ".join(str(m) for m in rec.get("methods") or []) or "no methods"
    where = f"{rec.get('workload')}, " if rec.get("workload") else ""
    if rec.get("agree"):
        head = f"{where}{u}: the methods agree ({methods})"
    else:
        pairs = "; ".join(f"{d.get('a')} and {d.get('b')} apart by {d.get('gap')} {u} per copy"
                          for d in rec.get("disagree") or [] if isinstance(d, dict))
        head = f"{where}{u}: the methods DISAGREE ({methods})" + (f": {pairs}" if pairs else "")
    trusted = rec.get("trusted")
    head += f"; trusted: {trusted}" if trusted else "; trusted: none"
    return head + (f" ({rec['why']})" if rec.get("why") else "")

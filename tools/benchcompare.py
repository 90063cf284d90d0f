"""tools/benchcompare.py - the text of `bench.py compare LOG_A LOG_B`. It
opens with the two runs' answers side by side (answer(): each method's
verdict, paper section 4, and code='s figures per copy, as the kernel
states them, tools/benchanswer.py; why a method is not ergodic, and the
methods' agreement), the performance events both runs have (events=:
tools/benchevfig.py, their per-copy figures and nets), the settings of
memory, caches and clocks that differ (tools/benchmemtext.py: "settings
differ: turbo keep -> off"), then an overview within 100 columns (WIDTH): one line
per series both runs have, with the two least minimums (min of mins), their
ratio B/A and how B stands to A ('B vs A', b_vs_a: same, same within the
spread of the ensembles' minimums, B higher, B lower; not the paper's
verdict), the facts of the environments that differ, and how many series
only one run has. The details follow: the two runs' environments side by
side (same or DIFFERS), then per series both have the paper's figures of
each with the ratio B/A, the series only one has, and the methods each
skipped.

Series are matched by (method, workload, unit, counter, cpu); when the two
runs measured different CPUs that is said, and a run of the boot CPU only
is matched with the other run's boot CPU (cpu_matching).
"""
import math
import textwrap

import benchanswer
import benchevfig
import benchmemtext
from benchlog import unit_name, with_unit
from benchtext import cpus_text, env_facts, ratio, table

COMPARED = (("min of mins", "min_of_mins", 1), ("net (min of mins - offset)", "net_min", 1),
            ("total variance", "total_variance", 2), ("variance of variances", "var_of_vars", 4),
            ("variance of minimum values", "var_of_mins", 2),
            ("absolute max deviation", "max_dev_all", 1), ("spurious min values", "spurious", 0))


def compare_text(a, b):
    """The comparison of parsed logs a (A) and b (B) as lines without
    newlines (module docstring); a log that is not valid is said first."""
    out = []
    w = out.append
    w(f"compare: A = {a.path}")
    w(f"         B = {b.path}")
    for tag, log in (("A", a), ("B", b)):
        if not log.valid:
            w(f"  {tag} is NOT a valid log ({len(log.problems)} problem(s), first: {log.problems[0]}); "
              f"'bench.py report {log.path}' lists them")
    rows = []
    fa_, fb_ = dict(env_facts(a)), dict(env_facts(b))
    for label in dict.fromkeys([k for k, _ in env_facts(a)] + [k for k, _ in env_facts(b)]):
        va, vb = (f.get(label, cpus_text(lg) if label == "CPUs" else "-")
                  for f, lg in ((fa_, a), (fb_, b)))
        rows.append([label, va, vb, "same" if va == vb else "DIFFERS"])
    details = []
    norm_a, norm_b = cpu_matching(a, b, lambda text: details.extend(_wrap(text) or [""]))
    series_a = {norm_a(s.key): s for s in a.series.values() if s.ensembles or s.summary}
    series_b = {norm_b(s.key): s for s in b.series.values() if s.ensembles or s.summary}
    keys_a, keys_b = list(series_a), set(series_b)
    out.extend(answer(a, b))
    out.extend(benchevfig.compare_lines(a, b))
    out.extend(benchmemtext.compare_lines(a, b))
    out.extend(overview(series_a, series_b, [r[0] for r in rows if r[3] == "DIFFERS"]))
    w("")
    w("Details")
    w("")
    w("Environment:")
    out.extend(environment(rows))
    out.extend(details)
    for key in keys_a:
        if key not in keys_b:
            continue
        sa, sb = series_a[key], series_b[key]
        fa, _ = sa.figures()
        fb, _ = sb.figures()
        u = sa.unit
        w("")
        w(f"{sa.name if sa.cpu is not None else sb.name} (A: "
          f"{len(sa.ensembles) or fa.get('ensembles', 0)} ensembles x {sa.samples} samples, "
          f"B: {len(sb.ensembles) or fb.get('ensembles', 0)} x {sb.samples})")
        rows = []
        for label, k, power in COMPARED:
            if k == "net_min" and (sa.workload == "empty" or k not in fa or k not in fb):
                continue
            va, vb = fa.get(k), fb.get(k)
            if k == "min_of_mins" and sa.workload == "empty":
                label = "offset (min of mins)"
            if power == 0:
                rows.append([label, f"{va} ensembles", f"{vb} ensembles", ratio(va, vb)])
            else:
                rows.append([label, with_unit(va, u, power), with_unit(vb, u, power), ratio(va, vb)])
        out.extend(figures_table(rows))
    only_a = [series_a[k].name for k in keys_a if k not in keys_b]
    only_b = [series_b[k].name for k in series_b if k not in set(keys_a)]
    if only_a or only_b or a.skips or b.skips:
        w("")
    if only_a:
        out.extend(_wrap(f"Only in A: {', '.join(only_a)}"))
    if only_b:
        out.extend(_wrap(f"Only in B: {', '.join(only_b)}"))
    for tag, log in (("A", a), ("B", b)):
        if log.cpu_order:
            for (n, name), (_, why) in log.cpu_skips.items():
                out.extend(_wrap(f"Skipped in {tag} on CPU {n}: method {name}: {why}"))
            continue
        for name, (_, why) in log.skips.items():
            out.extend(_wrap(f"Skipped in {tag}: method {name}: {why}"))
    return out


def figures_table(rows):
    """A series' figures (label, A, B, B/A) as a table, or, when its
    widest line would exceed WIDTH columns (a TCG run's variances of
    variances in TSC ticks^4 can be 20 digits), each figure on a line of its
    own with A, B and B/A on the next, wrapped."""
    lines = table([("figure",), ("A",), ("B",), ("B/A",)], rows)
    if max(len(line) for line in lines) <= WIDTH:
        return lines
    out = ["  figure: A; B; B/A"]
    for label, va, vb, r in rows:
        out.append(f"  {label}")
        out += textwrap.wrap(f"A {va}; B {vb}; B/A {r}", WIDTH, initial_indent="      ",
                             subsequent_indent="        ", break_on_hyphens=False)
    return out


def _wrap(text):
    """text as lines within WIDTH columns, the lines after the first indented."""
    return textwrap.wrap(text, WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def boot_cpu(log):
    """The boot CPU's number: its entry in the env's cpus record (boot:
    true), else the first CPU measured; None when the log says nothing."""
    c = dict(log.by_kind["cpus"][0][1]) if log.by_kind.get("cpus") else {}
    for e in c.get("list") or []:
        if isinstance(e, dict) and e.get("boot") is True and isinstance(e.get("cpu"), int):
            return e["cpu"]
    return log.cpu_order[0] if log.cpu_order else None


def cpu_matching(a, b, w):
    """How series of A and B are matched: by (method, workload, unit,
    counter, cpu). When the CPUs measured differ (number or APIC ID), say
    so; a log without per-CPU runs measured the boot CPU, matched with the
    other log's boot CPU. Returns the two key functions."""
    def cpus(log):
        return [(n, log.cpu_info(n).get("apic_id")) for n in log.cpu_order]
    ca, cb = cpus(a), cpus(b)
    same = lambda key: key  # noqa: E731
    if ca == cb:
        return same, same

    def text(log):
        return (", ".join(log.cpu_label(n) for n in log.cpu_order) if log.cpu_order
                else "the boot CPU only (no per-CPU runs)")
    w("")
    w("CPUs: the two runs measured DIFFERENT CPUs:")
    w(f"  A: {text(a)}")
    w(f"  B: {text(b)}")
    maps = [same, same]
    for i, (log, other, tag, otag) in enumerate(((a, b, "A", "B"), (b, a, "B", "A"))):
        boot = boot_cpu(other)
        if not log.cpu_order and boot is not None:
            maps[i] = lambda key, boot=boot: key[:4] + (boot,) if key[4] is None else key
            w(f"  {tag}'s series (its boot CPU's) are compared with {otag}'s boot CPU, CPU {boot}")
    both = {n for n, _ in ca} & {n for n, _ in cb}
    for n in sorted(both):
        if dict(ca)[n] != dict(cb)[n]:
            w(f"  CPU {n} has APIC ID {dict(ca)[n]} in A and {dict(cb)[n]} in B: compared by CPU "
              "number")
    w("  series of a CPU only one run measured are listed under 'Only in A' / 'Only in B'")
    return maps[0], maps[1]


WIDTH = 100  # columns of the overview


def _answer_key(rec):
    return (rec.get("method"), rec.get("workload"), rec.get("unit"),
            rec.get("cpu") if isinstance(rec.get("cpu"), int) else None)


def answer(a, b):
    """The opening lines: per method run by either log its verdict in A
    and in B, per code= figure per copy (method, workload, unit, CPU) the
    two as the kernel states them (benchanswer.per_copy_cell), where the
    code faulted the fault (benchanswer.code_fault_cell), then why a
    method is not ergodic and each log's agreement lines; within WIDTH."""
    out = ["", "Answer: each method's verdict (paper section 4) and code='s figure per copy (2N-N),",
           "as each run states them:"]
    rows = []
    for kind, cell, what in (("verdict", benchanswer.verdict_state, lambda k: "verdict"),
                             ("per_copy", benchanswer.per_copy_cell,
                              lambda k: f"per copy, {k[1] or 'code'} [{unit_name(k[2])}]"),
                             ("code_fault", benchanswer.code_fault_cell, lambda k: f"fault, {k[1] or 'code'}")):
        recs = ({_answer_key(r): r for _, r in a.by_kind.get(kind, [])},
                {_answer_key(r): r for _, r in b.by_kind.get(kind, [])})
        for k in dict.fromkeys(list(recs[0]) + list(recs[1])):
            name = f"{k[0]}" + (f" (CPU {k[3]})" if k[3] is not None else "")
            rows.append([name, what(k)] + [cell(r[k]) if k in r else "-" for r in recs])
    if not rows:
        return out[:1] + ["Answer: neither log has verdict or per_copy records (output=human, or a "
                          "kernel before them)"]
    out.extend(table([("method",), ("figure",), ("A",), ("B",)], rows))
    notes = []
    for tag, log in (("A", a), ("B", b)):
        for _, r in log.by_kind.get("verdict", []):
            why = benchanswer.verdict_why(r)
            if why:
                cpu = f" (CPU {r['cpu']})" if isinstance(r.get("cpu"), int) else ""
                notes.append(f"{tag}: {r.get('method')}{cpu} {benchanswer.verdict_state(r)}: {why}")
        for _, r in log.by_kind.get("per_copy_agreement", []):
            notes.append(f"{tag}: methods compared, {benchanswer.agreement_text(r)}")
    if any(r[1].startswith("per copy") for r in rows):
        notes.append("per copy: 'exactly' only where the minimums did not spread; +- its bound; below "
                     "resolution: at most that much per copy" + ("; -: not in that log" if any(
                         "-" in r[2:] for r in rows) else ""))
    for n in notes:
        out += textwrap.wrap(n, WIDTH, initial_indent="  ", subsequent_indent="      ",
                             break_on_hyphens=False)
    return out


def b_vs_a(fa, fb):
    """The overview's 'B vs A' of two series' least minimums (figures dicts
    of Series.figures): 'same' when equal; 'same within spread' when they
    differ by no more than the spread of the ensembles' minimums, the sum
    of the two runs' standard deviations of the minimum values
    (sqrt(variance of minimum values), floored); else 'B higher' or 'B
    lower'; 'n/a' when a least minimum is missing (overflowed, or not in
    the source)."""
    x, y = fa.get("min_of_mins"), fb.get("min_of_mins")
    if not isinstance(x, int) or not isinstance(y, int):
        return "n/a"
    if x == y:
        return "same"
    spread = sum(math.isqrt(v) for v in (fa.get("var_of_mins"), fb.get("var_of_mins"))
                 if isinstance(v, int) and v >= 0)
    if abs(y - x) <= spread:
        return f"same within spread ({spread})"
    return "B higher" if y > x else "B lower"


def overview(series_a, series_b, differ):
    """The overview's lines (module docstring), each within WIDTH columns:
    series_a, series_b map a matched key to its Series; differ: the labels
    of the environment facts that differ."""
    out = ["", "Overview: the least minimum (min of mins) of each series both runs have, in TSC ticks",
           "or the unit named; 'B vs A' compares them with the spread of the ensembles' minimums:"]
    rows = []
    for key, sa in series_a.items():
        if key not in series_b:
            continue
        sb = series_b[key]
        fa, fb = sa.figures()[0], sb.figures()[0]
        name = sa.name if sa.cpu is not None else sb.name
        rows.append([name, _num(fa.get("min_of_mins")), _num(fb.get("min_of_mins")),
                     ratio(fa.get("min_of_mins"), fb.get("min_of_mins")), b_vs_a(fa, fb)])
    header = [("series",), ("A",), ("B",), ("B/A",), ("B vs A",)]
    if rows:
        rest = max(len(table([h for h in header[1:]], [r[1:] for r in rows])[i])
                   for i in range(len(rows) + 1))
        room = WIDTH - rest - 4  # the indent and the separator before A
        for r in rows:
            if len(r[0]) > room:
                r[0] = r[0][:max(room - 3, 8)] + "..."
        out.extend(table(header, rows))
    else:
        out.append("  (no series in both runs)")
    only = (sum(1 for k in series_a if k not in series_b), sum(1 for k in series_b if k not in series_a))
    if any(only):
        out.append(f"  {only[0]} series only in A, {only[1]} only in B: listed at the end")
    env = ("Environment: " + (", ".join(differ) + " differ" if differ else "the same in every fact")
           + " (the details below)")
    out.extend(_wrap(env))
    return out


def environment(rows):
    """The environments' facts, rows [label, A, B, 'same' or 'DIFFERS'], as
    lines within WIDTH columns: 'label  same: value', or 'label  DIFFERS:'
    and the two values on lines of their own, long values wrapped."""
    pad = max(len(r[0]) for r in rows) + 4
    out = []
    for label, va, vb, state in rows:
        head = f"  {label.ljust(pad - 2)}"
        if state == "same":
            out += textwrap.wrap(f"same: {va}", WIDTH, initial_indent=head,
                                 subsequent_indent=" " * (pad + 6)) or [head.rstrip()]
        else:
            out.append(f"{head}DIFFERS:")
            for tag, v in (("A", va), ("B", vb)):
                out += textwrap.wrap(f"{tag}: {v}", WIDTH, initial_indent=" " * (pad + 2),
                                     subsequent_indent=" " * (pad + 5))
    return out


def _num(v):
    return str(v) if isinstance(v, int) else "n/a"

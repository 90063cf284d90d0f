"""tools/benchcompare.py - the text of `bench.py compare LOG_A LOG_B`: the two
runs' environments side by side (same or DIFFERS), then per series both
have the paper's figures of each with the ratio B/A, the series only one
has, and the methods each skipped.

Series are matched by (method, workload, unit, counter, cpu); when the two
runs measured different CPUs that is said, and a run of the boot CPU only
is matched with the other run's boot CPU (cpu_matching).
"""
from benchlog import with_unit
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
    w("")
    w("Environment:")
    rows = []
    fa_, fb_ = dict(env_facts(a)), dict(env_facts(b))
    for label in dict.fromkeys([k for k, _ in env_facts(a)] + [k for k, _ in env_facts(b)]):
        va, vb = (f.get(label, cpus_text(lg) if label == "CPUs" else "-")
                  for f, lg in ((fa_, a), (fb_, b)))
        rows.append([label, va, vb, "same" if va == vb else "DIFFERS"])
    out.extend(table([("",), ("A",), ("B",), ("",)], rows))
    norm_a, norm_b = cpu_matching(a, b, w)
    series_a = {norm_a(s.key): s for s in a.series.values() if s.ensembles or s.summary}
    series_b = {norm_b(s.key): s for s in b.series.values() if s.ensembles or s.summary}
    keys_a, keys_b = list(series_a), set(series_b)
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
        out.extend(table([("figure",), ("A",), ("B",), ("B/A",)], rows))
    only_a = [series_a[k].name for k in keys_a if k not in keys_b]
    only_b = [series_b[k].name for k in series_b if k not in set(keys_a)]
    if only_a or only_b or a.skips or b.skips:
        w("")
    if only_a:
        w(f"Only in A: {', '.join(only_a)}")
    if only_b:
        w(f"Only in B: {', '.join(only_b)}")
    for tag, log in (("A", a), ("B", b)):
        if log.cpu_order:
            for (n, name), (_, why) in log.cpu_skips.items():
                w(f"Skipped in {tag} on CPU {n}: method {name}: {why}")
            continue
        for name, (_, why) in log.skips.items():
            w(f"Skipped in {tag}: method {name}: {why}")
    return out


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


"""tools/benchplantext.py - a plan run and the machine's identity in `bench.py
report` and `compare` (issue 32): a plan log's experiments reported each
under its name after the machine's identity, once; two logs compared
experiment by experiment, paired by name (those only in one said), after a
line saying whether they come from different machines (which SMBIOS
identity fields differ), from the same machine with different firmware
(the BIOS's vendor, version, release date), or whether that cannot be told
(a log without SMBIOS). Logs are tools/benchlog's (plan.py, identity.py);
each experiment's text is tools/benchreport.py's and tools/benchcompare.py's.
"""
from benchcompare import _wrap, compare_text
from benchlog import identity as ident
from benchreport import report_text

# The identity fields in words.
FIELD_WORDS = {"sys_manufacturer": "system manufacturer", "sys_product": "system product name",
               "sys_uuid": "system UUID", "board_manufacturer": "baseboard manufacturer",
               "board_product": "baseboard product", "bios_vendor": "BIOS vendor", "bios_version": "BIOS version",
               "bios_date": "BIOS release date"}


def machine_words(a, b):
    """The line saying whether logs a and b (A, B) come from one machine:
    'different machines: ...' naming each identity field that differs,
    'the same machine ..., different firmware: ...', 'the same machine and
    firmware', or why it cannot be told."""
    ia, ib = ident.identity(a), ident.identity(b)
    if ia is None or ib is None:
        which = " and ".join(t for t, i in (("A", ia), ("B", ib)) if i is None)
        return (f"machines: cannot tell whether the same machine: {which} without an SMBIOS identity (a kernel "
                "before issue 32, or no SMBIOS tables): an unknown identity is never taken as the same")
    diff = [f"{FIELD_WORDS[k]} {ia[k]!r} (A) vs {ib[k]!r} (B)" for k in ia if ia[k] != ib[k]]
    if diff:
        return "different machines: " + "; ".join(diff)
    fa, fb = ident.firmware(a) or {}, ident.firmware(b) or {}
    same = " ".join(v for v in (ia["sys_manufacturer"], ia["sys_product"]) if v) or "system not named"
    fdiff = [f"{FIELD_WORDS[k]} {fa.get(k)!r} (A) vs {fb.get(k)!r} (B)" for k in ident.FIRMWARE
             if fa.get(k) != fb.get(k)]
    if fdiff:
        return f"the same machine ({same}), different firmware: " + "; ".join(fdiff)
    return f"the same machine ({same}) and firmware ({' '.join(v for v in fa.values() if v) or 'BIOS not given'})"


def identity_section(log):
    """The machine's identity in the report: its lines, indented, once."""
    return ["The machine (SMBIOS, DSP0134):"] + [f"  {line}" for line in ident.identity_lines(log)] + [""]


def _heading(x):
    r = x.rec
    return (f"=== {x.label}: {r.get('words')} (plan line {r.get('line')}): "
            f"{x.status or 'not closed'}" + (f" ({x.end.get('why')})" if x.end and x.end.get("why") else ""))


def plan_lines(log):
    """The plan's lines: its file, source, size, CRC-32, defaults, and the
    experiments with their status."""
    plan = (log.by_kind.get("plan") or [(None, {})])[0][1]
    out = [f"Plan: {plan.get('file', '?')} (from {plan.get('source', '?')}, {plan.get('bytes', '?')} bytes, CRC-32 "
           f"{plan.get('crc32', '?')}): {len(log.experiments)} experiments; defaults: {plan.get('defaults') or 'none'}"]
    end = log.end or {}
    if "experiments_run" in end:
        out.append(f"  the end record: {end['experiments_run']} run, {end.get('experiments_faulted')} faulted, "
                   f"{end.get('experiments_skipped')} skipped")
    return out + [""]


def report_lines(log, figures=None, figure_error=None):
    """report of a log: a plan log's identity and plan once, then each
    experiment under its name (report_text of its own log; figures:
    {name: [(path, what)]}); another log with an identity: the identity,
    then report_text."""
    if not log.experiments:
        has = ident.smbios(log) or any((log.env or {}).get(k) for k in ident.ENV)
        return (identity_section(log) if has else []) + report_text(log, figures, figure_error)
    out = [f"report: {log.path}: a plan run of {len(log.experiments)} experiments, each reported under its name",
           "report: the log is valid" if log.valid else
           f"report: the log is NOT valid: {len(log.problems)} problem(s):"]
    out += [f"  {p}" for p in log.problems]
    out += [""] + identity_section(log) + plan_lines(log)
    for x in log.experiments:
        out.append(_heading(x))
        if x.log is None:
            out += ["  no figures: " + ("skipped by the kernel" if x.status == "skipped" else "not closed"), ""]
            continue
        out += report_text(x.log, (figures or {}).get(x.name), figure_error) + [""]
    return out


def compare_lines(a, b):
    """compare of two logs: the machines line first; plan logs' experiments
    paired by name, each pair compared, those only in one said; a plan log
    against a run's log: each experiment against it."""
    machines = _wrap(machine_words(a, b))
    if not a.experiments and not b.experiments:  # the machines line before the details
        text = compare_text(a, b)
        at = text.index("Details") if "Details" in text else len(text)
        return text[:at] + machines + [""] + text[at:]
    out = [f"compare: A = {a.path}", f"         B = {b.path}"] + machines + [""]
    xa = {x.name: x for x in a.experiments} if a.experiments else {None: None}
    xb = {x.name: x for x in b.experiments} if b.experiments else {None: None}
    if None in xa or None in xb:
        out.append(f"{'A' if None in xa else 'B'} is one run, the other a plan run: each experiment compared with it")
    both = [n for n in xa if n in xb] if None not in xa and None not in xb else list(xa if None in xb else xb)
    only_a = [n for n in xa if n not in xb and n is not None and None not in xb]
    only_b = [n for n in xb if n not in xa and n is not None and None not in xa]
    out.append(f"experiments paired by name: {', '.join(map(str, both)) or 'none'}" +
               (f"; only in A: {', '.join(only_a)}" if only_a else "") +
               (f"; only in B: {', '.join(only_b)}" if only_b else ""))
    out.append("")
    for n in both:
        ea, eb = xa.get(n, xa.get(None)), xb.get(n, xb.get(None))
        la, lb = (ea.log if ea else a), (eb.log if eb else b)
        out.append(f"=== experiment {n}: " + "; ".join(f"{t} {x.label} ({x.rec.get('words')})"
                                                      for t, x in (("A", ea), ("B", eb)) if x))
        if la is None or lb is None:
            out += [f"  not compared: {'A' if la is None else 'B'}'s was " +
                    ((ea if la is None else eb).status or "not closed"), ""]
            continue
        out += compare_text(la, lb)[2:] + [""]
    return out

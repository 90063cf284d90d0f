"""tools/benchlog/events.py - performance events by name (events=, issue
30; docs/RECORDS.md): the five records and what can be checked of them.

    event           one per event resolved: name, origin (arch, table,
                    nanobench), source, its encoding (event_select, umask,
                    cmask, inv, edge, anyt, perfevtsel), counter and pass
                    (null with counts false and why set where it cannot
                    count here)
    event_pass      one per pass: which event counts on which counter
    event_check     the on-machine check of a pass: an event, what it
                    expected (expected_lo..expected_hi), what it counted, ok
    event_window    per method, workload (window), event: least minimum,
                    the paper's variances, median of medians, the empty
                    window's offset, net = least_min - offset, verified
    event_per_copy  code='s 2N-N figure per copy of the event, the
                    per_copy record's fields and rule (lib/percopy.h), the
                    event its unit, verified

Checks (check_events, called by checks.check): every key each record
needs (FIELDS; a record without one is a problem and is not used); each
event_window's net is least_min - offset; each event_per_copy's num/den,
per_copy, status and bound recomputed from its least minimums, copies,
spread and step (percopy(), the twin of lib/percopy.c percopy_compute);
every event_window, event_per_copy, event_pass counter names an event
that has an event record which counts here, on that pass and counter;
a figure of an event whose pass's last check before it failed (an
event_check with ok false) says verified false.

The figures' words for every tool (report, table, compare, plot, qr):
figure_text(rec) ('1.000 L1D.REPLACEMENT per copy, exactly'),
figure_cell(rec) ('1.000 exactly', then ' UNVERIFIED'), UNVERIFIED.
"""
import collections
import math

from .model import is_uint

ORIGINS = ("arch", "table", "nanobench")
STATUSES = ("exact", "figure", "below_resolution", "below_zero", "wrapped")
# The mark of a figure whose counter the pass's check did not verify, in
# every table cell, line and figure (a QR text's pe line: '!' after its status).
UNVERIFIED = "UNVERIFIED"
UNVERIFIED_WHY = ("UNVERIFIED: the pass's check (a known loop counted first) missed its expectation "
                  "for this event: see the event_check records")


def _str(v):
    return isinstance(v, str)


def _hex(v):
    if not isinstance(v, str) or not v.lower().startswith("0x"):
        return False
    try:
        int(v, 16)
    except ValueError:
        return False
    return True


def _bit(v):
    return is_uint(v) and v in (0, 1)


def _int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _bool(v):
    return isinstance(v, bool)


def _or_none(test):
    return lambda v: v is None or test(v)


def _counters(v):
    return isinstance(v, list) and all(isinstance(c, dict) and _str(c.get("counter")) and _str(c.get("event"))
                                       and _hex(c.get("perfevtsel")) for c in v)


# Every key each record must carry (the formats: every field
# required), with the test its value must pass.
FIELDS = {
    "event": {"name": _str, "origin": lambda v: v in ORIGINS, "source": _str, "event_select": _hex,
              "umask": _hex, "cmask": is_uint, "inv": _bit, "edge": _bit, "anyt": _bit, "perfevtsel": _hex,
              "counter": _or_none(_str), "pass": _or_none(is_uint), "counts": _bool, "why": _or_none(_str)},
    "event_pass": {"pass": is_uint, "passes": is_uint, "counters": _counters},
    "event_check": {"pass": is_uint, "event": _str, "kind": _str, "expected_lo": is_uint, "expected_hi": is_uint,
                    "counted": is_uint, "ok": _bool},
    "event_window": {"method": _str, "workload": _str, "event": _str, "pass": is_uint, "least_min": is_uint,
                     "var_of_vars": _or_none(is_uint), "var_of_mins": _or_none(is_uint),
                     "median_of_medians": _or_none(is_uint), "offset": is_uint, "net": _int, "verified": _bool},
    "event_per_copy": {"method": _str, "workload": _str, "event": _str, "copies": is_uint,
                       "least_min_n": is_uint, "least_min_2n": is_uint, "num": _int, "den": is_uint,
                       "per_copy": _or_none(_str), "status": lambda v: v in STATUSES, "spread": is_uint,
                       "bound": _or_none(_str), "step": is_uint, "verified": _bool},
    # events=topdown: code's TMA level 1 per method (bench/evtopdown.c), in
    # thousandths as "0.250" (null where no fraction: status says why)
    "topdown": {"method": _str, "workload": _str, "set": _str, "source": _str, "retiring": _or_none(_str),
                "bad_speculation": _or_none(_str), "frontend_bound": _or_none(_str),
                "backend_bound": _or_none(_str), "status": _str, "exact": _bool, "verified": _bool},
}
KINDS = tuple(FIELDS)

WRAPPED = 1 << 63


def malformed(kind, rec, fields=None):
    """Why an events record cannot be used (a key missing or not what it
    holds), or None; fields: another module's table of keys and tests
    instead of FIELDS (memclock.py)."""
    for k, ok in (FIELDS if fields is None else fields).get(kind, {}).items():
        if k not in rec:
            return f"lacks the key {k!r}"
        if not ok(rec[k]):
            return f"has {k}={str(rec[k])[:40]!r}, not what a {kind} record holds there"
    return None


def usable(log, kind):
    """[(line, record)] of kind whose keys are all there (the others are
    problems: reading.py)."""
    return [(no, r) for no, r in log.by_kind.get(kind, []) if malformed(kind, r) is None]


# What a figure per copy needs to be shown: a QR code's pe line (tools/
# benchqr.py) carries these, not the least minimums (the serial log's).
SHOWN = ("method", "workload", "event", "status")


def shown(log, kind):
    """[(line, record)] of kind to show: the usable ones, and for
    event_per_copy also those of a QR code's text (the SHOWN keys, the
    figure and its bound, verified)."""
    if kind != "event_per_copy":
        return usable(log, kind)
    return [(no, r) for no, r in log.by_kind.get(kind, []) if malformed(kind, r) is None
            or (getattr(log, "qr_crc", None) and all(isinstance(r.get(k), str) for k in SHOWN))]


def _milli(x, den, up):
    """x / den in thousandths, rounded half away from zero (up: rounded up),
    as lib/percopy.c milli_of."""
    return (x * 1000 + (den - 1 if up else den // 2)) // den


def _milli_text(neg, m):
    return f"{'-' if neg else ''}{m // 1000}.{m % 1000:03d}"


def percopy(least_n, least_2n, copies, spread, step):
    """The per-copy figure of least minimums least_n (N copies) and least_2n
    (2N), with the two windows' spreads added (spread) and the clock's step
    (lib/percopy.c percopy_compute): the record's fields num (signed), den,
    per_copy (thousandths text, None when wrapped), status, bound."""
    copies, step = copies or 1, step or 1
    bound = spread + 2 * (step - 1)
    if least_n >= WRAPPED or least_2n >= WRAPPED:
        return {"num": 0, "den": 1, "per_copy": None, "status": "wrapped", "bound": None}
    neg = least_2n < least_n
    diff = abs(least_2n - least_n)
    g = math.gcd(diff, copies)
    num, den = (diff // g, copies // g) if g else (0, 1)
    out = {"num": -num if neg else num, "den": den, "per_copy": _milli_text(neg, _milli(diff, copies, False))}
    if not bound:
        return dict(out, status="exact", bound=None)
    if diff > bound:
        return dict(out, status="below_zero" if neg else "figure",
                    bound=_milli_text(False, _milli(bound, copies, True)) if not neg else None)
    return dict(out, status="below_resolution",
                bound=_milli_text(False, _milli(bound - diff if neg else bound + diff, copies, True)))


def events_of(log):
    """{name upper-cased: (line, event record)} of the usable event records,
    the first of each name."""
    out = collections.OrderedDict()
    for no, r in usable(log, "event"):
        out.setdefault(r["name"].upper(), (no, r))
    return out


def last_check(checks, p, name, line):
    """The last event_check of event name in pass p before line (a pass is
    checked each time it is programmed: once per method), as (line,
    record), or None."""
    found = None
    for no, r in checks.get((p, name.upper()), []):
        if no < line:
            found = (no, r)
    return found


def _checks(log):
    out = collections.defaultdict(list)
    for no, r in usable(log, "event_check"):
        out[(r["pass"], r["event"].upper())].append((no, r))
    return out


def check_events(log):
    """The checks of the module docstring, each problem at its record's
    line."""
    if not any(log.by_kind.get(k) for k in KINDS):
        return
    evs = events_of(log)
    checks = _checks(log)
    for no, r in usable(log, "event"):
        if r["counts"] and (r["counter"] is None or r["pass"] is None):
            log.problem(no, f"event {r['name']}: counts true but no counter or pass")
        if not r["counts"] and not r["why"]:
            log.problem(no, f"event {r['name']}: counts false without why it cannot count here")
    passes = {}
    for no, r in usable(log, "event_pass"):
        if r["pass"] >= r["passes"]:
            log.problem(no, f"event_pass {r['pass']} of {r['passes']} passes: the pass number is not below the "
                            "count")
        passes[r["pass"]] = r
        used = set()
        for c in r["counters"]:
            if c["counter"] in used:
                log.problem(no, f"event_pass {r['pass']}: counter {c['counter']} used twice in one pass")
            used.add(c["counter"])
            e = evs.get(c["event"].upper())
            if e is None:
                log.problem(no, f"event_pass {r['pass']}: event {c['event']} on {c['counter']} has no event record")
            elif (e[1]["counter"], e[1]["pass"], e[1]["perfevtsel"].lower()) != \
                    (c["counter"], r["pass"], c["perfevtsel"].lower()):
                log.problem(no, f"event_pass {r['pass']}: {c['event']} on {c['counter']} with perfevtsel "
                                f"{c['perfevtsel']}, its event record (line {e[0]}) says counter {e[1]['counter']}, "
                                f"pass {e[1]['pass']}, perfevtsel {e[1]['perfevtsel']}")
    for kind in ("event_window", "event_per_copy"):
        for no, r in usable(log, kind):
            name = r["event"]
            e = evs.get(name.upper())
            if e is None:
                log.problem(no, f"{kind} of {name} ({r['method']}/{r['workload']}): no event record names "
                                f"{name}")
                continue
            if not e[1]["counts"]:
                log.problem(no, f"{kind} of {name} ({r['method']}/{r['workload']}): its event record (line "
                                f"{e[0]}) says it cannot count here ({e[1]['why']})")
                continue
            if kind == "event_window" and e[1]["pass"] != r["pass"]:
                log.problem(no, f"event_window of {name} ({r['method']}/{r['workload']}) in pass {r['pass']}, "
                                f"its event record (line {e[0]}) says pass {e[1]['pass']}")
            bad = last_check(checks, e[1]["pass"], name, no)
            if bad and not bad[1]["ok"] and r["verified"]:
                log.problem(no, f"{kind} of {name} ({r['method']}/{r['workload']}) says verified, but its pass's "
                                f"check failed (line {bad[0]}: counted {bad[1]['counted']}, expected "
                                f"{_expected(bad[1])})")
            if kind == "event_window" and r["net"] != r["least_min"] - r["offset"]:
                log.problem(no, f"event_window of {name} ({r['method']}/{r['workload']}): net {r['net']} is not "
                                f"least_min - offset ({r['least_min']} - {r['offset']} {name})")
            if kind == "event_per_copy":
                mine = percopy(r["least_min_n"], r["least_min_2n"], r["copies"], r["spread"], r["step"])
                theirs = {k: r[k] for k in mine}
                if mine != theirs:
                    diff = "; ".join(f"{k} {theirs[k]!r}, recomputed {mine[k]!r}" for k in mine
                                     if mine[k] != theirs[k])
                    log.problem(no, f"event_per_copy of {name} ({r['method']}/{r['workload']}) disagrees with "
                                    f"its least minimums ({r['least_min_2n']} with 2N copies - {r['least_min_n']} "
                                    f"with N, over {r['copies']} copies, spread {r['spread']}, step {r['step']}): "
                                    f"{diff}")


def _expected(chk):
    lo, hi = chk["expected_lo"], chk["expected_hi"]
    return f"exactly {lo}" if lo == hi else f"{lo}..{hi}"


def check_text(chk):
    """An event_check record in words: 'pass 0: INST_RETIRED.ANY
    (instructions): counted 2000000, expected exactly 2000000: ok'."""
    return (f"pass {chk.get('pass')}: {chk.get('event')} ({chk.get('kind')}): counted {chk.get('counted')}, "
            f"expected {_expected(chk) if 'expected_lo' in chk and 'expected_hi' in chk else '?'}: "
            f"{'ok' if chk.get('ok') else 'MISSED'}")


def figure_cell(rec):
    """An event_per_copy record's figure in a table cell, in the kernel's
    words (bench/coderesult.c code_per_copy_text): '1.000 exactly',
    '2.210 +-0.070', 'below resolution (<= 0.500)', '-3.000 below zero',
    'wrapped: no figure'; ' UNVERIFIED' after it when its counter was not
    verified."""
    status, fig, bound = rec.get("status"), rec.get("per_copy"), rec.get("bound")
    if status == "wrapped" or (fig is None and status != "below_resolution"):
        cell = "wrapped: no figure"
    elif status == "exact":
        cell = f"{fig} exactly"
    elif status == "figure":
        cell = f"{fig} +-{bound if bound is not None else '?'}"
    elif status == "below_resolution":
        cell = f"below resolution (<= {bound if bound is not None else '?'})"
    elif status == "below_zero":
        cell = f"{fig} below zero"
    else:
        cell = f"{status or 'status unknown'}: {fig}"
    return cell + ("" if rec.get("verified", True) else f" {UNVERIFIED}")


def figure_text(rec):
    """An event_per_copy record's figure in a line, its event its unit:
    '1.000 L1D.REPLACEMENT per copy, exactly', '2.210 +- 0.070 ... per
    copy', 'below resolution: at most 0.500 ... per copy', 'below zero
    (-3.000 ... per copy): not a count', 'no figure (a least minimum
    wrapped below zero)'; ', UNVERIFIED' when its counter was not
    verified."""
    ev = rec.get("event") or "events"
    status, fig, bound = rec.get("status"), rec.get("per_copy"), rec.get("bound")
    if status == "wrapped" or (fig is None and status != "below_resolution"):
        text = "no figure (a least minimum wrapped below zero)"
    elif status == "below_resolution":
        text = f"below resolution: at most {bound} {ev} per copy"
    elif status == "below_zero":
        text = f"below zero ({fig} {ev} per copy): not a count"
    elif status == "figure":
        text = f"{fig} +- {bound} {ev} per copy"
    else:
        text = f"{fig} {ev} per copy" + (", exactly" if status == "exact" else "")
    return text + ("" if rec.get("verified", True) else f", {UNVERIFIED}")


def net_cell(rec):
    """An event_window record's net in a table cell: the figure, with
    ' UNVERIFIED' when its counter was not verified."""
    return f"{rec.get('net')}" + ("" if rec.get("verified", True) else f" {UNVERIFIED}")

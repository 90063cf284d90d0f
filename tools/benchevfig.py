"""tools/benchevfig.py - the performance events' figures (events=, issue 30)
in `bench.py report` (report_lines) and `bench.py compare`
(compare_lines): the events with their encodings, counters and passes,
the on-machine check, per window the nets, per copy of code= the figures,
each event the unit of its figures, an unverified figure marked
UNVERIFIED wherever it is printed (tools/benchlog/events.py has the
records, their checks and the figures' words).
"""
from benchlog import events as ev
from benchtext import table


def _v(x):
    return "n/a" if x is None else str(x)


def report_lines(log):
    """The report's events section as lines ([] without events=)."""
    if not any(log.by_kind.get(k) for k in ev.KINDS):
        return []
    out = [""]
    w = out.append
    recs = ev.usable(log, "event")
    if getattr(log, "qr_crc", None):
        w("Performance events (events=): the QR code carries code='s figures per copy by the recommended method "
          "only (the events' encodings, passes, check and nets are in the serial log):")
        return _qr_lines(log, out)
    passes = ev.usable(log, "event_pass")
    n_pass = max([r["passes"] for _, r in passes] or [0])
    counting = sum(1 for _, r in recs if r["counts"])
    w(f"Performance events (events=): {len(recs)} event(s), {counting} counting here, in {n_pass} pass(es); "
      "each event is the unit of its own figures:")
    rows = [[r["name"], r["origin"], r["perfevtsel"], r["counter"] or "-",
             "-" if r["pass"] is None else str(r["pass"]),
             f"{r['event_select']}.{r['umask']} cmask {r['cmask']} inv {r['inv']} edge {r['edge']} "
             f"anyt {r['anyt']}", str(no)] for no, r in recs]
    if rows:
        out += table([("event",), ("origin",), ("perfevtsel",), ("counter",), ("pass",),
                      ("encoding", "(event select.umask ...)"), ("line",)], rows, indent="    ")
    for src in dict.fromkeys(r["source"] for _, r in recs):
        w(f"  source: {src}")
    for no, r in recs:
        if not r["counts"]:
            w(f"  {r['name']} cannot count here: {r['why']} (line {no}; its encoding is what it would program)")
    for no, r in passes:
        on = ", ".join(f"{c['counter']} {c['event']} ({c['perfevtsel']})" for c in r["counters"])
        w(f"  pass {r['pass']} of {r['passes']}: {on or 'no counters'} (line {no})")
    checks = ev.usable(log, "event_check")
    if checks:
        w("  the check on the machine (a known loop counted first in each pass):")
        for no, r in checks:
            w(f"    {ev.check_text(r)} (line {no})")
    elif passes:
        w("  the check on the machine: no event_check records (no figure of these passes is verified)")
    wins = ev.usable(log, "event_window")
    if wins:
        w("")
        w("Event nets per method and window (least minimum - the empty window's, in each event; "
          "UNVERIFIED: its pass's check missed):")
        per_cpu = any("cpu" in r for _, r in wins)
        rows = [([str(r.get("cpu", "-"))] if per_cpu else []) +
                [r["method"], r["workload"], r["event"], str(r["pass"]), str(r["least_min"]), str(r["offset"]),
                 ev.net_cell(r), _v(r["var_of_vars"]), _v(r["var_of_mins"]), _v(r["median_of_medians"])]
                for _, r in wins]
        out += table(([("CPU",)] if per_cpu else []) +
                     [("method",), ("workload",), ("event",), ("pass",), ("least min", "[event]"),
                      ("offset", "[event]"), ("net", "[event]"), ("var of vars", "[event^4]"),
                      ("var of mins", "[event^2]"), ("median of medians", "[event]")], rows)
    pcs = ev.shown(log, "event_per_copy")
    if pcs:
        w("")
        w("Event figures per copy of code= (2N-N over N copies, the per_copy rule; each event its unit):")
        for no, r in pcs:
            how = (f"(least min {r['least_min_2n']} with {2 * r['copies']} copies - {r['least_min_n']} with "
                   f"{r['copies']}) / {r['copies']}" if "least_min_n" in r else
                   "the least minimums are in the serial log")
            w(f"  {r['method']}, {r['workload']}: {ev.figure_text(r)} ({how}) (line {no})")
    tds = ev.usable(log, "topdown")
    if tds:
        w("")
        w("TMA level 1 of code= (fractions of SLOTS from the per-copy figures; the formulas' source and set named):")
        for no, r in tds:
            parts = ", ".join(f"{name} {r[k]}" if r[k] is not None else f"{name} -" for k, name in
                              (("retiring", "retiring"), ("bad_speculation", "bad speculation"),
                               ("frontend_bound", "front-end bound"), ("backend_bound", "back-end bound")))
            w(f"  {r['method']}, {r['workload']}: {parts} ({r['source']} {r['set']}; {r['status']}"
              f"{'' if r['exact'] else '; from figures +- their bounds, not exact'})"
              f"{'' if r['verified'] else ', ' + ev.UNVERIFIED} (line {no})")
    if any(not r.get("verified", True) for _, r in wins + pcs + tds):
        w(f"  {ev.UNVERIFIED_WHY}")
    return out


def _qr_lines(log, out):
    for no, r in ev.shown(log, "event_per_copy"):
        out.append(f"  {r['method']}, {r['workload']}: {ev.figure_text(r)} (line {no})")
    if any(not r.get("verified", True) for _, r in ev.shown(log, "event_per_copy")):
        out.append(f"  {ev.UNVERIFIED_WHY}")
    return out


def _names(log):
    """{name upper-cased: (line, event record)}: the event records, or for a
    QR code's text the events its pe lines name (encodings unknown)."""
    out = ev.events_of(log)
    for no, r in ev.shown(log, "event_per_copy"):
        out.setdefault(r["event"].upper(), (no, {"name": r["event"], "perfevtsel": "?"}))
    return out


def _per_copy(log):
    return {(r["method"], r["workload"], r["event"].upper()): r for _, r in ev.shown(log, "event_per_copy")}


def _nets(log):
    return {(r["method"], r["workload"], r["event"].upper()): r for _, r in ev.usable(log, "event_window")}


def compare_lines(a, b):
    """compare's events section: the events both runs have, their per-copy
    figures of code= and their nets side by side (A, B, B/A for the
    nets); the events only one run has named. [] when neither has events."""
    ea, eb = _names(a), _names(b)
    if not ea and not eb:
        return []
    out = ["", "Performance events (events=), where both runs have them (each event the unit of its figures):"]
    both = [n for n in ea if n in eb]
    for label, only in (("A", [n for n in ea if n not in eb]), ("B", [n for n in eb if n not in ea])):
        if only:
            out.append(f"  only in {label}: {', '.join(only)}")
    for n in both:
        ra, rb = ea[n][1], eb[n][1]
        if "?" not in (ra["perfevtsel"], rb["perfevtsel"]) and ra["perfevtsel"].lower() != rb["perfevtsel"].lower():
            out.append(f"  {n}: programmed differently: A perfevtsel {ra['perfevtsel']}, B {rb['perfevtsel']}")
    if not both:
        out.append("  no event in both runs")
        return out
    pa, pb = _per_copy(a), _per_copy(b)
    keys = [k for k in dict.fromkeys(list(pa) + list(pb)) if k[2] in both]
    if keys:
        rows = [[m, wl, (pa.get((m, wl, e)) or pb.get((m, wl, e)))["event"],
                 ev.figure_cell(pa[(m, wl, e)]) if (m, wl, e) in pa else "-",
                 ev.figure_cell(pb[(m, wl, e)]) if (m, wl, e) in pb else "-"] for m, wl, e in keys]
        out.append("  per copy of code= (A, B):")
        out += table([("method",), ("workload",), ("event",), ("A", "[event per copy]"),
                      ("B", "[event per copy]")], rows, indent="    ")
    na, nb = _nets(a), _nets(b)
    keys = [k for k in na if k in nb and k[2] in both and k[1] != "empty"]
    if keys:
        rows = []
        for k in keys:
            x, y = na[k], nb[k]
            ratio = (f"{y['net'] / x['net']:.3f}" if x["net"] and isinstance(y["net"], int) else "-")
            rows.append([k[0], k[1], x["event"], ev.net_cell(x), ev.net_cell(y), ratio])
        out.append("  nets per window (A, B, B/A; the empty window's net is 0 by definition):")
        out += table([("method",), ("workload",), ("event",), ("A", "[event]"), ("B", "[event]"), ("B/A",)],
                     rows, indent="    ")
    if any(not r.get("verified", True) for log in (a, b) for kind in ("event_window", "event_per_copy")
           for _, r in ev.shown(log, kind)):
        out.append(f"  {ev.UNVERIFIED_WHY}")
    return out

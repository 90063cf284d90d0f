"""tests/tools/evlogs.py - logs with performance events (events=, issue 30)
for the tools' tests: the code= run of tests/tools/common.py (-icount,
code=480fafc04801d8 unroll=10: imul rax,rax; add rax,rbx, two
instructions a copy) with the five events records added as a fake-PMU
build prints them (bench/events.h, bench/evrun.h; docs/RECORDS.md), every
event counting instructions retired: per copy 2.000 of each event,
exactly. Three events in two passes: L1D.REPLACEMENT (table, PMC0, pass
0), INST_RETIRED.ANY (arch, FIXED_CTR0, pass 0), BR_INST_RETIRED.ALL_BRANCHES
(arch, PMC0, pass 1), whose check fails (the fake PMU counts
instructions where branches are expected): its figures say verified false.

    event_log(d, name="events.log", edit=None, tag=None) -> path
        edit(list of records): change the records before they are written
        (the damaged logs); tag: another run ID (common.another_run).
"""
import copy
import json

from common import another_run, boot, read, write

SKL = "intel/perfmon SKL core V58 (BSD-3-Clause)"
ARCH = "Intel SDM vol. 3B table 20-1 (architectural events)"
EVENTS = [
    {"rec": "event", "name": "L1D.REPLACEMENT", "origin": "table", "source": SKL, "event_select": "0x51",
     "umask": "0x01", "cmask": 0, "inv": 0, "edge": 0, "anyt": 0, "perfevtsel": "0x430151", "counter": "PMC0",
     "pass": 0, "counts": True, "why": None},
    {"rec": "event", "name": "INST_RETIRED.ANY", "origin": "arch", "source": ARCH, "event_select": "0xc0",
     "umask": "0x00", "cmask": 0, "inv": 0, "edge": 0, "anyt": 0, "perfevtsel": "0x4300c0",
     "counter": "FIXED_CTR0", "pass": 0, "counts": True, "why": None},
    {"rec": "event", "name": "BR_INST_RETIRED.ALL_BRANCHES", "origin": "arch", "source": ARCH,
     "event_select": "0xc4", "umask": "0x00", "cmask": 0, "inv": 0, "edge": 0, "anyt": 0, "perfevtsel": "0x4300c4",
     "counter": "PMC0", "pass": 1, "counts": True, "why": None},
]
PASSES = [
    {"rec": "event_pass", "pass": 0, "passes": 2, "counters": [
        {"counter": "PMC0", "event": "L1D.REPLACEMENT", "perfevtsel": "0x430151"},
        {"counter": "FIXED_CTR0", "event": "INST_RETIRED.ANY", "perfevtsel": "0x4300c0"}]},
    {"rec": "event_pass", "pass": 1, "passes": 2, "counters": [
        {"counter": "PMC0", "event": "BR_INST_RETIRED.ALL_BRANCHES", "perfevtsel": "0x4300c4"}]},
]
CHECKS = [
    {"rec": "event_check", "pass": 0, "event": "INST_RETIRED.ANY", "kind": "instructions",
     "expected_lo": 2000000, "expected_hi": 2000000, "counted": 2000000, "ok": True},
    {"rec": "event_check", "pass": 1, "event": "BR_INST_RETIRED.ALL_BRANCHES", "kind": "branches",
     "expected_lo": 1000000, "expected_hi": 1000000, "counted": 2000000, "ok": False},
]
UNVERIFIED = "BR_INST_RETIRED.ALL_BRANCHES"
# Least minimum of each window in events (instructions under the fake PMU):
# the empty window's, add_chain_64's (64 ADDs), code's N (10 copies of 2)
# and 2N windows.
LEAST = {"empty": 100, "add_chain_64": 164, "mix": 120, "mix.2n": 140}
COPIES = 10
# The per-copy figure and the nets each method gives (the same for all).
PER_COPY = "2.000"


def windows(method):
    out = []
    for e in EVENTS:
        for wl, least in LEAST.items():
            out.append({"rec": "event_window", "method": method, "workload": wl, "event": e["name"],
                        "pass": e["pass"], "least_min": least, "var_of_vars": 0, "var_of_mins": 0,
                        "median_of_medians": least + 1, "offset": LEAST["empty"], "net": least - LEAST["empty"],
                        "verified": e["name"] != UNVERIFIED})
    return out


def per_copy(method):
    return [{"rec": "event_per_copy", "method": method, "workload": "mix", "event": e["name"], "copies": COPIES,
             "least_min_n": LEAST["mix"], "least_min_2n": LEAST["mix.2n"], "num": 2, "den": 1,
             "per_copy": PER_COPY, "status": "exact", "spread": 0, "bound": None, "step": 1,
             "verified": e["name"] != UNVERIFIED} for e in EVENTS]


def _line(r):
    return json.dumps(r, separators=(",", ":"))


def event_log(d, name="events.log", edit=None, tag=None):
    """The code= run's log with the events records (module docstring)
    written to d/name; edit(records) may change them first."""
    text = read(boot("code")).decode()
    if tag:
        text = another_run(text, tag)
    lines = text.split("\n")
    methods = []
    for ln in lines:
        if ln.startswith('{"rec":"method"'):
            m = json.loads(ln)["method"]
            if m not in methods:
                methods.append(m)
    recs = {"head": copy.deepcopy(EVENTS + PASSES + CHECKS), "per_copy": [r for m in methods for r in per_copy(m)]}
    for m in methods:
        recs[m] = windows(m)
    if edit:
        edit(recs)
    out, current = [], None
    for ln in lines:
        s = ln.rstrip("\r")
        if s.startswith('{"rec":"method"'):
            m = json.loads(s)["method"]
            if current and current != m:
                out += [_line(r) for r in recs.pop(current, [])]
            current = m
        if s.startswith('{"rec":"recommendation"'):
            if current:
                out += [_line(r) for r in recs.pop(current, [])]
                current = None
            out += [_line(r) for r in recs.pop("per_copy")]
        out.append(ln)
        if s.startswith('{"rec":"pmu"'):
            out += [_line(r) for r in recs.pop("head")]
    return write(d, name, "\n".join(out))

#!/usr/bin/env python3
"""tools/benchlog.py - read a captured bench serial log.

The kernel prints human lines and, between the lines
"BEGIN bench-records v1" and "END bench-records", one JSON object per line
for the host (README "Machine-readable output"). This module finds those
records, tolerating what a serial capture adds (CR, GRUB's escape sequences,
noise before the BEGIN line), and groups them by method.

    log = parse(text)
    log.env, log.config, log.end            # dicts, or None
    log.methods["rdtscp"].ensembles         # list of ensemble records
    log.methods["rdtscp"].summary           # summary record or None
    log.methods["rdtscp"].skip              # reason string or None
    log.paper_lines["cpuid"]                # the paper-format lines, in order
    log.final_line                          # "bench: run complete: ..." or None
    log.errors                              # problems found, each naming its line
"""
import json
import re
import sys

BEGIN = "BEGIN bench-records v1"
END = "END bench-records"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>78cDEHM]")
PAPER = re.compile(
    r"^loop_size:(\d+) >>>> variance\(cycles\): (\d+|ERROR[^;]*); "
    r"max_deviation: (\d+) ;min time: (\d+)$")


class Method:
    def __init__(self, name):
        self.name = name
        self.header = None
        self.ensembles = []
        self.summary = None
        self.skip = None


class Log:
    def __init__(self):
        self.env = None
        self.config = None
        self.end = None
        self.methods = {}
        self.paper_lines = {}
        self.lines = []
        self.final_line = None
        self.begin_seen = False
        self.end_seen = False
        self.errors = []

    def method(self, name):
        if name not in self.methods:
            self.methods[name] = Method(name)
        return self.methods[name]


def clean(text):
    """Text as lines: CR and escape sequences removed."""
    text = ANSI.sub("", text.replace("\r", ""))
    return text.split("\n")


def parse(text):
    log = Log()
    log.lines = clean(text)
    inside = False
    current = None  # method whose paper lines are being printed
    for no, line in enumerate(log.lines, 1):
        if line == BEGIN:
            inside = True
            log.begin_seen = True
            continue
        if line == END:
            inside = False
            log.end_seen = True
            continue
        if line.startswith("bench: run complete") or line.startswith("bench: run aborted"):
            log.final_line = line
        if line.startswith("method ") and ": " in line:
            current = line[len("method "):].split(":", 1)[0]
        if PAPER.match(line) and current:
            log.paper_lines.setdefault(current, []).append(line)
        if not inside or not line.startswith("{"):
            continue
        try:
            rec = json.loads(line)
        except ValueError as e:
            log.errors.append(f"line {no}: bad record ({e}): {line[:80]}")
            continue
        kind = rec.get("rec")
        if kind == "env":
            log.env = rec
        elif kind == "config":
            log.config = rec
        elif kind == "end":
            log.end = rec
        elif kind == "method":
            log.method(rec["method"]).header = rec
        elif kind == "skip":
            log.method(rec["method"]).skip = rec["reason"]
        elif kind == "ensemble":
            log.method(rec["method"]).ensembles.append(rec)
        elif kind == "summary":
            log.method(rec["method"]).summary = rec
        else:
            log.errors.append(f"line {no}: unknown record kind {kind!r}")
    if not log.begin_seen:
        log.errors.append(f"no '{BEGIN}' line: not a bench log, or cut before the records")
    elif not log.end_seen:
        log.errors.append(f"no '{END}' line: the log is cut short (after line {len(log.lines)})")
    return log


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        lg = parse(f.read())
    for e in lg.errors:
        print("error:", e)
    for name, m in lg.methods.items():
        if m.skip:
            print(f"{name}: skipped: {m.skip}")
        elif m.summary:
            s = m.summary
            print(f"{name}: {len(m.ensembles)} ensembles, offset {s['min_of_mins']} TSC ticks, "
                  f"variance of variances {s['var_of_vars']}, variance of minimum values {s['var_of_mins']}")
    sys.exit(1 if lg.errors else 0)

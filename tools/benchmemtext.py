"""tools/benchmemtext.py - memory, caches and clocks (issue 31) in the
text of `bench.py report` and `bench.py compare`: the settings asked for
and what took effect (the memory areas, the cache state, the
prefetchers, the clock MSRs and the core clock), and the memory
hierarchy sweep=latency measured (its points and levels); in compare,
which settings differ between the two runs ("settings differ: turbo keep
-> off, mem.pages 4k -> 1g"), so that two runs of different settings are
never compared as equals silently. The records and their checks are
tools/benchlog/memclock.py's.
"""
import textwrap

from benchlog import memclock, unit_name
from benchlog import events as ev
from benchtext import table

LEVEL_UNITS = ("tsc_ticks", "core_cycles")


def _asked(log):
    s = memclock.settings(log)
    asked = [memclock.WORDS.get(k, k) for k in memclock.CONFIG]
    if all(s.get(k) is None for k in asked):
        return None
    return " ".join(f"{k}={s[k] if s.get(k) is not None else '?'}" for k in asked)


def settings_lines(log):
    """The report's section on the settings (module docstring); [] for a log
    of a kernel before them."""
    asked = _asked(log)
    kinds = ("mem_area", "cache_state", "prefetch", "clock_setting", "core_clock")
    if asked is None and not any(log.by_kind.get(k) for k in kinds):
        return []
    out = ["", "Memory, caches and clocks (asked for, then what took effect):",
           f"  asked for: {asked or 'not in this log (no config record with them)'}"]
    for _, r in memclock.usable(log, "mem_area"):
        out.append(f"  memory area {memclock.area_text(r)}")
    for _, r in memclock.usable(log, "cache_state"):
        out.append(f"  cache state: {memclock.cache_text(r)}")
    for _, r in memclock.usable(log, "prefetch"):
        out.append(f"  prefetcher {memclock.prefetch_text(r)}")
    for _, r in memclock.usable(log, "clock_setting"):
        out.append(f"  clock setting {memclock.clock_text(r)}")
    for _, r in memclock.usable(log, "core_clock"):
        out.append(f"  {memclock.core_clock_text(r)}")
    return out


def level_text(lv, unit):
    """'L1d 32 KiB (edge 32 KiB): 5.000 TSC ticks per load, 2.041 ns'."""
    cpuid = memclock.size_text(lv["cpuid_bytes"]) if lv["cpuid_bytes"] is not None else "not listed by CPUID"
    edge = f"edge {memclock.size_text(lv['edge_bytes'])}" if lv["edge_bytes"] is not None else "no edge seen"
    ns = f", {lv['ns']} ns" if lv["ns"] is not None else ""
    return f"{lv['name']} {cpuid} ({edge}): {lv['per_load']} {unit_name(unit)} per load{ns}"


def hierarchy_lines(log):
    """The report's section on sweep=latency: a table of the points per
    unit, the levels and CPUID's caches; [] when the log has none."""
    out = []
    for u in LEVEL_UNITS:
        pts = [r for _, r in memclock.usable(log, "latency_point") if r["unit"] == u]
        lvs = [r for _, r in memclock.usable(log, "latency_levels") if r["unit"] == u]
        if not pts and not lvs:
            continue
        out += ["", f"The memory hierarchy (sweep=latency: a pointer chase, 2N-N per load), in {unit_name(u)} "
                    "per load:"]
        rows = [[memclock.size_text(r["bytes"]), str(r["bytes"]), str(r["loads"]), ev.figure_cell(r)] for r in pts]
        if rows:
            out += table([("size",), ("bytes",), ("loads",), (f"per load [{unit_name(u)}]",)], rows)
        for r in lvs:
            if not r["levels"]:
                out.append(f"  levels: none found: {r['why']}")
            for lv in r["levels"]:
                out.append(f"  level {level_text(lv, u)}")
            if r["cpuid_caches"]:
                out.append("  CPUID's caches: " + ", ".join(
                    f"L{c['level']} {c['type']} {memclock.size_text(c['bytes'])}" for c in r["cpuid_caches"]))
            if r["why"] and r["levels"]:
                out.append(f"  ({r['why']})")
    return out


def report_lines(log):
    """Both sections of the report."""
    return settings_lines(log) + hierarchy_lines(log)


def _wrap(text):
    """text in lines of at most 100 columns (compare's WIDTH), indented 2, continued 4."""
    return textwrap.wrap(text, 100, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)


def compare_lines(a, b):
    """compare's lines on the settings: which differ (or that they are the
    same, or that a log has none), the core clocks, and the two runs'
    levels side by side."""
    sa, sb = memclock.settings(a), memclock.settings(b)
    asked = [memclock.WORDS.get(k, k) for k in memclock.CONFIG]
    none_a, none_b = (all(s.get(k) is None for k in asked) for s in (sa, sb))
    if none_a and none_b:
        return []
    out = ["", "Settings (memory, caches and clocks; the details of each: bench.py report LOG):"]
    if none_a or none_b:
        out += _wrap(f"settings: {'A' if none_a else 'B'}'s log has none (a kernel before them): its memory, "
                     "caches and clocks are unknown, not comparable as equal")
    differ = [d for d in memclock.settings_differ(sa, sb)]
    if differ and not (none_a or none_b):
        out += _wrap("settings differ: " + "; ".join(differ))
    elif not differ:
        out += _wrap("settings: the same in both runs (" + ", ".join(f"{k} {v}" for k, v in sa.items()
                                                                     if v is not None) + ")")
    for tag, log in (("A", a), ("B", b)):
        for _, r in memclock.usable(log, "core_clock"):
            out += _wrap(f"{tag}: {memclock.core_clock_text(r)}")
    for u in LEVEL_UNITS:
        la = {lv["name"]: lv for _, r in memclock.usable(a, "latency_levels") if r["unit"] == u for lv in r["levels"]}
        lb = {lv["name"]: lv for _, r in memclock.usable(b, "latency_levels") if r["unit"] == u for lv in r["levels"]}
        if la or lb:
            out.append(f"  memory hierarchy, per load in {unit_name(u)}:")
            rows = [[n, la[n]["per_load"] if n in la else "-", lb[n]["per_load"] if n in lb else "-"]
                    for n in dict.fromkeys(list(la) + list(lb))]
            out += table([("level",), ("A",), ("B",)], rows, indent="    ")
    return out

#!/usr/bin/env python3
"""tools/mkevents.py - the performance-event tables (issue 30 item 2), from
the upstream data, never typed by hand.

Two steps:

  mkevents.py --import --perfmon DIR --libpfm4 DIR [--out tools/events]
      reads the upstream checkouts (a git work tree or a bare git directory;
      read at HEAD with `git show`) and writes the compact extract committed
      in tools/events/ (tools/events/README.md):
        intel/mapfile.tsv   intel/perfmon's mapfile.csv rows of EventType core
                            and hybridcore: Family-model regex, Version, table,
                            Core Type
        intel/<T>.tsv       one per core file: every event's upstream fields
        amd/mapfile.tsv     vendor, family, first and last model, table, PPR
        amd/<T>.tsv         one per libpfm4 Zen file: one row per event and
                            per unit mask (EVENT.UMASK), and the bare EVENT
                            with libpfm4's default unit masks where it has them
        SOURCES.tsv         repository, commit, licence of each source
        LICENSE.intel-perfmon, LICENSE.libpfm4   the licences, as upstream
  mkevents.py --c OUT.c [--events tools/events]
      generates the C tables lib/evtables.h declares (build/gen/events_data.c)
  mkevents.py --expect OUT.txt [--events tools/events]
      every table's every event with the IA32_PERFEVTSELx / PERF_CTL value
      its fields give (tests/unit/test_events.c compares the C tables' to it)
  mkevents.py --list [--cpu F-M[-S]] [--vendor V] [--search WORD]
      (tools/bench.py events) the tables, or one CPU's events

Standard library only.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.join(HERE, "events")

# The extract's event columns (every table, Intel and AMD), upstream spelling.
COLS = ("EventName", "EventCode", "UMask", "UMaskExt", "CounterMask", "Invert", "EdgeDetect",
        "AnyThread", "Counter", "TakenAlone", "MSRIndex", "MSRValue", "Deprecated")

# AMD family/model ranges of libpfm4's Zen tables (lib/pfmlib_amd64.c
# amd64_get_revision: family 17h models >= 30h Zen 2, else Zen 1; family
# 19h models 10h-1Fh and >= 60h Zen 4, else Zen 3; family 1Ah Zen 5), and
# the AMD PPR that documents each family's core events (libpfm4's headers
# name no PPR; these are the PPRs whose "Core Performance Monitor
# Counters" sections list them). Hygon family 18h (Dhyana) is a Zen 1 core:
# the Zen 1 table (Linux and libpfm4 treat it so too).
AMD_MAP = (
    ("AuthenticAMD", 0x17, 0x00, 0x2F, "zen1", "fam17h_zen1",
     "PPR for AMD Family 17h Model 01h, Revision B1 (54945)"),
    ("AuthenticAMD", 0x17, 0x30, 0xFF, "zen2", "fam17h_zen2",
     "PPR for AMD Family 17h Model 31h, Revision B0 (55803)"),
    ("AuthenticAMD", 0x19, 0x00, 0x0F, "zen3", "fam19h_zen3",
     "PPR for AMD Family 19h Model 01h, Revision B1 (55898)"),
    ("AuthenticAMD", 0x19, 0x10, 0x1F, "zen4", "fam19h_zen4",
     "PPR for AMD Family 19h Model 11h, Revision B1 (55901)"),
    ("AuthenticAMD", 0x19, 0x20, 0x5F, "zen3", "fam19h_zen3",
     "PPR for AMD Family 19h Model 01h, Revision B1 (55898)"),
    ("AuthenticAMD", 0x19, 0x60, 0xFF, "zen4", "fam19h_zen4",
     "PPR for AMD Family 19h Model 11h, Revision B1 (55901)"),
    ("AuthenticAMD", 0x1A, 0x00, 0xFF, "zen5", "fam1ah_zen5",
     "PPR for AMD Family 1Ah Model 02h, Revision C1 (57238)"),
    ("HygonGenuine", 0x18, 0x00, 0xFF, "zen1", "fam17h_zen1",
     "PPR for AMD Family 17h Model 01h, Revision B1 (54945); Hygon family 18h is a Zen 1 core"),
)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, check=True).stdout


def show(repo, path):
    return git(repo, "show", "HEAD:" + path)


def write_tsv(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            cells = [str(c) for c in r]
            for c in cells:
                if "\t" in c or "\n" in c:
                    raise SystemExit(f"mkevents: a tab or newline in {c!r} ({path})")
            f.write("\t".join(cells) + "\n")


def read_tsv(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]


def intel_table_name(filename):
    """'/SKL/events/skylake_core.json' -> ('SKL', 'skylake_core', 'SKL core')."""
    parts = filename.strip("/").split("/")
    code, stem = parts[0], parts[-1][:-len(".json")]
    core = stem[:-len("_core")] if stem.endswith("_core") else stem
    kind = core.split("_", 1)[1] + " core" if "_" in core else "core"
    return code, stem, f"{code} {kind}"


def import_intel(repo, out):
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    rows = list(csv.DictReader(io.StringIO(show(repo, "mapfile.csv").decode())))
    os.makedirs(os.path.join(out, "intel"), exist_ok=True)
    maprows, files = [], {}
    for r in rows:
        if r["EventType"] not in ("core", "hybridcore"):
            continue
        code, stem, _ = intel_table_name(r["Filename"])
        table = f"{code}-{stem}"
        maprows.append((r["Family-model"], r["Version"], table, r["Core Type"], r["Native Model ID"], r["Filename"]))
        files[table] = r["Filename"].lstrip("/")
    write_tsv(os.path.join(out, "intel", "mapfile.tsv"),
              ("Family-model", "Version", "Table", "Core Type", "Native Model ID", "Filename"), maprows)
    n = 0
    for table, path in sorted(files.items()):
        data = json.loads(show(repo, path))
        evs = []
        for e in data["Events"]:
            evs.append([e.get(k, "") if e.get(k) is not None else "" for k in COLS])
        n += len(evs)
        write_tsv(os.path.join(out, "intel", table + ".tsv"), COLS, evs)
    with open(os.path.join(out, "LICENSE.intel-perfmon"), "wb") as f:
        f.write(show(repo, "LICENSE"))
    return ("intel/perfmon", "https://github.com/intel/perfmon", commit, "BSD-3-Clause",
            f"{len(files)} core tables, {n} events")


LIBPFM_ENTRY = re.compile(r"\{([^{}]*)\}", re.S)
LIBPFM_FIELD = re.compile(r'\.(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,}]+)', re.S)


def libpfm_fields(text):
    out = {}
    for m in LIBPFM_FIELD.finditer(text):
        v = m.group(2).strip()
        out[m.group(1)] = v[1:-1] if v.startswith('"') else v
    return out


def libpfm_arrays(src, ctype):
    """{array name: [fields of each entry]} of `static const CTYPE NAME[]={...};`."""
    arrays = {}
    for m in re.finditer(r"static\s+const\s+" + ctype + r"\s+(\w+)\s*\[\]\s*=\s*\{(.*?)\n\};", src, re.S):
        arrays[m.group(1)] = [libpfm_fields(e.group(1)) for e in LIBPFM_ENTRY.finditer(m.group(2))]
    return arrays


def import_libpfm4(repo, out):
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    os.makedirs(os.path.join(out, "amd"), exist_ok=True)
    n, done = 0, set()
    for _v, _f, _lo, _hi, table, stem, _ppr in AMD_MAP:
        if table in done:
            continue
        done.add(table)
        src = re.sub(r"/\*.*?\*/", "", show(repo, f"lib/events/amd64_events_{stem}.h").decode(), flags=re.S)
        umasks = libpfm_arrays(src, "amd64_umask_t")
        events = libpfm_arrays(src, "amd64_entry_t")
        if len(events) != 1:
            raise SystemExit(f"mkevents: {stem}: {len(events)} event arrays, expected 1")
        rows = []
        for e in next(iter(events.values())):
            name, code = e["name"], int(e["code"], 0)
            um = umasks.get(e.get("umasks", ""), [])
            if e.get("umasks") and not um:
                raise SystemExit(f"mkevents: {stem}: {name}: unit masks {e['umasks']} not found")
            flags = [u.get("uflags", "0") for u in um]
            dfl = 0
            groups = {}
            for u, fl in zip(um, flags):
                g = groups.setdefault(int(u.get("grpid", "0"), 0), [0, 0, 0])
                g[0] += 1
                if "AMD64_FL_DFL" in fl:
                    dfl |= int(u["ucode"], 0)
                    g[1] += 1
                if "AMD64_FL_OMIT" in fl:
                    g[2] += 1
            # The bare name: no unit masks, or libpfm4's default ones (every
            # group has a default, or its unit masks may be omitted).
            if not um or all(g[1] or g[2] == g[0] for g in groups.values()):
                rows.append((name, f"0x{code:03X}", f"0x{dfl:02X}", "", "0", "0", "0", "", "", "", "", "", ""))
            for u in um:
                rows.append((f"{name}.{u['uname']}", f"0x{code:03X}", f"0x{int(u['ucode'], 0):02X}", "",
                             "0", "0", "0", "", "", "", "", "", ""))
        n += len(rows)
        write_tsv(os.path.join(out, "amd", table + ".tsv"), COLS, rows)
    write_tsv(os.path.join(out, "amd", "mapfile.tsv"),
              ("Vendor", "Family", "First model", "Last model", "Table", "libpfm4 file", "PPR"),
              [(v, f"0x{f:02X}", f"0x{lo:02X}", f"0x{hi:02X}", t, f"lib/events/amd64_events_{s}.h", p)
               for v, f, lo, hi, t, s, p in AMD_MAP])
    with open(os.path.join(out, "LICENSE.libpfm4"), "wb") as f:
        f.write(show(repo, "COPYING"))
    return ("libpfm4", "https://github.com/wcohen/libpfm4 (mirror of git://perfmon2.git.sourceforge.net)",
            commit, "MIT", f"{len(done)} Zen tables, {n} events and unit masks")


# ---- the extract, parsed -------------------------------------------------

def num(s, default=0):
    s = (s or "").strip()
    if not s:
        return default
    return int(s, 0) if not s.lower().startswith("0x") else int(s, 16)


def first(s):
    """'0xB7, 0xBB' -> '0xB7' (OFFCORE_RESPONSE_0 of the pair; its MSR is the first too)."""
    return (s or "").split(",")[0].strip()


def counters_of(s):
    """Counter field -> (GP bitmap, fixed index or -1). 'Fixed counter 1',
    '0,1,2,3', '' (AMD: any counter)."""
    s = (s or "").strip()
    if not s:
        return 0xFFFFFFFF, -1
    m = re.fullmatch(r"Fixed counter (\d+)", s, re.I)
    if m:
        return 0, int(m.group(1))
    bits = 0
    for p in s.split(","):
        p = p.strip()
        if p:
            bits |= 1 << int(p)
    return bits, -1


def event_of(r):
    """One extract row -> dict of the encoding's fields."""
    bits, fixed = counters_of(r["Counter"])
    msr = num(first(r["MSRIndex"]))
    val = num(first(r["MSRValue"])) if msr else 0
    return {
        "name": r["EventName"].upper(), "evsel": num(first(r["EventCode"])), "umask": num(first(r["UMask"])),
        "umask_ext": num(r["UMaskExt"]), "cmask": num(r["CounterMask"]), "inv": num(r["Invert"]),
        "edge": num(r["EdgeDetect"]), "anyt": num(r["AnyThread"]), "counters": bits, "fixed": fixed,
        "taken_alone": num(r["TakenAlone"]), "msr": msr, "msr_value": val, "deprecated": num(r["Deprecated"]),
    }


def perfevtsel(vendor, e):
    """SDM Vol. 3B figure "Layout of IA32_PERFEVTSELx MSRs" (UMASK2 47:40 where
    the architectural PMU extensions enumerate it); AMD APM Vol. 2 PerfEvtSeln:
    EventSelect[7:0], UnitMask 15:8, OS 17, Edge 18, En 22, Inv 23, CntMask
    31:24, EventSelect[11:8] 35:32. Ring 0 only (OS=1, USR=0), EN=1."""
    v = (e["evsel"] & 0xFF) | (e["umask"] << 8) | (1 << 17) | (e["edge"] << 18) | (1 << 22) \
        | (e["inv"] << 23) | (e["cmask"] << 24)
    if vendor == "intel":
        v |= (e["anyt"] << 21) | (e["umask_ext"] << 40)
    else:
        v |= ((e["evsel"] >> 8) & 0xF) << 32
    return v


def load(events_dir):
    """[(table dict)]: vendor, id, name (display), version, source, events,
    and the selection rows."""
    tables = []
    src = {r["Source"]: r for r in read_tsv(os.path.join(events_dir, "SOURCES.tsv"))}
    imap = read_tsv(os.path.join(events_dir, "intel", "mapfile.tsv"))
    seen = {}
    for r in imap:
        t = r["Table"]
        if t not in seen:
            code, _stem, disp = intel_table_name(r["Filename"])
            seen[t] = {"vendor": "intel", "id": t, "name": f"{disp} {r['Version']}", "version": r["Version"],
                       "source": f"intel/perfmon {disp} {r['Version']} (BSD-3-Clause)",
                       "events": [event_of(x) for x in read_tsv(os.path.join(events_dir, "intel", t + ".tsv"))],
                       "rows": []}
            tables.append(seen[t])
        seen[t]["rows"].append(r)
    amap = read_tsv(os.path.join(events_dir, "amd", "mapfile.tsv"))
    seen = {}
    for r in amap:
        t = r["Table"]
        if t not in seen:
            ppr = r["PPR"].split(";")[0]
            seen[t] = {"vendor": "amd", "id": t, "name": f"{t} {src['libpfm4']['Commit'][:7]}",
                       "version": src["libpfm4"]["Commit"][:12],
                       "source": f"libpfm4 {r['libpfm4 file'].rsplit('/', 1)[1]} {src['libpfm4']['Commit'][:7]} "
                                 f"(MIT; {ppr})",
                       "events": [event_of(x) for x in read_tsv(os.path.join(events_dir, "amd", t + ".tsv"))],
                       "rows": []}
            tables.append(seen[t])
        seen[t]["rows"].append(r)
    return tables


def intel_selector(regex):
    """'GenuineIntel-6-55-[01234]' -> (family, model, stepping mask). The
    family is decimal (perfmon's 'GenuineIntel-18-1' is family 18 = 12H, as
    Linux's IFM(18, ...)), model and stepping hex."""
    m = re.fullmatch(r"GenuineIntel-(\d+)-([0-9A-Fa-f]+)(?:-\[([0-9A-Fa-f]+)\]|-([0-9A-Fa-f]))?", regex)
    if not m:
        raise SystemExit(f"mkevents: mapfile regex {regex!r} is not of a form the C selection takes")
    steps = 0xFFFF
    if m.group(3):
        steps = 0
        for c in m.group(3):
            steps |= 1 << int(c, 16)
    elif m.group(4):
        steps = 1 << int(m.group(4), 16)
    return int(m.group(1)), int(m.group(2), 16), steps


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_c(events_dir, out):
    tables = load(events_dir)
    # Names split at the first dot; each part once in the pool.
    parts, pool = {}, []
    offs = []

    def part(p):
        if p not in parts:
            parts[p] = len(offs)
            offs.append(sum(len(x) + 1 for x in pool))
            pool.append(p)
        return parts[p]

    attrs, msrs, uniq = {}, {0: 0}, {}
    entries, idx = [], []
    for t in tables:
        t["start"] = len(idx)
        for e in t["events"]:
            pre, _, suf = e["name"].partition(".")
            a = (e["counters"], e["fixed"], e["umask_ext"], (e["evsel"] >> 8) & 0xF, e["msr"])
            attrs.setdefault(a, len(attrs))
            mk = e["msr_value"]
            msrs.setdefault(mk, len(msrs))
            flags = e["inv"] | e["edge"] << 1 | e["anyt"] << 2 | e["taken_alone"] << 3 | e["deprecated"] << 4
            ent = (part(pre), part(suf) if suf else 0xFFFF, msrs[mk], e["evsel"] & 0xFF, e["umask"], e["cmask"],
                   flags, attrs[a])
            if ent not in uniq:
                uniq[ent] = len(entries)
                entries.append(ent)
            idx.append(uniq[ent])
        t["count"] = len(idx) - t["start"]
    if len(entries) > 0xFFFF or len(parts) > 0xFFFE or len(attrs) > 256 or len(msrs) > 0xFFFF:
        raise SystemExit("mkevents: the tables outgrew their packed fields")
    sel = []
    for ti, t in enumerate(tables):
        for r in t["rows"]:
            if t["vendor"] == "intel":
                fam, model, steps = intel_selector(r["Family-model"])
                ct = num(r["Core Type"])
                sel.append((1, fam, model, model, steps, ct, num(r["Native Model ID"]), ti))
            else:
                v = 2 if r["Vendor"] == "AuthenticAMD" else 3
                sel.append((v, num(r["Family"]), num(r["First model"]), num(r["Last model"]), 0xFFFF, 0, 0, ti))
    o = ["/* build/gen/events_data.c - GENERATED by tools/mkevents.py --c from tools/events/",
         " * (intel/perfmon BSD-3-Clause; libpfm4 MIT: tools/events/README.md). Do not edit.",
         " * Included by lib/evdata.c, after lib/evtables.h. */", ""]
    o.append(f"const char ev_tab_pool[{sum(len(x) + 1 for x in pool)}] =")
    line = ""
    for p in pool:
        line += p + "\\000"
        if len(line) > 90:
            o.append(f'\t"{line}"')
            line = ""
    o.append(f'\t"{line}";' if line else "\t;")
    o.append(f"const uint32_t ev_tab_parts[{len(offs)}] = {{")
    o += ["\t" + ", ".join(str(x) for x in offs[i:i + 12]) + "," for i in range(0, len(offs), 12)]
    o.append("};")
    o.append(f"const struct ev_tab_attr ev_tab_attrs[{len(attrs)}] = {{")
    for (bits, fixed, ux, hi, msr), _ in sorted(attrs.items(), key=lambda x: x[1]):
        o.append(f"\t{{0x{bits:X}u, 0x{msr:X}, {fixed}, 0x{ux:02X}, 0x{hi:X}}},")
    o.append("};")
    o.append(f"const uint64_t ev_tab_msrs[{len(msrs)}] = {{")
    for v, _ in sorted(msrs.items(), key=lambda x: x[1]):
        o.append(f"\t0x{v:X}ull,")
    o.append("};")
    o.append(f"const struct ev_tab_event ev_tab_events[{len(entries)}] = {{")
    for e in entries:
        o.append("\t{%d, %d, %d, 0x%02X, 0x%02X, %d, 0x%X, %d, 0}," % e)
    o.append("};")
    o.append(f"const uint16_t ev_tab_index[{len(idx)}] = {{")
    o += ["\t" + ", ".join(str(x) for x in idx[i:i + 16]) + "," for i in range(0, len(idx), 16)]
    o.append("};")
    o.append(f"const struct ev_tab_table ev_tab_tables[{len(tables)}] = {{")
    for t in tables:
        o.append(f"\t{{{cstr(t['name'])}, {cstr(t['source'])}, {t['start']}, {t['count']}, "
                 f"{1 if t['vendor'] == 'intel' else 2}}},")
    o.append("};")
    o.append(f"const int ev_tab_ntables = {len(tables)};")
    o.append(f"const struct ev_tab_select ev_tab_selects[{len(sel)}] = {{")
    for s in sel:
        o.append("\t{%d, 0x%X, 0x%X, 0x%X, 0x%04X, 0x%X, 0x%X, %d}," % s)
    o.append("};")
    o.append(f"const int ev_tab_nselects = {len(sel)};")
    text = "\n".join(o) + "\n"
    tmp = out + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)


def gen_expect(events_dir, out):
    """One line per table ('table NAME COUNT'), then per event 'NAME PERFEVTSEL
    FIXED COUNTERS MSR MSRVALUE TAKENALONE' in the table's order."""
    o = []
    for t in load(events_dir):
        o.append(f"table\t{t['name']}\t{len(t['events'])}\t{t['source']}")
        for e in t["events"]:
            o.append("%s\t%016x\t%d\t%08x\t%x\t%x\t%d" % (
                e["name"], perfevtsel(t["vendor"], e), e["fixed"], e["counters"], e["msr"], e["msr_value"],
                e["taken_alone"]))
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(o) + "\n")
    os.replace(out + ".tmp", out)


# ---- listing (tools/bench.py events) -------------------------------------

def select(tables, vendor, family, model, stepping, core_type=0, native=0):
    """The table CPUID selects, as lib/events.c ev_table_name does, or None."""
    v = {"intel": 1, "amd": 2, "hygon": 3}[vendor]
    hits = []
    for t in tables:
        for r in t["rows"]:
            if t["vendor"] == "intel" and v == 1:
                fam, mod, steps = intel_selector(r["Family-model"])
                if fam == family and mod == model and (stepping is None or steps >> stepping & 1):
                    hits.append((t, num(r["Core Type"]), num(r["Native Model ID"])))
            elif t["vendor"] == "amd" and v in (2, 3):
                rv = 2 if r["Vendor"] == "AuthenticAMD" else 3
                if rv == v and num(r["Family"]) == family and num(r["First model"]) <= model <= num(r["Last model"]):
                    hits.append((t, 0, 0))
    if core_type:
        hits = [h for h in hits if h[1] in (0, core_type) and (not native or h[2] in (0, native))]
    seen = []
    for t, _ct, _n in hits:
        if t not in seen:
            seen.append(t)
    return seen


def flags_text(e):
    f = []
    if e["inv"]:
        f.append("INV")
    if e["edge"]:
        f.append("EDG")
    if e["anyt"]:
        f.append("AnyT")
    if e["taken_alone"]:
        f.append("TakenAlone")
    if e["deprecated"]:
        f.append("deprecated")
    return ",".join(f) or "-"


def counters_text(e):
    if e["fixed"] >= 0:
        return f"FIXED_CTR{e['fixed']}"
    if e["counters"] == 0xFFFFFFFF:
        return "any"
    return ",".join(str(i) for i in range(32) if e["counters"] >> i & 1)


def list_main(args, out=sys.stdout):
    tables = load(args.events)
    if not args.cpu:
        out.write("vendor  table                              events  selected by (family-model[-steppings] in hex)\n")
        for t in tables:
            if t["vendor"] == "intel":
                sel = []
                for r in t["rows"]:
                    fam, mod, steps = intel_selector(r["Family-model"])
                    x = f"{fam:X}-{mod:02X}"
                    if steps != 0xFFFF:
                        x += "-[" + "".join(f"{i:X}" for i in range(16) if steps >> i & 1) + "]"
                    if r["Core Type"]:
                        x += f" (core type {r['Core Type']}, native model {r['Native Model ID']})"
                    if x not in sel:
                        sel.append(x)
            else:
                sel = [f"{'amd' if r['Vendor'] == 'AuthenticAMD' else 'hygon'} {num(r['Family']):X}-"
                       f"{num(r['First model']):02X}..{num(r['Last model']):02X}" for r in t["rows"]]
            out.write(f"{t['vendor']:<7} {t['name']:<34} {len(t['events']):>6}  {', '.join(sel)}\n")
        out.write(f"{len(tables)} tables, {sum(len(t['events']) for t in tables)} events; "
                  f"sources: tools/events/README.md\n")
        return 0
    m = re.fullmatch(r"(?:0x)?([0-9A-Fa-f]+)-(?:0x)?([0-9A-Fa-f]+)(?:-(?:0x)?([0-9A-Fa-f]+))?", args.cpu)
    if not m:
        sys.stderr.write(f"bench.py events: --cpu {args.cpu}: expected FAMILY-MODEL[-STEPPING] in hex "
                         f"(6-5E, 17-31, 6-55-4)\n")
        return 2
    family, model = int(m.group(1), 16), int(m.group(2), 16)
    stepping = int(m.group(3), 16) if m.group(3) else None
    vendor = args.vendor or ("amd" if family in (0x17, 0x19, 0x1A) else "hygon" if family == 0x18 else "intel")
    found = select(tables, vendor, family, model, stepping)
    if not found:
        out.write(f"no table for {vendor} family {family:#x} model {model:#x}"
                  f"{'' if stepping is None else f' stepping {stepping:#x}'} (bench.py events lists the tables)\n")
        return 1
    word = (args.search or "").upper()
    for t in found:
        evs = [e for e in t["events"] if word in e["name"]]
        out.write(f"table {t['name']}: {t['source']}: {len(evs)} of {len(t['events'])} events"
                  f"{f' matching {args.search}' if word else ''}\n")
        rows = [("name", "event_select", "umask", "cmask", "flags", "counters", "perfevtsel", "extra MSR")]
        for e in evs:
            sel = f"0x{e['evsel']:03X}" if t["vendor"] == "amd" else f"0x{e['evsel']:02X}"
            um = f"0x{e['umask']:02X}" + (f"+ext 0x{e['umask_ext']:02X}" if e["umask_ext"] else "")
            rows.append((e["name"], sel, um, str(e["cmask"]), flags_text(e), counters_text(e),
                         f"0x{perfevtsel(t['vendor'], e):X}",
                         f"0x{e['msr']:X}=0x{e['msr_value']:X}" if e["msr"] else "-"))
        w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            out.write("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() + "\n")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="mkevents.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--import", dest="do_import", action="store_true")
    ap.add_argument("--perfmon")
    ap.add_argument("--libpfm4")
    ap.add_argument("--out", default=EVENTS)
    ap.add_argument("--events", default=EVENTS)
    ap.add_argument("--c", dest="c_out")
    ap.add_argument("--expect")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--cpu")
    ap.add_argument("--vendor", choices=("intel", "amd", "hygon"))
    ap.add_argument("--search")
    args = ap.parse_args(argv)
    if args.do_import:
        if not args.perfmon or not args.libpfm4:
            ap.error("--import needs --perfmon DIR and --libpfm4 DIR")
        srcs = [import_intel(args.perfmon, args.out), import_libpfm4(args.libpfm4, args.out)]
        write_tsv(os.path.join(args.out, "SOURCES.tsv"), ("Source", "Repository", "Commit", "Licence", "Holds"),
                  srcs)
    if args.c_out:
        gen_c(args.events, args.c_out)
    if args.expect:
        gen_expect(args.events, args.expect)
    if args.list:
        return list_main(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

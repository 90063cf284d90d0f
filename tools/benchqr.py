"""tools/benchqr.py - read the QR code of a run's results: photos or
screenshots of the screen (decoded with zbarimg, Debian zbar-tools), or the
code's text itself ("bench1 ..."), into the log object tools/benchlog
gives for a serial log, holding the figures the text carries.

    texts = decode(["shot1.jpg", "shot2.jpg"])   # every code found, as text
    log = from_texts(texts, path="shot1.jpg")     # parts joined, checked, read
    log = load("screen.png")                      # one file: an image or the text

The text's format ("bench1") is lib/qrtext.h's (docs/SCREEN.md "The QR code"): a
header line "bench1 P/N CRC" in each part, then lines of the body. Parts
are joined by their CRC (the CRC-32 of the joined body, which is checked),
in part order; a missing part, two runs' codes mixed up, or a body that does
not give its CRC are problems of the log, named with the line of the joined
body they concern where there is one.

What the text carries becomes records and series as benchlog makes them
from a serial log: env (the run ID, vendor, family, model, stepping, brand,
hypervisor),
machine (microcode), tsc_rate, config (sizes, methods, verdict limits),
verdict and recommendation records, skips (without the kernel's reason),
code= (code, per_copy, per_copy_agreement and code_fault records; with
events= the pe lines as event_per_copy records without their least
minimums, verified false where the line marks it '!'), sweep=latency's
levels (the lat lines as latency_levels records, without cpuid_caches),
a plan's experiments (the x lines as experiment and experiment_end
records, and log.qr_experiments: each one's index, name, status and its
xa line's answer as a per_copy dict naming the experiment, or None),
the final line and an end
record from it; per method the empty window's
series in each unit measured (min of mins = offset; total variance,
variance of variances and variance of minimum values in the method's own
unit) and per workload its series in each unit (net least minimum, and min
of mins = net + offset). Ensembles, medians, max deviations and spurious
minimums are not in the text: those figures are absent (not None, which
means an overflow). The run's digest (tools/benchdb.py) is the SHA-256 of
the joined body: the same code stored twice is one source; its run ID
makes it one run with the same run's serial log (benchdb.merge).
"""
import hashlib
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zlib
import base64

from benchlog import Log, Problem

MAGIC = "bench1 "
RUN_ID = re.compile(r"^[0-9a-f]{16}$")
HEADER = re.compile(r"^bench1 ([1-9])/([1-9]) ([0-9a-f]{8})$")
UNITS = ("tsc_ticks", "core_cycles", "instructions")
OWN_UNIT = {"t": "tsc_ticks", "c": "core_cycles"}
PC_UNIT = {"t": "tsc_ticks", "c": "core_cycles", "i": "instructions"}
VERDICTS = ("ergodic", "not-ergodic", "unknown")
FINAL = re.compile(r"^bench: run complete: (\d+) methods? run, (\d+) skipped, (\d+) ensemble errors, "
                   r"(\d+) command-line problems?")
IMAGE_MAGIC = ((b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF8", "GIF"),
               (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"), (b"P6", "PPM"), (b"BM", "BMP"))


class QrError(Exception):
    """The photos or the text cannot be read at all (no zbarimg, no code
    found in an image, not a bench1 text)."""


def file_kind(path):
    """'text' for a bench1 text, an image format's name, or None."""
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(MAGIC.encode()):
        return "text"
    kind = next((k for magic, k in IMAGE_MAGIC if head.startswith(magic)), None)
    if kind is None and head[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1"):
        kind = "HEIC"
    return kind


def read_texts(path):
    """The codes' texts in one file: a bench1 text file is one code, an
    image holds any number (decode)."""
    if file_kind(path) == "text":
        with open(path, "rb") as f:
            return [f.read().decode("utf-8", errors="replace").replace("\r\n", "\n")]
    return decode([path])


def group(codes):
    """[(files, kinds, texts)] per run: codes [(file, kind, text)] grouped
    by the CRC of their header, in the order first seen; codes without a
    bench1 header are left out."""
    runs = {}
    for path, kind, text in codes:
        m = HEADER.match(text.partition("\n")[0].rstrip("\r"))
        if not m:
            continue
        files, kinds, texts = runs.setdefault(m.group(3), ([], [], []))
        if path not in files:
            files.append(path)
            kinds.append(kind)
        texts.append(text)
    return list(runs.values())


def decode(paths, timeout=120):
    """The text of every QR code in the images, in the order found (zbarimg
    --xml: one symbol's data each, newlines kept). Raises QrError when
    zbarimg is missing or an image holds no QR code."""
    exe = shutil.which("zbarimg")
    if not exe:
        raise QrError("zbarimg is not installed (Debian package zbar-tools; tools/deps.sh installs it)")
    texts = []
    for path in paths:
        p = subprocess.run([exe, "--xml", "-q", "--nodbus", "-Sdisable", "-Sqrcode.enable", path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        found = []
        if p.returncode in (0, 4) and p.stdout.strip():
            root = ET.fromstring(p.stdout.decode("utf-8", errors="replace"))
            for sym in root.iter("{http://zbar.sourceforge.net/2008/barcode}symbol"):
                data = sym.find("{http://zbar.sourceforge.net/2008/barcode}data")
                if data is None or data.text is None:
                    continue
                text = data.text
                if data.get("format") == "base64":
                    text = base64.b64decode(text).decode("utf-8", errors="replace")
                found.append(text)
        if not found:
            why = p.stderr.decode("utf-8", errors="replace").strip().splitlines()
            raise QrError(f"{path}: no QR code found (zbarimg exit status {p.returncode}"
                          f"{': ' + why[-1] if why and p.returncode not in (0, 4) else ''}); "
                          "photograph the whole code, square on, sharp and without glare")
        texts += found
    return texts


def join(texts):
    """(body, problems): the parts of one run joined in order. Codes that
    are not bench1 texts are ignored; codes of several runs are a problem
    (the run with the most parts found is read)."""
    problems, runs = [], {}
    for t in texts:
        first, _, rest = t.partition("\n")
        m = HEADER.match(first.rstrip("\r"))
        if not m:
            if t.startswith(MAGIC):
                problems.append(Problem(None, f"a code whose header {first[:40]!r} is not "
                                              "'bench1 P/N CRC'"))
            continue
        p, n, crc = int(m.group(1)), int(m.group(2)), m.group(3)
        run = runs.setdefault(crc, {"n": n, "parts": {}})
        if n != run["n"]:
            problems.append(Problem(None, f"the codes of CRC-32 {crc}: one says {p}/{n}, another said "
                                          f"{run['n']} parts"))
        if p in run["parts"] and run["parts"][p] != rest:
            problems.append(Problem(None, f"the codes of CRC-32 {crc}: two different codes numbered {p}/{n}"))
        run["parts"].setdefault(p, rest)
    if not runs:
        raise QrError("no bench1 QR code among the codes found (the results' code starts with "
                      f"'{MAGIC}'); found: {[t[:30] for t in texts]}")
    crc, run = max(runs.items(), key=lambda kv: len(kv[1]["parts"]))
    if len(runs) > 1:
        problems.append(Problem(None, f"codes of {len(runs)} runs (their texts' CRC-32s "
                                      f"{', '.join(sorted(runs))}): reading the codes of CRC-32 {crc}; "
                                      "give one run's photos at a time"))
    missing = [i for i in range(1, run["n"] + 1) if i not in run["parts"]]
    if missing:
        which = ", ".join(f"{i}/{run['n']}" for i in missing)
        problems.append(Problem(None, f"the codes of CRC-32 {crc}: code{'s' if len(missing) > 1 else ''} {which} "
                                      "missing: photograph every code the screen shows in turn"))
    body = "".join(run["parts"][i] for i in sorted(run["parts"]))
    if not missing and f"{zlib.crc32(body.encode('latin-1', errors='replace')):08x}" != crc:
        problems.append(Problem(None, f"the codes of CRC-32 {crc}: the joined text's CRC-32 is "
                                      f"{zlib.crc32(body.encode('latin-1', errors='replace')):08x}, "
                                      f"not {crc}: a code misread"))
    return body, crc, problems


def _int(tok):
    return int(tok, 0) if tok not in ("-", "ovf") else None


def _group(tok, signed=False):
    """{unit: value} of a "T/C/I" group."""
    out = {}
    if tok == "-":
        return out
    for u, v in zip(UNITS, tok.split("/")):
        if v != "-":
            out[u] = int(v)
            if not signed and out[u] < 0:
                raise ValueError(f"negative figure {v}")
    if len(tok.split("/")) > 3:
        raise ValueError(f"more than three units in {tok!r}")
    return out


LOW = {"z": "below_zero", "r": "below_resolution"}  # lib/qrtext.c's letters, the records' keys


def _low_group(tok):
    """{unit: flag} of a "T/C/I" group of a low line ('z' below zero, 'r'
    below the resolution, '-' none)."""
    out = {}
    if tok == "-":
        return out
    for u, v in zip(UNITS, tok.split("/")):
        if v != "-":
            if v not in LOW:
                raise ValueError(f"flag {v!r}")
            out[u] = LOW[v]
    return out


def code_of(log):
    """What a pc or cf line takes from the code line before it, as the
    serial log's per_copy and code_fault records carry it: the code
    workload's name and the copies its N window executes ({} before any
    code line)."""
    recs = log.by_kind.get("code")
    if not recs:
        return {}
    return {"workload": recs[-1][1]["workload"], "copies": recs[-1][1]["copies"]}


def latency_levels(toks, log):
    """The latency_levels record of a lat line's tokens (lib/qrtext.h): the
    levels as the record has them, ns from the tsc line for TSC ticks; the
    CPUID caches are not in the text (absent), why only says where it is."""
    unit = OWN_UNIT[toks[0]]
    hz = log.by_kind["tsc_rate"][-1][1]["hz"] if log.by_kind["tsc_rate"] else 0
    levels = []
    if toks[1:] != ["none"]:
        for t in toks[1:]:
            name, cpuid, edge, fig = t.split(":")
            if name not in ("L1d", "L2", "L3", "L4", "DRAM") or not re.match(r"^\d+\.\d{3}$", fig):
                raise ValueError(f"level {t!r}")
            milli = int(fig.replace(".", ""))
            ns = milli * 10**9 // hz if unit == "tsc_ticks" and hz else None
            levels.append({"name": name, "cpuid_bytes": None if cpuid == "-" else int(cpuid),
                           "edge_bytes": None if edge == "-" else int(edge), "per_load": fig,
                           "ns": None if ns is None else f"{ns // 1000}.{ns % 1000:03d}"})
    return {"rec": "latency_levels", "unit": unit, "levels": levels,
            "why": None if levels else "no level told apart (the reason is in the serial log)"}


def parse_body(body, path="QR code", crc=None, problems=()):
    """A benchlog.Log of the joined body (module docstring)."""
    log = Log()
    log.path = path
    log.size = len(body.encode("utf-8"))
    log.problems = list(problems)
    log.lines = list(enumerate(body.split("\n"), 1))
    log.line_count = body.count("\n")
    log.run_digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    log.qr_body = body
    log.qr_crc = crc
    log.qr_experiments = []  # a plan's x lines: index, name, status, answer (a per_copy dict or None)
    env = {"rec": "env"}
    cfg = {"rec": "config"}
    methods, order, skips, workloads, lows, whys = {}, [], [], [], {}, {}
    for no, line in log.lines:
        if not line:
            continue
        kind, _, rest = line.partition(" ")
        toks = rest.split(" ")
        try:
            if kind == "run":  # the run's ID (kernel/runid.h), as the env record's run_id
                if not RUN_ID.match(rest):
                    raise ValueError("not 16 lower-case hex digits")
                env["run_id"] = rest
            elif kind == "vendor":
                env["vendor"] = rest
            elif kind == "brand":
                env["brand"] = "" if rest == "-" else rest
            elif kind == "cpu":
                env["family"], env["model"], env["stepping"] = (int(t) for t in toks[:3])
                mc = toks[3]
                log.by_kind["machine"].append((no, {"rec": "machine",
                                                    "microcode": None if mc == "-" else int(mc, 16)}))
            elif kind == "hv":
                env["hypervisor"] = 0 if rest == "none" else 1
                env["hypervisor_vendor"] = "" if rest == "none" else rest
            elif kind == "tsc":
                log.by_kind["tsc_rate"].append((no, {"rec": "tsc_rate", "hz": int(toks[0]),
                                                     "ppm": int(toks[1]), "source": toks[2]}))
            elif kind == "tstep":
                log.by_kind["tsc_step"].append((no, {"rec": "tsc_step", "step": int(toks[0]),
                                                     "sure": toks[1] == "sure"}))
            elif kind == "low":  # the flags of the w line before it (lib/qrtext.c)
                if not workloads or workloads[-1][1] != toks[0] or len(toks) - 1 != len(order):
                    raise ValueError("not after its workload's w line, or not a group per method")
                low = {toks[0]: [_low_group(t) for t in toks[1:]]}
                lows.update(low)
            elif kind == "size":
                cfg["ensembles"], cfg["samples"], cfg["warmup"] = (int(t) for t in toks[:3])
            elif kind == "limits":
                cfg["max_var_of_vars"], cfg["max_var_of_mins"] = int(toks[0]), int(toks[1])
            elif kind == "m":
                name, unit = toks[0], OWN_UNIT[toks[1]]
                if toks[6] not in VERDICTS:
                    raise ValueError(f"verdict {toks[6]!r}")
                methods[name] = {"no": no, "unit": unit, "offset": _group(toks[2]),
                                 "total_variance": _int(toks[3]), "var_of_vars": _int(toks[4]),
                                 "var_of_mins": _int(toks[5]), "verdict": toks[6],
                                 "smis": toks[7], "nmis": int(toks[8])}
                order.append(name)
            elif kind == "skip":
                skips += [(no, t) for t in toks if t]
            elif kind == "why":  # no serial port: why a method was skipped (lib/qrtext.h)
                if not toks[0] or len(toks) < 2:
                    raise ValueError("a method and its reason")
                whys[toks[0]] = rest.partition(" ")[2]
            elif kind == "w":
                if len(toks) - 1 != len(order):
                    raise ValueError(f"{len(toks) - 1} groups for {len(order)} methods")
                workloads.append((no, toks[0], [_group(t, signed=True) for t in toks[1:]]))
            elif kind == "code":  # code= (lib/qrtext.h): name, N copies, unroll=, loops=
                log.by_kind["code"].append((no, {"rec": "code", "workload": toks[0], "copies": int(toks[1]),
                                                 "unroll": int(toks[2]), "loops": int(toks[3])}))
            elif kind == "pc":  # code='s figure per copy: method, unit, kind, figure, bound, fraction
                num, _, den = toks[5].partition("/")
                log.by_kind["per_copy"].append((no, dict(code_of(log), **{
                    "rec": "per_copy", "method": toks[0], "unit": PC_UNIT[toks[1]], "status": toks[2],
                    "per_copy": None if toks[3] == "-" else toks[3], "bound": None if toks[4] == "-" else toks[4],
                    "num": None if toks[5] == "-" else int(num), "den": None if toks[5] == "-" else int(den)})))
            elif kind == "pa":  # the methods compared in a unit: unit, agree, trusted, low:high:gap...
                unit = PC_UNIT[toks[0]]
                if toks[1] not in ("yes", "no"):
                    raise ValueError(f"agreement {toks[1]!r}")
                pairs = [t.split(":") for t in toks[3:] if t]
                if any(len(p) != 3 for p in pairs):
                    raise ValueError("a pair is not LOW:HIGH:GAP")
                code = log.by_kind["code"][-1][1]["workload"] if log.by_kind["code"] else None
                named = [r["method"] for _, r in log.by_kind["per_copy"]
                         if r["unit"] == unit and r["status"] != "wrapped"]
                trusted = None if toks[2] == "-" else toks[2]
                log.by_kind["per_copy_agreement"].append((no, {
                    "rec": "per_copy_agreement", "workload": code, "unit": unit, "methods": named,
                    "agree": toks[1] == "yes", "disagree": [{"a": a, "b": b, "gap": g} for a, b, g in pairs],
                    "trusted": trusted,
                    "why": ("the recommended method (the reason is in the serial log)" if trusted else
                            "the recommendation trusts no method with a figure in this unit "
                            "(the reason is in the serial log)")}))
            elif kind == "pe":  # code='s figure per copy in an event: method, name, kind[!], figure, bound
                status = toks[2].rstrip("!")
                if status not in ("exact", "figure", "below_resolution", "below_zero", "wrapped") or len(toks) < 5:
                    raise ValueError(f"kind {toks[2]!r}")
                pc = code_of(log)
                log.by_kind["event_per_copy"].append((no, {
                    "rec": "event_per_copy", "method": toks[0], "workload": pc.get("workload") or "code",
                    "event": toks[1], "copies": pc.get("copies"), "status": status,
                    "per_copy": None if toks[3] == "-" else toks[3], "bound": None if toks[4] == "-" else toks[4],
                    "verified": not toks[2].endswith("!")}))
            elif kind == "cf":  # where code= faulted: method, vector, part, offset, copy
                log.by_kind["code_fault"].append((no, dict(code_of(log), **{
                    "rec": "code_fault", "method": toks[0], "name": toks[1], "part": toks[2],
                    "offset": int(toks[3]), "copy": int(toks[4])})))
            elif kind == "lat":  # sweep=latency's levels in a unit: U NAME:CPUID:EDGE:FIG... or U none
                log.by_kind["latency_levels"].append((no, latency_levels(toks, log)))
            elif kind == "x":  # a plan's experiment (lib/qrtext.h): name, status
                if len(toks) != 2 or toks[1] not in ("complete", "faulted", "skipped"):
                    raise ValueError("not NAME complete|faulted|skipped")
                x = {"index": len(log.qr_experiments) + 1, "name": toks[0], "status": toks[1], "answer": None}
                log.qr_experiments.append(x)
                log.by_kind["experiment"].append((no, {"rec": "experiment", "index": x["index"], "name": x["name"]}))
                log.by_kind["experiment_end"].append((no, {"rec": "experiment_end", "index": x["index"],
                                                           "name": x["name"], "status": x["status"]}))
            elif kind == "xa":  # its answer: a pc line's fields (method, unit, kind, figure, bound, fraction)
                if not log.qr_experiments or log.lines[no - 2][1].partition(" ")[0] != "x" or len(toks) != 6:
                    raise ValueError("not right after an x line, or not a pc line's six fields")
                num, _, den = toks[5].partition("/")
                log.qr_experiments[-1]["answer"] = {
                    "rec": "per_copy", "experiment": log.qr_experiments[-1]["name"], "method": toks[0],
                    "unit": PC_UNIT[toks[1]], "status": toks[2], "per_copy": None if toks[3] == "-" else toks[3],
                    "bound": None if toks[4] == "-" else toks[4], "num": None if toks[5] == "-" else int(num),
                    "den": None if toks[5] == "-" else int(den)}
            elif kind == "rec":
                log.by_kind["recommendation"].append((no, {"rec": "recommendation",
                                                           "method": None if rest == "none" else rest,
                                                           "reason": "(the reason is in the serial log)"}))
            elif kind == "final":
                log.final_line, log.final_line_no = rest, no
            else:
                log.note(no, f"a line of kind {kind!r}, not known to this tool: ignored")
        except (ValueError, IndexError, KeyError) as e:
            log.problem(no, f"a {kind!r} line that cannot be read ({e}): {line[:72]}")
    log.env = env if "vendor" in env else None
    cfg["methods"] = ",".join(order + [t for _, t in skips])
    cfg["workloads"] = ",".join(w for _, w, _ in workloads)
    cfg["output"] = "qr"
    log.config = cfg
    E, S = cfg.get("ensembles"), cfg.get("samples")

    def series(m, w, unit, summary, no, primary):
        s = log.get_series((m, w, unit, None, None))
        head = {"rec": "method", "method": m, "workload": w, "unit": unit, "ensembles": E, "samples": S}
        if primary and w == "empty":
            s.header, s.header_line = head, no
        else:
            s.run_header, s.run_header_line = head, no
        s.summary, s.summary_line = dict(summary, rec="summary", method=m, workload=w, unit=unit,
                                         ensembles=E), no
        return s

    for name in order:
        m = methods[name]
        for unit in UNITS:
            if unit not in m["offset"]:
                continue
            f = {"min_of_mins": m["offset"][unit], "offset": m["offset"][unit], "net_min": 0}
            if unit == m["unit"]:
                f.update(total_variance=m["total_variance"], var_of_vars=m["var_of_vars"],
                         var_of_mins=m["var_of_mins"])
            series(name, "empty", unit, f, m["no"], unit == m["unit"])
        v = m["verdict"]
        own = m["unit"]
        log.by_kind["verdict"].append((m["no"], {
            "rec": "verdict", "method": name, "unit": own, "valid": v != "unknown",
            "ergodic": v == "ergodic", "var_of_vars": m["var_of_vars"], "var_of_mins": m["var_of_mins"],
            "offset": m["offset"].get(own), "max_var_of_vars": cfg.get("max_var_of_vars"),
            "max_var_of_mins": cfg.get("max_var_of_mins")}))
    for no, w, groups in workloads:
        for mi, (name, g) in enumerate(zip(order, groups)):
            for unit, net in g.items():
                off = methods[name]["offset"].get(unit)
                f = {"net_min": net}
                flag = lows[w][mi].get(unit) if w in lows else None
                if flag:
                    f["net_min_flag"] = flag
                if off is not None:
                    f.update(offset=off, min_of_mins=net + off)
                series(name, w, unit, f, no, False)
    for no, name in skips:
        log.skips[name] = (no, whys[name] if name in whys else
                           "skipped (the reason is in the serial log; the QR code names the method only)")
        log.method(name).skip, log.method(name).skip_line = log.skips[name][1], no
        log.cpu_skips[(None, name)] = log.skips[name]
    if log.final_line:
        m = FINAL.match(log.final_line)
        end = {"rec": "end", "status": "complete" if log.final_line.startswith("bench: run complete")
               else "aborted"}
        if m:
            end.update(methods_run=int(m.group(1)), methods_skipped=int(m.group(2)),
                       ensemble_errors=int(m.group(3)), config_problems=int(m.group(4)))
        log.end, log.end_line = end, log.final_line_no
        if end["status"] != "complete":
            log.problem(log.final_line_no, f"the run did not complete: {log.final_line}")
    else:
        log.problem(None, "no 'final' line: the text is cut short")
    for what, ok in (("vendor", log.env), ("size", E is not None)):
        if not ok:
            log.problem(None, f"no '{what}' line")
    log.qr_disturbances = [(name, methods[name]["smis"], methods[name]["nmis"]) for name in order]
    log.note(None, "read from the QR code's text: the figures it carries (per method the empty "
                   "window's offset, variances and verdict; per workload the net least minimum); "
                   "ensembles, medians, max deviations and spurious minimums are in the serial log")
    return log


def from_texts(texts, path="QR code"):
    body, crc, problems = join(texts)
    return parse_body(body, path, crc, problems)


def load(paths):
    """A Log from image files and/or bench1 text files (the parts of one
    run, in any order). Raises QrError when nothing can be read."""
    if isinstance(paths, str):
        paths = [paths]
    texts = []
    for p in paths:
        if not file_kind(p):
            raise QrError(f"{p}: neither an image nor a QR code's text ('{MAGIC}...')")
        texts += read_texts(p)
    return from_texts(texts, path=", ".join(os.path.basename(p) for p in paths) if len(paths) > 1
                      else paths[0])

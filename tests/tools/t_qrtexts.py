"""tests/tools/t_qrtexts.py - `bench.py qr` over every QR text the kernel
makes (issue 29, "bench.py qr"): the texts of the boot tests' runs
(tests/golden, tests/tools/qrtexts.py) and one holding every alternative of
every line, whole and cut into two codes. No command prints Python's None:
qr, store (what qr feeds the lab database), table with every figure and
unit (CSV too); the report names one run ID, the run line's, and never
calls the text's CRC-32 a run.
"""
import os
import re

import qrtexts
from common import bench, check, workdir, write

FIGURES = ("net", "min_of_mins", "offset", "total_variance", "var_of_vars", "var_of_mins", "max_dev_all",
           "spurious", "median_of_medians", "errors", "per_copy", "verdict")
UNITS = ("tsc_ticks", "core_cycles", "instructions")


def no_none(out, what):
    lines = [l for l in out.split("\n") if re.search(r"\bNone\b", l)]
    check(not lines, f"{what}: Python's None printed: {lines[:3]}", out)


def expect_run_id(out, body, what):
    """The report's run ID is the text's run line (or 'none'), and no
    8-digit CRC is called a run."""
    rid = re.search(r"^run ([0-9a-f]{16})$", body, re.M)
    want = rid.group(1) if rid else "none"
    check(re.search(rf"^  run ID: +{want}", out, re.M), f"{what}: the run ID {want} is not the report's", out)
    called = re.findall(r"\brun (?:ID )?([0-9a-f]{8,16})\b", out)
    check(all(c == want for c in called), f"{what}: a run called {called}, the run ID is {want}", out)


def texts(d):
    """[(name, [files], body)] of every QR text written into d."""
    out = []
    for name, body in qrtexts.golden_texts() + [("every-field", qrtexts.every_field())]:
        out.append((name, [write(d, f"{name}.txt", qrtexts.whole_text(body))], body))
    body = qrtexts.every_field()
    parts = qrtexts.part_texts(body)
    out.append(("every-field-parts", [write(d, f"every-field-{i + 1}.txt", t) for i, t in enumerate(parts)],
                body))
    return out


def test_qr_every_text_no_none_one_run_id():
    """qr of each text: a valid text read (exit 0), no None, its run ID;
    the code lines' copies said (not 'None copies', 'None bytes')."""
    d = workdir("qr_texts")
    all_texts = texts(d)
    check(len(all_texts) > 20 and any("\ncode " in b for _, _, b in all_texts),
          f"{len(all_texts)} QR texts, expected the golden runs' (some with code=)")
    for name, files, body in all_texts:
        rc, out = bench("qr", *files)
        check(rc == 0 and "report: the QR code's text is valid" in out, f"{name}: exit status {rc}", out)
        no_none(out, f"qr {name}")
        expect_run_id(out, body, f"qr {name}")
        code = re.search(r"^code \S+ (\d+) ", body, re.M)
        if code:
            check(f"(2N-N over {code.group(1)} copies)" in out or "\npc " not in body,
                  f"{name}: the per-copy lines do not give the code line's {code.group(1)} copies", out)


def test_qr_texts_stored_and_tabled_without_none():
    """store of every text, then of the two parts (the same text: already
    there), then table with every figure in every unit, and as CSV: no
    None anywhere."""
    d = workdir("qr_texts_db")
    all_texts = texts(d)
    whole, parts = all_texts[:-1], all_texts[-1]
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", *[f for _, files, _ in whole for f in files], "--db", db)
    check(rc == 0 and f"store: {len(whole)} stored" in out, f"store: exit status {rc}", out)
    no_none(out, "store")
    rc, out = bench("store", *parts[1], "--db", db)
    check(rc == 0 and "store: 0 stored, 1 already there" in out, f"store of the parts: exit status {rc}", out)
    no_none(out, "store of the parts")
    for figure in FIGURES:
        for unit in UNITS:
            for csv in ((), ("--csv",)):
                rc, out = bench("table", "--db", db, "--figure", figure, "--unit", unit, *csv)
                what = f"table --figure {figure} --unit {unit} {' '.join(csv)}"
                check(rc in (0, 1), f"{what}: exit status {rc}", out)
                no_none(out, what)


def test_qr_sys_line_read_back():
    """The sys line (lib/qrtext.h: the machine's identity from SMBIOS) comes
    back as the env record's system, board and bios, an empty field as
    null; a sys line without its three fields is named as a problem."""
    import sys
    sys.path.insert(0, os.path.join(qrtexts.ROOT, "tools"))
    import benchqr
    log = benchqr.parse_body(qrtexts.every_field())
    env = log.env or {}
    check(env.get("system") == "Acme Widget 9000" and env.get("board") is None
          and env.get("bios") == "LabBIOS F12 05/10/2023", f"env from the sys line: {env}")
    bad = benchqr.parse_body(qrtexts.every_field().replace("sys Acme Widget 9000||", "sys Acme Widget 9000|"))
    check(any("sys" in str(p) for p in bad.problems), f"a sys line of two fields: problems {bad.problems}")

"""tests/tools/t_qr.py - the QR code of the results (tools/benchqr.py): a BIOS
run's screendump (tests/boot/screen.py) read by `bench.py qr`, its table
against the serial log's records; stored by `bench.py store` on the serial
log's machine, the photo and its text one run, a code with a part missing
refused.
"""
import os
import shutil
import sys

from common import BUILD, ROOT, Skip, bench, check, read, records, table_rows, workdir, write


_qr_shot = {}


def qr_shot():
    """(screendump PNG, serial log) of one BIOS run through GRUB on a 1024x768
    VESA framebuffer (tests/boot/screen.py's Machine, t_bootpaths' test ISO):
    the summary with the QR code of its results below it."""
    if _qr_shot:
        return _qr_shot["png"], _qr_shot["log"]
    if not shutil.which("zbarimg") or not shutil.which("grub-mkrescue"):
        raise Skip("zbarimg (zbar-tools) or grub-mkrescue (grub-common) is not installed")
    sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
    os.environ["BENCH_BUILD"] = BUILD
    from screen import HALTED, Machine  # noqa: E402
    from t_bootpaths import grub_test_iso  # noqa: E402
    iso = grub_test_iso("tools-qr", "\tmultiboot2 /boot/bench.elf ensembles=6 samples=300 warmup=50\n"
                                    "\tset gfxpayload=1024x768x32")
    with Machine("tools-qr", machine="bios-cdrom", image=iso) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        _qr_shot["screen"] = m.framebuffer_text()
        text = m.serial_text()
    d = workdir("qr_shot")
    _qr_shot["png"] = shutil.copy(m.files + ".png", os.path.join(d, "screen.png"))
    _qr_shot["log"] = write(d, "serial.log", text)
    return _qr_shot["png"], _qr_shot["log"]


def test_qr_photo_report_matches_serial_log():
    """bench.py qr on a screendump: the report's statistics table holds, for
    every series the code carries, the serial log's figures (min of mins,
    net, and the empty window's variances), and is the serial report's
    table where the code carries a figure ('-' where it does not); the
    joined text (--text) read back gives the same report."""
    png, log = qr_shot()
    d = workdir("qr_report")
    txt = os.path.join(d, "code.txt")
    rc, out = bench("qr", png, "--text", txt)
    check(rc == 0 and "report: the QR code's text is valid" in out, f"exit status {rc}", out)
    rows = table_rows(out)
    rc, serial = bench("report", log, "--no-figures")
    srows = table_rows(serial)
    sums = records(log, "summary")
    check(rows and len(rows) == len([s for s in sums if s["unit"] == "tsc_ticks"]),
          f"{len(rows)} rows from the code, {len(sums)} summary records", out)
    for s in sums:
        cells = rows[(s["method"], s["workload"])]
        want = [str(s["min_of_mins"]), "-" if s["workload"] == "empty" else str(s["net_min"])]
        if s["workload"] == "empty":
            want += ["n/a" if s[k] is None else str(s[k])
                     for k in ("total_variance", "var_of_vars", "var_of_mins")]
        else:
            want += ["-", "-", "-"]
        check(cells[5:10] == want, f"{s['method']}/{s['workload']}: {cells[5:10]} from the code, the "
              f"summary record gives {want}", out)
        scells = srows[(s["method"], s["workload"])]
        check([c for c, q in zip(scells[2:], cells[2:]) if q != "-"] == [c for c in cells[2:] if c != "-"],
              f"{s['method']}/{s['workload']}: the code's row {cells} is not the serial report's {scells}", out)
    for v in records(log, "verdict"):
        state = "UNKNOWN" if not v["valid"] else "ergodic" if v["ergodic"] else "NOT ergodic"
        # every figure is exact (lib/wide.h); null only where one is missing
        vv = "n/a" if v["var_of_vars"] is None else f"{v['var_of_vars']} TSC ticks^4"
        check(f"  {v['method']}: {state}: variance of variances {vv} (limit "
              f"{v['max_var_of_vars']} TSC ticks^4)" in out, f"no verdict line for {v['method']}", out)
    final = [l for l in read(log).decode().splitlines() if l.startswith("bench: run complete")][-1]
    check(f"final line:     {final}" in out, "not the serial log's final line", out)
    rc, again = bench("qr", txt)
    check(rc == 0 and table_rows(again) == rows, "the code's text read back gives another table", again)


def test_qr_store_photo_and_text():
    """store accepts the screendump: the run is stored with the figures the
    code carries; the same run's serial log is merged into it (one run,
    tests/tools/t_runid.py); the photo again, or its text, is the same run;
    a text whose other part is missing is refused with nothing stored."""
    png, log = qr_shot()
    d = workdir("qr_store")
    db = os.path.join(d, "lab.sqlite")
    rc, out = bench("store", png, "--db", db)
    check(rc == 0 and "stored as run R1 'screen' (QR code photo)" in out and "a new machine M1" in out,
          "the photo is not stored", out)
    rc, out = bench("store", log, "--db", db)
    check(rc == 0 and "as run R1 'screen' on machine M1: merged into it (serial log)" in out,
          "the serial log of the same run is not merged into the photo's run", out)
    rc, text = bench("qr", png, "--text", os.path.join(d, "code.txt"))
    rc, out = bench("store", png, os.path.join(d, "code.txt"), "--db", db)
    check(rc == 0 and out.count("already stored as run R1") == 1, "the photo and its text again: not "
          "recognised as run R1 (one run, its codes joined)", out)
    body = read(os.path.join(d, "code.txt")).decode()
    half = write(d, "half.txt", "bench1 1/2 0123abcd\n" + body)
    data = read(db)
    rc, out = bench("store", half, "--db", db)
    check(rc == 1 and "code 2/2 missing" in out and read(db) == data,
          "a code whose second part is missing is not refused", out)


def test_qr_text_tsc_step_and_flags():
    """A QR text's tstep and low lines (lib/qrtext.c) become the tsc_step
    record and the flags of the nets they follow; a low line that does not
    follow its workload's w line is a problem, not a silent guess."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr  # noqa: E402
    head = ("vendor GenuineIntel\nbrand -\ncpu 6 1 2 -\nhv none\ntsc 1000000000 5 pit\ntstep 5 sure\n"
            "size 3 50 10\nlimits 1 1\nm rdtscp t 35 0 0 0 ergodic na 0\nm cr0 t 40 0 0 0 ergodic na 0\n")
    tail = "rec rdtscp\nfinal bench: run complete\n"
    log = benchqr.parse_body(head + "w add_chain_64 -5 3\nlow add_chain_64 z r\n" + tail)
    check(not log.problems, f"problems: {log.problems}")
    check([r for _, r in log.by_kind["tsc_step"]] == [{"rec": "tsc_step", "step": 5, "sure": True}],
          f"tsc_step: {log.by_kind['tsc_step']}")
    flags = {k[0]: s.summary.get("net_min_flag") for k, s in log.series.items() if k[1] == "add_chain_64"}
    check(flags == {"rdtscp": "below_zero", "cr0": "below_resolution"}, f"flags {flags}")
    bad = benchqr.parse_body(head + "w add_chain_64 -5 3\nlow measured_function z r\n" + tail)
    check(any("low" in p.text for p in bad.problems), f"a misplaced low line is not a problem: {bad.problems}")


def test_qr_text_methods_compared():
    """A QR text's pa lines (lib/qrtext.c; issue 29 item 2) become
    per_copy_agreement records as the kernel's (docs/RECORDS.md): the code
    line's workload, the methods of the unit's pc lines with a figure, agree,
    the disagreeing pairs with their gaps, the trusted method (null for '-');
    a pa line of another form is a problem (failed before: 'a line of kind
    'pa', not known to this tool: ignored')."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr  # noqa: E402
    head = ("vendor GenuineIntel\nbrand -\ncpu 6 1 2 -\nhv none\ntsc 1000000000 5 pit\ntstep 21 sure\n"
            "size 3 50 10\nlimits 1 1\nm cpuid t 42 0 0 0 ergodic na 0\nm rdtscp t 21 0 0 0 ergodic na 0\n"
            "w imul 0 189\ncode imul 100 100 0\n"
            "pc cpuid t below_resolution 0.000 0.400 0/1\npc rdtscp t figure 1.890 0.400 189/100\n"
            "pc cpuid i wrapped - - -\n")
    tail = "rec rdtscp\nfinal bench: run complete\n"
    log = benchqr.parse_body(head + "pa t no rdtscp cpuid:rdtscp:1.070\npa i yes -\n" + tail)
    check(not log.problems, f"problems: {log.problems}")
    got = [r for _, r in log.by_kind["per_copy_agreement"]]
    check(len(got) == 2, f"{len(got)} per_copy_agreement records: {got}")
    t, i = got
    check({k: t[k] for k in ("rec", "workload", "unit", "methods", "agree", "disagree", "trusted")} ==
          {"rec": "per_copy_agreement", "workload": "imul", "unit": "tsc_ticks", "methods": ["cpuid", "rdtscp"],
           "agree": False, "disagree": [{"a": "cpuid", "b": "rdtscp", "gap": "1.070"}], "trusted": "rdtscp"}
          and t["why"], f"the TSC ticks' record: {t}")
    check(i["unit"] == "instructions" and i["methods"] == [] and i["agree"] and i["trusted"] is None
          and i["disagree"] == [], f"the instructions' record: {i}")
    bad = benchqr.parse_body(head + "pa t maybe rdtscp\npa t no rdtscp cpuid-rdtscp\n" + tail)
    check(len([p for p in bad.problems if "'pa'" in p.text]) == 2, f"malformed pa lines: {bad.problems}")


def qr_body(lines):
    """tools/benchqr.py's log of a QR text: a run's head (one method), lines,
    then the rec and final lines."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchqr  # noqa: E402
    return benchqr.parse_body("vendor GenuineIntel\nbrand -\ncpu 6 1 2 -\nhv none\ntsc 2500000000 5 pit\n"
                              "size 3 50 10\nlimits 1 1\nm rdtscp t 35 0 0 0 ergodic na 0\n" + lines +
                              "rec rdtscp\nfinal bench: run complete\n")


def test_qr_text_latency_levels():
    """A QR text's lat lines (lib/qrtext.c; issue 31 item 5) become
    latency_levels records as the kernel's (docs/RECORDS.md): the unit, each
    level's name, CPUID size, edge (null for '-'), figure per load and, in
    TSC ticks, ns at the tsc line's rate; 'none' an empty list with a why;
    a lat line of another form is a problem (failed before: 'a line of kind
    'lat', not known to this tool: ignored')."""
    log = qr_body("lat t L1d:49152:49152:5.000 L3:31457280:-:52.300 DRAM:-:-:227.500\nlat c none\n")
    check(not log.problems, f"problems: {log.problems}")
    got = [r for _, r in log.by_kind["latency_levels"]]
    check(len(got) == 2, f"{len(got)} latency_levels records: {got}")
    t, c = got
    check(t == {"rec": "latency_levels", "unit": "tsc_ticks", "why": None, "levels": [
        {"name": "L1d", "cpuid_bytes": 49152, "edge_bytes": 49152, "per_load": "5.000", "ns": "2.000"},
        {"name": "L3", "cpuid_bytes": 31457280, "edge_bytes": None, "per_load": "52.300", "ns": "20.920"},
        {"name": "DRAM", "cpuid_bytes": None, "edge_bytes": None, "per_load": "227.500", "ns": "91.000"}]},
        f"the TSC ticks' record: {t}")
    check(c["unit"] == "core_cycles" and c["levels"] == [] and c["why"], f"the core cycles' record: {c}")
    bad = qr_body("lat t L9:1:1:1.000\nlat t L1d:1:1\n")
    check(len([p for p in bad.problems if "'lat'" in p.text]) == 2, f"malformed lat lines: {bad.problems}")


def test_qr_text_plan_experiments():
    """A plan run's QR text (lib/qrtext.c; issue 32): each x line an
    experiment with its status, in order, its xa line its answer as a per_copy
    dict naming it; an xa line not right after an x line, or an x line with
    another status, is a problem (failed before: 'a line of kind 'x', not
    known to this tool: ignored')."""
    log = qr_body("x imul_lat complete\nxa rdtscp t exact 1.000 - 1/1\nx ud faulted\n"
                  "x chase complete\nxa rdtscp t figure 2.210 0.070 221/100\nx big skipped\n")
    check(not log.problems, f"problems: {log.problems}")
    got = [(x["index"], x["name"], x["status"]) for x in log.qr_experiments]
    check(got == [(1, "imul_lat", "complete"), (2, "ud", "faulted"), (3, "chase", "complete"), (4, "big", "skipped")],
          f"experiments {got}")
    a = [x["answer"] for x in log.qr_experiments]
    check(a[0] == {"rec": "per_copy", "experiment": "imul_lat", "method": "rdtscp", "unit": "tsc_ticks",
                   "status": "exact", "per_copy": "1.000", "bound": None, "num": 1, "den": 1}, f"imul_lat's {a[0]}")
    check(a[1] is None and a[3] is None and a[2]["bound"] == "0.070" and a[2]["num"] == 221,
          f"the other answers {a[1:]}")
    check([r["status"] for _, r in log.by_kind["experiment_end"]] == ["complete", "faulted", "complete", "skipped"],
          "experiment_end records")
    bad = qr_body("xa rdtscp t exact 1.000 - 1/1\nx a done\n")
    check(len([p for p in bad.problems if "'x" in p.text]) == 2, f"malformed x and xa lines: {bad.problems}")


def test_log_agreement_checked():
    """tools/benchlog checks a per_copy_agreement record against the per_copy
    records of its unit (tools/benchlog/checks.py): a record that says the
    methods agree while their intervals are apart is a problem at its line."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import benchlog  # noqa: E402
    pcs = ['{"rec":"per_copy","method":"cpuid","workload":"imul","unit":"tsc_ticks","copies":100,'
           '"least_min_n":4200,"least_min_2n":4200,"num":0,"den":1,"per_copy":"0.000",'
           '"status":"below_resolution","spread":0,"bound":"0.400","step":21}',
           '{"rec":"per_copy","method":"rdtscp","workload":"imul","unit":"tsc_ticks","copies":100,'
           '"least_min_n":4200,"least_min_2n":4389,"num":189,"den":100,"per_copy":"1.890",'
           '"status":"figure","spread":2,"bound":"0.420","step":21}']
    ok = ('{"rec":"per_copy_agreement","workload":"imul","unit":"tsc_ticks","methods":["cpuid","rdtscp"],'
          '"agree":false,"disagree":[{"a":"cpuid","b":"rdtscp","gap":"1.070"}],"trusted":"rdtscp","why":"x"}')
    wrong = ok.replace('"agree":false,"disagree":[{"a":"cpuid","b":"rdtscp","gap":"1.070"}]',
                       '"agree":true,"disagree":[]')
    for rec, want in ((ok, 0), (wrong, 1)):
        text = "\n".join(["BEGIN bench-records v1"] + pcs + [rec, "END bench-records"]) + "\n"
        log = benchlog.parse(text)
        probs = [p for p in log.problems if "per_copy_agreement" in p.text]
        check(len(probs) == want, f"{'a wrong' if want else 'a right'} agreement record: {probs}")

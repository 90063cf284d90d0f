"""tests/boot/t_answer.py - your own code's answer where a lab user looks
(issue 21 items 1-4, 17): code='s per-copy figure per method and unit, or
where the code faulted, is a "your code" section of the final tables, of
the end screen and of the QR text, counted in the final line and the end
record; `make run CODE=...` ends with it and exits 1 when the code
faulted; workloads=none measures the code alone; a per-copy figure says
"exactly" only where every spread is 0 and the clock's step 1
(lib/percopy.h; issue 29 item 1), and a least minimum that wrapped gives
no figure; the methods' figures are compared per unit (issue 29 item 2:
the per_copy agreement line and record, a line in each section, a pa line
in the QR text). Exact figures only under -icount (shift=0: one tick an
instruction; shift=1: the TSC moves in steps of 2); under TCG only what
the records themselves make sure (the spreads, the step)."""
import os
import re
import shutil

import builds
from qemu import BUILD, ROOT, check, expect_complete, qemu
from screen import HALTED, Machine, symbol_address
from t_bootpaths import expect_complete_halted, expect_screen_summary, fb_cols, grub_iso
from t_qr import join_parts, screen_codes

SMALL = "ensembles=3 samples=40 warmup=5"
IMUL = "480fafc0"  # imul rax, rax
UNIT_LETTER = {"tsc_ticks": "t", "core_cycles": "c", "instructions": "i"}
UNIT_NAME = {"tsc_ticks": "TSC ticks", "core_cycles": "core cycles", "instructions": "instructions"}


def cell(pc):
    """The per-copy cell of the tables and the screen for a per_copy record
    (bench/coderesult.h code_per_copy_text)."""
    s = pc["status"]
    return {"exact": f"{pc['per_copy']} exactly", "figure": f"{pc['per_copy']} +-{pc['bound']}",
            "below_resolution": f"below resolution (<= {pc['bound']})",
            "below_zero": f"{pc['per_copy']} below zero", "wrapped": "wrapped: no figure"}[s]


def section(run):
    """The final tables' 'your code' section: its lines, up to the end record."""
    lines = run.lines
    heads = [i for i, l in enumerate(lines) if l.startswith("your code: ")]
    check(len(heads) == 1, f"{len(heads)} 'your code:' sections in the final tables", run.text)
    out = []
    for l in lines[heads[0]:]:
        if l.startswith(("{", "END ")) or not l:
            break
        out.append(l)
    return out


def expect_section_is_records(run, what):
    """Every per_copy record and code fault is a row of the section."""
    rows = section(run)
    for pc in run.by("per_copy"):
        unit = {"tsc_ticks": "TSC ticks", "core_cycles": "core cycles", "instructions": "instructions"}[pc["unit"]]
        want = f"{pc['method']:<14} {unit:<13}"
        hit = [r for r in rows if r.startswith(want)]
        check(len(hit) == 1 and hit[0].endswith("  " + cell(pc)),
              f"{what}: the section's row of {pc['method']} in {unit}: {hit}, expected ...{cell(pc)!r}", run.text)
    return rows


def interval(pc):
    """A per_copy record's interval (low, high) over its copies, in the unit:
    2N-N -+ (spread + 2 (step - 1)) (lib/percopy.h)."""
    d = pc["least_min_2n"] - pc["least_min_n"]
    b = pc["spread"] + 2 * (pc["step"] - 1)
    return d - b, d + b


def expect_agreement(run, what):
    """Per unit of the per_copy records: one 'per_copy agreement UNIT:' line
    and one per_copy_agreement record (docs/RECORDS.md) whose methods are
    those with a figure, whose disagreeing pairs are exactly those whose
    intervals (recomputed from the per_copy records' integers) do not
    overlap, with the gap per copy in thousandths rounded up, and which
    trusts the recommended method where it has a figure; a line 'agreement
    in UNIT: ...' in the final tables' section."""
    rec = run.one("recommendation")["method"]
    rows = section(run)
    for unit in sorted({pc["unit"] for pc in run.by("per_copy")}):
        pcs = {pc["method"]: pc for pc in run.by("per_copy", unit=unit) if pc["status"] != "wrapped"}
        ags = run.by("per_copy_agreement", unit=unit)
        check(len(ags) == 1, f"{what}: {len(ags)} per_copy_agreement records in {unit}", run.text)
        ag = ags[0]
        check(sorted(ag["methods"]) == sorted(pcs), f"{what}: methods {ag['methods']} vs {sorted(pcs)}", run.text)
        apart = {}
        names = list(pcs)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                (alo, ahi), (blo, bhi) = interval(pcs[a]), interval(pcs[b])
                c = pcs[a]["copies"]
                if ahi < blo:
                    apart[(a, b)] = blo - ahi
                elif bhi < alo:
                    apart[(b, a)] = alo - bhi
                else:
                    continue
        want = {k: f"{-(-g * 1000 // c) // 1000}.{-(-g * 1000 // c) % 1000:03d}" for k, g in apart.items()}
        got = {(d["a"], d["b"]): d["gap"] for d in ag["disagree"]}
        check(got == want and ag["agree"] == (not want), f"{what}: {unit}: agree {ag['agree']}, pairs {got}; "
              f"the per_copy records' intervals give {want}", run.text)
        check(ag["trusted"] == (rec if rec in pcs else None) and ag["why"], f"{what}: trusted {ag['trusted']}, "
              f"recommended {rec}", run.text)
        lines = [l for l in run.lines if l.startswith(f"per_copy agreement {unit}: ")]
        check(len(lines) == 1, f"{what}: {len(lines)} 'per_copy agreement {unit}' lines", run.text)
        say = "DISAGREE" if want else ("agree" if len(pcs) > 1 else "")
        check(say in lines[0] and (ag["trusted"] is None or f"trusts {ag['trusted']}: " in lines[0]),
              f"{what}: {lines[0]}", run.text)
        name = UNIT_NAME[unit]
        mine = [r for r in rows if r.startswith(f"agreement in {name}: ")]
        check(len(mine) == 1 and say in mine[0] and mine[0].endswith(f"; trusted: {ag['trusted'] or 'none'}"),
              f"{what}: the section's agreement line in {name}: {mine}", "\n".join(rows))


def test_answer_icount_exact_and_workloads_none():
    """icount, the IMUL chain with workloads=none: only the empty windows and
    the code run; the section says 1.000 exactly per copy for each method,
    last of the tables, with N and unroll; no config problem."""
    rc, text = qemu("answer-imul-icount", "icount", f"{SMALL} workloads=none code={IMUL} unroll=100 code.name=imul")
    run = expect_complete(rc, text)
    check(run.one("config")["workloads"] == "none" and run.one("end")["config_problems"] == 0,
          f"workloads=none refused: {run.one('config')}", text)
    ran = {r["workload"] for r in run.by("summary")}
    check(ran == {"empty", "imul", "imul.2n"}, f"workloads measured with workloads=none: {sorted(ran)}", text)
    pcs = run.by("per_copy")
    check(pcs, "no per_copy record", text)
    for pc in pcs:
        check(pc["status"] == "exact" and pc["spread"] == 0 and pc["step"] == 1 and pc["per_copy"] == "1.000"
              and (pc["num"], pc["den"]) == (1, 1), f"{pc['method']}: under -icount {pc}", text)
    expect_agreement(run, "icount")
    check(all(a["agree"] for a in run.by("per_copy_agreement")), "icount: equal exact figures disagree", text)
    rows = expect_section_is_records(run, "icount")
    check(rows[0].startswith("your code: workload imul, N = 100 copies (unroll=100), 2N = 200"),
          f"section header {rows[0]!r}", text)
    check(run.one("end")["code_faults"] == 0, "end record: code_faults", text)
    after = run.lines[run.lines.index(rows[-1]) + 1:]
    check(not any(l.startswith(("net (least min)", "summary table", "tsc step")) for l in after),
          "the section is not the last of the final tables", text)


def expect_never_exact_beyond_the_clock(run, what):
    """Every per_copy record: "exact" exactly where its bound is 0 (spreads
    0 and step 1), else the status its 2N-N difference and bound give; its
    step a multiple of the tsc_step record's (the gcd only falls as the run
    goes on), so no figure is exact while that record says a step above 1;
    the line says "exactly" only for an exact figure."""
    step = run.by("tsc_step")
    final = step[0]["step"] if step else 1
    for pc in run.by("per_copy"):
        m, u = pc["method"], pc["unit"]
        line = [l for l in run.lines if l.startswith(f"per_copy {m}/{pc['workload']}: ") and f" {UNIT_NAME[u]} " in l]
        if u == "tsc_ticks":
            check(pc["step"] >= 1 and pc["step"] % final == 0,
                  f"{what}: {m}: step {pc['step']} is not a multiple of the TSC's step {final}", run.text)
        else:
            check(pc["step"] == 1, f"{what}: {m} in {u}: a counter's step is 1, not {pc['step']}", run.text)
        bound = pc["spread"] + 2 * (pc["step"] - 1)
        diff = abs(pc["least_min_2n"] - pc["least_min_n"])
        want = "exact" if not bound else "below_resolution" if diff <= bound else \
            "below_zero" if pc["least_min_2n"] < pc["least_min_n"] else "figure"
        check(pc["status"] == want, f"{what}: {m}: 2N-N {diff} with a spread of {pc['spread']} and a step of "
              f"{pc['step']}: {pc['status']}, expected {want}", run.text)
        if final > 1:
            check(pc["status"] != "exact", f"{what}: {m}: exact though the TSC moves in steps of {final}", run.text)
        check(not line or (" exactly " in line[0]) == (want == "exact"), f"{what}: {m}: {line[0]}", run.text)
        if want == "below_resolution" and line:
            check(line[0].startswith(f"per_copy {m}/{pc['workload']}: below resolution: at most "),
                  f"{what}: {m}: {line[0]}", run.text)


def test_answer_tcg_never_exact_with_a_spread():
    """TCG, the README's example (code='imul rax, rax' unroll=100; issue 21
    item 4 and issue 29 item 1: cpuid "0.000 per copy, exactly 0" beside
    rdtscp's 2.210, and beside "the TSC moves in steps of 21 ticks"): a
    figure is "exact" only where the three windows' minimums did not spread
    and the TSC's step is 1; a difference inside the bound (spreads + 2 x
    (step - 1)) is "below resolution" with its bound; the methods' figures
    compared (issue 29 item 2). The host's clock sets TCG's TSC step: the
    test checks the rule on whatever step the run shows."""
    rc, text = qemu("answer-imul-tcg", "q35-tcg", f"ensembles=5 samples=200 warmup=20 workloads=none "
                                                  f"code={IMUL} unroll=100 code.name=imul")
    run = expect_complete(rc, text)
    check(run.by("per_copy"), "no per_copy record", text)
    for pc in run.by("per_copy"):
        spread = any(r["var_of_mins"] != 0 for r in run.by("summary", method=pc["method"], unit=pc["unit"])
                     if r["workload"] in ("empty", "imul", "imul.2n"))
        check(not spread or pc["spread"], f"{pc['method']}: the minimums spread, yet spread 0: {pc}", text)
    expect_never_exact_beyond_the_clock(run, "TCG")
    expect_section_is_records(run, "TCG")
    expect_agreement(run, "TCG")


def test_answer_stepped_tsc_never_exact():
    """-icount shift=1 (two TSC ticks an instruction: the TSC moves in steps
    of 2, deterministically), the IMUL chain: each method's 2N-N is 200
    ticks over 100 copies with no spread, which a clock of single ticks
    would make "2.000 exactly"; here every figure is 2.000 +- 2 x (2 - 1)
    / 100 = 0.020, the line names the step, the tsc_step record says 2,
    and the methods agree (issue 29 items 1 and 2; failed before: "2.000
    TSC ticks per copy, exactly 2")."""
    rc, text = qemu("answer-imul-step2", "q35-tcg", f"{SMALL} workloads=none code={IMUL} unroll=100 code.name=imul",
                    extra=["-icount", "shift=1,align=off,sleep=off"])
    run = expect_complete(rc, text)
    check(run.one("tsc_step")["step"] == 2, f"-icount shift=1: {run.one('tsc_step')}", text)
    pcs = run.by("per_copy")
    check(pcs, "no per_copy record", text)
    for pc in pcs:
        check(pc["status"] == "figure" and pc["per_copy"] == "2.000" and pc["step"] == 2 and pc["spread"] == 0
              and pc["bound"] == "0.020",
              f"{pc['method']}: a stepped TSC: {pc}", text)
        line = [l for l in run.lines if l.startswith(f"per_copy {pc['method']}/imul: ")]
        check(line and line[0].startswith(f"per_copy {pc['method']}/imul: 2.000 TSC ticks per copy, +- ")
              and f"for a TSC whose every figure is a multiple of {pc['step']}: " in line[0],
              f"{pc['method']}: {line}", text)
    expect_never_exact_beyond_the_clock(run, "step 2")
    expect_section_is_records(run, "step 2")
    expect_agreement(run, "step 2")
    check(all(a["agree"] for a in run.by("per_copy_agreement")), "step 2: equal figures disagree", text)


def expect_faulted(run, vector, copies_say, what):
    """Every method that ran has a FAULT row naming the vector and where,
    the end record and the final line count them."""
    ran = [r["method"] for r in run.by("verdict")]
    faults = run.by("code_fault")
    check(sorted(f["method"] for f in faults) == sorted(ran), f"{what}: faults {faults}", run.text)
    rows = section(run)
    for m in ran:
        want = f"{m:<14} FAULT {vector} at {copies_say}: no figure"
        check(want in rows, f"{what}: no row {want!r} in the section", "\n".join(rows))
    check(run.one("end")["code_faults"] == len(ran), f"{what}: end record {run.one('end')}", run.text)
    n = len(ran)
    check(f", your code FAULTED under {n} method{'s' if n != 1 else ''} (exit code 0x10)" in run.final_line(),
          f"{what}: the final line does not count the faults: {run.final_line()}", run.text)
    check(not run.by("per_copy"), f"{what}: a per-copy figure of faulted code", run.text)


def test_answer_faulted_code_is_a_row():
    """ud2 (code=0f0b, icount) and vaddps ymm0, ymm1, ymm2 (c5f458c2) on a
    CPU without AVX (Nehalem): a FAULT row per method in the section, the
    end record's code_faults and the final line count them; exit 33."""
    rc, text = qemu("answer-ud2", "icount", f"{SMALL} workloads=none code=0f0b")
    expect_faulted(expect_complete(rc, text), "#UD", "byte 0 of copy 1", "ud2")
    rc, text = qemu("answer-vaddps", "icount", f"{SMALL} workloads=none code=c5f458c2 unroll=4", cpu="Nehalem")
    run = expect_complete(rc, text)
    check(run.has_line("code "), "no code line", text)
    expect_faulted(run, "#UD", "byte 0 of copy 1", "vaddps without AVX")


def test_answer_wrapped_minimum_is_no_figure():
    """Issue 21 item 17: code that moves the window's start reading (it
    writes 2^62 over bench_w0, the start TSC the sequences keep) makes
    every sample a difference that wrapped: no per-copy figure (or, once
    the code cannot reach that memory, a fault), never a number of 10^16
    TSC ticks."""
    w0 = symbol_address(os.path.join(BUILD, "bench.elf"), "bench_w0")
    check(w0 < 1 << 31, f"bench_w0 at 0x{w0:x}: not reachable by a disp32")
    code = "48b8" + (1 << 62).to_bytes(8, "little").hex() + "48890425" + w0.to_bytes(4, "little").hex()
    rc, text = qemu("answer-wrap", "icount", f"{SMALL} workloads=none methods=cpuid,rdtscp code={code}")
    run = expect_complete(rc, text)
    check(not any(re.search(r"\d{10,}\.\d{3} TSC ticks per copy", l) for l in run.lines),
          "a forged figure per copy", text)
    for pc in run.by("per_copy"):
        check(pc.get("status") == "wrapped" and pc["per_copy"] is None, f"{pc['method']}: {pc}", text)
        line = [l for l in run.lines if l.startswith(f"per_copy {pc['method']}/code: ")]
        check(line and line[0].startswith(f"per_copy {pc['method']}/code: not a figure: "), f"{line}", text)
    check(run.by("per_copy") or run.by("code_fault"), "neither a per_copy record nor a fault", text)
    expect_section_is_records(run, "wrapped")


def test_answer_make_run():
    """make run CODE='imul rax, rax' UNROLL=100 ends with the section (the
    per-copy figures last) and exits 0; CODE='ud2' ends with the FAULT row
    and exits non-zero though QEMU's status is 33."""
    args = "ARGS=ensembles=3 samples=100 warmup=10 workloads=none methods=cpuid,rdtscp"
    p = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-answer-1.log",
                     "CODE=imul rax, rax", "UNROLL=100", args],
                    capture_output=True, text=True, timeout=400)
    out = (p.stdout + p.stderr).replace("\r", "").rstrip("\n").split("\n")
    check(p.returncode == 0, f"make run failed ({p.returncode})", "\n".join(out[-30:]))
    head = [i for i, l in enumerate(out) if l.startswith("make run: run complete (log: ")]
    check(head and out[head[-1] + 1].startswith("your code: workload code, N = 100 copies"),
          "make run does not end with the section", "\n".join(out[-12:]))
    tail = [l for l in out[head[-1] + 3:] if not l.startswith("(net N: ")]  # the net N's flags, when any
    check([l.split()[0] for l in tail[:-1]] == ["cpuid", "rdtscp"] and all(" per copy" not in l for l in tail)
          and tail[-1].startswith("agreement in TSC ticks: "),
          f"the last lines are not the per-copy rows and the methods' agreement: {tail}", "\n".join(out[-12:]))
    p = builds.make(["--no-print-directory", "run", f"RUN_LOG={BUILD}/logs/run-answer-2.log", "CODE=ud2", args],
                    capture_output=True, text=True,
                    timeout=400)
    out = (p.stdout + p.stderr).replace("\r", "")
    check(p.returncode != 0, "make run exits 0 though the code faulted", out[-2000:])
    check("cpuid          FAULT #UD at byte 0 of copy 1: no figure" in out
          and "make run: your code faulted (the FAULT rows above; QEMU exit status 33)" in out,
          "make run: no FAULT row or no faulted line", out[-2000:])


def own_code_iso():
    """The shipped iso/grub.cfg with its 'your own code' entry the default and
    no menu delay: that entry as a user boots it."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    entries = re.findall(r'^menuentry "([^"]*)"', cfg, re.M)
    own = [i for i, e in enumerate(entries) if "your own code" in e]
    check(len(own) == 1, f"iso/grub.cfg: {len(own)} 'your own code' entries")
    cfg = re.sub(r"^set default=\d+", f"set default={own[0]}", cfg, flags=re.M)
    cfg = re.sub(r"^set timeout=\d+", "set timeout=0", cfg, flags=re.M)
    return grub_iso("answer-own-code", cfg)


def screen_rows(lines):
    """The screen's 'your code' section: its header and its method rows."""
    shown = [l.rstrip() for l in lines]
    heads = [i for i, l in enumerate(shown) if l.startswith("your code ")]
    check(len(heads) == 1, f"{len(heads)} 'your code' sections on the screen", "\n".join(shown))
    rows = []
    for l in shown[heads[0] + 1:]:
        if l.startswith(("net of the offset", "bench: run ")) or not l:
            break
        rows.append(l)
    return shown[heads[0]], rows


def test_answer_iso_own_code_entry_screen_and_qr():
    """The ISO's own-code entry (BIOS, GRUB, VESA framebuffer): the end
    screen has the section (a row per method: the net and the per-copy
    cell of its records) and the QR text its code and pc lines, the
    figures the records'."""
    if not shutil.which("zbarimg"):
        check(False, "zbarimg is not installed (Debian package zbar-tools)")
    iso = own_code_iso()
    with Machine("answer-own-code", machine="bios-cdrom", image=iso) as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        lines, codes = screen_codes(m, "halted")
        text = m.serial_text()
    run = expect_complete_halted(text)
    code = run.one("code")
    check(code["workload"] == "imul_latency" and code["unroll"] == 100, f"the entry's code: {code}", text)
    # the section's rows leave fewer for the workloads: t_bootpaths' reader
    # stops at the rows' end, not at the "... and N more" line
    expect_screen_summary([l for l in lines if not l.startswith("... and ")], "own-code entry", run,
                          fb_cols(lines, run))
    head, rows = screen_rows(lines)
    joined = []  # a row too long for the screen continues on the next, indented by two (bench/screen.c)
    for r in rows:
        if r.startswith("  ") and joined:
            joined[-1] += " " + r.strip()
        else:
            joined.append(r)
    check(head.startswith("your code imul_latency: N = 100 copies (unroll=100 loops=0)"), f"{head!r}",
          "\n".join(lines))
    for pc in run.by("per_copy", unit="tsc_ticks"):
        su = run.one("summary", method=pc["method"], workload="imul_latency", unit="tsc_ticks")
        net = f"{su['net_min']}" + {"below_zero": "!", "below_resolution": "~"}.get(su.get("net_min_flag"), "")
        want = f"{pc['method']:<13} {net:>10} {'TSC ticks':<11} {cell(pc)}"
        check(want in joined, f"screen: no row {want!r}", "\n".join(lines))
    check(len(codes) == 1, f"{len(codes)} QR codes on the screen", "\n".join(lines))
    body, _ = join_parts(codes)
    got = body.split("\n")
    check("code imul_latency 100 100 0" in got, "QR text: no code line", body)
    for pc in run.by("per_copy"):
        want = (f"pc {pc['method']} {UNIT_LETTER[pc['unit']]} {pc['status']} {pc['per_copy'] or '-'} "
                f"{pc['bound'] or '-'} " + (f"{pc['num']}/{pc['den']}" if pc["per_copy"] else "-"))
        check(want in got, f"QR text: no line {want!r}", body)
    for ag in run.by("per_copy_agreement"):
        want = (f"pa {UNIT_LETTER[ag['unit']]} {'yes' if ag['agree'] else 'no'} {ag['trusted'] or '-'}"
                + "".join(f" {d['a']}:{d['b']}:{d['gap']}" for d in ag["disagree"]))
        check(want in got, f"QR text: no line {want!r}", body)
    check(any(r.startswith("agreement in TSC ticks: ") for r in joined), "screen: no agreement line",
          "\n".join(lines))


def test_answer_iso_faulted_code_screen_and_qr():
    """vaddps ymm (c5f458c2) without AVX (Nehalem) through GRUB on the VESA
    framebuffer: FAULT rows on the screen, cf lines in the QR text, the
    final line on the screen counting the faults."""
    iso = grub_iso("answer-fault", "set timeout=0\ninsmod vbe\nmenuentry fault {\n"
                   "\tmultiboot2 /boot/bench.elf ensembles=3 samples=50 warmup=10 workloads=none "
                   "code=c5f458c2 code.name=vaddps\n\tset gfxpayload=1024x768x32\n\tboot\n}\n")
    with Machine("answer-fault", machine="bios-cdrom", image=iso, cpu="Nehalem") as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        lines, codes = screen_codes(m, "halted")
        text = m.serial_text()
    run = expect_complete_halted(text)
    ran = [r["method"] for r in run.by("verdict")]
    check(ran and len(run.by("code_fault")) == len(ran), f"faults {run.by('code_fault')}", text)
    _, rows = screen_rows(lines)
    for m_ in ran:
        want = f"{m_:<13} FAULT #UD at byte 0 of copy 1"
        check(want in rows, f"screen: no row {want!r}", "\n".join(lines))
    screen = "".join(l.replace(" ", "") for l in lines)  # the final line wraps at 80 columns
    check(f"yourcodeFAULTEDunder{len(ran)}method" in screen, "screen: the final line does not count the "
          "faults", "\n".join(lines))
    check(len(codes) == 1, f"{len(codes)} QR codes on the screen", "\n".join(lines))
    body, _ = join_parts(codes)
    for m_ in ran:
        check(f"cf {m_} #UD code 0 1" in body.split("\n"), f"QR text: no cf line for {m_}", body)

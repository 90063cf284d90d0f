"""tests/boot/t_clocks.py - every reference clock (issue "Real machines",
item 2; kernel/clocks.c, lib/tscfreq.c): the TSC calibrated against CPUID,
the PIT, the HPET and the ACPI PM timer side by side (clocks: lines and
record), the best used; without a PIT the rate comes from the HPET or the PM
timer and agrees with the PIT's within the stated uncertainties; hpet=off
leaves the PM timer; no ACPI leaves the PIT, or nothing; under -icount every
clock finds 1 GHz within its measured bound.

Under TCG the TSC is the host's, the reference clocks QEMU's view of host
time: rates are compared only within the uncertainties the kernel states,
which include each oscillator's assumed tolerance (100 ppm or more), far
above what a busy host moves them (a pause inside a read widens that read's
bracket, so the bound)."""
import re

from qemu import check, expect_complete, qemu

SMALL = "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64"
NAMES = ["cpuid", "pit", "hpet", "pmtimer"]
LINE = re.compile(r"^clocks: (\w+) +(?:(\d+\.\d{3}) MHz \+-(\d+) ppm \(.+\)|none: (.+))$")


def clocks_run(name, machine):
    """A run on machine; its Run, clocks record by name, and tsc_rate record."""
    rc, text = qemu(name, machine, SMALL)
    run = expect_complete(rc, text)
    rec = run.one("clocks")
    check([c["name"] for c in rec["clocks"]] == NAMES, f"clocks record {rec}", text)
    clocks = {c["name"]: c for c in rec["clocks"]}
    lines = {}
    for l in run.lines:
        m = LINE.match(l)
        if m:
            lines[m.group(1)] = m
    check(sorted(lines) == sorted(NAMES), f"clocks: lines for {sorted(lines)}, expected one for each of {NAMES}", text)
    for n, c in clocks.items():
        m = lines[n]
        if c["hz"]:
            check(m.group(2) is not None and abs(float(m.group(2)) * 1e6 - c["hz"]) <= 500
                  and int(m.group(3)) == c["ppm"] and c["absent"] is None,
                  f"{n}: line {m.group(0)!r} against record {c}", text)
        else:
            check(m.group(4) and c["absent"] and m.group(4).startswith(c["absent"]),
                  f"{n}: absent clock's line {m.group(0)!r} against record {c}", text)
    return run, clocks, run.one("tsc_rate"), rec, text


def agree(a_hz, a_ppm, b_hz, b_ppm):
    """lib/tscfreq.c tscfreq_disagree, negated: the intervals overlap."""
    return abs(a_hz - b_hz) * 10**6 <= a_hz * a_ppm + b_hz * b_ppm


def test_clocks_q35_side_by_side():
    """q35 under TCG: the PIT, the HPET and the PM timer each give a rate
    (CPUID is not read on TCG's AMD CPU and says so); the one used is the
    one of the smallest uncertainty when all agree, the tsc_rate record says
    it, and a pair that disagrees is named in a DISAGREE line."""
    run, clocks, rate, rec, text = clocks_run("clocks-q35", "q35-tcg-alone")
    check(clocks["cpuid"]["hz"] == 0 and "GenuineIntel only" in clocks["cpuid"]["absent"], f"cpuid {clocks}", text)
    for n in ("pit", "hpet", "pmtimer"):
        c = clocks[n]
        check(c["hz"] > 10**8 and c["ppm"] == c["measured_ppm"] + c["tolerance_ppm"] and 0 < c["measured_ppm"] < 1000,
              f"{n}: {c}", text)
    check(clocks["hpet"]["tolerance_ppm"] == 500 and clocks["pmtimer"]["tolerance_ppm"] == 100, f"{clocks}", text)
    check(rate["source"] == rec["used"] and rate["hz"] == clocks[rec["used"]]["hz"], f"{rate} against {rec}", text)
    present = [clocks[n] for n in ("pit", "hpet", "pmtimer")]
    pairs = [(a, b) for i, a in enumerate(present) for b in present[i + 1:]]
    bad = [(a["name"], b["name"]) for a, b in pairs if not agree(a["hz"], a["ppm"], b["hz"], b["ppm"])]
    check(rec["disagree"] == len(bad), f"disagree {rec['disagree']}, pairs apart beyond their bounds {bad}", text)
    for a, b in bad:
        check(run.has_line(f"clocks: {a} and {b} DISAGREE: "), f"no DISAGREE line for {a} and {b}", text)
    if not bad:
        check(run.has_line("clocks: all 3 pairs of clocks agree within their combined uncertainties"),
              "no agreement line", text)
        best = min(present, key=lambda c: c["ppm"])
        check(rate["ppm"] == best["ppm"] and rate["source"] == best["name"], f"used {rate}, smallest {best}", text)
    for n in ("hpet", "pmtimer"):
        check(sum(1 for l in run.lines if l.startswith(f"tsc: {n} run ")) == 2, f"not two {n} runs", text)
        check(run.has_line(f"tsc: {n} runs differ by "), f"no spread line for {n}", text)


def test_clocks_pit_off_rate_from_hpet_or_pm_timer():
    """-machine q35,pit=off: the PIT is absent, said in one line; the rate
    comes from the HPET or the PM timer and lies within the stated
    uncertainties of the PIT's rate on the same QEMU with the PIT."""
    run, clocks, rate, _, text = clocks_run("clocks-pit-off", "q35-nopit")
    check(clocks["pit"]["hz"] == 0 and run.has_line("clocks: pit      none: ")
          and "QEMU -machine pit=off" in next(l for l in run.lines if l.startswith("clocks: pit ")),
          f"pit {clocks['pit']}", text)
    check(rate["source"] in ("hpet", "pmtimer") and rate["hz"] > 10**8, f"tsc_rate {rate}", text)
    _, with_pit, _, _, text2 = clocks_run("clocks-pit-on", "q35-tcg")
    p = with_pit["pit"]
    check(p["hz"] > 0, f"no PIT rate with the PIT: {p}", text2)
    check(agree(rate["hz"], rate["ppm"], p["hz"], p["ppm"]),
          f"without the PIT {rate['hz']} Hz +-{rate['ppm']} ppm, with it {p['hz']} Hz +-{p['ppm']} ppm: "
          "apart beyond their uncertainties", text + "\n" + text2)


def test_clocks_hpet_off_pm_timer():
    """-machine q35,hpet=off,pit=off: no HPET table, said in one line; the
    PM timer alone gives the rate."""
    run, clocks, rate, rec, text = clocks_run("clocks-hpet-off", "q35-nohpet-nopit")
    check(clocks["hpet"]["hz"] == 0 and clocks["hpet"]["absent"].startswith("no HPET table"), f"{clocks}", text)
    check(rate["source"] == "pmtimer" and rate["hz"] == clocks["pmtimer"]["hz"] > 10**8, f"tsc_rate {rate}", text)
    check(run.has_line("clocks: one clock: nothing to compare"), "no one-clock line", text)
    check(run.has_line("tsc: rate used: ") and "pmtimer: the only clock that gave a rate" in text, "rate line", text)


def test_clocks_acpi_off():
    """-machine pc,acpi=off: no ACPI tables, so neither HPET nor PM timer,
    each said in one line; the PIT is what is left. With pit=off as well
    nothing is: the rate is unknown, said in one line, the run completes."""
    run, clocks, rate, _, text = clocks_run("clocks-acpi-off", "pc-noacpi")
    for n in ("hpet", "pmtimer"):
        check(clocks[n]["hz"] == 0 and clocks[n]["absent"].startswith("no ACPI tables"), f"{n}: {clocks[n]}", text)
    check(rate["source"] == "pit" and rate["hz"] > 10**8, f"tsc_rate {rate}", text)
    run, clocks, rate, _, text = clocks_run("clocks-none", "pc-noacpi-nopit")
    check(all(c["hz"] == 0 and c["absent"] for c in clocks.values()), f"{clocks}", text)
    check(rate["hz"] == 0 and rate["source"] == "none", f"tsc_rate {rate}", text)
    check(run.has_line("tsc: rate used: none: no clock gave one"), "no 'rate used: none' line", text)


def test_clocks_icount_1ghz():
    """Under -icount shift=0 the TSC counts one tick per virtual ns: every
    clock present (PIT, HPET, PM timer) finds 1 GHz within the bound it
    measured (its oscillator's tolerance not even counted), +1 Hz for the
    rounding of the figure."""
    _, clocks, rate, _, text = clocks_run("clocks-icount", "icount")
    for n in ("pit", "hpet", "pmtimer"):
        c = clocks[n]
        check(c["hz"] and abs(c["hz"] - 10**9) <= c["measured_ppm"] * 1000 + 1,
              f"{n}: {c['hz']} Hz is not 1 GHz within its measured +-{c['measured_ppm']} ppm", text)
    check(abs(rate["hz"] - 10**9) <= rate["ppm"] * 1000, f"tsc_rate {rate}", text)

"""tests/boot/t_prefetch.py - prefetch=keep|off|on (issue 31 item 3;
kernel/prefetch.c, lib/prefetch.c): a documented model (QEMU's
Skylake-Client, family 06H model 5EH: MSR 1A4H's four bits) gets one line
and one prefetch record per control; under QEMU's TCG the MSR reads 0 and
ignores the write (or faults), so prefetch=off is said as not taken, never
as off unless the read back shows the bit; prefetch=keep writes nothing; a
model no document lists (Penryn, 06H model 17H) gets one line, nothing
written; with cpus= each CPU measured has its own."""
from qemu import check, expect_complete, qemu

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"
SKYLAKE = "Skylake-Client"
FOUR = [("l2_hw", "L2 hardware prefetcher", 0), ("l2_adjacent", "L2 adjacent cache line prefetcher", 1),
        ("dcu", "DCU prefetcher", 2), ("dcu_ip", "DCU IP prefetcher", 3)]


def prefetch_lines(run):
    return [l for l in run.lines if l.startswith("prefetch: ")]


def expect_four(run, want, cpu=None):
    """One line and one record per control of MSR 1A4H, in the
    document's order; every state honest: for off/on, 'off'/'on' only
    where the read back shows the bit so, else not taken with why."""
    text = run.text
    recs = [r for r in run.by("prefetch") if r.get("cpu") == cpu]
    check([(r["control"], r["name"], r["bit"]) for r in recs] == FOUR,
          f"the four controls of MSR 1A4H on CPU {cpu}: {recs}", text)
    for r in recs:
        check(r["msr"] == "0x1a4" and r["wanted"] == want and "Skylake" in (r["source"] or ""),
              f"record {r}", text)
        if want == "keep":
            check(r["written"] is None and r["read"] is None and r["before"] is not None,
                  f"keep wrote something: {r}", text)
            on = (int(r["before"], 16) >> r["bit"] & 1) == 0
            check(r["state"] == ("on" if on else "off"), f"keep: the state read: {r}", text)
            continue
        check(r["state"] in ("not_taken", want), f"{r['control']}: state {r['state']}", text)
        if r["state"] == want:
            bit = int(r["read"], 16) >> r["bit"] & 1
            check(r["read"] is not None and bit == (1 if want == "off" else 0),
                  f"{r['control']}: said {want} but the read back {r['read']} does not show it", text)
        else:
            check(r["why"], f"{r['control']}: not taken without why: {r}", text)


def test_prefetch_off_documented_model_not_taken_under_tcg():
    """-cpu Skylake-Client, prefetch=off: four lines, each 'not taken (...)'
    or 'off (MSR 1A4H bit N = 1, read back)' only where the record's read
    back has the bit set; never 'off' from the write alone."""
    rc, text = qemu("prefetch-off", "icount", f"{SMALL} prefetch=off", cpu=SKYLAKE)
    run = expect_complete(rc, text)
    lines = prefetch_lines(run)
    check(len(lines) == 4, f"four prefetch lines: {lines}", text)
    recs = run.by("prefetch")
    for (key, name, bit), line, r in zip(FOUR, lines, recs):
        taken = f"prefetch: {name}: off (MSR 1A4H bit {bit} = 1, read back)"
        check(line.startswith(f"prefetch: {name}: not taken (") or (line == taken and r["state"] == "off"),
              f"{key}: {line!r}", text)
    expect_four(run, "off")


def test_prefetch_keep_writes_nothing():
    """-cpu Skylake-Client, the default prefetch=keep: each control's
    state as read, 'as the firmware left it', nothing written."""
    rc, text = qemu("prefetch-keep", "icount", SMALL, cpu=SKYLAKE)
    run = expect_complete(rc, text)
    lines = prefetch_lines(run)
    check(len(lines) == 4 and all(l.endswith(", as the firmware left it)") for l in lines),
          f"keep lines: {lines}", text)
    expect_four(run, "keep")


def test_prefetch_undocumented_model_one_line():
    """-cpu Penryn (06H model 17H, in no document): one line saying so,
    one record with control null, nothing written; the run goes on."""
    rc, text = qemu("prefetch-undocumented", "icount", f"{SMALL} prefetch=off", cpu="Penryn")
    run = expect_complete(rc, text)
    lines = prefetch_lines(run)
    check(lines == ["prefetch: prefetch=off: nothing written: GenuineIntel family 06H model 17H: no prefetcher "
                    "control documented for this model (Intel's MSR 1A4H disclosure, SDM Vol. 4, pepc)"],
          f"the one line: {lines}", text)
    r = run.one("prefetch")
    check(r["control"] is None and r["written"] is None and r["state"] == "not_documented"
          and "model 17H" in r["why"] and r["wanted"] == "off", f"record {r}", text)


def test_prefetch_off_on_every_cpu_measured():
    """-smp 2 cpus=all: the MSR is each core's; CPU 1 gets its own four
    lines and records (tagged cpu 1), as honest as the boot CPU's."""
    rc, text = qemu("prefetch-smp", "icount", f"{SMALL} prefetch=off cpus=all", cpu=SKYLAKE, smp="2")
    run = expect_complete(rc, text)
    expect_four(run, "off")
    expect_four(run, "off", cpu=1)


def test_prefetch_on_where_already_on():
    """-cpu Skylake-Client, prefetch=on: TCG reads 1A4H as 0, so each bit
    was 0 before the write: a line says 'on (..., read back; so before the
    write too)', never crediting the write, or not taken."""
    rc, text = qemu("prefetch-on", "icount", f"{SMALL} prefetch=on", cpu=SKYLAKE)
    run = expect_complete(rc, text)
    lines = prefetch_lines(run)
    check(len(lines) == 4, f"four prefetch lines: {lines}", text)
    for (key, name, bit), line, r in zip(FOUR, lines, run.by("prefetch")):
        was_on = (int(r["before"], 16) >> bit & 1) == 0
        said = f"prefetch: {name}: on (MSR 1A4H bit {bit} = 0, read back" + ("; so before the write too)"
                                                                          if was_on else ")")
        check(line == said or line.startswith(f"prefetch: {name}: not taken ("), f"{key}: {line!r}", text)
    expect_four(run, "on")

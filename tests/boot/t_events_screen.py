"""tests/boot/t_events_screen.py - code='s figures per copy in each event
of events= where the run's end is read (issue 30 item 4; bench/evscreen.c):
the end screen's `your code` section and the QR text's pe lines, in the
fake PMU test build (make FAKE_PMU=1: RDPMC reads the TSC) under QEMU
-icount, from its ISO (GRUB, VESA framebuffer): every event then counts
instructions, code= of one instruction gives 1.000 of each event per
copy, and the branch event's figure is unverified (its check predicts
branches). The screen's line and the QR text's pe lines are checked
against the event_per_copy records of the recommended method."""
import os
import shutil

import builds
from qemu import check
from screen import HALTED, Machine
from t_bootpaths import expect_complete_halted, grub_iso
from t_qr import join_parts, screen_codes

INS, BR, NB = "INST_RETIRED.ANY", "BR_INST_RETIRED.ALL_BRANCHES", "MYINS"
ARGS = (f"ensembles=3 samples=20 warmup=5 methods=rdtscp,lfence workloads=add_chain_64 "
        f"events={INS},{BR},c0.00:{NB} code=4801c0 unroll=10")


def cell(pc):
    """An event_per_copy record's cell as the screen words it
    (bench/coderesult.c code_per_copy_text), ' UNVERIFIED' after it."""
    status, fig, bound = pc["status"], pc["per_copy"], pc["bound"]
    text = {"exact": f"{fig} exactly", "figure": f"{fig} +-{bound}", "below_zero": f"{fig} below zero",
            "below_resolution": f"below resolution (<= {bound})"}.get(status, "wrapped: no figure")
    return text + ("" if pc["verified"] else " UNVERIFIED")


def test_events_screen_and_qr_fake_pmu():
    """The your-code section has one line 'events per copy, by M: NAME
    CELL; ...' with each event of the recommended method's
    event_per_copy records (UNVERIFIED marked, and said why); the QR text
    a pe line per such record, '!' after the kind of the unverified."""
    if not shutil.which("zbarimg"):
        check(False, "zbarimg is not installed (Debian package zbar-tools)")
    build = builds.fake_pmu()
    iso = grub_iso("events-screen", "set timeout=0\ninsmod all_video\ninsmod vbe\n"
                   'menuentry "events" {\n\tmultiboot2 /boot/bench.elf ' + ARGS +
                   "\n\tset gfxpayload=1920x1080x32,1280x1024x32,1024x768x32\n\tboot\n}\n",
                   elf=os.path.join(build, "bench.elf"))
    with Machine("events-screen", machine="icount-cdrom", image=iso, cpu="max,vendor=GenuineIntel") as m:
        m.wait_for(HALTED, m.serial_text, m.timeout)
        m.wait_halted(60)
        lines, codes = screen_codes(m, "halted")
        text = m.serial_text()
    run = expect_complete_halted(text)
    by = run.one("recommendation")["method"]
    pcs = run.by("event_per_copy", method=by)
    # INST_RETIRED.ANY counts on fixed counter 0, which the events' passes use
    # whenever CPUID enumerates it (each pass's check judges it).
    check(by and len(pcs) == 3 and {p["event"] for p in pcs} == {INS, BR, NB},
          f"recommended {by}: event_per_copy records {pcs}", text)
    check(all(p["per_copy"] == "1.000" and p["status"] == "exact" for p in pcs), f"figures {pcs}", text)
    check([p["verified"] for p in pcs if p["event"] == BR] == [False], "the branch event is verified", text)
    check([p["verified"] for p in pcs if p["event"] == INS] == [True], "INST_RETIRED.ANY is not verified", text)
    joined = []  # a wrapped line continues on the next rows, indented by two (bench/screen.c)
    for l in (x.rstrip() for x in lines):
        if l.startswith("  ") and joined:
            joined[-1] += " " + l.strip()
        else:
            joined.append(l)
    want = (f"events per copy, by {by}: " + "; ".join(f"{p['event']} {cell(p)}" for p in pcs) +
            " (UNVERIFIED: its pass's check missed)")
    check(want in joined, f"screen: no line {want!r}", "\n".join(lines))
    check(len(codes) == 1, f"{len(codes)} QR codes on the screen", "\n".join(lines))
    body, _ = join_parts(codes)
    got = [l for l in body.split("\n") if l.startswith("pe ")]
    want = [f"pe {by} {p['event']} {p['status']}{'' if p['verified'] else '!'} {p['per_copy'] or '-'} "
            f"{p['bound'] or '-'}" for p in pcs]
    check(got == want, f"QR text's pe lines {got}, the records give {want}", body)

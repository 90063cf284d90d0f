"""tests/tools/t_events.py - `bench.py events` (issue 30 item 2): the event
tables the image carries and which CPUs select each; one CPU's events with
the IA32_PERFEVTSELx or PERF_CTL value they program (Intel's fields in
their bits, AMD's 12-bit event select over bits 7:0 and 35:32); the table
by stepping and by hybrid core type; refusals. The values are the ones
tests/unit/test_events.c checks in the C tables against the same extract.
"""
import re

from common import bench, check


def _rows(out):
    """{name: [cells]} of a CPU's listing."""
    rows = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= 7 and re.fullmatch(r"0x[0-9A-F]+", cells[1]):
            rows[cells[0]] = cells
    return rows


def test_events_tables():
    rc, out = bench("events")
    check(rc == 0, f"exit status {rc}", out)
    check(re.search(r"^52 tables, 19608 events; sources: tools/events/README.md$", out, re.M),
          "the last line counts 52 tables (47 intel/perfmon core files, 5 libpfm4 Zen tables)", out)
    for want in (r"^intel +SKL core V59 +564 +6-4E, 6-5E, 6-8E, 6-9E, 6-A5, 6-A6$",
                 r"^intel +SKX core V1.37 +\d+ +6-55-\[01234\]$",
                 r"^intel +CLX core V1.25 +\d+ +6-55-\[56789ABCDEF\]$",
                 r"^intel +ARL crestmont core V1.20 +\d+ +6-C5 \(core type 0x20, native model 0x000002\)$",
                 r"^intel +NVL arcticwolf core V1.00 +\d+ +12-01 ",
                 r"^amd +zen1 91970fe +\d+ +amd 17-00..2F, hygon 18-00..FF$",
                 r"^amd +zen2 91970fe +\d+ +amd 17-30..FF$"):
        check(re.search(want, out, re.M), f"no line {want!r}", out)


def test_events_of_a_cpu():
    rc, out = bench("events", "--cpu", "6-5E", "--search", "l1d.replacement")
    check(rc == 0, f"exit status {rc}", out)
    check("table SKL core V59: intel/perfmon SKL core V59 (BSD-3-Clause): 1 of 564 events matching "
          "l1d.replacement" in out, "the table, its source and the count", out)
    r = _rows(out).get("L1D.REPLACEMENT")
    check(r == ["L1D.REPLACEMENT", "0x51", "0x01", "0", "-", "0,1,2,3", "0x420151", "-"],
          f"L1D.REPLACEMENT's row: {r}", out)
    rc, out = bench("events", "--cpu", "6-5E", "--search", "UOPS_ISSUED.STALL_CYCLES")
    r = _rows(out).get("UOPS_ISSUED.STALL_CYCLES")
    check(r and r[3:7] == ["1", "INV", "0,1,2,3", "0x1C2010E"], f"CMSK 1 and INV in bits 31:24, 23: {r}", out)
    rc, out = bench("events", "--cpu", "6-5E", "--search", "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE")
    r = _rows(out).get("OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE")
    check(r and r[1] == "0xB7" and r[7] == "0x1A6=0x10001", f"the offcore event, B7H with MSR 1A6H: {r}", out)
    rc, out = bench("events", "--cpu", "6-5E", "--search", "INST_RETIRED.ANY")
    r = _rows(out).get("INST_RETIRED.ANY")
    check(r and r[5] == "FIXED_CTR0", f"INST_RETIRED.ANY on fixed counter 0: {r}", out)
    rc, out = bench("events", "--cpu", "17-31", "--search", "retired_fused")
    check(rc == 0 and "libpfm4 amd64_events_fam17h_zen2.h 91970fe (MIT; PPR for AMD Family 17h Model 31h, "
          "Revision B0 (55803))" in out, "EPYC-Rome's table: Zen 2, libpfm4, its PPR", out)
    r = _rows(out).get("RETIRED_FUSED_INSTRUCTIONS")
    check(r and r[1] == "0x1D0" and r[6] == "0x1004200D0", f"AMD's EventSelect[11:8] in bits 35:32: {r}", out)
    rc, out = bench("events", "--cpu", "18-0", "--search", "RETIRED_INSTRUCTIONS")
    check(rc == 0 and "table zen1 91970fe" in out, "Hygon family 18H gets the Zen 1 table", out)


def test_events_stepping_and_core_type():
    rc, out = bench("events", "--cpu", "6-55-4", "--search", "XXXX")
    check(rc == 0 and "table SKX core V1.37" in out, "6-55 stepping 4 is Skylake-SP", out)
    rc, out = bench("events", "--cpu", "6-55-7", "--search", "XXXX")
    check(rc == 0 and "table CLX core V1.25" in out, "6-55 stepping 7 is Cascade Lake", out)
    rc, out = bench("events", "--cpu", "6-97", "--search", "XXXX")
    check(rc == 0 and "table ADL gracemont core V1.40" in out and "table ADL goldencove core V1.40" in out,
          "a hybrid model lists the tables of both core types", out)


def test_events_refused():
    rc, out = bench("events", "--cpu", "6-0F")
    check(rc == 1 and "no table for intel family 0x6 model 0xf" in out, f"no table: {rc}", out)
    rc, out = bench("events", "--cpu", "six")
    check(rc == 2 and "expected FAMILY-MODEL[-STEPPING] in hex" in out, f"a malformed --cpu: {rc}", out)

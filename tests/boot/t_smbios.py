"""tests/boot/t_smbios.py - the machine's identity (issue 32 item 3;
kernel/smbios.c, lib/smbios.c): QEMU's -smbios values for types 0, 1, 2
and 17 appear in the banner, the machine: and memory: lines, the env
record and the smbios and memory_device records; under SeaBIOS (the
F-segment scan) with its 2.1 and 3.0 entry points, and under OVMF (the EFI
configuration table); serial numbers only with identity=full; a corrupted
copy of the entry point or table (test.smbios_corrupt=) gives its one line
and the run completes."""
from qemu import check, expect_complete, qemu
from t_bootpaths import grub_test_iso

SMALL = "ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none"
SERIALS = ("SN-SYS-4711", "SN-BOARD-0815", "SN-DIMM-42")
SMBIOS = ["-smbios", "type=0,vendor=LabBIOS Inc.,version=F12,date=05/10/2023",
          "-smbios", f"type=1,manufacturer=Acme Corp,product=Widget 9000,version=Rev B,serial={SERIALS[0]},"
                     "uuid=12345678-9abc-def0-1122-334455667788,sku=W9K,family=Widgets",
          "-smbios", f"type=2,manufacturer=BoardCo,product=BC-77,version=1.0,serial={SERIALS[1]}",
          "-smbios", f"type=17,loc_pfx=DIMM,bank=BANK 0,manufacturer=Kingston,serial={SERIALS[2]},"
                     "part=KVR32N22S8/8,speed=3200"]


def identity_run(name, machine="icount", args="", extra=(), image=None):
    rc, text = qemu(name, machine, None if image else f"{SMALL} {args}", image=image,
                    extra=list(SMBIOS) + list(extra))
    run = expect_complete(rc, text)
    return run, text


def expect_identity(run, text, entry, source, full):
    """The values given on QEMU's command line, where the shared design puts them."""
    banner = [l for l in run.lines if l.startswith("bench 0.1: ")]
    check(banner and banner[0].endswith(", on Acme Corp Widget 9000 Rev B, BIOS LabBIOS Inc. F12 05/10/2023"),
          f"the banner does not name the machine: {banner[:1]}", text)
    env = run.one("env")
    want = {"system": "Acme Corp Widget 9000 Rev B", "board": "BoardCo BC-77", "bios": "LabBIOS Inc. F12 05/10/2023",
            "system_uuid": "12345678-9abc-def0-1122-334455667788"}
    for k, v in want.items():
        check(env.get(k) == v, f"env record {k}: {env.get(k)!r}, expected {v!r}", text)
    s = run.one("smbios")
    check(s["entry"] == entry and s["source"] == source and s["problem"] is None,
          f"smbios record entry/source/problem: {s}", text)
    check(env.get("smbios") == s["version"] and s["version"].startswith("3." if entry == "3.0" else "2."),
          f"the version: env {env.get('smbios')!r}, smbios {s['version']!r}", text)
    fields = {"sys_manufacturer": "Acme Corp", "sys_product": "Widget 9000", "sys_version": "Rev B",
              "sys_sku": "W9K", "sys_family": "Widgets", "board_manufacturer": "BoardCo", "board_product": "BC-77",
              "board_version": "1.0", "bios_vendor": "LabBIOS Inc.", "bios_version": "F12", "bios_date": "05/10/2023",
              "sys_uuid": "12345678-9abc-def0-1122-334455667788", "memory_devices": 1,
              "sys_serial": SERIALS[0] if full else None, "board_serial": SERIALS[1] if full else None}
    for k, v in fields.items():
        check(s.get(k) == v, f"smbios record {k}: {s.get(k)!r}, expected {v!r}", text)
    check(s["structures"] > 5 and s["table_bytes"] > 0 and s["table_phys"].startswith("0x"), f"table {s}", text)
    d = run.one("memory_device")
    dimm = {"locator": "DIMM 0", "bank": "BANK 0", "size_bytes": 256 << 20, "manufacturer": "Kingston",
            "part": "KVR32N22S8/8", "speed_mts": 3200, "configured_speed_mts": 3200,
            "serial": SERIALS[2] if full else None}
    for k, v in dimm.items():
        check(d.get(k) == v, f"memory_device {k}: {d.get(k)!r}, expected {v!r}", text)
    check(run.has_line("memory: DIMM 0 (bank BANK 0, handle " + d["handle"] + "): 256 MiB " + d["type"] +
                       ", 3200 MT/s, configured 3200 MT/s, manufacturer Kingston, part KVR32N22S8/8" +
                       (f", serial {SERIALS[2]}" if full else "")), "the memory: line", text)
    machine = [l for l in run.lines if l.startswith("machine: system ")]
    check(len(machine) == 1 and "board BoardCo BC-77" in machine[0] and "BIOS LabBIOS Inc. F12 05/10/2023" in machine[0]
          and ("the EFI configuration table" if source == "efi" else "the scan of F0000h-FFFFFh") in machine[0],
          f"the machine: line {machine}", text)
    for sn in SERIALS:
        check((sn in text) == full, f"serial {sn} {'missing' if full else 'shown'} with identity={'full' if full else 'short'}",
              text)


def test_smbios_seabios_21():
    """SeaBIOS, -kernel: the 32-bit "_SM_" entry point found in F0000h-FFFFFh;
    serial numbers left out (identity=short, the default)."""
    run, text = identity_run("smbios-21")
    expect_identity(run, text, "2.1", "scan", False)


def test_smbios_seabios_30_full():
    """SeaBIOS with smbios-entry-point-type=64: the "_SM3_" entry point;
    identity=full shows the three serial numbers."""
    run, text = identity_run("smbios-30", args="identity=full", extra=["-machine", "smbios-entry-point-type=64"])
    expect_identity(run, text, "3.0", "scan", True)


def test_smbios_ovmf():
    """OVMF through GRUB (multiboot2 with the EFI system table tag): the entry
    point from the EFI configuration table: SMBIOS_TABLE_GUID's 2.1 one by
    default, SMBIOS3_TABLE_GUID's 3.0 one with smbios-entry-point-type=64
    (OVMF then installs only that)."""
    iso = grub_test_iso("smbios-ovmf", f"\tmultiboot2 /boot/bench.elf {SMALL}")
    for name, entry, extra in (("smbios-ovmf", "2.1", []),
                               ("smbios-ovmf-64", "3.0", ["-machine", "smbios-entry-point-type=64"])):
        run, text = identity_run(name, "ovmf-cdrom", image=iso, extra=extra)
        expect_identity(run, text, entry, "efi", False)


def test_smbios_corrupt():
    """test.smbios_corrupt=: the entry point's checksum, a structure past the
    table's end, strings without their double NUL: one problem line each,
    the smbios record's problem says the same, the run completes."""
    for what, says in (("checksum", "the 2.1 entry point's checksum is wrong"),
                       ("length", "runs past the table's end"),
                       ("string", "its strings have no terminating double NUL")):
        run, text = identity_run(f"smbios-corrupt-{what}", args=f"test.smbios_corrupt={what}")
        lines = [l for l in run.lines if l.startswith("machine: SMBIOS problem: ")]
        check(len(lines) == 1 and says in lines[0], f"{what}: the problem line {lines}", text)
        s = run.one("smbios")
        check(s["problem"] and says in s["problem"], f"{what}: the record's problem {s['problem']!r}", text)
        if what == "checksum":
            check(run.one("env")["system"] is None and s["version"] is None, f"{what}: nothing decoded", text)
        else:
            check(run.one("env")["system"] == "Acme Corp Widget 9000 Rev B" and run.one("memory_device"),
                  f"{what}: what came before the End-of-Table structure is used", text)


def test_smbios_end_screen_header():
    """VGA text, 80 columns: the end screen's first row names the system
    after the CPU when it fits ("bench summary: BRAND on SYSTEM"), and only
    the CPU when it does not (QEMU's own, longer system name)."""
    from screen import HALTED, Machine
    for name, smbios, want in (("smbios-screen-short", ["-smbios", "type=1,manufacturer=Acme,product=W9,version=2"],
                                "bench summary: QEMU TCG CPU version 2.5+ on Acme W9 2"),
                               ("smbios-screen-long", [], "bench summary: QEMU TCG CPU version 2.5+")):
        with Machine(name, append=SMALL, args=smbios) as m:
            m.wait_for(HALTED, m.vga_text, m.timeout, every=2.0)
            lines = m.vga_text()
        check(lines[0] == want, f"{name}: the first row {lines[0]!r}, expected {want!r}", "\n".join(lines))

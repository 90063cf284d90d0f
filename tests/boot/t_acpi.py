"""tests/boot/t_acpi.py - the ACPI tables (issue "Real machines", item 1;
kernel/acpi.c, lib/acpi.c): the RSDP found by the BIOS-area scan (QEMU
-kernel) and from GRUB's multiboot2 tag, the MADT's CPUs for -smp, the
FADT's PM timer and reset register, the HPET's base and counter period from
its capabilities register, a machine without an HPET, and a table with a
bad checksum: one clear line, the run completes. Issue 20: an XSDT that
fails its checksum gives way to the RSDT (item 11); a reset register at
I/O address 0 is refused (item 12). (Item 10, more processor entries than
ACPI_MAX_CPUS, needs more than 4096 CPUs: QEMU 7.2's q35 takes 288, so
tests/unit/test_acpi.c covers it.)"""
import re

from qemu import check, expect_complete, qemu
from screen import Machine
from t_bootpaths import expect_complete_halted_or_reset, grub_test_iso

SMALL = "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64"


def acpi_run(name, machine="q35-tcg", args="", smp=None):
    rc, text = qemu(name, machine, f"{SMALL} {args}", smp=smp)
    run = expect_complete(rc, text)
    return run, run.one("acpi"), text


def test_acpi_q35_tables():
    """q35 under SeaBIOS: RSDP in 0E0000h-0FFFFFh, one CPU, PM timer 0x608,
    reset through 0xCF9, HPET at 0xFED00000 counting every 10 ns."""
    run, a, text = acpi_run("acpi-q35")
    check(a["rsdp"] and a["bad_checksums"] == 0 and a["problems"] == 0, f"acpi record {a}", text)
    check(a["cpus_enabled"] == 1 and a["lapic"] == 0xFEE00000, f"MADT {a}", text)
    check(a["pm_timer_port"] == 0x608 and a["pm_timer_bits"] in (24, 32) and a["reset_supported"], f"FADT {a}", text)
    check(a["hpet_base"] == 0xFED00000 and a["hpet_period_fs"] == 10_000_000, f"HPET {a}", text)
    check(run.has_line("acpi: RSDP revision ") and "from the BIOS area 0E0000h-0FFFFFh" in text, "RSDP line", text)
    check(run.has_line("acpi: FADT revision ") and "reset register I/O 0xcf9" in text, "FADT line", text)
    line = [l for l in run.lines if l.startswith("acpi: RSDP")][0]
    check(all(t in line for t in ("FACP", "APIC", "HPET")), f"tables {line}", text)


def test_acpi_smp4_madt():
    """-smp 4: the MADT lists four enabled CPUs, APIC IDs 0..3."""
    run, a, text = acpi_run("acpi-smp4", smp="4")
    check(a["cpus_enabled"] == 4 and a["cpus_listed"] == 4, f"MADT {a}", text)
    check(any(re.search(r"CPUs enabled: 4 \(APIC IDs 0 1 2 3\)", l) for l in run.lines), "MADT line", text)


def test_acpi_no_hpet():
    """-machine hpet=off: no HPET table, said in one line."""
    run, a, text = acpi_run("acpi-nohpet", "q35-nohpet")
    check(a["hpet_base"] == 0 and a["hpet_period_fs"] == 0, f"HPET {a}", text)
    check(run.has_line("acpi: HPET: no HPET table"), "no HPET line", text)


def test_acpi_bad_checksum():
    """A table whose checksum byte is flipped (test.acpi_corrupt=): listed as
    BAD CHECKSUM and not used, one line; the run completes."""
    for sig, gone in (("APIC", "acpi: MADT: none usable"), ("FACP", "acpi: FADT: none usable")):
        run, a, text = acpi_run(f"acpi-bad-{sig}", args=f"test.acpi_corrupt={sig}")
        check(a["bad_checksums"] == 1, f"{sig}: record {a}", text)
        check(f"{sig} (BAD CHECKSUM: not used)" in text, f"{sig}: no BAD CHECKSUM in the table list", text)
        check(run.has_line(gone), f"{sig}: no line {gone!r}", text)


def test_acpi_from_grub_multiboot2_tag():
    """Through GRUB (BIOS, CD): the RSDP comes from the multiboot2 ACPI tag."""
    iso = grub_test_iso("acpi", f"\tmultiboot2 /boot/bench.elf {SMALL}")
    rc, text = qemu("acpi-grub", "bios-cdrom", image=iso)
    run = expect_complete(rc, text)
    a = run.one("acpi")
    check(a["rsdp"] and a["cpus_enabled"] == 1 and a["hpet_base"] == 0xFED00000, f"acpi {a}", text)
    check("from the multiboot2 ACPI tag's copy" in text, "the RSDP did not come from the tag", text)


def test_acpi_bad_xsdt_uses_rsdt():
    """UEFI (OVMF through GRUB: RSDP revision 2 with an XSDT and an RSDT),
    the XSDT's checksum byte flipped (test.acpi_corrupt=XSDT): the XSDT is
    refused in one line and the RSDT's tables are used (issue 20 item 11)."""
    iso = grub_test_iso("acpi-xsdt", f"\tmultiboot2 /boot/bench.elf {SMALL} test.acpi_corrupt=XSDT")
    rc, text = qemu("acpi-bad-xsdt", "ovmf-cdrom", image=iso)
    run = expect_complete(rc, text)
    a = run.one("acpi")
    check("test: test.acpi_corrupt=XSDT: flipped the checksum byte" in text, "the XSDT was not corrupted", text)
    check(run.has_line("acpi: XSDT: unreadable, bad signature or bad checksum; the RSDT is used instead"),
          "no line saying the RSDT is used instead", text)
    line = [l for l in run.lines if l.startswith("acpi: RSDP")][0]
    check("RSDP revision 2" in line and "; RSDT at 0x" in line and all(t in line for t in ("FACP", "APIC")),
          f"the RSDT's tables are not listed: {line}", text)
    check(a["cpus_enabled"] == 1 and a["pm_timer_port"] != 0, f"MADT and FADT not used: {a}", text)


def test_acpi_reset_register_io_zero():
    """after=reboot with the FADT's reset register moved to I/O address 0
    (test.acpi_corrupt=RST0: a valid FADT): refused in one line, and the
    reset control register at 0xCF9 resets the machine (issue 20 item 12)."""
    with Machine("acpi-reset0", machine="q35-tcg", append=f"after=reboot {SMALL} test.acpi_corrupt=RST0") as m:
        rc = m.wait_exit(90)
        text = m.serial_text()
    check(rc == 0, f"QEMU exit status {rc}: the machine did not reset", text)
    run = expect_complete_halted_or_reset(text)
    check("test: test.acpi_corrupt=RST0: the FADT's reset register address" in text, "the FADT was not changed",
          text)
    check(run.has_line("bench: after=reboot: FADT reset register: not used: its I/O address is 0"),
          "a reset register at I/O address 0 was not refused", text)
    check(run.has_line("bench: after=reboot: resetting through the reset control register"), "0xCF9 not tried",
          text)

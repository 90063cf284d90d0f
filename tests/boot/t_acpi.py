"""tests/boot/t_acpi.py - the ACPI tables (issue "Real machines", item 1;
kernel/acpi.c, lib/acpi.c): the RSDP found by the BIOS-area scan (QEMU
-kernel) and from GRUB's multiboot2 tag, the MADT's CPUs for -smp, the
FADT's PM timer and reset register, the HPET's base and counter period from
its capabilities register, a machine without an HPET, and a table with a
bad checksum: one clear line, the run completes."""
import re

from qemu import check, expect_complete, qemu
from t_bootpaths import grub_test_iso

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

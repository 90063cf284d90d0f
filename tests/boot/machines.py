"""tests/boot/machines.py - the machines the boot tests boot: one table, one
row a machine (kvm-unit-tests' x86/unittests.cfg is the model). A test
names the machine of each run and gives only what is its own: the boot
parameters, the image or ISO when it is not the shipped one, and, where the
test is about them, the CPU model (cpu=) or the topology (smp=). What the
table cannot say a test adds as QEMU flags itself, rarely and with a
comment (a second serial port into a file, -serial none).

Columns:
  chipset   -machine: q35 (ICH9: PIT, HPET, PM timer, FADT reset register),
            pc (i440fx), isapc (no PCI), with their options
  cpu       -cpu (TCG's max says AuthenticAMD; INTEL_MAX GenuineIntel)
  memory    -m
  accel     tcg (host time), icount (one TSC tick an instruction, virtual
            time: exact and deterministic), kvm (the real CPU)
  firmware  seabios (QEMU's default BIOS) or ovmf (UEFI; each run its own
            copy of the variable store, named after the run)
  boot      kernel (-kernel IMAGE -append ..., multiboot1: build/bench32.elf
            unless the run gives a test build), cdrom (-cdrom ISO), usb (the
            ISO as a USB stick behind xHCI), pxe (network boot from a TFTP
            root through QEMU's user network: the DHCP boot file is
            GRUB's, for the firmware); cdrom and usb boot build/bench.iso
            unless the run gives another ISO; stick: usb, but written,
            on the image the run gives (tests/boot/stick.py make_stick)
  timeout   seconds a run may take (a QEMU run, or a wait for the run's end
            in tests/boot/screen.py): generous, for a busy 2-core CI box
  alone     True: the tests booting it run with no other test beside them
            (tests/boot/run_boot_tests.py), for a figure that wall-clock
            load would move beyond what the test asserts

Every run's QEMU flags are these plus the harness's own (tests/boot/qemu.py:
serial on stdout, isa-debug-exit; tests/boot/screen.py: serial into a file,
the monitor on a socket)."""
import os
import shutil
import threading
from collections import namedtuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
KERNEL32 = os.path.join(BUILD, "bench32.elf")
ISO = os.path.join(BUILD, "bench.iso")
LOGS = os.path.join(BUILD, "logs")
OVMF_CODE = "/usr/share/OVMF/OVMF_CODE.fd"
OVMF_VARS = "/usr/share/OVMF/OVMF_VARS.fd"

# TCG's "max" CPU says AuthenticAMD, whose LFENCE is not architecturally
# dispatch-serializing; this one says GenuineIntel, so the LFENCE methods run.
INTEL_MAX = "max,vendor=GenuineIntel"
# -cpu host without IA32_ARCH_CAPABILITIES (MSR 10AH): this machine's KVM
# refuses QEMU 7.2's write of it ("failed to set MSR 0x10a"), and the
# benchmark does not read it.
KVM_CPU = "host,-arch-capabilities"
ACCEL = {"tcg": [], "icount": ["-icount", "shift=0,align=off,sleep=off"], "kvm": ["-accel", "kvm"]}
# GRUB's network images (iso/netboot.mk), the DHCP boot file of each firmware.
PXE_BOOTFILE = {"seabios": "boot/grub/i386-pc/core.0", "ovmf": "boot/grub/x86_64-efi/core.efi"}

Machine = namedtuple("Machine", "chipset cpu memory accel firmware boot timeout alone")

MACHINES = {name: Machine(*row) for name, *row in [
    # name                chipset                cpu          memory  accel     firmware   boot      timeout alone
    # The default: what is printed, not exact figures; the TSC is the host's.
    ("q35-tcg",           "q35",                 "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    # The default, alone: figures of the host's clocks that another QEMU's
    # load moves beyond the test's bounds (two PIT calibrations within 2 %,
    # each clock's measured uncertainty under 1000 ppm).
    ("q35-tcg-alone",     "q35",                 "max",       "256M", "tcg",    "seabios", "kernel", 240,    True),
    # GenuineIntel: the LFENCE methods run, MSR_SMI_COUNT is readable.
    ("q35-tcg-intel",     "q35",                 INTEL_MAX,   "256M", "tcg",    "seabios", "kernel", 240,    False),
    # No RDTSCP (CPUID.80000001H:EDX[27]=0): method rdtscp skipped.
    ("q35-qemu64",        "q35",                 "qemu64",    "256M", "tcg",    "seabios", "kernel", 240,    False),
    # A vendor that documents nothing about LFENCE: the LFENCE methods skipped.
    ("q35-centaur",       "q35",                 "max,vendor=CentaurHauls", "256M", "tcg", "seabios", "kernel", 240, False),
    # The clocks one by one: no HPET table; no PIT; neither (the PM timer alone).
    ("q35-nohpet",        "q35,hpet=off",        "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    ("q35-nopit",         "q35,pit=off",         "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    ("q35-nohpet-nopit",  "q35,hpet=off,pit=off", "max",      "256M", "tcg",    "seabios", "kernel", 240,    False),
    # i440fx without ACPI: no HPET, PM timer or FADT (the PIT, reset by 0xCF9);
    # and without the PIT too: no clock at all.
    ("pc-noacpi",         "pc,acpi=off",         "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    ("pc-noacpi-nopit",   "pc,acpi=off,pit=off", "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    # No PCI, so no reset control register at 0xCF9: the 8042 resets.
    ("isapc",             "isapc",               "max",       "256M", "tcg",    "seabios", "kernel", 240,    False),
    # Too little memory for the samples asked for: the run uses what fits.
    ("q35-16m",           "q35",                 "max",       "16M",  "tcg",    "seabios", "kernel", 240,    False),
    # The paper-size run (1000 x 100,000) with events= in 8 MiB (issue 30):
    # a long run under TCG, hence the timeout.
    ("q35-8m",            "q35",                 "max",       "8M",   "tcg",    "seabios", "kernel", 480,    False),
    # Too little memory for the image itself (linker.ld _end near 4 MiB): 2 MiB,
    # the least with which SeaBIOS reaches the loader, and 4 MiB, a few KiB short.
    ("q35-2560k",         "q35",                 "max",       "2560K", "tcg",   "seabios", "kernel", 240,    False),
    ("q35-4m",            "q35",                 "max",       "4M",   "tcg",    "seabios", "kernel", 360,    False),
    # RAM above 4 GiB (q35: 2 GiB below, 4 GiB from 0x100000000): a framebuffer there.
    ("q35-6g",            "q35",                 "max",       "6G",   "tcg",    "seabios", "kernel", 240,    False),
    # Exact figures: offsets and nets in instructions, every variance 0.
    ("icount",            "q35",                 "max",       "256M", "icount", "seabios", "kernel", 240,    False),
    ("icount-intel",      "q35",                 INTEL_MAX,   "256M", "icount", "seabios", "kernel", 240,    False),
    # Memory areas of 512 MiB (t_memarea.py): q35 keeps 2.5 GiB all below
    # 4 GiB, so a 1 GiB-aligned page [1 GiB, 2 GiB) and its guard page fit.
    ("icount-2560m",      "q35",                 "max",       "2560M", "icount", "seabios", "kernel", 360,    False),
    # The sample buffers above 4 GiB, exact.
    ("m6g-icount",        "q35",                 "max",       "6G",   "icount", "seabios", "kernel", 240,    False),
    # The same-output test's (tests/boot/same_output.py): the clocks' machines
    # and GRUB's boot from CD, exact.
    ("icount-pc",         "pc",                  "max",       "256M", "icount", "seabios", "kernel", 240,    False),
    ("icount-pc-noclocks", "pc,acpi=off,pit=off", "max",      "256M", "icount", "seabios", "kernel", 240,    False),
    ("icount-nohpet",     "q35,hpet=off",        "max",       "256M", "icount", "seabios", "kernel", 240,    False),
    ("icount-cdrom",      "q35",                 "max",       "256M", "icount", "seabios", "cdrom",  360,    False),
    ("icount-pc-noacpi-cdrom", "pc,acpi=off",    "max",       "256M", "icount", "seabios", "cdrom",  360,    False),
    # The real CPU and clock, the hypervisor's MSR faults (tests/boot/kvm.py);
    # slow where the hypervisor emulates the guest's ring-0 instructions.
    ("kvm-host",          "q35",                 KVM_CPU,     "256M", "kvm",    "seabios", "kernel", 600,    False),
    # GRUB from the ISO, as a lab machine boots it: BIOS, CD and USB stick.
    ("bios-cdrom",        "q35",                 "max",       "256M", "tcg",    "seabios", "cdrom",  360,    False),
    ("bios-usb",          "q35",                 "max",       "256M", "tcg",    "seabios", "usb",    360,    False),
    # The same under UEFI (OVMF: slower to start under TCG).
    ("ovmf-cdrom",        "q35",                 "max",       "256M", "tcg",    "ovmf",    "cdrom",  480,    False),
    ("ovmf-usb",          "q35",                 "max",       "256M", "tcg",    "ovmf",    "usb",    480,    False),
    # The ISO written to a stick the run's log is saved on (issue 23).
    ("ovmf-stick",        "q35",                 "max",       "256M", "tcg",    "ovmf",    "stick",  480,    False),
    # The same, exact: a plan's answers from the stick against GRUB's module
    # under BIOS (tests/boot/t_plan_stick.py); OVMF under -icount is slow.
    ("ovmf-stick-icount", "q35",                 "max",       "256M", "icount", "ovmf",    "stick",  900,    False),
    # Network boot (make netboot): PXE under BIOS (iPXE ROM of the e1000), UEFI PXE.
    ("bios-pxe",          "q35",                 "max",       "256M", "tcg",    "seabios", "pxe",    360,    False),
    ("ovmf-pxe",          "q35",                 "max",       "256M", "tcg",    "ovmf",    "pxe",    480,    False),
]}


def get(name):
    """The table's row for machine name; AssertionError for a name not in it."""
    if name not in MACHINES:
        raise AssertionError(f"no machine {name!r} in tests/boot/machines.py")
    return MACHINES[name]


def flags(run, name, append=None, image=None, cpu=None, smp=None):
    """The QEMU flags of machine name for the run called run: -machine, -m,
    -cpu (cpu, when the test is about the CPU model), -smp smp (when it is
    about the topology), the accelerator's, the firmware's and the boot
    medium's (image: the test's own kernel, ISO or TFTP root; append: the
    kernel's command line). The firmware must be installed (qemu.py's
    machine_flags checks)."""
    m = get(name)
    out = ["-machine", m.chipset, "-m", m.memory, "-cpu", cpu or m.cpu]
    out += (["-smp", smp] if smp else []) + ACCEL[m.accel]
    out += ovmf(run) if m.firmware == "ovmf" else []
    if m.boot == "kernel":
        # A run with neither brings its own medium (tests/tools' screen runs).
        out += ["-kernel", image or KERNEL32, "-append", append] if append is not None or image else []
    elif m.boot == "cdrom":
        out += ["-cdrom", image or ISO]
    elif m.boot in ("usb", "stick"):
        # A raw disk on usb-storage behind an xHCI controller, first in the
        # boot order; usb: snapshot=on, the file is not written; stick: the
        # run's own copy, written (never the shipped ISO).
        if m.boot == "stick" and not image:
            raise AssertionError(f"machine {name} writes its disk: give the run's own image (image=)")
        snapshot = "snapshot=on," if m.boot == "usb" else ""
        out += ["-drive", f"if=none,id=stick,format=raw,{snapshot}file={image or ISO}",
                "-device", "qemu-xhci,id=xhci", "-device", "usb-storage,bus=xhci.0,drive=stick,bootindex=1"]
    elif m.boot == "pxe":
        out += ["-netdev", f"user,id=n0,tftp={image},bootfile={PXE_BOOTFILE[m.firmware]}",
                "-device", "e1000,netdev=n0,bootindex=1", "-boot", "n"]
    return out


def ovmf(run):
    """OVMF's code, and a private copy of its variable store (logs/ovmf-vars-RUN.fd), as pflash."""
    os.makedirs(LOGS, exist_ok=True)
    vars_copy = os.path.join(LOGS, f"ovmf-vars-{run}.fd")
    shutil.copyfile(OVMF_VARS, vars_copy)
    return ["-drive", f"if=pflash,format=raw,readonly=on,file={OVMF_CODE}",
            "-drive", f"if=pflash,format=raw,file={vars_copy}"]


# Whether the test running in this thread runs alone (run_boot_tests.py sets
# it for each test it starts; unset, as outside that runner, it does).
scheduled = threading.local()


def may_boot(name):
    """AssertionError when machine name must run alone and this test was
    scheduled beside others: run_boot_tests.py finds a test's machines in its
    code (the names it holds as constants); a name it cannot see there
    would be missed."""
    if get(name).alone and not getattr(scheduled, "alone", True):
        raise AssertionError(f"machine {name} runs alone, but this test was scheduled beside others: "
                             "name the machine as a constant in the test's code")

"""tests/boot/t_plan_stick.py - where the plan comes from (issue 32 item 1,
the boot side; README "Where the plan comes from", kernel/planfile.h):
the stick's plan.txt read through the firmware by GRUB's default entry,
the ISO's example as GRUB's boot module under BIOS, a stick without a plan
booting today's first entry, and a plan too large to read. The sticks are
writable copies of the shipped build/bench.iso (tests/boot/stick.py), its
menu as a lab user meets it: what is tested is what is shipped."""
import re
import zlib

from qemu import check
from screen import Machine
from stick import make_stick, put_file, root_files

# A plan of four experiments, each boot small (the defaults line).
PLAN = (b"# four experiments, each a few instructions a copy\n"
        b"defaults ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none\n"
        b"one_nop    code=90\n"
        b"two_adds   code=4801c04801c0\n"
        b"three_imul code=480fafc0480fafdb480fafc9 \\\n"
        b"           unroll=10\n"
        b"four_nops  code=90909090\n")
# The plan: line of a file read through the firmware from the stick.
FIRMWARE_LINE = ("plan: plan.txt read through the firmware from the boot device (\\plan.txt): "
                 "{bytes} bytes, CRC-32 0x{crc:08x}")
# The kernel's first record, after the plan: line (bench/main.c probe_print
# then planfile_print): a boot is watched up to here when its run is not
# the test's subject.
BOOTED = "plan: "


def watch(name, machine, image, until, timeout=None):
    """Boot image on machine and return the serial text once it holds until
    (its last line whole); QEMU is then stopped. AssertionError when QEMU
    exits first or time runs out (the machine's timeout)."""
    with Machine(name, machine=machine, image=image, debug_exit=True) as m:
        text = m.wait_for(until, m.serial_text, timeout or m.timeout, every=1.0)
        at = text.find(until)
        if "\n" not in text[at:]:
            text = m.wait_for(until + text[at + len(until):] + "\n", m.serial_text, 30, every=0.5)
    return text.replace("\r", "")


def plan_lines(text):
    return [l for l in text.split("\n") if l.startswith("plan: ")]


def test_plan_stick_too_large():
    """A plan.txt of PLANFILE_MAX + 1 bytes on the stick: GRUB's default
    entry runs it; the firmware's read says its size and that it is not
    read (kernel/planfile.h PLANFILE_MAX). Failed before: the default
    entry was the short run, no plan: line."""
    img = make_stick("plan-large")
    put_file(img, "::/plan.txt", b"#" * 65536 + b"\n")
    text = watch("plan-large", "ovmf-stick", img, BOOTED)
    lines = plan_lines(text)
    check(lines and lines[0] == "plan: plan.txt read through the firmware from the boot device (\\plan.txt): "
          "65537 bytes, more than the 65536 a plan may have: not read", f"the plan: lines {lines}", text[-3000:])

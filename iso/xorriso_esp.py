#!/usr/bin/python3
"""iso/xorriso_esp.py - the xorriso that grub-mkrescue runs (Makefile:
`grub-mkrescue --xorriso=iso/xorriso_esp.py`): the ISO as grub-mkrescue
makes it, but its EFI system partition a FAT of ESP_BYTES with room for
the runs' logs and an empty results/ folder (issue 23; the kernel writes
results/<run ID>.log there under UEFI), and the ISO's example plan
(boot/plan.txt of the tree, the Makefile's copy of iso/plan.txt) as
/plan-example.txt: never /plan.txt, which GRUB's menu runs by default
(README "Where the plan comes from"); a tree without one (a test's ISO)
gives none.

grub-mkrescue (GRUB 2.06) asks xorriso for `--efi-boot efi.img
-efi-boot-part --efi-boot-image --protective-msdos-label`: its efi.img, a
FAT sized to GRUB's EFI image (EFI/BOOT/BOOTX64.EFI, whose embedded config
finds the ISO by the volume date grub-mkrescue passes), is the El Torito EFI
image and a GPT partition. Here those options become the route of Debian's
live images (xorrisofs(1), -append_partition and "--interval:appended_
partition_NNN:all::"): `-append_partition 2 0xef ESP` and `-e
--interval:appended_partition_2:all::`, so one FAT is both the El Torito
EFI image (CD) and the MBR partition 2 of type 0xEF (stick). ESP holds what
efi.img held, copied with mtools (no root, no loop mount), and results/.
Every other option, BIOS El Torito and GRUB's hybrid MBR included, is
passed on as grub-mkrescue gave it.

The ESP is written beside the ISO (bench.iso -> bench-esp.img)."""
import os
import shutil
import subprocess
import sys
import tempfile

# El Torito counts a boot image's load size in 512-byte sectors, 16 bits
# (El Torito 1.0, section 2.4, "Sector Count"); xorriso's maximum, 65532
# sectors (xorriso(1), -boot_image load_size=: 33,552,384 bytes), lets a
# CD's firmware load the whole FAT: 32 MiB less 2 KiB.
ESP_BYTES = 65532 * 512
# The FAT's volume label: where a laptop mounts it (/media/$USER/BENCH),
# and how iso/grub.cfg finds it (search --label).
ESP_LABEL = "BENCH"
# The example plan: the tree's, and its name on the FAT.
PLAN_EXAMPLE = os.path.join("boot", "plan.txt")
PLAN_EXAMPLE_ESP = "::/plan-example.txt"
GRUB_EFI = ["--efi-boot", "efi.img", "-efi-boot-part", "--efi-boot-image", "--protective-msdos-label"]
ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")


def mtools(*args):
    """Run an mtools command; its output on failure, and exit status 1."""
    p = subprocess.run(list(args), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit(f"iso/xorriso_esp.py: {' '.join(args)} failed:\n{p.stdout.decode(errors='replace')}")


def make_esp(grub_efi_img, esp, example=None):
    """esp: a FAT of ESP_BYTES holding grub_efi_img's files, results/ and,
    when example (a path) is given, that file as /plan-example.txt."""
    with open(esp, "wb") as f:
        f.truncate(ESP_BYTES)
    mtools("mformat", "-i", esp, "-T", str(ESP_BYTES // 512), "-h", "64", "-s", "32", "-v", ESP_LABEL, "::")
    with tempfile.TemporaryDirectory() as stage:
        mtools("mcopy", "-s", "-n", "-i", grub_efi_img, "::/*", stage)
        mtools("mcopy", "-s", "-i", esp, *[os.path.join(stage, n) for n in sorted(os.listdir(stage))], "::/")
    mtools("mmd", "-i", esp, "::/results")
    if example:
        mtools("mcopy", "-i", esp, example, PLAN_EXAMPLE_ESP)


def example_plan(args):
    """boot/plan.txt of the first directory among xorriso's arguments that
    has one (grub-mkrescue passes the trees it was given last), or None."""
    for a in args:
        p = os.path.join(a, PLAN_EXAMPLE)
        if not a.startswith("-") and os.path.isdir(a) and os.path.isfile(p):
            return p
    return None


def main(args):
    if "-o" not in args:
        # grub-mkrescue's probe (`-as mkisofs -help`): xorriso's own answer.
        os.execvp("xorriso", ["xorriso"] + args)
    at = next((i for i in range(len(args)) if args[i:i + len(GRUB_EFI)] == GRUB_EFI), None)
    if at is None or "-r" not in args:
        sys.exit("iso/xorriso_esp.py: grub-mkrescue did not ask for its EFI image as GRUB 2.06 does: "
                 + " ".join(args))
    # grub-mkrescue's staging tree (after -r), which holds efi.img; the ISO
    # keeps the tree but not the image, which lives on as the ESP.
    efi_img = os.path.join(args[args.index("-r") + 1], "efi.img")
    out = args[args.index("-o") + 1]
    esp = os.path.splitext(out)[0] + "-esp.img"
    make_esp(efi_img, esp, example_plan(args))
    os.remove(efi_img)
    args = args[:at] + ["-append_partition", "2", "0xef", esp,
                        "-eltorito-alt-boot", "-e", "--interval:appended_partition_2:all::", "-no-emul-boot",
                        "-eltorito-alt-boot"] + args[at + len(GRUB_EFI):]
    os.execvp("xorriso", ["xorriso"] + args)


if __name__ == "__main__":
    main(sys.argv[1:])

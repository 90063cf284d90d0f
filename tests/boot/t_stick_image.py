"""tests/boot/t_stick_image.py - the ISO as a stick for saving runs' logs
(issue 23; the ISO's EFI system partition from iso/xorriso_esp.py, read
with tests/boot/stick.py): a FAT with room for many runs and an empty
results/ folder, which a test can fill; and the stick, written, still
boots under UEFI to the run's final line."""
from qemu import check, expect_complete, qemu
from stick import QUICK, esp, fill, free_bytes, list_results, make_stick, make_test_stick, put_result, read_result

MIB = 1024 * 1024


def test_stick_image_partition():
    """The 0xEF partition: >= 30 MiB free, results/ there and empty; a file
    written to it reads back; fill leaves less than asked."""
    img = make_stick("stick-image")
    offset, size = esp(img)
    free = free_bytes(img)
    check(free >= 30 * MIB, f"the EFI system partition ({size} bytes at byte {offset}) has {free} bytes free, "
          f"not the 30 MiB or more for runs' logs (iso/xorriso_esp.py)")
    check(list_results(img) == [], f"results/ is not empty: {list_results(img)}")
    data = bytes(range(256)) * 9
    put_result(img, "2026-01-01T00-00-00-0123456789abcdef.part", data)
    check(list_results(img) == ["2026-01-01T00-00-00-0123456789abcdef.part"], f"results/: {list_results(img)}")
    check(read_result(img, "2026-01-01T00-00-00-0123456789abcdef.part") == data, "the file read back differs")
    left = fill(img, 4096)
    check(0 <= left < 4096, f"fill(img, 4096) left {left} bytes free")
    check(fill(img, 4096) == left, "a second fill changed what was free")


def test_stick_image_boots_uefi():
    """OVMF boots the written stick (ovmf-stick) through its 0xEF partition
    to the run's final line (the ISO's default entry, the short run); the
    FAT is still readable afterwards."""
    img = make_stick("stick-boot")
    rc, text = qemu("stick-boot", "ovmf-stick", image=img)
    run = expect_complete(rc, text)
    check(run.one("env")["boot_protocol"] == 2, "not multiboot2", text)
    list_results(img)


def test_stick_image_test_iso_boots_uefi():
    """A test ISO laid out as the shipped one (make_test_stick) boots on
    ovmf-stick with the boot parameters given: the stick of the tests that
    read what the kernel writes."""
    img = make_test_stick("stick-quick", QUICK)
    check(free_bytes(img) >= 30 * MIB and list_results(img) == [], "the test ISO's EFI partition differs")
    rc, text = qemu("stick-quick", "ovmf-stick", image=img)
    run = expect_complete(rc, text)
    check(run.one("config")["ensembles"] == 2, f"not the boot parameters given: {run.one('config')}", text)

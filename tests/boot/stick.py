"""tests/boot/stick.py - the ISO written to a USB stick, for the tests of
issue 23 (the run's log saved on the medium it booted from): a writable
copy of the image to boot on the "ovmf-stick" machine (tests/boot/
machines.py), and its EFI system partition read and written on the host
with mtools, as a laptop would mount it. The partition is the FAT
iso/xorriso_esp.py appends to the ISO: MBR partition 2, type 0xEF, with
an empty results/ folder. No root, no loop mount: mtools reads the image
at the partition's byte offset (`-i IMAGE@@OFFSET`, mtools(1)).

Every function raises AssertionError, with mtools' message, when the image
has no such partition or mtools fails."""
import os
import re
import shutil
import struct
import subprocess
import tempfile

from machines import ISO, LOGS, ROOT

SECTOR = 512  # bytes; the MBR counts in these
MBR_ENTRIES, MBR_ENTRY_SIZE, MBR_SIGNATURE = 0x1BE, 16, 0x1FE
ESP_TYPE = 0xEF  # OSType of a UEFI system partition (UEFI 2.x, 5.2.1 "Legacy Master Boot Record")
RESULTS = "::/results"
# A run of a few seconds under OVMF and TCG (make_test_stick's append).
QUICK = "ensembles=2 samples=20 warmup=0 methods=cpuid workloads=add_chain_64"
# The xorriso the Makefile gives grub-mkrescue: the ISO's EFI partition.
XORRISO_ESP = os.path.join(ROOT, "iso", "xorriso_esp.py")
# Without it mtools refuses a FAT whose geometry does not match the disk's.
MTOOLS_ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")


def make_stick(run, iso=ISO):
    """A writable copy of iso (build/bench.iso unless given) at
    logs/stick-RUN.img, for run name run; returns its path. An earlier
    copy of the same run is replaced."""
    os.makedirs(LOGS, exist_ok=True)
    img = os.path.join(LOGS, f"stick-{run}.img")
    shutil.copyfile(iso, img)
    os.chmod(img, 0o644)
    return img


def make_test_stick(run, append):
    """make_stick of a test-only ISO (tests/boot/t_bootpaths.py
    grub_test_iso, logs/stick-RUN.iso) laid out as the shipped one, whose
    one menu entry boots build/bench.elf with boot parameters append."""
    from t_bootpaths import grub_test_iso
    return make_stick(run, grub_test_iso(f"stick-{run}", f"\tmultiboot2 /boot/bench.elf {append}", XORRISO_ESP))


def esp(img):
    """(offset, size) in bytes of img's first MBR partition of type 0xEF:
    the four entries at 0x1BE, 16 bytes each, type byte at +4, start LBA
    and sector count (little-endian 32 bits) at +8 and +12 (UEFI 2.x,
    5.2.1, table "Legacy MBR Partition Record")."""
    with open(img, "rb") as f:
        mbr = f.read(SECTOR)
    if len(mbr) < SECTOR or mbr[MBR_SIGNATURE:MBR_SIGNATURE + 2] != b"\x55\xaa":
        raise AssertionError(f"{img}: no MBR (no 0x55 0xAA at byte 510)")
    types = []
    for i in range(4):
        entry = mbr[MBR_ENTRIES + MBR_ENTRY_SIZE * i:MBR_ENTRIES + MBR_ENTRY_SIZE * (i + 1)]
        start, count = struct.unpack_from("<II", entry, 8)
        if entry[4] == ESP_TYPE and count:
            return start * SECTOR, count * SECTOR
        types.append(f"0x{entry[4]:02x}")
    raise AssertionError(f"{img}: no MBR partition of type 0x{ESP_TYPE:02x}; the types are {', '.join(types)}")


def esp_offset(img):
    """The byte offset of img's EFI system partition (esp above)."""
    return esp(img)[0]


def mtools(img, *args):
    """Run mtools command args[0] with args[1:] on img's EFI system
    partition; returns its standard output (bytes)."""
    cmd = [args[0], "-i", f"{img}@@{esp_offset(img)}"] + list(args[1:])
    p = subprocess.run(cmd, env=MTOOLS_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed: {p.stderr.decode(errors='replace').strip()}")
    return p.stdout


def free_bytes(img):
    """The bytes free on img's EFI system partition, as mdir counts them."""
    m = re.search(rb"([\d ]+) bytes free", mtools(img, "mdir", "::/"))
    if not m:
        raise AssertionError(f"{img}: mdir did not say how many bytes are free")
    return int(m.group(1).replace(b" ", b""))


def list_results(img):
    """The file names in results/ of img's EFI system partition, sorted
    (long names, as the kernel wrote them); AssertionError when there is
    no results/ folder."""
    paths = mtools(img, "mdir", "-b", RESULTS).decode().splitlines()
    return sorted(p[len(RESULTS) + 1:] for p in paths if p.startswith(RESULTS + "/"))


def read_result(img, name):
    """The bytes of results/NAME on img's EFI system partition."""
    return mtools(img, "mcopy", f"{RESULTS}/{name}", "-")


def put_result(img, name, data):
    """Write data (bytes) to results/NAME on img's EFI system partition,
    replacing a file of that name (a test's leftover, e.g. a .part)."""
    put_file(img, f"{RESULTS}/{name}", data)


def put_file(img, path, data):
    """Write data (bytes) to path (mtools' form, "::/plan.txt") on img's
    EFI system partition, replacing a file of that name, as a laptop
    would."""
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        mtools(img, "mcopy", "-o", f.name, path)


def root_files(img):
    """What the root folder of img's EFI system partition holds, sorted
    (long names; a folder's ends in "/", as mdir -b prints it)."""
    paths = mtools(img, "mdir", "-b", "::/").decode().splitlines()
    return sorted(p[len("::/"):] for p in paths if p.startswith("::/"))


def fill(img, leave_bytes):
    """Fill img's EFI system partition with one file of zeros (::/FILL.BIN)
    so that fewer than leave_bytes (1 or more) stay free; returns the bytes
    left free. A file of N bytes takes N rounded up to whole clusters, so
    free - leave_bytes + 1 bytes always fit and leave fewer than
    leave_bytes."""
    if leave_bytes < 1:
        raise AssertionError(f"fill: leave_bytes {leave_bytes} is not 1 or more")
    size = free_bytes(img) - leave_bytes + 1
    if size > 0:
        with tempfile.NamedTemporaryFile() as f:
            f.truncate(size)
            mtools(img, "mcopy", "-o", f.name, "::/FILL.BIN")
    return free_bytes(img)

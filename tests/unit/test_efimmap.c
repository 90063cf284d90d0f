/* tests/unit/test_efimmap.c - lib/efimmap.c: descriptors read at the map's
 * own stride, which types the kernel may take before and after
 * ExitBootServices, and the free ranges sorted, merged, capped and
 * checked. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/efimmap.h"

static uint8_t map[64 * 56];
static uint64_t nd, dsize;

static void reset(uint64_t desc_size)
{
	memset(map, 0xEE, sizeof map); /* the bytes past 40 of each descriptor: junk */
	nd = 0;
	dsize = desc_size;
}

static void add(uint32_t type, uint64_t base, uint64_t pages)
{
	uint8_t *e = map + nd++ * dsize;
	uint32_t pad = 0;
	uint64_t virt = 0, attr = 0xF; /* UC | WC | WT | WB */
	memcpy(e, &type, 4);
	memcpy(e + 4, &pad, 4);
	memcpy(e + 8, &base, 8);
	memcpy(e + 16, &virt, 8);
	memcpy(e + 24, &pages, 8);
	memcpy(e + 32, &attr, 8);
}

static struct efimmap_free ranges(int live, struct efi_range *out, uint64_t cap)
{
	return efimmap_free_ranges(map, nd * dsize, dsize, live, out, cap);
}

int main(void)
{
	struct efi_desc d;
	struct efi_range r[8];
	struct efimmap_free f;

	CHECK(efimmap_desc_size_ok(40) && efimmap_desc_size_ok(48), "40 and 48 are descriptor sizes");
	CHECK(!efimmap_desc_size_ok(32) && !efimmap_desc_size_ok(44) && !efimmap_desc_size_ok(0),
	      "32 (short), 44 (unaligned) and 0 are not");
	CHECK_EQ_U64(efimmap_count(48 * 3 + 47, 48), 3, "whole descriptors only");
	CHECK_EQ_U64(efimmap_count(480, 44), 0, "a bad size counts none");

	/* OVMF-like map, 48-byte descriptors, unsorted. */
	reset(48);
	add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x700);   /* 1 MiB .. 8 MiB */
	add(EFI_BOOT_SERVICES_DATA, 0x800000, 0x100);    /* 8 MiB .. 9 MiB */
	add(EFI_LOADER_DATA, 0x900000, 0x10);            /* the kernel, GRUB's MBI */
	add(EFI_CONVENTIONAL_MEMORY, 0x0, 0xA0);         /* 0 .. 640 KiB */
	add(EFI_CONVENTIONAL_MEMORY, 0x910000, 0x6F0);   /* 9.0625 MiB .. 16 MiB */
	add(EFI_CONVENTIONAL_MEMORY, 0x1000000, 0x1000); /* 16 MiB .. 32 MiB: touches the one before */
	add(EFI_RUNTIME_SERVICES_DATA, 0x2000000, 0x10);
	add(EFI_MEMORY_MAPPED_IO, 0xFFC00000, 0x400);
	CHECK(efimmap_get(map, nd * dsize, dsize, 1, &d), "descriptor 1 is read");
	CHECK(d.type == EFI_BOOT_SERVICES_DATA && d.base == 0x800000 && d.pages == 0x100,
	      "descriptor 1 at the 48-byte stride: BootServicesData at 8 MiB, 256 pages");
	CHECK_EQ_U64(d.attribute, 0xF, "its attribute");
	CHECK(!efimmap_get(map, nd * dsize, dsize, nd, &d), "descriptor 8 of 8 is out of range");

	f = ranges(1, r, 8);
	CHECK_EQ_U64(f.ranges, 3, "boot services live: 3 ranges of conventional memory");
	CHECK(r[0].base == 0 && r[0].length == 0xA0000, "0 .. 640 KiB first (sorted)");
	CHECK(r[1].base == 0x100000 && r[1].length == 0x700000, "1 .. 8 MiB");
	CHECK(r[2].base == 0x910000 && r[2].length == 0x2000000 - 0x910000,
	      "9.0625 .. 32 MiB: two touching descriptors merged");
	CHECK_EQ_U64(f.bytes, 0xA0000 + 0x700000 + 0x2000000 - 0x910000, "their total in bytes");
	CHECK(f.dropped == 0 && f.bad == 0, "none dropped, none bad");

	f = ranges(0, r, 8);
	CHECK_EQ_U64(f.ranges, 3, "after ExitBootServices: still 3 ranges");
	CHECK(r[1].base == 0x100000 && r[1].length == 0x800000,
	      "BootServicesData 8 .. 9 MiB joins 1 .. 8 MiB; LoaderData at 9 MiB stays out");

	CHECK(efimmap_usable(EFI_CONVENTIONAL_MEMORY, 1), "conventional memory: usable with boot services");
	CHECK(!efimmap_usable(EFI_BOOT_SERVICES_CODE, 1) && !efimmap_usable(EFI_BOOT_SERVICES_DATA, 1),
	      "boot services code/data: never while boot services live");
	CHECK(!efimmap_usable(EFI_LOADER_CODE, 0) && !efimmap_usable(EFI_LOADER_DATA, 0),
	      "loader code/data (the kernel, the MBI): never");
	CHECK(!efimmap_usable(EFI_RUNTIME_SERVICES_DATA, 0) && !efimmap_usable(EFI_ACPI_RECLAIM_MEMORY, 0) &&
	      !efimmap_usable(EFI_PERSISTENT_MEMORY, 0) && !efimmap_usable(EFI_UNACCEPTED_MEMORY, 0) &&
	      !efimmap_usable(0x80000001u, 0),
	      "runtime, ACPI, persistent, unaccepted and OS types: never");

	/* Capped: the lowest kept, the rest counted. */
	reset(40);
	for (uint64_t i = 4; i > 0; i--)
		add(EFI_CONVENTIONAL_MEMORY, i << 24, 1); /* 4 separate pages, highest first */
	f = ranges(1, r, 2);
	CHECK(f.ranges == 2 && f.dropped == 2, "cap 2 of 4: 2 kept, 2 dropped");
	CHECK(r[0].base == 1 << 24 && r[1].base == 2 << 24, "the two lowest kept");
	f = ranges(1, r, 0);
	CHECK(f.ranges == 0 && f.dropped == 4 && f.bytes == 0, "cap 0: all dropped");

	/* Overlaps (a firmware bug) merge; a descriptor bridging two ranges
	 * joins them. */
	reset(40);
	add(EFI_CONVENTIONAL_MEMORY, 0x10000, 0x10);
	add(EFI_CONVENTIONAL_MEMORY, 0x40000, 0x10);
	add(EFI_CONVENTIONAL_MEMORY, 0x18000, 0x30); /* 0x18000 .. 0x48000 */
	f = ranges(1, r, 8);
	CHECK(f.ranges == 1 && r[0].base == 0x10000 && r[0].length == 0x40000,
	      "a range over two others merges all three into 0x10000 .. 0x50000");

	/* Bad descriptors are counted and left out. */
	reset(40);
	add(EFI_CONVENTIONAL_MEMORY, 0x1800, 1);
	add(EFI_CONVENTIONAL_MEMORY, 0x2000, 0);
	add(EFI_CONVENTIONAL_MEMORY, 0xFFFFFFFFFFFFF000ull, 2);
	add(EFI_CONVENTIONAL_MEMORY, 0xFFFFFFFFFFFFE000ull, 1);
	f = ranges(1, r, 8);
	CHECK_EQ_U64(f.bad, 3, "unaligned base, 0 pages, an end past 2^64: 3 bad");
	CHECK(f.ranges == 1 && r[0].base == 0xFFFFFFFFFFFFE000ull && r[0].length == 0x1000,
	      "the page just below the last one is kept");

	CHECK_STR(efimmap_type_name(EFI_CONVENTIONAL_MEMORY), "EfiConventionalMemory", "type 7's name");
	CHECK_STR(efimmap_type_name(EFI_BOOT_SERVICES_DATA), "EfiBootServicesData", "type 4's name");
	CHECK_STR(efimmap_type_name(0x70000002u), "OEM type", "OEM range");
	CHECK_STR(efimmap_type_name(0x80000000u), "OS type", "OS range");
	CHECK_STR(efimmap_type_name(16), "unknown type", "type 16");
	return check_summary("efimmap");
}

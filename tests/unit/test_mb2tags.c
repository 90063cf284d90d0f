/* tests/unit/test_mb2tags.c - lib/mb2tags.c: walking multiboot2 tags and
 * reading the EFI ones (12, 17, 18, 20), as GRUB 2.06 lays them out, and
 * every malformed structure the walk must stop at. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/mb2tags.h"

static uint8_t buf[1024] __attribute__((aligned(8)));
static uint32_t used;

static void put32(uint32_t at, uint32_t v)
{
	memcpy(buf + at, &v, 4);
}

/* A new structure: the 8 header bytes; total_size set by finish(). */
static void start(void)
{
	memset(buf, 0xAA, sizeof buf);
	put32(4, 0);
	used = 8;
}

/* A tag of type and size (header included) with payload bytes after it; its
 * offset. The next tag starts at the 8-byte boundary. */
static uint32_t tag(uint32_t type, uint32_t size, const void *payload)
{
	uint32_t at = used;
	put32(at, type);
	put32(at + 4, size);
	if (payload && size > 8)
		memcpy(buf + at + 8, payload, size - 8);
	used = (at + size + 7) & ~7u;
	return at;
}

static void finish(void)
{
	tag(MB2_TAG_END, 8, 0);
	put32(0, used);
}

static struct mb2_efi walk(int *ntags)
{
	struct mb2_efi efi;
	memset(&efi, 0, sizeof efi);
	*ntags = 0;
	for (const uint8_t *t = mb2_tag_next(buf, 0); t; t = mb2_tag_next(buf, t)) {
		(*ntags)++;
		mb2_efi_take(t, &efi);
	}
	return efi;
}

/* A tag 17 payload: descr_size, descr_vers, then n descriptors of dsize
 * bytes, descriptor i of type types[i] at (i + 1) MiB, i + 1 pages. */
static uint32_t efi_mmap(uint32_t dsize, uint32_t n, const uint32_t *types, uint32_t extra)
{
	uint8_t p[512];
	memset(p, 0, sizeof p);
	memcpy(p, &dsize, 4);
	uint32_t vers = 1;
	memcpy(p + 4, &vers, 4);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t base = (i + 1ull) << 20, pages = i + 1;
		memcpy(p + 8 + i * dsize, &types[i], 4);
		memcpy(p + 8 + i * dsize + 8, &base, 8);
		memcpy(p + 8 + i * dsize + 24, &pages, 8);
	}
	return tag(MB2_TAG_EFI_MMAP, 16 + n * dsize + extra, p);
}

int main(void)
{
	int n;
	struct mb2_efi efi;
	static const uint32_t types[3] = { 7, 4, 2 };

	/* GRUB 2.06 with header tag 7 (boot services kept): cmdline, loader
	 * name, EFI64 system table, EFI_BS, EFI64 image handle; no map. */
	start();
	tag(1, 8 + 9, "ensemble");
	tag(2, 8 + 10, "GRUB 2.06");
	uint8_t ptr[8];
	uint64_t st = 0x7fe8e018, ih = 0x7e1c3a98;
	memcpy(ptr, &st, 8);
	tag(MB2_TAG_EFI64, 16, ptr);
	tag(MB2_TAG_EFI_BS, 8, 0);
	memcpy(ptr, &ih, 8);
	tag(MB2_TAG_EFI64_IH, 16, ptr);
	finish();
	efi = walk(&n);
	CHECK_EQ_U64(n, 5, "five tags before the end tag");
	CHECK_EQ_U64(efi.system_table, st, "tag 12: the system table's address");
	CHECK_EQ_U64(efi.image_handle, ih, "tag 20: the image handle");
	CHECK(efi.boot_services, "tag 18: boot services not terminated");
	CHECK(!efi.mmap && !efi.mmap_bad, "no tag 17: no EFI map, none bad");
	CHECK(mb2_efi_take(buf + 8, &efi) == 0, "tag 1 is not an EFI tag");

	/* Without tag 7: EFI64 and an EFI memory map of 48-byte descriptors
	 * (OVMF's size, not sizeof's 40). */
	start();
	memcpy(ptr, &st, 8);
	tag(MB2_TAG_EFI64, 16, ptr);
	uint32_t at17 = efi_mmap(48, 3, types, 0);
	finish();
	efi = walk(&n);
	CHECK_EQ_U64(n, 2, "two tags");
	CHECK(!efi.boot_services, "no tag 18: boot services terminated");
	CHECK(efi.mmap == buf + at17 + 16, "the descriptors start 16 bytes into tag 17");
	CHECK_EQ_U64(efi.desc_size, 48, "the descriptor size is the tag's (48), not sizeof (40)");
	CHECK_EQ_U64(efi.mmap_size, 3 * 48, "three descriptors' bytes");
	CHECK_EQ_U64(efi.desc_version, 1, "the descriptor version");

	/* A trailing partial descriptor is not counted. */
	start();
	efi_mmap(40, 2, types, 20);
	finish();
	efi = walk(&n);
	CHECK_EQ_U64(efi.mmap_size, 80, "2 whole 40-byte descriptors; the 20 bytes after them ignored");

	/* Descriptor sizes that cannot be. */
	start();
	efi_mmap(24, 2, types, 0);
	finish();
	efi = walk(&n);
	CHECK(efi.mmap_bad && !efi.mmap && !efi.mmap_size, "a 24-byte descriptor size is bad");
	start();
	efi_mmap(44, 2, types, 0);
	finish();
	efi = walk(&n);
	CHECK(efi.mmap_bad && !efi.mmap, "a 44-byte descriptor size (not a multiple of 8) is bad");
	start();
	tag(MB2_TAG_EFI_MMAP, 12, "\x30\0\0");
	finish();
	efi = walk(&n);
	CHECK(efi.mmap_bad && !efi.mmap, "a tag 17 of 12 bytes has no descriptor size: bad");

	/* A tag 12 too short for its pointer gives 0. */
	start();
	tag(MB2_TAG_EFI64, 12, "\x18\xe0\xe8\x7f");
	finish();
	efi = walk(&n);
	CHECK_EQ_U64(efi.system_table, 0, "a 12-byte tag 12 gives no pointer");

	/* Malformed structures: the walk stops inside the buffer. */
	start();
	tag(1, 8 + 4, "abc");
	uint32_t big = tag(2, 8 + 4, "xyz");
	finish();
	put32(big + 4, 200); /* reaches past total_size */
	walk(&n);
	CHECK_EQ_U64(n, 1, "a tag reaching past total_size ends the walk before it");
	start();
	tag(1, 8 + 4, "abc");
	uint32_t small = tag(2, 8 + 4, "xyz");
	finish();
	put32(small + 4, 4);
	walk(&n);
	CHECK_EQ_U64(n, 1, "a tag of size 4 (below its own header) ends the walk");
	start();
	tag(1, 8 + 4, "abc");
	put32(0, used); /* no end tag: the walk ends at total_size */
	walk(&n);
	CHECK_EQ_U64(n, 1, "no end tag: the walk ends at total_size");
	put32(0, 12);
	CHECK(mb2_tag_next(buf, 0) == 0, "a total_size of 12 holds no tag");
	start();
	finish();
	CHECK(mb2_tag_next(buf, 0) == 0, "only the end tag: no tag");
	return check_summary("mb2tags");
}

/* lib/mb2tags.c - see mb2tags.h. */
#include "mb2tags.h"
#include "efimmap.h"

/* Little-endian loads byte by byte: any alignment (the structure is 8-byte
 * aligned, Multiboot2 3.6.1, but a test's buffer need not be). */
static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

uint32_t mb2_tag_type(const uint8_t *tag)
{
	return rd32(tag);
}

uint32_t mb2_tag_size(const uint8_t *tag)
{
	return rd32(tag + 4);
}

const uint8_t *mb2_tag_next(const uint8_t *info, const uint8_t *tag)
{
	uint32_t total = rd32(info);
	if (total < 16)
		return 0;
	uint64_t at = tag ? (uint64_t)(tag - info) + ((mb2_tag_size(tag) + 7ull) & ~7ull) : 8;
	if (at + 8 > total)
		return 0;
	const uint8_t *p = info + at;
	uint32_t size = mb2_tag_size(p);
	if (mb2_tag_type(p) == MB2_TAG_END || size < 8 || size > total - at)
		return 0;
	return p;
}

int mb2_efi_take(const uint8_t *tag, struct mb2_efi *efi)
{
	uint32_t size = mb2_tag_size(tag);
	switch (mb2_tag_type(tag)) {
	case MB2_TAG_EFI64: /* u64 pointer at 8 */
		efi->system_table = size >= 16 ? rd64(tag + 8) : 0;
		return 1;
	case MB2_TAG_EFI64_IH:
		efi->image_handle = size >= 16 ? rd64(tag + 8) : 0;
		return 1;
	case MB2_TAG_EFI_BS:
		efi->boot_services = 1;
		return 1;
	case MB2_TAG_EFI_MMAP: { /* u32 descr_size, u32 descr_vers, descriptors at 16 */
		uint32_t dsize = size >= 16 ? rd32(tag + 8) : 0;
		efi->mmap = 0;
		efi->mmap_size = efi->desc_size = efi->desc_version = 0;
		efi->mmap_bad = !efimmap_desc_size_ok(dsize);
		if (!efi->mmap_bad) {
			efi->mmap = tag + 16;
			efi->mmap_size = (size - 16) / dsize * dsize; /* whole descriptors only */
			efi->desc_size = dsize;
			efi->desc_version = rd32(tag + 12);
		}
		return 1;
	}
	}
	return 0;
}

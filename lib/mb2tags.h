/* lib/mb2tags.h - walking a multiboot2 boot information structure's tags
 * (Multiboot2 specification 3.6.1-3.6.2) and reading its EFI tags (3.6.14
 * EFI 64-bit system table pointer, type 12; 3.6.19 EFI memory map, 17;
 * 3.6.20 EFI boot services not terminated, 18; 3.6.22 EFI 64-bit image
 * handle pointer, 20). Freestanding, reads only; host-tested
 * (tests/unit/test_mb2tags.c); kernel/multiboot.c walks with it.
 *
 * The structure: u32 total_size (bytes, the 8 header bytes included), u32
 * reserved, then tags, each u32 type, u32 size (bytes, its 8 header bytes
 * included, padding excluded), its payload, padded to 8 bytes; the list
 * ends with a tag of type 0 and size 8. GRUB 2.06 gives tags 12, 18 and 20
 * when the image asks to keep boot services (header tag 7) and 12 and 17
 * (after ExitBootServices) when it does not (grub-core/loader/
 * multiboot_mbi2.c; /work/notes/i23-research.md section 2). */
#ifndef LIB_MB2TAGS_H
#define LIB_MB2TAGS_H

#include <stdint.h>

#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1 /* 3.6.3 Boot command line: a NUL-terminated string at 8 */
#define MB2_TAG_EFI64 12
#define MB2_TAG_EFI_MMAP 17
#define MB2_TAG_EFI_BS 18
#define MB2_TAG_EFI64_IH 20

/* mb2_tag_next - the tag after tag in the structure at info (tag 0: the
 * first), or 0 at the end: the end tag, a tag whose size is below 8 or
 * reaches past total_size, or a total_size below 16. Never reads outside
 * info[0..total_size-1]. */
const uint8_t *mb2_tag_next(const uint8_t *info, const uint8_t *tag);

/* mb2_tag_type, mb2_tag_size - a tag's type and size (bytes, header
 * included, padding excluded). */
uint32_t mb2_tag_type(const uint8_t *tag);
uint32_t mb2_tag_size(const uint8_t *tag);

/* What the EFI tags say. A pointer is 0 when its tag is absent or too
 * short; mmap is 0 unless tag 17 holds a descriptor size of at least
 * EFI_MMAP_DESC_MIN bytes (lib/efimmap.h), and then points into the
 * structure: mmap_size bytes of descriptors, desc_size bytes apart (the
 * tag's, never sizeof: firmware may add fields), of version desc_version. */
struct mb2_efi {
	uint64_t system_table; /* EFI_SYSTEM_TABLE *, tag 12 */
	uint64_t image_handle; /* the loader's EFI_HANDLE, tag 20 */
	const uint8_t *mmap;   /* tag 17's descriptors */
	uint32_t mmap_size, desc_size, desc_version;
	int boot_services;     /* tag 18 present: ExitBootServices not called */
	int mmap_bad;          /* tag 17 present but its descriptor size is unusable */
};

/* mb2_efi_take - if tag is one of the EFI tags 12, 17, 18, 20, record it in
 * *efi and return 1; else leave *efi as it is and return 0. A later tag of
 * the same type replaces an earlier one. */
int mb2_efi_take(const uint8_t *tag, struct mb2_efi *efi);

#endif

/* lib/efimmap.h - reading a UEFI memory map (the buffer GetMemoryMap fills,
 * or multiboot2 tag 17's copy of it; lib/mb2tags.h) and the RAM in it that
 * the kernel may take. Freestanding, reads only; host-tested
 * (tests/unit/test_efimmap.c).
 *
 * A descriptor (UEFI 2.x 7.2 "EFI_BOOT_SERVICES.GetMemoryMap()",
 * EFI_MEMORY_DESCRIPTOR; EDK2 MdePkg/Include/Uefi/UefiSpec.h): u32 Type at
 * 0, u64 PhysicalStart at 8 (4 KiB aligned), u64 VirtualStart at 16, u64
 * NumberOfPages at 24 (4 KiB pages: EFI_PAGE_SIZE on every architecture),
 * u64 Attribute at 32: 40 bytes. Descriptors are DescriptorSize bytes
 * apart, which GetMemoryMap returns and which may exceed 40 ("never use
 * sizeof", UEFI 2.x 7.2; OVMF's is 48), so every function takes it. The
 * map is not sorted. */
#ifndef LIB_EFIMMAP_H
#define LIB_EFIMMAP_H

#include <stdint.h>

#define EFI_MMAP_DESC_MIN 40 /* sizeof(EFI_MEMORY_DESCRIPTOR) in UEFI 2.x */
#define EFI_PAGE_SIZE 4096ull

/* EFI_MEMORY_TYPE (UEFI 2.x 7.2, Table "Memory Type Usage before
 * ExitBootServices()"; EDK2 MdePkg/Include/Uefi/UefiMultiPhase.h). */
enum efi_memory_type {
	EFI_RESERVED_MEMORY = 0, EFI_LOADER_CODE = 1, EFI_LOADER_DATA = 2,
	EFI_BOOT_SERVICES_CODE = 3, EFI_BOOT_SERVICES_DATA = 4,
	EFI_RUNTIME_SERVICES_CODE = 5, EFI_RUNTIME_SERVICES_DATA = 6,
	EFI_CONVENTIONAL_MEMORY = 7, EFI_UNUSABLE_MEMORY = 8,
	EFI_ACPI_RECLAIM_MEMORY = 9, EFI_ACPI_MEMORY_NVS = 10,
	EFI_MEMORY_MAPPED_IO = 11, EFI_MEMORY_MAPPED_IO_PORT_SPACE = 12,
	EFI_PAL_CODE = 13, EFI_PERSISTENT_MEMORY = 14, EFI_UNACCEPTED_MEMORY = 15,
	EFI_MEMORY_TYPES = 16
};

struct efi_desc {
	uint32_t type;
	uint64_t base;  /* bytes, physical */
	uint64_t pages; /* 4 KiB pages */
	uint64_t attribute;
};

/* efimmap_desc_size_ok - 1 when desc_size (bytes) can be a descriptor
 * stride: at least EFI_MMAP_DESC_MIN and a multiple of 8 (the descriptor's
 * u64 fields stay aligned); 0 otherwise. */
int efimmap_desc_size_ok(uint64_t desc_size);

/* efimmap_count - the whole descriptors in map_size bytes; 0 when
 * desc_size is not ok. */
uint64_t efimmap_count(uint64_t map_size, uint64_t desc_size);

/* efimmap_get - descriptor i (0 .. efimmap_count - 1) of the map into *d:
 * 1, or 0 when i is out of range. */
int efimmap_get(const uint8_t *map, uint64_t map_size, uint64_t desc_size, uint64_t i,
		struct efi_desc *d);

/* efimmap_usable - 1 when memory of this type is free for the kernel to
 * take: EfiConventionalMemory always; EfiBootServicesCode/Data only once
 * boot services are gone (boot_services_live = 0: after ExitBootServices;
 * before it the firmware runs from them: UEFI 2.x 7.2 table "Memory Type
 * Usage before ExitBootServices()"). Never LoaderCode/Data (the kernel,
 * the loader's boot information and GRUB's own data: GRUB allocates the
 * kernel as EfiLoaderData, grub-core/lib/efi/relocator.c), runtime
 * services, ACPI, MMIO, persistent or unaccepted memory, nor an unknown
 * type (OEM 0x70000000-0x7FFFFFFF, OS 0x80000000 and up). */
int efimmap_usable(uint32_t type, int boot_services_live);

/* efimmap_type_name - the UEFI name of a type ("EfiConventionalMemory"),
 * "OEM type", "OS type" or "unknown type". */
const char *efimmap_type_name(uint32_t type);

/* A range of free RAM, bytes. */
struct efi_range {
	uint64_t base, length;
};

struct efimmap_free {
	uint64_t ranges;      /* written to out[], sorted by base, none adjacent */
	uint64_t bytes;       /* their total, bytes */
	uint64_t dropped;     /* usable ranges that did not fit in out[] (the highest) */
	uint64_t bad;         /* usable descriptors left out: base not 4 KiB aligned, 0 pages, or an end past 2^64 */
};

/* efimmap_free_ranges - the RAM the kernel may take (efimmap_usable), as
 * ranges in out[0 .. cap-1], sorted by base, adjacent or overlapping
 * descriptors merged. When they do not fit, the lowest are kept and the
 * rest counted in dropped. */
struct efimmap_free efimmap_free_ranges(const uint8_t *map, uint64_t map_size, uint64_t desc_size,
					int boot_services_live, struct efi_range *out, uint64_t cap);

#endif

/* kernel/multiboot.h - what the boot loader told us, copied out of its
 * information structure (Multiboot 0.6.96 section 3.3; Multiboot2 section
 * 3.6) before anything can overwrite it. */
#ifndef KERNEL_MULTIBOOT_H
#define KERNEL_MULTIBOOT_H

#include <stdint.h>
#include "../lib/cmdline.h"
#include "../lib/mb2tags.h"

#define MB1_BOOT_MAGIC 0x2BADB002u
#define MB2_BOOT_MAGIC 0x36D76289u

#define BOOT_MMAP_MAX 64
#define MMAP_AVAILABLE 1
/* Modules kept (Multiboot 0.6.96 3.3 flags bit 3 mods_*; Multiboot2 3.6.6
 * tag type 3): the first BOOT_MODULES_MAX, with their strings. */
#define BOOT_MODULES_MAX 8

struct boot_module {
	uint64_t start, end; /* physical, end exclusive (the loader's mod_end) */
	char name[64];       /* the module's string (GRUB: the words after its path) */
};

struct mmap_entry {
	uint64_t base, length;
	uint32_t type; /* 1 available, 2 reserved, 3 ACPI, 4 NVS, 5 bad */
};

struct boot_info {
	int protocol; /* 1 or 2; 0: unknown magic */
	uint32_t magic;
	char cmdline[CFG_MAX_LINE + 2]; /* one more than is read, to see "too long" */
	uint64_t cmdline_len;  /* the loader's line's length, counted up to CFG_LINE_COUNT_MAX */
	int cmdline_path_first; /* the loader put the image's path first (QEMU) */
	char loader[64];
	struct mmap_entry mmap[BOOT_MMAP_MAX];
	int nmmap;
	int mmap_truncated;
	uint64_t mem_lower_kib, mem_upper_kib; /* basic meminfo, 0 if absent */
	int has_meminfo;
	int fb_present;  /* framebuffer information given */
	int fb_type;     /* 0 indexed, 1 RGB, 2 EGA text */
	uint64_t fb_addr;
	uint32_t fb_width, fb_height, fb_pitch, fb_bpp;
	/* A copy of the RSDP from the multiboot2 ACPI tags (14: ACPI 1.0,
	 * 15: ACPI 2.0+; the new one wins), 0 bytes when absent. */
	uint8_t rsdp[64];
	uint32_t rsdp_len;
	/* The EFI tags 12, 17, 18, 20 (lib/mb2tags.h); all 0 under BIOS. Its
	 * mmap points into the loader's structure (EfiLoaderData under GRUB). */
	struct mb2_efi efi;
	/* The loader's modules (GRUB `module2 FILE STRING`, QEMU -initrd
	 * "FILE STRING"): where they are and their strings; their bytes stay
	 * where the loader put them (kernel/planfile.h copies the plan's out
	 * before mem_init hands that memory out). */
	struct boot_module modules[BOOT_MODULES_MAX];
	int nmodules;
	int modules_dropped; /* more than BOOT_MODULES_MAX given */
};

/* multiboot_parse - fill *bi from (magic, info_phys) as kernel_main got
 * them. An unknown magic leaves bi->protocol = 0 and everything empty. */
void multiboot_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi);

/* multiboot_ram_end - where the RAM the loader calls available, reached
 * without a hole from physical address start, ends: the memory map's
 * available (type 1) entries, or without a map the basic meminfo's
 * mem_upper (KiB from 1 MiB). Read from the loader's structures at
 * info_phys, writing nothing but the stack: callable before the kernel's
 * zeroed data is known to be in RAM (kernel/mem.h mem_image_fits). 0 when
 * start is not in available RAM, or the magic is neither multiboot's.
 * Multiboot 0.6.96 3.3, Multiboot2 3.6.7-3.6.8. */
uint64_t multiboot_ram_end(uint32_t magic, uint64_t info_phys, uint64_t start);

/* multiboot_cmdline - bi's command line for lib/cmdline.h: the copy, the
 * loader's length, and whether its first word is the image's path. QEMU's
 * multiboot1 loader (boot loader name "qemu") writes "PATH APPEND" (QEMU
 * hw/i386/multiboot.c, load_multiboot), so its first word is the path
 * whatever it looks like; GRUB 2 writes the words after the image's path
 * only, for multiboot and multiboot2 alike (GRUB 2.06, checked under QEMU). */
struct cfg_line multiboot_cmdline(const struct boot_info *bi);

#endif

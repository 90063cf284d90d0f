/* kernel/planfile.h - the plan file (plan=FILE, README "A plan: many
 * experiments in one boot"): its bytes, from where they came, said in one
 * line. The parsing is lib/plan.h's, the running bench/plan.h's.
 *
 * Two sources, in this order:
 *   efi     under UEFI, read by efi_early through the firmware before the
 *           kernel takes the machine: FILE on the file system of the device
 *           GRUB was loaded from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle,
 *           EFI_SIMPLE_FILE_SYSTEM_PROTOCOL; UEFI 2.x 9.1, 13.4, 13.5), the
 *           same device the results are written to (kernel/efi.h);
 *   module  a boot module whose string names FILE (GRUB `module2 PATH
 *           FILE`, QEMU -initrd "PATH FILE"; Multiboot 0.6.96 3.3,
 *           Multiboot2 3.6.6): under BIOS, and under UEFI when the firmware
 *           read found nothing (a CD, a network boot).
 * The bytes are copied into the kernel's own buffer of PLANFILE_MAX bytes
 * before mem_init hands the module's memory out. */
#ifndef KERNEL_PLANFILE_H
#define KERNEL_PLANFILE_H

#include <stdint.h>
#include "multiboot.h"

/* The largest plan file read, in bytes; a larger one is a problem. */
#define PLANFILE_MAX 65536

/* The longest why, in bytes with its NUL. */
#define PLANFILE_WHY_MAX 240

enum planfile_source { PLANFILE_NONE, PLANFILE_EFI, PLANFILE_MODULE };

struct planfile {
	int asked;          /* 1: plan= named a file */
	int source;         /* enum planfile_source */
	char name[64];      /* plan='s FILE */
	char *text;         /* the bytes, NUL-terminated (NULL when none) */
	uint64_t bytes;     /* their count, 0..PLANFILE_MAX */
	uint32_t crc32;     /* CRC-32 (IEEE 802.3, lib/crc32.h) of the bytes */
	int too_large;      /* 1: the file had more than PLANFILE_MAX bytes (none kept) */
	char why[PLANFILE_WHY_MAX]; /* why there are no bytes, one line: when source
			     * is PLANFILE_NONE the firmware's step and EFI_STATUS by
			     * name, no module; when too_large the size and the limit */
	char efi_why[PLANFILE_WHY_MAX]; /* when efi_early's read failed: its step,
			     * the path and EFI_STATUS by name ("" otherwise) */
};

/* planfile_load - called after config_parse and before mem_init: when
 * name is neither "" nor "off", take the plan's bytes (efi_early's read
 * under UEFI when it found the file, else the first module whose string
 * has a word equal to name or ending in "/" name) into the kernel's
 * buffer. Never fails: what was not found is said by planfile_print. */
void planfile_load(const struct boot_info *bi, const char *name);

/* planfile_get - what planfile_load found (asked 0 when no plan=). */
const struct planfile *planfile_get(void);

/* planfile_print - when a plan was asked for: one "plan:" line (the file,
 * its source, bytes and CRC-32, or why there is none) and a record
 * {"rec":"plan_file",...} (docs/RECORDS.md). Nothing without plan=. */
void planfile_print(void);

#endif

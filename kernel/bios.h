/* kernel/bios.h - what a PC BIOS leaves in low memory for the kernel.
 *
 * The BIOS data area (BDA) starts at 400h; its word at 40:0Eh (physical
 * 40Eh) holds the real-mode segment of the Extended BIOS Data Area (EBDA),
 * the firmware's own memory just below 640 KiB (ACPI 6.5 5.2.5.1 looks
 * there for the RSDP; IBM PC/AT BIOS data area layout). Under UEFI, or
 * where no BIOS wrote it, the word holds whatever the memory held.
 */
#ifndef KERNEL_BIOS_H
#define KERNEL_BIOS_H

#include <stdint.h>

/* bios_ebda - the EBDA's physical address (the segment at 40:0Eh times 16),
 * or 0 when that is outside 80000h-9FFFFh, where no EBDA can be (it lies
 * in conventional memory, below the legacy video area at 0A0000h, and is
 * at most 128 KiB): no BIOS, or a word that was never set. Needs the
 * first page identity-mapped (boot/entry.asm). Never faults. */
static inline uint64_t bios_ebda(void)
{
	uint16_t seg;
	__asm__ volatile("movw (%1), %0" : "=r"(seg) : "r"(0x40Eull)); /* GCC rejects a constant pointer there */
	uint64_t ebda = (uint64_t)seg << 4;
	return ebda >= 0x80000 && ebda < 0xA0000 ? ebda : 0;
}

#endif

/* kernel/bios.h - what a PC BIOS leaves in low memory for the kernel, read
 * once, and page 0 taken out of the map afterwards.
 *
 * The BIOS data area (BDA) starts at 400h; its word at 40:0Eh (physical
 * 40Eh) holds the real-mode segment of the Extended BIOS Data Area (EBDA),
 * the firmware's own memory just below 640 KiB (ACPI 6.5 5.2.5.1 looks
 * there for the RSDP; IBM PC/AT BIOS data area layout). Under UEFI, or
 * where no BIOS wrote it, the word holds whatever the memory held.
 *
 * That word is all the kernel reads in page 0 (0..FFFh: the real-mode
 * interrupt vector table and the BDA; the AP trampoline's page, the EBDA
 * and the BIOS area above it are other pages). Once it is read, page 0 is
 * unmapped, so that a null pointer, a RET to 0 or a CALL 0 faults (#PF)
 * instead of running the vector table as code.
 */
#ifndef KERNEL_BIOS_H
#define KERNEL_BIOS_H

#include <stdint.h>

/* bios_read_low_memory - keep the word at 40Eh, then unmap page 0
 * (kernel/paging.h paging_unmap). Called once, on the boot CPU, by
 * mem_init, before anything else reads low memory or starts another CPU.
 * Returns 0, or -1 when page 0 stays mapped (paging_unmap's tables used up:
 * paging_refusal says so). */
int bios_read_low_memory(void);

/* bios_ebda - the EBDA's physical address (the segment kept from 40:0Eh
 * times 16), or 0 when that is outside 80000h-9FFFFh, where no EBDA can be
 * (it lies in conventional memory, below the legacy video area at 0A0000h,
 * and is at most 128 KiB): no BIOS, a word that was never set, or
 * bios_read_low_memory not called yet. */
uint64_t bios_ebda(void);

#endif

/* kernel/pic.h - the legacy 8259A interrupt controllers. */
#ifndef KERNEL_PIC_H
#define KERNEL_PIC_H

#include <stdint.h>

/* pic_mask_all - mask every IRQ line on both 8259As (OCW1 = 0xFF to ports
 * 0x21 and 0xA1; 8259A data sheet, "Operation Command Words"). With
 * RFLAGS.IF clear they could not interrupt us anyway; masked, they cannot
 * even be pending at the CPU. */
void pic_mask_all(void);

/* pic_masks - the two 8259As' interrupt mask registers as they are (OCW1
 * read back from ports 0x21 and 0xA1): master in bits 7:0, slave in
 * 15:8. pic_set_masks - write them back. For the firmware's timer after a
 * UEFI run (kernel/efi.c): its 8259 vector bases are never changed here,
 * only the masks. */
uint16_t pic_masks(void);
void pic_set_masks(uint16_t masks);

#endif

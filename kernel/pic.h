/* kernel/pic.h - the legacy 8259A interrupt controllers. */
#ifndef KERNEL_PIC_H
#define KERNEL_PIC_H

/* pic_mask_all - mask every IRQ line on both 8259As (OCW1 = 0xFF to ports
 * 0x21 and 0xA1; 8259A data sheet, "Operation Command Words"). With
 * RFLAGS.IF clear they could not interrupt us anyway; masked, they cannot
 * even be pending at the CPU. */
void pic_mask_all(void);

#endif

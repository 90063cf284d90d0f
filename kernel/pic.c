/* kernel/pic.c - see pic.h. */
#include "pic.h"
#include "cpu.h"

void pic_mask_all(void)
{
	outb(0x21, 0xFF);
	io_delay();
	outb(0xA1, 0xFF);
	io_delay();
}

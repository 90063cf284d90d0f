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

uint16_t pic_masks(void)
{
	uint16_t m = inb(0x21);
	io_delay();
	m |= (uint16_t)inb(0xA1) << 8;
	io_delay();
	return m;
}

void pic_set_masks(uint16_t masks)
{
	outb(0x21, (uint8_t)masks);
	io_delay();
	outb(0xA1, (uint8_t)(masks >> 8));
	io_delay();
}

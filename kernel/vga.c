/* kernel/vga.c - see vga.h. */
#include "vga.h"
#include <stdint.h>

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700 /* light grey on black */

static volatile uint16_t *const vga = (volatile uint16_t *)0xB8000;
static int row, col, enabled;

void vga_init(void)
{
	for (int i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga[i] = VGA_ATTR | ' ';
	row = col = 0;
	enabled = 1;
}

static void newline(void)
{
	col = 0;
	if (++row < VGA_ROWS)
		return;
	for (int i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		vga[i] = vga[i + VGA_COLS];
	for (int i = 0; i < VGA_COLS; i++)
		vga[VGA_COLS * (VGA_ROWS - 1) + i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

void vga_write(const char *s, size_t n)
{
	if (!enabled)
		return;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n') {
			newline();
		} else if (c == '\r') {
			col = 0;
		} else {
			if (col == VGA_COLS)
				newline();
			vga[row * VGA_COLS + col++] = VGA_ATTR | (uint8_t)c;
		}
	}
}

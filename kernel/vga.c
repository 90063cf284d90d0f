/* kernel/vga.c - see vga.h. */
#include "vga.h"
#include <stdint.h>
#include "cpu.h"
#include "../lib/textcursor.h"

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700 /* light grey on black */
#define CRTC_INDEX 0x3D4
#define CRTC_DATA 0x3D5
#define CRTC_CURSOR_START 0x0A
#define CURSOR_DISABLE 0x20

static volatile uint16_t *const vga = (volatile uint16_t *)0xB8000;
/* A copy of the screen, so a scroll only writes video memory (reads of it
 * are slow on hardware and trap to the emulator under QEMU). */
static uint16_t shadow[VGA_COLS * VGA_ROWS];
static int enabled;

static void put(void *ctx, int row, int col, char ch)
{
	(void)ctx;
	int at = row * VGA_COLS + col;
	vga[at] = shadow[at] = VGA_ATTR | (uint8_t)ch;
}

static void scroll(void *ctx)
{
	(void)ctx;
	for (int i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		vga[i] = shadow[i] = shadow[i + VGA_COLS];
	for (int i = VGA_COLS * (VGA_ROWS - 1); i < VGA_COLS * VGA_ROWS; i++)
		vga[i] = shadow[i] = VGA_ATTR | ' ';
}

static struct text_cursor cursor = { .rows = VGA_ROWS, .cols = VGA_COLS, .put = put, .scroll = scroll };

/* One read-back of the CRTC index register (VGA: read/write; absent: the
 * bus floats to 0xFF). Compared on bits 0-4, which every VGA index holds. */
static int crtc_index_holds(uint8_t v)
{
	outb(CRTC_INDEX, v);
	return (inb(CRTC_INDEX) & 0x1F) == v;
}

int vga_present(void)
{
	uint8_t index = inb(CRTC_INDEX);
	int crtc = crtc_index_holds(0x0A) && crtc_index_holds(0x15);
	outb(CRTC_INDEX, index);
	uint16_t cell = vga[0];
	vga[0] = 0x55AA;
	int mem = vga[0] == 0x55AA;
	vga[0] = 0xAA55;
	mem = mem && vga[0] == 0xAA55;
	vga[0] = cell;
	return crtc && mem;
}

void vga_init(void)
{
	for (int i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga[i] = shadow[i] = VGA_ATTR | ' ';
	text_cursor_home(&cursor);
	enabled = 1;
	/* No blinking cursor over the results. */
	outb(CRTC_INDEX, CRTC_CURSOR_START);
	outb(CRTC_DATA, CURSOR_DISABLE);
}

void vga_write(const char *s, size_t n)
{
	if (enabled)
		text_cursor_write(&cursor, s, n);
}

void vga_goto(int row, int col)
{
	text_cursor_goto(&cursor, row, col);
}

int vga_cursor_row(void)
{
	return cursor.row;
}

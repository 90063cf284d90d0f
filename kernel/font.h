/* kernel/font.h - the framebuffer console's bitmap font (kernel/font.c):
 * 8x16 pixel cells, printable ASCII 0x20-0x7E and one box glyph (index
 * FONT_BOX) drawn for every other byte. Row r of glyph g is
 * font_glyphs[g][r], bit 7 the leftmost pixel. */
#ifndef KERNEL_FONT_H
#define KERNEL_FONT_H

#include <stdint.h>

#define FONT_WIDTH 8
#define FONT_HEIGHT 16
#define FONT_FIRST 0x20
#define FONT_GLYPHS 96 /* 0x20-0x7E, then the box */
#define FONT_BOX (FONT_GLYPHS - 1)

extern const uint8_t font_glyphs[FONT_GLYPHS][FONT_HEIGHT];

/* font_index - the glyph drawn for byte c. */
static inline int font_index(unsigned char c)
{
	return c >= FONT_FIRST && c < FONT_FIRST + FONT_BOX ? c - FONT_FIRST : FONT_BOX;
}

#endif

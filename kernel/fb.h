/* kernel/fb.h - a text console on the linear framebuffer a multiboot2 loader
 * hands over (GRUB under UEFI: the firmware's GOP framebuffer), drawn with
 * the built-in 8x16 font (kernel/font.h).
 *
 * Direct-colour (RGB) framebuffers of 32 or 24 bits per pixel are drawn;
 * the text is light grey on black, colours whose red, green and blue are
 * equal, so the order of the channels in a pixel does not matter (the
 * boot information's colour fields are not needed). The text starts at the
 * top left corner; the cells that do not fit stay black.
 *
 * What is on the screen is kept in a shadow text buffer: a write changes
 * the buffer, then every cell whose character changed is drawn again. A
 * scroll is a copy within the buffer and a redraw of the cells that
 * differ from the row below them; the framebuffer is never read (reads of
 * video memory are slow, uncached). Writes are done a 64-bit store at a
 * time and, when the CPU has a PAT (CPUID.1:EDX[16]), through a
 * write-combining mapping (see fb.c).
 */
#ifndef KERNEL_FB_H
#define KERNEL_FB_H

#include <stddef.h>
#include <stdint.h>
#include "multiboot.h"

enum fb_status {
	FB_OK,
	FB_NOT_RGB,      /* indexed colour or EGA text: not a direct-colour framebuffer */
	FB_BAD_DEPTH,    /* not 24 or 32 bits per pixel */
	FB_BAD_GEOMETRY, /* smaller than one character, or a pitch below width x bytes */
	FB_UNMAPPED,     /* at 0, or kernel/paging.c could not map it (its paging: line says why) */
};

/* fb_init - take over the framebuffer bi describes (bi->fb_present) and
 * clear it. Returns FB_OK, or why it was refused; then nothing is drawn. */
enum fb_status fb_init(const struct boot_info *bi);

/* fb_write - write n bytes: '\n' ends a line, '\r' returns to column 0,
 * a full line wraps, the screen scrolls at the bottom; other bytes outside
 * 0x20-0x7E are drawn as a box. */
void fb_write(const char *s, size_t n);

/* fb_clear - clear the screen and start again at the top left. */
void fb_clear(void);

/* The text geometry, and whether the framebuffer is mapped write-combining. */
int fb_cols(void);
int fb_rows(void);
int fb_write_combining(void);

/* Pixels, for drawing beside the text (the QR code of the results,
 * kernel/qr.c). fb_width, fb_height: the size in pixels, 0 without a
 * framebuffer. fb_cursor_row: the text row the next character goes to.
 * fb_row_extent: the columns of text row r up to its last non-blank
 * character (0: blank, or no such row). */
uint32_t fb_width(void);
uint32_t fb_height(void);
int fb_cursor_row(void);
int fb_row_extent(int r);

/* fb_keep_out - from here on text rows row0..row1 end at column cols
 * (lib/textcursor.h text_cursor_keep_out): what is written there wraps
 * left of the picture drawn right of it (the QR code beside the end
 * screen, kernel/qr.c). cols 0: none; fb_clear ends it. */
void fb_keep_out(int row0, int row1, int cols);

/* fb_goto - the next character to text row row, column col (clamped to
 * the screen): for rows rewritten in place (kernel/console.h
 * console_area_open). */
void fb_goto(int row, int col);

/* fb_fill_rect - fill w x h pixels from (x, y) (clipped to the screen)
 * with grey level (R = G = B = level: 0 black, 0xFF white). Not recorded
 * in the text buffer: a later scroll or fb_show_text draws over it. */
void fb_fill_rect(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint8_t level);

/* fb_draw_string - s drawn with the font from pixel (x, y) (x rounded down
 * to even), light grey on black, cut at the right edge; not recorded in
 * the text buffer. */
void fb_draw_string(uint32_t x, uint32_t y, const char *s);

/* fb_show_text - clear the screen and draw the text buffer again (after
 * fb_fill_rect or fb_draw_string drew over it). */
void fb_show_text(void);

#endif

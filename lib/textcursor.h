/* lib/textcursor.h - the text cursor of a character screen, shared by the
 * VGA text console (kernel/vga.c) and the framebuffer console
 * (kernel/fb.c): where the next character goes, line ends, carriage
 * returns, wrapping at the last column and scrolling at the last row.
 * The screen itself (cells in video memory, or glyphs drawn from a text
 * copy) is the caller's, through two callbacks. Pure C; host-tested in
 * tests/unit/test_textcursor.c. */
#ifndef LIB_TEXTCURSOR_H
#define LIB_TEXTCURSOR_H

#include <stddef.h>

struct text_cursor {
	int rows, cols; /* the screen's size in characters, each >= 1 */
	int row, col;   /* the next character's place: 0..rows-1, 0..cols (cols: the line is full) */
	/* put: character ch at (row, col); scroll: every row up by one, the
	 * last row blank (the cursor is then on the last row). */
	void (*put)(void *ctx, int row, int col, char ch);
	void (*scroll)(void *ctx);
	void *ctx;
	/* A keep-out (text_cursor_keep_out): rows keep_row0..keep_row1 wrap
	 * at column keep_cols; keep_cols 0: none. */
	int keep_row0, keep_row1, keep_cols;
};

/* text_cursor_home - the cursor to row 0, column 0. */
void text_cursor_home(struct text_cursor *t);

/* text_cursor_goto - the cursor to (row, col), each clamped to the screen
 * (row 0..rows-1, col 0..cols): for text rewritten in place, such as a
 * progress area (kernel/console.h console_area_line). Nothing is drawn. */
void text_cursor_goto(struct text_cursor *t, int row, int col);

/* text_cursor_keep_out - from here on rows row0..row1 (screen rows, 0 ..
 * rows-1) end at column cols (1 .. the screen's cols): a line written there
 * wraps at cols, so that the cells right of it stay as they are (the QR
 * code drawn beside the end screen's text, kernel/qr.c). cols 0: no
 * keep-out. Text already there is not moved; a scroll moves the text, not
 * the keep-out. text_cursor_home does not clear it. */
void text_cursor_keep_out(struct text_cursor *t, int row0, int row1, int cols);

/* text_cursor_write - s[0..n-1] at the cursor: '\n' starts the next line
 * (scrolling at the last row), '\r' returns to column 0, any other byte is
 * put, a full line (cols, or a keep-out row's keep_cols) wrapping first. */
void text_cursor_write(struct text_cursor *t, const char *s, size_t n);

#endif

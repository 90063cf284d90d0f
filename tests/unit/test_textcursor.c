/* tests/unit/test_textcursor.c - lib/textcursor.c: the text cursor shared
 * by the VGA text and framebuffer consoles (kernel/vga.c, kernel/fb.c):
 * writing, line ends, carriage returns, wrapping and scrolling. */
#include <string.h>
#include "check.h"
#include "../../lib/textcursor.h"

#define ROWS 3
#define COLS 4
static char screen[ROWS][COLS + 1];
static int scrolls;

static void put(void *ctx, int r, int c, char ch)
{
	(void)ctx;
	screen[r][c] = ch;
}

static void scroll(void *ctx)
{
	(void)ctx;
	scrolls++;
	memmove(screen[0], screen[1], sizeof screen - sizeof screen[0]);
	memset(screen[ROWS - 1], ' ', COLS);
}

static struct text_cursor fresh(void)
{
	for (int r = 0; r < ROWS; r++) {
		memset(screen[r], ' ', COLS);
		screen[r][COLS] = '\0';
	}
	scrolls = 0;
	struct text_cursor t = { .rows = ROWS, .cols = COLS, .put = put, .scroll = scroll };
	text_cursor_home(&t);
	return t;
}

int main(void)
{
	struct text_cursor t = fresh();
	text_cursor_write(&t, "ab\ncd", 5);
	CHECK_STR(screen[0], "ab  ", "first line before the newline");
	CHECK_STR(screen[1], "cd  ", "second line after it");
	CHECK(t.row == 1 && t.col == 2, "cursor after \"cd\": row 1, column 2 (%d, %d)", t.row, t.col);

	text_cursor_write(&t, "\rX", 2);
	CHECK_STR(screen[1], "Xd  ", "carriage return: back to column 0, the rest kept");

	t = fresh();
	text_cursor_write(&t, "abcdef", 6);
	CHECK_STR(screen[0], "abcd", "a full line: the first 4 columns");
	CHECK_STR(screen[1], "ef  ", "the fifth character wraps to the next line");

	t = fresh();
	text_cursor_write(&t, "abcd\n", 5);
	CHECK(t.row == 1 && t.col == 0, "a full line then a newline: one new line, not two (%d, %d)", t.row, t.col);

	t = fresh();
	text_cursor_write(&t, "1\n2\n3\n4", 7);
	CHECK_EQ_U64(scrolls, 1, "the fourth line of three rows scrolls once");
	CHECK_STR(screen[0], "2   ", "after the scroll: line 2 on top");
	CHECK_STR(screen[2], "4   ", "line 4 on the last row");
	CHECK(t.row == ROWS - 1, "the cursor stays on the last row (%d)", t.row);

	text_cursor_write(&t, "", 0);
	CHECK_EQ_U64(scrolls, 1, "nothing written: nothing changes");

	/* A line rewritten in place (a progress area): a full row written
	 * from column 0 neither wraps nor scrolls, and the rows around it
	 * keep their text. */
	t = fresh();
	text_cursor_write(&t, "a\nb\nc", 5);
	text_cursor_goto(&t, 1, 0);
	text_cursor_write(&t, "WXYZ", 4);
	CHECK_STR(screen[0], "a   ", "goto: the row above is kept");
	CHECK_STR(screen[1], "WXYZ", "goto: row 1 rewritten, all 4 columns");
	CHECK_STR(screen[2], "c   ", "goto: the row below is kept");
	CHECK(t.row == 1 && t.col == COLS, "a full row: the cursor waits at column 4 of row 1 (%d, %d)", t.row,
	      t.col);
	CHECK_EQ_U64(scrolls, 0, "a full row rewritten in place does not scroll");
	text_cursor_goto(&t, 2, 0);
	text_cursor_write(&t, "\n", 1);
	CHECK(t.row == 2 && scrolls == 1, "a newline on the last row scrolls (row %d, %d scrolls)", t.row, scrolls);

	text_cursor_goto(&t, -3, 99);
	CHECK(t.row == 0 && t.col == COLS, "goto clamps to row 0, column 4 (%d, %d)", t.row, t.col);
	text_cursor_goto(&t, 99, -1);
	CHECK(t.row == ROWS - 1 && t.col == 0, "goto clamps to the last row, column 0 (%d, %d)", t.row, t.col);

	/* A keep-out (the QR code beside the end screen): rows 1..2 end at
	 * column 2; row 0 keeps its 4. */
	t = fresh();
	text_cursor_keep_out(&t, 1, 2, 2);
	text_cursor_write(&t, "abcdef", 6);
	CHECK_STR(screen[0], "abcd", "keep-out: row 0 outside it, all 4 columns");
	CHECK_STR(screen[1], "ef  ", "keep-out: row 1 gets the rest");
	text_cursor_write(&t, "ghi", 3);
	CHECK(scrolls == 1 && t.row == 2 && t.col == 1, "keep-out: \"ghi\" wraps at column 2 twice, the second past the "
	      "last row: one scroll (%d scrolls, row %d, column %d)", scrolls, t.row, t.col);
	CHECK_STR(screen[0], "ef  ", "keep-out: row 1 scrolled up, its columns 2-3 blank");
	CHECK_STR(screen[1], "gh  ", "keep-out: row 2 held two characters");
	CHECK_STR(screen[2], "i   ", "keep-out: the third on the last row");
	t = fresh();
	text_cursor_keep_out(&t, 0, 2, 9);
	CHECK(t.keep_cols == COLS, "a keep-out wider than the screen is the screen's width (%d)", t.keep_cols);
	text_cursor_keep_out(&t, 0, 2, 0);
	text_cursor_write(&t, "abcd", 4);
	CHECK(t.row == 0 && t.col == COLS, "keep-out 0: none, a full row of 4 (%d, %d)", t.row, t.col);
	return check_summary("test_textcursor");
}

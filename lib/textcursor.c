/* lib/textcursor.c - see textcursor.h. */
#include "textcursor.h"

void text_cursor_home(struct text_cursor *t)
{
	t->row = t->col = 0;
}

void text_cursor_goto(struct text_cursor *t, int row, int col)
{
	t->row = row < 0 ? 0 : row >= t->rows ? t->rows - 1 : row;
	t->col = col < 0 ? 0 : col > t->cols ? t->cols : col;
}

void text_cursor_keep_out(struct text_cursor *t, int row0, int row1, int cols)
{
	t->keep_row0 = row0;
	t->keep_row1 = row1;
	t->keep_cols = cols < 0 ? 0 : cols > t->cols ? t->cols : cols;
}

/* The columns of the cursor's row: cols, or a keep-out row's keep_cols. */
static int row_cols(const struct text_cursor *t)
{
	return t->keep_cols && t->row >= t->keep_row0 && t->row <= t->keep_row1 ? t->keep_cols : t->cols;
}

static void newline(struct text_cursor *t)
{
	t->col = 0;
	if (++t->row < t->rows)
		return;
	t->scroll(t->ctx);
	t->row = t->rows - 1;
}

void text_cursor_write(struct text_cursor *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n') {
			newline(t);
		} else if (c == '\r') {
			t->col = 0;
		} else {
			if (t->col >= row_cols(t))
				newline(t);
			t->put(t->ctx, t->row, t->col++, c);
		}
	}
}

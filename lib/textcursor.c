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
			if (t->col >= t->cols)
				newline(t);
			t->put(t->ctx, t->row, t->col++, c);
		}
	}
}

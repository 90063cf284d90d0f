/* kernel/fb.c - see fb.h.
 *
 * Write-combining. The boot code maps the first 4 GiB with 2 MiB pages,
 * PAT = PCD = PWT = 0 (PAT entry 0, WB), and firmware MTRRs make the
 * framebuffer's range UC, so every store to it is a bus transaction of its
 * own: drawing a screenful takes tens of milliseconds, and a long run
 * scrolls thousands of times. The memory type of a page combines the
 * MTRRs' and the PAT's, and MTRR UC with PAT WC is WC (SDM Vol. 3A 12.5.2.2,
 * table 12-7), which is how Linux maps framebuffers. So fb_init maps the
 * framebuffer, wherever it lies below MAXPHYADDR (above 4 GiB on many
 * UEFI PCs with "Above 4G decoding"), through kernel/paging.c as PG_WC:
 * PAT entry 4 set to WC, in the 2 MiB pages that start inside it; a
 * partial page at the end reaches past the visible area into more video
 * memory (a framebuffer BAR is a naturally aligned power of two of at
 * least 2 MiB); a partial page at the start, which could hold other
 * registers, is made UC (lib/paging.h). No other page changes, so nothing
 * measured does.
 */
#include "fb.h"
#include "font.h"
#include "paging.h"
#include "../lib/textcursor.h"

#define FB_MAX_COLS 480 /* 3840 / 8; a multiple of 8 */
#define FB_MAX_ROWS 135 /* 2160 / 16 */
#define FB_GREY 0xC0    /* the text: R = G = B = 0xC0 on black */
static struct {
	volatile uint8_t *base;
	uint64_t size;
	uint32_t pitch, width, height, bytes; /* bytes per pixel: 3 or 4 */
	int cols, rows, on, wc;
	struct text_cursor cur; /* where the text goes (lib/textcursor.h) */
	uint64_t pair[4]; /* two 32-bit pixels for each 2-bit pattern */
} fb;

/* What should be on the screen, and what has been drawn (rows of a
 * multiple of 8 bytes, compared 8 cells at a time). */
typedef uint64_t __attribute__((may_alias)) word_t;
static char text[FB_MAX_ROWS][FB_MAX_COLS] __attribute__((aligned(8)));
static char shown[FB_MAX_ROWS][FB_MAX_COLS] __attribute__((aligned(8)));

static void fill(uint64_t offset, uint64_t bytes, uint8_t v)
{
	volatile uint8_t *p = fb.base + offset;
	uint64_t i = 0;
	if (fb.bytes == 4 && !((uintptr_t)p & 7)) {
		uint64_t q = v * 0x0101010101010101ull;
		for (; i + 8 <= bytes; i += 8)
			*(volatile uint64_t *)(p + i) = q;
	}
	for (; i < bytes; i++)
		p[i] = v;
}

/* One character with its top left corner at pixel (x, y), x a multiple of
 * 2 (so a 32-bit pixel pair is one aligned 64-bit store). It and flush
 * after it start a 4 KiB page of their own: QEMU's TCG runs the code of a
 * page that holds a gdbstub breakpoint one instruction per block, and the
 * boot tests stop at console_screen_clear and bench_exit, linked just
 * before (tests/boot/t_bootpaths.py): sharing their page made the drawing
 * about 15 times slower there. */
static __attribute__((aligned(4096))) void draw_px(uint32_t x, uint32_t y, unsigned char ch)
{
	const uint8_t *g = font_glyphs[font_index(ch)];
	volatile uint8_t *p = fb.base + (uint64_t)y * fb.pitch + (uint64_t)x * fb.bytes;
	for (int y = 0; y < FONT_HEIGHT; y++, p += fb.pitch) {
		unsigned bits = g[y];
		if (fb.bytes == 4) {
			volatile uint64_t *q = (volatile uint64_t *)p;
			q[0] = fb.pair[(bits >> 6) & 3];
			q[1] = fb.pair[(bits >> 4) & 3];
			q[2] = fb.pair[(bits >> 2) & 3];
			q[3] = fb.pair[bits & 3];
		} else {
			for (int i = 0; i < FONT_WIDTH; i++) {
				uint8_t v = (bits << i) & 0x80 ? FB_GREY : 0;
				p[3 * i] = v;
				p[3 * i + 1] = v;
				p[3 * i + 2] = v;
			}
		}
	}
}

static void draw(int r, int c, unsigned char ch)
{
	draw_px((uint32_t)c * FONT_WIDTH, (uint32_t)r * FONT_HEIGHT, ch);
}

/* Draw every cell whose character changed. */
static void flush(void)
{
	for (int r = 0; r < fb.rows; r++) {
		const word_t *want = (const word_t *)text[r];
		const word_t *have = (const word_t *)shown[r];
		for (int w = 0; w < (fb.cols + 7) / 8; w++) {
			if (want[w] == have[w])
				continue;
			for (int c = 8 * w; c < 8 * w + 8 && c < fb.cols; c++)
				if (text[r][c] != shown[r][c]) {
					draw(r, c, (unsigned char)text[r][c]);
					shown[r][c] = text[r][c];
				}
		}
	}
}

/* The text cursor's callbacks (below). */
static void put(void *ctx, int r, int c, char ch);
static void scroll(void *ctx);

enum fb_status fb_init(const struct boot_info *bi)
{
	fb.on = 0;
	if (bi->fb_type != 1)
		return FB_NOT_RGB;
	if (bi->fb_bpp != 32 && bi->fb_bpp != 24)
		return FB_BAD_DEPTH;
	uint32_t bytes = bi->fb_bpp / 8;
	if (bi->fb_width < FONT_WIDTH || bi->fb_height < FONT_HEIGHT ||
	    bi->fb_pitch < (uint64_t)bi->fb_width * bytes)
		return FB_BAD_GEOMETRY;
	uint64_t size = (uint64_t)bi->fb_pitch * bi->fb_height;
	if (bi->fb_addr == 0)
		return FB_UNMAPPED;
	fb.base = paging_map(bi->fb_addr, size, PG_WC, "framebuffer");
	if (!fb.base)
		return FB_UNMAPPED;
	fb.size = size;
	fb.pitch = bi->fb_pitch;
	fb.width = bi->fb_width;
	fb.height = bi->fb_height;
	fb.bytes = bytes;
	fb.cols = (int)(fb.width / FONT_WIDTH);
	fb.rows = (int)(fb.height / FONT_HEIGHT);
	if (fb.cols > FB_MAX_COLS)
		fb.cols = FB_MAX_COLS;
	if (fb.rows > FB_MAX_ROWS)
		fb.rows = FB_MAX_ROWS;
	fb.cur = (struct text_cursor){ .rows = fb.rows, .cols = fb.cols, .put = put, .scroll = scroll };
	uint64_t px = FB_GREY * 0x010101ull;
	fb.pair[0] = 0;
	fb.pair[1] = px << 32; /* right pixel lit */
	fb.pair[2] = px;       /* left pixel lit: the lower address */
	fb.pair[3] = px | (px << 32);
	fb.wc = paging_wc();
	fb.on = 1;
	fb_clear();
	return FB_OK;
}

void fb_clear(void)
{
	if (!fb.on)
		return;
	fill(0, fb.size, 0);
	for (int r = 0; r < FB_MAX_ROWS; r++)
		for (int c = 0; c < FB_MAX_COLS; c++)
			text[r][c] = shown[r][c] = ' ';
	text_cursor_home(&fb.cur);
	text_cursor_keep_out(&fb.cur, 0, 0, 0);
}

/* The text cursor's callbacks: the text copy changes, flush draws it. */
static void put(void *ctx, int r, int c, char ch)
{
	(void)ctx;
	text[r][c] = ch;
}

static void scroll(void *ctx)
{
	(void)ctx;
	for (int r = 0; r + 1 < fb.rows; r++)
		for (int c = 0; c < fb.cols; c++)
			text[r][c] = text[r + 1][c];
	for (int c = 0; c < fb.cols; c++)
		text[fb.rows - 1][c] = ' ';
}

void fb_write(const char *s, size_t n)
{
	if (!fb.on)
		return;
	text_cursor_write(&fb.cur, s, n);
	flush();
}

int fb_cols(void)
{
	return fb.cols;
}

int fb_rows(void)
{
	return fb.rows;
}

int fb_write_combining(void)
{
	return fb.wc;
}

uint32_t fb_width(void)
{
	return fb.on ? fb.width : 0;
}

uint32_t fb_height(void)
{
	return fb.on ? fb.height : 0;
}

int fb_cursor_row(void)
{
	return fb.cur.row;
}

void fb_keep_out(int row0, int row1, int cols)
{
	text_cursor_keep_out(&fb.cur, row0, row1, cols);
}

void fb_goto(int row, int col)
{
	text_cursor_goto(&fb.cur, row, col);
}

int fb_row_extent(int r)
{
	if (!fb.on || r < 0 || r >= fb.rows)
		return 0;
	int n = fb.cols;
	while (n > 0 && text[r][n - 1] == ' ')
		n--;
	return n;
}

void fb_fill_rect(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint8_t level)
{
	if (!fb.on || x >= fb.width || y >= fb.height)
		return;
	if (w > fb.width - x)
		w = fb.width - x;
	if (h > fb.height - y)
		h = fb.height - y;
	for (uint32_t i = 0; i < h; i++)
		fill((uint64_t)(y + i) * fb.pitch + (uint64_t)x * fb.bytes, (uint64_t)w * fb.bytes, level);
}

void fb_draw_string(uint32_t x, uint32_t y, const char *s)
{
	x &= ~1u;
	for (; fb.on && *s && x + FONT_WIDTH <= fb.width && y + FONT_HEIGHT <= fb.height; s++, x += FONT_WIDTH)
		draw_px(x, y, (unsigned char)*s);
}

void fb_show_text(void)
{
	if (!fb.on)
		return;
	fill(0, fb.size, 0);
	for (int r = 0; r < fb.rows; r++)
		for (int c = 0; c < fb.cols; c++)
			shown[r][c] = ' ';
	/* Only the cells that are not blank differ from the black screen. */
	flush();
}

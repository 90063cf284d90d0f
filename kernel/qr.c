/* kernel/qr.c - see qr.h.
 *
 * Linking Debian's libqrcodegen.a (built for Linux user space) into this
 * kernel, and why it is sound. The package ships no C source, only the
 * archive: one object, qrcodegen.o, whose outside references are memcpy,
 * memmove, memset, strlen, strchr (lib/string.c), __memset_chk,
 * __assert_fail and __stack_chk_fail (below). What its code assumes of
 * its surroundings, and how each assumption is met:
 *  - SSE: it copies 16-byte structures with MOVDQA/MOVUPS/MOVAPS through
 *    XMM0 and XMM1, where the kernel's C code uses none
 *    (-mgeneral-regs-only, Makefile). SSE is enabled (CR4.OSFXSR, CR0.EM
 *    clear: boot/entry.asm; SDM Vol. 3A 14.1.3), which qr_encode() checks;
 *    XMM registers are scratch registers of the SysV ABI, and the whole
 *    x87/SSE state is saved with FXSAVE before the encoder runs and
 *    restored with FXRSTOR after it (SDM Vol. 2A FXSAVE), so nothing
 *    anywhere sees it changed. tests/boot/t_regs.py allows these
 *    instructions in the archive's functions and in qr_encode() only.
 *  - MOVAPS to the stack: the ABI's 16-byte stack alignment at calls,
 *    which gcc keeps in this kernel as well (boot/entry.asm calls
 *    kernel_main with a 16-byte aligned stack); qr_encode() checks it.
 *  - The stack protector (-fstack-protector-strong): it reads its canary
 *    at FS:0x28, glibc's thread control block. qr_encode() points IA32_FS_BASE
 *    (MSR C0000100H, SDM Vol. 4 table 2-2) at a block of our own for the
 *    call and restores it after; the kernel itself never uses FS.
 *  - The red zone (128 bytes below RSP, SysV ABI 3.2.2), which an
 *    interrupt on the same stack would overwrite: interrupts are off, and
 *    NMI, #DF and #MC are taken on IST stacks (kernel/trap.c).
 *  - _FORTIFY_SOURCE and assert(): __memset_chk and __assert_fail, which
 *    end the run with a message as an exception does.
 * Its .eh_frame is discarded by linker.ld, as ours is.
 */
#include "qr.h"
#include <stdbool.h>
#include <stdint.h>
#include <qrcodegen/qrcodegen.h>
#include "console.h"
#include "cpu.h"
#include "exit.h"
#include "fb.h"
#include "font.h"
#include "msr.h"
#include "../lib/fmt.h"
#include "../lib/qrtext.h"
#include "../lib/string.h"

#define CR0_EM (1u << 2)
#define CR0_TS (1u << 3)
#define CR4_OSFXSR (1u << 9)
#define MARGIN 8    /* pixels between the codes, the text and the screen's edges */
#define CAPTION 20  /* pixels above a code for its caption: a text row and a gap */
#define LIGHT 0xFF  /* the light modules and the quiet zone: white */
#define DARK 0x00   /* the dark modules: black */
#define QUIET 4     /* modules of quiet zone on each side (ISO/IEC 18004:2015 9.1) */

/* --- what libqrcodegen.a needs ----------------------------------------- */

void *__memset_chk(void *dst, int c, size_t n, size_t dst_size);
__attribute__((noreturn)) void __assert_fail(const char *what, const char *file, unsigned line,
					     const char *function);
__attribute__((noreturn)) void __stack_chk_fail(void);


static __attribute__((noreturn)) void encoder_failed(const char *what)
{
	console_set_serial(1);
	kprintf("qr: the QR code encoder (libqrcodegen) failed: %s; the results above are complete, "
		"the serial log has them (exit code 0x%x)\n", what, EXIT_FAILURE_CODE);
	bench_exit(EXIT_FAILURE_CODE);
}

void *__memset_chk(void *dst, int c, size_t n, size_t dst_size)
{
	if (n > dst_size)
		encoder_failed("a memset past the end of its buffer (__memset_chk)");
	return memset(dst, c, n);
}

void __assert_fail(const char *what, const char *file, unsigned line, const char *function)
{
	char buf[200];
	fmt_format(buf, sizeof buf, "assertion '%s' (%s:%u, %s)", what, file, line, function);
	encoder_failed(buf);
}

void __stack_chk_fail(void)
{
	encoder_failed("its stack protector found its stack overwritten (__stack_chk_fail)");
}

/* --- the encoder, called soundly ----------------------------------------- */

/* What FS points at during the call: the canary at FS:0x28. */
static struct {
	uint8_t below[0x28];
	uint64_t canary;
	uint8_t above[0x10];
} fs_block __attribute__((aligned(64)));

static uint8_t fx_area[512] __attribute__((aligned(16)));

/* Encode data[0..len-1] (overwritten: the encoder's work space, of
 * qrcodegen_BUFFER_LEN_FOR_VERSION(vmax) bytes) into code: byte mode,
 * level M or better, the smallest version up to vmax. Returns NULL, or
 * why not. */
static __attribute__((noinline, noclone)) const char *qr_encode(uint8_t *data, size_t len, uint8_t *code, int vmax)
{
	if ((uintptr_t)__builtin_frame_address(0) & 15)
		return "the stack is not 16-byte aligned (the encoder's MOVAPS would fault)";
	if (!(read_cr4() & CR4_OSFXSR) || (read_cr0() & (CR0_EM | CR0_TS)))
		return "SSE is not enabled (CR4.OSFXSR, CR0.EM, CR0.TS)";
	__asm__ volatile("fxsave %0" : "=m"(fx_area));
	uint64_t fs = rdmsr(MSR_FS_BASE);
	fs_block.canary = rdtsc() << 8; /* a zero low byte, as glibc's */
	wrmsr(MSR_FS_BASE, (uintptr_t)&fs_block);
	bool ok = qrcodegen_encodeBinary(data, len, code, qrcodegen_Ecc_MEDIUM, 1, vmax,
					 qrcodegen_Mask_AUTO, true);
	wrmsr(MSR_FS_BASE, fs);
	__asm__ volatile("fxrstor %0" : : "m"(fx_area));
	return ok ? 0 : "the text does not fit the largest version the screen holds";
}

/* --- layout and drawing ----------------------------------------------------- */

static uint8_t codes[QRTEXT_MAX_PARTS][qrcodegen_BUFFER_LEN_MAX];
static uint8_t work[qrcodegen_BUFFER_LEN_MAX];
static int nparts; /* codes encoded */
static int paged;  /* 1: each code on a page of its own (qr_hold) */
static uint64_t page_tsc_hz; /* qr_show's tsc_hz: a page's time on the screen */

/* The modules of code i with its quiet zone. */
static uint32_t span(int i)
{
	return (uint32_t)qrcodegen_getSize(codes[i]) + 2 * QUIET;
}

static void draw_code(int i, uint32_t x, uint32_t y, uint32_t k)
{
	int n = qrcodegen_getSize(codes[i]);
	fb_fill_rect(x, y, span(i) * k, span(i) * k, LIGHT);
	for (int my = 0; my < n; my++)
		for (int mx = 0; mx < n; mx++)
			if (qrcodegen_getModule(codes[i], mx, my))
				fb_fill_rect(x + (uint32_t)(QUIET + mx) * k, y + (uint32_t)(QUIET + my) * k, k, k, DARK);
}

/* The caption of code i: "QR code 1/2 of the results (bench1)". */
static void caption(int i, uint32_t x, uint32_t y, const char *more)
{
	char s[160];
	fmt_format(s, sizeof s, "QR code %d/%d of the results%s", i + 1, nparts, more);
	fb_draw_string(x, y, s);
}

/* The lines the console prints below the text after the codes are drawn
 * (qr_show's after[]): their lengths in characters. */
static const int *after_chars;
static int after_count;

/* Whether codes drawn at pixels [x, x+w) x [y, y+h) leave their quiet
 * zones clear of text, now and after: every text row they overlap ends at
 * least 2 x MARGIN pixels left of x (what is there), and the lines still
 * to come, wrapped there where they pass beside the codes (fb_keep_out),
 * fit below the cursor without scrolling the screen (a scroll would move
 * the text below the codes up into their rows). */
static int clear_of_text(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
	if (x + w > fb_width() || y + h > fb_height() || x < 2 * MARGIN + FONT_WIDTH)
		return 0;
	int keep = (int)((x - 2 * MARGIN) / FONT_WIDTH), row = fb_cursor_row();
	int r0 = (int)(y / FONT_HEIGHT), r1 = (int)((y + h - 1) / FONT_HEIGHT);
	for (int r = r0; r <= r1 && r <= row; r++)
		if (fb_row_extent(r) > keep)
			return 0;
	for (int i = 0; i < after_count; i++) {
		int left = after_chars[i];
		do /* a line of exactly a row's width takes one row */
			left -= row >= r0 && row <= r1 ? keep : fb_cols();
		while (++row, left > 0);
	}
	return row < fb_rows();
}

/* The text rows of codes drawn at pixels [x, x+w) x [y, y+h) end left of
 * them (the lines still to come wrap there: clear_of_text). */
static void keep_text_out(uint32_t x, uint32_t y, uint32_t h)
{
	fb_keep_out((int)(y / FONT_HEIGHT), (int)((y + h - 1) / FONT_HEIGHT), (int)((x - 2 * MARGIN) / FONT_WIDTH));
}

/* All codes side by side beside or below the text, at the largest scale
 * from QR_MAX_SCALE down to QR_MIN_SCALE that fits: top right, else bottom
 * right. Returns 1 when drawn. */
static int draw_beside(void)
{
	uint32_t W = fb_width(), H = fb_height(), cap = nparts > 1 ? CAPTION : 0;
	for (uint32_t k = QR_MAX_SCALE; k >= QR_MIN_SCALE; k--) {
		uint32_t w = (uint32_t)(nparts - 1) * MARGIN, h = 0;
		for (int i = 0; i < nparts; i++) {
			w += span(i) * k;
			h = span(i) * k > h ? span(i) * k : h;
		}
		h += cap;
		if (w + 2 * MARGIN > W || h + 2 * FONT_HEIGHT > H)
			continue;
		/* On the text's cell grid, so that the captions are text cells. */
		uint32_t x = (W - w - MARGIN) & ~(uint32_t)(FONT_WIDTH - 1);
		uint32_t ys[2] = { FONT_HEIGHT, (H - h - MARGIN) & ~(uint32_t)(FONT_HEIGHT - 1) };
		for (int c = 0; c < 2; c++) {
			if (!clear_of_text(x, ys[c], w, h))
				continue;
			keep_text_out(x, ys[c], h);
			for (int i = 0; i < nparts; i++) {
				if (cap)
					caption(i, x, ys[c], "");
				draw_code(i, x, ys[c] + cap, k);
				x += span(i) * k + MARGIN;
			}
			return 1;
		}
	}
	return 0;
}

/* The largest version whose code fits a page of its own at QR_MIN_SCALE,
 * or 0. */
static int page_version(void)
{
	uint32_t W = fb_width(), H = fb_height();
	if (W < 2 * MARGIN || H < 2 * MARGIN + CAPTION)
		return 0;
	uint32_t side = W - 2 * MARGIN < H - 2 * MARGIN - CAPTION ? W - 2 * MARGIN : H - 2 * MARGIN - CAPTION;
	uint32_t modules = side / QR_MIN_SCALE;
	if (modules < 21 + 2 * QUIET)
		return 0;
	uint32_t v = (modules - 2 * QUIET - 17) / 4;
	return v > 40 ? 40 : (int)v;
}

/* Code i alone on the screen, as large as fits, its caption above it. */
static void draw_page(int i)
{
	uint32_t W = fb_width(), H = fb_height();
	fb_fill_rect(0, 0, W, H, 0);
	uint32_t kw = (W - 2 * MARGIN) / span(i), kh = (H - 2 * MARGIN - CAPTION) / span(i);
	uint32_t k = kw < kh ? kw : kh;
	k = k > QR_MAX_SCALE ? QR_MAX_SCALE : k;
	uint32_t size = span(i) * k, x = (W - size) / 2 & ~(uint32_t)(FONT_WIDTH - 1);
	uint32_t y = (H - size - CAPTION) / 2 & ~(uint32_t)(FONT_HEIGHT - 1);
	char more[64];
	fmt_format(more, sizeof more, ": next on a key press or in %d s", QR_PAGE_SECONDS);
	caption(i, x, y, more);
	draw_code(i, x, y + CAPTION, k);
}

static void say(const char *why)
{
	kprintf("qr: no QR code of the results: %s\n", why);
}

int qr_show(const char *body, size_t len, uint64_t tsc_hz, const int *after, int nafter)
{
	static char part[QRTEXT_PART_MAX];
	nparts = paged = 0;
	after_chars = after;
	after_count = nafter;
	page_tsc_hz = tsc_hz;
	if (!console_framebuffer())
		return 0;
	int vmax = page_version();
	if (!vmax) {
		say("the screen is too small for a code of 3 pixels a module");
		return 0;
	}
	struct qrtext_split s;
	if (qrtext_split(body, len, (size_t)qrtext_capacity(vmax), &s)) {
		say("the text needs more than 9 codes on this screen");
		return 0;
	}
	for (int i = 0; i < s.n; i++) {
		int n = qrtext_part(body, &s, i, part, sizeof part);
		for (int k = 0; k < n; k++)
			work[k] = (uint8_t)part[k];
		const char *why = n < 0 ? "a part does not fit its buffer" : qr_encode(work, (size_t)n, codes[i], vmax);
		if (why) {
			say(why);
			return 0;
		}
	}
	nparts = s.n;
	if (!draw_beside())
		paged = 1;
	return nparts;
}

__attribute__((noinline, noipa, used)) void qr_page_shown(int page, int pages)
{
	(void)page;
	(void)pages;
	__asm__ volatile("" ::: "memory");
}

/* Wait until a key is pressed (a make code from the 8042's output buffer)
 * or about QR_PAGE_SECONDS have passed (the TSC, at its measured rate or,
 * unknown, 3 GHz). */
static void wait_page(void)
{
	uint64_t hz = page_tsc_hz ? page_tsc_hz : 3000000000ull;
	uint64_t t0 = rdtsc(), span_ticks = hz * QR_PAGE_SECONDS;
	while (rdtsc() - t0 < span_ticks) {
		uint8_t st = inb(0x64);
		if (st != 0xFF && (st & 1) && !(inb(0x60) & 0x80))
			return;
	}
}

void qr_hold(void)
{
	if (!paged || !nparts)
		return;
	qr_page_shown(0, nparts + 1); /* the summary, on the screen already */
	wait_page();
	for (int page = 1;; page = (page + 1) % (nparts + 1)) {
		if (page)
			draw_page(page - 1);
		else
			fb_show_text();
		qr_page_shown(page, nparts + 1);
		wait_page();
	}
}

/* kernel/console.c - see console.h. */
#include "console.h"
#include "fb.h"
#include "paging.h"
#include "uart.h"
#include "vga.h"
#include "../lib/fmt.h"
#include "../lib/logbuf.h"
#include "../lib/record.h"
#include "../lib/string.h"
#include "../lib/uartwait.h"

/* The 16550's divisor latch is 16 bits (DLL, DLM; PC16550D data sheet,
 * "Programmable Baud Generator"): baud = 115200 / divisor, divisor 1..65535. */
#define MAX_DIVISOR 65535

enum screen_kind { SCREEN_NONE, SCREEN_VGA, SCREEN_FB };
#define VGA_TEXT_COLS 80
#define VGA_TEXT_ROWS 25
#define CONSOLE_AREA_MAX 8         /* rows of a progress area */
#define CONSOLE_AREA_COLS_MAX 480  /* kernel/fb.c FB_MAX_COLS */

static void record_write(const char *s, size_t n);

static enum screen_kind screen_kind; /* what the screen is, once found */
static int screen;                   /* 1: output goes to it */
static int serial;                   /* 1: output goes to the UART */
static int serial_muted;             /* 1: console_set_serial(0) */
static int init_done;                /* console_init has finished */
static uint32_t serial_baud;         /* the UART's rate when serial is on */
static int serial_port;              /* its ttyS number */
static uint64_t written;             /* bytes given to console_write */
static int area_rows;                /* rows of the open progress area, 0: none */
static int area_top;                 /* its first row */

/* The serial log kept in RAM (lib/logbuf.h): here until
 * console_log_reserve gives it the buffer sized from the serial
 * estimate. 64 KiB hold the boot's lines before it (about 6 KiB). */
#define CONSOLE_LOG_EARLY 65536
static char log_early[CONSOLE_LOG_EARLY];
static struct logbuf ramlog = { .buf = log_early, .cap = sizeof log_early };

int console_parse_choice(const char *v, int len, void *object)
{
	struct console_choice *out = object;
	if (len == 4 && v[0] == 'n' && v[1] == 'o' && v[2] == 'n' && v[3] == 'e') {
		out->port = -1;
		out->baud = 0;
		return 0;
	}
	if (len < 5 || v[0] != 't' || v[1] != 't' || v[2] != 'y' || v[3] != 'S' ||
	    v[4] < '0' || v[4] > '3')
		return -1;
	int port = v[4] - '0';
	uint32_t baud = CONSOLE_DEFAULT_BAUD;
	int i = 5;
	if (i < len) {
		if (v[i++] != ',' || i == len)
			return -1;
		uint64_t b = 0;
		int digits = 0;
		for (; i < len && v[i] >= '0' && v[i] <= '9' && digits < 7; i++, digits++)
			b = b * 10 + (uint64_t)(v[i] - '0');
		if (!digits || b == 0 || b > CONSOLE_DEFAULT_BAUD || CONSOLE_DEFAULT_BAUD % b ||
		    CONSOLE_DEFAULT_BAUD / b > MAX_DIVISOR)
			return -1;
		/* Linux's ttyS0,115200n8: parity none, 8 bits, what we do anyway. */
		if (i + 2 == len && v[i] == 'n' && v[i + 1] == '8')
			i += 2;
		if (i != len)
			return -1;
		baud = (uint32_t)b;
	}
	out->port = port;
	out->baud = baud;
	return 0;
}

void console_show_choice(char *buf, int size, const void *object)
{
	const struct console_choice *c = object;
	if (c->port < 0)
		fmt_format(buf, (size_t)size, "none");
	else
		fmt_format(buf, (size_t)size, "ttyS%d,%u", c->port, c->baud);
}

/* Called when console_init has printed all it prints: a fixed place where a
 * debugger can stop with only those lines on the screen (the boot tests do,
 * through QEMU's gdbstub: tests/boot/screen.py). */
__attribute__((noinline, used)) void console_init_done(void);
__attribute__((noinline, used)) void console_init_done(void)
{
	__asm__ volatile("" ::: "memory");
}

void console_init(const struct boot_info *bi, const struct console_choice *choice, const char *problems,
		  const char *first_line)
{
	const struct console_choice sc = *choice;
	record_set_sink(record_write); /* the records (lib/record.h): serial only */
	uint16_t base = sc.port >= 0 ? uart_port_base(sc.port) : 0;
	serial = base && uart_init(base, sc.baud) == 0;
	serial_baud = serial ? sc.baud : 0;
	serial_port = sc.port;

	/* The screen: a direct-colour framebuffer when the loader set one up
	 * (GRUB under UEFI), else VGA text when a BIOS loader left text mode:
	 * every multiboot1 boot we know (QEMU -kernel, GRUB on BIOS) and a
	 * multiboot2 boot that reports an EGA text framebuffer. */
	enum fb_status fbs = FB_NOT_RGB;
	int text_mode = 0; /* the loader left (or says it left) VGA text mode */
	screen_kind = SCREEN_NONE;
	if (bi->fb_present && bi->fb_type == 1) {
		fbs = fb_init(bi);
		if (fbs == FB_UNMAPPED && bi->fb_addr)
			kprintf("%s\n", paging_refusal());
		if (fbs == FB_OK)
			screen_kind = SCREEN_FB;
	} else if ((bi->protocol == 1 && !bi->fb_present) || (bi->fb_present && bi->fb_type == 2)) {
		text_mode = 1;
		if (vga_present())
			screen_kind = SCREEN_VGA;
	}
	console_set_screen(screen_kind != SCREEN_NONE);

	/* One line saying where the output goes. */
	char ser[80], scr[160];
	if (sc.port < 0)
		fmt_format(ser, sizeof ser, "none (console=none)");
	else if (serial)
		fmt_format(ser, sizeof ser, "ttyS%d (I/O 0x%X) %u baud 8N1", sc.port, base, sc.baud);
	else
		fmt_format(ser, sizeof ser, "none (no UART at ttyS%d)", sc.port);
	if (screen_kind == SCREEN_FB)
		fmt_format(scr, sizeof scr, "framebuffer %ux%u, %u bpp, at 0x%llx, %dx%d characters%s",
			   bi->fb_width, bi->fb_height, bi->fb_bpp, (unsigned long long)bi->fb_addr,
			   fb_cols(), fb_rows(), fb_write_combining() ? ", write-combining" : "");
	else if (screen_kind == SCREEN_VGA)
		fmt_format(scr, sizeof scr, "VGA text 80x25");
	else if (text_mode)
		fmt_format(scr, sizeof scr, "none (no VGA text adapter answered: the CRTC index register "
			   "0x3D4 and the text memory at 0xB8000 do not read back)");
	else
		fmt_format(scr, sizeof scr, "none");
	if (first_line)
		kprintf("%s\n", first_line);
	kprintf("console: serial %s; screen %s\n", ser, scr);

	if (problems && problems[0])
		console_write(problems, strlen(problems));
	if (sc.port >= 0 && !serial)
		kprintf("console: no UART answered at ttyS%d (I/O 0x%X, loopback test failed); "
			"the output goes to the screen only\n", sc.port, base);
	if (bi->fb_present && bi->fb_type == 1 && fbs != FB_OK) {
		const char *why =
			fbs == FB_UNMAPPED ? "it could not be mapped (at address 0, or see the paging: line)" :
			fbs == FB_BAD_DEPTH ? "only 32 and 24 bits per pixel are drawn" :
			"its geometry is not usable (smaller than one 8x16 character, or pitch below width)";
		kprintf("console: the loader's framebuffer (%ux%u, %u bpp, pitch %u, at 0x%llx) is refused: "
			"%s; no screen output, the serial console goes on\n",
			bi->fb_width, bi->fb_height, bi->fb_bpp, bi->fb_pitch,
			(unsigned long long)bi->fb_addr, why);
	} else if (bi->fb_present && bi->fb_type == 0) {
		kprintf("console: the loader's framebuffer is indexed-colour (%ux%u, %u bpp); only RGB "
			"framebuffers are drawn: no screen output\n", bi->fb_width, bi->fb_height, bi->fb_bpp);
	}
	init_done = 1;
	console_init_done();
}

void console_test_framebuffer(uint64_t phys, uint32_t width, uint32_t height)
{
	static struct boot_info fake;
	fake.fb_present = 1;
	fake.fb_type = 1;
	fake.fb_addr = phys;
	fake.fb_width = width;
	fake.fb_height = height;
	fake.fb_pitch = width * 4;
	fake.fb_bpp = 32;
	enum fb_status s = fb_init(&fake);
	if (s == FB_UNMAPPED && phys)
		kprintf("%s\n", paging_refusal());
	if (s != FB_OK) {
		kprintf("test: the framebuffer at 0x%llx was refused (fb_init: %d); the screen stays as it was\n",
			(unsigned long long)phys, (int)s);
		return;
	}
	screen_kind = SCREEN_FB;
	console_set_screen(1);
	kprintf("console: screen framebuffer %ux%u, 32 bpp, at 0x%llx, %dx%d characters%s (test.fb=high)\n",
		width, height, (unsigned long long)phys, fb_cols(), fb_rows(),
		fb_write_combining() ? ", write-combining" : "");
}

void console_screen_clear(void)
{
	if (!screen)
		return;
	if (screen_kind == SCREEN_FB)
		fb_clear();
	else
		vga_init();
}

int console_framebuffer(void)
{
	return screen && screen_kind == SCREEN_FB;
}

void console_set_screen(int on)
{
	screen = on && screen_kind != SCREEN_NONE;
	if (screen && screen_kind == SCREEN_VGA)
		vga_init();
}

uint64_t console_bytes_written(void)
{
	return written;
}

uint32_t console_serial_baud(void)
{
	return serial ? serial_baud : 0;
}

/* n bytes to the serial port, when it is on. */
static void to_serial(const char *s, size_t n)
{
	if (!serial_muted) /* what the serial log holds, or would with a UART */
		logbuf_add_crlf(&ramlog, s, n);
	if (serial && !serial_muted) {
		uart_write(s, n);
		if (!uart_present()) { /* it stopped answering: said where it can be seen */
			serial = 0;
			kprintf("console: ttyS%d stopped answering: its transmitter took no byte within %llu ms "
				"(%u baud); serial output off, the screen goes on\n", serial_port,
				(unsigned long long)(uart_wait_ns(serial_baud) / 1000000), serial_baud);
		}
	}
}

/* n bytes to the screen, when it is on (whether or not an area is open). */
static void to_screen(const char *s, size_t n)
{
	if (!screen)
		return;
	if (screen_kind == SCREEN_FB)
		fb_write(s, n);
	else
		vga_write(s, n);
}

void console_write(const char *s, size_t n)
{
	written += n;
	to_serial(s, n);
	if (!area_rows)
		to_screen(s, n);
}

/* The records' sink: machine-readable lines for the host tools, which
 * capture the serial port; on the screen they would only scroll by. */
static void record_write(const char *s, size_t n)
{
	written += n;
	to_serial(s, n);
}

int console_screen_cols(void)
{
	return !screen ? 0 : screen_kind == SCREEN_FB ? fb_cols() : VGA_TEXT_COLS;
}

int console_screen_rows(void)
{
	return !screen ? 0 : screen_kind == SCREEN_FB ? fb_rows() : VGA_TEXT_ROWS;
}

/* The next character of the screen to (row, col). */
static void screen_goto(int row, int col)
{
	if (screen_kind == SCREEN_FB)
		fb_goto(row, col);
	else
		vga_goto(row, col);
}

int console_area_open(int rows)
{
	int total = console_screen_rows();
	if (area_rows || rows < 1 || total < 2)
		return 0;
	rows = rows > CONSOLE_AREA_MAX ? CONSOLE_AREA_MAX : rows > total - 1 ? total - 1 : rows;
	/* Newlines below the text (the rows under the cursor are blank) move
	 * the cursor down, scrolling at the bottom, until rows are free. */
	for (int i = 0; i < rows; i++)
		to_screen("\n", 1);
	int row = screen_kind == SCREEN_FB ? fb_cursor_row() : vga_cursor_row();
	area_top = row - rows;
	area_rows = rows;
	return console_screen_cols();
}

void console_area_line(int i, const char *s)
{
	if (!area_rows || i < 0 || i >= area_rows)
		return;
	int cols = console_screen_cols();
	char row[CONSOLE_AREA_COLS_MAX];
	int k = 0;
	for (; k < cols && s[k]; k++)
		row[k] = s[k];
	for (; k < cols; k++)
		row[k] = ' ';
	/* A full row leaves the cursor at its end without wrapping. */
	screen_goto(area_top + i, 0);
	to_screen(row, (size_t)cols);
	screen_goto(area_top + area_rows, 0);
}

void console_area_close(void)
{
	if (!area_rows)
		return;
	screen_goto(area_top + area_rows, 0);
	area_rows = 0;
}

void console_emergency(void)
{
	serial_muted = 0;
	console_area_close();
	if (!init_done && !serial)
		serial = uart_init(uart_port_base(0), CONSOLE_DEFAULT_BAUD) == 0;
}

void console_set_serial(int on)
{
	serial_muted = !on;
}

int console_log_move(char *buf, uint64_t bytes)
{
	return buf && logbuf_move(&ramlog, buf, bytes);
}

const struct logbuf *console_log(void)
{
	return &ramlog;
}

void console_log_line(void)
{
	struct logbuf lb = ramlog; /* the figures before this line */
	char lost[96] = "all kept in RAM";
	if (logbuf_lost(&lb))
		fmt_format(lost, sizeof lost, "%llu kept in RAM, %llu NOT kept (the buffer is full)",
			   (unsigned long long)lb.kept, (unsigned long long)logbuf_lost(&lb));
	kprintf("log: %llu bytes before this line, CRC-32 0x%08x, %s (buffer %llu bytes; kernel/console.h)\n",
		(unsigned long long)lb.total, lb.crc, lost, (unsigned long long)lb.cap);
}

void console_flush(void)
{
	if (serial)
		uart_flush();
}

void kprintf(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof buf) {
		n = sizeof buf - 1;
		buf[n - 4] = '.';
		buf[n - 3] = '.';
		buf[n - 2] = '.';
		buf[n - 1] = '\n';
	}
	console_write(buf, (size_t)n);
}

/* kernel/console.c - see console.h. */
#include "console.h"
#include "uart.h"
#include "vga.h"
#include "../lib/fmt.h"

static int screen;

void console_init(const struct boot_info *bi)
{
	int serial = uart_init(COM1_BASE, 115200) == 0;
	/* The VGA text screen exists when a BIOS loader left text mode: every
	 * multiboot1 boot we know (QEMU -kernel, GRUB on BIOS) and a
	 * multiboot2 boot that reports an EGA text framebuffer. */
	if (bi->protocol == 1 || (bi->fb_present && bi->fb_type == 2))
		console_set_screen(1);
	if (!serial)
		kprintf("console: no UART answered at COM1 (I/O 0x3F8, loopback test failed); screen only\n");
}

void console_screen_clear(void)
{
	if (screen)
		vga_init();
}

void console_set_screen(int on)
{
	screen = on;
	if (on)
		vga_init();
}

void console_write(const char *s, size_t n)
{
	uart_write(s, n);
	if (screen)
		vga_write(s, n);
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

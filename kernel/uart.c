/* kernel/uart.c - see uart.h. Register offsets and bits: PC16550D data sheet,
 * table 2 ("Register summary"). */
#include "uart.h"
#include "cpu.h"

enum {
	UART_THR = 0, UART_RBR = 0, UART_DLL = 0,
	UART_IER = 1, UART_DLM = 1,
	UART_FCR = 2,
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
};
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define MCR_DTR_RTS_OUT2 0x0B
#define MCR_LOOP 0x10
#define LSR_THRE 0x20
#define LSR_TEMT 0x40
#define LSR_DR 0x01

static uint16_t uart_base;
static int present;

uint16_t uart_port_base(int n)
{
	static const uint16_t bases[] = { 0x3F8, 0x2F8, 0x3E8, 0x2E8 };
	return n >= 0 && n < 4 ? bases[n] : 0;
}

int uart_init(uint16_t base, uint32_t baud)
{
	uart_base = base;
	present = 0;
	if (baud == 0 || baud > 115200 || 115200 % baud)
		baud = 115200;
	uint16_t div = (uint16_t)(115200 / baud);

	outb(base + UART_IER, 0x00); /* no UART interrupts: we poll */
	outb(base + UART_LCR, LCR_DLAB);
	outb(base + UART_DLL, (uint8_t)div);
	outb(base + UART_DLM, (uint8_t)(div >> 8));
	outb(base + UART_LCR, LCR_8N1);
	outb(base + UART_FCR, 0xC7); /* enable and clear FIFOs, 14-byte trigger */
	/* Loopback test: what we send must come back. An absent port reads
	 * 0xFF everywhere, so LSR.DR looks set but RBR is not 0xAE. */
	outb(base + UART_MCR, MCR_LOOP | 0x0F);
	outb(base + UART_THR, 0xAE);
	int ok = 0;
	for (int i = 0; i < 10000; i++) {
		if (inb(base + UART_LSR) & LSR_DR) {
			ok = inb(base + UART_RBR) == 0xAE;
			break;
		}
	}
	outb(base + UART_MCR, MCR_DTR_RTS_OUT2);
	if (!ok)
		return -1;
	present = 1;
	return 0;
}

int uart_present(void)
{
	return present;
}

static void put_byte(uint8_t c)
{
	/* 115200 baud is ~87 us a byte; 10000 status reads of ~1 us each
	 * is ample for a working UART and bounds a dead one. */
	for (int i = 0; i < 10000; i++) {
		if (inb(uart_base + UART_LSR) & LSR_THRE) {
			outb(uart_base + UART_THR, c);
			return;
		}
	}
	present = 0;
}

void uart_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n && present; i++) {
		if (s[i] == '\n')
			put_byte('\r');
		put_byte((uint8_t)s[i]);
	}
}

void uart_flush(void)
{
	for (int i = 0; i < 100000 && present; i++)
		if (inb(uart_base + UART_LSR) & LSR_TEMT)
			return;
}

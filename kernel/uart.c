/* kernel/uart.c - see uart.h. Register offsets and bits: PC16550D data sheet,
 * table 2 ("Register summary"). */
#include "uart.h"
#include "cpu.h"
#include "../lib/uartwait.h"

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
static uint64_t wait_ticks; /* one wait's bound (lib/uartwait.h), TSC ticks at UART_TSC_HZ_MAX */
static int have_tsc;        /* CPUID.1:EDX[4] (SDM Vol. 2A, CPUID): RDTSC does not #UD */
/* Without a TSC (the run then stops: bench/main.c), a count of status reads
 * stands for the time: 10^7 reads, seconds on any machine. */
#define WAIT_READS_NO_TSC 10000000

/* Poll LSR until one of bits is set; 1 if it was within the bound, else 0.
 * The bound is a time (lib/uartwait.h), not a count of reads: at 9600 baud
 * a byte takes 1.04 ms, which 10,000 reads do not cover on a fast CPU. */
static int wait_lsr(uint8_t bits)
{
	if (!have_tsc) {
		for (long i = 0; i < WAIT_READS_NO_TSC; i++)
			if (inb(uart_base + UART_LSR) & bits)
				return 1;
		return 0;
	}
	uint64_t start = rdtsc();
	do {
		if (inb(uart_base + UART_LSR) & bits)
			return 1;
	} while (rdtsc() - start < wait_ticks);
	return 0;
}

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
	have_tsc = (cpuid(1, 0).edx >> 4) & 1;
	wait_ticks = uart_wait_ticks(baud, UART_TSC_HZ_MAX);

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
	int ok = wait_lsr(LSR_DR) && inb(base + UART_RBR) == 0xAE;
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
	if (wait_lsr(LSR_THRE))
		outb(uart_base + UART_THR, c);
	else
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
	if (present)
		wait_lsr(LSR_TEMT);
}

/* lib/uartwait.c - see uartwait.h. */
#include "uartwait.h"

#define NS_PER_S 1000000000ull

uint64_t uart_byte_ns(uint32_t baud)
{
	if (baud == 0)
		return 0;
	return (UART_BITS_PER_BYTE * NS_PER_S + baud - 1) / baud;
}

uint64_t uart_wait_ns(uint32_t baud)
{
	uint64_t ns = UART_WAIT_BYTES * uart_byte_ns(baud);
	return ns > UART_WAIT_MIN_NS ? ns : UART_WAIT_MIN_NS;
}

uint64_t uart_wait_ticks(uint32_t baud, uint64_t tsc_hz)
{
	/* In whole microseconds, rounded up, so that the product fits in 64
	 * bits for any real rate (us < 2^29 for baud >= 2; 10 GHz < 2^34). */
	uint64_t us = (uart_wait_ns(baud) + 999) / 1000;
	if (us && tsc_hz > UINT64_MAX / us)
		return UINT64_MAX;
	return (us * tsc_hz + 999999) / 1000000;
}

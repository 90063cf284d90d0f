/* tests/unit/test_uartwait.c - lib/uartwait.c: the UART's waits are times
 * from the baud rate, in ns and in TSC ticks. */
#include <stdint.h>
#include "check.h"
#include "../../lib/uartwait.h"

int main(void)
{
	CHECK_EQ_U64(uart_byte_ns(115200), 86806, "a byte at 115200 baud is 86.806 us (10 bits, rounded up)");
	CHECK_EQ_U64(uart_byte_ns(9600), 1041667, "a byte at 9600 baud is 1.041667 ms");
	CHECK_EQ_U64(uart_byte_ns(57600), 173612, "a byte at 57600 baud is 173.612 us");
	CHECK_EQ_U64(uart_byte_ns(2), 5000000000ull, "a byte at 2 baud (divisor 57600) is 5 s");
	CHECK_EQ_U64(uart_byte_ns(0), 0, "no rate: 0");

	CHECK_EQ_U64(uart_wait_ns(115200), UART_WAIT_MIN_NS, "at 115200 baud 64 bytes (5.6 ms) are under the 10 ms floor");
	CHECK_EQ_U64(uart_wait_ns(57600), 11111168, "at 57600 baud the wait is 64 bytes, 11.1 ms");
	CHECK_EQ_U64(uart_wait_ns(9600), 66666688, "at 9600 baud the wait is 64 bytes, 66.7 ms");
	for (uint32_t baud = 2; baud <= 115200; baud++)
		if (115200 % baud == 0)
			CHECK(uart_wait_ns(baud) >= 32 * uart_byte_ns(baud) && uart_wait_ns(baud) >= UART_WAIT_MIN_NS,
			      "at %u baud the wait (%llu ns) is at least 32 byte times and 10 ms", baud,
			      (unsigned long long)uart_wait_ns(baud));

	/* The old bound: 10,000 status reads. A read takes 0.1 to 1 us on real
	 * machines and 5 instructions of Bochs at 100 MHz (50 ns): 1 ms at most,
	 * less than one byte at 9600 baud. The new one is 64 bytes. */
	CHECK(uart_wait_ns(9600) > 10000ull * 1000 + uart_byte_ns(9600),
	      "at 9600 baud the wait is far longer than 10,000 reads of 1 us plus a byte");

	CHECK_EQ_U64(uart_wait_ticks(115200, UART_TSC_HZ_MAX), 100000000, "10 ms at the 10 GHz bound is 1e8 ticks");
	CHECK_EQ_U64(uart_wait_ticks(9600, 1000000000), 66667000, "66.7 ms (66,667 us) at 1 GHz (-icount) is 66,667,000 ticks");
	CHECK_EQ_U64(uart_wait_ticks(9600, 100000000), 6666700, "66.7 ms at 100 MHz (Bochs, ips=100000000) is 6,666,700 ticks");
	CHECK_EQ_U64(uart_wait_ticks(9600, 3), 1, "a 3 Hz TSC: 0.2 ticks, rounded up to 1");
	for (uint32_t baud = 2; baud <= 115200; baud++)
		if (115200 % baud == 0)
			CHECK(uart_wait_ticks(baud, UART_TSC_HZ_MAX) != UINT64_MAX &&
			      uart_wait_ticks(baud, UART_TSC_HZ_MAX) >= uart_wait_ns(baud) * 10,
			      "at %u baud the wait at the 10 GHz bound is finite and at least the wait's ns x 10 ticks", baud);
	CHECK_EQ_U64(uart_wait_ticks(2, UINT64_MAX), UINT64_MAX, "an absurd rate saturates instead of wrapping");
	CHECK(uart_wait_ticks(9600, UART_TSC_HZ_MAX) / 10 >= uart_wait_ticks(9600, 1000000000),
	      "ticks at the 10 GHz bound last at least as long on any slower TSC");
	return check_summary("uartwait");
}

/* lib/uartwait.h - how long the kernel waits for a 16550 UART (kernel/uart.c),
 * from the baud rate: a time, not a count of status reads, so that a slow
 * rate (console=ttyS0,9600) or a fast CPU does not cut a working port off.
 * Host-tested (tests/unit/test_uartwait.c). */
#ifndef LIB_UARTWAIT_H
#define LIB_UARTWAIT_H

#include <stdint.h>

/* One byte of 8N1 is 10 bits on the line: start, 8 data, stop (PC16550D
 * data sheet, "Serial Data Format"). */
#define UART_BITS_PER_BYTE 10
/* A wait for the transmitter (LSR.THRE, LSR.TEMT) or for the loopback byte
 * (LSR.DR) is given up after this many byte times, and never before
 * UART_WAIT_MIN_NS: a working port needs one byte time (the kernel writes a
 * byte only when the FIFO is empty); the margin is for a port behind a
 * slower bridge (a BMC's serial-over-LAN, a USB adapter) that stalls briefly. */
#define UART_WAIT_BYTES 64
#define UART_WAIT_MIN_NS 10000000ull /* 10 ms */
/* An upper bound of any x86 TSC's rate, in Hz, for waits timed before the
 * rate is measured: no x86 processor's TSC (its base clock, SDM Vol. 3B
 * "Time-Stamp Counter") comes near 10 GHz, so a wait of N ticks at this rate
 * lasts at least N / 10 GHz seconds: never shorter than meant; longer on a
 * slower TSC (100 times at 100 MHz), which only a dead port pays, once. */
#define UART_TSC_HZ_MAX 10000000000ull

/* uart_byte_ns - the time of one 8N1 byte at baud (1..115200) bits a
 * second, in ns, rounded up: 86806 ns at 115200, 1041667 ns at 9600.
 * baud 0 (no rate) gives 0. */
uint64_t uart_byte_ns(uint32_t baud);

/* uart_wait_ns - the bound of one wait at baud, in ns: UART_WAIT_BYTES byte
 * times, at least UART_WAIT_MIN_NS (10 ms at 115200 and 57600, 66.7 ms at
 * 9600). */
uint64_t uart_wait_ns(uint32_t baud);

/* uart_wait_ticks - uart_wait_ns(baud), rounded up to whole microseconds,
 * in ticks of a TSC running at tsc_hz (Hz), rounded up: never shorter than
 * uart_wait_ns(baud). UINT64_MAX (for ever) when the product of the
 * microseconds and tsc_hz leaves 64 bits (a rate beyond 10^11 Hz). */
uint64_t uart_wait_ticks(uint32_t baud, uint64_t tsc_hz);

#endif

/* kernel/uart.h - 16550 UART (PC16550D data sheet; COM1 at I/O port 0x3F8). */
#ifndef KERNEL_UART_H
#define KERNEL_UART_H

#include <stddef.h>
#include <stdint.h>

#define COM1_BASE 0x3F8

/* uart_port_base - the I/O base of ttyS0..ttyS3 (the PC's COM1..COM4:
 * 0x3F8, 0x2F8, 0x3E8, 0x2E8), or 0 for another n. */
uint16_t uart_port_base(int n);

/* uart_init - probe the UART at I/O port base with the loopback test and,
 * if it answers, program baud (50..115200, a divisor of 115200) and 8N1 with
 * FIFOs on. Returns 0 when a UART is present, -1 when none answered (reads
 * of an absent port return 0xFF; a port whose loopback byte does not come
 * back within uart_wait_ns(baud), lib/uartwait.h); output is then dropped. */
int uart_init(uint16_t base, uint32_t baud);

/* uart_present - 1 after a successful uart_init, until a wait ran out. */
int uart_present(void);

/* uart_write - send n bytes, '\n' as "\r\n". Each byte waits for the
 * transmitter at most uart_wait_ns(baud) (lib/uartwait.h: 64 byte times, at
 * least 10 ms, timed by the TSC at an upper bound of its rate: never less); a
 * UART that stops answering is given up on (uart_present() becomes 0; the
 * console says so on the screen) instead of hanging the run. */
void uart_write(const char *s, size_t n);

/* uart_flush - wait, at most as long as for a byte, until the transmitter
 * has sent everything (LSR.TEMT): before a reset, so the last line gets out. */
void uart_flush(void);

#endif

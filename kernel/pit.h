/* kernel/pit.h - the 8254 programmable interval timer: the TSC's rate
 * measured against it, and channel 0 stopped.
 *
 * The PIT counts a 1193182 Hz input clock (14.31818 MHz / 12) on every PC
 * since the IBM PC, in the chipset (Intel PCH "8254 Timers") or emulated by
 * the hypervisor. Ports: 0x40-0x42 channels 0-2, 0x43 mode/command; port
 * 0x61 (NMI status and control) bit 0 gates channel 2, bit 1 routes it to
 * the speaker, bit 5 reads channel 2's OUT (Intel 82C54 data sheet; Linux
 * arch/x86/kernel/tsc.c pit_calibrate_tsc, drivers/clocksource/i8253.c).
 * Interrupts stay off throughout: nothing here needs IRQ0.
 */
#ifndef KERNEL_PIT_H
#define KERNEL_PIT_H

#include <stdint.h>
#include "../lib/tscfreq.h"

#define PIT_HZ 1193182u          /* input clock, Hz */
#define PIT_COUNTS_50MS 59659u   /* 50 ms: round(1193182 x 0.05) periods */

/* One calibration. Every tick figure is in TSC ticks. */
struct pit_cal {
	uint64_t hz;          /* the TSC's rate, ticks per second; 0 on error */
	uint32_t ppm;         /* bound on |hz - true rate| from the method, ppm */
	uint32_t counts;      /* PIT periods in the window (as asked) */
	uint64_t ticks;       /* TSC ticks from the count's start to OUT2 seen high */
	uint64_t polls;       /* reads of port 0x61 that saw OUT2 low */
	uint64_t poll_min, poll_max; /* ticks of one poll iteration (read + RDTSC) */
	uint64_t end_ticks;   /* window for OUT2's rise: the last two polls */
	uint64_t start_ticks; /* ticks of the write that starts the count */
	const char *error;    /* NULL on success, else why (static string) */
};

/* pit_calibrate_tsc - measure the TSC's rate against PIT channel 2, the
 * way Linux's pit_calibrate_tsc does: gate on and speaker off (port 0x61
 * bits 0 and 1), mode 0 "interrupt on terminal count" with lobyte/hibyte
 * access (command 0xB0 to port 0x43), the count to port 0x42 (low, high);
 * OUT2 goes low at the command and high `counts` input periods after the
 * count is loaded; RDTSC brackets the high-byte write, and port 0x61 is
 * polled until bit 5 (OUT2) is high. hz = ticks x 1193182 / counts, rounded.
 *
 * counts: 1000..65535 PIT periods (0.84 ms to 54.9 ms); PIT_COUNTS_50MS is
 * Linux's 50 ms. The error bound (ppm) adds the start bracket, one PIT
 * period (the count loads on the next input clock edge: 82C54 mode 0) and
 * the span of the last two polls (OUT2 rose between them). An SMI, or a
 * hypervisor's pause, inside the window costs nothing (the PIT counts on);
 * at either end it widens the bound, which is therefore measured, not
 * assumed.
 *
 * Never spins forever: gives up after counts x 33524 TSC ticks (4 times the
 * window at 10 GHz) or counts x 1000 polls, whichever comes first. Port
 * 0x61's original bits 0-3 are restored. Needs a TSC (CPUID.1:EDX[4]).
 * Returns 0; -1 with r->error set when another window may succeed: OUT2
 * already high at the first read after the count was written (no PIT
 * channel 2 behind the port, or a pause right after the write), or no rate
 * from the window; -2 with r->error set when another window will not
 * help: a count out of range, port 0x61 reading 0xFF (no such port), or
 * the time limit (a PIT that does not count, e.g. 8254 clock gating on
 * some recent chipsets, or none at all). The best of several windows:
 * kernel/clocks.c. */
int pit_calibrate_tsc(uint32_t counts, struct pit_cal *r);

/* pit_stop_channel0 - stop channel 0, the system timer (IRQ0), as Linux's
 * clockevent_i8253_disable() does: mode command 0x30 (channel 0,
 * lobyte/hibyte, mode 0), a count of 0 (some emulations stop only once a
 * count is written), then 0x30 again: in mode 0 a new command holds OUT0
 * low and the counter waits for a count that never comes. Then reads the
 * channel back (read-back command 0xE2, 82C54 data sheet) and returns the
 * status byte: bits 5-1 = 0x30 (lobyte/hibyte, mode 0) and bit 7 (OUT0) = 0
 * mean stopped; bit 6 (null count) is 1 on a real 8254, 0 under QEMU. A
 * status of 0xFF means no PIT answered. */
uint8_t pit_stop_channel0(void);

/* pit_print_cal - the "tsc: pit run N:" line of calibration p, the best
 * of `windows` windows: its rate, bound and what it saw, or why it failed. */
void pit_print_cal(int run, const struct pit_cal *p, int windows);

#endif

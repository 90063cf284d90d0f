/* kernel/clocks.h - the TSC's rate against every reference clock the
 * machine has, side by side, and the one used.
 *
 * The clocks, in the order they are listed (and preferred on a tie):
 *  - cpuid: CPUID 15H/16H, a nominal figure (lib/tscfreq.h);
 *  - pit: the 8254's channel 2, 1193182 Hz (kernel/pit.h);
 *  - hpet: the HPET's main counter (IA-PC HPET specification 1.0a: the
 *    General Capabilities and ID register at offset 000h, its bits 63:32
 *    the period in fs and bit 13 COUNT_SIZE_CAP, 64 bits when 1; General
 *    Configuration at 010h, bit 0 ENABLE_CNF; the main counter at 0F0h),
 *    at the base the ACPI HPET table gives;
 *  - pmtimer: the ACPI power management timer, 3.579545 MHz, 24 bits or
 *    32 with the FADT's TMR_VAL_EXT, at the FADT's PM_TMR_BLK I/O port
 *    (ACPI 6.5 4.8.3.3).
 * The HPET and the PM timer are read between two RDTSCs, as Linux's
 * tsc_read_refs does, at the start and the end of a 50 ms window that the
 * counter itself measures; see tscfreq_window_rate for the bound.
 */
#ifndef KERNEL_CLOCKS_H
#define KERNEL_CLOCKS_H

#include <stdint.h>
#include "pit.h"
#include "probe.h"
#include "../lib/tscfreq.h"

enum clock_id { CLOCK_CPUID, CLOCK_PIT, CLOCK_HPET, CLOCK_PMTIMER, CLOCK_COUNT };

/* One calibration against a counter (the HPET, the PM timer): the best of
 * its windows. Tick figures in TSC ticks. */
struct counter_cal {
	uint64_t hz;          /* the TSC's rate, ticks per second; 0 on error */
	uint32_t ppm;         /* bound from the method (tscfreq_window_rate), ppm */
	uint64_t ticks;       /* TSC ticks over the window, midpoint to midpoint */
	uint64_t counts;      /* counter periods over the window */
	uint64_t start_read, end_read; /* TSC ticks around the start and end reads */
	uint64_t polls;       /* counter reads while waiting for the window's end */
	const char *error;    /* NULL on success, else why (static string) */
};

/* The TSC's rate from every clock, and the one to use. */
struct tsc_rate {
	uint64_t hz;          /* the rate used; 0 when no clock gave one */
	uint32_t ppm;         /* its uncertainty, ppm (a clock's tolerance included) */
	const char *source;   /* "pit", "hpet", "pmtimer", a tscfreq_kind_name(), or "none" */
	int disagree;         /* pairs of clocks that disagreed beyond their uncertainties */
	const char *why;      /* why this clock (tscfreq_choose) */
	struct tscfreq cpuid; /* CPUID 15H/16H (lib/tscfreq.h) */
	struct pit_cal pit[2];/* two PIT calibrations, each the best of its windows */
	int pit_windows[2];   /* windows each took */
	struct counter_cal hpet[2], pm[2]; /* two calibrations each, as the PIT's */
	int hpet_windows[2], pm_windows[2];
	/* Per clock (enum clock_id): its figure for tscfreq_choose, the part of
	 * its uncertainty that was measured (the best run's bound, or the two
	 * runs' difference when larger), and why it gave none. */
	struct tscfreq_clock clock[CLOCK_COUNT];
	uint32_t measured_ppm[CLOCK_COUNT];
	const char *absent[CLOCK_COUNT];
};

/* Per calibration: at most this many 50 ms windows, stopping at the first
 * whose bound is within TSC_RATE_TARGET_PPM. */
#define TSC_RATE_TRIES 5
#define TSC_RATE_TARGET_PPM 500u

/* tsc_rate_measure - CPUID's figure (tscfreq_from_cpuid), then two
 * calibrations against each of the PIT, the HPET and the ACPI PM timer
 * that is present (kernel/acpi.h gives the latter two; `acpi_init` must
 * have run), each the best of up to TSC_RATE_TRIES 50 ms windows. A
 * measured clock's uncertainty is the larger of its best run's bound and
 * the two runs' difference, plus its oscillator's tolerance
 * (TSCFREQ_PPM_CRYSTAL for the PIT and the PM timer, both from the
 * 14.31818 MHz crystal; TSCFREQ_PPM_HPET). Prints the "tsc:" lines of each
 * calibration, a "clocks:" line per clock (rate, +- ppm, or why none), one
 * per pair of clocks that disagree beyond their combined uncertainty (or
 * one saying all agree), the "tsc: rate used:" line (tscfreq_choose), and
 * the "clocks" and "tsc_rate" records. The HPET's General Configuration is
 * restored afterwards. Takes about 300 ms (six windows), at most about 2 s
 * when windows must be repeated; a clock that does not count is given up
 * after about a second. c->has_tsc must be set. */
void tsc_rate_measure(const struct cpu_info *c, struct tsc_rate *out);

/* clocks_tsc_rate - the rate the last tsc_rate_measure chose (hz 0,
 * source NULL before one ran: no TSC, or not measured yet): the one TSC
 * rate every printer of nanoseconds reads (bench/report.c, summary.c).
 * Never NULL. */
const struct tsc_rate *clocks_tsc_rate(void);

#endif

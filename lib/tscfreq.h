/* lib/tscfreq.h - the time-stamp counter's rate, and TSC ticks as time.
 *
 * Freestanding and host-tested (tests/unit/test_tscfreq.c). Integer only:
 * the kernel has no floating point and no libgcc, so every product that
 * may pass 64 bits is taken in 128 bits and divided by u128_div_u64
 * (lib/stats.h). Frequencies are in Hz (TSC ticks per second),
 * uncertainties in parts per million (ppm) of the frequency.
 *
 * Sources:
 *  - SDM Vol. 2A, CPUID leaf 15H ("Time Stamp Counter and Nominal Core
 *    Crystal Clock Information"): TSC Hz = crystal Hz x EBX / EAX; EAX = 0
 *    or EBX = 0 means the ratio is not enumerated, ECX = 0 means the
 *    crystal is not; and leaf 16H ("Processor Frequency Information"):
 *    EAX[15:0] the base frequency in MHz, "in accordance with the
 *    processor's specification", not a measured rate.
 *  - SDM Vol. 3B "Determining the Processor Base Frequency": the table of
 *    nominal core crystal clocks for CPUs whose CPUID.15H:ECX is 0, and
 *    the crystal derived from CPUID.16H: base MHz x 10^6 x EAX / EBX.
 *  - Linux arch/x86/kernel/tsc.c native_calibrate_tsc(): the same table
 *    by model (until v5.2), and the derivation from 16H (since then).
 */
#ifndef LIB_TSCFREQ_H
#define LIB_TSCFREQ_H

#include <stddef.h>
#include <stdint.h>
#include "cpuinfo.h"

/* What CPUID said; the caller executes CPUID, so this is testable. */
struct tscfreq_cpuid {
	int vendor_intel;      /* CPUID.0 vendor is "GenuineIntel" */
	uint32_t family;       /* display family (CPUID.1:EAX, SDM Vol. 2A figure "Version Information") */
	uint32_t model;        /* display model, extended model included */
	uint32_t max_basic;    /* CPUID.0:EAX */
	uint32_t eax15, ebx15, ecx15; /* CPUID.15H; ignored when max_basic < 15H */
	uint32_t eax16;        /* CPUID.16H:EAX; ignored when max_basic < 16H */
};

/* tscfreq_cpuid_read - fill *in from CPUID through f: the vendor, family
 * and model (lib/cpuinfo.h), the maximum basic leaf, and leaves 15H and
 * 16H when the maximum reaches them (0 where it does not). */
void tscfreq_cpuid_read(cpuid_fn *f, void *ctx, struct tscfreq_cpuid *in);

/* How the figure was obtained, best first. */
enum tscfreq_kind {
	TSCFREQ_NONE,          /* not enumerated: hz is 0 */
	TSCFREQ_CRYSTAL_ECX,   /* 15H with the crystal in ECX */
	TSCFREQ_CRYSTAL_MODEL, /* 15H ratio x the known crystal of this model */
	TSCFREQ_CRYSTAL_16H,   /* 15H ratio x a crystal derived from 16H: nominal */
	TSCFREQ_NOMINAL_16H,   /* 16H base frequency alone: nominal */
};

/* Assumed uncertainties, in ppm. Neither is a figure the SDM gives.
 * TSCFREQ_PPM_CRYSTAL: CPUID names the crystal's nominal frequency; PC
 * clock crystals are specified to tens of ppm, plus temperature and aging.
 * TSCFREQ_PPM_NOMINAL: the base frequency is the specification's figure in
 * whole MHz, not the TSC's rate: with a 24 MHz crystal and a ratio of 266/2
 * the TSC runs at 3192 MHz, so a base of "3200 MHz" is 2500 ppm off (24 MHz
 * clients step their TSC in 12 MHz, not 100 MHz). */
#define TSCFREQ_PPM_CRYSTAL 100u
#define TSCFREQ_PPM_NOMINAL 5000u

struct tscfreq {
	uint64_t hz;           /* TSC ticks per second; 0 when not enumerated */
	uint64_t crystal_hz;   /* the core crystal clock used; 0 when none */
	uint32_t ppm;          /* uncertainty of hz, ppm (see the kinds above) */
	enum tscfreq_kind kind;
	const char *source;    /* how hz was obtained, or why it was not (static) */
};

/* tscfreq_from_cpuid - the TSC rate CPUID enumerates, in this order:
 *  1. CPUID.15H:EAX and EBX nonzero and ECX nonzero: ECX x EBX / EAX;
 *  2. ECX = 0 on an Intel family 6 model of the SDM's crystal table:
 *     24 MHz for Skylake and Kaby Lake/Coffee Lake clients (models 4EH,
 *     5EH, 8EH, 9EH), 25 MHz for Denverton (5FH), 19.2 MHz for Goldmont
 *     (5CH); not Skylake-SP/Xeon W (55H), whose crystal is 24 or 25 MHz
 *     and may be spread-spectrum (lib/tscfreq.c), as Linux since 2017;
 *  3. ECX = 0 and CPUID.16H:EAX[15:0] nonzero: the crystal derived from the
 *     base frequency, base x 10^6 x EAX / EBX (Hz, floored), times EBX/EAX;
 *  4. no usable 15H and 16H base nonzero: the base frequency, nominal.
 * Leaves 15H and 16H are read only on GenuineIntel, as Linux does (other
 * vendors' leaves of these numbers are reserved). Results are rounded to
 * the nearest Hz. Returns 0 with *out filled, or -1 with out->kind =
 * TSCFREQ_NONE, out->hz = 0 and out->source saying why. */
int tscfreq_from_cpuid(const struct tscfreq_cpuid *in, struct tscfreq *out);

/* Assumed tolerance of the HPET's counter period, ppm: the IA-PC HPET
 * specification 1.0a, 2.2 "Timer Accuracy", requires the main counter to be
 * within 0.05 % (500 ppm) of the period its General Capabilities register
 * states, over any 1 ms or longer. */
#define TSCFREQ_PPM_HPET 500u

/* One reference clock's figure for the TSC's rate (tscfreq_choose). */
struct tscfreq_clock {
	const char *name;  /* "cpuid", "pit", "hpet", "pmtimer" (static) */
	uint64_t hz;       /* TSC ticks per second by this clock; 0: absent */
	uint32_t ppm;      /* its whole uncertainty, ppm: for a calibration the
			    * measured bound plus the clock's own tolerance */
	int measured;      /* 1: this TSC calibrated against the clock; 0: a
			    * nominal figure (CPUID 15H/16H) */
};

/* The rate to use, from every clock's figure (tscfreq_choose). */
struct tscfreq_choice {
	int best;          /* index of the clock used; -1 when none gave a rate */
	uint64_t hz;       /* TSC ticks per second; 0 when none gave one */
	uint32_t ppm;      /* its uncertainty: the chosen clock's, or, when it
			    * disagrees with others, wide enough to cover theirs */
	int pairs;         /* pairs of present clocks compared */
	int disagree;      /* of them, pairs farther apart than their combined uncertainty */
	int widened;       /* the chosen clock disagrees with another: ppm widened */
	uint32_t diff_ppm; /* the largest |other - chosen| in ppm of the chosen
			    * figure, rounded up, saturated; 0 with one clock */
	uint32_t left_out; /* bit i: nominal clock c[i] is left out of ppm: it
			    * disagrees with every measured clock, and they (two
			    * or more) agree with each other; 0: none */
	const char *why;   /* one sentence: why this figure (static) */
};

/* tscfreq_disagree - whether a_hz +- a_ppm and b_hz +- b_ppm disagree:
 * their intervals do not overlap, |a - b| x 10^6 > a x a_ppm + b x b_ppm,
 * computed exactly (128 bits). Returns 1 or 0. */
int tscfreq_disagree(uint64_t a_hz, uint32_t a_ppm, uint64_t b_hz, uint32_t b_ppm);

/* tscfreq_choose - the rate to use from n (0..) clocks' figures, c[i].hz =
 * 0 meaning absent. When no pair of present clocks disagrees
 * (tscfreq_disagree), the one with the smallest uncertainty is used, the
 * first in c[] on a tie (list CPUID first: its figure is exact when it
 * agrees). When the clock of the smallest uncertainty disagrees with
 * another, one of them is wrong beyond what it claims and nothing says
 * which: a measured clock is then preferred to a nominal one (the one of
 * the smallest uncertainty among the measured), because it measured this
 * TSC while CPUID's is a specification's figure (a crystal off nominal or
 * spread-spectrum clocked, a wrong model table entry, a hypervisor's); and
 * the chosen uncertainty is widened to reach the far end of the interval
 * of every clock it disagrees with, (|other - chosen| + other x other_ppm
 * / 10^6) in ppm of the chosen figure, rounded up (at least its own, at
 * most UINT32_MAX). One exception: a nominal clock contradicted by
 * agreeing measured clocks (two or more measured clocks present, no two of
 * them disagreeing, the nominal one disagreeing with each) is left out of
 * that widening and named in out->left_out: several measurements of this
 * TSC that agree outweigh one specification's figure, which would
 * otherwise widen the bound to its own error (a 2.4 GHz nominal against a
 * 2.496 GHz TSC: 38597 ppm instead of the PM timer's 106). A single
 * measured clock, or measured clocks that disagree among themselves, do
 * not outweigh it. out->why says which case it was. Returns 0, or -1
 * when no clock gave a rate (out->hz = 0, out->best = -1). */
int tscfreq_choose(const struct tscfreq_clock *c, int n, struct tscfreq_choice *out);

/* tscfreq_counter_delta - to - from modulo 2^bits: the periods a counter
 * of `bits` bits (1..64) advanced from `from` to `to`, across at most one
 * wrap (the ACPI PM timer is 24 or 32 bits, ACPI 6.5 4.8.3.3; an HPET
 * main counter 32 or 64, IA-PC HPET 1.0a 2.3.4 COUNT_SIZE_CAP). Only the
 * low `bits` bits of each are used. */
uint64_t tscfreq_counter_delta(uint64_t from, uint64_t to, unsigned bits);

/* One calibration window against a counter read with RDTSC on each side
 * (the way Linux's tsc_read_refs brackets its HPET and PM timer reads).
 * TSC values in ticks, counter values in its periods. */
struct tscfreq_window {
	uint64_t a1, a2;   /* TSC right before and right after the start read */
	uint64_t c0;       /* the counter at the start */
	uint64_t b1, b2;   /* TSC right before and right after the end read */
	uint64_t c1;       /* the counter at the end */
};

struct tscfreq_window_rate {
	uint64_t hz;        /* the TSC's rate, ticks per second */
	uint32_t ppm;       /* bound on |hz - true rate| from the method, ppm */
	uint64_t ticks;     /* TSC ticks between the reads' midpoints */
	uint64_t counts;    /* counter periods between the reads (wrap undone) */
	uint64_t err_ticks; /* the bound in ticks (see tscfreq_window_rate) */
};

/* tscfreq_window_rate - the TSC's rate over window w against a counter of
 * `bits` bits counting at ref_num / ref_den Hz (the PM timer: 3579545 / 1;
 * an HPET: 10^15 / its period in fs). Each read happened somewhere inside
 * its bracket, so the ticks between the midpoints are off by at most half
 * of each bracket; a counter's value stands for any instant of its period,
 * so the counts are off by less than one period. hz = round(ticks x
 * ref_num / (counts x ref_den)); err_ticks = ceil(half brackets) + 1 (the
 * midpoints' rounding) + ceil(ticks / counts) (one period); ppm =
 * ceil(err_ticks x 10^6 / ticks). Returns 0, or -1 when the brackets are
 * out of order (a2 < a1, b1 < a2, b2 < b1), the counter did not advance,
 * no tick passed, counts x ref_den passes 64 bits or hz does. */
int tscfreq_window_rate(const struct tscfreq_window *w, unsigned bits, uint64_t ref_num, uint64_t ref_den,
			struct tscfreq_window_rate *out);

/* tscfreq_kind_name - "cpuid15h-ecx", "cpuid15h-model", "cpuid15h-16h",
 * "cpuid16h-nominal" or "none": a short name for records. */
const char *tscfreq_kind_name(enum tscfreq_kind k);

/* tscfreq_ratio_hz - round(ticks x ref_hz / ref_counts): the TSC rate from
 * ticks counted while a reference clock of ref_hz counted ref_counts
 * periods (the PIT calibration: ref_hz = 1193182). Returns 0, or -1 when
 * ref_counts is 0 or the result exceeds 2^64 - 1. Exact for every 64-bit
 * input (128-bit product). */
int tscfreq_ratio_hz(uint64_t ticks, uint64_t ref_hz, uint64_t ref_counts, uint64_t *hz);

/* tscfreq_ppm - ceil(part x 10^6 / whole), saturated at UINT32_MAX; the
 * relative size of an error of `part` in a measurement of `whole`, in ppm.
 * whole = 0 gives UINT32_MAX. */
uint32_t tscfreq_ppm(uint64_t part, uint64_t whole);

/* tscfreq_ppm_diff - |a - b| x 10^6 / b, rounded up, saturated at
 * UINT32_MAX: how far a is from the reference b, in ppm. b = 0 gives
 * UINT32_MAX (unless a = 0 too: 0). */
uint32_t tscfreq_ppm_diff(uint64_t a, uint64_t b);

/* ticks_to_ns - round(ticks x 10^9 / hz): TSC ticks as nanoseconds, exact
 * to the nearest ns for every ticks < 2^64 (128-bit product; no overflow
 * inside). Returns 0, or -1 when hz = 0 or the result exceeds 2^64 - 1
 * (only when hz < 10^9). */
int ticks_to_ns(uint64_t ticks, uint64_t hz, uint64_t *ns);

/* ticks_to_ps - the same in picoseconds, round(ticks x 10^12 / hz), for
 * short intervals: 21 ticks at 2.9 GHz are 7241 ps, where ns would round
 * to 7. Returns 0, or -1 when hz = 0 or the result exceeds 2^64 - 1. */
int ticks_to_ps(uint64_t ticks, uint64_t hz, uint64_t *ps);

/* Room tscfreq_format_mhz needs: "18446744073709.552 MHz" and a NUL. */
#define TSCFREQ_MHZ_BUF 32

/* tscfreq_format_mhz - hz as MHz with three decimals, rounded to the
 * nearest kHz: 2893432109 -> "2893.432 MHz". size >= TSCFREQ_MHZ_BUF
 * always fits. Returns buf. */
char *tscfreq_format_mhz(char *buf, size_t size, uint64_t hz);

#endif

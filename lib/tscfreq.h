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

/* What CPUID said; the caller executes CPUID, so this is testable. */
struct tscfreq_cpuid {
	int vendor_intel;      /* CPUID.0 vendor is "GenuineIntel" */
	uint32_t family;       /* display family (CPUID.1:EAX, SDM Vol. 2A figure "Version Information") */
	uint32_t model;        /* display model, extended model included */
	uint32_t max_basic;    /* CPUID.0:EAX */
	uint32_t eax15, ebx15, ecx15; /* CPUID.15H; ignored when max_basic < 15H */
	uint32_t eax16;        /* CPUID.16H:EAX; ignored when max_basic < 16H */
};

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

/* The rate to use, from CPUID's figure and the PIT's (tscfreq_choose). */
struct tscfreq_choice {
	uint64_t hz;       /* TSC ticks per second; 0 when neither source gave one */
	uint32_t ppm;      /* its uncertainty: the chosen source's, or, when the two
			    * disagree, wide enough to cover the other's figure */
	int from_pit;      /* 1: the PIT's figure; 0: CPUID's (or none) */
	int disagree;      /* both given and farther apart than their combined uncertainty */
	uint32_t diff_ppm; /* |pit - cpuid| in ppm of the chosen figure, rounded up,
			    * saturated; 0 unless both given */
	const char *why;   /* one sentence: why this figure (static) */
};

/* tscfreq_choose - the rate to use from CPUID's (cpuid_hz +- cpuid_ppm; 0
 * Hz: none) and the PIT calibration's (pit_hz +- pit_ppm, the latter
 * including the PIT crystal's tolerance; 0 Hz: none). One source alone is
 * used with its own uncertainty. When both agree within the sum of their
 * uncertainties, the one with the smaller uncertainty is used (CPUID on a
 * tie). When they disagree, one of them is wrong beyond what it claims and
 * nothing says which: the PIT's is used, because it is a measurement of
 * this TSC, while CPUID's is a nominal figure (a crystal off nominal or
 * spread-spectrum clocked, a wrong model table entry, a hypervisor's
 * figure); and its uncertainty is widened to reach the far end of CPUID's
 * interval, (|pit - cpuid| + cpuid x cpuid_ppm / 10^6) in ppm of the PIT's
 * figure, rounded up (at least pit_ppm, at most UINT32_MAX). They
 * disagree when |pit - cpuid| x 10^6 > (cpuid_ppm + pit_ppm) x cpuid,
 * computed exactly. out->why
 * says which case it was. Returns 0, or -1 when neither gave a rate
 * (out->hz = 0). */
int tscfreq_choose(uint64_t cpuid_hz, uint32_t cpuid_ppm, uint64_t pit_hz, uint32_t pit_ppm,
		   struct tscfreq_choice *out);

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

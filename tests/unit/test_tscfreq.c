/* tests/unit/test_tscfreq.c - lib/tscfreq.c: the TSC rate from CPUID
 * leaves 15H/16H of known CPUs, the PIT ratio, ppm, ticks as time and the
 * MHz format. The CPUID values are the leaves' documented meanings applied
 * to plausible parts; each expected figure is worked out in the comment. */
#include <stdint.h>
#include "check.h"
#include "../../lib/tscfreq.h"

static struct tscfreq run(int intel, uint32_t family, uint32_t model, uint32_t max_basic,
			  uint32_t eax15, uint32_t ebx15, uint32_t ecx15, uint32_t eax16, int *rc)
{
	struct tscfreq_cpuid in = {
		.vendor_intel = intel, .family = family, .model = model, .max_basic = max_basic,
		.eax15 = eax15, .ebx15 = ebx15, .ecx15 = ecx15, .eax16 = eax16,
	};
	struct tscfreq f;
	*rc = tscfreq_from_cpuid(&in, &f);
	return f;
}

static void test_cpuid(void)
{
	int rc;
	struct tscfreq f;

	/* Ice Lake / Tiger Lake client: the crystal is enumerated, 38.4 MHz;
	 * ratio 156/2: 38400000 x 78 = 2995200000 Hz. */
	f = run(1, 6, 0x8C, 0x1B, 2, 156, 38400000, 3000, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 2995200000ull);
	CHECK_EQ_U64(f.crystal_hz, 38400000);
	CHECK(f.kind == TSCFREQ_CRYSTAL_ECX);
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_CRYSTAL);
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-ecx");

	/* Skylake client desktop (06_5EH): ECX = 0, crystal 24 MHz from the
	 * table; ratio 266/2: 24 MHz x 133 = 3192 MHz. The table wins over
	 * 16H's "3200" (which would give 3200 MHz). */
	f = run(1, 6, 0x5E, 0x16, 2, 266, 0, 3200, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 3192000000ull);
	CHECK_EQ_U64(f.crystal_hz, 24000000);
	CHECK(f.kind == TSCFREQ_CRYSTAL_MODEL);
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_CRYSTAL);
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-model");

	/* The other 24 MHz models: Skylake mobile 4EH, Kaby/Coffee Lake 8EH,
	 * 9EH; ratio 0xF0/2 = 120: 2880 MHz. */
	static const uint32_t m24[] = { 0x4E, 0x8E, 0x9E };
	for (int i = 0; i < 3; i++) {
		f = run(1, 6, m24[i], 0x16, 2, 0xF0, 0, 0, &rc);
		CHECK_EQ_U64(rc, 0);
		CHECK_EQ_U64(f.hz, 2880000000ull);
		CHECK(f.kind == TSCFREQ_CRYSTAL_MODEL);
	}

	/* Goldmont (Apollo Lake, 06_5CH): 19.2 MHz x 57/1 = 1094.4 MHz. */
	f = run(1, 6, 0x5C, 0x15, 1, 57, 0, 0, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 1094400000ull);
	CHECK_EQ_U64(f.crystal_hz, 19200000);

	/* Denverton (06_5FH), no leaf 16H: 25 MHz x 88/1 = 2200 MHz. */
	f = run(1, 6, 0x5F, 0x15, 1, 88, 0, 0, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 2200000000ull);
	CHECK_EQ_U64(f.crystal_hz, 25000000);

	/* Skylake-SP / Xeon W (06_55H) is not in the table: a Xeon W-2145
	 * (24 MHz crystal, ratio 2/308: 3696 MHz) was given 25 MHz x 154 =
	 * 3850 MHz +-100 ppm, 4 % off. Now the crystal comes from 16H, base
	 * 3700 MHz: 3700e6 x 2 / 308 = 24025974 Hz, TSC 3699999996 Hz, nominal
	 * +-5000 ppm, which covers the true 3696 MHz (1082 ppm off). */
	f = run(1, 6, 0x55, 0x16, 2, 308, 0, 3700, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H);
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL);
	CHECK_EQ_U64(f.crystal_hz, 24025974);
	CHECK_EQ_U64(f.hz, 3699999996ull);
	CHECK(tscfreq_ppm_diff(3696000000ull, f.hz) <= f.ppm);
	/* A Skylake-SP server, 25 MHz spread-spectrum (-0.25 %), ratio 2/168:
	 * the true rate is about 2094.75 MHz; 16H's 2100 MHz +-5000 ppm covers
	 * it, where 2100 MHz +-100 ppm did not. */
	f = run(1, 6, 0x55, 0x16, 2, 168, 0, 2100, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H);
	CHECK_EQ_U64(f.hz, 2100000000ull);
	CHECK(tscfreq_ppm_diff(2094750000ull, f.hz) <= f.ppm);
	/* ... and without leaf 16H: not enumerated, the PIT measures it. */
	f = run(1, 6, 0x55, 0x15, 2, 168, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1);
	CHECK(f.kind == TSCFREQ_NONE);

	/* ECX = 0 on a model not in the table (Comet Lake 06_A5H), 16H base
	 * 2900 MHz, ratio 242/2: crystal = 2900e6 x 2 / 242 = 23966942 Hz
	 * (floored), TSC = round(23966942 x 121) = 2899999982 Hz: nominal. */
	f = run(1, 6, 0xA5, 0x16, 2, 242, 0, 2900, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.crystal_hz, 23966942);
	CHECK_EQ_U64(f.hz, 2899999982ull);
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H);
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL);
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-16h");

	/* Not family 6: the model table does not apply (model 0x5E of family
	 * 0xF is not Skylake); no 16H either: not enumerated. */
	f = run(1, 0xF, 0x5E, 0x15, 2, 266, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1);
	CHECK_EQ_U64(f.hz, 0);
	CHECK(f.kind == TSCFREQ_NONE);
	CHECK_STR(tscfreq_kind_name(f.kind), "none");

	/* Only 16H (15H ratio 0): the nominal base frequency, 3400 MHz. The
	 * reserved bits 31:16 of 16H:EAX are ignored. */
	f = run(1, 6, 0x3C, 0x16, 0, 0, 0, 0xABCD0000u | 3400, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 3400000000ull);
	CHECK_EQ_U64(f.crystal_hz, 0);
	CHECK(f.kind == TSCFREQ_NOMINAL_16H);
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL);
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid16h-nominal");

	/* Ratio given, EAX = 0 (guard against division by zero): 16H used. */
	f = run(1, 6, 0x5E, 0x16, 0, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 3200000000ull);
	CHECK(f.kind == TSCFREQ_NOMINAL_16H);

	/* All zeros: not enumerated, for every reason. */
	f = run(1, 6, 0x5E, 0x16, 0, 0, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1);
	CHECK_EQ_U64(f.hz, 0);
	CHECK(f.source && strstr(f.source, "not enumerated") == f.source);
	f = run(1, 6, 0x5E, 0x15, 2, 0, 24000000, 0, &rc); /* EBX = 0 */
	CHECK_EQ_U64(rc, -1);
	f = run(1, 6, 0xA5, 0x16, 2, 242, 0, 0, &rc); /* ECX = 0, unknown model, 16H = 0 */
	CHECK_EQ_U64(rc, -1);
	CHECK(strstr(f.source, "crystal table") != NULL);

	/* Leaves above the maximum are not read, whatever the registers say. */
	f = run(1, 6, 0x5E, 0x14, 2, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, -1);
	CHECK(strstr(f.source, "max basic leaf") != NULL);
	f = run(1, 6, 0xA5, 0x15, 2, 242, 0, 2900, &rc); /* 16H above the max */
	CHECK_EQ_U64(rc, -1);

	/* Not Intel: not read (QEMU TCG -cpu max says AuthenticAMD). */
	f = run(0, 0x19, 0x21, 0x16, 2, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, -1);
	CHECK(strstr(f.source, "GenuineIntel") != NULL);

	/* Extremes: EBX = 2^32-1, EAX = 1, ECX = 2^32-1 Hz: the product needs
	 * 64 bits, (2^32-1)^2 = 18446744065119617025. */
	f = run(1, 6, 0x8C, 0x15, 1, 0xFFFFFFFFu, 0xFFFFFFFFu, 0, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_U64(f.hz, 18446744065119617025ull);
	/* Rounding to the nearest Hz: 1 Hz crystal x 3 / 2 = 1.5 -> 2. */
	f = run(1, 6, 0x8C, 0x15, 2, 3, 1, 0, &rc);
	CHECK_EQ_U64(f.hz, 2);
	/* 1 Hz x 1 / 3 rounds to 0 Hz: no figure, and no 16H: not enumerated. */
	f = run(1, 6, 0x8C, 0x15, 3, 1, 1, 0, &rc);
	CHECK_EQ_U64(rc, -1);
	/* Largest 16H base, 65535 MHz, with EAX = 2^32-1 and EBX = 1: the
	 * derived crystal, 65535e6 x (2^32-1) Hz, passes 64 bits: not used;
	 * the nominal base frequency is. */
	f = run(1, 6, 0xA5, 0x16, 0xFFFFFFFFu, 1, 0, 65535, &rc);
	CHECK_EQ_U64(rc, 0);
	CHECK(f.kind == TSCFREQ_NOMINAL_16H);
	CHECK_EQ_U64(f.hz, 65535000000ull);
}

static void test_ratio_ppm(void)
{
	uint64_t hz;
	/* The PIT calibration: 50 ms = 59659 PIT counts; a 1 GHz TSC counts
	 * 59659 x 10^9 / 1193182 = 49999916.2 ticks -> back to 1 GHz. */
	CHECK_EQ_U64(tscfreq_ratio_hz(49999916, 1193182, 59659, &hz), 0);
	CHECK(hz > 999999990ull && hz < 1000000010ull);
	CHECK_EQ_U64(tscfreq_ratio_hz(3000000000ull, 1193182, 1193182, &hz), 0);
	CHECK_EQ_U64(hz, 3000000000ull);
	CHECK_EQ_U64(tscfreq_ratio_hz(1, 1, 0, &hz), -1);
	/* 2^64-1 ticks over 1 count of a 2 Hz clock: does not fit. */
	CHECK_EQ_U64(tscfreq_ratio_hz(UINT64_MAX, 2, 1, &hz), -1);
	CHECK_EQ_U64(tscfreq_ratio_hz(UINT64_MAX, 1193182, 1193182, &hz), 0);
	CHECK_EQ_U64(hz, UINT64_MAX);

	CHECK_EQ_U64(tscfreq_ppm(1, 1000000), 1);
	CHECK_EQ_U64(tscfreq_ppm(1, 1000001), 1);   /* rounded up */
	CHECK_EQ_U64(tscfreq_ppm(0, 5), 0);
	CHECK_EQ_U64(tscfreq_ppm(838, 50000000), 17); /* one PIT count in 50 ms at 1 GHz */
	CHECK_EQ_U64(tscfreq_ppm(5, 0), UINT32_MAX);
	CHECK_EQ_U64(tscfreq_ppm(UINT64_MAX, 1), UINT32_MAX);
	CHECK_EQ_U64(tscfreq_ppm_diff(1005000000, 1000000000), 5000);
	CHECK_EQ_U64(tscfreq_ppm_diff(995000000, 1000000000), 5000);
	CHECK_EQ_U64(tscfreq_ppm_diff(7, 7), 0);
	CHECK_EQ_U64(tscfreq_ppm_diff(0, 0), 0);
	CHECK_EQ_U64(tscfreq_ppm_diff(1, 0), UINT32_MAX);
}

/* tscfreq_choose's result for CPUID's figure and the PIT's (two clocks,
 * CPUID listed first as the kernel does), checked against the figure,
 * uncertainty, source and agreement expected. */
static struct tscfreq_choice choose(uint64_t cpuid_hz, uint32_t cpuid_ppm, uint64_t pit_hz, uint32_t pit_ppm,
				    uint64_t hz, uint32_t ppm, int from_pit, int disagree)
{
	struct tscfreq_clock c[2] = {
		{ .name = "cpuid", .hz = cpuid_hz, .ppm = cpuid_ppm, .measured = 0 },
		{ .name = "pit", .hz = pit_hz, .ppm = pit_ppm, .measured = 1 },
	};
	struct tscfreq_choice ch;
	CHECK_EQ_U64(tscfreq_choose(c, 2, &ch), hz ? 0 : -1);
	CHECK_EQ_U64(ch.hz, hz);
	CHECK_EQ_U64(ch.ppm, ppm);
	CHECK_EQ_U64(ch.best, hz ? from_pit : -1);
	CHECK_EQ_U64(ch.disagree, disagree);
	CHECK_EQ_U64(ch.widened, disagree);
	CHECK(ch.why != NULL);
	return ch;
}

static void test_choose(void)
{
	struct tscfreq_choice ch;

	/* Neither; one alone, with its own uncertainty. */
	ch = choose(0, 0, 0, 0, 0, 0, 0, 0);
	CHECK(strstr(ch.why, "no clock"));
	choose(3192000000ull, 100, 0, 0, 3192000000ull, 100, 0, 0);
	choose(0, 0, 1000000123ull, 140, 1000000123ull, 140, 1, 0);

	/* Agreement: 3192 MHz +-100 (CPUID) and 3192.3 MHz +-150 (PIT) are
	 * 94 ppm apart, within 250: CPUID's smaller uncertainty. */
	ch = choose(3192000000ull, 100, 3192300000ull, 150, 3192000000ull, 100, 0, 0);
	CHECK_EQ_U64(ch.diff_ppm, 94);
	CHECK(strstr(ch.why, "agrees"));
	/* A tie goes to CPUID; a smaller PIT bound to the PIT. */
	choose(3192000000ull, 150, 3192300000ull, 150, 3192000000ull, 150, 0, 0);
	choose(3200000000ull, 5000, 3192300000ull, 150, 3192300000ull, 150, 1, 0);

	/* Disagreement, the case: a Xeon W with 24 MHz given 25 MHz:
	 * CPUID 3850 MHz +-100, the PIT 3696.1 MHz +-150: 41639 ppm apart (of
	 * the PIT's figure). CPUID was preferred for its smaller uncertainty,
	 * silently; now the PIT's figure, widened to reach CPUID's 3850.385
	 * MHz: 154.285 MHz in ppm of 3696.1 MHz, rounded up, 41743. */
	ch = choose(3850000000ull, 100, 3696100000ull, 150, 3696100000ull, 41743, 1, 1);
	CHECK_EQ_U64(ch.diff_ppm, 41639);
	CHECK(strstr(ch.why, "disagree"));
	/* The chosen interval holds CPUID's whole interval. */
	CHECK(tscfreq_ppm_diff(3850000000ull + 385000, ch.hz) <= ch.ppm);
	/* Just beyond: 251 ppm apart with 100 + 150 ppm; just within. */
	ch = choose(1000000000ull, 100, 1000251000ull, 150, 1000251000ull, 351, 1, 1);
	choose(1000000000ull, 100, 1000250000ull, 150, 1000000000ull, 100, 0, 0);
	/* Far apart (a PIT emulated from another clock: twice the rate): the
	 * uncertainty is huge, and said, not hidden: (10^9 + 10^5) / 2x10^9. */
	choose(1000000000ull, 100, 2000000000ull, 150, 2000000000ull, 500050, 1, 1);
	ch = choose(UINT64_MAX, 100, 1, 0, 1, UINT32_MAX, 1, 1); /* saturated */
	CHECK_EQ_U64(ch.diff_ppm, UINT32_MAX);
	/* Extremes compared exactly, not through a saturated ppm: 1 Hz +-100
	 * and 2^64-1 Hz +-(2^32-6) ppm overlap (the latter's interval reaches
	 * down past 0): they agree, and CPUID's smaller uncertainty is used;
	 * with 999999 ppm the PIT's reaches only down to 2^64 x 10^-6, and
	 * is widened to reach down to 1 Hz: 10^6 ppm. */
	choose(1, 100, UINT64_MAX, UINT32_MAX - 5, 1, 100, 0, 0);
	choose(1, 100, UINT64_MAX, 999999, UINT64_MAX, 1000000, 1, 1);
}

/* The same choice among four clocks, listed as the kernel lists them. */
static struct tscfreq_choice choose4(uint64_t cpuid, uint32_t cpuid_ppm, uint64_t pit, uint32_t pit_ppm,
				     uint64_t hpet, uint32_t hpet_ppm, uint64_t pm, uint32_t pm_ppm)
{
	struct tscfreq_clock c[4] = {
		{ "cpuid", cpuid, cpuid_ppm, 0 },
		{ "pit", pit, pit_ppm, 1 },
		{ "hpet", hpet, hpet_ppm, 1 },
		{ "pmtimer", pm, pm_ppm, 1 },
	};
	struct tscfreq_choice ch;
	int rc = tscfreq_choose(c, 4, &ch);
	CHECK_EQ_U64(rc, ch.hz ? 0 : -1);
	CHECK(ch.why != NULL);
	return ch;
}

static void test_choose_n(void)
{
	struct tscfreq_choice ch;

	/* No clock at all (q35 with pit=off and acpi=off on AMD). */
	ch = choose4(0, 0, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_U64(ch.best, -1);
	CHECK_EQ_U64(ch.hz, 0);
	CHECK_EQ_U64(ch.pairs, 0);
	/* No PIT (pit=off): the PM timer's +-108 beats the HPET's +-503. */
	ch = choose4(0, 0, 0, 0, 2596141000ull, 503, 2596140000ull, 108);
	CHECK_EQ_U64(ch.best, 3);
	CHECK_EQ_U64(ch.hz, 2596140000ull);
	CHECK_EQ_U64(ch.ppm, 108);
	CHECK_EQ_U64(ch.pairs, 1);
	CHECK_EQ_U64(ch.disagree, 0);
	CHECK_EQ_U64(ch.diff_ppm, 1);
	/* Only the HPET (pit=off, no FADT PM timer). */
	ch = choose4(0, 0, 0, 0, 2596141000ull, 503, 0, 0);
	CHECK_EQ_U64(ch.best, 2);
	CHECK_EQ_U64(ch.ppm, 503);
	CHECK(strstr(ch.why, "only"));
	/* All four agree: a tie between CPUID and the PIT goes to the first
	 * listed (CPUID). */
	ch = choose4(3000000000ull, 124, 3000010000ull, 124, 3000020000ull, 510, 3000005000ull, 130);
	CHECK_EQ_U64(ch.best, 0);
	CHECK_EQ_U64(ch.pairs, 6);
	CHECK_EQ_U64(ch.disagree, 0);
	CHECK_EQ_U64(ch.diff_ppm, 7); /* the HPET's 20 kHz of 3 GHz: 6.67 -> 7 */
	/* The PIT disagrees with the HPET and the PM timer (an emulated PIT
	 * from another clock): the PIT has the smallest uncertainty and is
	 * measured, so it stays, widened to cover both: the HPET's far end
	 * 3003000000 x 1.0005 = 3004501500 is 1500.5 ppm above 3 GHz -> 1501. */
	ch = choose4(0, 0, 3000000000ull, 110, 3003000000ull, 500, 3003001000ull, 120);
	CHECK_EQ_U64(ch.best, 1);
	CHECK_EQ_U64(ch.disagree, 2);
	CHECK_EQ_U64(ch.widened, 1);
	CHECK_EQ_U64(ch.ppm, 1501);
	CHECK_EQ_U64(ch.diff_ppm, 1001);
	CHECK(strstr(ch.why, "widened"));
	/* CPUID (nominal, +-100) disagrees with the measured clocks, which
	 * agree among themselves: the PM timer (the smallest measured bound)
	 * is used, widened to reach CPUID's far end: 3850 MHz +-100 from
	 * 3696.1 MHz: (153.9 + 0.385) MHz / 3696.1 MHz = 41742.3 -> 41743. */
	ch = choose4(3850000000ull, 100, 3696100000ull, 150, 3696110000ull, 505, 3696100000ull, 105);
	CHECK_EQ_U64(ch.best, 3);
	CHECK_EQ_U64(ch.hz, 3696100000ull);
	CHECK_EQ_U64(ch.ppm, 41743);
	CHECK_EQ_U64(ch.disagree, 3);
	/* Others disagree among themselves but not with the chosen one: the
	 * PIT 300 ppm above, the HPET 300 below, each +-250; the PM timer
	 * +-200 between them. */
	ch = choose4(0, 0, 1000300000ull, 250, 999700000ull, 250, 1000000000ull, 200);
	CHECK_EQ_U64(ch.best, 3);
	CHECK_EQ_U64(ch.widened, 0);
	CHECK_EQ_U64(ch.ppm, 200);
	CHECK_EQ_U64(ch.disagree, 1);
	CHECK(strstr(ch.why, "among themselves"));
	/* Every clock nominal (no measurement): the smallest, widened. */
	struct tscfreq_clock nominal[2] = { { "a", 1000000000ull, 100, 0 }, { "b", 1010000000ull, 5000, 0 } };
	CHECK_EQ_U64(tscfreq_choose(nominal, 2, &ch), 0);
	CHECK_EQ_U64(ch.best, 0);
	CHECK_EQ_U64(ch.widened, 1);
	CHECK_EQ_U64(ch.ppm, 15050); /* (10^7 + 5.05 x 10^6) / 10^9 x 10^6 */
	/* n = 0: none. */
	CHECK_EQ_U64(tscfreq_choose(nominal, 0, &ch), -1);

	/* tscfreq_disagree: the intervals' overlap, symmetric and exact. */
	CHECK_EQ_U64(tscfreq_disagree(1000000000ull, 100, 1000250000ull, 150), 0); /* 100000 + 150037.5 >= 250000 */
	CHECK_EQ_U64(tscfreq_disagree(1000250000ull, 150, 1000000000ull, 100), 0);
	CHECK_EQ_U64(tscfreq_disagree(1000000000ull, 100, 1000251000ull, 150), 1);
	CHECK_EQ_U64(tscfreq_disagree(5, 0, 5, 0), 0);
	CHECK_EQ_U64(tscfreq_disagree(5, 0, 6, 0), 1);
	CHECK_EQ_U64(tscfreq_disagree(UINT64_MAX, UINT32_MAX, 0, 0), 0);
}

/* A window's rate and bound, for the counters the kernel reads. */
static void test_window(void)
{
	struct tscfreq_window_rate r;

	CHECK_EQ_U64(tscfreq_counter_delta(10, 25, 24), 15);
	CHECK_EQ_U64(tscfreq_counter_delta(0xFFFFF0, 0x10, 24), 0x20);       /* 24-bit PM timer wrap */
	CHECK_EQ_U64(tscfreq_counter_delta(0x12FFFFF0, 0x13000010, 24), 0x20); /* bits above 24 ignored */
	CHECK_EQ_U64(tscfreq_counter_delta(0xFFFFFFF0u, 0x10, 32), 0x20);    /* 32-bit PM timer or HPET */
	CHECK_EQ_U64(tscfreq_counter_delta(UINT64_MAX - 1, 3, 64), 5);
	CHECK_EQ_U64(tscfreq_counter_delta(3, 3, 64), 0);

	/* The HPET of QEMU (10 ns periods, 64-bit) under -icount, 1 GHz:
	 * 5000000 periods (50 ms) over 50000000 ticks midpoint to midpoint;
	 * brackets of 40 and 60 ticks: 50 + 1 + 10 ticks = 61 in 5x10^7 ->
	 * 1.22 -> 2 ppm. */
	struct tscfreq_window w = { .a1 = 1000, .a2 = 1040, .c0 = 77, .b1 = 50001000, .b2 = 50001060,
				    .c1 = 5000077 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1000000000000000ull, 10000000, &r), 0);
	CHECK_EQ_U64(r.ticks, 50000010);
	CHECK_EQ_U64(r.counts, 5000000);
	CHECK_EQ_U64(r.hz, 1000000200ull);
	CHECK_EQ_U64(r.err_ticks, 50 + 1 + 11);
	CHECK_EQ_U64(r.ppm, 2);

	/* A 24-bit PM timer wrapping inside the window: from 0xFF0000 to
	 * 0x01BAE9 is 178921 periods of 3579545 Hz (49.984 ms); at 2.5 GHz
	 * 124960714 ticks midpoint to midpoint (1000 to 124961714):
	 * 2499999994.4 Hz; one period is 699 ticks (698.4 rounded up);
	 * brackets 2000 + 1000: 1500 + 1 + 699 = 2200 ticks, 17.6 -> 18 ppm. */
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 2000, .c0 = 0xFF0000, .b1 = 124961214, .b2 = 124962214,
				     .c1 = 0x01BAE9 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), 0);
	CHECK_EQ_U64(r.counts, 178921);
	CHECK_EQ_U64(r.ticks, 124960714);
	CHECK_EQ_U64(r.err_ticks, 1500 + 1 + 699);
	CHECK_EQ_U64(r.ppm, 18);
	CHECK_EQ_U64(r.hz, 2499999994ull);
	/* Read as a 32-bit counter the same values make no sense: a wrap is
	 * not undone, and the figure is far off (what a wrong width costs). */
	CHECK_EQ_U64(tscfreq_window_rate(&w, 32, 3579545, 1, &r), 0);
	CHECK(r.counts != 178921);

	/* Errors: a counter that did not advance, brackets out of order, no
	 * ticks, a period product past 64 bits. */
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 10, .c0 = 5, .b1 = 1000, .b2 = 1010, .c1 = 5 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), -1);
	w.c1 = 6;
	w.b1 = 5;
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), -1);
	w = (struct tscfreq_window){ .a1 = 7, .a2 = 7, .c0 = 0, .b1 = 7, .b2 = 7, .c1 = 1 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1, 1, &r), -1);
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 1, .c0 = 0, .b1 = 100, .b2 = 101, .c1 = UINT64_MAX };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1000000000000000ull, 100000000, &r), -1);
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1, 0, &r), -1);
}

static void test_ticks(void)
{
	uint64_t v;
	/* 1 GHz: the identity, up to 2^64 - 1. */
	CHECK_EQ_U64(ticks_to_ns(0, 1000000000, &v), 0);
	CHECK_EQ_U64(v, 0);
	CHECK_EQ_U64(ticks_to_ns(12345, 1000000000, &v), 0);
	CHECK_EQ_U64(v, 12345);
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 1000000000, &v), 0);
	CHECK_EQ_U64(v, UINT64_MAX);
	/* 3 GHz: 3 ticks per ns; 1 tick = 0.333 ns -> 0, 2 ticks = 0.667 -> 1. */
	CHECK_EQ_U64(ticks_to_ns(3000000000ull, 3000000000ull, &v), 0);
	CHECK_EQ_U64(v, 1000000000);
	CHECK_EQ_U64(ticks_to_ns(1, 3000000000ull, &v), 0);
	CHECK_EQ_U64(v, 0);
	CHECK_EQ_U64(ticks_to_ns(2, 3000000000ull, &v), 0);
	CHECK_EQ_U64(v, 1);
	/* Huge at 3 GHz: (2^64-1) / 3 = 6148914691236517205 exactly. */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 3000000000ull, &v), 0);
	CHECK_EQ_U64(v, 6148914691236517205ull);
	/* 2^64-1 ticks at 2893432109 Hz: 2^64-1 x 10^9 / 2893432109 =
	 * 6375385140826731461 remainder 222118751 (< half): floored
	 * (checked with Python's integers). */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 2893432109ull, &v), 0);
	CHECK_EQ_U64(v, 6375385140826731461ull);
	/* Below 1 GHz the largest values overflow: reported, not wrapped. */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 999999999, &v), -1);
	CHECK_EQ_U64(ticks_to_ns(1, 0, &v), -1);
	/* 1 Hz: seconds. */
	CHECK_EQ_U64(ticks_to_ns(18446744073ull, 1, &v), 0);
	CHECK_EQ_U64(v, 18446744073000000000ull);

	/* Picoseconds: 21 ticks at 2.9 GHz = 7241.379 ps -> 7241. */
	CHECK_EQ_U64(ticks_to_ps(21, 2900000000ull, &v), 0);
	CHECK_EQ_U64(v, 7241);
	CHECK_EQ_U64(ticks_to_ps(1, 1000000000, &v), 0);
	CHECK_EQ_U64(v, 1000);
	CHECK_EQ_U64(ticks_to_ps(UINT64_MAX, 1000000000, &v), -1);
	CHECK_EQ_U64(ticks_to_ps(18446744073ull, 1000000000, &v), 0);
	CHECK_EQ_U64(v, 18446744073000ull);
	CHECK_EQ_U64(ticks_to_ps(5, 0, &v), -1);
}

static void test_format(void)
{
	char b[TSCFREQ_MHZ_BUF];
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 2893432109ull), "2893.432 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 2893432500ull), "2893.433 MHz"); /* half up */
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 1000000000ull), "1000.000 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 1193182), "1.193 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 0), "0.000 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 499), "0.000 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 500), "0.001 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, UINT64_MAX), "18446744073709.552 MHz");
	/* A short buffer is cut, NUL-terminated. */
	char s[6];
	CHECK_STR(tscfreq_format_mhz(s, sizeof s, 2893432109ull), "2893.");
}

int main(void)
{
	test_cpuid();
	test_ratio_ppm();
	test_choose();
	test_choose_n();
	test_window();
	test_ticks();
	test_format();
	return check_summary("tscfreq");
}

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
	CHECK_EQ_U64(rc, 0, "Ice Lake client: enumerated");
	CHECK_EQ_U64(f.hz, 2995200000ull, "Ice Lake client: 38.4 MHz x 156/2");
	CHECK_EQ_U64(f.crystal_hz, 38400000, "Ice Lake client: crystal from 15H:ECX");
	CHECK(f.kind == TSCFREQ_CRYSTAL_ECX, "Ice Lake client: kind crystal from ECX");
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_CRYSTAL, "crystal from ECX: the crystal's uncertainty");
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-ecx", "ECX crystal's record name");

	/* Skylake client desktop (06_5EH): ECX = 0, crystal 24 MHz from the
	 * table; ratio 266/2: 24 MHz x 133 = 3192 MHz. The table wins over
	 * 16H's "3200" (which would give 3200 MHz). */
	f = run(1, 6, 0x5E, 0x16, 2, 266, 0, 3200, &rc);
	CHECK_EQ_U64(rc, 0, "Skylake desktop 06_5EH: enumerated");
	CHECK_EQ_U64(f.hz, 3192000000ull,
	             "Skylake desktop: 24 MHz x 266/2, the table over 16H's 3200");
	CHECK_EQ_U64(f.crystal_hz, 24000000,
	             "Skylake desktop: 24 MHz crystal from the model table");
	CHECK(f.kind == TSCFREQ_CRYSTAL_MODEL, "Skylake desktop: kind crystal from the model");
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_CRYSTAL,
	             "crystal from the model: the crystal's uncertainty");
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-model", "model crystal's record name");

	/* The other 24 MHz models: Skylake mobile 4EH, Kaby/Coffee Lake 8EH,
	 * 9EH; ratio 0xF0/2 = 120: 2880 MHz. */
	static const uint32_t m24[] = { 0x4E, 0x8E, 0x9E };
	for (int i = 0; i < 3; i++) {
		f = run(1, 6, m24[i], 0x16, 2, 0xF0, 0, 0, &rc);
		CHECK_EQ_U64(rc, 0, "24 MHz model %02Xh: enumerated", m24[i]);
		CHECK_EQ_U64(f.hz, 2880000000ull, "24 MHz model %02Xh: 24 MHz x 120", m24[i]);
		CHECK(f.kind == TSCFREQ_CRYSTAL_MODEL,
		      "24 MHz model %02Xh: crystal from the model table", m24[i]);
	}

	/* Goldmont (Apollo Lake, 06_5CH): 19.2 MHz x 57/1 = 1094.4 MHz. */
	f = run(1, 6, 0x5C, 0x15, 1, 57, 0, 0, &rc);
	CHECK_EQ_U64(rc, 0, "Goldmont 06_5CH: enumerated");
	CHECK_EQ_U64(f.hz, 1094400000ull, "Goldmont: 19.2 MHz x 57");
	CHECK_EQ_U64(f.crystal_hz, 19200000, "Goldmont: 19.2 MHz crystal from the table");

	/* Denverton (06_5FH), no leaf 16H: 25 MHz x 88/1 = 2200 MHz. */
	f = run(1, 6, 0x5F, 0x15, 1, 88, 0, 0, &rc);
	CHECK_EQ_U64(rc, 0, "Denverton 06_5FH without leaf 16H: enumerated");
	CHECK_EQ_U64(f.hz, 2200000000ull, "Denverton: 25 MHz x 88");
	CHECK_EQ_U64(f.crystal_hz, 25000000, "Denverton: 25 MHz crystal from the table");

	/* Skylake-SP / Xeon W (06_55H) is not in the table: a Xeon W-2145
	 * (24 MHz crystal, ratio 2/308: 3696 MHz) was given 25 MHz x 154 =
	 * 3850 MHz +-100 ppm, 4 % off. Now the crystal comes from 16H, base
	 * 3700 MHz: 3700e6 x 2 / 308 = 24025974 Hz, TSC 3699999996 Hz, nominal
	 * +-5000 ppm, which covers the true 3696 MHz (1082 ppm off). */
	f = run(1, 6, 0x55, 0x16, 2, 308, 0, 3700, &rc);
	CHECK_EQ_U64(rc, 0, "Xeon W-2145 06_55H: enumerated");
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H,
	      "Xeon W-2145: crystal derived from 16H's base, not the table's 25 MHz");
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL, "crystal from 16H: the nominal uncertainty");
	CHECK_EQ_U64(f.crystal_hz, 24025974, "Xeon W-2145: crystal 3700 MHz x 2/308");
	CHECK_EQ_U64(f.hz, 3699999996ull, "Xeon W-2145: TSC 3699999996 Hz");
	CHECK(tscfreq_ppm_diff(3696000000ull, f.hz) <= f.ppm,
	      "Xeon W-2145: the true 3696 MHz within the uncertainty");
	/* A Skylake-SP server, 25 MHz spread-spectrum (-0.25 %), ratio 2/168:
	 * the true rate is about 2094.75 MHz; 16H's 2100 MHz +-5000 ppm covers
	 * it, where 2100 MHz +-100 ppm did not. */
	f = run(1, 6, 0x55, 0x16, 2, 168, 0, 2100, &rc);
	CHECK_EQ_U64(rc, 0, "Skylake-SP with spread spectrum: enumerated");
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H, "Skylake-SP: crystal from 16H");
	CHECK_EQ_U64(f.hz, 2100000000ull, "Skylake-SP: 16H's 2100 MHz");
	CHECK(tscfreq_ppm_diff(2094750000ull, f.hz) <= f.ppm,
	      "Skylake-SP: the true 2094.75 MHz within +-5000 ppm");
	/* ... and without leaf 16H: not enumerated, the PIT measures it. */
	f = run(1, 6, 0x55, 0x15, 2, 168, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1, "Skylake-SP without leaf 16H: not enumerated, the PIT measures it");
	CHECK(f.kind == TSCFREQ_NONE, "Skylake-SP without leaf 16H: kind none");

	/* ECX = 0 on a model not in the table (Comet Lake 06_A5H), 16H base
	 * 2900 MHz, ratio 242/2: crystal = 2900e6 x 2 / 242 = 23966942 Hz
	 * (floored), TSC = round(23966942 x 121) = 2899999982 Hz: nominal. */
	f = run(1, 6, 0xA5, 0x16, 2, 242, 0, 2900, &rc);
	CHECK_EQ_U64(rc, 0, "Comet Lake 06_A5H, ECX 0: enumerated");
	CHECK_EQ_U64(f.crystal_hz, 23966942, "Comet Lake: crystal 2900 MHz x 2/242 floored");
	CHECK_EQ_U64(f.hz, 2899999982ull, "Comet Lake: TSC round(crystal x 121)");
	CHECK(f.kind == TSCFREQ_CRYSTAL_16H, "Comet Lake: crystal from 16H");
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL, "Comet Lake: the nominal uncertainty");
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid15h-16h", "16H crystal's record name");

	/* Not family 6: the model table does not apply (model 0x5E of family
	 * 0xF is not Skylake); no 16H either: not enumerated. */
	f = run(1, 0xF, 0x5E, 0x15, 2, 266, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1, "family 0Fh: the model table does not apply, not enumerated");
	CHECK_EQ_U64(f.hz, 0, "family 0Fh: no rate");
	CHECK(f.kind == TSCFREQ_NONE, "family 0Fh: kind none");
	CHECK_STR(tscfreq_kind_name(f.kind), "none", "no figure's record name");

	/* Only 16H (15H ratio 0): the nominal base frequency, 3400 MHz. The
	 * reserved bits 31:16 of 16H:EAX are ignored. */
	f = run(1, 6, 0x3C, 0x16, 0, 0, 0, 0xABCD0000u | 3400, &rc);
	CHECK_EQ_U64(rc, 0, "only 16H: enumerated");
	CHECK_EQ_U64(f.hz, 3400000000ull, "only 16H: the nominal 3400 MHz, reserved bits ignored");
	CHECK_EQ_U64(f.crystal_hz, 0, "only 16H: no crystal");
	CHECK(f.kind == TSCFREQ_NOMINAL_16H, "only 16H: kind nominal");
	CHECK_EQ_U64(f.ppm, TSCFREQ_PPM_NOMINAL, "only 16H: the nominal uncertainty");
	CHECK_STR(tscfreq_kind_name(f.kind), "cpuid16h-nominal", "16H nominal's record name");

	/* Ratio given, EAX = 0 (guard against division by zero): 16H used. */
	f = run(1, 6, 0x5E, 0x16, 0, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, 0, "15H:EAX 0: 16H used, no division by zero");
	CHECK_EQ_U64(f.hz, 3200000000ull, "15H:EAX 0: 16H's 3200 MHz");
	CHECK(f.kind == TSCFREQ_NOMINAL_16H, "15H:EAX 0: kind nominal");

	/* All zeros: not enumerated, for every reason. */
	f = run(1, 6, 0x5E, 0x16, 0, 0, 0, 0, &rc);
	CHECK_EQ_U64(rc, -1, "all zeros: not enumerated");
	CHECK_EQ_U64(f.hz, 0, "all zeros: no rate");
	CHECK(f.source && strstr(f.source, "not enumerated") == f.source,
	      "all zeros: the source says not enumerated");
	f = run(1, 6, 0x5E, 0x15, 2, 0, 24000000, 0, &rc); /* EBX = 0 */
	CHECK_EQ_U64(rc, -1, "15H:EBX 0, no 16H: not enumerated");
	f = run(1, 6, 0xA5, 0x16, 2, 242, 0, 0, &rc); /* ECX = 0, unknown model, 16H = 0 */
	CHECK_EQ_U64(rc, -1, "ECX 0 on a model not in the table, 16H 0: not enumerated");
	CHECK(strstr(f.source, "crystal table") != NULL,
	      "ECX 0, unknown model: the source names the crystal table");

	/* Leaves above the maximum are not read, whatever the registers say. */
	f = run(1, 6, 0x5E, 0x14, 2, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, -1, "max basic leaf 14H: leaf 15H not read");
	CHECK(strstr(f.source, "max basic leaf") != NULL,
	      "leaves above the max: the source says so");
	f = run(1, 6, 0xA5, 0x15, 2, 242, 0, 2900, &rc); /* 16H above the max */
	CHECK_EQ_U64(rc, -1, "16H above the max basic leaf: not read");

	/* Not Intel: not read (QEMU TCG -cpu max says AuthenticAMD). */
	f = run(0, 0x19, 0x21, 0x16, 2, 266, 24000000, 3200, &rc);
	CHECK_EQ_U64(rc, -1, "AuthenticAMD: leaves 15H/16H not read");
	CHECK(strstr(f.source, "GenuineIntel") != NULL, "not Intel: the source names GenuineIntel");

	/* Extremes: EBX = 2^32-1, EAX = 1, ECX = 2^32-1 Hz: the product needs
	 * 64 bits, (2^32-1)^2 = 18446744065119617025. */
	f = run(1, 6, 0x8C, 0x15, 1, 0xFFFFFFFFu, 0xFFFFFFFFu, 0, &rc);
	CHECK_EQ_U64(rc, 0, "largest EBX and crystal: enumerated");
	CHECK_EQ_U64(f.hz, 18446744065119617025ull, "(2^32-1)^2 Hz: the product needs 64 bits");
	/* Rounding to the nearest Hz: 1 Hz crystal x 3 / 2 = 1.5 -> 2. */
	f = run(1, 6, 0x8C, 0x15, 2, 3, 1, 0, &rc);
	CHECK_EQ_U64(f.hz, 2, "1 Hz x 3/2 rounds to 2 Hz");
	/* 1 Hz x 1 / 3 rounds to 0 Hz: no figure, and no 16H: not enumerated. */
	f = run(1, 6, 0x8C, 0x15, 3, 1, 1, 0, &rc);
	CHECK_EQ_U64(rc, -1, "1 Hz x 1/3 rounds to 0 Hz, no 16H: not enumerated");
	/* Largest 16H base, 65535 MHz, with EAX = 2^32-1 and EBX = 1: the
	 * derived crystal, 65535e6 x (2^32-1) Hz, passes 64 bits: not used;
	 * the nominal base frequency is. */
	f = run(1, 6, 0xA5, 0x16, 0xFFFFFFFFu, 1, 0, 65535, &rc);
	CHECK_EQ_U64(rc, 0, "largest 16H base with a derived crystal past 64 bits: enumerated");
	CHECK(f.kind == TSCFREQ_NOMINAL_16H, "crystal past 64 bits not used: the nominal base");
	CHECK_EQ_U64(f.hz, 65535000000ull, "largest 16H base: 65535 MHz");
}

static void test_ratio_ppm(void)
{
	uint64_t hz;
	/* The PIT calibration: 50 ms = 59659 PIT counts; a 1 GHz TSC counts
	 * 59659 x 10^9 / 1193182 = 49999916.2 ticks -> back to 1 GHz. */
	CHECK_EQ_U64(tscfreq_ratio_hz(49999916, 1193182, 59659, &hz), 0,
	             "PIT calibration: 50 ms at 1 GHz gives a rate");
	CHECK(hz > 999999990ull && hz < 1000000010ull,
	      "PIT calibration: back to 1 GHz within 10 Hz");
	CHECK_EQ_U64(tscfreq_ratio_hz(3000000000ull, 1193182, 1193182, &hz), 0,
	             "one second of PIT counts: a rate");
	CHECK_EQ_U64(hz, 3000000000ull, "one second of PIT counts: the ticks");
	CHECK_EQ_U64(tscfreq_ratio_hz(1, 1, 0, &hz), -1, "no reference counts: no rate");
	/* 2^64-1 ticks over 1 count of a 2 Hz clock: does not fit. */
	CHECK_EQ_U64(tscfreq_ratio_hz(UINT64_MAX, 2, 1, &hz), -1,
	             "2^64-1 ticks over 1 count at 2 Hz: does not fit");
	CHECK_EQ_U64(tscfreq_ratio_hz(UINT64_MAX, 1193182, 1193182, &hz), 0,
	             "2^64-1 ticks over one second: a rate");
	CHECK_EQ_U64(hz, UINT64_MAX, "2^64-1 ticks over one second: 2^64-1 Hz");

	CHECK_EQ_U64(tscfreq_ppm(1, 1000000), 1, "1 in 10^6: 1 ppm");
	CHECK_EQ_U64(tscfreq_ppm(1, 1000001), 1, "1 in 10^6+1: rounded up to 1 ppm");
	CHECK_EQ_U64(tscfreq_ppm(0, 5), 0, "0 error: 0 ppm");
	CHECK_EQ_U64(tscfreq_ppm(838, 50000000), 17, "one PIT count in 50 ms at 1 GHz: 17 ppm");
	CHECK_EQ_U64(tscfreq_ppm(5, 0), UINT32_MAX, "5 parts of 0: saturated");
	CHECK_EQ_U64(tscfreq_ppm(UINT64_MAX, 1), UINT32_MAX, "2^64-1 parts of 1: saturated");
	CHECK_EQ_U64(tscfreq_ppm_diff(1005000000, 1000000000), 5000, "0.5%% above: 5000 ppm");
	CHECK_EQ_U64(tscfreq_ppm_diff(995000000, 1000000000), 5000, "0.5%% below: 5000 ppm");
	CHECK_EQ_U64(tscfreq_ppm_diff(7, 7), 0, "equal: 0 ppm");
	CHECK_EQ_U64(tscfreq_ppm_diff(0, 0), 0, "both 0: 0 ppm");
	CHECK_EQ_U64(tscfreq_ppm_diff(1, 0), UINT32_MAX, "against 0 Hz: saturated");
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
	char what[96];
	snprintf(what, sizeof what, "CPUID %llu Hz +-%u ppm, PIT %llu Hz +-%u ppm",
		 (unsigned long long)cpuid_hz, cpuid_ppm, (unsigned long long)pit_hz, pit_ppm);
	CHECK_EQ_U64(tscfreq_choose(c, 2, &ch), hz ? 0 : -1,
	             "%s: a choice when any clock has a rate", what);
	CHECK_EQ_U64(ch.hz, hz, "%s: chosen rate", what);
	CHECK_EQ_U64(ch.ppm, ppm, "%s: chosen uncertainty", what);
	CHECK_EQ_U64(ch.best, hz ? from_pit : -1, "%s: chosen clock", what);
	CHECK_EQ_U64(ch.disagree, disagree, "%s: disagreement", what);
	CHECK_EQ_U64(ch.widened, disagree, "%s: widened when they disagree", what);
	CHECK(ch.why != NULL, "%s: a reason given", what);
	return ch;
}

static void test_choose(void)
{
	struct tscfreq_choice ch;

	/* Neither; one alone, with its own uncertainty. */
	ch = choose(0, 0, 0, 0, 0, 0, 0, 0);
	CHECK(strstr(ch.why, "no clock"), "no clock: the reason says so");
	choose(3192000000ull, 100, 0, 0, 3192000000ull, 100, 0, 0);
	choose(0, 0, 1000000123ull, 140, 1000000123ull, 140, 1, 0);

	/* Agreement: 3192 MHz +-100 (CPUID) and 3192.3 MHz +-150 (PIT) are
	 * 94 ppm apart, within 250: CPUID's smaller uncertainty. */
	ch = choose(3192000000ull, 100, 3192300000ull, 150, 3192000000ull, 100, 0, 0);
	CHECK_EQ_U64(ch.diff_ppm, 94, "CPUID and PIT 94 ppm apart");
	CHECK(strstr(ch.why, "agrees"), "within 250 ppm: the reason says they agree");
	/* A tie goes to CPUID; a smaller PIT bound to the PIT. */
	choose(3192000000ull, 150, 3192300000ull, 150, 3192000000ull, 150, 0, 0);
	choose(3200000000ull, 5000, 3192300000ull, 150, 3192300000ull, 150, 1, 0);

	/* Disagreement, the case: a Xeon W with 24 MHz given 25 MHz:
	 * CPUID 3850 MHz +-100, the PIT 3696.1 MHz +-150: 41639 ppm apart (of
	 * the PIT's figure). CPUID was preferred for its smaller uncertainty,
	 * silently; now the PIT's figure, widened to reach CPUID's 3850.385
	 * MHz: 154.285 MHz in ppm of 3696.1 MHz, rounded up, 41743. */
	ch = choose(3850000000ull, 100, 3696100000ull, 150, 3696100000ull, 41743, 1, 1);
	CHECK_EQ_U64(ch.diff_ppm, 41639, "Xeon W given 25 MHz: 41639 ppm from the PIT");
	CHECK(strstr(ch.why, "disagree"), "Xeon W given 25 MHz: the reason says they disagree");
	/* The chosen interval holds CPUID's whole interval. */
	CHECK(tscfreq_ppm_diff(3850000000ull + 385000, ch.hz) <= ch.ppm,
	      "Xeon W: the widened interval holds CPUID's whole interval");
	/* Just beyond: 251 ppm apart with 100 + 150 ppm; just within. */
	ch = choose(1000000000ull, 100, 1000251000ull, 150, 1000251000ull, 351, 1, 1);
	choose(1000000000ull, 100, 1000250000ull, 150, 1000000000ull, 100, 0, 0);
	/* Far apart (a PIT emulated from another clock: twice the rate): the
	 * uncertainty is huge, and said, not hidden: (10^9 + 10^5) / 2x10^9. */
	choose(1000000000ull, 100, 2000000000ull, 150, 2000000000ull, 500050, 1, 1);
	ch = choose(UINT64_MAX, 100, 1, 0, 1, UINT32_MAX, 1, 1); /* saturated */
	CHECK_EQ_U64(ch.diff_ppm, UINT32_MAX, "saturated difference");
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
	char what[128];
	snprintf(what, sizeof what, "CPUID %llu Hz, PIT %llu Hz, HPET %llu Hz, PM timer %llu Hz",
		 (unsigned long long)cpuid, (unsigned long long)pit, (unsigned long long)hpet,
		 (unsigned long long)pm);
	int rc = tscfreq_choose(c, 4, &ch);
	CHECK_EQ_U64(rc, ch.hz ? 0 : -1, "%s: a choice when any clock has a rate", what);
	CHECK(ch.why != NULL, "%s: a reason given", what);
	return ch;
}

static void test_choose_n(void)
{
	struct tscfreq_choice ch;

	/* No clock at all (q35 with pit=off and acpi=off on AMD). */
	ch = choose4(0, 0, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_U64(ch.best, -1, "no clock at all: none chosen");
	CHECK_EQ_U64(ch.hz, 0, "no clock at all: no rate");
	CHECK_EQ_U64(ch.pairs, 0, "no clock at all: no pairs compared");
	/* No PIT (pit=off): the PM timer's +-108 beats the HPET's +-503. */
	ch = choose4(0, 0, 0, 0, 2596141000ull, 503, 2596140000ull, 108);
	CHECK_EQ_U64(ch.best, 3, "no PIT: the PM timer's +-108 beats the HPET's +-503");
	CHECK_EQ_U64(ch.hz, 2596140000ull, "no PIT: the PM timer's rate");
	CHECK_EQ_U64(ch.ppm, 108, "no PIT: the PM timer's uncertainty");
	CHECK_EQ_U64(ch.pairs, 1, "HPET and PM timer: one pair compared");
	CHECK_EQ_U64(ch.disagree, 0, "HPET and PM timer agree");
	CHECK_EQ_U64(ch.diff_ppm, 1, "HPET and PM timer 1 ppm apart");
	/* Only the HPET (pit=off, no FADT PM timer). */
	ch = choose4(0, 0, 0, 0, 2596141000ull, 503, 0, 0);
	CHECK_EQ_U64(ch.best, 2, "only the HPET: chosen");
	CHECK_EQ_U64(ch.ppm, 503, "only the HPET: its uncertainty");
	CHECK(strstr(ch.why, "only"), "only the HPET: the reason says only");
	/* All four agree: a tie between CPUID and the PIT goes to the first
	 * listed (CPUID). */
	ch = choose4(3000000000ull, 124, 3000010000ull, 124, 3000020000ull, 510, 3000005000ull, 130);
	CHECK_EQ_U64(ch.best, 0, "all four agree: a tie goes to CPUID, listed first");
	CHECK_EQ_U64(ch.pairs, 6, "all four: 6 pairs compared");
	CHECK_EQ_U64(ch.disagree, 0, "all four agree");
	CHECK_EQ_U64(ch.diff_ppm, 7,
	             "all four: the HPET's 20 kHz of 3 GHz, 6.67 rounded up to 7 ppm");
	/* The PIT disagrees with the HPET and the PM timer (an emulated PIT
	 * from another clock): the PIT has the smallest uncertainty and is
	 * measured, so it stays, widened to cover both: the HPET's far end
	 * 3003000000 x 1.0005 = 3004501500 is 1500.5 ppm above 3 GHz -> 1501. */
	ch = choose4(0, 0, 3000000000ull, 110, 3003000000ull, 500, 3003001000ull, 120);
	CHECK_EQ_U64(ch.best, 1, "emulated PIT: measured, the smallest uncertainty, it stays");
	CHECK_EQ_U64(ch.disagree, 2, "emulated PIT: disagrees with the HPET and the PM timer");
	CHECK_EQ_U64(ch.widened, 1, "emulated PIT: widened");
	CHECK_EQ_U64(ch.ppm, 1501, "emulated PIT: widened to the HPET's far end, 1501 ppm");
	CHECK_EQ_U64(ch.diff_ppm, 1001, "emulated PIT: the farthest clock 1001 ppm away");
	CHECK(strstr(ch.why, "widened"), "emulated PIT: the reason says widened");
	/* CPUID (nominal, +-100) disagrees with the measured clocks, which
	 * agree among themselves: the PM timer (the smallest measured bound)
	 * is used, and CPUID, contradicted by three measured clocks that agree
	 * with each other, is left out of the bound: the PM timer's own 105
	 * ppm, not widened to CPUID's far end (41743 ppm). */
	ch = choose4(3850000000ull, 100, 3696100000ull, 150, 3696110000ull, 505, 3696100000ull, 105);
	CHECK_EQ_U64(ch.best, 3, "CPUID off: the PM timer, smallest measured bound");
	CHECK_EQ_U64(ch.hz, 3696100000ull, "CPUID off: the PM timer's rate");
	CHECK_EQ_U64(ch.ppm, 105, "CPUID off: the PM timer's own bound, CPUID left out");
	CHECK_EQ_U64(ch.left_out, 1u << 0, "CPUID off: CPUID (clock 0) named as left out");
	CHECK_EQ_U64(ch.disagree, 3, "CPUID off: disagrees with the three measured clocks");
	/* Issue 20 item 15: CPUID 15H says 2.4 GHz (24 MHz crystal x 200/2,
	 * +-100 ppm) and the PIT, HPET and PM timer all measure about 2.496
	 * GHz, within 100 ppm of each other (2496000000, 2496150000,
	 * 2496100000 Hz, +-118, +-501, +-106 ppm). The nominal figure is
	 * contradicted by clocks that agree with each other: it is named and
	 * left out, and the bound stays the PM timer's 106 ppm instead of
	 * (96.1 MHz + 240 kHz) / 2496.1 MHz = 38597 ppm. */
	ch = choose4(2400000000ull, 100, 2496000000ull, 118, 2496150000ull, 501, 2496100000ull, 106);
	CHECK_EQ_U64(ch.best, 3, "2.4 GHz nominal vs 2.496 GHz measured: the PM timer");
	CHECK_EQ_U64(ch.hz, 2496100000ull, "2.4 GHz nominal vs 2.496 GHz measured: the PM timer's rate");
	CHECK_EQ_U64(ch.ppm, 106, "2.4 GHz nominal vs 2.496 GHz measured: CPUID left out of the bound");
	CHECK_EQ_U64(ch.left_out, 1u << 0, "2.4 GHz nominal vs 2.496 GHz measured: CPUID named");
	CHECK_EQ_U64(ch.widened, 0, "2.4 GHz nominal vs 2.496 GHz measured: not widened");
	CHECK_EQ_U64(ch.disagree, 3, "2.4 GHz nominal vs 2.496 GHz measured: 3 pairs disagree");
	CHECK_EQ_U64(ch.diff_ppm, 38501, "2.4 GHz nominal vs 2.496 GHz measured: CPUID 38500.06 ppm away, rounded up");
	CHECK(strstr(ch.why, "left out"), "2.4 GHz nominal vs 2.496 GHz measured: the reason says left out");
	/* One measured clock alone does not outvote a nominal one (the Xeon
	 * W case above: widened); nor do measured clocks that disagree among
	 * themselves: the PIT off by 1000 ppm from the PM timer, CPUID off
	 * from both: CPUID stays in the bound. */
	ch = choose4(2400000000ull, 100, 2498600000ull, 118, 0, 0, 2496100000ull, 106);
	CHECK_EQ_U64(ch.left_out, 0, "measured clocks that disagree: CPUID not left out");
	CHECK_EQ_U64(ch.widened, 1, "measured clocks that disagree: widened");
	ch = choose4(2400000000ull, 100, 0, 0, 0, 0, 2496100000ull, 106);
	CHECK_EQ_U64(ch.left_out, 0, "one measured clock: CPUID not left out");
	CHECK_EQ_U64(ch.ppm, 38597, "one measured clock: widened to CPUID's far end");
	/* Others disagree among themselves but not with the chosen one: the
	 * PIT 300 ppm above, the HPET 300 below, each +-250; the PM timer
	 * +-200 between them. */
	ch = choose4(0, 0, 1000300000ull, 250, 999700000ull, 250, 1000000000ull, 200);
	CHECK_EQ_U64(ch.best, 3, "PIT and HPET apart: the PM timer between them chosen");
	CHECK_EQ_U64(ch.widened, 0,
	             "PIT and HPET apart: the PM timer agrees with both, not widened");
	CHECK_EQ_U64(ch.ppm, 200, "PIT and HPET apart: the PM timer's uncertainty");
	CHECK_EQ_U64(ch.disagree, 1, "PIT and HPET apart: one pair disagrees");
	CHECK(strstr(ch.why, "among themselves"),
	      "PIT and HPET apart: the reason says among themselves");
	/* Every clock nominal (no measurement): the smallest, widened. */
	struct tscfreq_clock nominal[2] = { { "a", 1000000000ull, 100, 0 }, { "b", 1010000000ull, 5000, 0 } };
	CHECK_EQ_U64(tscfreq_choose(nominal, 2, &ch), 0, "only nominal clocks: a choice");
	CHECK_EQ_U64(ch.best, 0, "only nominal clocks: the smallest uncertainty");
	CHECK_EQ_U64(ch.widened, 1, "only nominal clocks: widened");
	CHECK_EQ_U64(ch.ppm, 15050, "only nominal clocks: widened to (10^7 + 5.05 x 10^6) / 10^9");
	/* n = 0: none. */
	CHECK_EQ_U64(tscfreq_choose(nominal, 0, &ch), -1, "no clocks: none");

	/* tscfreq_disagree: the intervals' overlap, symmetric and exact. */
	CHECK_EQ_U64(tscfreq_disagree(1000000000ull, 100, 1000250000ull, 150), 0,
	             "250000 Hz apart within 100000 + 150037.5: agree");
	CHECK_EQ_U64(tscfreq_disagree(1000250000ull, 150, 1000000000ull, 100), 0,
	             "the overlap is symmetric");
	CHECK_EQ_U64(tscfreq_disagree(1000000000ull, 100, 1000251000ull, 150), 1,
	             "251000 Hz apart: disagree");
	CHECK_EQ_U64(tscfreq_disagree(5, 0, 5, 0), 0, "equal rates without uncertainty agree");
	CHECK_EQ_U64(tscfreq_disagree(5, 0, 6, 0), 1, "1 Hz apart without uncertainty: disagree");
	CHECK_EQ_U64(tscfreq_disagree(UINT64_MAX, UINT32_MAX, 0, 0), 0,
	             "2^64-1 Hz with the largest uncertainty reaches 0 Hz: agree");
}

/* A window's rate and bound, for the counters the kernel reads. */
static void test_window(void)
{
	struct tscfreq_window_rate r;

	CHECK_EQ_U64(tscfreq_counter_delta(10, 25, 24), 15, "counter delta without wrap");
	CHECK_EQ_U64(tscfreq_counter_delta(0xFFFFF0, 0x10, 24), 0x20, "24-bit PM timer wrap");
	CHECK_EQ_U64(tscfreq_counter_delta(0x12FFFFF0, 0x13000010, 24), 0x20,
	             "24-bit counter: bits above 24 ignored");
	CHECK_EQ_U64(tscfreq_counter_delta(0xFFFFFFF0u, 0x10, 32), 0x20,
	             "32-bit PM timer or HPET wrap");
	CHECK_EQ_U64(tscfreq_counter_delta(UINT64_MAX - 1, 3, 64), 5, "64-bit counter wrap");
	CHECK_EQ_U64(tscfreq_counter_delta(3, 3, 64), 0, "counter unchanged: 0");

	/* The HPET of QEMU (10 ns periods, 64-bit) under -icount, 1 GHz:
	 * 5000000 periods (50 ms) over 50000000 ticks midpoint to midpoint;
	 * brackets of 40 and 60 ticks: 50 + 1 + 10 ticks = 61 in 5x10^7 ->
	 * 1.22 -> 2 ppm. */
	struct tscfreq_window w = { .a1 = 1000, .a2 = 1040, .c0 = 77, .b1 = 50001000, .b2 = 50001060,
				    .c1 = 5000077 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1000000000000000ull, 10000000, &r), 0,
	             "QEMU HPET under -icount: a rate");
	CHECK_EQ_U64(r.ticks, 50000010, "HPET: ticks midpoint to midpoint");
	CHECK_EQ_U64(r.counts, 5000000, "HPET: 5000000 periods of 10 ns");
	CHECK_EQ_U64(r.hz, 1000000200ull, "HPET: 1 GHz");
	CHECK_EQ_U64(r.err_ticks, 50 + 1 + 11, "HPET: half brackets + 1 + one period, in ticks");
	CHECK_EQ_U64(r.ppm, 2, "HPET: 61 ticks in 5x10^7, 2 ppm");

	/* A 24-bit PM timer wrapping inside the window: from 0xFF0000 to
	 * 0x01BAE9 is 178921 periods of 3579545 Hz (49.984 ms); at 2.5 GHz
	 * 124960714 ticks midpoint to midpoint (1000 to 124961714):
	 * 2499999994.4 Hz; one period is 699 ticks (698.4 rounded up);
	 * brackets 2000 + 1000: 1500 + 1 + 699 = 2200 ticks, 17.6 -> 18 ppm. */
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 2000, .c0 = 0xFF0000, .b1 = 124961214, .b2 = 124962214,
				     .c1 = 0x01BAE9 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), 0,
	             "24-bit PM timer wrapping inside the window: a rate");
	CHECK_EQ_U64(r.counts, 178921, "PM timer: the wrap undone, 178921 periods");
	CHECK_EQ_U64(r.ticks, 124960714, "PM timer: ticks midpoint to midpoint");
	CHECK_EQ_U64(r.err_ticks, 1500 + 1 + 699,
	             "PM timer: half brackets + 1 + one period, in ticks");
	CHECK_EQ_U64(r.ppm, 18, "PM timer: 2200 ticks, 17.6 rounded up to 18 ppm");
	CHECK_EQ_U64(r.hz, 2499999994ull, "PM timer: 2.5 GHz");
	/* Read as a 32-bit counter the same values make no sense: a wrap is
	 * not undone, and the figure is far off (what a wrong width costs). */
	CHECK_EQ_U64(tscfreq_window_rate(&w, 32, 3579545, 1, &r), 0,
	             "24-bit values read as 32-bit: a figure");
	CHECK(r.counts != 178921, "24-bit values read as 32-bit: the wrap not undone");

	/* Errors: a counter that did not advance, brackets out of order, no
	 * ticks, a period product past 64 bits. */
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 10, .c0 = 5, .b1 = 1000, .b2 = 1010, .c1 = 5 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), -1,
	             "counter did not advance: no rate");
	w.c1 = 6;
	w.b1 = 5;
	CHECK_EQ_U64(tscfreq_window_rate(&w, 24, 3579545, 1, &r), -1,
	             "brackets out of order: no rate");
	w = (struct tscfreq_window){ .a1 = 7, .a2 = 7, .c0 = 0, .b1 = 7, .b2 = 7, .c1 = 1 };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1, 1, &r), -1, "no tick passed: no rate");
	w = (struct tscfreq_window){ .a1 = 0, .a2 = 1, .c0 = 0, .b1 = 100, .b2 = 101, .c1 = UINT64_MAX };
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1000000000000000ull, 100000000, &r), -1,
	             "counts x reference denominator past 64 bits: no rate");
	CHECK_EQ_U64(tscfreq_window_rate(&w, 64, 1, 0, &r), -1, "reference denominator 0: no rate");
}

static void test_ticks(void)
{
	uint64_t v;
	/* 1 GHz: the identity, up to 2^64 - 1. */
	CHECK_EQ_U64(ticks_to_ns(0, 1000000000, &v), 0, "0 ticks at 1 GHz: converted");
	CHECK_EQ_U64(v, 0, "0 ticks at 1 GHz: 0 ns");
	CHECK_EQ_U64(ticks_to_ns(12345, 1000000000, &v), 0, "12345 ticks at 1 GHz: converted");
	CHECK_EQ_U64(v, 12345, "1 GHz: a tick a ns");
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 1000000000, &v), 0,
	             "2^64-1 ticks at 1 GHz: converted");
	CHECK_EQ_U64(v, UINT64_MAX, "2^64-1 ticks at 1 GHz: 2^64-1 ns");
	/* 3 GHz: 3 ticks per ns; 1 tick = 0.333 ns -> 0, 2 ticks = 0.667 -> 1. */
	CHECK_EQ_U64(ticks_to_ns(3000000000ull, 3000000000ull, &v), 0,
	             "3e9 ticks at 3 GHz: converted");
	CHECK_EQ_U64(v, 1000000000, "3e9 ticks at 3 GHz: one second");
	CHECK_EQ_U64(ticks_to_ns(1, 3000000000ull, &v), 0, "1 tick at 3 GHz: converted");
	CHECK_EQ_U64(v, 0, "1 tick at 3 GHz: 0.333 ns rounds to 0");
	CHECK_EQ_U64(ticks_to_ns(2, 3000000000ull, &v), 0, "2 ticks at 3 GHz: converted");
	CHECK_EQ_U64(v, 1, "2 ticks at 3 GHz: 0.667 ns rounds to 1");
	/* Huge at 3 GHz: (2^64-1) / 3 = 6148914691236517205 exactly. */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 3000000000ull, &v), 0,
	             "2^64-1 ticks at 3 GHz: converted");
	CHECK_EQ_U64(v, 6148914691236517205ull, "2^64-1 ticks at 3 GHz: (2^64-1)/3 exactly");
	/* 2^64-1 ticks at 2893432109 Hz: 2^64-1 x 10^9 / 2893432109 =
	 * 6375385140826731461 remainder 222118751 (< half): floored
	 * (checked with Python's integers). */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 2893432109ull, &v), 0,
	             "2^64-1 ticks at 2893432109 Hz: converted");
	CHECK_EQ_U64(v, 6375385140826731461ull,
	             "2^64-1 ticks at 2893432109 Hz: remainder below half floored");
	/* Below 1 GHz the largest values overflow: reported, not wrapped. */
	CHECK_EQ_U64(ticks_to_ns(UINT64_MAX, 999999999, &v), -1,
	             "2^64-1 ticks below 1 GHz: overflow reported");
	CHECK_EQ_U64(ticks_to_ns(1, 0, &v), -1, "0 Hz: no conversion");
	/* 1 Hz: seconds. */
	CHECK_EQ_U64(ticks_to_ns(18446744073ull, 1, &v), 0, "1 Hz: converted");
	CHECK_EQ_U64(v, 18446744073000000000ull, "1 Hz: a tick a second");

	/* Picoseconds: 21 ticks at 2.9 GHz = 7241.379 ps -> 7241. */
	CHECK_EQ_U64(ticks_to_ps(21, 2900000000ull, &v), 0, "21 ticks at 2.9 GHz: converted");
	CHECK_EQ_U64(v, 7241, "21 ticks at 2.9 GHz: 7241.379 ps rounds to 7241");
	CHECK_EQ_U64(ticks_to_ps(1, 1000000000, &v), 0, "1 tick at 1 GHz: converted");
	CHECK_EQ_U64(v, 1000, "1 tick at 1 GHz: 1000 ps");
	CHECK_EQ_U64(ticks_to_ps(UINT64_MAX, 1000000000, &v), -1,
	             "2^64-1 ticks at 1 GHz in ps: overflow reported");
	CHECK_EQ_U64(ticks_to_ps(18446744073ull, 1000000000, &v), 0,
	             "18446744073 ticks at 1 GHz in ps: converted");
	CHECK_EQ_U64(v, 18446744073000ull, "18446744073 ticks at 1 GHz: 1000 ps each");
	CHECK_EQ_U64(ticks_to_ps(5, 0, &v), -1, "0 Hz: no conversion to ps");
}

static void test_format(void)
{
	char b[TSCFREQ_MHZ_BUF];
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 2893432109ull), "2893.432 MHz",
	          "2893432109 Hz in MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 2893432500ull), "2893.433 MHz",
	          "2893432500 Hz: half rounds up");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 1000000000ull), "1000.000 MHz", "1 GHz in MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 1193182), "1.193 MHz",
	          "the PIT's 1193182 Hz in MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 0), "0.000 MHz", "0 Hz in MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 499), "0.000 MHz",
	          "499 Hz rounds down to 0.000 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, 500), "0.001 MHz",
	          "500 Hz rounds up to 0.001 MHz");
	CHECK_STR(tscfreq_format_mhz(b, sizeof b, UINT64_MAX), "18446744073709.552 MHz",
	          "2^64-1 Hz in MHz");
	/* A short buffer is cut, NUL-terminated. */
	char s[6];
	CHECK_STR(tscfreq_format_mhz(s, sizeof s, 2893432109ull), "2893.",
	          "short buffer: cut, NUL-terminated");
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

/* tests/unit/test_figures.c - lib/figures.c: the resolution test's
 * analysis on made-up minimums whose answer is known, the core clock over
 * the TSC's from net medians, and SMI counts across a faulting read. */
#include <stdint.h>
#include "check.h"
#include "../../lib/figures.h"

/* A figure of lib/stats.h from a 128-bit value. */
#define W(x) wide_from_u128(x)

/* The resolution test's figures of mins[0..n-1]; what names the case. */
static struct resolution_figures analyze(const uint64_t *mins, uint64_t n, const char *what)
{
	uint64_t scratch[4096];
	struct resolution_figures r;
	for (uint64_t i = 0; i < n; i++)
		scratch[i] = 0xDEADBEEF; /* garbage the analysis must not read */
	resolution_analyze(mins, n, scratch, &r);
	CHECK_EQ_U64(r.loop_sizes, n, "%s: every loop size analysed", what);
	return r;
}

/* Check the figures that say what was found; what names the case. */
static void expect(const struct resolution_figures *r, const char *what, uint64_t changes, int found,
		   uint64_t gap, uint64_t flat_until, uint64_t longest_flat, uint64_t step)
{
	CHECK_EQ_U64(r->changes, changes, "%s: loop sizes whose minimum changes", what);
	CHECK_EQ_U64(r->found, found, "%s: whether a resolution was found", what);
	CHECK_EQ_U64(r->common_gap, gap, "%s: resolution (most common gap)", what);
	CHECK_EQ_U64(r->flat_until, flat_until, "%s: last loop size with size 0's minimum", what);
	CHECK_EQ_U64(r->longest_flat, longest_flat, "%s: longest flat stretch", what);
	CHECK_EQ_U64(r->common_step, step, "%s: most common rise of the minimum", what);
}

/* mins[j] = base + step * floor((j + phase) / every): a minimum that rises
 * by `step` every `every` loop iterations. */
static void staircase(uint64_t *mins, uint64_t n, uint64_t base, uint64_t step, uint64_t every,
		      uint64_t phase)
{
	for (uint64_t j = 0; j < n; j++)
		mins[j] = base + step * ((j + phase) / every);
}

static void test_resolution(void)
{
	uint64_t m[4096];
	struct resolution_figures r;

	/* One change, wherever it is, is no resolution: the case
	 * reported 1 loop iteration for all of these. The flat stretches
	 * bound it from below. */
	static const uint64_t at[] = { 1, 2, 10, 39 };
	for (unsigned i = 0; i < sizeof at / sizeof at[0]; i++) {
		char what[40];
		snprintf(what, sizeof what, "one change at loop size %d", (int)at[i]);
		for (uint64_t j = 0; j < 40; j++)
			m[j] = j < at[i] ? 100 : 104;
		r = analyze(m, 40, what);
		/* sizes 0..at-1 span at-1 iterations, at..39 span 39-at */
		uint64_t a = at[i] - 1, b = 39 - at[i];
		expect(&r, what, 1, 0, 0, at[i] - 1, a > b ? a : b, 4);
		CHECK_EQ_U64(r.smallest_gap, 0, "%s: no gap measured", what);
		CHECK_EQ_U64(r.strictly_increasing, 0,
		             "%s: minimums not strictly increasing", what);
	}
	/* Two loop sizes, one change: nothing bounded either. */
	m[0] = 5;
	m[1] = 6;
	r = analyze(m, 2, "two loop sizes");
	expect(&r, "two loop sizes", 1, 0, 0, 0, 0, 1);
	CHECK_EQ_U64(r.strictly_increasing, 1, "two loop sizes, one rise: strictly increasing");

	/* Never a change: coarser than n-1 iterations. One loop size alone. */
	for (uint64_t j = 0; j < 50; j++)
		m[j] = 77;
	r = analyze(m, 50, "never a change");
	expect(&r, "never a change", 0, 0, 0, 49, 49, 0);
	r = analyze(m, 1, "one loop size");
	expect(&r, "one loop size", 0, 0, 0, 0, 0, 0);
	CHECK_EQ_U64(r.strictly_increasing, 0, "one loop size: not strictly increasing");

	/* Every loop size (the -icount case): resolution 1, step 3 after the
	 * set-up's bigger first step. */
	for (uint64_t j = 0; j < 40; j++)
		m[j] = j == 0 ? 3 : 9 + 3 * j;
	r = analyze(m, 40, "a change every loop size");
	expect(&r, "a change every loop size", 39, 1, 1, 0, 0, 3);
	CHECK_EQ_U64(r.smallest_gap, 1, "a change every loop size: smallest gap 1");
	CHECK_EQ_U64(r.strictly_increasing, 1, "a change every loop size: strictly increasing");

	/* Gaps of 64 and more are reported as they are (they printed as 64):
	 * every 64, 65, 100 and 1000 iterations. */
	static const uint64_t every[] = { 7, 64, 65, 100, 1000 };
	for (unsigned i = 0; i < sizeof every / sizeof every[0]; i++) {
		uint64_t n = every[i] * 4 + 3;
		char what[40];
		snprintf(what, sizeof what, "a change every %d iterations", (int)every[i]);
		staircase(m, n, 50, 2, every[i], 0);
		r = analyze(m, n, what);
		expect(&r, what, 4, 1, every[i], every[i] - 1, every[i] - 1, 2);
		CHECK_EQ_U64(r.smallest_gap, every[i], "%s: smallest gap", what);
	}

	/* Gaps of 2 and 3 alternating (a step of 2/5 of the quantum): 3 is
	 * the more common here; with equal counts the smaller is given. */
	uint64_t n = 0;
	static const uint64_t pattern[] = { 3, 2, 3, 2, 3, 3 }; /* 4 x 3, 2 x 2 */
	uint64_t v = 10;
	m[n++] = v;
	for (unsigned i = 0; i < sizeof pattern / sizeof pattern[0]; i++) {
		for (uint64_t k = 1; k < pattern[i]; k++)
			m[n++] = v;
		m[n++] = ++v;
	}
	r = analyze(m, n, "gaps of 2 and 3");
	CHECK_EQ_U64(r.changes, 6, "gaps of 2 and 3: six changes");
	CHECK_EQ_U64(r.common_gap, 3, "gaps 2, 3, 2, 3, 3: 3 the most common");
	CHECK_EQ_U64(r.smallest_gap, 2, "gaps of 2 and 3: smallest gap 2");
	m[0] = 1;
	m[1] = 2;
	m[2] = 2;
	m[3] = 3;
	m[4] = 4;
	m[5] = 4;
	m[6] = 5;
	r = analyze(m, 7, "gaps 2, 1, 2"); /* changes at 1, 3, 4, 6 */
	CHECK_EQ_U64(r.common_gap, 2, "gaps 2, 1, 2: 2 the most common");
	m[5] = 5;
	m[6] = 6;
	r = analyze(m, 7, "gaps 2, 1, 1, 1"); /* changes at 1, 3, 4, 5, 6 */
	CHECK_EQ_U64(r.common_gap, 1, "gaps 2, 1, 1, 1: 1 the most common");
	staircase(m, 12, 0, 1, 3, 1); /* 0 0 1 1 1 2 2 2 3 3 3 4 */
	m[11] = 3; /* ... the last does not change: changes at 2, 5, 8, gaps 3, 3 */
	r = analyze(m, 12, "gaps 3, 3, the last unchanged");
	CHECK_EQ_U64(r.common_gap, 3, "gaps 3, 3, the last unchanged: resolution 3");
	CHECK_EQ_U64(r.changes, 3, "gaps 3, 3, the last unchanged: three changes");

	/* A spurious low minimum: two changes (down, back up), gap 1; the
	 * drop is no rise; the stretch before it spans 19 iterations. */
	for (uint64_t j = 0; j < 40; j++)
		m[j] = 50;
	m[20] = 40;
	r = analyze(m, 40, "a spurious low minimum");
	expect(&r, "a spurious low minimum", 2, 1, 1, 19, 19, 10);
	CHECK_EQ_U64(r.strictly_increasing, 0, "a spurious low minimum: not strictly increasing");

	/* Large values: steps near 2^64 are not cut. */
	m[0] = 0;
	m[1] = UINT64_MAX - 1;
	m[2] = UINT64_MAX;
	r = analyze(m, 3, "rises near 2^64");
	CHECK_EQ_U64(r.common_step, 1, "rises 2^64-2 and 1, equally common: the smaller");
	CHECK_EQ_U64(r.common_gap, 1, "rises near 2^64: gap 1");
}

static void test_clock_ratio(void)
{
	uint64_t milli;
	/* A body of 500 net TSC ticks in 600 net core cycles: 1.200. The
	 * counters' window is much longer than the TSC's (1000 vs 40 core
	 * cycles / TSC ticks in the empty window), which the old figure,
	 * 1600/540 = 2.963, mixed in. */
	CHECK(clock_ratio_milli(1600, 1000, 540, 40, &milli) == 0,
	      "500 net TSC ticks in 600 net core cycles: body only, the empty windows subtracted");
	CHECK_EQ_U64(milli, 1200, "600 / 500 core cycles per TSC tick: 1.200");
	/* Rounded to nearest: 1000/300 = 3.3333 -> 3333; 2000/300 -> 6667. */
	CHECK(clock_ratio_milli(1000, 0, 300, 0, &milli) == 0, "1000 / 300: given");
	CHECK_EQ_U64(milli, 3333, "1000 / 300 rounds down to 3.333");
	CHECK(clock_ratio_milli(2000, 0, 300, 0, &milli) == 0, "2000 / 300: given");
	CHECK_EQ_U64(milli, 6667, "2000 / 300 rounds up to 6.667");
	/* A slow core: 50 cycles per 100 ticks. */
	CHECK(clock_ratio_milli(150, 100, 200, 100, &milli) == 0, "slow core: given");
	CHECK_EQ_U64(milli, 500, "slow core: 50 cycles per 100 ticks, 0.500");
	/* Too short a body (99 net ticks), or below the empty window: why. */
	const char *why = clock_ratio_milli(1000, 0, 139, 40, &milli);
	CHECK(why && strstr(why, "100 TSC ticks"),
	      "99 net TSC ticks: too short a body, the reason says 100 TSC ticks");
	CHECK_EQ_U64(milli, 0, "too short a body: ratio 0");
	CHECK(clock_ratio_milli(1000, 0, 30, 40, &milli) != 0,
	      "TSC median below the empty window's: not given");
	CHECK(clock_ratio_milli(1000, 0, 140, 40, &milli) == 0, "exactly 100 net TSC ticks: given");
	CHECK_EQ_U64(milli, 10000, "1000 cycles in 100 ticks: 10.000");
	why = clock_ratio_milli(1000, 1000, 540, 40, &milli);
	CHECK(why && strstr(why, "core cycles"), "no net core cycles: the reason says so");
	CHECK(clock_ratio_milli(900, 1000, 540, 40, &milli) != 0,
	      "core cycles below the empty window's: not given");
	/* Extremes: no overflow inside. */
	CHECK(clock_ratio_milli(UINT64_MAX, 0, UINT64_MAX, 0, &milli) == 0,
	      "largest equal medians: no overflow inside");
	CHECK_EQ_U64(milli, 1000, "largest equal medians: 1.000");
	CHECK(clock_ratio_milli(UINT64_MAX / 10, 0, 100, 0, &milli) == 0,
	      "ratio x 1000 just below 2^64: given");
	CHECK_EQ_U64(milli, UINT64_MAX / 10 * 10, "ratio x 1000 just below 2^64: exact");
	CHECK(clock_ratio_milli(UINT64_MAX, 0, 100, 0, &milli) != 0,
	      "10 x (2^64-1) passes 64 bits: not given");
}

static void test_smi_delta(void)
{
	uint64_t d;
	CHECK_EQ_U64(smi_delta(1, 7, 1, 7, &d), 0, "no SMI between two reads: read");
	CHECK_EQ_U64(d, 0, "no SMI between two reads: 0");
	CHECK_EQ_U64(smi_delta(1, 7, 1, 10, &d), 0, "3 SMIs between two reads: read");
	CHECK_EQ_U64(d, 3, "3 SMIs between two reads: 3");
	/* The count is 32 bits wide: across its wrap, 2 SMIs. */
	CHECK_EQ_U64(smi_delta(1, 0xFFFFFFFFull, 1, 1, &d), 0, "count wraps at 32 bits: read");
	CHECK_EQ_U64(d, 2, "across the 32-bit wrap: 2 SMIs");
	/* The second read faulted (its value reads as 0): unreadable, not
	 * 0 - 12345 = 18446744073709539271 SMIs. */
	CHECK_EQ_U64(smi_delta(1, 12345, 0, 0, &d), -1, "second read faulted: unreadable");
	CHECK_EQ_U64(d, 0, "second read faulted: 0 SMIs, not 0 - 12345");
	CHECK_EQ_U64(smi_delta(0, 0, 1, 12345, &d), -1, "first read faulted: unreadable");
	CHECK_EQ_U64(d, 0, "first read faulted: 0 SMIs");
	CHECK_EQ_U64(smi_delta(0, 0, 0, 0, &d), -1, "both reads faulted: unreadable");
}

/* The verdict (paper 4 steps 1-2): at the thresholds is ergodic, one
 * above either is not; a figure beyond 64 bits (exact, lib/wide.h) is
 * above any threshold; NOT ergodic as soon as one figure fails, even when
 * the other is missing; unknown only when a figure is missing and the
 * other does not fail. */
static void test_verdict(void)
{
	struct summary_result s = { .var_of_vars = W(10), .var_of_mins = W(1), .var_of_vars_ok = 1,
				    .var_of_mins_ok = 1 };
	int valid = -1;
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 1,
	             "variances at the thresholds 10 and 1: ergodic");
	CHECK_EQ_U64(valid, 1, "variances at the thresholds: valid");
	s.var_of_vars = W(11);
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 0,
	             "variance of variances 11 above 10: not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of variances above the threshold: still valid");
	s.var_of_vars = W(10);
	s.var_of_mins = W(2);
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 0,
	             "variance of minimums 2 above 1: not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of minimums above the threshold: still valid");
	/* Beyond 64 bits: 2^64 and 2^200 are above every 64-bit threshold,
	 * never wrapped into a small value. */
	s.var_of_mins = W(0);
	s.var_of_vars = W((u128)1 << 64);
	CHECK_EQ_U64(verdict_ergodic(&s, UINT64_MAX - 1, 1, &valid), 0,
	             "variance of variances 2^64 above 2^64-2: not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of variances 2^64: a known verdict");
	s.var_of_vars.w[3] = 1; /* 2^192 + 2^64 */
	CHECK_EQ_U64(verdict_ergodic(&s, UINT64_MAX - 1, 1, &valid), 0,
	             "variance of variances above 2^192: not ergodic");
	s.var_of_vars = W(0);
	s.var_of_mins = W(306);
	CHECK_EQ_U64(verdict_ergodic(&s, 1000, 1, &valid), 0,
	             "variance of minimums 306 above 1 (the issue's run): not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of minimums 306 above 1: a known verdict");
	/* One figure missing: NOT ergodic when the other fails, else unknown. */
	s.var_of_vars_ok = 0;
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 0,
	             "variance of variances missing, of minimums 306 > 1: not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of variances missing, of minimums fails: NOT ergodic, known");
	s.var_of_mins = W(0);
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 0,
	             "variance of variances missing, of minimums passes: not ergodic");
	CHECK_EQ_U64(valid, 0, "variance of variances missing, of minimums passes: unknown");
	s.var_of_vars_ok = 1;
	s.var_of_vars = W(11);
	s.var_of_mins_ok = 0;
	CHECK_EQ_U64(verdict_ergodic(&s, 10, 1, &valid), 0,
	             "variance of minimums missing, of variances 11 > 10: not ergodic");
	CHECK_EQ_U64(valid, 1, "variance of minimums missing, of variances fails: known");
	s.var_of_vars = W(0);
	CHECK_EQ_U64(verdict_ergodic(&s, UINT64_MAX, UINT64_MAX, &valid), 0,
	             "variance of minimums missing: not ergodic at any threshold");
	CHECK_EQ_U64(valid, 0, "variance of minimums missing, of variances passes: unknown");
	s.var_of_mins_ok = 1;
	s.var_of_vars = s.var_of_mins = W(UINT64_MAX - 1);
	CHECK_EQ_U64(verdict_ergodic(&s, UINT64_MAX - 1, UINT64_MAX - 1, &valid), 1,
	             "largest values at equal thresholds: ergodic");
}

int main(void)
{
	test_verdict();
	test_resolution();
	test_clock_ratio();
	test_smi_delta();
	return check_summary("test_figures");
}

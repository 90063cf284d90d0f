/* tests/unit/test_percopy.c - lib/percopy.c: code='s 2N-N figure is exact
 * only where every spread is 0 and the clock's step 1 (issue 29: "exactly
 * 0" beside a TSC moving in steps of 21), "below resolution" with its bound where
 * the difference is inside the spreads (issue 21: cpuid's "0.000 per copy,
 * exactly 0" under TCG), and no figure where a least minimum wrapped
 * (issue 21: "18446742115933587.616 TSC ticks per copy"). */
#include <stdint.h>
#include "check.h"
#include "../../lib/percopy.h"

static struct percopy stepped(uint64_t n, uint64_t n2, uint64_t copies, uint64_t s1, uint64_t s2, uint64_t step)
{
	struct percopy p;
	percopy_compute(n, n2, copies, s1, s2, step, &p);
	return p;
}

/* A clock counting single ticks. */
static struct percopy of(uint64_t n, uint64_t n2, uint64_t copies, uint64_t s1, uint64_t s2)
{
	return stepped(n, n2, copies, s1, s2, 1);
}

static void test_exact(void)
{
	struct percopy p = of(105, 205, 100, 0, 0); /* code=90 unroll=100 under -icount */
	CHECK(p.kind == PERCOPY_EXACT, "spreads 0: exact (kind %d)", p.kind);
	CHECK_EQ_U64(p.num, 1, "1 TSC tick per copy: numerator");
	CHECK_EQ_U64(p.den, 1, "1 TSC tick per copy: denominator");
	CHECK_EQ_U64(p.milli, 1000, "1.000 per copy");
	p = of(10, 13, 2, 0, 0);
	CHECK(p.kind == PERCOPY_EXACT && p.num == 3 && p.den == 2 && p.milli == 1500, "3/2 exactly: %llu/%llu %llu",
	      (unsigned long long)p.num, (unsigned long long)p.den, (unsigned long long)p.milli);
	p = of(10, 10, 3, 0, 0);
	CHECK(p.kind == PERCOPY_EXACT && p.num == 0 && p.den == 1 && p.milli == 0, "0 exactly with no spread");
	p = of(13, 10, 2, 0, 0);
	CHECK(p.kind == PERCOPY_EXACT && p.neg && p.num == 3 && p.den == 2, "-3/2 exactly with no spread");
	p = of(0, 2, 3, 0, 0);
	CHECK_EQ_U64(p.milli, 667, "2/3 rounds to 0.667");
	p = of(5, 5, 0, 0, 0);
	CHECK_EQ_U64(p.copies, 1, "0 copies taken as 1");
}

static void test_below_resolution(void)
{
	/* The IMUL chain under TCG by cpuid: N and 2N minimums equal, the
	 * minimums spread by 30 and 20 TSC ticks: not "exactly 0". */
	struct percopy p = of(4000, 4000, 100, 30, 20);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION, "equal minimums with a spread: below resolution (kind %d)", p.kind);
	CHECK_EQ_U64(p.bound, 50, "the bound is the two spreads added");
	CHECK_EQ_U64(p.bound_milli, 500, "at most 50/100 = 0.500 per copy");
	p = of(4000, 4050, 100, 30, 20);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION, "a difference equal to the bound: below resolution");
	CHECK_EQ_U64(p.bound_milli, 1000, "at most (50 + 50)/100 = 1.000 per copy");
	p = of(4040, 4000, 3, 30, 20);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION && p.neg, "a negative difference inside the bound");
	CHECK_EQ_U64(p.bound_milli, 3334, "at most (50 - 40)/3 = 3.334 per copy, rounded up");
	p = of(100, 101, 1, 1, 0);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION, "one tick of difference with one of spread");
}

static void test_figure(void)
{
	/* rdtscp under TCG: 2.210 per copy, the minimums spread by 3 and 4. */
	struct percopy p = of(5000, 5221, 100, 3, 4);
	CHECK(p.kind == PERCOPY_FIGURE, "beyond the bound: a figure (kind %d)", p.kind);
	CHECK_EQ_U64(p.milli, 2210, "2.210 per copy");
	CHECK_EQ_U64(p.bound_milli, 70, "+- 7/100 = 0.070 per copy");
	p = of(5221, 5000, 100, 3, 4);
	CHECK(p.kind == PERCOPY_BELOW_ZERO && p.neg, "negative beyond the bound: below zero, not a duration");
}

static void test_wrapped(void)
{
	/* A 2N minimum that wrapped: issue 21's 18446744071751775652. */
	struct percopy p = of(5000, 18446744071751775652ull, 1, 0, 0);
	CHECK(p.kind == PERCOPY_WRAPPED, "a wrapped 2N minimum is no figure (kind %d)", p.kind);
	CHECK_EQ_U64(p.milli, 0, "no per-copy thousandths");
	p = of(1ull << 63, 5000, 1, 0, 0);
	CHECK(p.kind == PERCOPY_WRAPPED, "a wrapped N minimum is no figure");
	p = of(0, (1ull << 63) - 1, 1, 0, 0);
	CHECK(p.kind == PERCOPY_EXACT && p.milli == UINT64_MAX, "2^63-1 in one copy: thousandths saturate");
}

static void test_spread(void)
{
	struct percopy_window w = { .var_of_mins = 0, .var_ok = 1 }, e = { .var_of_mins = 0, .var_ok = 1 };
	CHECK_EQ_U64(percopy_spread(&w, &e), 0, "variances 0: spread 0");
	w.var_of_mins = 9;
	CHECK_EQ_U64(percopy_spread(&w, &e), 3, "variance 9: spread 3");
	w.var_of_mins = 10;
	CHECK_EQ_U64(percopy_spread(&w, &e), 4, "variance 10: spread ceil(3.16) = 4");
	e.var_of_mins = 100;
	CHECK_EQ_U64(percopy_spread(&w, &e), 10, "never below the empty window's spread (10)");
	CHECK_EQ_U64(percopy_spread(&w, 0), 4, "no empty window: the window's own");
	w = (struct percopy_window){ .var_ok = 0, .min_of_mins = 100, .max_of_mins = 160 };
	CHECK_EQ_U64(percopy_spread(&w, 0), 60, "an overflowed variance: the range of the minimums");
	w.var_ok = 1, w.var_of_mins = UINT64_MAX;
	CHECK_EQ_U64(percopy_spread(&w, 0), 4294967296ull, "the largest variance: 2^32");
}

static void test_step(void)
{
	/* Step 1: as before, exact with no spread; step 0 is taken as 1. */
	struct percopy p = stepped(105, 205, 100, 0, 0, 1);
	CHECK(p.kind == PERCOPY_EXACT && p.bound == 0 && p.step == 1, "step 1, no spread: exact (kind %d)", p.kind);
	p = stepped(105, 205, 100, 0, 0, 0);
	CHECK(p.kind == PERCOPY_EXACT && p.step == 1, "step 0 taken as 1: exact (kind %d)", p.kind);
	/* Step 2: each least minimum within 1 tick, the difference within 2. */
	p = stepped(104, 204, 100, 0, 0, 2);
	CHECK(p.kind == PERCOPY_FIGURE, "step 2, no spread: a figure, not exact (kind %d)", p.kind);
	CHECK_EQ_U64(p.spread, 0, "step 2: the spreads 0");
	CHECK_EQ_U64(p.bound, 2, "step 2: bound 2 (s - 1) = 2 ticks");
	CHECK_EQ_U64(p.milli, 1000, "step 2: 100/100 = 1.000 per copy");
	CHECK_EQ_U64(p.bound_milli, 20, "step 2: +- 2/100 = 0.020 per copy");
	p = stepped(104, 106, 1, 0, 0, 2);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION && p.bound_milli == 4000,
	      "step 2, one step of difference: below resolution, at most 2 + 2 = 4.000 (kind %d, %llu)", p.kind,
	      (unsigned long long)p.bound_milli);
	/* Step 21 (QEMU TCG, issue 29): cpuid's equal minimums are not "exactly 0". */
	p = stepped(4200, 4200, 100, 0, 0, 21);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION, "step 21, equal minimums, no spread: below resolution (kind %d)",
	      p.kind);
	CHECK_EQ_U64(p.bound, 40, "step 21: bound 2 x 20 = 40 ticks");
	CHECK_EQ_U64(p.bound_milli, 400, "step 21: at most 40/100 = 0.400 per copy");
	p = stepped(4200, 4389, 100, 0, 0, 21);
	CHECK(p.kind == PERCOPY_FIGURE && p.milli == 1890 && p.bound_milli == 400,
	      "step 21, 9 steps over 100 copies: 1.890 +- 0.400 (kind %d, %llu +- %llu)", p.kind,
	      (unsigned long long)p.milli, (unsigned long long)p.bound_milli);
	p = stepped(4200, 4242, 25, 0, 0, 21);
	CHECK(p.kind == PERCOPY_FIGURE && p.num == 42 && p.den == 25 && p.bound == 40,
	      "step 21, 42/25 (the stick's '1.680 exactly'): a figure +- 40/25 (kind %d)", p.kind);
	p = stepped(4200, 4389, 100, 30, 20, 21);
	CHECK_EQ_U64(p.bound, 90, "step 21 with spreads 30 and 20: bound 50 + 40 = 90");
	/* Step 100: a difference of one step over one copy is inside the bound. */
	p = stepped(1000, 1100, 1, 0, 0, 100);
	CHECK(p.kind == PERCOPY_BELOW_RESOLUTION && p.bound == 198,
	      "step 100, one step of difference: below resolution (kind %d, bound %llu)", p.kind,
	      (unsigned long long)p.bound);
	p = stepped(1000, 1300, 1, 0, 0, 100);
	CHECK(p.kind == PERCOPY_FIGURE && p.bound_milli == 198000, "step 100, three steps: 300 +- 198 (kind %d)",
	      p.kind);
	p = stepped(1300, 1000, 1, 0, 0, 100);
	CHECK(p.kind == PERCOPY_BELOW_ZERO, "step 100, three steps down: below zero (kind %d)", p.kind);
	p = stepped(1000, 1000, 1, 0, 0, UINT64_MAX);
	CHECK(p.bound == UINT64_MAX && p.kind == PERCOPY_BELOW_RESOLUTION, "a huge step: the bound saturates");
}

static void test_overlap(void)
{
	int low;
	uint64_t gap;
	/* rdtscp 1.890 +- 0.150 and cpuid "below resolution (<= 0.040)" under one
	 * clock (issue 29): intervals [174, 204] and [-4, 4] per 100 copies. */
	struct percopy r = of(5000, 5189, 100, 10, 5), c = of(4000, 4000, 100, 4, 0);
	CHECK_EQ_U64(percopy_overlap(&c, &r, &low, &gap), 0, "disjoint intervals: no overlap");
	CHECK(low == 0, "cpuid's interval lies below rdtscp's");
	CHECK_EQ_U64(gap, 1700, "gap (189 - 15) - 4 = 170 ticks over 100 copies: 1.700 per copy");
	CHECK_EQ_U64(percopy_overlap(&r, &c, &low, &gap), 0, "disjoint, the other way round");
	CHECK(low == 1 && gap == 1700, "b's interval below a's, same gap (%d, %llu)", low, (unsigned long long)gap);
	/* The same two under a step of 21: the bounds grow by 40 each and meet. */
	r = stepped(5000, 5189, 100, 10, 5, 21), c = stepped(4000, 4000, 100, 4, 0, 21);
	CHECK_EQ_U64(percopy_overlap(&c, &r, &low, &gap), 0, "step 21: still disjoint ([-44, 44] and [134, 244])");
	CHECK_EQ_U64(gap, 900, "step 21: gap 134 - 44 = 90 ticks, 0.900 per copy");
	c = stepped(4000, 4100, 100, 4, 0, 21);
	CHECK_EQ_U64(percopy_overlap(&c, &r, &low, &gap), 1, "step 21: [56, 144] meets [134, 244]");
	/* Touching intervals overlap; a gap below a thousandth rounds up. */
	r = of(0, 10, 100, 0, 0), c = of(0, 12, 100, 1, 1);
	CHECK_EQ_U64(percopy_overlap(&r, &c, &low, &gap), 1, "[10, 10] touches [10, 14]");
	r = of(0, 10, 3000, 0, 0), c = of(0, 11, 3000, 0, 0);
	CHECK(percopy_overlap(&r, &c, &low, &gap) == 0 && gap == 1, "1 tick over 3000 copies: gap 0.001, not 0.000");
	/* Exact figures that differ disagree; equal ones agree. */
	r = of(0, 100, 100, 0, 0), c = of(0, 100, 100, 0, 0);
	CHECK_EQ_U64(percopy_overlap(&r, &c, &low, &gap), 1, "equal exact figures agree");
	/* Not comparable: wrapped, or other copies. */
	c = of(1ull << 63, 5, 100, 0, 0);
	CHECK(percopy_overlap(&r, &c, &low, &gap) == -1, "a wrapped figure is not compared");
	c = of(0, 100, 50, 0, 0);
	CHECK(percopy_overlap(&r, &c, &low, &gap) == -1, "other copies are not compared");
}

static void test_text(void)
{
	char b[24];
	CHECK_STR(percopy_milli_text(b, sizeof b, 0, 2210), "2.210", "2210 thousandths");
	CHECK_STR(percopy_milli_text(b, sizeof b, 1, 5), "-0.005", "-5 thousandths");
	CHECK_STR(percopy_kind_key(PERCOPY_BELOW_RESOLUTION), "below_resolution", "the key of below resolution");
	CHECK_STR(percopy_kind_key(PERCOPY_WRAPPED), "wrapped", "the key of wrapped");
}

int main(void)
{
	test_exact();
	test_below_resolution();
	test_figure();
	test_wrapped();
	test_spread();
	test_step();
	test_overlap();
	test_text();
	return check_summary("percopy");
}

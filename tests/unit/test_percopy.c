/* tests/unit/test_percopy.c - lib/percopy.c: code='s 2N-N figure is exact
 * only where every spread is 0, "below resolution" with its bound where
 * the difference is inside the spreads (issue 21: cpuid's "0.000 per copy,
 * exactly 0" under TCG), and no figure where a least minimum wrapped
 * (issue 21: "18446742115933587.616 TSC ticks per copy"). */
#include <stdint.h>
#include "check.h"
#include "../../lib/percopy.h"

static struct percopy of(uint64_t n, uint64_t n2, uint64_t copies, uint64_t s1, uint64_t s2)
{
	struct percopy p;
	percopy_compute(n, n2, copies, s1, s2, &p);
	return p;
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
	test_text();
	return check_summary("percopy");
}

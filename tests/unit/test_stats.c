/* tests/unit/test_stats.c - lib/stats.c: the paper's var_calc,
 * (n·Σx² − (Σx)²) / n² floored, on hand-computed cases, on values whose Σx²
 * needs more than 64 bits, and on overflow of 128 bits; acc_mean_milli;
 * u128_div_u64 against the compiler's 128-bit division; ensemble_compute;
 * the summary over ensembles (spurious, total variance, max deviation,
 * variance of variances and of minimums); and 200 random ensembles against a
 * plain unsigned __int128 implementation of the formula. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The reference: the formula with the compiler's 128-bit arithmetic.
 * Returns -1 where an exact 128-bit computation is impossible. */
static int ref_var(const uint64_t *x, uint64_t n, uint64_t *var, uint64_t *mean_milli)
{
	u128 sum = 0, sumsq = 0, nsq, sum2, msum;
	for (uint64_t i = 0; i < n; i++) {
		sum += x[i];
		if (__builtin_add_overflow(sumsq, (u128)x[i] * x[i], &sumsq))
			return -1;
	}
	if (__builtin_mul_overflow((u128)n, sumsq, &nsq) ||
	    __builtin_mul_overflow(sum, sum, &sum2) ||
	    __builtin_mul_overflow(sum, (u128)1000, &msum))
		return -1;
	u128 v = (nsq - sum2) / ((u128)n * n);
	u128 m = msum / n;
	if (v >> 64 || m >> 64)
		return -1;
	*var = (uint64_t)v;
	*mean_milli = (uint64_t)m;
	return 0;
}

static uint64_t var_of(const uint64_t *x, uint64_t n)
{
	struct acc a;
	uint64_t v = 12345678; /* a value none of the cases expects */
	acc_init(&a);
	for (uint64_t i = 0; i < n; i++)
		acc_add(&a, x[i]);
	CHECK(acc_variance(&a, &v) == 0, "variance of %d values: defined", (int)n);
	return v;
}

static void test_variance_small(void)
{
	/* Σx = 40, Σx² = 232: (8·232 − 1600)/64 = 256/64 = 4 */
	static const uint64_t a[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	CHECK_EQ_U64(var_of(a, N(a)), 4, "{2,4,4,4,5,5,7,9}: (8*232 - 1600)/64 = 4");
	/* (2·5 − 9)/4 = 1/4 -> 0 */
	static const uint64_t b[] = { 1, 2 };
	CHECK_EQ_U64(var_of(b, N(b)), 0, "{1,2}: 1/4 floored to 0");
	/* (4·30 − 100)/16 = 20/16 -> 1 */
	static const uint64_t c[] = { 1, 2, 3, 4 };
	CHECK_EQ_U64(var_of(c, N(c)), 1, "{1,2,3,4}: 20/16 floored to 1");
	/* (2·100 − 100)/4 = 25 */
	static const uint64_t d[] = { 0, 10 };
	CHECK_EQ_U64(var_of(d, N(d)), 25, "{0,10}: 25");
	/* (5·173 − 729)/25 = 136/25 -> 5 */
	static const uint64_t e[] = { 5, 3, 9, 3, 7 };
	CHECK_EQ_U64(var_of(e, N(e)), 5, "{5,3,9,3,7}: 136/25 floored to 5");
	/* constant data, and a single value */
	static const uint64_t f[] = { 77, 77, 77, 77, 77, 77 };
	CHECK_EQ_U64(var_of(f, N(f)), 0, "constant data: 0");
	static const uint64_t g[] = { 123456789 };
	CHECK_EQ_U64(var_of(g, N(g)), 0, "a single value: 0");
	static const uint64_t h[] = { UINT64_MAX }; /* Σx² = (2^64−1)² still fits */
	CHECK_EQ_U64(var_of(h, N(h)), 0, "single 2^64-1: its square (2^64-1)^2 still fits, 0");
	static const uint64_t z[] = { 0, 0, 0 };
	CHECK_EQ_U64(var_of(z, N(z)), 0, "all zeros: 0");

	/* empty: no variance */
	struct acc acc;
	uint64_t v = 99;
	acc_init(&acc);
	CHECK(acc_variance(&acc, &v) == -1, "no values: no variance");
	CHECK_EQ_U64(acc.n, 0, "new accumulator: no values");
	CHECK_EQ_U64(acc.overflow, 0, "new accumulator: no overflow");
}

/* Σx² beyond 64 bits. For integers, n·Σx² − (Σx)² = n²·(population
 * variance) exactly, so these expectations need no rounding argument. */
static void test_variance_large(void)
{
	const uint64_t base = 1ull << 40;
	static uint64_t x[1000];
	struct acc a;
	uint64_t v = 0;

	/* 500 × 2^40 and 500 × (2^40+2): mean 2^40+1, every deviation ±1,
	 * variance exactly 1. Σx² ≈ 1000·2^80 ≈ 2^90. */
	acc_init(&a);
	for (int i = 0; i < 1000; i++) {
		x[i] = base + (i & 1 ? 2 : 0);
		acc_add(&a, x[i]);
	}
	CHECK(a.sumsq >> 64 != 0, "sum of squares beyond 64 bits");
	CHECK(acc_variance(&a, &v) == 0, "2^40 and 2^40+2 alternating: defined");
	CHECK_EQ_U64(v, 1, "2^40 and 2^40+2 alternating: variance exactly 1");
	/* the same with the compiler's 128-bit arithmetic:
	 * n·Σx² − (Σx)² = 1000·(500·b² + 500·(b+2)²) − (1000·b + 1000)² = 10^6 */
	u128 b = base;
	u128 num = 1000 * (500 * b * b + 500 * (b + 2) * (b + 2)) -
		   (1000 * b + 1000) * (1000 * b + 1000);
	CHECK(num == 1000000, "128-bit reference: n*sum(x^2) - (sum x)^2 = 10^6");
	uint64_t mm = 0;
	CHECK(acc_mean_milli(&a, &mm) == 0, "mean of 2^40 and 2^40+2: defined");
	CHECK_EQ_U64(mm, (base + 1) * 1000, "mean of 2^40 and 2^40+2: 2^40+1");

	/* 999 × 2^40 and one 2^40+1000: mean 2^40+1, deviations −1 (999 times)
	 * and 999, Σdev² = 999 + 998001 = 999000, variance 999000/1000 = 999. */
	acc_init(&a);
	for (int i = 0; i < 999; i++)
		acc_add(&a, base);
	acc_add(&a, base + 1000);
	CHECK(acc_variance(&a, &v) == 0, "999 x 2^40 and one 2^40+1000: defined");
	CHECK_EQ_U64(v, 999, "999 x 2^40 and one 2^40+1000: variance 999");

	/* 2^62 and 2^62 + 2^31: deviations ±2^30, variance 2^60; n·Σx² ≈ 2^126 */
	acc_init(&a);
	acc_add(&a, 1ull << 62);
	acc_add(&a, (1ull << 62) + (1ull << 31));
	CHECK(acc_variance(&a, &v) == 0, "2^62 and 2^62+2^31: defined, n*sum(x^2) near 2^126");
	CHECK_EQ_U64(v, 1ull << 60, "2^62 and 2^62+2^31: variance 2^60");

	/* a variance that does not fit 64 bits: {0, 2^63}, variance
	 * (2^62)² = 2^124 (n·Σx² = 2^127 still fits): reported, not truncated */
	acc_init(&a);
	acc_add(&a, 0);
	acc_add(&a, 1ull << 63);
	CHECK_EQ_U64(a.overflow, 0, "{0, 2^63}: sum of squares fits 128 bits");
	CHECK(acc_variance(&a, &v) == -1,
	      "{0, 2^63}: variance 2^124 does not fit 64 bits, not truncated");
}

/* Σx² beyond 128 bits: (2^64−1)² = 2^128 − 2^65 + 1, twice is > 2^128. */
static void test_variance_overflow(void)
{
	struct acc a;
	uint64_t v = 7, m = 7;
	acc_init(&a);
	acc_add(&a, UINT64_MAX);
	CHECK_EQ_U64(a.overflow, 0, "one 2^64-1: no overflow");
	acc_add(&a, UINT64_MAX);
	CHECK_EQ_U64(a.overflow, 1, "two 2^64-1: sum of squares beyond 128 bits");
	CHECK(acc_variance(&a, &v) == -1, "overflowed: no variance");
	CHECK(acc_mean_milli(&a, &m) == -1, "overflowed: no mean");
	/* the flag sticks: later small values do not make it valid again */
	acc_add(&a, 1);
	CHECK_EQ_U64(a.overflow, 1, "overflow flag sticks after a small value");
	CHECK(acc_variance(&a, &v) == -1, "still overflowed: no variance");

	/* x = 3·2^61: x² = 9·2^122 and 2^128 = 64·2^122, so 7 of them fit
	 * (63·2^122) and the 8th does not */
	acc_init(&a);
	uint64_t big = 3ull << 61;
	for (int i = 0; i < 7; i++)
		acc_add(&a, big);
	CHECK_EQ_U64(a.overflow, 0, "7 x 3*2^61: 63*2^122 fits");
	CHECK_EQ_U64(a.n, 7, "7 values added");
	acc_add(&a, big);
	CHECK_EQ_U64(a.overflow, 1, "8 x 3*2^61: 72*2^122 does not fit");
	CHECK(acc_variance(&a, &v) == -1, "8 x 3*2^61: no variance");

	/* Σx² fits but n·Σx² does not: two values 2^63, Σx² = 2^127, n·Σx² = 2^128 */
	acc_init(&a);
	acc_add(&a, 1ull << 63);
	acc_add(&a, 1ull << 63);
	CHECK_EQ_U64(a.overflow, 0, "two 2^63: sum of squares 2^127 fits");
	CHECK(acc_variance(&a, &v) == -1, "two 2^63: n*sum(x^2) = 2^128 does not, no variance");
}

static void test_mean(void)
{
	struct acc a;
	uint64_t m = 0;
	acc_init(&a);
	CHECK(acc_mean_milli(&a, &m) == -1, "no values: no mean");
	acc_add(&a, 1);
	acc_add(&a, 2);
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {1,2}: defined");
	CHECK_EQ_U64(m, 1500, "mean of {1,2}: 1.500");
	acc_add(&a, 2); /* 5000/3 = 1666.67 -> 1666 */
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {1,2,2}: defined");
	CHECK_EQ_U64(m, 1666, "mean of {1,2,2}: 1666.67 floored to 1.666");

	acc_init(&a);
	acc_add(&a, 0);
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {0}: defined");
	CHECK_EQ_U64(m, 0, "mean of {0}: 0");

	/* 18446744073709551 · 1000 fits, UINT64_MAX · 1000 does not */
	acc_init(&a);
	acc_add(&a, UINT64_MAX / 1000);
	CHECK(acc_mean_milli(&a, &m) == 0, "(2^64-1)/1000: its thousandths fit");
	CHECK_EQ_U64(m, 18446744073709551000ull, "(2^64-1)/1000: mean in thousandths");
	acc_init(&a);
	acc_add(&a, UINT64_MAX);
	CHECK(acc_mean_milli(&a, &m) == -1, "2^64-1: its thousandths do not fit");
	/* but the mean of {UINT64_MAX, 0, 0, ..} in thousandths may fit again:
	 * (2^64−1)·1000/2000 = (2^64−1)/2 = 9223372036854775807 (floored) */
	for (int i = 0; i < 1999; i++)
		acc_add(&a, 0);
	CHECK(acc_mean_milli(&a, &m) == 0,
	      "2^64-1 and 1999 zeros: the mean in thousandths fits again");
	CHECK_EQ_U64(m, 9223372036854775807ull, "2^64-1 and 1999 zeros: (2^64-1)/2 floored");
}

static void test_div(void)
{
	uint64_t r = 1;
	/* den = 1 */
	u128 num = ((u128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;
	CHECK(u128_div_u64(num, 1, &r) == num, "divided by 1: the numerator");
	CHECK_EQ_U64(r, 0, "divided by 1: no remainder");
	/* (2^128−1)/(2^64−1) = 2^64+1 exactly */
	u128 all = ~(u128)0;
	CHECK(u128_div_u64(all, UINT64_MAX, &r) == ((u128)1 << 64) + 1,
	      "(2^128-1)/(2^64-1) = 2^64+1");
	CHECK_EQ_U64(r, 0, "(2^128-1)/(2^64-1): no remainder");
	/* (2^128−2)/(2^64−1) = 2^64 remainder 2^64−2 */
	CHECK(u128_div_u64(all - 1, UINT64_MAX, &r) == (u128)1 << 64, "(2^128-2)/(2^64-1) = 2^64");
	CHECK_EQ_U64(r, UINT64_MAX - 1, "(2^128-2)/(2^64-1): remainder 2^64-2");
	/* small cases, and rem may be NULL */
	CHECK(u128_div_u64(17, 5, &r) == 3, "17/5 = 3");
	CHECK_EQ_U64(r, 2, "17/5: remainder 2");
	CHECK(u128_div_u64(4, 5, &r) == 0, "4/5 = 0");
	CHECK_EQ_U64(r, 4, "4/5: remainder 4");
	CHECK(u128_div_u64(0, 3, &r) == 0, "0/3 = 0");
	CHECK_EQ_U64(r, 0, "0/3: remainder 0");
	CHECK(u128_div_u64(100, 7, NULL) == 14, "100/7 = 14 with no remainder pointer");
	CHECK(u128_div_u64(all, 2, &r) == all >> 1, "(2^128-1)/2");
	CHECK_EQ_U64(r, 1, "(2^128-1)/2: remainder 1");

	/* random numerators and divisors of every size */
	int bad = 0;
	for (int i = 0; i < 20000; i++) {
		u128 n = ((u128)next() << 64) | next();
		n >>= next() % 128;
		uint64_t d = next() >> (next() % 64);
		if (d == 0)
			d = 1;
		uint64_t rem = 0;
		u128 q = u128_div_u64(n, d, &rem);
		if (q != n / d || rem != (uint64_t)(n % d)) {
			if (bad++ < 5)
				printf("  u128_div_u64 mismatch, divisor %llu\n", (unsigned long long)d);
		}
	}
	CHECK_EQ_U64(bad, 0, "20000 random divisions match the compiler's");
}

static void test_ensemble(void)
{
	struct ensemble_stats s;

	/* {5,3,9,3,7}: Σ 27, Σx² 173, var (865 − 729)/25 = 5, mean 5.4 */
	static const uint64_t a[] = { 5, 3, 9, 3, 7 };
	memset(&s, 0xA5, sizeof s);
	ensemble_compute(a, N(a), &s);
	CHECK_EQ_U64(s.n, 5, "{5,3,9,3,7}: 5 samples");
	CHECK_EQ_U64(s.min, 3, "{5,3,9,3,7}: min 3");
	CHECK_EQ_U64(s.max, 9, "{5,3,9,3,7}: max 9");
	CHECK_EQ_U64(s.max_dev, 6, "{5,3,9,3,7}: max deviation 9 - 3");
	CHECK_EQ_U64(s.var, 5, "{5,3,9,3,7}: variance 5");
	CHECK_EQ_U64(s.mean_milli, 5400, "{5,3,9,3,7}: mean 5.400");
	CHECK(s.sum == 27, "{5,3,9,3,7}: sum 27");
	CHECK_EQ_U64(s.error, 0, "{5,3,9,3,7}: no overflow");

	/* a sample of 0 is the minimum (the paper started min at 0) */
	static const uint64_t b[] = { 7, 0, 4 };
	ensemble_compute(b, N(b), &s);
	CHECK_EQ_U64(s.min, 0, "{7,0,4}: a sample of 0 is the minimum");
	CHECK_EQ_U64(s.max, 7, "{7,0,4}: max 7");
	CHECK_EQ_U64(s.max_dev, 7, "{7,0,4}: max deviation 7");
	/* Σ 11, Σx² 65: (195 − 121)/9 = 74/9 -> 8; mean 11000/3 -> 3666 */
	CHECK_EQ_U64(s.var, 8, "{7,0,4}: variance 74/9 floored to 8");
	CHECK_EQ_U64(s.mean_milli, 3666, "{7,0,4}: mean 3.666");
	CHECK_EQ_U64(s.error, 0, "{7,0,4}: no overflow");

	/* one sample */
	static const uint64_t c[] = { 42 };
	ensemble_compute(c, 1, &s);
	CHECK_EQ_U64(s.n, 1, "{42}: 1 sample");
	CHECK_EQ_U64(s.min, 42, "{42}: min 42");
	CHECK_EQ_U64(s.max, 42, "{42}: max 42");
	CHECK_EQ_U64(s.max_dev, 0, "{42}: max deviation 0");
	CHECK_EQ_U64(s.var, 0, "{42}: variance 0");
	CHECK_EQ_U64(s.mean_milli, 42000, "{42}: mean 42.000");
	CHECK(s.sum == 42, "{42}: sum 42");
	CHECK_EQ_U64(s.error, 0, "{42}: no overflow");

	/* large values: min/max/sum are still exact, var overflows */
	static const uint64_t d[] = { UINT64_MAX, UINT64_MAX - 5, UINT64_MAX };
	ensemble_compute(d, N(d), &s);
	CHECK_EQ_U64(s.error, 1, "values near 2^64: the variance overflows");
	CHECK_EQ_U64(s.max, UINT64_MAX, "values near 2^64: max still exact");
}

/* An ensemble whose Σx² overflows has error set, and per stats.h only var
 * and mean are then invalid: n, min, max, max_dev and sum still cover every
 * sample (summary_add uses min and max_dev of such ensembles). */
static void test_overflow_keeps_extremes(void)
{
	struct ensemble_stats s;
	/* the 2nd sample overflows Σx², the 3rd fits again, the 4th overflows */
	static const uint64_t a[] = { UINT64_MAX - 100, UINT64_MAX - 50, 5, UINT64_MAX };
	ensemble_compute(a, N(a), &s);
	CHECK_EQ_U64(s.error, 1, "sum of squares overflowed: error");
	CHECK_EQ_U64(s.n, 4, "overflowed: n still counts every sample");
	CHECK_EQ_U64(s.min, 5, "overflowed: min still exact");
	CHECK_EQ_U64(s.max, UINT64_MAX, "overflowed: max still exact");
	CHECK_EQ_U64(s.max_dev, UINT64_MAX - 5, "overflowed: max deviation still exact");
	CHECK(s.sum == (u128)(UINT64_MAX - 100) + (UINT64_MAX - 50) + 5 + UINT64_MAX,
	      "overflowed: sum still exact");

	/* the minimum is the sample that overflowed */
	static const uint64_t b[] = { UINT64_MAX - 1, UINT64_MAX - 2 };
	ensemble_compute(b, N(b), &s);
	CHECK_EQ_U64(s.error, 1, "minimum is the sample that overflowed: error");
	CHECK_EQ_U64(s.min, UINT64_MAX - 2, "minimum is the sample that overflowed: still exact");
	CHECK_EQ_U64(s.max_dev, 1, "minimum is the sample that overflowed: max deviation 1");
}

/* Ensembles whose statistics are worked out by hand:
 *   E1 {5,7,9}:      min 5, dev 4,  var (3·155 − 441)/9   = 24/9   -> 2
 *   E2 {4,4,10,6}:   min 4, dev 6,  var (4·168 − 576)/16  = 96/16  =  6
 *   E3 {6,8}:        min 6, dev 2,  var (2·100 − 196)/4   = 4/4    =  1
 *   E4 {3,3,3,20}:   min 3, dev 17, var (4·427 − 841)/16  = 867/16 -> 54
 * mins 5,4,6,3: E2 and E4 are below their predecessor -> 2 spurious.
 * total variance (2+6+1+54)/4 = 63/4 -> 15.
 * var of vars {2,6,1,54}: Σ 63, Σx² 2957: (11828 − 3969)/16 = 7859/16 -> 491.
 * var of mins {5,4,6,3}: Σ 18, Σx² 86: (344 − 324)/16 = 20/16 -> 1. */
static void test_summary(void)
{
	static const uint64_t e1[] = { 5, 7, 9 }, e2[] = { 4, 4, 10, 6 }, e3[] = { 6, 8 },
			      e4[] = { 3, 3, 3, 20 };
	const uint64_t *es[] = { e1, e2, e3, e4 };
	const uint64_t ns[] = { N(e1), N(e2), N(e3), N(e4) };
	const uint64_t vars[] = { 2, 6, 1, 54 };

	struct paper_summary ps;
	struct summary_result r;
	summary_init(&ps);
	for (int i = 0; i < 4; i++) {
		struct ensemble_stats s;
		ensemble_compute(es[i], ns[i], &s);
		CHECK_EQ_U64(s.var, vars[i], "ensemble E%d's variance", i + 1);
		summary_add(&ps, &s);
	}
	memset(&r, 0xA5, sizeof r);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.ensembles, 4, "E1-E4: 4 ensembles");
	CHECK_EQ_U64(r.spurious, 2, "E1-E4: E2 and E4 below their predecessors, 2 spurious");
	CHECK_EQ_U64(r.total_variance, 15, "E1-E4: total variance 63/4 floored to 15");
	CHECK_EQ_U64(r.total_variance_ok, 1, "E1-E4: total variance valid");
	CHECK_EQ_U64(r.max_dev_all, 17, "E1-E4: max deviation of all, E4's 17");
	CHECK_EQ_U64(r.var_of_vars, 491, "E1-E4: variance of variances 7859/16 floored to 491");
	CHECK_EQ_U64(r.var_of_vars_ok, 1, "E1-E4: variance of variances valid");
	CHECK_EQ_U64(r.var_of_mins, 1, "E1-E4: variance of minimums 20/16 floored to 1");
	CHECK_EQ_U64(r.var_of_mins_ok, 1, "E1-E4: variance of minimums valid");
	CHECK_EQ_U64(r.min_of_mins, 3, "E1-E4: least minimum 3");
	CHECK_EQ_U64(r.max_of_mins, 6, "E1-E4: greatest minimum 6");
	CHECK_EQ_U64(r.errors, 0, "E1-E4: no overflowed ensemble");

	/* spurious compares with the previous ensemble only; equal is not
	 * spurious; the first ensemble never is */
	struct {
		uint64_t mins[6];
		int n;
		uint64_t spurious;
	} seqs[] = {
		{ { 5, 4, 6, 3 }, 4, 2 },
		{ { 9, 8, 7, 6, 5, 4 }, 6, 5 },
		{ { 1, 2, 3, 4, 5, 6 }, 6, 0 },
		{ { 5, 5, 5 }, 3, 0 },
		{ { 0, 10, 0, 10, 0 }, 5, 2 },
		{ { 7 }, 1, 0 },
	};
	for (size_t q = 0; q < N(seqs); q++) {
		summary_init(&ps);
		for (int i = 0; i < seqs[q].n; i++) {
			/* an ensemble {min, min+1}: var 0, dev 1 */
			uint64_t x[2] = { seqs[q].mins[i], seqs[q].mins[i] + 1 };
			struct ensemble_stats s;
			ensemble_compute(x, 2, &s);
			summary_add(&ps, &s);
		}
		summary_finish(&ps, &r);
		CHECK_EQ_U64(r.spurious, seqs[q].spurious,
		             "minimums sequence %d: spurious against the previous only", (int)q);
		CHECK_EQ_U64(r.ensembles, (uint64_t)seqs[q].n,
		             "minimums sequence %d: ensembles", (int)q);
		CHECK_EQ_U64(r.max_dev_all, 1, "minimums sequence %d: max deviation 1", (int)q);
		CHECK_EQ_U64(r.total_variance, 0, "minimums sequence %d: total variance 0", (int)q);
	}

	/* no ensembles: nothing is valid */
	summary_init(&ps);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.ensembles, 0, "no ensembles: none counted");
	CHECK_EQ_U64(r.spurious, 0, "no ensembles: none spurious");
	CHECK_EQ_U64(r.total_variance_ok, 0, "no ensembles: total variance not valid");
	CHECK_EQ_U64(r.var_of_vars_ok, 0, "no ensembles: variance of variances not valid");
	CHECK_EQ_U64(r.var_of_mins_ok, 0, "no ensembles: variance of minimums not valid");

	/* an ensemble whose variance overflowed is counted as an error and its
	 * variance left out; its minimum is still exact */
	summary_init(&ps);
	static const uint64_t good[] = { 10, 14 }; /* var (2·296 − 576)/4 = 4 */
	static const uint64_t huge[] = { UINT64_MAX, UINT64_MAX };
	struct ensemble_stats s;
	ensemble_compute(good, 2, &s);
	summary_add(&ps, &s);
	ensemble_compute(huge, 2, &s);
	CHECK_EQ_U64(s.error, 1, "two 2^64-1: the ensemble overflows");
	summary_add(&ps, &s);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.errors, 1, "overflowed ensemble counted as an error");
	CHECK_EQ_U64(r.ensembles, 2, "both ensembles counted");
	CHECK_EQ_U64(r.total_variance, 4, "overflowed ensemble's variance left out of the total");
	CHECK_EQ_U64(r.min_of_mins, 10, "least minimum from the good ensemble");
	CHECK_EQ_U64(r.max_of_mins, UINT64_MAX, "overflowed ensemble's minimum still exact");
}

/* 200 random ensembles against the reference, then the summary of them. */
static void test_random(void)
{
	static uint64_t x[600];
	uint64_t vars[200], mins[200], devs[200];
	int nvars = 0;
	int bad = 0, bad_error = 0, nerror = 0;
	struct paper_summary ps;
	summary_init(&ps);
	for (int e = 0; e < 200; e++) {
		uint64_t n = 1 + next() % 600;
		/* a base and a spread of varied magnitudes, as measured ticks are */
		int shift = 32 + (int)(next() % 32); /* spread < 2^32: var < 2^64 */
		uint64_t base = next() >> (next() % 64);
		uint64_t spread = (next() >> shift) + 1;
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = base + next() % spread;
			x[i] = v < base ? UINT64_MAX : v; /* saturate */
		}
		struct ensemble_stats s;
		ensemble_compute(x, n, &s);
		uint64_t rv = 0, rm = 0, mn = UINT64_MAX, mx = 0;
		u128 sum = 0;
		for (uint64_t i = 0; i < n; i++) {
			mn = x[i] < mn ? x[i] : mn;
			mx = x[i] > mx ? x[i] : mx;
			sum += x[i];
		}
		int ok = ref_var(x, n, &rv, &rm) == 0;
		/* var and mean only when valid; n, min, max, sum always */
		int exact = s.n == n && s.min == mn && s.max == mx && s.max_dev == mx - mn &&
			    s.sum == sum;
		if ((s.error != !ok || (ok && (!exact || s.var != rv || s.mean_milli != rm))) &&
		    bad++ < 5)
			printf("  ensemble %d (n %llu): var %llu ref %llu, error %d ref %d\n", e,
			       (unsigned long long)n, (unsigned long long)s.var,
			       (unsigned long long)rv, s.error, !ok);
		if (!ok) {
			nerror++;
			if (!exact && bad_error++ < 5)
				printf("  overflowed ensemble %d: n %llu/%llu min %llu/%llu max "
				       "%llu/%llu\n", e, (unsigned long long)s.n,
				       (unsigned long long)n, (unsigned long long)s.min,
				       (unsigned long long)mn, (unsigned long long)s.max,
				       (unsigned long long)mx);
		}
		summary_add(&ps, &s);
		mins[e] = mn;
		devs[e] = mx - mn;
		if (ok)
			vars[nvars++] = rv;
	}
	CHECK_EQ_U64(bad, 0, "200 random ensembles match the 128-bit reference");
	CHECK_EQ_U64(bad_error, 0, "overflowed random ensembles keep n, min, max, sum");
	CHECK(nvars > 150, "most random ensembles are valid: values are compared");
	CHECK(nerror > 0, "the overflow path is exercised");

	struct summary_result r;
	summary_finish(&ps, &r);
	uint64_t spurious = 0, maxdev = 0, mnmin = UINT64_MAX, mxmin = 0;
	for (int e = 0; e < 200; e++) {
		if (e && mins[e] < mins[e - 1])
			spurious++;
		maxdev = devs[e] > maxdev ? devs[e] : maxdev;
		mnmin = mins[e] < mnmin ? mins[e] : mnmin;
		mxmin = mins[e] > mxmin ? mins[e] : mxmin;
	}
	CHECK_EQ_U64(r.ensembles, 200, "random: 200 ensembles");
	CHECK_EQ_U64(r.errors, 200 - nvars, "random: the overflowed ones counted as errors");
	CHECK_EQ_U64(r.spurious, spurious, "random: spurious ensembles");
	CHECK_EQ_U64(r.max_dev_all, maxdev, "random: max deviation of all");
	CHECK_EQ_U64(r.min_of_mins, mnmin, "random: least minimum");
	CHECK_EQ_U64(r.max_of_mins, mxmin, "random: greatest minimum");
	u128 vsum = 0;
	for (int i = 0; i < nvars; i++)
		vsum += vars[i];
	CHECK_EQ_U64(r.total_variance_ok, 1, "random: total variance valid");
	CHECK(r.total_variance == vsum / (u128)nvars,
	      "random: total variance is the mean of the valid variances");
	uint64_t vv = 0, vm = 0, dummy;
	int vv_ok = ref_var(vars, (uint64_t)nvars, &vv, &dummy) == 0;
	int vm_ok = ref_var(mins, 200, &vm, &dummy) == 0;
	CHECK_EQ_U64(r.var_of_vars_ok, vv_ok,
	             "random: variance of variances valid as the reference's");
	CHECK_EQ_U64(r.var_of_mins_ok, vm_ok,
	             "random: variance of minimums valid as the reference's");
	if (vv_ok)
		CHECK_EQ_U64(r.var_of_vars, vv, "random: variance of variances");
	if (vm_ok)
		CHECK_EQ_U64(r.var_of_mins, vm, "random: variance of minimums");
}

/* The same against the reference for smaller, realistic tick counts
 * (hundreds to thousands with rare outliers), where nothing overflows. */
static void test_random_ticks(void)
{
	static uint64_t x[2000];
	int bad = 0;
	for (int e = 0; e < 200; e++) {
		uint64_t n = 1 + next() % 2000;
		for (uint64_t i = 0; i < n; i++)
			x[i] = 200 + next() % 40 + (next() % 100 == 0 ? next() % 100000 : 0);
		struct ensemble_stats s;
		uint64_t rv = 0, rm = 0;
		ensemble_compute(x, n, &s);
		CHECK(ref_var(x, n, &rv, &rm) == 0,
		      "realistic ticks: the reference does not overflow");
		if ((s.var != rv || s.mean_milli != rm || s.error) && bad++ < 5)
			printf("  ticks ensemble %d: var %llu ref %llu\n", e,
			       (unsigned long long)s.var, (unsigned long long)rv);
	}
	CHECK_EQ_U64(bad, 0, "200 realistic tick ensembles match the reference");
}

int main(void)
{
	test_variance_small();
	test_variance_large();
	test_variance_overflow();
	test_mean();
	test_div();
	test_ensemble();
	test_overflow_keeps_extremes();
	test_summary();
	test_random();
	test_random_ticks();
	return check_summary("test_stats");
}

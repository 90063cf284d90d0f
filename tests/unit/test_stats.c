/* tests/unit/test_stats.c - lib/stats.c: the paper's var_calc,
 * (n·Σx² − (Σx)²) / n² floored, on hand-computed cases, on values whose Σx²
 * needs more than 64 and 128 bits (exact: the figures from Python's
 * integers), on 128-bit values; acc_mean_milli;
 * u128_div_u64 against the compiler's 128-bit division; ensemble_compute;
 * the summary over ensembles (spurious, total variance, max deviation,
 * variance of variances and of minimums); and 200 random ensembles against a
 * plain unsigned __int128 implementation of the formula. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#include "xorshift.h"

/* The reference: the formula with the compiler's 128-bit arithmetic.
 * Returns -1 where an exact 128-bit computation is impossible (the cases
 * beyond it have their figures from Python's integers below). */
static int ref_var(const uint64_t *x, uint64_t n, u128 *var, u128 *mean_milli)
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
	*var = (nsq - sum2) / ((u128)n * n);
	*mean_milli = msum / n;
	return 0;
}

/* w in decimal (lib/wide.h), into a static buffer of its own per call site
 * slot: slot 0 or 1. */
static const char *dec(const struct wide *w, int slot)
{
	static char buf[2][WIDE_DEC_SIZE];
	return wide_dec(buf[slot], sizeof buf[slot], w);
}

/* The variance of x[0..n-1] in decimal, "-" when missing. */
static const char *var_dec(const uint64_t *x, uint64_t n, int *paper64)
{
	struct acc a;
	struct wide v;
	acc_init(&a);
	for (uint64_t i = 0; i < n; i++)
		acc_add(&a, x[i]);
	if (acc_variance(&a, &v, paper64))
		return "-";
	return dec(&v, 0);
}

static uint64_t var_of(const uint64_t *x, uint64_t n)
{
	struct acc a;
	struct wide v = { { 12345678 } }; /* a value none of the cases expects */
	acc_init(&a);
	for (uint64_t i = 0; i < n; i++)
		acc_add(&a, x[i]);
	CHECK(acc_variance(&a, &v, NULL) == 0, "variance of %d values: defined", (int)n);
	CHECK(wide_bits(&v) <= 64, "variance of %d values: small", (int)n);
	return v.w[0];
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
	struct wide v = { { 99 } };
	acc_init(&acc);
	CHECK(acc_variance(&acc, &v, NULL) == -1, "no values: no variance");
	CHECK_EQ_U64(v.w[0], 0, "no values: the variance left 0");
	CHECK_EQ_U64(acc.n, 0, "new accumulator: no values");
	CHECK_EQ_U64(acc.full, 0, "new accumulator: not full");
}

/* Σx² beyond 64 bits. For integers, n·Σx² − (Σx)² = n²·(population
 * variance) exactly, so these expectations need no rounding argument. */
static void test_variance_large(void)
{
	const uint64_t base = 1ull << 40;
	static uint64_t x[1000];
	int p64 = -1;

	/* 500 × 2^40 and 500 × (2^40+2): mean 2^40+1, every deviation ±1,
	 * variance exactly 1. Σx² ≈ 1000·2^80 ≈ 2^90. */
	for (int i = 0; i < 1000; i++)
		x[i] = base + (i & 1 ? 2 : 0);
	CHECK_STR(var_dec(x, 1000, &p64), "1", "2^40 and 2^40+2 alternating: variance exactly 1");
	CHECK_EQ_U64(p64, 1, "2^40 and 2^40+2: the paper's 64-bit var_calc would overflow");

	/* 999 × 2^40 and one 2^40+1000: variance 999000/1000 = 999. */
	for (int i = 0; i < 999; i++)
		x[i] = base;
	x[999] = base + 1000;
	CHECK_STR(var_dec(x, 1000, NULL), "999", "999 x 2^40 and one 2^40+1000: variance 999");

	/* 2^62 and 2^62 + 2^31: deviations ±2^30, variance 2^60 */
	static const uint64_t a[] = { 1ull << 62, (1ull << 62) + (1ull << 31) };
	CHECK_EQ_U64(var_of(a, 2), 1ull << 60, "2^62 and 2^62+2^31: variance 2^60");

	/* Beyond 64 and 128 bits, the figures from Python's integers:
	 * (n*sum(x*x) - sum(x)**2) // n**2. */
	static const uint64_t b[] = { 0, 1ull << 63 };
	CHECK_STR(var_dec(b, 2, NULL), "21267647932558653966460912964485513216",
		  "{0, 2^63}: variance 2^124, beyond 64 bits, exact");
	static const uint64_t c[] = { UINT64_MAX, UINT64_MAX };
	CHECK_STR(var_dec(c, 2, &p64), "0", "two 2^64-1: Σx² beyond 128 bits, variance 0");
	CHECK_EQ_U64(p64, 1, "two 2^64-1: the paper's 64-bit var_calc would overflow");
	static const uint64_t d[] = { UINT64_MAX, 0 };
	CHECK_STR(var_dec(d, 2, NULL), "85070591730234615856620279821087277056",
		  "{2^64-1, 0}: variance (2^64-1)^2/4 floored");
	static const uint64_t e[] = { 3ull << 61, 3ull << 61, 3ull << 61, 3ull << 61,
				      3ull << 61, 3ull << 61, 3ull << 61, 3ull << 61 };
	CHECK_STR(var_dec(e, 8, NULL), "0", "8 x 3*2^61: Σx² 72*2^122 beyond 128 bits, variance 0");
	static const uint64_t f[] = { UINT64_MAX, UINT64_MAX - 5, UINT64_MAX };
	CHECK_STR(var_dec(f, 3, NULL), "5", "2^64-1, 2^64-6, 2^64-1: variance 5");
	static const uint64_t g[] = { UINT64_MAX - 100, UINT64_MAX - 50, 5, UINT64_MAX };
	CHECK_STR(var_dec(g, 4, NULL), "63802943797675961512001113345555957550",
		  "2^64-101, 2^64-51, 5, 2^64-1: variance exact");

	/* The paper's 64-bit bounds: (Σx)² and n·Σx² below 2^64 or not. */
	static const uint64_t h[] = { (1ull << 32) - 1 }, k[] = { 1ull << 32 }, m[] = { 1ull << 31, 1ull << 31 };
	var_dec(h, 1, &p64);
	CHECK_EQ_U64(p64, 0, "{2^32-1}: (Σx)² < 2^64, the paper's var_calc fits");
	var_dec(k, 1, &p64);
	CHECK_EQ_U64(p64, 1, "{2^32}: (Σx)² = 2^64, the paper's var_calc overflows");
	var_dec(m, 2, &p64);
	CHECK_EQ_U64(p64, 1, "{2^31, 2^31}: n·Σx² = 2^64, the paper's var_calc overflows");
}

/* 128-bit values (the variances a summary folds in): every figure exact. */
static void test_variance_u128(void)
{
	struct acc a;
	struct wide v, mm;
	const u128 top = ~(u128)0;
	acc_init(&a);
	acc_add(&a, 0);
	acc_add(&a, top);
	CHECK(acc_variance(&a, &v, NULL) == 0, "{0, 2^128-1}: defined");
	CHECK_STR(dec(&v, 0), "28948022309329048855892746252171976963147354982949671778132708698262398304256",
		  "{0, 2^128-1}: variance (2^128-1)^2/4 floored");
	acc_init(&a);
	acc_add(&a, top);
	acc_add(&a, top);
	acc_add(&a, 0);
	CHECK(acc_variance(&a, &v, NULL) == 0 && acc_mean_milli(&a, &mm) == 0, "{2^128-1 x2, 0}: defined");
	CHECK_STR(dec(&v, 0), "25731575386070265649682441113041757300575426651510819358340185509566576270450",
		  "{2^128-1, 2^128-1, 0}: variance exact");
	CHECK_STR(dec(&mm, 1), "226854911280625642308916404954512140970000",
		  "{2^128-1, 2^128-1, 0}: mean in thousandths exact");
	CHECK(a.max == top && a.min == 0, "{2^128-1, 2^128-1, 0}: min and max");

	/* A full accumulator (n = STATS_MAX_N) takes no more: figures missing. */
	a.n = STATS_MAX_N;
	acc_add(&a, 1);
	CHECK_EQ_U64(a.full, 1, "value after STATS_MAX_N: full");
	CHECK_EQ_U64(a.n, STATS_MAX_N, "value after STATS_MAX_N: not counted");
	CHECK(acc_variance(&a, &v, NULL) == -1, "full: no variance");
	CHECK(acc_mean_milli(&a, &mm) == -1, "full: no mean");
}

static void test_mean(void)
{
	struct acc a;
	struct wide m;
	acc_init(&a);
	CHECK(acc_mean_milli(&a, &m) == -1, "no values: no mean");
	acc_add(&a, 1);
	acc_add(&a, 2);
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {1,2}: defined");
	CHECK_STR(dec(&m, 0), "1500", "mean of {1,2}: 1.500");
	acc_add(&a, 2); /* 5000/3 = 1666.67 -> 1666 */
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {1,2,2}: defined");
	CHECK_STR(dec(&m, 0), "1666", "mean of {1,2,2}: 1666.67 floored to 1.666");

	acc_init(&a);
	acc_add(&a, 0);
	CHECK(acc_mean_milli(&a, &m) == 0, "mean of {0}: defined");
	CHECK_STR(dec(&m, 0), "0", "mean of {0}: 0");

	/* UINT64_MAX · 1000 is beyond 64 bits: exact all the same */
	acc_init(&a);
	acc_add(&a, UINT64_MAX);
	CHECK(acc_mean_milli(&a, &m) == 0, "2^64-1: its thousandths, beyond 64 bits, defined");
	CHECK_STR(dec(&m, 0), "18446744073709551615000", "2^64-1: mean in thousandths exact");
	for (int i = 0; i < 1999; i++)
		acc_add(&a, 0);
	CHECK(acc_mean_milli(&a, &m) == 0, "2^64-1 and 1999 zeros: defined");
	CHECK_STR(dec(&m, 0), "9223372036854775807", "2^64-1 and 1999 zeros: (2^64-1)/2 floored");
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
	CHECK(s.var == 5, "{5,3,9,3,7}: variance 5");
	CHECK(s.mean_milli == 5400, "{5,3,9,3,7}: mean 5.400");
	CHECK(s.sum == 27, "{5,3,9,3,7}: sum 27");
	CHECK_EQ_U64(s.error, 0, "{5,3,9,3,7}: figures there");
	CHECK_EQ_U64(s.paper64, 0, "{5,3,9,3,7}: the paper's var_calc fits 64 bits");

	/* a sample of 0 is the minimum (the paper started min at 0) */
	static const uint64_t b[] = { 7, 0, 4 };
	ensemble_compute(b, N(b), &s);
	CHECK_EQ_U64(s.min, 0, "{7,0,4}: a sample of 0 is the minimum");
	CHECK_EQ_U64(s.max, 7, "{7,0,4}: max 7");
	CHECK_EQ_U64(s.max_dev, 7, "{7,0,4}: max deviation 7");
	/* Σ 11, Σx² 65: (195 − 121)/9 = 74/9 -> 8; mean 11000/3 -> 3666 */
	CHECK(s.var == 8, "{7,0,4}: variance 74/9 floored to 8");
	CHECK(s.mean_milli == 3666, "{7,0,4}: mean 3.666");
	CHECK_EQ_U64(s.error, 0, "{7,0,4}: figures there");

	/* one sample */
	static const uint64_t c[] = { 42 };
	ensemble_compute(c, 1, &s);
	CHECK_EQ_U64(s.n, 1, "{42}: 1 sample");
	CHECK_EQ_U64(s.min, 42, "{42}: min 42");
	CHECK_EQ_U64(s.max, 42, "{42}: max 42");
	CHECK_EQ_U64(s.max_dev, 0, "{42}: max deviation 0");
	CHECK(s.var == 0, "{42}: variance 0");
	CHECK(s.mean_milli == 42000, "{42}: mean 42.000");
	CHECK(s.sum == 42, "{42}: sum 42");
	CHECK_EQ_U64(s.error, 0, "{42}: figures there");

	/* large values: every figure exact (Python: var 5, mean 2^64-1-5/3) */
	static const uint64_t d[] = { UINT64_MAX, UINT64_MAX - 5, UINT64_MAX };
	ensemble_compute(d, N(d), &s);
	CHECK_EQ_U64(s.error, 0, "values near 2^64: figures there");
	CHECK(s.var == 5, "values near 2^64: variance 5");
	CHECK(s.mean_milli == (u128)UINT64_MAX * 1000 - 1667, "values near 2^64: mean 18446744073709551613.333");
	CHECK_EQ_U64(s.paper64, 1, "values near 2^64: the paper's var_calc would overflow");
	CHECK_EQ_U64(s.max, UINT64_MAX, "values near 2^64: max exact");
}

/* An ensemble whose Σx² needs more than 128 bits: every figure exact
 * (Python's integers), none lost. */
static void test_huge_ensemble(void)
{
	struct ensemble_stats s;
	static const uint64_t a[] = { UINT64_MAX - 100, UINT64_MAX - 50, 5, UINT64_MAX };
	ensemble_compute(a, N(a), &s);
	CHECK_EQ_U64(s.error, 0, "Σx² beyond 128 bits: figures there");
	CHECK_EQ_U64(s.n, 4, "Σx² beyond 128 bits: n counts every sample");
	CHECK_EQ_U64(s.min, 5, "Σx² beyond 128 bits: min exact");
	CHECK_EQ_U64(s.max, UINT64_MAX, "Σx² beyond 128 bits: max exact");
	CHECK_EQ_U64(s.max_dev, UINT64_MAX - 5, "Σx² beyond 128 bits: max deviation exact");
	CHECK(s.sum == (u128)(UINT64_MAX - 100) + (UINT64_MAX - 50) + 5 + UINT64_MAX,
	      "Σx² beyond 128 bits: sum exact");
	struct wide v = wide_from_u128(s.var), m = wide_from_u128(s.mean_milli);
	CHECK_STR(dec(&v, 0), "63802943797675961512001113345555957550", "Σx² beyond 128 bits: variance exact");
	CHECK_STR(dec(&m, 1), "13835058055282163675000", "Σx² beyond 128 bits: mean in thousandths exact");
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
		CHECK(s.var == vars[i], "ensemble E%d's variance", i + 1);
		summary_add(&ps, &s);
	}
	memset(&r, 0xA5, sizeof r);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.ensembles, 4, "E1-E4: 4 ensembles");
	CHECK_EQ_U64(r.spurious, 2, "E1-E4: E2 and E4 below their predecessors, 2 spurious");
	CHECK_STR(dec(&r.total_variance, 0), "15", "E1-E4: total variance 63/4 floored to 15");
	CHECK_EQ_U64(r.total_variance_ok, 1, "E1-E4: total variance valid");
	CHECK_EQ_U64(r.max_dev_all, 17, "E1-E4: max deviation of all, E4's 17");
	CHECK_STR(dec(&r.var_of_vars, 0), "491", "E1-E4: variance of variances 7859/16 floored to 491");
	CHECK_EQ_U64(r.var_of_vars_ok, 1, "E1-E4: variance of variances valid");
	CHECK_STR(dec(&r.var_of_mins, 0), "1", "E1-E4: variance of minimums 20/16 floored to 1");
	CHECK_EQ_U64(r.var_of_mins_ok, 1, "E1-E4: variance of minimums valid");
	CHECK_EQ_U64(r.min_of_mins, 3, "E1-E4: least minimum 3");
	CHECK_EQ_U64(r.max_of_mins, 6, "E1-E4: greatest minimum 6");
	CHECK_EQ_U64(r.errors, 0, "E1-E4: no ensemble without statistics");
	CHECK_EQ_U64(r.paper64, 0, "E1-E4: the paper's 64-bit code fits");

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
		CHECK_EQ_U64(wide_bits(&r.total_variance), 0, "minimums sequence %d: total variance 0", (int)q);
	}

	/* no ensembles: nothing is valid */
	summary_init(&ps);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.ensembles, 0, "no ensembles: none counted");
	CHECK_EQ_U64(r.spurious, 0, "no ensembles: none spurious");
	CHECK_EQ_U64(r.total_variance_ok, 0, "no ensembles: total variance not valid");
	CHECK_EQ_U64(r.var_of_vars_ok, 0, "no ensembles: variance of variances not valid");
	CHECK_EQ_U64(r.var_of_mins_ok, 0, "no ensembles: variance of minimums not valid");

	/* an ensemble with no samples is an error, left out of every figure */
	summary_init(&ps);
	static const uint64_t good[] = { 10, 14 }; /* var (2·296 − 576)/4 = 4 */
	struct ensemble_stats s;
	ensemble_compute(good, 2, &s);
	summary_add(&ps, &s);
	ensemble_compute(good, 0, &s);
	CHECK_EQ_U64(s.error, 1, "no samples: an error");
	summary_add(&ps, &s);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.errors, 1, "the ensemble without samples counted as an error");
	CHECK_EQ_U64(r.ensembles, 1, "only the ensemble with samples counted");
	CHECK_STR(dec(&r.total_variance, 0), "4", "total variance of the ensemble with samples");

	/* Variances beyond 64 bits and their variance beyond 128 bits: the
	 * ensembles {0, 2^63} (variance 2^124) and {5, 5} (0), the figures
	 * from Python's integers. Every figure exact; the paper's 64-bit code
	 * would have overflowed on each. */
	static const uint64_t big[] = { 0, 1ull << 63 }, flat[] = { 5, 5 };
	summary_init(&ps);
	ensemble_compute(big, 2, &s);
	summary_add(&ps, &s);
	ensemble_compute(flat, 2, &s);
	summary_add(&ps, &s);
	summary_finish(&ps, &r);
	CHECK_EQ_U64(r.errors, 0, "variances beyond 64 bits: no error");
	CHECK_STR(dec(&r.total_variance, 0), "10633823966279326983230456482242756608",
		  "variances 2^124 and 0: total variance 2^123");
	CHECK_STR(dec(&r.var_of_vars, 0), "113078212145816597093331040047546785012958969400039613319782796882727665664",
		  "variances 2^124 and 0: variance of variances 2^246, beyond 128 bits");
	CHECK_STR(dec(&r.var_of_mins, 0), "6", "minimums 0 and 5: variance of minimums 25/4 floored");
	CHECK_EQ_U64(r.var_of_vars_ok && r.var_of_mins_ok && r.total_variance_ok, 1,
		     "variances beyond 64 bits: every figure there");
	CHECK_EQ_U64(r.paper64, PAPER64_TOTAL_VARIANCE | PAPER64_VAR_OF_VARS,
		     "variances beyond 64 bits: the paper's tot_var and var_calc of variances overflow, "
		     "not its var_calc of minimums 0 and 5");
}

/* 200 random ensembles against the 128-bit reference where it can
 * compute (spreads below 2^32), then the summary of them. */
static void test_random(void)
{
	static uint64_t x[600];
	u128 vars[200];
	uint64_t mins[200], devs[200];
	int bad = 0;
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
		u128 rv = 0, rm = 0, sum = 0;
		uint64_t mn = UINT64_MAX, mx = 0;
		for (uint64_t i = 0; i < n; i++) {
			mn = x[i] < mn ? x[i] : mn;
			mx = x[i] > mx ? x[i] : mx;
			sum += x[i];
		}
		int ok = ref_var(x, n, &rv, &rm) == 0;
		int exact = s.n == n && s.min == mn && s.max == mx && s.max_dev == mx - mn && s.sum == sum;
		if ((s.error || !exact || (ok && (s.var != rv || s.mean_milli != rm))) && bad++ < 5)
			printf("  ensemble %d (n %llu): var %llu ref %llu, error %d\n", e,
			       (unsigned long long)n, (unsigned long long)s.var,
			       (unsigned long long)rv, s.error);
		summary_add(&ps, &s);
		mins[e] = mn;
		devs[e] = mx - mn;
		vars[e] = s.var;
	}
	CHECK_EQ_U64(bad, 0, "200 random ensembles: exact, and as the 128-bit reference where it computes");

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
	CHECK_EQ_U64(r.errors, 0, "random: no ensemble without figures");
	CHECK_EQ_U64(r.spurious, spurious, "random: spurious ensembles");
	CHECK_EQ_U64(r.max_dev_all, maxdev, "random: max deviation of all");
	CHECK_EQ_U64(r.min_of_mins, mnmin, "random: least minimum");
	CHECK_EQ_U64(r.max_of_mins, mxmin, "random: greatest minimum");
	u128 vsum = 0;
	for (int i = 0; i < 200; i++)
		vsum += vars[i]; /* each below 2^64 */
	struct wide tv = wide_from_u128(vsum / 200);
	CHECK_EQ_U64(r.total_variance_ok, 1, "random: total variance there");
	CHECK_EQ_U64(wide_cmp(&r.total_variance, &tv), 0, "random: total variance is the mean of the variances");
	u128 vm = 0, dummy;
	CHECK_EQ_U64(r.var_of_mins_ok, 1, "random: variance of minimums there");
	if (ref_var(mins, 200, &vm, &dummy) == 0) {
		struct wide w = wide_from_u128(vm);
		CHECK_EQ_U64(wide_cmp(&r.var_of_mins, &w), 0, "random: variance of minimums");
	}
	CHECK_EQ_U64(r.var_of_vars_ok, 1, "random: variance of variances there");
}

/* Random samples of every magnitude (up to 2^64 - 1), so that the
 * variances, their total and their variance go far beyond 64 and 128
 * bits: 16 ensembles from xorshift64 (seed 0x2545F4914F6CDD1D, the step of
 * next() above), each n = 1 + r % 64 samples r >> (r' % 64). The figures
 * were computed by Python's integers with the same generator:
 *   var = (n*sum(x*x) - sum(x)**2) // n**2, total = sum(vars) // len(vars) */
static void test_random_python(void)
{
	static const char *const want_vars[16] = {
		"1653280382545294034", "99401315654228", "94872796795", "355496399366446997433968", "0",
		"159305505317859", "1727293428356248689", "6096576148562", "1461989779262549393439",
		"1176336022", "17934751401977290", "21504346", "119398391064215389787657295032",
		"1549587339181062755839232309", "1385140892", "27363040112383320676581",
	};
	uint64_t saved = rng;
	static uint64_t x[64];
	struct paper_summary ps;
	struct summary_result r;
	int bad = 0;
	rng = 0x2545F4914F6CDD1Dull;
	summary_init(&ps);
	for (int e = 0; e < 16; e++) {
		uint64_t n = 1 + next() % 64;
		int shift = (int)(next() % 64);
		for (uint64_t i = 0; i < n; i++)
			x[i] = next() >> shift;
		struct ensemble_stats s;
		ensemble_compute(x, n, &s);
		struct wide v = wide_from_u128(s.var);
		if (strcmp(dec(&v, 0), want_vars[e]) && bad++ < 5)
			printf("  ensemble %d: variance %s, Python's %s\n", e, dec(&v, 0), want_vars[e]);
		summary_add(&ps, &s);
	}
	rng = saved;
	summary_finish(&ps, &r);
	CHECK_EQ_U64(bad, 0, "16 random ensembles of every magnitude: the variances Python computes");
	CHECK_STR(dec(&r.total_variance, 0), "7559272670514030256220028127",
		  "random of every magnitude: total variance, beyond 64 bits");
	CHECK_STR(dec(&r.var_of_vars, 0), "834005959803581446969155987591347474338293747749286536234",
		  "random of every magnitude: variance of variances, beyond 128 bits");
	CHECK_STR(dec(&r.var_of_mins, 0), "44613579932881812540395009",
		  "random of every magnitude: variance of minimums, beyond 64 bits");
	CHECK_EQ_U64(r.paper64, PAPER64_TOTAL_VARIANCE | PAPER64_VAR_OF_VARS | PAPER64_VAR_OF_MINS,
		     "random of every magnitude: the paper's 64-bit code overflows on all three");
}

/* The same against the reference for smaller, realistic tick counts
 * (hundreds to thousands with rare outliers). */
static void test_random_ticks(void)
{
	static uint64_t x[2000];
	int bad = 0;
	for (int e = 0; e < 200; e++) {
		uint64_t n = 1 + next() % 2000;
		for (uint64_t i = 0; i < n; i++)
			x[i] = 200 + next() % 40 + (next() % 100 == 0 ? next() % 100000 : 0);
		struct ensemble_stats s;
		u128 rv = 0, rm = 0;
		ensemble_compute(x, n, &s);
		CHECK(ref_var(x, n, &rv, &rm) == 0, "realistic ticks: the reference computes");
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
	test_variance_u128();
	test_mean();
	test_div();
	test_ensemble();
	test_huge_ensemble();
	test_summary();
	test_random();
	test_random_python();
	test_random_ticks();
	return check_summary("test_stats");
}

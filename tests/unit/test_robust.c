/* tests/unit/test_robust.c - lib/robust.c against a sorted reference:
 * selection, nearest-rank quantiles, Tukey outliers (brute force in
 * doubles), the median confidence ranks, integer square roots. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/robust.h"

#include "xorshift.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* robust_compute on a[0..n-1] against sorting; what names the values. */
static void check_against_sort(uint64_t *a, uint64_t n, const char *what)
{
	uint64_t *sorted = malloc(n * sizeof *sorted), *work = malloc(n * sizeof *work);
	memcpy(sorted, a, n * sizeof *a);
	memcpy(work, a, n * sizeof *a);
	qsort(sorted, n, sizeof *sorted, cmp);

	struct robust_stats r;
	robust_compute(work, n, &r);
	/* nearest rank: ceil(p n)-th smallest */
	uint64_t i1 = (n + 99) / 100, i25 = (n + 3) / 4, i50 = (n + 1) / 2,
		 i75 = (3 * n + 3) / 4, i99 = (99 * n + 99) / 100;
	CHECK_EQ_U64(r.p1, sorted[i1 - 1],
	             "%s, %d values: 1st percentile is the ceil(n/100)-th smallest", what, (int)n);
	CHECK_EQ_U64(r.q1, sorted[i25 - 1],
	             "%s, %d values: Q1 is the ceil(n/4)-th smallest", what, (int)n);
	CHECK_EQ_U64(r.median, sorted[i50 - 1],
	             "%s, %d values: median is the ceil(n/2)-th smallest", what, (int)n);
	CHECK_EQ_U64(r.q3, sorted[i75 - 1],
	             "%s, %d values: Q3 is the ceil(3n/4)-th smallest", what, (int)n);
	CHECK_EQ_U64(r.p99, sorted[i99 - 1],
	             "%s, %d values: 99th percentile is the ceil(99n/100)-th smallest", what, (int)n);
	CHECK_EQ_U64(r.iqr, r.q3 - r.q1, "%s, %d values: IQR = Q3 - Q1", what, (int)n);
	uint64_t lo, hi;
	median_ci_ranks(n, &lo, &hi);
	CHECK_EQ_U64(r.ci_low, sorted[lo],
	             "%s, %d values: median CI low at median_ci_ranks' lo", what, (int)n);
	CHECK_EQ_U64(r.ci_high, sorted[hi],
	             "%s, %d values: median CI high at median_ci_ranks' hi", what, (int)n);
	CHECK(r.ci_low <= r.median && r.median <= r.ci_high,
	      "%s, %d values: the median CI contains the median", what, (int)n);

	uint64_t o15 = 0, o3 = 0;
	for (uint64_t i = 0; i < n; i++) {
		double x = (double)a[i], q1 = (double)r.q1, q3 = (double)r.q3, iqr = q3 - q1;
		o15 += x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr;
		o3 += x < q1 - 3 * iqr || x > q3 + 3 * iqr;
	}
	CHECK_EQ_U64(r.outliers_1_5, o15,
	             "%s, %d values: outliers beyond the 1.5 IQR Tukey fences", what, (int)n);
	CHECK_EQ_U64(r.outliers_3, o3,
	             "%s, %d values: outliers beyond the 3 IQR fences", what, (int)n);

	/* the work array is a permutation of the input */
	qsort(work, n, sizeof *work, cmp);
	CHECK(memcmp(work, sorted, n * sizeof *work) == 0,
	      "%s, %d values: the work array is a permutation of the input", what, (int)n);
	free(sorted);
	free(work);
}

int main(void)
{
	uint64_t a[5000];

	/* select_kth on every k of a small shuffled array with duplicates */
	for (uint64_t n = 1; n <= 40; n++) {
		for (uint64_t k = 0; k < n; k++) {
			uint64_t b[40], s[40];
			for (uint64_t i = 0; i < n; i++)
				b[i] = s[i] = next() % 7;
			qsort(s, n, sizeof *s, cmp);
			CHECK_EQ_U64(select_kth(b, n, k), s[k],
			             "select_kth(%d values, k %d): the (k+1)-th smallest", (int)n, (int)k);
			for (uint64_t i = 0; i < k; i++)
				CHECK(b[i] <= b[k], "select_kth(%d values, k %d): a[%d] <= a[k]", (int)n,
				      (int)k, (int)i);
			for (uint64_t i = k + 1; i < n; i++)
				CHECK(b[i] >= b[k], "select_kth(%d values, k %d): a[%d] >= a[k]", (int)n,
				      (int)k, (int)i);
		}
	}

	/* rank_of */
	CHECK_EQ_U64(rank_of(1, 1, 2), 0, "nearest-rank p = 1/2 of 1 value: index 0");
	CHECK_EQ_U64(rank_of(4, 1, 2), 1, "nearest-rank p = 1/2 of 4 values: index 1");
	CHECK_EQ_U64(rank_of(5, 1, 2), 2, "nearest-rank p = 1/2 of 5 values: index 2");
	CHECK_EQ_U64(rank_of(100, 99, 100), 98, "nearest-rank p = 99/100 of 100 values: index 98");
	CHECK_EQ_U64(rank_of(101, 99, 100), 99, "nearest-rank p = 99/100 of 101 values: index 99");
	CHECK_EQ_U64(rank_of(10, 1, 100), 0,
	             "nearest-rank p = 1/100 of 10 values: index 0, not below");

	/* robust_compute against sorting: sizes, distributions, ties */
	uint64_t sizes[] = { 1, 2, 3, 5, 6, 7, 10, 99, 100, 101, 1000, 4999, 5000 };
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		uint64_t n = sizes[s];
		for (uint64_t i = 0; i < n; i++)
			a[i] = 40 + next() % 5;               /* a benchmark's typical spread */
		for (uint64_t i = 0; i < n / 50; i++)
			a[next() % n] = 200 + next() % 10000; /* spurious slow samples */
		check_against_sort(a, n, "typical spread, slow outliers");
		for (uint64_t i = 0; i < n; i++)
			a[i] = next();                        /* full 64-bit range */
		check_against_sort(a, n, "full 64-bit range");
		for (uint64_t i = 0; i < n; i++)
			a[i] = 7;                             /* all equal */
		check_against_sort(a, n, "all equal");
		for (uint64_t i = 0; i < n; i++)
			a[i] = n - i;                         /* descending */
		check_against_sort(a, n, "descending");
	}

	/* a hand-made case: 1..9 and one far outlier */
	uint64_t h[10] = { 5, 3, 1000, 2, 4, 1, 6, 8, 7, 9 };
	struct robust_stats r;
	robust_compute(h, 10, &r);
	CHECK_EQ_U64(r.median, 5, "1..9 and 1000: median is the 5th smallest");
	CHECK_EQ_U64(r.q1, 3, "1..9 and 1000: Q1 is the ceil(2.5) = 3rd smallest");
	CHECK_EQ_U64(r.q3, 8, "1..9 and 1000: Q3 is the ceil(7.5) = 8th smallest");
	CHECK_EQ_U64(r.outliers_1_5, 1, "1..9 and 1000: 1000 beyond the 1.5 IQR fence");
	CHECK_EQ_U64(r.outliers_3, 1, "1..9 and 1000: 1000 beyond the 3 IQR fence");

	/* median_ci_ranks: the exact binomial ranks, worked out with Python's
	 * integers (largest k with 40·sum_{i<=k} C(n,i) <= 2^n): n = 100 gives
	 * 1-based ranks 40..61, symmetric about x(50.5); n = 101 gives 41..61,
	 * symmetric about x(51) (the normal approximation n/2 -+ 0.98·sqrt(n)
	 * gave 40..61 there, 11 ranks below the median and 10 above). */
	static const uint64_t ci[][3] = {
		{ 6, 0, 5 }, { 7, 0, 6 }, { 8, 0, 7 }, { 9, 1, 7 }, { 10, 1, 8 }, { 11, 1, 9 },
		{ 20, 5, 14 }, { 99, 39, 59 }, { 100, 39, 60 }, { 101, 40, 60 },
		{ 1000, 468, 531 }, { 1001, 469, 531 }, { 4999, 2429, 2569 }, { 5000, 2430, 2569 },
		{ 100000, 49689, 50310 }, { 100001, 49690, 50310 }, { 1000000, 499019, 500980 },
	};
	uint64_t lo, hi;
	for (unsigned i = 0; i < sizeof ci / sizeof ci[0]; i++) {
		median_ci_ranks(ci[i][0], &lo, &hi);
		CHECK_EQ_U64(lo, ci[i][1],
		             "median CI of %d values: exact binomial low rank", (int)ci[i][0]);
		CHECK_EQ_U64(hi, ci[i][2],
		             "median CI of %d values: exact binomial high rank", (int)ci[i][0]);
	}
	for (uint64_t n = 0; n <= 5; n++) { /* too few for 95 %: the whole range */
		median_ci_ranks(n, &lo, &hi);
		CHECK_EQ_U64(lo, 0,
		             "median CI of %d values (too few for 95%%): from the smallest", (int)n);
		CHECK_EQ_U64(hi, n ? n - 1 : 0,
		             "median CI of %d values (too few for 95%%): to the largest", (int)n);
	}
	/* Every n up to 3000 against the binomial in long double: symmetric
	 * about the median, P(X <= lo) <= 2.5 % < P(X <= lo + 1). */
	for (uint64_t n = 6; n <= 3000; n++) {
		median_ci_ranks(n, &lo, &hi);
		CHECK_EQ_U64(lo + hi, n - 1,
		             "median CI of %d values: symmetric about the median", (int)n);
		long double cdf = 0, next = 0;
		for (uint64_t k = 0; k <= lo + 1; k++) {
			long double p = expl(lgammal((long double)n + 1) - lgammal((long double)k + 1) -
					     lgammal((long double)(n - k) + 1) - (long double)n * logl(2));
			if (k <= lo)
				cdf += p;
			next += p;
		}
		CHECK(cdf <= 0.025L && next > 0.025L,
		      "median CI of %d values: P(X <= lo) <= 2.5%% < P(X <= lo + 1)", (int)n);
	}
	/* The odd case of the issue: n = 101 values 1..101 give the CI
	 * x(41)..x(61) = 41..61, 10 either side of the median 51. */
	for (uint64_t i = 0; i < 101; i++)
		a[i] = 101 - i;
	robust_compute(a, 101, &r);
	CHECK_EQ_U64(r.median, 51, "1..101: median 51");
	CHECK_EQ_U64(r.ci_low, 41, "1..101: median CI from x(41)");
	CHECK_EQ_U64(r.ci_high, 61, "1..101: median CI to x(61)");

	/* sort_u64 against qsort: sizes 0..300, duplicates, extremes. */
	for (uint64_t n = 0; n <= 300; n++) {
		uint64_t b[300], s[300];
		for (uint64_t i = 0; i < n; i++)
			b[i] = s[i] = i % 3 ? next() % 17 : next();
		if (n > 2) {
			b[0] = s[0] = UINT64_MAX;
			b[1] = s[1] = 0;
		}
		qsort(s, n, sizeof *s, cmp);
		sort_u64(b, n);
		CHECK(n == 0 || memcmp(b, s, n * sizeof *b) == 0,
		      "sort_u64 of %d values matches qsort", (int)n);
	}

	/* isqrt and stddev */
	CHECK_EQ_U64(isqrt_u128(0), 0, "isqrt(0)");
	CHECK_EQ_U64(isqrt_u128(1), 1, "isqrt(1)");
	CHECK_EQ_U64(isqrt_u128(15), 3, "isqrt(15) rounds down");
	CHECK_EQ_U64(isqrt_u128(16), 4, "isqrt(16), a perfect square");
	CHECK_EQ_U64(isqrt_u128((u128)UINT64_MAX * UINT64_MAX), UINT64_MAX,
	             "isqrt((2^64-1)^2), the largest square");
	for (int i = 0; i < 10000; i++) {
		u128 x = ((u128)next() << 64 | next()) >> (next() % 128);
		uint64_t s = isqrt_u128(x);
		CHECK((u128)s * s <= x && ((u128)s + 1) * ((u128)s + 1) > x,
		      "isqrt of a random 128-bit value: s^2 <= x < (s+1)^2");
	}
	CHECK_EQ_U64(stddev_milli(2), 1414, "stddev of variance 2: the paper's 1.414");
	CHECK_EQ_U64(stddev_milli(48), 6928, "stddev of variance 48: the paper's 6.9");
	CHECK_EQ_U64(stddev_milli(0), 0, "stddev of variance 0");
	CHECK_EQ_U64(stddev_milli(UINT64_MAX), (uint64_t)(sqrtl((long double)UINT64_MAX) * 1000),
	             "stddev of variance 2^64-1");
	/* Variances beyond 64 bits (an ensemble's is below 2^126), on both
	 * sides of the fast path's 2^108; Python: math.isqrt(v * 10**6). */
	CHECK(stddev_milli((u128)1 << 124) == (u128)4611686018427387904ull * 1000,
	      "stddev of variance 2^124: 2^62 x 1000");
	CHECK(stddev_milli(((u128)1 << 126) - 1) == (u128)9223372036854775807ull * 1000 + 999,
	      "stddev of variance 2^126-1: 9223372036854775807.999");
	CHECK(stddev_milli((u128)1 << 108) == (u128)18014398509481984000ull,
	      "stddev of variance 2^108: 2^54 x 1000");
	CHECK(stddev_milli(((u128)1 << 108) - 1) == (u128)18014398509481983999ull,
	      "stddev of variance 2^108-1: just below 2^54 x 1000");
	u128 e36 = (u128)1000000000000000000ull * 1000000000000000000ull + 12345;
	CHECK(stddev_milli(e36) == (u128)1000000000000000000ull * 1000,
	      "stddev of variance 10^36 + 12345: 10^18 x 1000");
	int bad = 0;
	for (int i = 0; i < 2000; i++) {
		u128 v = ((u128)next() << 64 | next()) >> (2 + next() % 100);
		u128 m = stddev_milli(v);
		/* m = isqrt(v·10^6): m² <= v·10^6 < (m+1)² where v·10^6 fits
		 * 128 bits; beyond, at least its integer part is isqrt(v) */
		if (v >> 108 == 0)
			bad += !(m * m <= v * 1000000u && (m + 1) * (m + 1) > v * 1000000u);
		else
			bad += m / 1000 != isqrt_u128(v);
	}
	CHECK_EQ_U64(bad, 0, "2000 random variances: stddev_milli is isqrt(v x 10^6)");

	return check_summary("test_robust");
}

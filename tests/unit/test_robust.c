/* tests/unit/test_robust.c - lib/robust.c against a sorted reference:
 * selection, nearest-rank quantiles, Tukey outliers (brute force in
 * doubles), the median confidence ranks, integer square roots. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/robust.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void check_against_sort(uint64_t *a, uint64_t n)
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
	CHECK_EQ_U64(r.p1, sorted[i1 - 1]);
	CHECK_EQ_U64(r.q1, sorted[i25 - 1]);
	CHECK_EQ_U64(r.median, sorted[i50 - 1]);
	CHECK_EQ_U64(r.q3, sorted[i75 - 1]);
	CHECK_EQ_U64(r.p99, sorted[i99 - 1]);
	CHECK_EQ_U64(r.iqr, r.q3 - r.q1);
	uint64_t lo, hi;
	median_ci_ranks(n, &lo, &hi);
	CHECK_EQ_U64(r.ci_low, sorted[lo]);
	CHECK_EQ_U64(r.ci_high, sorted[hi]);
	CHECK(r.ci_low <= r.median && r.median <= r.ci_high);

	uint64_t o15 = 0, o3 = 0;
	for (uint64_t i = 0; i < n; i++) {
		double x = (double)a[i], q1 = (double)r.q1, q3 = (double)r.q3, iqr = q3 - q1;
		o15 += x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr;
		o3 += x < q1 - 3 * iqr || x > q3 + 3 * iqr;
	}
	CHECK_EQ_U64(r.outliers_1_5, o15);
	CHECK_EQ_U64(r.outliers_3, o3);

	/* the work array is a permutation of the input */
	qsort(work, n, sizeof *work, cmp);
	CHECK(memcmp(work, sorted, n * sizeof *work) == 0);
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
			CHECK_EQ_U64(select_kth(b, n, k), s[k]);
			for (uint64_t i = 0; i < k; i++)
				CHECK(b[i] <= b[k]);
			for (uint64_t i = k + 1; i < n; i++)
				CHECK(b[i] >= b[k]);
		}
	}

	/* rank_of */
	CHECK_EQ_U64(rank_of(1, 1, 2), 0);
	CHECK_EQ_U64(rank_of(4, 1, 2), 1);
	CHECK_EQ_U64(rank_of(5, 1, 2), 2);
	CHECK_EQ_U64(rank_of(100, 99, 100), 98);
	CHECK_EQ_U64(rank_of(101, 99, 100), 99);
	CHECK_EQ_U64(rank_of(10, 1, 100), 0);

	/* robust_compute against sorting: sizes, distributions, ties */
	uint64_t sizes[] = { 1, 2, 3, 5, 6, 7, 10, 99, 100, 101, 1000, 4999, 5000 };
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		uint64_t n = sizes[s];
		for (uint64_t i = 0; i < n; i++)
			a[i] = 40 + next() % 5;               /* a benchmark's typical spread */
		for (uint64_t i = 0; i < n / 50; i++)
			a[next() % n] = 200 + next() % 10000; /* spurious slow samples */
		check_against_sort(a, n);
		for (uint64_t i = 0; i < n; i++)
			a[i] = next();                        /* full 64-bit range */
		check_against_sort(a, n);
		for (uint64_t i = 0; i < n; i++)
			a[i] = 7;                             /* all equal */
		check_against_sort(a, n);
		for (uint64_t i = 0; i < n; i++)
			a[i] = n - i;                         /* descending */
		check_against_sort(a, n);
	}

	/* a hand-made case: 1..9 and one far outlier */
	uint64_t h[10] = { 5, 3, 1000, 2, 4, 1, 6, 8, 7, 9 };
	struct robust_stats r;
	robust_compute(h, 10, &r);
	CHECK_EQ_U64(r.median, 5); /* 5th smallest of 1..9,1000 */
	CHECK_EQ_U64(r.q1, 3);     /* ceil(2.5) = 3rd */
	CHECK_EQ_U64(r.q3, 8);     /* ceil(7.5) = 8th */
	CHECK_EQ_U64(r.outliers_1_5, 1);
	CHECK_EQ_U64(r.outliers_3, 1);

	/* median_ci_ranks: n = 100: d = ceil(0.98*10) = 10: ranks 40..61 (1-based) */
	uint64_t lo, hi;
	median_ci_ranks(100, &lo, &hi);
	CHECK_EQ_U64(lo, 39);
	CHECK_EQ_U64(hi, 60);
	median_ci_ranks(5, &lo, &hi);
	CHECK_EQ_U64(lo, 0);
	CHECK_EQ_U64(hi, 4);
	median_ci_ranks(100000, &lo, &hi); /* d = ceil(0.98*316.22) = 310 */
	CHECK_EQ_U64(lo, 50000 - 310 - 1);
	CHECK_EQ_U64(hi, 50000 + 1 + 310 - 1);

	/* isqrt and stddev */
	CHECK_EQ_U64(isqrt_u128(0), 0);
	CHECK_EQ_U64(isqrt_u128(1), 1);
	CHECK_EQ_U64(isqrt_u128(15), 3);
	CHECK_EQ_U64(isqrt_u128(16), 4);
	CHECK_EQ_U64(isqrt_u128((u128)UINT64_MAX * UINT64_MAX), UINT64_MAX);
	for (int i = 0; i < 10000; i++) {
		u128 x = ((u128)next() << 64 | next()) >> (next() % 128);
		uint64_t s = isqrt_u128(x);
		CHECK((u128)s * s <= x && ((u128)s + 1) * ((u128)s + 1) > x);
	}
	CHECK_EQ_U64(stddev_milli(2), 1414); /* the paper's 1,414 */
	CHECK_EQ_U64(stddev_milli(48), 6928); /* the paper's 6.9 */
	CHECK_EQ_U64(stddev_milli(0), 0);
	CHECK_EQ_U64(stddev_milli(UINT64_MAX), (uint64_t)(sqrtl((long double)UINT64_MAX) * 1000));

	return check_summary("test_robust");
}

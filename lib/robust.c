/* lib/robust.c - see robust.h. */
#include "robust.h"

static void swap(uint64_t *a, uint64_t i, uint64_t j)
{
	uint64_t t = a[i];
	a[i] = a[j];
	a[j] = t;
}

uint64_t select_kth(uint64_t *a, uint64_t n, uint64_t k)
{
	uint64_t lo = 0, hi = n - 1;
	while (hi > lo) {
		/* Median of three to a[lo]: a[mid] <= a[lo] <= a[hi]. */
		uint64_t mid = lo + (hi - lo) / 2;
		if (a[mid] > a[hi])
			swap(a, mid, hi);
		if (a[lo] > a[hi])
			swap(a, lo, hi);
		if (a[mid] > a[lo])
			swap(a, mid, lo);
		uint64_t pivot = a[lo];
		/* Hoare partition of [lo, hi] around pivot. */
		uint64_t i = lo, j = hi + 1;
		for (;;) {
			do
				i++;
			while (i <= hi && a[i] < pivot);
			do
				j--;
			while (a[j] > pivot);
			if (i >= j)
				break;
			swap(a, i, j);
		}
		swap(a, lo, j); /* pivot to its final place j */
		if (j == k)
			return a[k];
		if (k < j)
			hi = j - 1;
		else
			lo = j + 1;
	}
	return a[k];
}

uint64_t rank_of(uint64_t n, uint64_t num, uint64_t den)
{
	u128 r = ((u128)num * n + den - 1);
	uint64_t c = (uint64_t)u128_div_u64(r, den, 0);
	return c ? c - 1 : 0;
}

uint64_t isqrt_u128(u128 x)
{
	u128 r = 0, bit = (u128)1 << 126;
	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

uint64_t stddev_milli(uint64_t var)
{
	return isqrt_u128((u128)var * 1000000u);
}

void median_ci_ranks(uint64_t n, uint64_t *lo, uint64_t *hi)
{
	if (n < 6) {
		*lo = 0;
		*hi = n - 1;
		return;
	}
	/* d = ceil(0.98·sqrt(n)); sqrt via isqrt(n·10^4) = floor(100·sqrt(n)). */
	uint64_t s100 = isqrt_u128((u128)n * 10000u);
	uint64_t d = (98 * s100 + 9999) / 10000;
	uint64_t half = n / 2; /* 1-based rank of the lower median for even n */
	uint64_t l = half > d ? half - d : 1;      /* 1-based */
	uint64_t h = half + 1 + d <= n ? half + 1 + d : n;
	*lo = l - 1;
	*hi = h - 1;
}

/* Select the ranks in ascending order, each in the part right of the
 * previous one, so the whole costs about one selection over n. */
void robust_compute(uint64_t *a, uint64_t n, struct robust_stats *r)
{
	uint64_t ci_lo, ci_hi;
	median_ci_ranks(n, &ci_lo, &ci_hi);
	uint64_t want[7] = { rank_of(n, 1, 100), ci_lo, rank_of(n, 1, 4), rank_of(n, 1, 2),
			     rank_of(n, 3, 4), ci_hi, rank_of(n, 99, 100) };
	uint64_t got[7];
	/* Sort the 7 ranks (insertion sort), remembering where each goes. */
	int order[7] = { 0, 1, 2, 3, 4, 5, 6 };
	for (int i = 1; i < 7; i++)
		for (int j = i; j > 0 && want[order[j]] < want[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	uint64_t base = 0;
	for (int i = 0; i < 7; i++) {
		uint64_t k = want[order[i]];
		if (k < base) { /* same rank as the previous one */
			got[order[i]] = a[k];
			continue;
		}
		got[order[i]] = select_kth(a + base, n - base, k - base);
		base = k + 1;
	}
	r->p1 = got[0];
	r->ci_low = got[1];
	r->q1 = got[2];
	r->median = got[3];
	r->q3 = got[4];
	r->ci_high = got[5];
	r->p99 = got[6];
	r->iqr = r->q3 - r->q1;

	/* Tukey fences: below q1 - k·IQR or above q3 + k·IQR, k = 1.5 and 3,
	 * compared in doubled integers to keep 1.5 exact. */
	u128 lo15 = 2 * (u128)r->q1, hi15 = 2 * (u128)r->q3 + 3 * (u128)r->iqr;
	u128 lo3 = (u128)r->q1, hi3 = (u128)r->q3 + 3 * (u128)r->iqr;
	u128 d15 = 3 * (u128)r->iqr, d3 = 3 * (u128)r->iqr;
	uint64_t o15 = 0, o3 = 0;
	for (uint64_t i = 0; i < n; i++) {
		u128 x = a[i];
		if (2 * x + d15 < lo15 || 2 * x > hi15)
			o15++;
		if (x + d3 < lo3 || x > hi3)
			o3++;
	}
	r->outliers_1_5 = o15;
	r->outliers_3 = o3;
}

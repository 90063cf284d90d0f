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

/* Sift a[i] down the max-heap a[0..n-1]. */
static void sift_down(uint64_t *a, uint64_t i, uint64_t n)
{
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		swap(a, i, c);
		i = c;
	}
}

void sort_u64(uint64_t *a, uint64_t n)
{
	for (uint64_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (uint64_t end = n; end > 1; end--) {
		swap(a, 0, end - 1);
		sift_down(a, 0, end - 1);
	}
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

u128 stddev_milli(u128 var)
{
	if (var >> 108 == 0) /* var·10^6 < 2^128 */
		return isqrt_u128(var * 1000000u);
	/* sqrt(var·10^6) = 1000·sqrt(var) lies in [1000y, 1000(y+1)) with y =
	 * isqrt(var): the largest c there with c² <= var·10^6, by bisection
	 * in 320-bit arithmetic (lib/wide.h; c² < 2^148). */
	struct wide target = wide_from_u128(var), million = wide_from_u128(1000000u);
	wide_mul(&target, &target, &million);
	u128 lo = (u128)isqrt_u128(var) * 1000u, hi = lo + 999u;
	while (lo < hi) {
		u128 mid = lo + (hi - lo + 1) / 2;
		struct wide sq = wide_from_u128(mid);
		wide_mul(&sq, &sq, &sq);
		if (wide_cmp(&sq, &target) <= 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* w·i/(n-i+1): from w_i = C(n,i)/C(n,m) to w_{i-1}, in 64.64 fixed point
 * (w <= 1.0 = 2^64, so w·i < 2^128). Truncated: the same inputs always give
 * the same weights, which the two passes below rely on. */
static u128 binom_down(u128 w, uint64_t i, uint64_t n)
{
	return u128_div_u64(w * i, n - i + 1, 0);
}

void median_ci_ranks(uint64_t n, uint64_t *lo, uint64_t *hi)
{
	*lo = 0;
	*hi = n ? n - 1 : 0;
	if (n < 2)
		return;
	/* Pass 1: S = sum of w_i for i = m down to where w_i truncates to 0
	 * (about 9.4·sqrt(n) terms; what is left is below 2^-64 each). The
	 * binomial is symmetric about n/2, so the total is 2S for odd n (m =
	 * (n-1)/2 ends the lower half) and 2S - w_m for even n (m = n/2 is the
	 * centre, counted once). */
	const u128 one = (u128)1 << 64;
	uint64_t m = n / 2;
	u128 s = 0, w = one;
	for (uint64_t i = m;; i--) {
		s += w;
		if (i == 0 || (w = binom_down(w, i, n)) == 0)
			break;
	}
	u128 total = n % 2 ? 2 * s : 2 * s - one;
	/* Pass 2: T(k) = sum of w_i for i <= k, from T(m) = S down; the first
	 * k with T(k) <= total/40 (P(X <= k) <= 2.5 %) is the largest. */
	u128 t = s;
	w = one;
	for (uint64_t k = m;; k--) {
		if (40 * t <= total) {
			*lo = k;
			*hi = n - 1 - k;
			return;
		}
		t -= w;
		if (k == 0)
			return; /* P(X = 0) = 2^-n > 2.5 %: n <= 5, the whole range */
		w = binom_down(w, k, n);
	}
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

/* lib/robust.h - robust statistics beside the paper's: order statistics
 * by selection (no full sort), quartiles and percentiles, Tukey outlier
 * counts, a distribution-free confidence interval for the median, an
 * integer square root for standard deviations, and a heapsort for the few
 * figures that need every rank (lib/figures.c).
 *
 * All in exact integer arithmetic, in the unit of the samples. Quantiles use
 * the nearest-rank definition: the p-quantile of n values is the
 * ceil(p·n)-th smallest (1-based), so every reported quantile is one of the
 * samples. Never called inside a measured window.
 */
#ifndef LIB_ROBUST_H
#define LIB_ROBUST_H

#include <stdint.h>
#include "stats.h"

/* select_kth - reorder a[0..n-1] so that a[k] is the (k+1)-th smallest,
 * everything before it <= a[k] and everything after >= a[k]; returns a[k].
 * Iterative quickselect with median-of-three pivots (Hoare, "Algorithm 65:
 * FIND", CACM 1961): O(n) on average, no recursion. Requires k < n. */
uint64_t select_kth(uint64_t *a, uint64_t n, uint64_t k);

/* rank_of - the 0-based index of the nearest-rank p-quantile, p = num/den
 * (0 < num <= den): ceil(num·n/den) - 1, at least 0. n >= 1. */
uint64_t rank_of(uint64_t n, uint64_t num, uint64_t den);

/* Robust figures of one ensemble. */
struct robust_stats {
	uint64_t p1, q1, median, q3, p99; /* nearest-rank quantiles */
	uint64_t iqr;                     /* q3 - q1 */
	uint64_t outliers_1_5;            /* beyond the 1.5·IQR Tukey fences */
	uint64_t outliers_3;              /* beyond the 3·IQR fences ("far out") */
	uint64_t ci_low, ci_high;         /* ~95% CI of the median (see median_ci_ranks) */
};

/* robust_compute - the figures above for a[0..n-1], n >= 1. a is reordered
 * (partially sorted); print or dump the samples before calling this. */
void robust_compute(uint64_t *a, uint64_t n, struct robust_stats *r);

/* median_ci_ranks - 0-based ranks (lo, hi) of the order statistics that
 * bracket the median with at least 95% confidence, distribution-free, by
 * the exact binomial: lo = k and hi = n-1-k for the largest k with
 * P(X <= k) <= 2.5%, X ~ Binomial(n, 1/2) (Conover, "Practical
 * Nonparametric Statistics", 3.2: P(x(k+1) <= median <= x(n-k)) =
 * 1 - 2·P(X <= k)). Symmetric about the median for every n: n = 100 gives
 * 1-based ranks 40..61, n = 101 gives 41..61 around x(51). For n <= 5 even
 * the extremes cover less than 95%, and the interval is the whole range
 * [0, n-1] (n = 0 gives 0, 0). Computed in 64.64 fixed point from the
 * centre outwards, about 19·sqrt(n) integer divisions; no floating point. */
void median_ci_ranks(uint64_t n, uint64_t *lo, uint64_t *hi);

/* sort_u64 - sort a[0..n-1] ascending in place (heapsort: O(n log n), no
 * recursion, no allocation; Williams, CACM 7(6), 1964). */
void sort_u64(uint64_t *a, uint64_t n);

/* isqrt_u128 - floor(sqrt(x)), exact. */
uint64_t isqrt_u128(u128 x);

/* stddev_milli - the standard deviation in thousandths of the unit,
 * floor(sqrt(var)·1000) = isqrt(var·10^6), from a variance in unit²
 * below 2^128 (lib/stats.h: an ensemble's is below 2^126); exact, below
 * 2^74. */
u128 stddev_milli(u128 var);

#endif

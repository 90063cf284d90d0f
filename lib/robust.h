/* lib/robust.h - robust statistics beside the paper's: order statistics
 * by selection (no full sort), quartiles and percentiles, Tukey outlier
 * counts, a distribution-free confidence interval for the median, and an
 * integer square root for standard deviations.
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
 * bracket the median with about 95% confidence, by the normal approximation
 * to the binomial: n/2 ∓ 0.98·sqrt(n) (Conover, "Practical Nonparametric
 * Statistics", 3.2), clamped to [0, n-1]. For n < 6 the interval is the
 * whole range. */
void median_ci_ranks(uint64_t n, uint64_t *lo, uint64_t *hi);

/* isqrt_u128 - floor(sqrt(x)), exact. */
uint64_t isqrt_u128(u128 x);

/* stddev_milli - the standard deviation in thousandths of the unit,
 * floor(sqrt(var)·1000) = isqrt(var·10^6), from a variance in unit². */
uint64_t stddev_milli(uint64_t var);

#endif

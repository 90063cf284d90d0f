/* lib/stats.h - the paper's statistics, in exact integer arithmetic.
 *
 * Source: Paoloni 2010, section 3.1.1 and appendix lines 73-97 (var_calc)
 * and 139-175 (the per-ensemble loop and the summary). All values are in
 * the unit of the samples (TSC ticks, core cycles or instructions retired);
 * variances are in that unit squared, as the paper's are.
 *
 * Differences from the paper's C, each deliberate:
 *  - sums are 128-bit, so Σx² does not overflow where the paper's 64-bit
 *    var_calc did; an overflow of 128 bits is reported, never wrapped;
 *  - the minimum starts at UINT64_MAX, not 0, so a sample of 0 counts;
 *  - the summary is accumulated ensemble by ensemble, so no array of all
 *    samples (the paper's 800 MB for 1000 x 100,000) is ever held.
 */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include <stdint.h>

typedef unsigned __int128 u128;

/* Largest count an accumulator takes: n² must fit in 64 bits. */
#define STATS_MAX_N 0xFFFFFFFFull

/* A running accumulator of n values x: min, max, Σx and Σx². */
struct acc {
	uint64_t n;
	uint64_t min, max;
	u128 sum, sumsq;
	int overflow; /* Σx² or n would not fit: results are invalid */
};

void acc_init(struct acc *a);

/* acc_add - add one value. Sets a->overflow instead of wrapping when Σx²
 * would exceed 2^128 - 1 (n, Σx, min and max stay exact: only the variance
 * is lost) or n would exceed STATS_MAX_N (the value is not counted). */
void acc_add(struct acc *a, uint64_t x);

/* acc_variance - the paper's var_calc, (n·Σx² − (Σx)²) / n², floored.
 * Returns 0 and stores the variance (unit squared) in *var; returns -1
 * when a->n == 0, a->overflow is set, or an intermediate does not fit
 * 128 bits. Paper appendix lines 73-97. */
int acc_variance(const struct acc *a, uint64_t *var);

/* acc_mean_milli - the mean in thousandths of the unit, floored: Σx·1000/n.
 * Returns -1 when empty, overflowed or the result exceeds 64 bits. */
int acc_mean_milli(const struct acc *a, uint64_t *mean_milli);

/* u128_div_u64 - floor(num / den) and the remainder; den != 0. Bitwise long
 * division so that no compiler runtime (__udivti3) is needed. */
u128 u128_div_u64(u128 num, uint64_t den, uint64_t *rem);

/* Statistics of one ensemble: paper appendix lines 141-160. */
struct ensemble_stats {
	uint64_t n;
	uint64_t min, max;
	uint64_t max_dev;   /* max - min */
	uint64_t var;       /* var_calc of the samples, unit² */
	uint64_t mean_milli;
	u128 sum;
	int error;          /* nonzero: overflow, var and mean are not valid */
};

/* ensemble_compute - statistics of x[0..n-1]; n >= 1. Reads each sample
 * once; never called inside a measured window. */
void ensemble_compute(const uint64_t *x, uint64_t n, struct ensemble_stats *s);

/* The paper's summary over ensembles (appendix lines 139-175). */
struct paper_summary {
	struct acc variances;   /* var of each ensemble */
	struct acc minimums;    /* min of each ensemble */
	uint64_t spurious;      /* ensembles whose min is below the previous one */
	uint64_t max_dev_all;   /* absolute max deviation */
	uint64_t prev_min;
	uint64_t errors;        /* ensembles whose statistics overflowed */
};

void summary_init(struct paper_summary *s);

/* summary_add - fold one ensemble in, in ensemble order (spurious compares
 * with the previous ensemble's minimum, paper line 155). */
void summary_add(struct paper_summary *s, const struct ensemble_stats *e);

/* Final figures of the summary; each *_ok is 0 when its value is invalid
 * (no ensembles, or overflow). Units: as the samples; variances squared. */
struct summary_result {
	uint64_t ensembles;
	uint64_t spurious;
	uint64_t total_variance;        /* Σ variances / ensembles, floored */
	uint64_t max_dev_all;
	uint64_t var_of_vars;
	uint64_t var_of_mins;
	uint64_t min_of_mins, max_of_mins;
	int total_variance_ok, var_of_vars_ok, var_of_mins_ok;
	uint64_t errors;
};

void summary_finish(const struct paper_summary *s, struct summary_result *r);

#endif

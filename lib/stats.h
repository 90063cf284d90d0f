/* lib/stats.h - the paper's statistics, in exact integer arithmetic.
 *
 * Source: Paoloni 2010, section 3.1.1 and appendix lines 73-97 (var_calc)
 * and 139-175 (the per-ensemble loop and the summary). All values are in
 * the unit of the samples (TSC ticks, core cycles or instructions retired);
 * variances are in that unit squared, as the paper's are, the variance of
 * variances in that unit to the fourth.
 *
 * Differences from the paper's C, each deliberate:
 *  - sums and results are 320-bit (lib/wide.h), wide enough for every
 *    input (n < 2^32 values below 2^128): no figure ever overflows. Where
 *    the paper's 64-bit var_calc or tot_var would have overflowed (it
 *    printed "CRITICAL OVERFLOW ERROR" and returned -EINVAL), the figure
 *    says so in its paper64 flag, beside the true value;
 *  - the minimum starts at UINT64_MAX, not 0, so a sample of 0 counts;
 *  - the summary is accumulated ensemble by ensemble, so no array of all
 *    samples (the paper's 800 MB for 1000 x 100,000) is ever held.
 */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include <stdint.h>
#include "wide.h"

/* Largest count an accumulator takes: n² must fit in 64 bits (the
 * division of lib/wide.h), and n < 2^32 keeps every sum within 320 bits.
 * The kernel's largest run (10^6 ensembles, 10^7 samples: kernel/config.c)
 * stays far below it. */
#define STATS_MAX_N 0xFFFFFFFFull

/* A running accumulator of n values x < 2^128: min, max, Σx and Σx². */
struct acc {
	uint64_t n;
	u128 min, max;
	struct wide sum, sumsq;
	int full;  /* a value came after STATS_MAX_N: not counted, no figures */
};

void acc_init(struct acc *a);

/* acc_add - add one value x < 2^128 (a sample, or an ensemble's
 * variance). Exact for every x; when n already is STATS_MAX_N, x is not
 * counted and a->full is set. */
void acc_add(struct acc *a, u128 x);

/* acc_variance - the paper's var_calc, (n·Σx² − (Σx)²) / n², floored, in
 * the unit of the values squared; below 2^256 (at most (max-min)²/4).
 * *paper64 (may be NULL): 1 when the paper's 64-bit var_calc would have
 * overflowed on these values (n·Σx² or (Σx)² at or above 2^64, which
 * covers Σx, Σx² and every x²), else 0. Returns 0, or -1 (*var = 0) when
 * a->n == 0 or a->full: the figure is missing. Paper appendix lines
 * 73-97. */
int acc_variance(const struct acc *a, struct wide *var, int *paper64);

/* acc_mean_milli - the mean in thousandths of the unit, floored: Σx·1000/n
 * (below 2^138). Returns -1 (*mean_milli = 0) when empty or full. */
int acc_mean_milli(const struct acc *a, struct wide *mean_milli);

/* u128_div_u64 - floor(num / den) and the remainder; den != 0. Bitwise long
 * division so that no compiler runtime (__udivti3) is needed. */
u128 u128_div_u64(u128 num, uint64_t den, uint64_t *rem);

/* Statistics of one ensemble: paper appendix lines 141-160. */
struct ensemble_stats {
	uint64_t n;
	uint64_t min, max;
	uint64_t max_dev;   /* max - min */
	u128 var;           /* var_calc of the samples, unit², < 2^126 */
	u128 mean_milli;    /* the mean in thousandths of the unit, < 2^74 */
	u128 sum;
	int paper64;        /* the paper's 64-bit var_calc would have overflowed */
	int error;          /* nonzero: no samples, var and mean are not valid */
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
	uint64_t errors;        /* ensembles without statistics (no samples) */
};

void summary_init(struct paper_summary *s);

/* summary_add - fold one ensemble in, in ensemble order (spurious compares
 * with the previous ensemble's minimum, paper line 155). */
void summary_add(struct paper_summary *s, const struct ensemble_stats *e);

/* Bits of summary_result.paper64: where the paper's own 64-bit code would
 * have overflowed (its tot_var, line 161, or var_calc on the variances or
 * the minimums, lines 168-169). The true figure is given all the same. */
#define PAPER64_TOTAL_VARIANCE 1
#define PAPER64_VAR_OF_VARS 2
#define PAPER64_VAR_OF_MINS 4

/* Final figures of the summary; each *_ok is 0 only when its figure is
 * missing (no ensemble with statistics). Units: as the samples; variances
 * squared, var_of_vars to the fourth. All exact (lib/wide.h). */
struct summary_result {
	uint64_t ensembles;
	uint64_t spurious;
	struct wide total_variance;     /* Σ variances / ensembles, floored, < 2^126 */
	uint64_t max_dev_all;
	struct wide var_of_vars;        /* < 2^252 */
	struct wide var_of_mins;        /* < 2^126 */
	uint64_t min_of_mins, max_of_mins;
	int total_variance_ok, var_of_vars_ok, var_of_mins_ok;
	unsigned paper64;               /* PAPER64_* bits */
	uint64_t errors;
};

void summary_finish(const struct paper_summary *s, struct summary_result *r);

#endif

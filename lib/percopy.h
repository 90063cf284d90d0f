/* lib/percopy.h - what code='s 2N-N figure says (nanoBench's method:
 * Abel and Reineke, "nanoBench", ISPASS 2020, section III-C: run the code
 * N and 2N times and take the difference, so that what the two windows
 * share cancels). The figure is (least_2n - least_n) / copies, in the
 * unit the minimums are in; it is only as good as the minimums it is the
 * difference of, and each least minimum is known only to within two
 * things added:
 *
 * - its window's spread: the standard deviation of its ensembles' minimum
 *   values (the square root of the paper's variance of minimum values,
 *   section 4 step 2), never better than the method's own, the empty
 *   window's (the offset's spread);
 * - its clock's step s (bench/results.h struct tsc_step: the TSC's, 1 for
 *   a TSC counting single ticks; 1 for a counter of core cycles or
 *   instructions retired, which counts by one). A counter that moves in
 *   steps of s shows the count c(t) of an underlying counter of single
 *   ticks as s * floor((c(t) + phase) / s); a window is the difference of
 *   two such readings, so its reading r of a window of d ticks is
 *   s * floor(d / s) or s * ceil(d / s): a multiple of s with
 *   |r - d| < s, and |r - d| <= s - 1 as both are whole ticks. A least
 *   minimum R = min r_i of the ensembles' windows d_i, whose least is D,
 *   obeys R >= min (d_i - (s - 1)) = D - (s - 1) and R <= r_j <= D + (s -
 *   1) for the window j of D: |R - D| <= s - 1. The 2N-N difference of two
 *   least minimums is thus within 2 (s - 1) of the difference a counter of
 *   single ticks would show (0 for s = 1).
 *
 * The bound of the difference is the two spreads plus 2 (s - 1). A
 * difference inside its bound is below the method's resolution on this
 * machine, not a figure; an exact fraction is said only where the bound
 * is 0: every spread 0 and the step 1 (QEMU -icount, or a machine that
 * quiet with a TSC counting single ticks). Two methods' figures agree
 * when their intervals (figure +- bound, per copy) overlap
 * (percopy_overlap). A least minimum of 2^63 or more is a difference of
 * two counter reads that wrapped below zero (the code moved the TSC or
 * the counter back, or read it for the window): no figure at all.
 * Pure arithmetic, host-tested (tests/unit/test_percopy.c). */
#ifndef LIB_PERCOPY_H
#define LIB_PERCOPY_H

#include <stdint.h>

enum percopy_kind {
	PERCOPY_EXACT,            /* every spread 0 and the step 1: num/den is exact */
	PERCOPY_FIGURE,           /* |2N-N| beyond the bound: per copy, +- bound/copies */
	PERCOPY_BELOW_RESOLUTION, /* |2N-N| within the bound: at most (2N-N + bound)/copies */
	PERCOPY_BELOW_ZERO,       /* 2N-N below minus the bound: not a duration */
	PERCOPY_WRAPPED,          /* a least minimum >= 2^63: a wrapped difference, no figure */
};

/* The spread of one window's minimums: its variance of minimum values
 * [unit^2] when the kernel's exact arithmetic held it (ok), else the
 * range of its minimums (max_of_mins - min_of_mins) [unit]. */
struct percopy_window {
	uint64_t var_of_mins;
	int var_ok;
	uint64_t min_of_mins, max_of_mins;
};

struct percopy {
	enum percopy_kind kind;
	int neg;             /* least_2n < least_n */
	uint64_t diff;       /* |least_2n - least_n| [unit] (0 when wrapped) */
	uint64_t copies;     /* the N window's copies (>= 1) */
	uint64_t num, den;   /* diff / copies, reduced (den >= 1) */
	uint64_t milli;      /* diff / copies in thousandths, rounded half away from zero
			      * (saturates at UINT64_MAX) */
	uint64_t spread;     /* the two windows' spreads added [unit] */
	uint64_t step;       /* the clock's step [unit] (>= 1; 0 is taken as 1) */
	uint64_t bound;      /* spread + 2 (step - 1) [unit], saturating: how far the 2N-N
			      * difference may lie from the code's */
	uint64_t bound_milli; /* FIGURE: bound / copies; BELOW_RESOLUTION: at most
			       * (2N-N + bound) / copies; in thousandths, rounded up */
};

/* percopy_spread - a window's spread in its unit, rounded up: ceil(sqrt(
 * var_of_mins)), or the range of its minimums when the variance
 * overflowed; never below the empty window's (floor, same rule). */
uint64_t percopy_spread(const struct percopy_window *w, const struct percopy_window *empty);

/* percopy_compute - the figure of least minimums least_n (N copies) and
 * least_2n (2N copies), copies the N window executes (0 is taken as 1),
 * spreads spread_n and spread_2n (percopy_spread) [unit] and the clock's
 * step [unit] (1: it counts single ticks or counts; 0 is taken as 1),
 * into *p. */
void percopy_compute(uint64_t least_n, uint64_t least_2n, uint64_t copies, uint64_t spread_n,
		     uint64_t spread_2n, uint64_t step, struct percopy *p);

/* percopy_overlap - whether the intervals of a and b, (2N-N -+ bound) /
 * copies each, overlap (touching counts as overlapping): 1 when they do,
 * 0 when they do not, -1 when they cannot be compared (either wrapped, or
 * their copies differ). On 0, *low is 0 when a's interval lies below b's,
 * 1 when b's lies below a's, and *gap_milli the gap between them per copy
 * in thousandths of the unit, rounded up (so never 0). Exact: 128-bit
 * arithmetic on the differences and bounds. */
int percopy_overlap(const struct percopy *a, const struct percopy *b, int *low, uint64_t *gap_milli);

/* percopy_kind_key - "exact", "figure", "below_resolution", "below_zero",
 * "wrapped": the records' and the QR text's word. */
const char *percopy_kind_key(enum percopy_kind k);

/* percopy_milli_text - thousandths m as "I.FFF" (neg: "-I.FFF") into
 * buf[0..size-1] (size >= 24). Returns buf. */
const char *percopy_milli_text(char *buf, int size, int neg, uint64_t m);

#endif

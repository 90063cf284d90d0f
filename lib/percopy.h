/* lib/percopy.h - what code='s 2N-N figure says (nanoBench's method:
 * Abel and Reineke, "nanoBench", ISPASS 2020, section III-C: run the code
 * N and 2N times and take the difference, so that what the two windows
 * share cancels). The figure is (least_2n - least_n) / copies, in the
 * unit the minimums are in; it is only as good as the minimums it is the
 * difference of. Each least minimum is known to within its window's
 * spread: the standard deviation of its ensembles' minimum values (the
 * square root of the paper's variance of minimum values, section 4 step
 * 2), and never better than the method's own, the empty window's (the
 * offset's spread). A difference inside the sum of the two spreads is
 * below the method's resolution on this machine, not a figure; an exact
 * fraction is said only where every spread is 0 (QEMU -icount, or a
 * machine that quiet). A least minimum of 2^63 or more is a difference of
 * two counter reads that wrapped below zero (the code moved the TSC or
 * the counter back, or read it for the window): no figure at all.
 * Pure arithmetic, host-tested (tests/unit/test_percopy.c). */
#ifndef LIB_PERCOPY_H
#define LIB_PERCOPY_H

#include <stdint.h>

enum percopy_kind {
	PERCOPY_EXACT,            /* every spread 0: num/den is exact */
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
	uint64_t bound;      /* the two windows' spreads added [unit] */
	uint64_t bound_milli; /* FIGURE: bound / copies; BELOW_RESOLUTION: at most
			       * (2N-N + bound) / copies; in thousandths, rounded up */
};

/* percopy_spread - a window's spread in its unit, rounded up: ceil(sqrt(
 * var_of_mins)), or the range of its minimums when the variance
 * overflowed; never below the empty window's (floor, same rule). */
uint64_t percopy_spread(const struct percopy_window *w, const struct percopy_window *empty);

/* percopy_compute - the figure of least minimums least_n (N copies) and
 * least_2n (2N copies), copies the N window executes (0 is taken as 1),
 * spreads spread_n and spread_2n (percopy_spread) [unit], into *p. */
void percopy_compute(uint64_t least_n, uint64_t least_2n, uint64_t copies, uint64_t spread_n,
		     uint64_t spread_2n, struct percopy *p);

/* percopy_kind_key - "exact", "figure", "below_resolution", "below_zero",
 * "wrapped": the records' and the QR text's word. */
const char *percopy_kind_key(enum percopy_kind k);

/* percopy_milli_text - thousandths m as "I.FFF" (neg: "-I.FFF") into
 * buf[0..size-1] (size >= 24). Returns buf. */
const char *percopy_milli_text(char *buf, int size, int neg, uint64_t m);

#endif

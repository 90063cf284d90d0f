/* lib/figures.h - figures derived from a run's statistics, kept apart from
 * the printing so that they are host-tested (tests/unit/test_figures.c):
 * the verdict on a method (Paoloni 2010 4), the resolution test's analysis
 * (3.3.1), the core clock over the TSC's from net medians, and SMIs
 * between two reads of MSR_SMI_COUNT. Integer only; never called inside a
 * measured window.
 */
#ifndef LIB_FIGURES_H
#define LIB_FIGURES_H

#include <stdint.h>
#include "stats.h"

/* verdict_ergodic - the paper's verdict on a method from its empty
 * window's summary (Paoloni 2010 section 4, steps 1-2: a method fit for
 * benchmarking on this machine has a variance of variances and a variance
 * of minimum values of (close to) zero). Returns 1 (ergodic) when both
 * figures exist and var_of_vars <= max_var_of_vars (unit^4) and
 * var_of_mins <= max_var_of_mins (unit^2), else 0. *valid: the verdict is
 * known: 1 when both figures exist, or when one that exists is above its
 * limit (NOT ergodic whatever the other); 0 only when a figure is missing
 * (lib/stats.h: no ensemble with statistics) and the other does not
 * already fail. The figures never overflow (lib/wide.h). */
int verdict_ergodic(const struct summary_result *s, uint64_t max_var_of_vars, uint64_t max_var_of_mins,
		    int *valid);

/* What the minimums of the resolution test show (paper 3.3.1: ensemble j
 * measures measured_loop(j); the resolution is how many more loop
 * iterations it takes for the minimum to change). */
struct resolution_figures {
	uint64_t loop_sizes;      /* n: loop sizes 0..n-1 */
	int strictly_increasing;  /* every minimum above the one before (n >= 2) */
	uint64_t flat_until;      /* last loop size with the minimum of size 0 */
	uint64_t changes;         /* loop sizes whose minimum differs from the previous one */
	int found;                /* changes >= 2: gaps between changes were measured */
	uint64_t common_gap;      /* found: the most common gap between consecutive changes, in
				   * loop iterations (the smallest of equally common ones): the
				   * resolution; 0 when not found */
	uint64_t smallest_gap;    /* found: the smallest gap; 0 when not found */
	uint64_t longest_flat;    /* the most loop iterations between two loop sizes with the same
				   * minimum and no change between them: when not found, the
				   * resolution is coarser than this (0: the data bound nothing) */
	uint64_t common_step;     /* the most common rise of the minimum at a change, in the
				   * samples' unit (smallest of equals); 0 when it never rises */
};

/* resolution_analyze - the figures above from mins[0..n-1], the minimum of
 * each loop size in order. A gap is measured between two changes only: the
 * first change also holds the loop's set-up (size 0 runs no loop), so one
 * change alone gives no resolution, wherever it is; nor does a gap of any
 * size get capped. scratch[0..n-1] is overwritten (gaps, then rises, are
 * sorted there to find the most common exactly). n >= 1. */
void resolution_analyze(const uint64_t *mins, uint64_t n, uint64_t *scratch,
			struct resolution_figures *r);

/* The least net TSC median clock_ratio_milli compares: below it the integer
 * medians' rounding alone could move the ratio by more than 2 %. */
#define CLOCK_RATIO_MIN_TICKS 100u

/* clock_ratio_milli - core cycles per TSC tick, x 1000 rounded to nearest,
 * while a workload's body ran: (cyc - cyc_empty) / (tsc - tsc_empty), from
 * the medians of the ensemble medians of the workload and of the empty
 * window in core cycles (IA32_FIXED_CTR1 or APERF) and TSC ticks. The
 * counters' window holds the TSC window plus the start's CPUID and the
 * RDMSRs' latency; subtracting the empty window's medians in each unit
 * leaves the body in both, so like is compared with like. It is the core's
 * clock over the TSC's: 1.000 when the core runs at the rate the TSC counts
 * (an invariant TSC counts at the nominal, non-turbo frequency; an older
 * TSC counts core clocks and always gives 1), above 1 when the core runs
 * faster (turbo), below when slower (EIST, thermal or power limits, a
 * hypervisor's share of the core). Returns NULL with *milli set, or why
 * the figure is not given: the body took less than CLOCK_RATIO_MIN_TICKS
 * net TSC ticks, no net core cycles, or the ratio passes 64 bits. */
const char *clock_ratio_milli(uint64_t cyc, uint64_t cyc_empty, uint64_t tsc, uint64_t tsc_empty,
			      uint64_t *milli);

/* smi_delta - SMIs between two reads of MSR_SMI_COUNT (34H; bits 31:0 count
 * SMIs since reset; SDM Vol. 4, MSRs of the Intel Core i7 family and
 * later): (after - before) mod 2^32. ok_before and ok_after say whether
 * each read succeeded. Returns 0 with *smis set, or -1 with *smis = 0
 * when either read faulted: the count is unknown ("unreadable"), never
 * 0 - before. */
int smi_delta(int ok_before, uint64_t before, int ok_after, uint64_t after, uint64_t *smis);

#endif

/* bench/results.h - what a run gives and the figures derived from it: the
 * verdict on each method (paper 4 steps 1-2), its offset in each unit, the
 * net least minimum of each (method, workload), the SMIs and NMIs per
 * method, the recommendation (paper 4) and the choices the screen summary
 * makes. Computation only: no printing, no machine access, so it is
 * host-tested (tests/unit/test_results.c). bench/run.c fills a struct
 * bench_results as it measures; bench/summary.c prints it.
 *
 * One struct bench_results is one run: the selected methods and workloads
 * on one CPU. What holds for the whole boot (the TSC rate, the sample
 * buffers) is not in it (bench/run.h). */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include <stdint.h>
#include "methods.h"
#include "workload.h"
#include "../lib/codefault.h"
#include "../lib/figures.h"
#include "../lib/percopy.h"
#include "../lib/stats.h"

/* The units a sample can be in. */
enum unit { UNIT_TSC, UNIT_CYC, UNIT_INS, UNIT_COUNT };
extern const char *const unit_key[UNIT_COUNT];  /* "tsc_ticks", "core_cycles", "instructions" */
extern const char *const unit_name[UNIT_COUNT]; /* "TSC ticks", "core cycles", "instructions" */

/* What one (method, workload) run gives in one unit, beside the paper's summary. */
struct workload_result {
	struct summary_result s;
	enum unit unit;
	uint64_t offset;            /* the method's offset in this unit (empty's least minimum) */
	uint64_t offset_median;     /* the empty window's median of ensemble medians in this unit:
				     * what net_median subtracts */
	uint64_t median_of_mins;    /* median over ensembles of the ensemble minimums */
	uint64_t mins_ci_low, mins_ci_high; /* ~95% CI of that median */
	uint64_t median_of_medians; /* median over ensembles of the ensemble medians */
	uint64_t outliers_1_5, outliers_3, samples_total;
	uint64_t elapsed_ticks;
};

/* The verdict on a method from its empty-window summary (paper 4 step 2). */
struct verdict {
	enum unit unit;
	int valid;   /* the verdict is known (lib/figures.h verdict_ergodic) */
	int ergodic; /* var_of_vars and var_of_mins within the thresholds */
	int var_of_vars_ok, var_of_mins_ok; /* the figure exists (lib/stats.h) */
	struct wide var_of_vars, var_of_mins; /* unit^4, unit^2: exact (lib/wide.h) */
	uint64_t offset;
};

/* The resolution test's analysis (paper 3.3.1; lib/figures.h). */
struct resolution {
	enum unit unit;
	uint64_t spurious;
	struct resolution_figures f;
};

/* What could have disturbed an ensemble: SMIs (MSR_SMI_COUNT, Intel) and
 * NMIs (counted by kernel/trap.c) between its first and last sample. */
struct disturbance {
	int smi_ok;    /* MSR_SMI_COUNT was read before and after: smis is the count */
	uint64_t smis, nmis;
};

struct run_totals {
	int methods_run;
	int methods_skipped;
	uint64_t ensemble_errors;
	uint64_t code_faults;      /* methods under which the user's code faulted (code=) */
	int recommended;           /* enum method_id, or -1 */
	const char *recommend_why;
};

/* A method's figures the final tables show. */
struct method_row {
	int ran;
	struct workload_result r;  /* empty window, the method's own unit */
	struct verdict v;
	uint64_t smis, nmis, disturbed;
	int smi_unread;            /* an ensemble's SMIs could not be counted */
	uint64_t offset_in[UNIT_COUNT]; /* the offset in each unit measured (bit u of offset_units) */
	uint8_t offset_units;
	const char *skip_why;      /* skipped: why (method_unavailable's line), else NULL */
};

/* The row of the code= workload (bench/code.h) in the net tables, after
 * the registered workloads' rows (workload_at order). */
#define RESULTS_CODE_ROW WORKLOADS_MAX

/* Where the user's code faulted (bench/code.h code_fault_last). */
struct code_fault_at {
	uint64_t vector;           /* 0..255, or WATCHDOG_VECTOR (kernel/watchdog.h) */
	enum codefault_part part;  /* lib/codefault.h: code=, init=, a part of the loop, page 0, outside */
	uint64_t offset;           /* byte offset in that part; page 0, outside: the address */
	uint64_t copy;             /* 1-based copy of code= (CF_CODE), else 0 */
	uint64_t jump_copy;        /* 1-based copy whose relative jump lands there, 0: none known */
	uint64_t jump_byte;        /* ... and the jump's byte in code= */
	const char *halt;          /* "HLT", "MWAIT", "MWAITX": the halting instruction the
				    * watchdog's NMI ended (at offset), or NULL */
};

/* What code= gave by one method: its fault, or its 2N-N figure per unit
 * (lib/percopy.h). */
struct code_row {
	int faulted;
	struct code_fault_at fault;
	uint8_t units;             /* bit u: windows[u] kept, per_copy[u] once computed */
	uint64_t copies;           /* the N window's copies */
	struct percopy_window windows[UNIT_COUNT][3]; /* [u]: the empty, N and 2N windows */
	struct percopy per_copy[UNIT_COUNT];
};

/* One run's results. */
struct bench_results {
	struct run_totals totals;
	int smi_counted;           /* MSR_SMI_COUNT was readable when the run began */
	struct method_row rows[METHOD_COUNT];
	/* The net least minimum of each (method, workload row) in each unit
	 * measured (bit u of net_units set; the method's own unit is
	 * rows[m].r.unit), for the summary tables. */
	int64_t net_in[METHOD_COUNT][WORKLOADS_MAX + 1][UNIT_COUNT];
	uint8_t net_units[METHOD_COUNT][WORKLOADS_MAX + 1];
	const char *code_row_name; /* the name of RESULTS_CODE_ROW's workload */
	struct code_row code[METHOD_COUNT];
};

/* results_init - an empty run: no method run or skipped, no recommendation
 * (totals.recommended -1, recommend_why ""), every row and net empty. */
void results_init(struct bench_results *r);

/* results_units - the units a method measures, a bit per enum unit: core
 * cycles and instructions retired for a counter method (ctr_method), TSC
 * ticks for a TSC method, with the other two when the counters are read
 * beside it (counters_beside). */
unsigned results_units(int ctr_method, int counters_beside);

/* results_judge - the verdict on a method from its empty window's summary
 * in the method's own unit (paper 4 steps 1-2; lib/figures.h
 * verdict_ergodic): thresholds in unit^4 and unit^2. */
void results_judge(const struct workload_result *empty, uint64_t max_var_of_vars,
		   uint64_t max_var_of_mins, struct verdict *v);

/* results_keep_method - method m ran: its row holds the empty window's
 * result in its own unit (empty[primary]), its verdict v, and its offset
 * (empty's least minimum) in each unit of units (results_units). empty[]
 * is indexed by enum unit. */
void results_keep_method(struct bench_results *r, enum method_id m, enum unit primary, unsigned units,
			 const struct workload_result *empty, const struct verdict *v);

/* results_keep_nets - the net least minimum (least minimum - offset, in
 * the unit, negative when noise put the workload's below the empty
 * window's) of workload row i (0 <= i <= RESULTS_CODE_ROW) by method m in
 * each unit of units; wr[] is indexed by enum unit. */
void results_keep_nets(struct bench_results *r, enum method_id m, int i, unsigned units,
		       const struct workload_result *wr);

/* results_add_disturbance - count ensemble's SMIs and NMIs d against
 * method m (an SMI count that could not be read, where SMIs are counted,
 * marks the method's SMIs unreadable). Returns 1 when the ensemble was
 * disturbed (SMIs or NMIs), else 0. Inline: it runs after every
 * ensemble, and the run's elapsed TSC ticks count its instructions. */
static inline int results_add_disturbance(struct bench_results *r, enum method_id m, const struct disturbance *d)
{
	struct method_row *row = &r->rows[m];
	if (r->smi_counted && !d->smi_ok)
		row->smi_unread = 1;
	row->smis += d->smis;
	row->nmis += d->nmis;
	if (!d->smis && !d->nmis)
		return 0;
	row->disturbed++;
	return 1;
}

/* results_keep_code_fault - the user's code faulted under method m, at
 * *at: the method's code row says so and totals.code_faults counts it
 * (once per method). */
void results_keep_code_fault(struct bench_results *r, enum method_id m, const struct code_fault_at *at);

/* results_keep_code_windows - method m's code= windows in unit u: the
 * empty, N and 2N windows' results (their least minimums and spreads,
 * lib/percopy.h struct percopy_window) and copies, the N window's copies;
 * sets bit u of the code row's units. The figure per copy is computed
 * once the run has measured everything (results_per_copy), when the TSC's
 * step is best known. */
void results_keep_code_windows(struct bench_results *r, enum method_id m, enum unit u, uint64_t copies,
			       const struct workload_result *empty, const struct workload_result *n,
			       const struct workload_result *n2);

/* results_per_copy - method m's 2N-N figure in unit u (lib/percopy.h
 * percopy_compute of the kept N and 2N windows' least minimums, the copies
 * of the N window, each window's spread at least the empty window's, and
 * the clock's step [unit] (results_step_bound)) into the code row, after
 * results_keep_code_windows. Returns the figure kept. */
const struct percopy *results_per_copy(struct bench_results *r, enum method_id m, enum unit u, uint64_t step);

/* Whether the methods' figures per copy of code= agree in one unit: each
 * figure's interval is (2N-N -+ its bound) / N (lib/percopy.h
 * percopy_overlap); they agree when every two overlap. */
#define RESULTS_PAIRS (METHOD_COUNT * (METHOD_COUNT - 1) / 2)
struct results_pair {
	int low, high;             /* enum method_id: low's interval lies below high's */
	uint64_t gap_milli;        /* the gap between them per copy, thousandths of the unit
				    * (rounded up, >= 1) */
};
struct agreement {
	enum unit unit;
	unsigned methods;          /* bit m: method m has a figure in the unit (not wrapped) */
	int count;                 /* of them */
	int agree;                 /* every two intervals overlap (1 with count < 2) */
	int npairs;
	struct results_pair pair[RESULTS_PAIRS]; /* the pairs that do not overlap, in method order */
	int trusted;               /* enum method_id, or -1 */
	const char *why;           /* why trusted (results_recommend's reason), or why none */
};

/* results_agreement - the agreement of code='s figures per copy in unit u
 * over the methods of r (after results_recommend): which pairs of
 * intervals do not overlap and by how much; trusted is the recommended
 * method (paper 4: the one whose verdict the recommendation holds) when
 * it has a figure in u, else -1 with why saying why not. Returns
 * a->count. */
int results_agreement(const struct bench_results *r, enum unit u, struct agreement *a);

/* results_code_ran - whether code= gave anything (a figure or a fault) by
 * any method of r. */
int results_code_ran(const struct bench_results *r);

/* results_recommend - the method to use (paper section 4): RDTSCP where it
 * ran and is ergodic, else the CR0 alternative (3.2.3), else CPUID alone
 * (3.1.2); totals.recommended is it or -1, totals.recommend_why says why
 * (or why none). */
void results_recommend(struct bench_results *r);

/* results_has_net - whether workload row i has a net figure by method m
 * (m < 0: by any method). */
int results_has_net(const struct bench_results *r, int m, int i);

/* results_net_by - the method whose net figures the screen summary shows:
 * the recommended one, else the first that ran of the TSC methods, else of
 * all; -1 when none ran. */
int results_net_by(const struct bench_results *r);

/* results_counters_by - the method whose core cycles and instructions the
 * screen summary shows beside by's TSC ticks: by itself when it read the
 * counters (beside the TSC) for a registered workload (rows below
 * nworkloads), else the first counter method that ran; -1 when none. */
int results_counters_by(const struct bench_results *r, int by, int nworkloads);

/* results_disturbances - the run's SMIs and NMIs over all methods; *unread:
 * some method's SMIs could not be read. */
void results_disturbances(const struct bench_results *r, uint64_t *smis, uint64_t *nmis, int *unread);

/* The TSC's step: how far it moves at once. A TSC that counts every tick
 * of its clock moves by 1 (QEMU -icount, real CPUs so far); Bochs with 4
 * CPUs moves it by 5 at a time. Every sample is the difference of two
 * TSC reads, so when the TSC moves in steps of s, every sample, and so
 * every ensemble's minimum, quantile and maximum, is a multiple of s; the
 * step is found as the greatest common divisor of those figures.
 *
 * The resolution of a figure in TSC ticks, as used here, is that step:
 * the smallest nonzero difference two readings of the TSC can show. A
 * window shorter than one step reads as 0 or as one step; a net figure
 * (the difference of two minimums) is a multiple of it, so a net of 0 says
 * the body took less than one step, not that it took no time. (The
 * paper's resolution test, section 3.3, measures another thing: how many
 * iterations of a measured loop it takes for a method's minimum to
 * change, in loop iterations; with a TSC moving in steps of s, that
 * minimum can only change by multiples of s.) For core cycles and
 * instructions retired the resolution is one count. */
#define RESULTS_STEP_FIGURES 8 /* distinct figures that make a step sure */

struct tsc_step {
	uint64_t gcd;      /* of every nonzero figure added; 0: none yet */
	uint64_t seen[RESULTS_STEP_FIGURES]; /* the first distinct nonzero figures */
	int distinct;      /* of them, 0..RESULTS_STEP_FIGURES (saturates) */
};

/* results_gcd - the greatest common divisor of a and b (Euclid); 0 when
 * both are 0, a when b is 0. */
uint64_t results_gcd(uint64_t a, uint64_t b);

/* results_step_add - one figure in TSC ticks (a sample, or an ensemble's
 * minimum, quantile or maximum: each a difference of two TSC reads) into
 * s. A 0 is a window inside one step: it says nothing of the step's size
 * and is not counted. Starts from a zeroed struct tsc_step. */
void results_step_add(struct tsc_step *s, uint64_t ticks);

/* results_step - the step the figures of s show, in TSC ticks: their gcd
 * when it is above 1 and at least 2 distinct nonzero figures back it, else
 * 0 (a step of 1, the common case, or too little data: nothing to say).
 * *sure: 1 when at least RESULTS_STEP_FIGURES distinct figures back it (a
 * TSC moving by 1 gives that many multiples of one number >= 2 by chance
 * with a probability of about 2^-8, 0.4 %), 0 when fewer do (it may
 * move in steps). */
uint64_t results_step(const struct tsc_step *s, int *sure);

/* results_step_bound - the step a figure in unit u must allow for
 * (lib/percopy.h): for TSC ticks the greatest common divisor of every
 * nonzero TSC-tick figure so far, whether or not enough figures make the
 * step sure (results_step): a TSC that may move in steps of g is taken to
 * move in them, so a figure is never called exact while a step above 1 is
 * possible (1 when no nonzero figure was seen: nothing shows a step); 1
 * for core cycles and instructions retired (a counter counts by one). The
 * gcd only falls as figures are added, so a bound taken early stays a
 * bound. */
uint64_t results_step_bound(const struct tsc_step *s, enum unit u);

/* results_resolution - the resolution of a net figure in unit u, in that
 * unit: for TSC ticks the step when it is sure (results_step), else 1; 1
 * for core cycles and instructions. */
uint64_t results_resolution(const struct tsc_step *s, enum unit u);

/* What a net figure (a difference of least minimums) says. */
enum net_flag {
	NET_OK,               /* at least the resolution */
	NET_BELOW_ZERO,       /* negative: the workload's least minimum is under the empty
			       * window's (noise, or the TSC's step): not a duration */
	NET_BELOW_RESOLUTION, /* 0 <= net < resolution: the body took less than one
			       * resolution, not the figure's time */
};

/* results_net_flag - the flag of net figure net at resolution res (>= 1). */
enum net_flag results_net_flag(int64_t net, uint64_t res);

/* results_net_flag_key - "below_zero", "below_resolution", or NULL for
 * NET_OK: the records' value of a flag. */
const char *results_net_flag_key(enum net_flag f);

#endif

/* bench/run.h - measure and analyze: for each method, the empty window
 * (offset and verdict, paper 4 steps 1-2), the resolution test (3.3, step 3)
 * and every selected workload net of the offset (step 4). */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdint.h>
#include "../lib/figures.h"
#include "../lib/stats.h"

struct cpu_info;

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
	int valid;   /* the figures exist (no overflow) */
	int ergodic; /* var_of_vars and var_of_mins within the thresholds */
	uint64_t var_of_vars, var_of_mins, offset;
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
	int recommended;           /* enum method_id, or -1 */
	const char *recommend_why;
};

/* bench_run - all of the above with the sizes in cfg, using ticks[0..capacity-1]
 * (capacity >= cfg.samples) as the TSC ensemble buffer; buffers for the
 * counters are allocated when counters work. Prints as it goes. */
void bench_run(const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct run_totals *t);

/* bench_screen_summary - the one-screen summary that stays on the screen
 * after the run, so that a photo records it: the machine (brand, family,
 * model, stepping, microcode, TSC rate), the sizes, SMIs and NMIs; per
 * method its offset (TSC ticks and ns; core cycles for the ctr_ methods),
 * total variance, variance of variances, variance of minimum values and
 * verdict (paper 4); per workload its net least minimum by the
 * recommended method in TSC ticks and ns, with core cycles and
 * instructions retired where counters were read; then final_line. At
 * most 80 columns and 23 rows (the final line may take two more): wider
 * figures are shown as d.dde+N. Screen only (the serial log has all of it
 * above); clears the screen first; no effect without a screen. Call after
 * bench_run and the final line. On a framebuffer the QR code of the
 * results follows (kernel/qr.h), beside or below the summary, or on pages
 * of its own that kernel/exit.c shows in turn after the halt line. */
void bench_screen_summary(const struct cpu_info *cpu, const struct run_totals *t, const char *final_line);

/* bench_set_tsc_hz - the TSC frequency in Hz (0: unknown), for the
 * nanosecond figures; set before bench_run. */
void bench_set_tsc_hz(uint64_t hz);
uint64_t bench_tsc_hz(void);

/* bench_set_tsc_source - that frequency's bound [ppm] and its source
 * (kernel/clocks.h struct tsc_rate: "pit", "hpet", "pmtimer", a
 * tscfreq_kind_name(), "none"), for the QR
 * code's text (kernel/qr.h). */
void bench_set_tsc_source(uint32_t ppm, const char *source);

#endif

/* bench/run.h - drive the measurement: for each method, the empty window
 * (offset and verdict, paper 4 steps 1-2), the resolution test (3.3, step
 * 3) and every selected workload net of the offset (step 4), each as
 * ensembles of samples from the sampling loops (bench/workload.h). The
 * figures are derived in bench/results.c, printed as they come by
 * bench/report.c and at the end by bench/summary.c.
 *
 * State that holds for the whole boot (the sample buffers and the
 * ensembles' arrays, allocated by the first run and reused) is kept here
 * (the TSC rate by the clocks that measure it, kernel/clocks.h); what one run gives is its struct bench_results, so that a run can
 * be repeated (on another CPU) with its results kept apart. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdint.h>
#include "results.h"

struct cpu_info;

struct config;

/* bench_run - one run: the methods and workloads of the configuration c
 * (kernel/config.h) with its sizes on
 * this CPU, using ticks[0..capacity-1] (capacity >= c->samples) as the
 * TSC ensemble buffer; buffers for the counters are allocated when
 * counters work. Prints as it goes, then the recommendation (the final
 * tables are the caller's: bench/summary.h); r receives the results (results_init first). */
void bench_run(const struct config *c, const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct bench_results *r);

/* bench_run_release - between the experiments of a plan (bench/plan.h),
 * when their memory is handed out again (kernel/mem.h mem_release): the
 * counters' sample buffers and the ensembles' arrays (sized by the
 * experiment's samples= and ensembles=) forgotten, taken again by the
 * next bench_run; the events windows' buffers likewise (bench/evrun.h). */
void bench_run_release(void);

/* bench_counters_possible - 1 when counters can be read beside the TSC
 * methods: an instructions-retired counter (IA32_FIXED_CTR0 or AMD's
 * IRPERF) and a core-cycle counter (IA32_FIXED_CTR1 or APERF) that the
 * boot check saw count (kernel/pmu.h pmu_usable); then bench_run needs
 * two more sample buffers of the TSC buffer's size. */
int bench_counters_possible(void);

/* bench_fit_samples - the samples per ensemble to use: want, or when its
 * buffer does not fit in free memory (kernel/mem.h) beside the ensembles'
 * arrays bench_run allocates (two per unit, of ensembles values each) the
 * most that fit with 1 buffer, or 3 with counters (counters = 1), after a
 * "config:" line saying so (one problem added to *problems). 0 when not
 * even one sample fits. */
uint64_t bench_fit_samples(uint64_t want, uint64_t ensembles, int counters, int *problems);

#endif

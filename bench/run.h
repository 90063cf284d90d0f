/* bench/run.h - measure: methods x workloads x ensembles (paper 3.1.1). */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdint.h>

struct cpu_info;

struct run_totals {
	int methods_run;
	int methods_skipped;
	uint64_t ensemble_errors;
};

/* bench_run - run every selected method on the `empty` workload with the
 * sizes in cfg, using ticks[0..capacity-1] as the one ensemble buffer
 * (capacity >= cfg.samples). Prints as it goes; fills *t. */
void bench_run(const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct run_totals *t);

#endif

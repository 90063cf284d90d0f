/* bench/experiment.h - one experiment: one configuration's preparation
 * (its keys' users) and measurement, shared by the run without a plan
 * (bench/main.c) and each experiment of a plan (bench/plan.h), so that
 * both say the same lines and records in the same order (README "A plan:
 * many experiments in one boot"). */
#ifndef BENCH_EXPERIMENT_H
#define BENCH_EXPERIMENT_H

#include <stdint.h>
#include "results.h"
#include "screen.h"

struct config;
struct cpu_info;

/* experiment_prepare - after the boot-wide probe, before anything is
 * measured: events= resolved and scheduled (bench/events.h), code='s
 * areas (kernel/memarea.h), sweep='s area (bench/sweep.h), code='s loops
 * (bench/code.h), then the samples per ensemble that fit in free memory
 * beside them (bench/run.h bench_fit_samples, kernel/config.h
 * config_set_samples). counters: bench_counters_possible(). Each
 * problem is one line printed by the key's user. Returns the problems
 * (the caller adds them to the configuration's: config_add_problems). */
int experiment_prepare(const struct config *cfg, const struct cpu_info *cpu, int counters);

/* What one experiment measured. */
struct experiment_result {
	const struct bench_results *results; /* for the screen: the boot CPU's, or per[0] onward */
	const struct run_totals *totals;     /* methods run and skipped, ensemble errors, code faults */
	int measured;                        /* CPUs measured (per CPU), else -1 */
	const struct screen_cpus *cpus;      /* the per-CPU rows, or NULL */
};

/* experiment_measure - measure cfg with the sample buffer ticks
 * (cfg->samples values): on each CPU of cpus= in turn (per, room for
 * their results, bench/percpu.h percpu_run) or on the boot CPU
 * (bench/run.h bench_run, then the summary tables), then sweep= (bench/
 * sweep.h). Prints as it goes. *out points into this module's static
 * results, valid until the next call. */
void experiment_measure(const struct config *cfg, const struct cpu_info *cpu, uint64_t *ticks,
			struct bench_results *per, struct experiment_result *out);

#endif

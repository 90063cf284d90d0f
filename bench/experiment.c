/* bench/experiment.c - see experiment.h. */
#include "experiment.h"
#include "code.h"
#include "events.h"
#include "percpu.h"
#include "run.h"
#include "summary.h"
#include "sweep.h"
#include "../kernel/config.h"
#include "../kernel/memarea.h"

int experiment_prepare(const struct config *cfg, const struct cpu_info *cpu, int counters)
{
	int problems = 0;
	problems += events_prepare(cfg, cpu);  /* events= resolved, passes planned (bench/events.h) */
	problems += memarea_prepare(cfg, cpu); /* code='s areas (kernel/memarea.h) */
	problems += sweep_prepare(cfg, cpu);   /* sweep='s area */
	problems += code_prepare(cfg); /* its loops' memory before the sample buffers */
	config_set_samples(bench_fit_samples(cfg->samples, cfg->ensembles, counters, &problems));
	return problems;
}

void experiment_measure(const struct config *cfg, const struct cpu_info *cpu, uint64_t *ticks,
			struct bench_results *per, struct experiment_result *out)
{
	static struct bench_results results;
	static struct run_totals sum;
	static struct screen_cpus cpus;
	*out = (struct experiment_result){ .results = &results, .totals = &results.totals, .measured = -1 };
	if (per) {
		sum = (struct run_totals){ 0 };
		int measured = percpu_run(cfg, ticks, cfg->samples, per, &sum);
		for (int k = 0; k < measured; k++)
			sum.code_faults += per[k].totals.code_faults;
		percpu_screen(&cpus);
		*out = (struct experiment_result){ .results = measured ? per : &results, .totals = &sum,
						   .measured = measured, .cpus = &cpus };
	} else {
		bench_run(cfg, cpu, ticks, cfg->samples, &results);
		summary_tables(&results);
	}
	sweep_run(cfg, cpu); /* sweep=latency (bench/sweep.h) */
}

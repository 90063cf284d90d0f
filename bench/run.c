/* bench/run.c - see run.h. */
#include "run.h"
#include "report.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/probe.h"

const struct workload *workload_find(const char *name)
{
	for (const struct workload *w = __start_bench_workloads; w < __stop_bench_workloads; w++) {
		const char *a = w->name, *b = name;
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b)
			return w;
	}
	return 0;
}

/* Warm-up (paper appendix lines 19-30 run the sequences three times before
 * the loops to warm the instruction cache): we run the whole sampling loop
 * for `warmup` samples and discard them. */
static void warm_up(const struct workload *w, enum method_id m, uint64_t *ticks,
		    uint64_t capacity, struct wl_ctx *c)
{
	for (uint64_t left = cfg.warmup; left;) {
		uint64_t n = left < capacity ? left : capacity;
		w->fill[m](ticks, n, c);
		left -= n;
	}
}

static void run_method(enum method_id m, const struct workload *w, uint64_t *ticks,
		       uint64_t capacity, struct run_totals *t)
{
	struct wl_ctx c = { 0, w->default_param };
	struct paper_summary sum;
	struct ensemble_stats e;
	struct summary_result r;

	report_method_start(m, w, cfg.ensembles, cfg.samples, cfg.warmup);
	uint64_t t0 = rdtsc();
	warm_up(w, m, ticks, capacity, &c);
	summary_init(&sum);
	for (uint64_t j = 0; j < cfg.ensembles; j++) {
		w->fill[m](ticks, cfg.samples, &c);
		ensemble_compute(ticks, cfg.samples, &e);
		summary_add(&sum, &e);
		report_ensemble(m, w, j, &e);
		if (j == cfg.dump)
			report_samples(m, w, j, ticks, cfg.samples);
	}
	summary_finish(&sum, &r);
	report_summary(m, w, &r, rdtsc() - t0);
	t->ensemble_errors += r.errors;
	t->methods_run++;
}

void bench_run(const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct run_totals *t)
{
	const struct workload *w = workload_find("empty");
	t->methods_run = t->methods_skipped = 0;
	t->ensemble_errors = 0;
	for (int m = 0; m < METHOD_COUNT; m++) {
		if (!((cfg.methods >> m) & 1))
			continue;
		const char *why = method_unavailable((enum method_id)m, cpu);
		if (why) {
			report_method_skip((enum method_id)m, why);
			t->methods_skipped++;
			continue;
		}
		run_method((enum method_id)m, w, ticks, capacity, t);
	}
}

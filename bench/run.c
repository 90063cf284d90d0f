/* bench/run.c - see run.h. */
#include "run.h"
#include "report.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/probe.h"
#include "../lib/robust.h"

/* A progress line at most every PROGRESS_TICKS TSC ticks (about 1-4 s on
 * current CPUs, 4 s under QEMU whose TSC runs at 1 GHz-ish). */
#define PROGRESS_TICKS 4000000000ull

static uint64_t *ens_mins, *ens_medians; /* one entry per ensemble */
static uint64_t last_progress;

static const struct workload *sorted[WORKLOADS_MAX];
static int nsorted = -1;

static int name_less(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a < (unsigned char)*b;
}

int workload_count(void)
{
	if (nsorted < 0) {
		int n = (int)(__stop_bench_workloads - __start_bench_workloads);
		nsorted = n < WORKLOADS_MAX ? n : WORKLOADS_MAX;
		for (int i = 0; i < nsorted; i++) {
			const struct workload *w = &__start_bench_workloads[i];
			int j = i;
			for (; j > 0 && name_less(w->name, sorted[j - 1]->name); j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = w;
		}
	}
	return nsorted;
}

const struct workload *workload_at(int i)
{
	return i >= 0 && i < workload_count() ? sorted[i] : 0;
}

const struct workload *workload_find(const char *name)
{
	for (int i = 0; i < workload_count(); i++) {
		const char *a = workload_at(i)->name, *b = name;
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b)
			return workload_at(i);
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

/* One (method, workload): warm-up, then ensembles of samples; each
 * ensemble's statistics are printed as soon as it is measured. */
static void run_workload(enum method_id m, const struct workload *w, uint64_t offset,
			 uint64_t *ticks, uint64_t capacity, struct workload_result *out,
			 struct run_totals *t)
{
	struct wl_ctx c = { .variable = 0, .param = w->default_param };
	struct paper_summary sum;
	struct ensemble_stats e;
	struct robust_stats r;
	int resolution = (w->flags & WL_RESOLUTION) != 0;

	report_run_start(m, w, cfg.ensembles, cfg.samples, cfg.warmup, resolution);
	uint64_t t0 = rdtsc();
	warm_up(w, m, ticks, capacity, &c);
	summary_init(&sum);
	out->outliers_1_5 = out->outliers_3 = out->samples_total = 0;
	for (uint64_t j = 0; j < cfg.ensembles; j++) {
		if (resolution)
			c.param = j; /* measured_loop(j), paper 3.3 */
		w->fill[m](ticks, cfg.samples, &c);

		ensemble_compute(ticks, cfg.samples, &e);
		summary_add(&sum, &e);
		if (j == cfg.dump)
			report_samples(m, w, j, ticks, cfg.samples);
		robust_compute(ticks, cfg.samples, &r); /* reorders ticks */
		report_ensemble(m, w, j, c.param, &e, &r);

		ens_mins[j] = e.min;
		ens_medians[j] = r.median;
		out->outliers_1_5 += r.outliers_1_5;
		out->outliers_3 += r.outliers_3;
		out->samples_total += e.n;

		uint64_t now = rdtsc();
		if (now - last_progress >= PROGRESS_TICKS && j + 1 < cfg.ensembles) {
			report_progress(m, w, j + 1, cfg.ensembles, now - t0);
			last_progress = now;
		}
	}
	summary_finish(&sum, &out->s);
	out->offset = offset;
	robust_compute(ens_medians, cfg.ensembles, &r);
	out->median_of_medians = r.median;
	/* ens_mins stays in ensemble order for the resolution analysis: select
	 * on a copy, in the medians' buffer that is no longer needed. */
	for (uint64_t j = 0; j < cfg.ensembles; j++)
		ens_medians[j] = ens_mins[j];
	robust_compute(ens_medians, cfg.ensembles, &r);
	out->median_of_mins = r.median;
	out->mins_ci_low = r.ci_low;
	out->mins_ci_high = r.ci_high;
	out->elapsed_ticks = rdtsc() - t0;
	report_summary(m, w, out);
	t->ensemble_errors += out->s.errors;
}

/* Paper section 4, steps 1-2: the method is fit for benchmarking on this
 * machine when the variance of variances and the variance of minimum
 * values of the empty window are (close to) zero. */
static void judge(const struct workload_result *empty, struct verdict *v)
{
	v->valid = empty->s.var_of_vars_ok && empty->s.var_of_mins_ok;
	v->var_of_vars = empty->s.var_of_vars;
	v->var_of_mins = empty->s.var_of_mins;
	v->offset = empty->s.min_of_mins;
	v->ergodic = v->valid && v->var_of_vars <= cfg.max_var_of_vars &&
		     v->var_of_mins <= cfg.max_var_of_mins;
}

/* Paper 3.3.1: where the minimum changes as the loop grows. ens_mins holds
 * the minimum per loop size. */
static void analyze_resolution(const struct workload_result *wr, struct resolution *res)
{
	uint64_t n = cfg.ensembles;
	uint64_t gaps[65] = { 0 }, last_change = 0;
	uint64_t step_count = 0, cand = 0, cand_count = 0;

	res->loop_sizes = n;
	res->spurious = wr->s.spurious;
	res->strictly_increasing = n > 1;
	res->flat_until = n - 1;
	res->changes = 0;
	res->smallest_gap = 0;
	for (uint64_t j = 1; j < n; j++) {
		if (ens_mins[j] <= ens_mins[j - 1])
			res->strictly_increasing = 0;
		if (ens_mins[j] == ens_mins[j - 1])
			continue;
		if (res->changes == 0) {
			res->flat_until = j - 1;
		} else {
			uint64_t g = j - last_change;
			gaps[g < 64 ? g : 64]++;
			if (res->smallest_gap == 0 || g < res->smallest_gap)
				res->smallest_gap = g;
		}
		/* Boyer-Moore majority vote for the most common step: exact when
		 * one step is the majority, a good guess otherwise. */
		uint64_t d = ens_mins[j] > ens_mins[j - 1] ? ens_mins[j] - ens_mins[j - 1] : 0;
		if (cand_count == 0) {
			cand = d;
			cand_count = 1;
		} else if (d == cand) {
			cand_count++;
		} else {
			cand_count--;
		}
		last_change = j;
		res->changes++;
	}
	for (uint64_t j = 1; j < n; j++)
		if (ens_mins[j] != ens_mins[j - 1] &&
		    (ens_mins[j] > ens_mins[j - 1] ? ens_mins[j] - ens_mins[j - 1] : 0) == cand)
			step_count++;
	res->common_step = step_count ? cand : 0;
	res->common_gap = res->changes == 1 ? 1 : 0;
	uint64_t best = 0;
	for (uint64_t g = 1; g <= 64; g++)
		if (gaps[g] > best) {
			best = gaps[g];
			res->common_gap = g;
		}
}

void bench_run(const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct run_totals *t)
{
	const struct workload *empty = 0, *loop = 0;
	struct verdict verdicts[METHOD_COUNT];
	int judged[METHOD_COUNT] = { 0 };

	t->methods_run = t->methods_skipped = 0;
	t->ensemble_errors = 0;
	t->recommended = -1;
	t->recommend_why = "";
	for (int i = 0; i < workload_count(); i++) {
		if (workload_at(i)->flags & WL_OFFSET)
			empty = workload_at(i);
		if (workload_at(i)->flags & WL_RESOLUTION)
			loop = workload_at(i);
	}
	ens_mins = mem_alloc(cfg.ensembles * sizeof(uint64_t));
	ens_medians = mem_alloc(cfg.ensembles * sizeof(uint64_t));
	if (!ens_mins || !ens_medians || !empty) {
		kprintf("bench: no memory for %llu ensembles' minimums and medians (%llu bytes)\n",
			(unsigned long long)cfg.ensembles,
			(unsigned long long)(2 * cfg.ensembles * sizeof(uint64_t)));
		return;
	}
	last_progress = rdtsc();

	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		struct workload_result wr;
		if (!((cfg.methods >> m) & 1))
			continue;
		const char *why = method_unavailable(m, cpu);
		if (why) {
			report_method_skip(m, why);
			t->methods_skipped++;
			continue;
		}
		t->methods_run++;

		/* Steps 1-2: the empty window gives the offset and the verdict. */
		run_workload(m, empty, 0, ticks, capacity, &wr, t);
		uint64_t offset = wr.s.min_of_mins;
		judge(&wr, &verdicts[m]);
		judged[m] = 1;
		report_verdict(m, &verdicts[m]);

		/* Step 3: the resolution. */
		if (cfg.resolution && loop) {
			struct resolution res;
			run_workload(m, loop, offset, ticks, capacity, &wr, t);
			analyze_resolution(&wr, &res);
			report_resolution(m, &res);
		}

		/* Step 4: measure and subtract the offset. */
		for (int i = 0; i < workload_count(); i++) {
			const struct workload *w = workload_at(i);
			if (w->flags & (WL_OFFSET | WL_RESOLUTION) || !config_workload_selected(i))
				continue;
			run_workload(m, w, offset, ticks, capacity, &wr, t);
		}
	}

	/* Paper section 4: RDTSCP where it is supported and ergodic, else the
	 * CR0 alternative; CPUID-only as a last resort. */
	static const enum method_id preference[] = { METHOD_rdtscp, METHOD_cr0, METHOD_cpuid };
	for (unsigned i = 0; i < sizeof preference / sizeof preference[0]; i++) {
		enum method_id m = preference[i];
		if (judged[m] && verdicts[m].ergodic) {
			t->recommended = m;
			t->recommend_why = m == METHOD_rdtscp ? "RDTSCP is supported and the method is ergodic here (paper 4)"
					 : m == METHOD_cr0 ? "the CR0 alternative is ergodic here (paper 3.2.3, 4)"
							   : "only the CPUID method is ergodic here; expect a coarser resolution (paper 3.1.2)";
			break;
		}
	}
	if (t->recommended < 0)
		t->recommend_why = t->methods_run ? "no method run is ergodic on this machine: change the BIOS settings "
						    "(turbo, C-states, Hyper-Threading, frequency scaling) or the BIOS (paper 4 step 2)"
						  : "no method ran";
	report_recommendation(t->recommended, t->recommend_why);
}

/* bench/run.c - see run.h. */
#include "run.h"
#include "report.h"
#include "code.h"
#include "evrun.h"
#include "evtopdown.h"
#include "coderesult.h"
#include "progress.h"
#include "walk.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/msr.h"
#include "../kernel/pmu.h"
#include "../kernel/probe.h"
#include "../kernel/trap.h"
#include "../lib/figures.h"
#include "../lib/robust.h"

/* A progress line at most every PROGRESS_TICKS TSC ticks (about 1-4 s on
 * current CPUs, 4 s under QEMU whose TSC runs at 1 GHz-ish). */
#define PROGRESS_TICKS 4000000000ull

/* One series of samples of a (method, workload): a unit and its buffer. */
struct series {
	enum unit unit;
	uint64_t *buf;
	uint64_t mask;           /* counter width mask; all ones for the TSC */
	int primary;             /* the method's own unit: paper-format lines, dump */
	struct paper_summary sum;
	uint64_t *mins, *medians; /* one entry per ensemble */
};

/* Per boot: the buffers, allocated by the first run and reused by any
 * later one. */
static struct samples bufs;
static int counters_exist;   /* bufs.ins and bufs.cyc exist */
static uint64_t *ens_arrays[UNIT_COUNT][2];

/* Per run, set by bench_run for the CPU it runs on: how it is measured,
 * and where its results go. */
static uint64_t mask_ins = ~0ull, mask_cyc = ~0ull;
static int counters_beside;  /* TSC methods also read the counters */
static int smi_ok;      /* MSR_SMI_COUNT was readable when the run began and has not faulted since */
static uint64_t last_progress;
static struct bench_results *res;
static const struct config *cfg; /* the run's configuration (bench_run) */

/* bench_smi_read - one RDMSR of MSR_SMI_COUNT: 0, or the fault
 * (rdmsr_safe, kernel/trap.h). Weak, so that a test build can make it
 * start faulting in the middle of a run (tests/boot/smi_fault_test.c). */
__attribute__((weak)) int bench_smi_read(uint64_t *v)
{
	return rdmsr_safe(MSR_SMI_COUNT, v);
}

/* One read while the count is readable: 1 with *v, or 0 (*v = 0, and
 * after a fault no further reads: *fault says which). */
static int smi_read(uint64_t *v, int *fault)
{
	*v = 0;
	if (!smi_ok)
		return 0;
	int err = bench_smi_read(v);
	if (!err)
		return 1;
	*v = 0;
	*fault = err;
	smi_ok = 0;
	return 0;
}

static fill_fn pick_fill(const struct workload *w, enum method_id m)
{
	return counters_beside && !method_is_ctr(m) ? w->fill_ctr[m] : w->fill[m];
}

/* Warm-up (paper appendix lines 19-30 run the sequences three times before
 * the loops to warm the instruction cache): we run the whole sampling loop
 * for `warmup` samples and discard them. */
static void warm_up(const struct workload *w, enum method_id m, uint64_t capacity,
		    struct wl_ctx *c)
{
	fill_fn fill = pick_fill(w, m);
	for (uint64_t left = cfg->warmup; left;) {
		uint64_t n = left < capacity ? left : capacity;
		fill(&bufs, n, c);
		left -= n;
	}
}

/* walk=on: single-step one sample of the window before measuring it
 * (bench/walk.h) and print what it executed: for the resolution test's
 * loop, one sample of each loop size the ensembles will run. Returns -1
 * when the user's code faulted in the walked sample (reported; no walk
 * line), else 0. */
static int walk_sample(enum method_id m, const struct workload *w, struct wl_ctx *c, int resolution)
{
	uint64_t n = resolution ? cfg->ensembles : 1, param = c->param;
	for (uint64_t j = 0; j < n; j++) {
		struct walk_result r;
		if (resolution)
			c->param = j;
		int bad = walk_window(pick_fill(w, m), &bufs, c, &r);
		if ((w->flags & WL_CODE) && code_fault_take(m, w))
			return -1;
		report_walk(m, w, resolution, c->param, bad, &r);
	}
	c->param = param;
	return 0;
}

/* The series a method's samples come in: its own unit first. */
static int series_of(enum method_id m, struct series *s)
{
	int n = 0;
	if (!method_is_ctr(m)) {
		s[n++] = (struct series){ .unit = UNIT_TSC, .buf = bufs.tsc, .mask = ~0ull, .primary = 1 };
		if (counters_beside) {
			s[n++] = (struct series){ .unit = UNIT_CYC, .buf = bufs.cyc, .mask = mask_cyc };
			s[n++] = (struct series){ .unit = UNIT_INS, .buf = bufs.ins, .mask = mask_ins };
		}
	} else {
		s[n++] = (struct series){ .unit = UNIT_CYC, .buf = bufs.cyc, .mask = mask_cyc, .primary = 1 };
		s[n++] = (struct series){ .unit = UNIT_INS, .buf = bufs.ins, .mask = mask_ins };
	}
	for (int i = 0; i < n; i++) {
		s[i].mins = ens_arrays[s[i].unit][0];
		s[i].medians = ens_arrays[s[i].unit][1];
	}
	return n;
}

/* One (method, workload): warm-up, then ensembles of samples; each
 * ensemble's statistics are printed as soon as it is measured. out[u] is
 * filled for each unit u measured; empty[u] is the method's empty window
 * (its offsets), NULL when w is the empty window.
 * Returns the method's own unit, or -1 when the user's code faulted (a
 * code= workload; the fault is reported). */
static int run_workload(enum method_id m, const struct workload *w, const struct workload_result *empty,
			uint64_t capacity, struct workload_result *out)
{
	struct wl_ctx c = { .variable = 0, .param = w->default_param };
	struct series ser[3];
	struct ensemble_stats e;
	struct robust_stats r;
	int resolution = (w->flags & WL_RESOLUTION) != 0;
	int ns = series_of(m, ser);
	fill_fn fill = pick_fill(w, m);

	progress_workload(m, w);
	report_run_start(m, w, cfg->ensembles, cfg->samples, cfg->warmup, resolution, unit_key[ser[0].unit]);
	if (cfg->walk && walk_sample(m, w, &c, resolution))
		return -1;
	uint64_t t0 = rdtsc();
	warm_up(w, m, capacity, &c);
	if ((w->flags & WL_CODE) && code_fault_take(m, w))
		return -1;
	for (int k = 0; k < ns; k++) {
		summary_init(&ser[k].sum);
		out[ser[k].unit].outliers_1_5 = out[ser[k].unit].outliers_3 = 0;
		out[ser[k].unit].samples_total = 0;
	}
	for (uint64_t j = 0; j < cfg->ensembles; j++) {
		if (resolution)
			c.param = j; /* measured_loop(j), paper 3.3 */
		struct disturbance d;
		uint64_t smi0, smi1;
		int fault = 0;
		int ok0 = smi_read(&smi0, &fault);
		uint64_t nmi0 = trap_nmi_count();
		fill(&bufs, cfg->samples, &c);
		if ((w->flags & WL_CODE) && code_fault_take(m, w))
			return -1;
		d.nmis = trap_nmi_count() - nmi0;
		int ok1 = smi_read(&smi1, &fault);
		d.smi_ok = smi_delta(ok0, smi0, ok1, smi1, &d.smis) == 0;
		if (fault)
			report_smi_lost(m, w, j, trap_fault_string(fault));
		if (results_add_disturbance(res, m, &d))
			report_disturbed(m, w, j, &d);

		for (int k = 0; k < ns; k++) {
			struct series *s = &ser[k];
			struct workload_result *o = &out[s->unit];
			if (s->mask != ~0ull) /* counter deltas modulo the width */
				for (uint64_t i = 0; i < cfg->samples; i++)
					s->buf[i] &= s->mask;
			ensemble_compute(s->buf, cfg->samples, &e);
			summary_add(&s->sum, &e);
			if (j == cfg->dump && s->primary)
				report_samples(m, w, j, unit_key[s->unit], s->buf, cfg->samples);
			robust_compute(s->buf, cfg->samples, &r); /* reorders the buffer */
			report_ensemble(m, w, j, c.param, unit_key[s->unit], s->primary, &e, &r, &d);
			s->mins[j] = e.min;
			s->medians[j] = r.median;
			o->outliers_1_5 += r.outliers_1_5;
			o->outliers_3 += r.outliers_3;
			o->samples_total += e.n;
		}

		uint64_t now = rdtsc();
		if (now - last_progress >= PROGRESS_TICKS && j + 1 < cfg->ensembles) {
			report_progress(m, w, j + 1, cfg->ensembles, now - t0);
			last_progress = now;
		}
		progress_ensemble();
	}
	uint64_t elapsed = rdtsc() - t0;
	for (int k = 0; k < ns; k++) {
		struct series *s = &ser[k];
		struct workload_result *o = &out[s->unit];
		o->unit = s->unit;
		summary_finish(&s->sum, &o->s);
		robust_compute(s->medians, cfg->ensembles, &r);
		o->median_of_medians = r.median;
		o->offset = empty ? empty[s->unit].s.min_of_mins : o->s.min_of_mins;
		o->offset_median = empty ? empty[s->unit].median_of_medians : o->median_of_medians;
		/* mins stay in ensemble order for the resolution analysis: select
		 * on a copy, in the medians' array that is no longer needed. */
		for (uint64_t j = 0; j < cfg->ensembles; j++)
			s->medians[j] = s->mins[j];
		robust_compute(s->medians, cfg->ensembles, &r);
		o->median_of_mins = r.median;
		o->mins_ci_low = r.ci_low;
		o->mins_ci_high = r.ci_high;
		o->elapsed_ticks = elapsed;
		report_summary(m, w, o, s->primary);
		res->totals.ensemble_errors += o->s.errors;
	}
	if (ns == 3 || method_is_ctr(m))
		report_counters(m, w, out, !method_is_ctr(m));
	return ser[0].unit;
}

/* Bytes mem_alloc takes for n 8-byte values (it rounds up to 64). */
static uint64_t buffer_bytes(uint64_t n)
{
	return (n * sizeof(uint64_t) + 63) & ~63ull;
}

/* Bytes bench_run takes for the ensembles' minimums and medians (two
 * arrays of ensembles values per unit: ens_arrays), plus 63 for the
 * alignment of the first allocation. */
static uint64_t ensemble_array_bytes(uint64_t ensembles)
{
	return 2 * UNIT_COUNT * buffer_bytes(ensembles) + 63;
}

/* The most samples per ensemble whose bufs buffers of 8 bytes each fit in
 * free memory beside the ensembles' arrays; 0 if none. */
static uint64_t samples_that_fit(uint64_t ensembles, int bufs)
{
	uint64_t free = mem_free_bytes(), reserve = ensemble_array_bytes(ensembles);
	if (free <= reserve)
		return 0;
	return ((free - reserve) / (uint64_t)bufs & ~63ull) / sizeof(uint64_t);
}

uint64_t bench_fit_samples(uint64_t want, uint64_t ensembles, int counters, int *problems)
{
	if (want <= samples_that_fit(ensembles, 1))
		return want;
	/* With counters, their two buffers of the same size must fit as well. */
	uint64_t n = samples_that_fit(ensembles, counters ? 3 : 1);
	kprintf("config: samples=%llu needs %llu bytes for one ensemble's buffer but %llu bytes are free, "
		"%llu of them needed for the ensembles' minimums and medians; using samples=%llu, "
		"the most that fit%s\n", (unsigned long long)want,
		(unsigned long long)(want * sizeof(uint64_t)),
		(unsigned long long)mem_free_bytes(), (unsigned long long)ensemble_array_bytes(ensembles),
		(unsigned long long)n,
		counters ? " (with the two counter buffers of the same size read beside the TSC)" : "");
	(*problems)++;
	return n;
}

/* The instructions-retired and core-cycle counters read beside the TSC
 * methods (-1: none counts). */
static int counter_ins(void)
{
	return pmu_usable(&pmu, PMU_FIXED0) ? PMU_FIXED0 : pmu_usable(&pmu, PMU_IRPERF) ? PMU_IRPERF : -1;
}

static int counter_cyc(void)
{
	return pmu_usable(&pmu, PMU_FIXED1) ? PMU_FIXED1 : pmu_usable(&pmu, PMU_APERF) ? PMU_APERF : -1;
}

int bench_counters_possible(void)
{
	return counter_ins() >= 0 && counter_cyc() >= 0;
}

/* Which counters can be read beside the TSC methods: instructions retired
 * from IA32_FIXED_CTR0 or AMD's IRPERF, core cycles from IA32_FIXED_CTR1
 * or APERF, each only if the boot check saw it count (kernel/pmu.c). */
static void choose_counters(uint64_t capacity)
{
	int ins = counter_ins(), cyc = counter_cyc();
	counters_beside = 0;
	mask_ins = mask_cyc = ~0ull;
	if (ins < 0 || cyc < 0) {
		report_counters_choice(0, ins < 0 ? "no instructions-retired counter counts" :
					      "no core-cycle counter counts", 0, 0);
		return;
	}
	if (!bufs.ins)
		bufs.ins = mem_alloc(capacity * sizeof(uint64_t));
	if (!bufs.cyc)
		bufs.cyc = mem_alloc(capacity * sizeof(uint64_t));
	counters_exist = bufs.ins && bufs.cyc;
	if (!counters_exist) {
		report_counters_choice(0, "no memory for the counters' sample buffers", 0, 0);
		return;
	}
	bench_msr_ins = pmu.ctr[ins].msr;
	bench_msr_cyc = pmu.ctr[cyc].msr;
	unsigned wi = pmu.ctr[ins].width, wc = pmu.ctr[cyc].width;
	mask_ins = wi && wi < 64 ? (1ull << wi) - 1 : ~0ull;
	mask_cyc = wc && wc < 64 ? (1ull << wc) - 1 : ~0ull;
	counters_beside = 1;
	report_counters_choice(1, "", pmu.ctr[ins].label, pmu.ctr[cyc].label);
}

/* The units method m measures in this run (results_units). */
static unsigned units_of(enum method_id m)
{
	return results_units(method_is_ctr(m), counters_beside);
}

/* The code= workload (bench/code.h): the generated empty window beside the
 * compiled offset, then N copies (net of the offset, as every workload),
 * then 2N copies; their windows kept for (least min(2N) - least min(N)) / N
 * per copy, said once the run is measured (code_report_per_copy). */
static void run_code(enum method_id m, const struct workload_result *empty, uint64_t capacity)
{
	struct workload_result wn[UNIT_COUNT], w2[UNIT_COUNT];
	int beside = counters_beside && !method_is_ctr(m);
	const struct workload *w = code_workload(m, beside, 0);
	struct wl_ctx c = { 0 };
	if (!w)
		return;
	uint64_t n = cfg->samples < capacity ? cfg->samples : capacity;
	pick_fill(w, m)(&bufs, n, &c);
	if (code_fault_take(m, w))
		return;
	enum unit own = method_is_ctr(m) ? UNIT_CYC : UNIT_TSC;
	const uint64_t *buf = own == UNIT_CYC ? bufs.cyc : bufs.tsc;
	uint64_t least = ~0ull;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = own == UNIT_CYC ? buf[i] & mask_cyc : buf[i];
		least = v < least ? v : least;
	}
	code_report_offset(m, w, unit_key[own], unit_name[own], least, empty[own].s.min_of_mins, n);

	w = code_workload(m, beside, 1);
	int primary = w ? run_workload(m, w, empty, capacity, wn) : -1;
	if (primary < 0)
		return;
	res->code_row_name = w->name;
	results_keep_nets(res, m, RESULTS_CODE_ROW, units_of(m), wn);
	const struct workload *w2n = code_workload(m, beside, 2);
	if (!w2n || run_workload(m, w2n, empty, capacity, w2) < 0)
		return;
	for (int u = 0; u < UNIT_COUNT; u++)
		if ((units_of(m) >> u) & 1)
			results_keep_code_windows(res, m, (enum unit)u, code_copies_executed(), &empty[u], &wn[u], &w2[u]);
}

void bench_run_release(void)
{
	bufs.ins = bufs.cyc = 0;
	counters_exist = 0;
	for (int u = 0; u < UNIT_COUNT; u++)
		ens_arrays[u][0] = ens_arrays[u][1] = 0;
	evrun_release();
}

void bench_run(const struct config *c, const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity,
	       struct bench_results *r)
{
	const struct workload *empty = 0, *loop = 0;
	struct run_totals *t = &r->totals;

	res = r;
	cfg = c;
	results_init(r);
	for (int i = 0; i < workload_count(); i++) {
		if (workload_at(i)->flags & WL_OFFSET)
			empty = workload_at(i);
		if (workload_at(i)->flags & WL_RESOLUTION)
			loop = workload_at(i);
	}
	for (int u = 0; u < UNIT_COUNT; u++)
		for (int k = 0; k < 2; k++)
			if (!ens_arrays[u][k])
				ens_arrays[u][k] = mem_alloc(cfg->ensembles * sizeof(uint64_t));
	for (int u = 0; u < UNIT_COUNT; u++)
		if (!ens_arrays[u][0] || !ens_arrays[u][1] || !empty) {
			kprintf("bench: no memory for %llu ensembles' minimums and medians (%llu bytes)\n",
				(unsigned long long)cfg->ensembles,
				(unsigned long long)(6 * cfg->ensembles * sizeof(uint64_t)));
			return;
		}
	bufs.tsc = ticks;
	evrun_begin(c, ticks);
	choose_counters(capacity);
	{
		uint64_t v;
		int intel = cpu_vendor_is(cpu, "GenuineIntel");
		smi_ok = intel && bench_smi_read(&v) == 0;
		r->smi_counted = smi_ok;
		report_smi_choice(smi_ok, intel);
	}
	last_progress = rdtsc();

	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		struct workload_result wr[UNIT_COUNT], empty_r[UNIT_COUNT];
		struct verdict v;
		if (!((cfg->methods >> m) & 1))
			continue;
		const char *why = method_unavailable(m, cpu);
		if (!why && method_is_ctr(m) && !counters_exist)
			why = "no memory for the counters' sample buffers";
		if (why) {
			r->rows[m].skip_why = why;
			report_method_skip(m, why);
			t->methods_skipped++;
			continue;
		}
		t->methods_run++;

		/* Steps 1-2: the empty window gives the offset and the verdict. */
		int primary = run_workload(m, empty, 0, capacity, wr);
		for (int u = 0; u < UNIT_COUNT; u++)
			empty_r[u] = wr[u];
		results_judge(&wr[primary], cfg->max_var_of_vars, cfg->max_var_of_mins, &v);
		results_keep_method(r, m, (enum unit)primary, units_of(m), wr, &v);
		report_verdict(m, &v, cfg->max_var_of_vars, cfg->max_var_of_mins);

		/* Step 3: the resolution. */
		if (cfg->resolution && loop) {
			struct resolution rs;
			primary = run_workload(m, loop, empty_r, capacity, wr);
			/* mins in loop-size order; the medians' array is free now */
			resolution_analyze(ens_arrays[primary][0], cfg->ensembles, ens_arrays[primary][1], &rs.f);
			rs.spurious = wr[primary].s.spurious;
			rs.unit = (enum unit)primary;
			report_resolution(m, &rs);
		}

		/* Step 4: measure and subtract the offset. */
		for (int i = 0; i < workload_count(); i++) {
			const struct workload *w = workload_at(i);
			if (w->flags & (WL_OFFSET | WL_RESOLUTION) || !config_workload_selected(i))
				continue;
			run_workload(m, w, empty_r, capacity, wr);
			results_keep_nets(r, m, i, units_of(m), wr);
		}
		if (code_configured()) {
			run_code(m, empty_r, capacity);
			code_keep_fault(r, m);
		}

		/* Step 5: the windows again with each pass of events= beside the
		 * TSC (nothing without events=). */
		evrun_method(m, capacity);
		code_keep_fault(r, m);
		evtopdown_method(m); /* events=topdown: code's TMA level 1, after the passes */
	}

	code_report_per_copy(r); /* with the TSC's step as every figure of the run shows it */
	results_recommend(r);
	report_recommendation(t->recommended, t->recommend_why);
	if (results_code_ran(r))
		code_report_agreement(r);
}

/* bench/run.c - see run.h. */
#include "run.h"
#include "report.h"
#include "code.h"
#include "walk.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/pmu.h"
#include "../kernel/probe.h"
#include "../kernel/qr.h"
#include "../kernel/quiet.h"
#include "../kernel/trap.h"
#include "../lib/figures.h"
#include "../lib/fmt.h"
#include "../lib/qrtext.h"
#include "../lib/robust.h"
#include "../lib/tscfreq.h"

const char *const unit_key[UNIT_COUNT] = { "tsc_ticks", "core_cycles", "instructions" };
const char *const unit_name[UNIT_COUNT] = { "TSC ticks", "core cycles", "instructions" };

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

static struct samples bufs;
static uint64_t mask_ins = ~0ull, mask_cyc = ~0ull;
static int counters_beside;  /* TSC methods also read the counters */
static int counters_exist;   /* bufs.ins and bufs.cyc exist */
static uint64_t *ens_arrays[UNIT_COUNT][2];
static uint64_t last_progress;
static uint64_t tsc_hz;
static uint32_t tsc_ppm;      /* tsc_hz's bound */
static const char *tsc_source; /* and its source (struct tsc_rate) */
static int smi_counted; /* MSR_SMI_COUNT was readable when the run began */
static int smi_ok;      /* ... and has not faulted since */

/* MSR_SMI_COUNT (34H): SMIs since reset, on Intel CPUs since Nehalem (SDM
 * Vol. 4, MSRs of the Intel Core i7 processor family). */
#define MSR_SMI_COUNT 0x34

/* The per-method figures the final table shows. */
static struct method_row {
	int ran;
	struct workload_result r;  /* empty window, the method's own unit */
	struct verdict v;
	uint64_t smis, nmis, disturbed;
	int smi_unread;            /* an ensemble's SMIs could not be counted */
	uint64_t offset_in[UNIT_COUNT]; /* the offset in each unit measured (bit u of offset_units) */
	uint8_t offset_units;
} rows[METHOD_COUNT];
/* The net least minimum of each (method, workload) in each unit measured
 * (bit u of net_units set; the method's own unit is rows[m].r.unit), for
 * the summary tables. */
static int64_t net_in[METHOD_COUNT][WORKLOADS_MAX + 1][UNIT_COUNT];
static uint8_t net_units[METHOD_COUNT][WORKLOADS_MAX + 1];
/* The row of the code= workload (bench/code.h) in those tables. */
#define CODE_ROW WORKLOADS_MAX
static const char *code_row_name;

/* Whether the CPUID vendor string is exactly v (12 characters). */
static int cpu_vendor_is(const struct cpu_info *cpu, const char *v)
{
	for (int i = 0; i < 12; i++)
		if (cpu->vendor[i] != v[i])
			return 0;
	return 1;
}

void bench_set_tsc_hz(uint64_t hz)
{
	tsc_hz = hz;
}

void bench_set_tsc_source(uint32_t ppm, const char *source)
{
	tsc_ppm = ppm;
	tsc_source = source;
}

uint64_t bench_tsc_hz(void)
{
	return tsc_hz;
}

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

/* The SMI column of the summary table: the count, "n/a" where SMIs are
 * not counted on this machine, "unreadable" where MSR_SMI_COUNT faulted
 * during the method's ensembles. */
static const char *smi_text(char *buf, size_t size, int unread, uint64_t smis)
{
	if (!smi_counted)
		return "n/a";
	if (unread)
		return "unreadable";
	fmt_format(buf, size, "%llu", (unsigned long long)smis);
	return buf;
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
	for (uint64_t left = cfg.warmup; left;) {
		uint64_t n = left < capacity ? left : capacity;
		fill(&bufs, n, c);
		left -= n;
	}
}

/* walk=on: single-step one sample of the window before measuring it
 * (bench/walk.h) and print what it executed: for the resolution test's
 * loop, one sample of each loop size the ensembles will run. */
static void walk_report(enum method_id m, const struct workload *w, struct wl_ctx *c, int resolution)
{
	uint64_t n = resolution ? cfg.ensembles : 1, param = c->param;
	for (uint64_t j = 0; j < n; j++) {
		struct walk_result r;
		char size[32] = "";
		if (resolution) {
			c->param = j;
			fmt_format(size, sizeof size, " loop_size:%llu", (unsigned long long)j);
		}
		int bad = walk_window(pick_fill(w, m), &bufs, c, &r);
		if (config_human() && bad && r.steps)
			kprintf("walk %s/%s%s: incomplete: more than %llu single steps\n", methods[m].name, w->name,
				size, (unsigned long long)WALK_MAX_STEPS);
		else if (config_human() && bad)
			kprintf("walk %s/%s%s: incomplete: too many window markers\n", methods[m].name, w->name, size);
		else if (config_human())
			kprintf("walk %s/%s%s: body %llu instructions; %llu instructions between the start "
				"sequence and the body, %llu between the body and the stop sequence (one sample "
				"single-stepped with RFLAGS.TF: %llu steps, %llu window%s)\n",
				methods[m].name, w->name, size, (unsigned long long)r.body,
				(unsigned long long)r.gap_before, (unsigned long long)r.gap_after,
				(unsigned long long)r.steps, (unsigned long long)r.windows,
				r.windows == 1 ? "" : "s");
		if (config_json())
			kprintf("{\"rec\":\"walk\",\"method\":\"%s\",\"workload\":\"%s\",\"param\":%llu,"
				"\"complete\":%s,\"body\":%llu,\"gap_before\":%llu,\"gap_after\":%llu,"
				"\"windows\":%llu,\"steps\":%llu}\n",
				methods[m].name, w->name, (unsigned long long)c->param, bad ? "false" : "true",
				(unsigned long long)r.body, (unsigned long long)r.gap_before,
				(unsigned long long)r.gap_after, (unsigned long long)r.windows,
				(unsigned long long)r.steps);
	}
	c->param = param;
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
			uint64_t capacity, struct workload_result *out, struct run_totals *t)
{
	struct wl_ctx c = { .variable = 0, .param = w->default_param };
	struct series ser[3];
	struct ensemble_stats e;
	struct robust_stats r;
	int resolution = (w->flags & WL_RESOLUTION) != 0;
	int ns = series_of(m, ser);
	fill_fn fill = pick_fill(w, m);

	report_run_start(m, w, cfg.ensembles, cfg.samples, cfg.warmup, resolution, unit_key[ser[0].unit]);
	if (cfg.walk)
		walk_report(m, w, &c, resolution);
	uint64_t t0 = rdtsc();
	warm_up(w, m, capacity, &c);
	if ((w->flags & WL_CODE) && code_fault_take(m, w))
		return -1;
	for (int k = 0; k < ns; k++) {
		summary_init(&ser[k].sum);
		out[ser[k].unit].outliers_1_5 = out[ser[k].unit].outliers_3 = 0;
		out[ser[k].unit].samples_total = 0;
	}
	for (uint64_t j = 0; j < cfg.ensembles; j++) {
		if (resolution)
			c.param = j; /* measured_loop(j), paper 3.3 */
		struct disturbance d;
		uint64_t smi0, smi1;
		int fault = 0;
		int ok0 = smi_read(&smi0, &fault);
		uint64_t nmi0 = trap_nmi_count();
		fill(&bufs, cfg.samples, &c);
		if ((w->flags & WL_CODE) && code_fault_take(m, w))
			return -1;
		d.nmis = trap_nmi_count() - nmi0;
		int ok1 = smi_read(&smi1, &fault);
		d.smi_ok = smi_delta(ok0, smi0, ok1, smi1, &d.smis) == 0;
		if (fault)
			report_smi_lost(m, w, j, trap_fault_string(fault));
		if (smi_counted && !d.smi_ok)
			rows[m].smi_unread = 1;
		rows[m].smis += d.smis;
		rows[m].nmis += d.nmis;
		if (d.smis || d.nmis) {
			rows[m].disturbed++;
			report_disturbed(m, w, j, &d);
		}

		for (int k = 0; k < ns; k++) {
			struct series *s = &ser[k];
			struct workload_result *o = &out[s->unit];
			if (s->mask != ~0ull) /* counter deltas modulo the width */
				for (uint64_t i = 0; i < cfg.samples; i++)
					s->buf[i] &= s->mask;
			ensemble_compute(s->buf, cfg.samples, &e);
			summary_add(&s->sum, &e);
			if (j == cfg.dump && s->primary)
				report_samples(m, w, j, unit_key[s->unit], s->buf, cfg.samples);
			robust_compute(s->buf, cfg.samples, &r); /* reorders the buffer */
			report_ensemble(m, w, j, c.param, unit_key[s->unit], s->primary, &e, &r, &d);
			s->mins[j] = e.min;
			s->medians[j] = r.median;
			o->outliers_1_5 += r.outliers_1_5;
			o->outliers_3 += r.outliers_3;
			o->samples_total += e.n;
		}

		uint64_t now = rdtsc();
		if (now - last_progress >= PROGRESS_TICKS && j + 1 < cfg.ensembles) {
			report_progress(m, w, j + 1, cfg.ensembles, now - t0);
			last_progress = now;
		}
	}
	uint64_t elapsed = rdtsc() - t0;
	for (int k = 0; k < ns; k++) {
		struct series *s = &ser[k];
		struct workload_result *o = &out[s->unit];
		o->unit = s->unit;
		summary_finish(&s->sum, &o->s);
		robust_compute(s->medians, cfg.ensembles, &r);
		o->median_of_medians = r.median;
		o->offset = empty ? empty[s->unit].s.min_of_mins : o->s.min_of_mins;
		o->offset_median = empty ? empty[s->unit].median_of_medians : o->median_of_medians;
		/* mins stay in ensemble order for the resolution analysis: select
		 * on a copy, in the medians' array that is no longer needed. */
		for (uint64_t j = 0; j < cfg.ensembles; j++)
			s->medians[j] = s->mins[j];
		robust_compute(s->medians, cfg.ensembles, &r);
		o->median_of_mins = r.median;
		o->mins_ci_low = r.ci_low;
		o->mins_ci_high = r.ci_high;
		o->elapsed_ticks = elapsed;
		report_summary(m, w, o, s->primary);
		t->ensemble_errors += o->s.errors;
	}
	if (ns == 3 || method_is_ctr(m))
		report_counters(m, w, out, !method_is_ctr(m));
	return ser[0].unit;
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
	v->unit = empty->unit;
	v->ergodic = v->valid && v->var_of_vars <= cfg.max_var_of_vars &&
		     v->var_of_mins <= cfg.max_var_of_mins;
}

/* Which counters can be read beside the TSC methods: instructions retired
 * from IA32_FIXED_CTR0 or AMD's IRPERF, core cycles from IA32_FIXED_CTR1
 * or APERF, each only if the boot check saw it count (kernel/pmu.c). */
static void choose_counters(uint64_t capacity)
{
	int ins = pmu_usable(&pmu, PMU_FIXED0) ? PMU_FIXED0 : pmu_usable(&pmu, PMU_IRPERF) ? PMU_IRPERF : -1;
	int cyc = pmu_usable(&pmu, PMU_FIXED1) ? PMU_FIXED1 : pmu_usable(&pmu, PMU_APERF) ? PMU_APERF : -1;
	counters_beside = counters_exist = 0;
	if (ins < 0 || cyc < 0) {
		report_counters_choice(0, ins < 0 ? "no instructions-retired counter counts" :
					      "no core-cycle counter counts", 0, 0);
		return;
	}
	bufs.ins = mem_alloc(capacity * sizeof(uint64_t));
	bufs.cyc = mem_alloc(capacity * sizeof(uint64_t));
	if (!bufs.ins || !bufs.cyc) {
		report_counters_choice(0, "no memory for the counters' sample buffers", 0, 0);
		return;
	}
	bench_msr_ins = pmu.ctr[ins].msr;
	bench_msr_cyc = pmu.ctr[cyc].msr;
	unsigned wi = pmu.ctr[ins].width, wc = pmu.ctr[cyc].width;
	mask_ins = wi && wi < 64 ? (1ull << wi) - 1 : ~0ull;
	mask_cyc = wc && wc < 64 ? (1ull << wc) - 1 : ~0ull;
	counters_exist = counters_beside = 1;
	report_counters_choice(1, "", pmu.ctr[ins].label, pmu.ctr[cyc].label);
}

/* Whether unit u was measured by method m whose own unit is primary. */
static int unit_measured(enum method_id m, int primary, int u)
{
	return u == primary || (u != UNIT_TSC && (counters_beside || method_is_ctr(m)));
}

/* The net least minimums of row i for the summary tables. */
static void keep_nets(enum method_id m, int i, int primary, const struct workload_result *wr)
{
	for (int u = 0; u < UNIT_COUNT; u++) {
		if (!unit_measured(m, primary, u))
			continue;
		net_in[m][i][u] = (int64_t)(wr[u].s.min_of_mins - wr[u].offset);
		net_units[m][i] |= (uint8_t)(1u << u);
	}
}

/* The code= workload (bench/code.h): the generated empty window beside the
 * compiled offset, then N copies (net of the offset, as every workload),
 * then 2N copies, and (least min(2N) - least min(N)) / N per copy. */
static void run_code(enum method_id m, const struct workload_result *empty, uint64_t capacity,
		     struct run_totals *t)
{
	struct workload_result wn[UNIT_COUNT], w2[UNIT_COUNT];
	int beside = counters_beside && !method_is_ctr(m);
	const struct workload *w = code_workload(m, beside, 0);
	struct wl_ctx c = { 0 };
	if (!w)
		return;
	uint64_t n = cfg.samples < capacity ? cfg.samples : capacity;
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
	int primary = w ? run_workload(m, w, empty, capacity, wn, t) : -1;
	if (primary < 0)
		return;
	code_row_name = w->name;
	keep_nets(m, CODE_ROW, primary, wn);
	const struct workload *w2n = code_workload(m, beside, 2);
	if (!w2n || run_workload(m, w2n, empty, capacity, w2, t) < 0)
		return;
	for (int u = 0; u < UNIT_COUNT; u++)
		if (unit_measured(m, primary, u))
			code_report_per_copy(m, w, unit_key[u], unit_name[u], code_copies_executed(), wn[u].s.min_of_mins,
					     w2[u].s.min_of_mins);
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
	for (int u = 0; u < UNIT_COUNT; u++)
		for (int k = 0; k < 2; k++)
			ens_arrays[u][k] = mem_alloc(cfg.ensembles * sizeof(uint64_t));
	for (int u = 0; u < UNIT_COUNT; u++)
		if (!ens_arrays[u][0] || !ens_arrays[u][1] || !empty) {
			kprintf("bench: no memory for %llu ensembles' minimums and medians (%llu bytes)\n",
				(unsigned long long)cfg.ensembles,
				(unsigned long long)(6 * cfg.ensembles * sizeof(uint64_t)));
			return;
		}
	bufs.tsc = ticks;
	choose_counters(capacity);
	{
		uint64_t v;
		int intel = cpu_vendor_is(cpu, "GenuineIntel");
		smi_ok = intel && bench_smi_read(&v) == 0;
		smi_counted = smi_ok;
		report_smi_choice(smi_ok, intel);
	}
	last_progress = rdtsc();

	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		struct workload_result wr[UNIT_COUNT], empty_r[UNIT_COUNT];
		if (!((cfg.methods >> m) & 1))
			continue;
		const char *why = method_unavailable(m, cpu);
		if (!why && method_is_ctr(m) && !counters_exist)
			why = "no memory for the counters' sample buffers";
		if (why) {
			report_method_skip(m, why);
			t->methods_skipped++;
			continue;
		}
		t->methods_run++;

		/* Steps 1-2: the empty window gives the offset and the verdict. */
		int primary = run_workload(m, empty, 0, capacity, wr, t);
		for (int u = 0; u < UNIT_COUNT; u++)
			empty_r[u] = wr[u];
		judge(&wr[primary], &verdicts[m]);
		judged[m] = 1;
		rows[m].ran = 1;
		rows[m].r = wr[primary];
		rows[m].v = verdicts[m];
		for (int u = 0; u < UNIT_COUNT; u++)
			if (unit_measured(m, primary, u)) {
				rows[m].offset_in[u] = wr[u].s.min_of_mins;
				rows[m].offset_units |= (uint8_t)(1u << u);
			}
		report_verdict(m, &verdicts[m]);

		/* Step 3: the resolution. */
		if (cfg.resolution && loop) {
			struct resolution res;
			primary = run_workload(m, loop, empty_r, capacity, wr, t);
			/* mins in loop-size order; the medians' array is free now */
			resolution_analyze(ens_arrays[primary][0], cfg.ensembles, ens_arrays[primary][1], &res.f);
			res.spurious = wr[primary].s.spurious;
			res.unit = (enum unit)primary;
			report_resolution(m, &res);
		}

		/* Step 4: measure and subtract the offset. */
		for (int i = 0; i < workload_count(); i++) {
			const struct workload *w = workload_at(i);
			if (w->flags & (WL_OFFSET | WL_RESOLUTION) || !config_workload_selected(i))
				continue;
			primary = run_workload(m, w, empty_r, capacity, wr, t);
			keep_nets(m, i, primary, wr);
		}
		if (code_configured())
			run_code(m, empty_r, capacity, t);
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
		t->recommend_why = t->methods_run ? "no method of the paper's is ergodic on this machine: change the BIOS "
						    "settings (turbo, C-states, Hyper-Threading, frequency scaling) or the BIOS (paper 4 step 2)"
						  : "no method ran";
	report_recommendation(t->recommended, t->recommend_why);
	report_tables(t);
}

/* The one-screen summary (issue "a quiet, known machine", item 7): a row
 * per method, then the net result of each workload per method. */
void report_tables(const struct run_totals *t)
{
	char off[48], ns[32], a[24], b[24], c[24];
	(void)t;
	kprintf("\nsummary table (TSC ticks unless said; ns from the TSC frequency%s)\n",
		tsc_hz ? "" : ", unknown here");
	kprintf("%-14s %-22s %12s %14s %12s %10s %10s %6s  %s\n", "method", "offset ticks (ns)",
		"total var", "var of vars", "var of mins", "max dev", "SMIs", "NMIs", "verdict");
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct method_row *row = &rows[m];
		if (!row->ran)
			continue;
		const struct summary_result *s = &row->r.s;
		uint64_t ps = 0;
		if (tsc_hz && row->r.unit == UNIT_TSC && ticks_to_ps(s->min_of_mins, tsc_hz, &ps) == 0)
			fmt_format(ns, sizeof ns, "%llu.%03llu", (unsigned long long)(ps / 1000),
				   (unsigned long long)(ps % 1000));
		else
			fmt_format(ns, sizeof ns, "%s", row->r.unit == UNIT_TSC ? "?" : "cycles");
		fmt_format(off, sizeof off, "%llu (%s)", (unsigned long long)s->min_of_mins, ns);
		kprintf("%-14s %-22s %12s %14s %12s %10llu %10s %6llu  %s\n", methods[m].name, off,
			s->total_variance_ok ? (fmt_format(a, sizeof a, "%llu", (unsigned long long)s->total_variance), a) : "ERROR",
			s->var_of_vars_ok ? (fmt_format(b, sizeof b, "%llu", (unsigned long long)s->var_of_vars), b) : "ERROR",
			s->var_of_mins_ok ? (fmt_format(c, sizeof c, "%llu", (unsigned long long)s->var_of_mins), c) : "ERROR",
			(unsigned long long)s->max_dev_all,
			smi_text(ns, sizeof ns, row->smi_unread, row->smis),
			(unsigned long long)row->nmis,
			!row->v.valid ? "unknown" : row->v.ergodic ? "ergodic" : "NOT ergodic");
	}
	/* Net results: one line per workload, one column per method run. */
	int any = 0;
	for (int i = 0; i <= CODE_ROW; i++)
		for (int m = 0; m < METHOD_COUNT; m++)
			any |= net_units[m][i] != 0;
	if (!any)
		return;
	char line[512];
	int n = fmt_format(line, sizeof line, "%-18s", "net (least min)");
	for (int m = 0; m < METHOD_COUNT; m++)
		if (rows[m].ran)
			n += fmt_format(line + n, sizeof line - (size_t)n, " %13s", methods[m].name);
	kprintf("%s\n", line);
	for (int i = 0; i <= CODE_ROW; i++) {
		int has = 0;
		for (int m = 0; m < METHOD_COUNT; m++)
			has |= net_units[m][i] != 0;
		if (!has)
			continue;
		n = fmt_format(line, sizeof line, "%-18s", i == CODE_ROW ? code_row_name : workload_at(i)->name);
		for (int m = 0; m < METHOD_COUNT; m++)
			if (rows[m].ran)
				n += net_units[m][i] ? fmt_format(line + n, sizeof line - (size_t)n, " %13lld",
								  (long long)net_in[m][i][rows[m].r.unit])
						  : fmt_format(line + n, sizeof line - (size_t)n, " %13s", "-");
		kprintf("%s\n", line);
	}
	kprintf("(net figures are TSC ticks, or core cycles for the ctr_ methods)\n");
}

/* ticks as nanoseconds with one decimal (floored), or "-". */
static const char *ns_of(char *buf, size_t size, int64_t ticks)
{
	uint64_t ps;
	if (!tsc_hz || ticks < 0 || ticks_to_ps((uint64_t)ticks, tsc_hz, &ps))
		fmt_format(buf, size, "-");
	else
		fmt_format(buf, size, "%llu.%llu", (unsigned long long)(ps / 1000),
			   (unsigned long long)(ps % 1000 / 100));
	return buf;
}

/* The QR code of the results beside the summary (kernel/qr.h): the
 * compact text (lib/qrtext.h) of the figures the summary shows and more:
 * every unit of every method's offset and every workload's net. */
static void screen_qr(const struct cpu_info *cpu, const struct run_totals *t, const char *final_line,
		      int has_ucode, uint64_t ucode)
{
	static struct qrtext_method ms[METHOD_COUNT];
	static struct qrtext_workload ws[WORKLOADS_MAX + 1];
	static const char *skipped[METHOD_COUNT];
	static char body[16384];
	struct qrtext_run r = {
		.vendor = cpu->vendor, .brand = cpu->brand, .hypervisor = cpu->hypervisor ? cpu->hv_vendor : 0,
		.family = cpu->family, .model = cpu->model, .stepping = cpu->stepping,
		.has_microcode = has_ucode, .microcode = ucode,
		.tsc_hz = tsc_hz, .tsc_ppm = tsc_ppm, .tsc_source = tsc_source,
		.ensembles = cfg.ensembles, .samples = cfg.samples, .warmup = cfg.warmup,
		.max_var_of_vars = cfg.max_var_of_vars, .max_var_of_mins = cfg.max_var_of_mins,
		.methods = ms, .skipped = skipped, .workloads = ws,
		.recommended = t->recommended >= 0 ? methods[t->recommended].name : 0,
		.final_line = final_line,
	};
	int col[METHOD_COUNT]; /* a method's place among the m lines */
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct method_row *row = &rows[m];
		col[m] = -1;
		if (!row->ran) {
			if ((cfg.methods >> m) & 1)
				skipped[r.nskipped++] = methods[m].name;
			continue;
		}
		const struct summary_result *su = &row->r.s;
		struct qrtext_method *q = &ms[r.nmethods];
		*q = (struct qrtext_method){
			.name = methods[m].name, .unit = row->r.unit == UNIT_CYC, .units = row->offset_units,
			.total_variance = su->total_variance, .var_of_vars = su->var_of_vars,
			.var_of_mins = su->var_of_mins,
			.ok = (uint8_t)((su->total_variance_ok ? 1 : 0) | (su->var_of_vars_ok ? 2 : 0) |
					(su->var_of_mins_ok ? 4 : 0)),
			.verdict = !row->v.valid ? QRTEXT_UNKNOWN : row->v.ergodic ? QRTEXT_ERGODIC : QRTEXT_NOT_ERGODIC,
			.smi = !smi_counted ? QRTEXT_SMI_NA : row->smi_unread ? QRTEXT_SMI_UNREAD : QRTEXT_SMI_COUNTED,
			.smis = row->smis, .nmis = row->nmis,
		};
		for (int u = 0; u < UNIT_COUNT; u++)
			q->offset[u] = row->offset_in[u];
		col[m] = r.nmethods++;
	}
	for (int i = 0; i <= CODE_ROW; i++) {
		struct qrtext_workload *w = &ws[r.nworkloads];
		int has = 0;
		for (int m = 0; m < METHOD_COUNT; m++) {
			if (col[m] < 0)
				continue;
			w->units[col[m]] = net_units[m][i];
			has |= net_units[m][i];
			for (int u = 0; u < UNIT_COUNT; u++)
				w->net[col[m]][u] = net_in[m][i][u];
		}
		if (!has)
			continue;
		w->name = i == CODE_ROW ? code_row_name : workload_at(i)->name;
		r.nworkloads++;
	}
	int n = qrtext_body(&r, body, sizeof body);
	if (n < 0)
		kprintf("qr: no QR code of the results: their text is longer than %u bytes\n",
			(unsigned)sizeof body);
	else
		qr_show(body, (size_t)n, tsc_hz);
}

/* Rows of an 80x25 text screen the summary may use: the final line takes
 * two and the halt line one. */
#define SCREEN_SUMMARY_ROWS 22

void bench_screen_summary(const struct cpu_info *cpu, const struct run_totals *t, const char *final_line)
{
	char line[160], a[24], b[24], c[24], d[24], e[24];
	int rows_used = 0;
	console_set_serial(0);
	console_screen_clear();

	/* The machine. */
	const char *brand = cpu->brand;
	while (*brand == ' ')
		brand++;
	kprintf("bench summary: %.64s\n", brand[0] ? brand : cpu->vendor);
	uint64_t ucode = 0;
	int has_ucode = quiet_microcode(cpu, &ucode) == 0;
	char mhz[TSCFREQ_MHZ_BUF];
	char uc[24] = "n/a";
	if (has_ucode)
		fmt_format(uc, sizeof uc, "0x%llx", (unsigned long long)ucode);
	fmt_format(line, sizeof line, "%s fam %u model %u step %u, microcode %s, TSC %s", cpu->vendor,
		   cpu->family, cpu->model, cpu->stepping, uc,
		   tsc_hz ? tscfreq_format_mhz(mhz, sizeof mhz, tsc_hz) : "rate unknown");
	kprintf("%.79s\n", line);
	uint64_t smis = 0, nmis = 0;
	int unread = 0;
	for (int m = 0; m < METHOD_COUNT; m++) {
		smis += rows[m].smis;
		nmis += rows[m].nmis;
		unread |= rows[m].smi_unread;
	}
	fmt_format(line, sizeof line, "%llu ensembles x %llu samples; SMIs %s, NMIs %llu%s%s",
		   (unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
		   !smi_counted ? "not readable" : unread ? "unreadable" : fmt_fit_u64(a, sizeof a, smis, 20),
		   (unsigned long long)nmis,
		   cpu->hypervisor ? "; hypervisor " : "", cpu->hypervisor ? cpu->hv_vendor : "");
	kprintf("%.79s\n", line);
	rows_used += 3;

	/* The methods: the empty window (paper 4 steps 1-2). */
	if (t->methods_run) {
		kprintf("%-13s %7s %8s %9s %11s %11s %s\n", "method", "offset", "ns", "total var",
			"var of vars", "var of mins", "ergodic");
		rows_used++;
	}
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct method_row *row = &rows[m];
		if (!row->ran)
			continue;
		const struct summary_result *s = &row->r.s;
		char nsb[16];
		kprintf("%-13s %7s %8s %9s %11s %11s %s\n", methods[m].name,
			fmt_fit_u64(a, sizeof a, s->min_of_mins, 7),
			row->r.unit == UNIT_TSC ? ns_of(nsb, sizeof nsb, (int64_t)s->min_of_mins) : "cycles",
			s->total_variance_ok ? fmt_fit_u64(b, sizeof b, s->total_variance, 9) : "overflow",
			s->var_of_vars_ok ? fmt_fit_u64(c, sizeof c, s->var_of_vars, 11) : "overflow",
			s->var_of_mins_ok ? fmt_fit_u64(d, sizeof d, s->var_of_mins, 11) : "overflow",
			!row->v.valid ? "unknown" : row->v.ergodic ? "yes" : "NO");
		rows_used++;
	}
	kprintf("units: TSC ticks (ctr_: core cycles); variances in unit^2, var of vars unit^4\n");
	if (t->methods_skipped) {
		int k = fmt_format(line, sizeof line, "skipped:");
		for (int m = 0; m < METHOD_COUNT; m++)
			if ((cfg.methods >> m) & 1 && !rows[m].ran && k < (int)sizeof line)
				k += fmt_format(line + k, sizeof line - (size_t)k, " %s", methods[m].name);
		if (k < (int)sizeof line)
			fmt_format(line + k, sizeof line - (size_t)k, " (why: serial log)");
		kprintf("%.79s\n", line);
		rows_used++;
	}
	fmt_format(line, sizeof line, "recommended: %s (ergodic: var of vars <= %s, var of mins <= %s; paper 4)",
		   t->recommended >= 0 ? methods[t->recommended].name : t->methods_run ? "none ergodic" : "none ran",
		   fmt_fit_u64(a, sizeof a, cfg.max_var_of_vars, 6), fmt_fit_u64(b, sizeof b, cfg.max_var_of_mins, 6));
	kprintf("%.79s\n", line);
	rows_used += 2;

	/* The workloads, net of the offset, by the recommended method, else
	 * the first that ran (a TSC method before a counter method). */
	int by = t->recommended;
	for (int m = 0; by < 0 && m < METHOD_COUNT; m++)
		if (rows[m].ran && !method_is_ctr(m))
			by = m;
	for (int m = 0; by < 0 && m < METHOD_COUNT; m++)
		if (rows[m].ran)
			by = m;
	int wl_total = 0;
	for (int i = 0; by >= 0 && i < workload_count(); i++)
		wl_total += net_units[by][i] != 0;
	if (wl_total) {
		/* Core cycles and instructions: from the same windows when the
		 * counters were read beside the method, else from a counter
		 * method. */
		int cnt = -1;
		for (int i = 0; i < workload_count(); i++)
			if (net_units[by][i] & (1u << UNIT_CYC))
				cnt = by;
		for (int m = METHOD_FIRST_CTR; cnt < 0 && m < METHOD_COUNT; m++)
			if (rows[m].ran)
				cnt = m;
		fmt_format(line, sizeof line, "net of the offset (least minimum), by %s%s%s", methods[by].name,
			   cnt >= 0 && cnt != by ? "; counters by " : "", cnt >= 0 && cnt != by ? methods[cnt].name : "");
		kprintf("%.79s\n", line);
		if (cnt >= 0)
			kprintf("%-24s %10s %9s %12s %12s\n", "workload", "TSC ticks", "ns", "core cycles", "instructions");
		else
			kprintf("%-24s %10s %9s\n", "workload", "TSC ticks", "ns");
		rows_used += 2;
		int shown = 0;
		for (int i = 0; i < workload_count(); i++) {
			if (!net_units[by][i])
				continue;
			if (rows_used >= SCREEN_SUMMARY_ROWS - 1 && shown + 1 < wl_total) {
				kprintf("... and %d more workloads: see the serial log\n", wl_total - shown);
				break;
			}
			char nsb[16];
			int has_tsc = (net_units[by][i] >> UNIT_TSC) & 1;
			int64_t ticks = net_in[by][i][UNIT_TSC];
			int n = fmt_format(line, sizeof line, "%-24.24s %10s %9s", workload_at(i)->name,
				       has_tsc ? fmt_fit_i64(a, sizeof a, ticks, 10) : "-",
				       has_tsc ? ns_of(nsb, sizeof nsb, ticks) : "-");
			if (cnt >= 0) {
				int hc = (net_units[cnt][i] >> UNIT_CYC) & 1, hi = (net_units[cnt][i] >> UNIT_INS) & 1;
				fmt_format(line + n, sizeof line - (size_t)n, " %12s %12s",
					   hc ? fmt_fit_i64(b, sizeof b, net_in[cnt][i][UNIT_CYC], 12) : "-",
					   hi ? fmt_fit_i64(e, sizeof e, net_in[cnt][i][UNIT_INS], 12) : "-");
			}
			kprintf("%s\n", line);
			rows_used++;
			shown++;
		}
	}
	kprintf("%s\n", final_line);
	screen_qr(cpu, t, final_line, has_ucode, ucode);
	console_set_serial(1);
}

/* bench/report.c - see report.h. */
#include "report.h"
#include "code.h"
#include "walk.h"
#include "../kernel/config.h"
#include "../kernel/clocks.h"
#include "../kernel/console.h"
#include "../lib/figures.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"
#include "../lib/tscfreq.h"

#define ULL(x) ((unsigned long long)(x))

/* ticks as nanoseconds with three decimals when the unit is TSC ticks and
 * the TSC frequency is known, else NULL. buf holds 32 bytes. */
static const char *ns_of(char *buf, const char *unit, uint64_t ticks)
{
	uint64_t ps;
	if (unit != unit_key[UNIT_TSC] || !clocks_tsc_rate()->hz || ticks_to_ps(ticks, clocks_tsc_rate()->hz, &ps))
		return 0;
	fmt_format(buf, 32, "%llu.%03llu", ULL(ps / 1000), ULL(ps % 1000));
	return buf;
}

/* The same as a JSON value: the number, or null. */
static const char *ns_json(char *buf, const char *unit, uint64_t ticks)
{
	const char *ns = ns_of(buf, unit, ticks);
	return ns ? ns : "null";
}

/* The same for a human line, after a figure in TSC ticks: " (N ns)", or
 * " (ns unknown: no TSC rate)"; nothing for the counters' units, where
 * nanoseconds do not apply. buf holds 64 bytes. */
static const char *ns_human(char *buf, const char *unit, uint64_t ticks)
{
	char nsb[32];
	const char *ns = ns_of(nsb, unit, ticks);
	if (unit != unit_key[UNIT_TSC])
		return "";
	if (ns)
		fmt_format(buf, 64, " (%s ns)", ns);
	else
		fmt_format(buf, 64, " (ns unknown: %s)", clocks_tsc_rate()->hz ? "out of range" : "no TSC rate");
	return buf;
}

/* The unit's name for people, from its record key. */
static const char *uname(const char *unit)
{
	for (int u = 0; u < UNIT_COUNT; u++)
		if (unit == unit_key[u])
			return unit_name[u];
	return unit;
}

void report_run_start(enum method_id m, const struct workload *w, uint64_t ensembles,
		      uint64_t samples, uint64_t warmup, int resolution, const char *unit)
{
	if (config_human()) {
		kprintf("\nmethod %s: %s (%s); workload %s: %s\n", methods[m].name,
			methods[m].sequence, methods[m].source, w->name, w->desc);
		kprintf("method %s: %llu ensembles x %llu samples, %llu warm-up samples discarded%s; "
			"in the paper-format lines below 'cycles' means %s and variances are in %s squared\n",
			methods[m].name, ULL(ensembles), ULL(samples), ULL(warmup),
			resolution ? "; ensemble j measures the loop with j iterations (paper 3.3)" : "",
			uname(unit), uname(unit));
	}
	if (config_json())
	{
		struct rec r;
		rec_begin(&r, "method");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "sequence", methods[m].sequence);
		rec_str(&r, "source", methods[m].source);
		rec_str(&r, "workload", w->name);
		rec_u64(&r, "param", w->default_param);
		rec_bool(&r, "resolution", resolution);
		rec_u64(&r, "ensembles", ensembles);
		rec_u64(&r, "samples", samples);
		rec_u64(&r, "warmup", warmup);
		rec_str(&r, "unit", unit);
		rec_end(&r);
	}
}

void report_method_skip(enum method_id m, const char *why)
{
	kprintf("\nmethod %s: SKIPPED: %s\n", methods[m].name, why);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "skip");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "reason", why);
		rec_end(&r);
	}
}

/* Bytes of a figure's text: its decimal (lib/wide.h) and PAPER64_NOTE. */
#define FIG_SIZE (WIDE_DEC_SIZE + sizeof PAPER64_NOTE)

/* A figure as the paper's lines print it: the exact value (lib/wide.h),
 * with PAPER64_NOTE where the paper's 64-bit code would have overflowed,
 * or "none (no samples)" where the figure is missing (!ok). buf holds
 * FIG_SIZE bytes. */
static const char *paper_fig(char *buf, const struct wide *v, int ok, int paper64)
{
	char d[WIDE_DEC_SIZE];
	if (!ok)
		return "none (no samples)";
	fmt_format(buf, FIG_SIZE, "%s%s", wide_dec(d, sizeof d, v), paper64 ? PAPER64_NOTE : "");
	return buf;
}

/* v/1000 with three decimals, as lib/fmt.h fmt_milli, for a 128-bit v. */
static char *milli_text(char *buf, size_t size, u128 v)
{
	char ip[48];
	uint64_t frac;
	struct wide w = wide_from_u128(v);
	frac = wide_div_u64(&w, &w, 1000);
	fmt_format(buf, size, "%s.%03llu", wide_dec(ip, sizeof ip, &w), ULL(frac));
	return buf;
}

/* The compact ensemble record (output=both and json; docs/RECORDS.md
 * "Machine-readable output"): {"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,NMIS,SMIS]}, a fixed-position
 * array whose method and workload are those of the method record before it.
 * U is the unit's index in unit_key[] (0 TSC ticks, 1 core cycles, 2
 * instructions); VARIANCE is exact (lib/wide.h), null only when the
 * ensemble has no statistics (the full record's "error": "no samples");
 * SMIS, the last, is left out where MSR_SMI_COUNT is not read (the full
 * record's "smis": null). At most 6 + 1 + 6 * 21 + 40 + 3 = 176 bytes
 * whatever the figures (20 digits each, 39 for the variance). */
static void report_ensemble_compact(const char *unit, uint64_t j, const struct ensemble_stats *e,
				    const struct robust_stats *r, const struct disturbance *d)
{
	char var[48] = "null", smis[24] = "";
	int u = 0;
	while (u < UNIT_COUNT - 1 && unit != unit_key[u])
		u++;
	if (!e->error)
		wide_dec_u128(var, sizeof var, e->var);
	if (d->smi_ok)
		fmt_format(smis, sizeof smis, ",%llu", ULL(d->smis));
	kprintf(REPORT_COMPACT_RECORD, u, ULL(j), ULL(e->min), ULL(e->max), var,
		ULL(r->median), ULL(d->nmis), smis);
}

/* The TSC's step over the boot, from every ensemble's figures in TSC
 * ticks (results_step_add). */
static struct tsc_step tsc_step;

const struct tsc_step *report_tsc_step(void)
{
	return &tsc_step;
}

void report_tsc_step_reset(void)
{
	tsc_step = (struct tsc_step){ 0 };
}

void report_ensemble(enum method_id m, const struct workload *w, uint64_t j, uint64_t param,
		     const char *unit, int primary, const struct ensemble_stats *e,
		     const struct robust_stats *r, const struct disturbance *d)
{
	char mean[48], sd[48], nsbuf[32], var[FIG_SIZE];
	struct wide v = wide_from_u128(e->var);
	if (unit == unit_key[UNIT_TSC]) {
		/* Sample values all: the minimum, the nearest-rank quantiles
		 * (lib/robust.h) and the maximum. */
		const uint64_t f[] = { e->min, r->p1, r->q1, r->median, r->q3, r->p99, e->max };
		for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++)
			results_step_add(&tsc_step, f[i]);
	}
	if (!config_per_ensemble())
		return;
	if (config_human() && primary)
		kprintf(REPORT_PAPER_LINE, ULL(j), paper_fig(var, &v, !e->error, e->paper64),
			ULL(e->max_dev), ULL(e->min));
	if (!config_json())
		return;
	if (!config_full()) {
		report_ensemble_compact(unit, j, e, r, d);
		return;
	}
	if (e->error) {
		fmt_format(mean, sizeof mean, "null");
		fmt_format(sd, sizeof sd, "null");
	} else {
		milli_text(mean, sizeof mean, e->mean_milli);
		milli_text(sd, sizeof sd, stddev_milli(e->var));
	}
	struct rec k;
	rec_begin(&k, "ensemble");
	rec_str(&k, "method", methods[m].name);
	rec_str(&k, "workload", w->name);
	rec_u64(&k, "ensemble", j);
	rec_u64(&k, "param", param);
	rec_u64(&k, "samples", e->n);
	rec_str(&k, "unit", unit);
	rec_bool(&k, "primary", primary);
	rec_u64(&k, "min", e->min);
	rec_u64(&k, "max", e->max);
	rec_u64(&k, "max_dev", e->max_dev);
	rec_raw(&k, "variance", e->error ? "null" : wide_dec(var, sizeof var, &v));
	rec_raw(&k, "mean", mean);
	rec_raw(&k, "stddev", sd);
	rec_u64(&k, "p1", r->p1);
	rec_u64(&k, "q1", r->q1);
	rec_u64(&k, "median", r->median);
	rec_u64(&k, "q3", r->q3);
	rec_u64(&k, "p99", r->p99);
	rec_array(&k, "median_ci95");
	rec_u64(&k, 0, r->ci_low);
	rec_u64(&k, 0, r->ci_high);
	rec_array_end(&k);
	rec_u64(&k, "outliers_1_5iqr", r->outliers_1_5);
	rec_u64(&k, "outliers_3iqr", r->outliers_3);
	rec_u64_or_null(&k, "smis", d->smi_ok, d->smis);
	rec_u64(&k, "nmis", d->nmis);
	rec_raw(&k, "min_ns", ns_json(nsbuf, unit, e->min));
	if (e->error)
		rec_str(&k, "error", "no samples");
	else
		rec_null(&k, "error");
	rec_end(&k);
}

void report_disturbed(enum method_id m, const struct workload *w, uint64_t j,
		      const struct disturbance *d)
{
	kprintf("disturbed: method %s, workload %s, ensemble %llu: %llu SMIs, %llu NMIs while it was measured\n",
		methods[m].name, w->name, ULL(j), ULL(d->smis), ULL(d->nmis));
}

void report_smi_lost(enum method_id m, const struct workload *w, uint64_t j, const char *fault)
{
	kprintf("disturbances: MSR_SMI_COUNT (34H) faulted (%s) around method %s, workload %s, ensemble %llu: "
		"SMIs are unreadable from that ensemble on (no count, not 0)\n",
		fault, methods[m].name, w->name, ULL(j));
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "smi_unreadable");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_u64(&r, "ensemble", j);
		rec_str(&r, "fault", fault);
		rec_end(&r);
	}
}

void report_smi_choice(int ok, int intel)
{
	if (ok)
		kprintf("disturbances: SMIs counted per ensemble with MSR_SMI_COUNT (34H), NMIs by the NMI handler\n");
	else
		kprintf("disturbances: SMIs cannot be counted here (%s); NMIs are counted by the NMI handler\n",
			intel ? "MSR_SMI_COUNT (34H) faulted" : "MSR_SMI_COUNT (34H) is Intel's; not read on this vendor");
}

void report_samples(enum method_id m, const struct workload *w, uint64_t j, const char *unit,
		    const uint64_t *ticks, uint64_t n)
{
	if (n > DUMP_MAX_SAMPLES)
		n = DUMP_MAX_SAMPLES;
	for (uint64_t off = 0; off < n; off += 100) {
		uint64_t cnt = n - off < 100 ? n - off : 100;
		struct rec r;
		rec_begin(&r, "samples");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_u64(&r, "ensemble", j);
		rec_str(&r, "unit", unit);
		rec_u64(&r, "offset", off);
		rec_u64(&r, "total", n);
		rec_array(&r, "values");
		for (uint64_t i = 0; i < cnt; i++)
			rec_u64(&r, 0, ticks[off + i]);
		rec_array_end(&r);
		rec_end(&r);
	}
}

/* A signed difference a - b as text. */
static const char *sdiff(char *buf, uint64_t a, uint64_t b)
{
	if (a >= b)
		fmt_format(buf, 24, "%llu", ULL(a - b));
	else
		fmt_format(buf, 24, "-%llu", ULL(b - a));
	return buf;
}

/* The remark after net figure `what` on its line when it is flagged
 * (results_net_flag at resolution res, in unit un), else "". buf holds
 * 200 bytes. */
static const char *net_remark(char *buf, const char *what, enum net_flag f, uint64_t res, const char *un)
{
	if (f == NET_BELOW_ZERO)
		fmt_format(buf, 200, "; %s BELOW ZERO: under the empty window's, so not a duration (noise, or a "
			   "counter moving in steps)", what);
	else if (f == NET_BELOW_RESOLUTION)
		fmt_format(buf, 200, "; %s BELOW THE RESOLUTION of %llu %s: the body took less than that, not "
			   "this figure", what, ULL(res), un);
	else
		buf[0] = 0;
	return buf;
}

/* A signed difference a - b, at least INT64_MIN. */
static int64_t idiff(uint64_t a, uint64_t b)
{
	return a >= b ? (int64_t)(a - b) : b - a > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(b - a);
}

/* A figure into a record: v, or null where it is not given (!ok). */
static void rec_fig(struct rec *r, const char *key, uint64_t v, int ok)
{
	rec_u64_or_null(r, key, ok, v);
}

/* An exact figure (lib/wide.h) into a record: a JSON number of up to 97
 * digits, or null where it is missing (!ok). */
static void rec_wide(struct rec *r, const char *key, const struct wide *v, int ok)
{
	char d[WIDE_DEC_SIZE];
	rec_raw(r, key, ok ? wide_dec(d, sizeof d, v) : "null");
}

/* A signed difference a - b into a record. */
static void rec_diff(struct rec *r, const char *key, uint64_t a, uint64_t b)
{
	char buf[24];
	rec_raw(r, key, sdiff(buf, a, b));
}

void report_summary(enum method_id m, const struct workload *w, const struct workload_result *wr,
		    int primary)
{
	const struct summary_result *r = &wr->s;
	const char *un = unit_name[wr->unit], *uk = unit_key[wr->unit];
	char a[FIG_SIZE], b[FIG_SIZE], c[FIG_SIZE], n1[24], n2[24], nsb[64], k1[200], k2[200];
	unsigned p64 = r->paper64;
	/* The nets' flags, at the resolution known now (the TSC's step from
	 * the ensembles so far, results_resolution); none for the empty
	 * window and the resolution test, whose nets are not figures. */
	int nets = !(w->flags & (WL_OFFSET | WL_RESOLUTION));
	uint64_t res = results_resolution(&tsc_step, wr->unit);
	enum net_flag f_min = nets ? results_net_flag(idiff(r->min_of_mins, wr->offset), res) : NET_OK;
	enum net_flag f_med = nets ? results_net_flag(idiff(wr->median_of_medians, wr->offset_median), res) : NET_OK;
	if (config_human()) {
		if (primary) {
			kprintf("total number of spurious min values = %llu\n", ULL(r->spurious));
			kprintf("total variance = %s\n", paper_fig(a, &r->total_variance, r->total_variance_ok,
								    p64 & PAPER64_TOTAL_VARIANCE));
			kprintf("absolute max deviation = %llu\n", ULL(r->max_dev_all));
			kprintf("variance of variances = %s\n", paper_fig(a, &r->var_of_vars, r->var_of_vars_ok,
									   p64 & PAPER64_VAR_OF_VARS));
			kprintf("variance of minimum values = %s\n", paper_fig(a, &r->var_of_mins, r->var_of_mins_ok,
										p64 & PAPER64_VAR_OF_MINS));
		}
		kprintf("summary %s/%s: least minimum %llu %s%s, minimums %llu..%llu %s; "
			"total variance %s %s^2; variance of variances %s %s^4; "
			"variance of minimum values %s %s^2; absolute max deviation %llu %s; "
			"%llu spurious min values; %llu ensemble errors; %llu TSC ticks elapsed\n",
			methods[m].name, w->name, ULL(r->min_of_mins), un, ns_human(nsb, uk, r->min_of_mins),
			ULL(r->min_of_mins), ULL(r->max_of_mins), un, paper_fig(a, &r->total_variance, r->total_variance_ok, 0), un,
			paper_fig(b, &r->var_of_vars, r->var_of_vars_ok, 0), un,
			paper_fig(c, &r->var_of_mins, r->var_of_mins_ok, 0), un, ULL(r->max_dev_all), un,
			ULL(r->spurious), ULL(r->errors), ULL(wr->elapsed_ticks));
		if (!(w->flags & WL_RESOLUTION))
			kprintf("robust %s/%s: median of ensemble minimums %llu %s (95%% CI %llu..%llu), "
				"median of ensemble medians %llu %s; Tukey outliers %llu beyond 1.5 IQR and %llu beyond 3 IQR "
				"of %llu samples\n",
				methods[m].name, w->name, ULL(wr->median_of_mins), un, ULL(wr->mins_ci_low),
				ULL(wr->mins_ci_high), ULL(wr->median_of_medians), un, ULL(wr->outliers_1_5),
				ULL(wr->outliers_3), ULL(wr->samples_total));
		if (nets)
			kprintf("result %s/%s: %s %s net (least minimum %llu - offset %llu); "
				"median of ensemble medians net %s %s (%llu - the empty window's %llu)%s%s\n",
				methods[m].name, w->name, sdiff(n1, r->min_of_mins, wr->offset), un,
				ULL(r->min_of_mins), ULL(wr->offset),
				sdiff(n2, wr->median_of_medians, wr->offset_median), un,
				ULL(wr->median_of_medians), ULL(wr->offset_median),
				net_remark(k1, "the net", f_min, res, un),
				net_remark(k2, "the net median", f_med, res, un));
	}
	if (config_json()) {
		struct rec k;
		rec_begin(&k, "summary");
		rec_str(&k, "method", methods[m].name);
		rec_str(&k, "workload", w->name);
		rec_str(&k, "unit", uk);
		rec_bool(&k, "primary", primary);
		rec_u64(&k, "ensembles", r->ensembles);
		rec_u64(&k, "spurious", r->spurious);
		rec_wide(&k, "total_variance", &r->total_variance, r->total_variance_ok);
		rec_u64(&k, "max_dev_all", r->max_dev_all);
		rec_wide(&k, "var_of_vars", &r->var_of_vars, r->var_of_vars_ok);
		rec_wide(&k, "var_of_mins", &r->var_of_mins, r->var_of_mins_ok);
		rec_u64(&k, "min_of_mins", r->min_of_mins);
		rec_u64(&k, "max_of_mins", r->max_of_mins);
		rec_u64(&k, "errors", r->errors);
		rec_u64(&k, "elapsed_ticks", wr->elapsed_ticks);
		rec_u64(&k, "offset", wr->offset);
		rec_diff(&k, "net_min", r->min_of_mins, wr->offset);
		rec_u64(&k, "median_of_mins", wr->median_of_mins);
		rec_array(&k, "median_of_mins_ci95");
		rec_u64(&k, 0, wr->mins_ci_low);
		rec_u64(&k, 0, wr->mins_ci_high);
		rec_array_end(&k);
		rec_u64(&k, "median_of_medians", wr->median_of_medians);
		rec_u64(&k, "offset_median", wr->offset_median);
		rec_diff(&k, "net_median", wr->median_of_medians, wr->offset_median);
		rec_u64(&k, "outliers_1_5iqr", wr->outliers_1_5);
		rec_u64(&k, "outliers_3iqr", wr->outliers_3);
		rec_u64(&k, "samples_total", wr->samples_total);
		/* Only on a flagged net (docs/RECORDS.md "Machine-readable output"). */
		if (f_min || f_med) {
			if (f_min)
				rec_str(&k, "net_min_flag", results_net_flag_key(f_min));
			if (f_med)
				rec_str(&k, "net_median_flag", results_net_flag_key(f_med));
			rec_u64(&k, "resolution", res);
		}
		rec_end(&k);
	}
}

void report_counters(enum method_id m, const struct workload *w, const struct workload_result *out,
		     int beside_tsc)
{
	const struct workload_result *cy = &out[UNIT_CYC], *in = &out[UNIT_INS], *ts = &out[UNIT_TSC];
	char nc[24], ni[24], ratio[32] = "null", clock[200] = "";
	sdiff(nc, cy->s.min_of_mins, cy->offset);
	sdiff(ni, in->s.min_of_mins, in->offset);
	/* Core cycles per TSC tick while the body ran, from the net medians
	 * in both units (lib/figures.h): the counters' window is longer than
	 * the TSC's, and only the difference from the empty window compares
	 * like with like. */
	if (beside_tsc) {
		uint64_t milli;
		const char *why = clock_ratio_milli(cy->median_of_medians, cy->offset_median,
						    ts->median_of_medians, ts->offset_median, &milli);
		if (why) {
			fmt_format(clock, sizeof clock, "; core cycles per TSC tick not given: %s", why);
		} else {
			fmt_milli(ratio, sizeof ratio, milli);
			fmt_format(clock, sizeof clock, "; %s core cycles per TSC tick (net medians: the core's "
				   "clock over the TSC's)", ratio);
		}
	}
	char k1[200], k2[200];
	int nets = !(w->flags & (WL_OFFSET | WL_RESOLUTION));
	if (config_human())
		kprintf("counters %s/%s: %s core cycles and %s instructions retired net of the offset "
			"(least minimums %llu core cycles, %llu instructions)%s%s%s\n",
			methods[m].name, w->name, nc, ni, ULL(cy->s.min_of_mins), ULL(in->s.min_of_mins), clock,
			net_remark(k1, "core cycles", nets ? results_net_flag(idiff(cy->s.min_of_mins, cy->offset), 1) : NET_OK, 1,
				   unit_name[UNIT_CYC]),
			net_remark(k2, "instructions", nets ? results_net_flag(idiff(in->s.min_of_mins, in->offset), 1) : NET_OK, 1,
				   unit_name[UNIT_INS]));
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "counters");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_raw(&r, "net_core_cycles", nc);
		rec_raw(&r, "net_instructions", ni);
		rec_raw(&r, "core_cycles_per_tsc_tick", ratio);
		rec_end(&r);
	}
}

void report_counters_choice(int on, const char *why, const char *ins_label, const char *cyc_label)
{
	if (on)
		kprintf("counters: beside each TSC method, %s (instructions retired) and %s (core cycles) are read "
			"with RDMSR just outside the TSC window\n", ins_label, cyc_label);
	else
		kprintf("counters: none read beside the TSC methods: %s (see the env: pmu: lines)\n", why);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "counters_choice");
		rec_bool(&r, "beside", on);
		rec_str(&r, "instructions", on ? ins_label : "");
		rec_str(&r, "core_cycles", on ? cyc_label : "");
		rec_str(&r, "reason", why);
		rec_end(&r);
	}
}

void report_progress(enum method_id m, const struct workload *w, uint64_t done, uint64_t total,
		     uint64_t elapsed_ticks)
{
	char secs[40] = "";
	uint64_t ns;
	if (ticks_to_ns(elapsed_ticks, clocks_tsc_rate()->hz, &ns) == 0)
		fmt_format(secs, sizeof secs, " (%llu.%01llu s)", ULL(ns / 1000000000u), ULL(ns / 100000000u % 10));
	kprintf("progress: method %s, workload %s: ensemble %llu of %llu done, %llu TSC ticks elapsed%s\n",
		methods[m].name, w->name, ULL(done), ULL(total), ULL(elapsed_ticks), secs);
}

void report_verdict(enum method_id m, const struct verdict *v, uint64_t max_var_of_vars,
		    uint64_t max_var_of_mins)
{
	const char *un = unit_name[v->unit];
	char a[FIG_SIZE], b[FIG_SIZE];
	int vv = wide_cmp_u64(&v->var_of_vars, max_var_of_vars), vm = wide_cmp_u64(&v->var_of_mins, max_var_of_mins);
	kprintf("verdict %s: %s: variance of variances %s %s^4 (%s %llu), variance of minimum values "
		"%s %s^2 (%s %llu); offset %llu %s (paper section 4, steps 1-2)\n",
		methods[m].name, !v->valid ? "UNKNOWN" : v->ergodic ? "ergodic" : "NOT ergodic",
		paper_fig(a, &v->var_of_vars, v->var_of_vars_ok, 0), un,
		!v->var_of_vars_ok ? "limit" : vv <= 0 ? "<=" : ">", ULL(max_var_of_vars),
		paper_fig(b, &v->var_of_mins, v->var_of_mins_ok, 0), un,
		!v->var_of_mins_ok ? "limit" : vm <= 0 ? "<=" : ">", ULL(max_var_of_mins), ULL(v->offset), un);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "verdict");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "unit", unit_key[v->unit]);
		rec_bool(&r, "valid", v->valid);
		rec_bool(&r, "ergodic", v->ergodic);
		rec_wide(&r, "var_of_vars", &v->var_of_vars, v->var_of_vars_ok);
		rec_wide(&r, "var_of_mins", &v->var_of_mins, v->var_of_mins_ok);
		rec_u64(&r, "max_var_of_vars", max_var_of_vars);
		rec_u64(&r, "max_var_of_mins", max_var_of_mins);
		rec_u64(&r, "offset", v->offset);
		rec_end(&r);
	}
}

void report_walk(enum method_id m, const struct workload *w, int resolution, uint64_t param, int bad,
		 const struct walk_result *r)
{
	char size[32] = "";
	if (resolution)
		fmt_format(size, sizeof size, " loop_size:%llu", ULL(param));
	if (config_human() && bad && r->steps)
		kprintf("walk %s/%s%s: incomplete: more than %llu single steps\n", methods[m].name, w->name,
			size, ULL(WALK_MAX_STEPS));
	else if (config_human() && bad)
		kprintf("walk %s/%s%s: incomplete: too many window markers\n", methods[m].name, w->name, size);
	else if (config_human())
		kprintf("walk %s/%s%s: body %llu instructions; %llu instructions between the start "
			"sequence and the body, %llu between the body and the stop sequence (one sample "
			"single-stepped with RFLAGS.TF: %llu steps, %llu window%s)\n",
			methods[m].name, w->name, size, ULL(r->body), ULL(r->gap_before), ULL(r->gap_after),
			ULL(r->steps), ULL(r->windows), r->windows == 1 ? "" : "s");
	if (config_json()) {
		struct rec k;
		rec_begin(&k, "walk");
		rec_str(&k, "method", methods[m].name);
		rec_str(&k, "workload", w->name);
		rec_u64(&k, "param", param);
		rec_bool(&k, "complete", !bad);
		rec_u64(&k, "body", r->body);
		rec_u64(&k, "gap_before", r->gap_before);
		rec_u64(&k, "gap_after", r->gap_after);
		rec_u64(&k, "windows", r->windows);
		rec_u64(&k, "steps", r->steps);
		rec_end(&k);
	}
}

void report_resolution(enum method_id m, const struct resolution *res)
{
	const struct resolution_figures *r = &res->f;
	char small[64], bound[64];
	if (r->found)
		kprintf("resolution %s: minimum flat for loop sizes 0..%llu, then %llu changes; most common gap "
			"%llu loop iterations (smallest %llu), most common rise %llu %s; %s; "
			"%llu spurious min values; resolution: %llu loop iterations (paper 3.3.1)\n",
			methods[m].name, ULL(r->flat_until), ULL(r->changes), ULL(r->common_gap),
			ULL(r->smallest_gap), ULL(r->common_step), unit_name[res->unit],
			r->strictly_increasing ? "minimums rise strictly with loop size"
					       : "minimums do not rise strictly",
			ULL(res->spurious), ULL(r->common_gap));
	else if (r->changes == 0)
		kprintf("resolution %s: not found: the minimum never changed over loop sizes 0..%llu%s\n",
			methods[m].name, ULL(r->loop_sizes - 1),
			r->longest_flat ? fmt_format(bound, sizeof bound, ": the resolution is coarser than "
						     "%llu loop iterations", ULL(r->longest_flat)), bound : "");
	else
		kprintf("resolution %s: not found: the minimum changed only once, at loop size %llu (%s), and "
			"one change gives no gap to measure%s\n",
			methods[m].name, ULL(r->flat_until + 1),
			r->common_step ? fmt_format(small, sizeof small, "a rise of %llu %s", ULL(r->common_step),
						    unit_name[res->unit]), small : "a drop",
			r->longest_flat ? fmt_format(bound, sizeof bound, "; coarser than %llu loop iterations "
						     "(the longest flat stretch)", ULL(r->longest_flat)), bound : "");
	if (config_json()) {
		struct rec k;
		rec_begin(&k, "resolution");
		rec_str(&k, "method", methods[m].name);
		rec_u64(&k, "loop_sizes", r->loop_sizes);
		rec_u64(&k, "spurious", res->spurious);
		rec_bool(&k, "strictly_increasing", r->strictly_increasing);
		rec_u64(&k, "flat_until", r->flat_until);
		rec_u64(&k, "changes", r->changes);
		rec_fig(&k, "resolution_iterations", r->common_gap, r->found);
		rec_fig(&k, "smallest_gap", r->smallest_gap, r->found);
		rec_fig(&k, "coarser_than", r->longest_flat, !r->found && r->longest_flat);
		rec_u64(&k, "step", r->common_step);
		rec_str(&k, "unit", unit_key[res->unit]);
		rec_end(&k);
	}
}

void report_recommendation(int m, const char *why)
{
	if (m >= 0)
		kprintf("\nrecommendation: use method %s (%s): %s\n", methods[m].name,
			methods[m].sequence, why);
	else
		kprintf("\nrecommendation: none: %s\n", why);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "recommendation");
		rec_str(&r, "method", m >= 0 ? methods[m].name : 0);
		rec_str(&r, "reason", why);
		rec_end(&r);
	}
}

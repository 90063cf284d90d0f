/* bench/report.c - see report.h. */
#include "report.h"
#include "code.h"
#include "run.h"
#include "walk.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/figures.h"
#include "../lib/fmt.h"
#include "../lib/string.h"
#include "../lib/tscfreq.h"

#define ULL(x) ((unsigned long long)(x))

/* ticks as nanoseconds with three decimals when the unit is TSC ticks and
 * the TSC frequency is known, else NULL. buf holds 32 bytes. */
static const char *ns_of(char *buf, const char *unit, uint64_t ticks)
{
	uint64_t ps;
	if (unit != unit_key[UNIT_TSC] || !bench_tsc_hz() || ticks_to_ps(ticks, bench_tsc_hz(), &ps))
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
		fmt_format(buf, 64, " (ns unknown: %s)", bench_tsc_hz() ? "out of range" : "no TSC rate");
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
		kprintf("{\"rec\":\"method\",\"method\":\"%s\",\"sequence\":\"%s\",\"source\":\"%s\","
			"\"workload\":\"%s\",\"param\":%llu,\"resolution\":%s,\"ensembles\":%llu,\"samples\":%llu,"
			"\"warmup\":%llu,\"unit\":\"%s\"}\n",
			methods[m].name, methods[m].sequence, methods[m].source, w->name,
			ULL(w->default_param), resolution ? "true" : "false", ULL(ensembles), ULL(samples),
			ULL(warmup), unit);
}

void report_method_skip(enum method_id m, const char *why)
{
	kprintf("\nmethod %s: SKIPPED: %s\n", methods[m].name, why);
	if (config_json())
		kprintf("{\"rec\":\"skip\",\"method\":\"%s\",\"reason\":\"%s\"}\n",
			methods[m].name, why);
}

/* The compact ensemble record (output=both and json; README "Machine-readable
 * output"): {"e":[U,J,MIN,MAX,VARIANCE,MEDIAN,NMIS,SMIS]}, a fixed-position
 * array whose method and workload are those of the method record before it.
 * U is the unit's index in unit_key[] (0 TSC ticks, 1 core cycles, 2
 * instructions); VARIANCE is null when it overflowed (the full record's
 * "error": "overflow"); SMIS, the last, is left out where MSR_SMI_COUNT is
 * not read (the full record's "smis": null). At most 6 + 1 + 7 * 21 + 3 =
 * 157 bytes whatever the figures (20 digits each). */
static void report_ensemble_compact(const char *unit, uint64_t j, const struct ensemble_stats *e,
				    const struct robust_stats *r, const struct disturbance *d)
{
	char var[24] = "null", smis[24] = "";
	int u = 0;
	while (u < UNIT_COUNT - 1 && unit != unit_key[u])
		u++;
	if (!e->error)
		fmt_format(var, sizeof var, "%llu", ULL(e->var));
	if (d->smi_ok)
		fmt_format(smis, sizeof smis, ",%llu", ULL(d->smis));
	kprintf("{\"e\":[%d,%llu,%llu,%llu,%s,%llu,%llu%s]}\n", u, ULL(j), ULL(e->min), ULL(e->max), var,
		ULL(r->median), ULL(d->nmis), smis);
}

void report_ensemble(enum method_id m, const struct workload *w, uint64_t j, uint64_t param,
		     const char *unit, int primary, const struct ensemble_stats *e,
		     const struct robust_stats *r, const struct disturbance *d)
{
	char mean[32], sd[32], var[24] = "null", smis[24] = "null", nsbuf[32];
	if (!config_per_ensemble())
		return;
	if (config_human() && primary) {
		if (e->error)
			kprintf("loop_size:%llu >>>> variance(cycles): ERROR (128-bit overflow in var_calc); "
				"max_deviation: %llu ;min time: %llu\n",
				ULL(j), ULL(e->max_dev), ULL(e->min));
		else
			kprintf("loop_size:%llu >>>> variance(cycles): %llu; max_deviation: %llu ;min time: %llu\n",
				ULL(j), ULL(e->var), ULL(e->max_dev), ULL(e->min));
	}
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
		fmt_milli(mean, sizeof mean, e->mean_milli);
		fmt_milli(sd, sizeof sd, stddev_milli(e->var));
		fmt_format(var, sizeof var, "%llu", ULL(e->var));
	}
	kprintf("{\"rec\":\"ensemble\",\"method\":\"%s\",\"workload\":\"%s\",\"ensemble\":%llu,"
		"\"param\":%llu,\"samples\":%llu,\"unit\":\"%s\",\"primary\":%s,\"min\":%llu,\"max\":%llu,"
		"\"max_dev\":%llu,\"variance\":%s,\"mean\":%s,\"stddev\":%s,\"p1\":%llu,\"q1\":%llu,"
		"\"median\":%llu,\"q3\":%llu,\"p99\":%llu,\"median_ci95\":[%llu,%llu],"
		"\"outliers_1_5iqr\":%llu,\"outliers_3iqr\":%llu,\"smis\":%s,\"nmis\":%llu,\"min_ns\":%s,\"error\":%s}\n",
		methods[m].name, w->name, ULL(j), ULL(param), ULL(e->n), unit, primary ? "true" : "false",
		ULL(e->min), ULL(e->max),
		ULL(e->max_dev), var, mean, sd, ULL(r->p1), ULL(r->q1), ULL(r->median), ULL(r->q3),
		ULL(r->p99), ULL(r->ci_low), ULL(r->ci_high), ULL(r->outliers_1_5),
		ULL(r->outliers_3), d->smi_ok ? (fmt_format(smis, sizeof smis, "%llu", ULL(d->smis)), smis) : "null",
		ULL(d->nmis), ns_json(nsbuf, unit, e->min), e->error ? "\"overflow\"" : "null");
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
	if (config_json())
		kprintf("{\"rec\":\"smi_unreadable\",\"method\":\"%s\",\"workload\":\"%s\",\"ensemble\":%llu,"
			"\"fault\":\"%s\"}\n", methods[m].name, w->name, ULL(j), fault);
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
	char line[2600];
	if (n > DUMP_MAX_SAMPLES)
		n = DUMP_MAX_SAMPLES;
	for (uint64_t off = 0; off < n; off += 100) {
		uint64_t cnt = n - off < 100 ? n - off : 100;
		int len = fmt_format(line, sizeof line,
				     "{\"rec\":\"samples\",\"method\":\"%s\",\"workload\":\"%s\","
				     "\"ensemble\":%llu,\"unit\":\"%s\",\"offset\":%llu,"
				     "\"total\":%llu,\"values\":[",
				     methods[m].name, w->name, ULL(j), unit, ULL(off), ULL(n));
		for (uint64_t i = 0; i < cnt; i++)
			len += fmt_format(line + len, sizeof line - (size_t)len, "%s%llu",
					  i ? "," : "", ULL(ticks[off + i]));
		fmt_format(line + len, sizeof line - (size_t)len, "]}\n");
		console_write(line, (size_t)(len + 3));
	}
}

/* A summary figure, or "ERROR"/null where it overflowed. */
static const char *fig(char *buf, uint64_t v, int ok, const char *bad)
{
	if (!ok)
		return bad;
	fmt_format(buf, 24, "%llu", ULL(v));
	return buf;
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

void report_summary(enum method_id m, const struct workload *w, const struct workload_result *wr,
		    int primary)
{
	const struct summary_result *r = &wr->s;
	const char *un = unit_name[wr->unit], *uk = unit_key[wr->unit];
	char a[24], b[24], c[24], n1[24], n2[24], nsb[64];
	if (config_human()) {
		if (primary) {
			kprintf("total number of spurious min values = %llu\n", ULL(r->spurious));
			kprintf("total variance = %s\n", fig(a, r->total_variance, r->total_variance_ok, "ERROR (overflow)"));
			kprintf("absolute max deviation = %llu\n", ULL(r->max_dev_all));
			kprintf("variance of variances = %s\n", fig(a, r->var_of_vars, r->var_of_vars_ok, "ERROR (overflow)"));
			kprintf("variance of minimum values = %s\n", fig(a, r->var_of_mins, r->var_of_mins_ok, "ERROR (overflow)"));
		}
		kprintf("summary %s/%s: least minimum %llu %s%s, minimums %llu..%llu %s; "
			"total variance %s %s^2; variance of variances %s %s^4; "
			"variance of minimum values %s %s^2; absolute max deviation %llu %s; "
			"%llu spurious min values; %llu ensemble errors; %llu TSC ticks elapsed\n",
			methods[m].name, w->name, ULL(r->min_of_mins), un, ns_human(nsb, uk, r->min_of_mins),
			ULL(r->min_of_mins), ULL(r->max_of_mins), un, fig(a, r->total_variance, r->total_variance_ok, "ERROR"), un,
			fig(b, r->var_of_vars, r->var_of_vars_ok, "ERROR"), un,
			fig(c, r->var_of_mins, r->var_of_mins_ok, "ERROR"), un, ULL(r->max_dev_all), un,
			ULL(r->spurious), ULL(r->errors), ULL(wr->elapsed_ticks));
		if (!(w->flags & WL_RESOLUTION))
			kprintf("robust %s/%s: median of ensemble minimums %llu %s (95%% CI %llu..%llu), "
				"median of ensemble medians %llu %s; Tukey outliers %llu beyond 1.5 IQR and %llu beyond 3 IQR "
				"of %llu samples\n",
				methods[m].name, w->name, ULL(wr->median_of_mins), un, ULL(wr->mins_ci_low),
				ULL(wr->mins_ci_high), ULL(wr->median_of_medians), un, ULL(wr->outliers_1_5),
				ULL(wr->outliers_3), ULL(wr->samples_total));
		if (!(w->flags & (WL_OFFSET | WL_RESOLUTION)))
			kprintf("result %s/%s: %s %s net (least minimum %llu - offset %llu); "
				"median of ensemble medians net %s %s (%llu - the empty window's %llu)\n",
				methods[m].name, w->name, sdiff(n1, r->min_of_mins, wr->offset), un,
				ULL(r->min_of_mins), ULL(wr->offset),
				sdiff(n2, wr->median_of_medians, wr->offset_median), un,
				ULL(wr->median_of_medians), ULL(wr->offset_median));
	}
	if (config_json()) {
		kprintf("{\"rec\":\"summary\",\"method\":\"%s\",\"workload\":\"%s\",\"unit\":\"%s\","
			"\"primary\":%s,\"ensembles\":%llu,\"spurious\":%llu,\"total_variance\":%s,\"max_dev_all\":%llu,"
			"\"var_of_vars\":%s,\"var_of_mins\":%s,\"min_of_mins\":%llu,\"max_of_mins\":%llu,"
			"\"errors\":%llu,\"elapsed_ticks\":%llu,\"offset\":%llu,\"net_min\":%s,"
			"\"median_of_mins\":%llu,\"median_of_mins_ci95\":[%llu,%llu],"
			"\"median_of_medians\":%llu,\"offset_median\":%llu,\"net_median\":%s,\"outliers_1_5iqr\":%llu,"
			"\"outliers_3iqr\":%llu,\"samples_total\":%llu}\n",
			methods[m].name, w->name, uk, primary ? "true" : "false", ULL(r->ensembles), ULL(r->spurious),
			fig(a, r->total_variance, r->total_variance_ok, "null"), ULL(r->max_dev_all),
			fig(b, r->var_of_vars, r->var_of_vars_ok, "null"),
			fig(c, r->var_of_mins, r->var_of_mins_ok, "null"), ULL(r->min_of_mins),
			ULL(r->max_of_mins), ULL(r->errors), ULL(wr->elapsed_ticks), ULL(wr->offset),
			sdiff(n1, r->min_of_mins, wr->offset), ULL(wr->median_of_mins), ULL(wr->mins_ci_low),
			ULL(wr->mins_ci_high), ULL(wr->median_of_medians), ULL(wr->offset_median),
			sdiff(n2, wr->median_of_medians, wr->offset_median), ULL(wr->outliers_1_5),
			ULL(wr->outliers_3), ULL(wr->samples_total));
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
	if (config_human())
		kprintf("counters %s/%s: %s core cycles and %s instructions retired net of the offset "
			"(least minimums %llu core cycles, %llu instructions)%s\n",
			methods[m].name, w->name, nc, ni, ULL(cy->s.min_of_mins), ULL(in->s.min_of_mins), clock);
	if (config_json())
		kprintf("{\"rec\":\"counters\",\"method\":\"%s\",\"workload\":\"%s\",\"net_core_cycles\":%s,"
			"\"net_instructions\":%s,\"core_cycles_per_tsc_tick\":%s}\n",
			methods[m].name, w->name, nc, ni, ratio);
}

void report_counters_choice(int on, const char *why, const char *ins_label, const char *cyc_label)
{
	if (on)
		kprintf("counters: beside each TSC method, %s (instructions retired) and %s (core cycles) are read "
			"with RDMSR just outside the TSC window\n", ins_label, cyc_label);
	else
		kprintf("counters: none read beside the TSC methods: %s (see the env: pmu: lines)\n", why);
	if (config_json())
		kprintf("{\"rec\":\"counters_choice\",\"beside\":%s,\"instructions\":\"%s\",\"core_cycles\":\"%s\","
			"\"reason\":\"%s\"}\n",
			on ? "true" : "false", on ? ins_label : "", on ? cyc_label : "", why);
}

void report_progress(enum method_id m, const struct workload *w, uint64_t done, uint64_t total,
		     uint64_t elapsed_ticks)
{
	char secs[40] = "";
	uint64_t ns;
	if (ticks_to_ns(elapsed_ticks, bench_tsc_hz(), &ns) == 0)
		fmt_format(secs, sizeof secs, " (%llu.%01llu s)", ULL(ns / 1000000000u), ULL(ns / 100000000u % 10));
	kprintf("progress: method %s, workload %s: ensemble %llu of %llu done, %llu TSC ticks elapsed%s\n",
		methods[m].name, w->name, ULL(done), ULL(total), ULL(elapsed_ticks), secs);
}

void report_verdict(enum method_id m, const struct verdict *v)
{
	const char *un = unit_name[v->unit];
	if (!v->valid)
		kprintf("verdict %s: UNKNOWN: the variance of variances or of minimum values overflowed\n",
			methods[m].name);
	else
		kprintf("verdict %s: %s: variance of variances %llu %s^4 (%s %llu), variance of minimum values "
			"%llu %s^2 (%s %llu); offset %llu %s (paper section 4, steps 1-2)\n",
			methods[m].name, v->ergodic ? "ergodic" : "NOT ergodic", ULL(v->var_of_vars), un,
			v->var_of_vars <= cfg.max_var_of_vars ? "<=" : ">", ULL(cfg.max_var_of_vars),
			ULL(v->var_of_mins), un, v->var_of_mins <= cfg.max_var_of_mins ? "<=" : ">",
			ULL(cfg.max_var_of_mins), ULL(v->offset), un);
	if (config_json())
		kprintf("{\"rec\":\"verdict\",\"method\":\"%s\",\"unit\":\"%s\",\"valid\":%s,\"ergodic\":%s,"
			"\"var_of_vars\":%llu,\"var_of_mins\":%llu,\"max_var_of_vars\":%llu,"
			"\"max_var_of_mins\":%llu,\"offset\":%llu}\n",
			methods[m].name, unit_key[v->unit], v->valid ? "true" : "false",
			v->ergodic ? "true" : "false", ULL(v->var_of_vars), ULL(v->var_of_mins),
			ULL(cfg.max_var_of_vars), ULL(cfg.max_var_of_mins), ULL(v->offset));
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
	if (config_json())
		kprintf("{\"rec\":\"walk\",\"method\":\"%s\",\"workload\":\"%s\",\"param\":%llu,"
			"\"complete\":%s,\"body\":%llu,\"gap_before\":%llu,\"gap_after\":%llu,"
			"\"windows\":%llu,\"steps\":%llu}\n",
			methods[m].name, w->name, ULL(param), bad ? "false" : "true", ULL(r->body),
			ULL(r->gap_before), ULL(r->gap_after), ULL(r->windows), ULL(r->steps));
}

void report_resolution(enum method_id m, const struct resolution *res)
{
	const struct resolution_figures *r = &res->f;
	char gap[24], small[64], bound[64];
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
	if (config_json())
		kprintf("{\"rec\":\"resolution\",\"method\":\"%s\",\"loop_sizes\":%llu,\"spurious\":%llu,"
			"\"strictly_increasing\":%s,\"flat_until\":%llu,\"changes\":%llu,"
			"\"resolution_iterations\":%s,\"smallest_gap\":%s,\"coarser_than\":%s,"
			"\"step\":%llu,\"unit\":\"%s\"}\n",
			methods[m].name, ULL(r->loop_sizes), ULL(res->spurious),
			r->strictly_increasing ? "true" : "false", ULL(r->flat_until), ULL(r->changes),
			fig(gap, r->common_gap, r->found, "null"), fig(small, r->smallest_gap, r->found, "null"),
			fig(bound, r->longest_flat, !r->found && r->longest_flat, "null"),
			ULL(r->common_step), unit_key[res->unit]);
}

void report_recommendation(int m, const char *why)
{
	if (m >= 0)
		kprintf("\nrecommendation: use method %s (%s): %s\n", methods[m].name,
			methods[m].sequence, why);
	else
		kprintf("\nrecommendation: none: %s\n", why);
	if (config_json()) {
		if (m >= 0)
			kprintf("{\"rec\":\"recommendation\",\"method\":\"%s\",\"reason\":\"%s\"}\n",
				methods[m].name, why);
		else
			kprintf("{\"rec\":\"recommendation\",\"method\":null,\"reason\":\"%s\"}\n", why);
	}
}

/* --- the serial estimate ------------------------------------------------
 * What the run will print, estimated from the counts of the lines and
 * records it prints and their typical sizes, measured on QEMU TCG runs of
 * the default size (the figures of a noisy TCG run: about 11 characters
 * for the three of a paper-format line, 20 for the five of a compact
 * record) and of 1 and 3 methods x 2 and 7 workloads for the fixed part.
 * tests/bench/serial_budget.py prints how far it is from what a run
 * printed. Not counted: progress lines (one every few seconds) and the
 * code= lines. */
#define EST_PAPER_LINE 75 /* "loop_size:J >>>> ..." without J's digits */
#define EST_COMPACT 32    /* {"e":[U,J,...]} without J's digits, SMIs not counted */
#define EST_FULL 349      /* a full ensemble record without J, names, unit and samples */
#define EST_SECONDARY_SERIES_HALF 2 /* a counter's series prints half a series' fixed part */
#define EST_SELF 700      /* this line and record */

/* Bytes besides the ensembles' lines, by output level: per series of the
 * method's own unit (method lines and record, summaries), per method run
 * (its verdict), once (recommendation, tables, end record, final line). */
static const struct {
	uint16_t series, method, once;
} est_fixed[] = {
	[OUTPUT_HUMAN] = { 1230, 100, 950 },
	[OUTPUT_JSON] = { 750, 400, 1300 },
	[OUTPUT_BOTH] = { 1960, 300, 1400 },
	[OUTPUT_FULL] = { 1960, 300, 1400 },
	[OUTPUT_SUMMARY] = { 1960, 300, 1400 },
};

/* Decimal digits of x. */
static uint64_t digits_of(uint64_t x)
{
	uint64_t d = 1;
	for (; x >= 10; x /= 10)
		d++;
	return d;
}

/* Decimal digits of 0..n-1, summed: what the ensemble numbers take. */
static uint64_t digits_below(uint64_t n)
{
	uint64_t sum = 0, lo = 0, hi = 10;
	for (uint64_t d = 1; lo < n; d++, lo = hi, hi *= 10)
		sum += d * ((n < hi ? n : hi) - lo);
	return sum;
}

/* What the ensembles of one (method, workload) print, with its fixed part:
 * units series (the method's own first), lm and lw the names' lengths. */
static uint64_t est_workload(int units, uint64_t lm, uint64_t lw, int resolution, uint64_t *paper,
			     uint64_t *records)
{
	uint64_t e = cfg.ensembles, jd = digits_below(e), b = 0;
	if (config_human() && config_per_ensemble()) {
		b += e * EST_PAPER_LINE + jd;
		*paper += e;
	}
	for (int u = 0; u < units && config_json() && config_per_ensemble(); u++) {
		b += config_full() ? e * (EST_FULL + lm + lw + strlen(unit_key[u]) + digits_of(cfg.samples)) + jd
				   : e * EST_COMPACT + jd;
		*records += e;
	}
	b += est_fixed[cfg.output].series + (uint64_t)(units - 1) * est_fixed[cfg.output].series /
					       EST_SECONDARY_SERIES_HALF;
	if (cfg.dump != CFG_OFF) { /* samples records of at most 100 values of ~3 digits */
		uint64_t n = cfg.samples < DUMP_MAX_SAMPLES ? cfg.samples : DUMP_MAX_SAMPLES;
		b += (n + 99) / 100 * (100 + lm + lw) + n * 4;
	}
	if (cfg.walk) /* a walk line and record per window walked */
		b += (resolution ? e : 1) * ((config_human() ? 250 : 0) + (config_json() ? 150 : 0));
	return b;
}

/* A CPU's own section in a per-CPU run (cpus=): its quiet:, lfence and
 * pmu: lines and records, measured under QEMU (about 3.5 KB). */
#define EST_PER_CPU 3500

void report_serial_estimate(const struct cpu_info *cpu, int counters, int cpus)
{
	uint64_t base = console_bytes_written() + EST_SELF + est_fixed[cfg.output].once;
	uint64_t bytes = base;
	uint64_t series = 0, paper = 0, records = 0;
	int run = 0;
	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		if (!((cfg.methods >> m) & 1))
			continue;
		const char *why = method_unavailable(m, cpu);
		uint64_t lm = strlen(methods[m].name);
		if (why || (method_is_ctr(m) && !counters)) { /* a skip line and record */
			uint64_t lw = why ? strlen(why) : 40;
			bytes += 20 + lm + lw + (config_json() ? 36 + lm + lw : 0u);
			continue;
		}
		int units = method_is_ctr(m) ? 2 : counters ? 3 : 1;
		run++;
		bytes += est_fixed[cfg.output].method;
		for (int i = 0; i < workload_count(); i++) {
			const struct workload *w = workload_at(i);
			int res = (w->flags & WL_RESOLUTION) != 0;
			if (!(w->flags & WL_OFFSET) && !(res ? cfg.resolution != 0 : config_workload_selected(i)))
				continue;
			bytes += est_workload(units, lm, strlen(w->name), res, &paper, &records);
			series += (uint64_t)units;
		}
		for (int k = 0; k < 2 && code_configured(); k++) { /* code=: N copies and 2N */
			bytes += est_workload(units, lm, strlen(cfg.code_name) + 3, 0, &paper, &records);
			series += (uint64_t)units;
		}
	}
	if (cpus > 1) { /* the same run on each CPU, each with its own section */
		bytes = base + (bytes - base + EST_PER_CPU) * (uint64_t)cpus;
		series *= (uint64_t)cpus;
		paper *= (uint64_t)cpus;
		records *= (uint64_t)cpus;
		run *= cpus;
	}
	uint32_t baud = console_serial_baud();
	uint64_t ms = baud ? bytes * 10000 / baud : 0; /* 8N1: 10 bits a byte */
	char when[128] = "but nothing goes to a serial port here (console=none, or no UART answered)", min[32] = "";
	if (ms >= 120000)
		fmt_format(min, sizeof min, " (%llu.%llu min)", ULL(ms / 60000), ULL(ms % 60000 / 6000));
	if (baud)
		fmt_format(when, sizeof when, "about %llu.%llu s%s at %u baud (8N1: 10 bits a byte)",
			   ULL(ms / 1000), ULL(ms % 1000 / 100), min, baud);
	char recs[64] = "no ensemble records";
	if (!config_per_ensemble())
		fmt_format(recs, sizeof recs, "no per-ensemble lines or records (output=summary)");
	else if (records)
		fmt_format(recs, sizeof recs, "%llu %s ensemble records", ULL(records),
			   config_full() ? "full" : "compact");
	kprintf("serial: this run prints about %llu KB (%llu bytes), %s; an estimate: the bytes printed so "
		"far plus %llu paper-format lines, %s and the summaries of %llu series of %llu ensembles "
		"(%d method%s run), at typical sizes measured under QEMU\n",
		ULL((bytes + 500) / 1000), ULL(bytes), when, ULL(paper), recs, ULL(series), ULL(cfg.ensembles),
		run, run == 1 ? "" : "s");
	if (config_json()) {
		char b[24] = "null", t[24] = "null";
		if (baud) {
			fmt_format(b, sizeof b, "%u", baud);
			fmt_format(t, sizeof t, "%llu", ULL(ms));
		}
		kprintf("{\"rec\":\"serial_estimate\",\"bytes\":%llu,\"baud\":%s,\"ms\":%s,\"paper_lines\":%llu,"
			"\"ensemble_records\":%llu,\"compact\":%s,\"series\":%llu,\"ensembles\":%llu,"
			"\"methods_run\":%d}\n",
			ULL(bytes), b, t, ULL(paper), ULL(records), config_full() ? "false" : "true",
			ULL(series), ULL(cfg.ensembles), run);
	}
}

/* bench/report.c - see report.h. */
#include "report.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"

#define ULL(x) ((unsigned long long)(x))

void report_run_start(enum method_id m, const struct workload *w, uint64_t ensembles,
		      uint64_t samples, uint64_t warmup, int resolution)
{
	if (config_human()) {
		kprintf("\nmethod %s: %s (%s); workload %s: %s\n", methods[m].name,
			methods[m].sequence, methods[m].source, w->name, w->desc);
		kprintf("method %s: %llu ensembles x %llu samples, %llu warm-up samples discarded%s; "
			"in the paper-format lines below 'cycles' means TSC ticks and variances are in TSC ticks squared\n",
			methods[m].name, ULL(ensembles), ULL(samples), ULL(warmup),
			resolution ? "; ensemble j measures the loop with j iterations (paper 3.3)" : "");
	}
	if (config_json())
		kprintf("{\"rec\":\"method\",\"method\":\"%s\",\"sequence\":\"%s\",\"source\":\"%s\","
			"\"workload\":\"%s\",\"param\":%s,\"ensembles\":%llu,\"samples\":%llu,"
			"\"warmup\":%llu,\"unit\":\"tsc_ticks\"}\n",
			methods[m].name, methods[m].sequence, methods[m].source, w->name,
			resolution ? "\"ensemble\"" : "0", ULL(ensembles), ULL(samples), ULL(warmup));
}

void report_method_skip(enum method_id m, const char *why)
{
	kprintf("\nmethod %s: SKIPPED: %s\n", methods[m].name, why);
	if (config_json())
		kprintf("{\"rec\":\"skip\",\"method\":\"%s\",\"reason\":\"%s\"}\n",
			methods[m].name, why);
}

void report_ensemble(enum method_id m, const struct workload *w, uint64_t j, uint64_t param,
		     const struct ensemble_stats *e, const struct robust_stats *r)
{
	char mean[32], sd[32], var[24] = "null";
	if (config_human()) {
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
	if (e->error) {
		fmt_format(mean, sizeof mean, "null");
		fmt_format(sd, sizeof sd, "null");
	} else {
		fmt_milli(mean, sizeof mean, e->mean_milli);
		fmt_milli(sd, sizeof sd, stddev_milli(e->var));
		fmt_format(var, sizeof var, "%llu", ULL(e->var));
	}
	kprintf("{\"rec\":\"ensemble\",\"method\":\"%s\",\"workload\":\"%s\",\"ensemble\":%llu,"
		"\"param\":%llu,\"samples\":%llu,\"unit\":\"tsc_ticks\",\"min\":%llu,\"max\":%llu,"
		"\"max_dev\":%llu,\"variance\":%s,\"mean\":%s,\"stddev\":%s,\"p1\":%llu,\"q1\":%llu,"
		"\"median\":%llu,\"q3\":%llu,\"p99\":%llu,\"median_ci95\":[%llu,%llu],"
		"\"outliers_1_5iqr\":%llu,\"outliers_3iqr\":%llu,\"error\":%s}\n",
		methods[m].name, w->name, ULL(j), ULL(param), ULL(e->n), ULL(e->min), ULL(e->max),
		ULL(e->max_dev), var, mean, sd, ULL(r->p1), ULL(r->q1), ULL(r->median), ULL(r->q3),
		ULL(r->p99), ULL(r->ci_low), ULL(r->ci_high), ULL(r->outliers_1_5),
		ULL(r->outliers_3), e->error ? "\"overflow\"" : "null");
}

void report_samples(enum method_id m, const struct workload *w, uint64_t j,
		    const uint64_t *ticks, uint64_t n)
{
	char line[2600];
	if (n > DUMP_MAX_SAMPLES)
		n = DUMP_MAX_SAMPLES;
	for (uint64_t off = 0; off < n; off += 100) {
		uint64_t cnt = n - off < 100 ? n - off : 100;
		int len = fmt_format(line, sizeof line,
				     "{\"rec\":\"samples\",\"method\":\"%s\",\"workload\":\"%s\","
				     "\"ensemble\":%llu,\"unit\":\"tsc_ticks\",\"offset\":%llu,"
				     "\"total\":%llu,\"values\":[",
				     methods[m].name, w->name, ULL(j), ULL(off), ULL(n));
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

void report_summary(enum method_id m, const struct workload *w, const struct workload_result *wr)
{
	const struct summary_result *r = &wr->s;
	char a[24], b[24], c[24], n1[24], n2[24];
	if (config_human()) {
		kprintf("total number of spurious min values = %llu\n", ULL(r->spurious));
		kprintf("total variance = %s\n", fig(a, r->total_variance, r->total_variance_ok, "ERROR (overflow)"));
		kprintf("absolute max deviation = %llu\n", ULL(r->max_dev_all));
		kprintf("variance of variances = %s\n", fig(a, r->var_of_vars, r->var_of_vars_ok, "ERROR (overflow)"));
		kprintf("variance of minimum values = %s\n", fig(a, r->var_of_mins, r->var_of_mins_ok, "ERROR (overflow)"));
		kprintf("summary %s/%s: least minimum %llu TSC ticks, minimums %llu..%llu TSC ticks; "
			"total variance %s TSC ticks^2; variance of variances %s TSC ticks^4; "
			"variance of minimum values %s TSC ticks^2; absolute max deviation %llu TSC ticks; "
			"%llu spurious min values; %llu ensemble errors; %llu TSC ticks elapsed\n",
			methods[m].name, w->name, ULL(r->min_of_mins), ULL(r->min_of_mins),
			ULL(r->max_of_mins), fig(a, r->total_variance, r->total_variance_ok, "ERROR"),
			fig(b, r->var_of_vars, r->var_of_vars_ok, "ERROR"),
			fig(c, r->var_of_mins, r->var_of_mins_ok, "ERROR"), ULL(r->max_dev_all),
			ULL(r->spurious), ULL(r->errors), ULL(wr->elapsed_ticks));
		if (!(w->flags & WL_RESOLUTION))
			kprintf("robust %s/%s: median of ensemble minimums %llu TSC ticks (95%% CI %llu..%llu), "
			"median of ensemble medians %llu TSC ticks; Tukey outliers %llu beyond 1.5 IQR and %llu beyond 3 IQR "
			"of %llu samples\n",
			methods[m].name, w->name, ULL(wr->median_of_mins), ULL(wr->mins_ci_low),
			ULL(wr->mins_ci_high), ULL(wr->median_of_medians), ULL(wr->outliers_1_5),
			ULL(wr->outliers_3), ULL(wr->samples_total));
		if (!(w->flags & (WL_OFFSET | WL_RESOLUTION)))
			kprintf("result %s/%s: %s TSC ticks net (least minimum %llu - offset %llu); "
				"median of ensemble medians net %s TSC ticks\n",
				methods[m].name, w->name, sdiff(n1, r->min_of_mins, wr->offset),
				ULL(r->min_of_mins), ULL(wr->offset),
				sdiff(n2, wr->median_of_medians, wr->offset));
	}
	if (config_json()) {
		int is_offset = (w->flags & WL_OFFSET) != 0;
		uint64_t off = is_offset ? r->min_of_mins : wr->offset;
		kprintf("{\"rec\":\"summary\",\"method\":\"%s\",\"workload\":\"%s\",\"unit\":\"tsc_ticks\","
			"\"ensembles\":%llu,\"spurious\":%llu,\"total_variance\":%s,\"max_dev_all\":%llu,"
			"\"var_of_vars\":%s,\"var_of_mins\":%s,\"min_of_mins\":%llu,\"max_of_mins\":%llu,"
			"\"errors\":%llu,\"elapsed_ticks\":%llu,\"offset\":%llu,\"net_min\":%s,"
			"\"median_of_mins\":%llu,\"median_of_mins_ci95\":[%llu,%llu],"
			"\"median_of_medians\":%llu,\"net_median\":%s,\"outliers_1_5iqr\":%llu,"
			"\"outliers_3iqr\":%llu,\"samples_total\":%llu}\n",
			methods[m].name, w->name, ULL(r->ensembles), ULL(r->spurious),
			fig(a, r->total_variance, r->total_variance_ok, "null"), ULL(r->max_dev_all),
			fig(b, r->var_of_vars, r->var_of_vars_ok, "null"),
			fig(c, r->var_of_mins, r->var_of_mins_ok, "null"), ULL(r->min_of_mins),
			ULL(r->max_of_mins), ULL(r->errors), ULL(wr->elapsed_ticks), ULL(off),
			sdiff(n1, r->min_of_mins, off), ULL(wr->median_of_mins), ULL(wr->mins_ci_low),
			ULL(wr->mins_ci_high), ULL(wr->median_of_medians),
			sdiff(n2, wr->median_of_medians, off), ULL(wr->outliers_1_5),
			ULL(wr->outliers_3), ULL(wr->samples_total));
	}
}

void report_progress(enum method_id m, const struct workload *w, uint64_t done, uint64_t total,
		     uint64_t elapsed_ticks)
{
	kprintf("progress: method %s, workload %s: ensemble %llu of %llu done, %llu TSC ticks elapsed\n",
		methods[m].name, w->name, ULL(done), ULL(total), ULL(elapsed_ticks));
}

void report_verdict(enum method_id m, const struct verdict *v)
{
	if (!v->valid)
		kprintf("verdict %s: UNKNOWN: the variance of variances or of minimum values overflowed\n",
			methods[m].name);
	else
		kprintf("verdict %s: %s: variance of variances %llu TSC ticks^4 (%s %llu), variance of minimum values "
			"%llu TSC ticks^2 (%s %llu); offset %llu TSC ticks (paper section 4, steps 1-2)\n",
			methods[m].name, v->ergodic ? "ergodic" : "NOT ergodic", ULL(v->var_of_vars),
			v->var_of_vars <= cfg.max_var_of_vars ? "<=" : ">", ULL(cfg.max_var_of_vars),
			ULL(v->var_of_mins), v->var_of_mins <= cfg.max_var_of_mins ? "<=" : ">",
			ULL(cfg.max_var_of_mins), ULL(v->offset));
	if (config_json())
		kprintf("{\"rec\":\"verdict\",\"method\":\"%s\",\"valid\":%s,\"ergodic\":%s,"
			"\"var_of_vars\":%llu,\"var_of_mins\":%llu,\"max_var_of_vars\":%llu,"
			"\"max_var_of_mins\":%llu,\"offset\":%llu}\n",
			methods[m].name, v->valid ? "true" : "false", v->ergodic ? "true" : "false",
			ULL(v->var_of_vars), ULL(v->var_of_mins), ULL(cfg.max_var_of_vars),
			ULL(cfg.max_var_of_mins), ULL(v->offset));
}

void report_resolution(enum method_id m, const struct resolution *r)
{
	char res[24];
	if (r->changes == 0)
		kprintf("resolution %s: the minimum never changed over loop sizes 0..%llu: the resolution is "
			"coarser than %llu loop iterations\n",
			methods[m].name, ULL(r->loop_sizes - 1), ULL(r->loop_sizes - 1));
	else
		kprintf("resolution %s: minimum flat for loop sizes 0..%llu, then %llu changes; most common gap "
			"%llu loop iterations (smallest %llu), most common step %llu TSC ticks; %s; "
			"%llu spurious min values; resolution: %llu loop iterations (paper 3.3.1)\n",
			methods[m].name, ULL(r->flat_until), ULL(r->changes), ULL(r->common_gap),
			ULL(r->smallest_gap), ULL(r->common_step),
			r->strictly_increasing ? "minimums rise strictly with loop size"
					       : "minimums do not rise strictly",
			ULL(r->spurious), ULL(r->common_gap));
	if (config_json())
		kprintf("{\"rec\":\"resolution\",\"method\":\"%s\",\"loop_sizes\":%llu,\"spurious\":%llu,"
			"\"strictly_increasing\":%s,\"flat_until\":%llu,\"changes\":%llu,"
			"\"resolution_iterations\":%s,\"smallest_gap\":%llu,\"step_ticks\":%llu}\n",
			methods[m].name, ULL(r->loop_sizes), ULL(r->spurious),
			r->strictly_increasing ? "true" : "false", ULL(r->flat_until), ULL(r->changes),
			fig(res, r->common_gap, r->changes != 0, "null"),
			ULL(r->smallest_gap), ULL(r->common_step));
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

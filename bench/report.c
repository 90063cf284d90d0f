/* bench/report.c - see report.h. */
#include "report.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"

#define ULL(x) ((unsigned long long)(x))

void report_method_start(enum method_id m, const struct workload *w, uint64_t ensembles,
			 uint64_t samples, uint64_t warmup)
{
	if (config_human()) {
		kprintf("\nmethod %s: %s (%s); workload %s: %s\n", methods[m].name,
			methods[m].sequence, methods[m].source, w->name, w->desc);
		kprintf("method %s: %llu ensembles x %llu samples, %llu warm-up samples discarded; "
			"in the paper-format lines below 'cycles' means TSC ticks and variances are in TSC ticks squared\n",
			methods[m].name, ULL(ensembles), ULL(samples), ULL(warmup));
	}
	if (config_json())
		kprintf("{\"rec\":\"method\",\"method\":\"%s\",\"sequence\":\"%s\",\"source\":\"%s\","
			"\"workload\":\"%s\",\"param\":%llu,\"ensembles\":%llu,\"samples\":%llu,"
			"\"warmup\":%llu,\"unit\":\"tsc_ticks\"}\n",
			methods[m].name, methods[m].sequence, methods[m].source, w->name,
			ULL(w->default_param), ULL(ensembles), ULL(samples), ULL(warmup));
}

void report_method_skip(enum method_id m, const char *why)
{
	kprintf("\nmethod %s: SKIPPED: %s\n", methods[m].name, why);
	if (config_json())
		kprintf("{\"rec\":\"skip\",\"method\":\"%s\",\"reason\":\"%s\"}\n",
			methods[m].name, why);
}

void report_ensemble(enum method_id m, const struct workload *w, uint64_t j,
		     const struct ensemble_stats *e)
{
	char mean[32];
	if (config_human()) {
		if (e->error)
			kprintf("loop_size:%llu >>>> variance(cycles): ERROR (128-bit overflow in var_calc); "
				"max_deviation: %llu ;min time: %llu\n",
				ULL(j), ULL(e->max_dev), ULL(e->min));
		else
			kprintf("loop_size:%llu >>>> variance(cycles): %llu; max_deviation: %llu ;min time: %llu\n",
				ULL(j), ULL(e->var), ULL(e->max_dev), ULL(e->min));
	}
	if (config_json()) {
		if (e->error)
			kprintf("{\"rec\":\"ensemble\",\"method\":\"%s\",\"workload\":\"%s\",\"ensemble\":%llu,"
				"\"samples\":%llu,\"unit\":\"tsc_ticks\",\"min\":%llu,\"max\":%llu,"
				"\"max_dev\":%llu,\"variance\":null,\"mean\":null,\"error\":\"overflow\"}\n",
				methods[m].name, w->name, ULL(j), ULL(e->n), ULL(e->min), ULL(e->max),
				ULL(e->max_dev));
		else
			kprintf("{\"rec\":\"ensemble\",\"method\":\"%s\",\"workload\":\"%s\",\"ensemble\":%llu,"
				"\"samples\":%llu,\"unit\":\"tsc_ticks\",\"min\":%llu,\"max\":%llu,"
				"\"max_dev\":%llu,\"variance\":%llu,\"mean\":%s,\"error\":null}\n",
				methods[m].name, w->name, ULL(j), ULL(e->n), ULL(e->min), ULL(e->max),
				ULL(e->max_dev), ULL(e->var), fmt_milli(mean, sizeof mean, e->mean_milli));
	}
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

/* A summary figure, or "ERROR" where it overflowed. */
static const char *fig(char *buf, uint64_t v, int ok)
{
	if (!ok)
		return "ERROR (overflow)";
	fmt_format(buf, 24, "%llu", ULL(v));
	return buf;
}

static const char *jfig(char *buf, uint64_t v, int ok)
{
	if (!ok)
		return "null";
	fmt_format(buf, 24, "%llu", ULL(v));
	return buf;
}

void report_summary(enum method_id m, const struct workload *w,
		    const struct summary_result *r, uint64_t elapsed_ticks)
{
	char a[24], b[24], c[24];
	if (config_human()) {
		kprintf("total number of spurious min values = %llu\n", ULL(r->spurious));
		kprintf("total variance = %s\n", fig(a, r->total_variance, r->total_variance_ok));
		kprintf("absolute max deviation = %llu\n", ULL(r->max_dev_all));
		kprintf("variance of variances = %s\n", fig(a, r->var_of_vars, r->var_of_vars_ok));
		kprintf("variance of minimum values = %s\n", fig(a, r->var_of_mins, r->var_of_mins_ok));
		kprintf("summary %s/%s: offset (least minimum) %llu TSC ticks, minimums %llu..%llu TSC ticks; "
			"total variance %s TSC ticks^2; variance of variances %s TSC ticks^4; "
			"variance of minimum values %s TSC ticks^2; absolute max deviation %llu TSC ticks; "
			"%llu spurious min values; %llu ensemble errors; %llu TSC ticks elapsed\n",
			methods[m].name, w->name, ULL(r->min_of_mins), ULL(r->min_of_mins),
			ULL(r->max_of_mins), fig(a, r->total_variance, r->total_variance_ok),
			fig(b, r->var_of_vars, r->var_of_vars_ok),
			fig(c, r->var_of_mins, r->var_of_mins_ok), ULL(r->max_dev_all),
			ULL(r->spurious), ULL(r->errors), ULL(elapsed_ticks));
	}
	if (config_json())
		kprintf("{\"rec\":\"summary\",\"method\":\"%s\",\"workload\":\"%s\",\"unit\":\"tsc_ticks\","
			"\"ensembles\":%llu,\"spurious\":%llu,\"total_variance\":%s,\"max_dev_all\":%llu,"
			"\"var_of_vars\":%s,\"var_of_mins\":%s,\"min_of_mins\":%llu,\"max_of_mins\":%llu,"
			"\"errors\":%llu,\"elapsed_ticks\":%llu}\n",
			methods[m].name, w->name, ULL(r->ensembles), ULL(r->spurious),
			jfig(a, r->total_variance, r->total_variance_ok), ULL(r->max_dev_all),
			jfig(b, r->var_of_vars, r->var_of_vars_ok),
			jfig(c, r->var_of_mins, r->var_of_mins_ok), ULL(r->min_of_mins),
			ULL(r->max_of_mins), ULL(r->errors), ULL(elapsed_ticks));
}

/* bench/summary.c - see summary.h. */
#include "summary.h"
#include "../kernel/config.h"
#include "../kernel/clocks.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../lib/fmt.h"

/* The SMI column of the summary table: the count, "n/a" where SMIs are
 * not counted on this machine, "unreadable" where MSR_SMI_COUNT faulted
 * during the method's ensembles. */
static const char *smi_text(char *buf, size_t size, int smi_counted, int unread, uint64_t smis)
{
	if (!smi_counted)
		return "n/a";
	if (unread)
		return "unreadable";
	fmt_format(buf, size, "%llu", (unsigned long long)smis);
	return buf;
}

const char *summary_row_name(const struct bench_results *r, int i)
{
	return i == RESULTS_CODE_ROW ? r->code_row_name : workload_at(i)->name;
}

/* A row per method, then the net result of each workload per method. */
void summary_tables(const struct bench_results *r)
{
	char off[48], ns[32], a[24], b[24], c[24];
	uint64_t tsc_hz = clocks_tsc_rate()->hz;
	kprintf("\nsummary table (TSC ticks unless said; ns from the TSC frequency%s)\n",
		tsc_hz ? "" : ", unknown here");
	kprintf("%-14s %-22s %12s %14s %12s %10s %10s %6s  %s\n", "method", "offset ticks (ns)",
		"total var", "var of vars", "var of mins", "max dev", "SMIs", "NMIs", "verdict");
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct method_row *row = &r->rows[m];
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
			smi_text(ns, sizeof ns, r->smi_counted, row->smi_unread, row->smis),
			(unsigned long long)row->nmis,
			!row->v.valid ? "unknown" : row->v.ergodic ? "ergodic" : "NOT ergodic");
	}
	/* Net results: one line per workload, one column per method run. */
	int any = 0;
	for (int i = 0; i <= RESULTS_CODE_ROW; i++)
		any |= results_has_net(r, -1, i);
	if (!any)
		return;
	char line[512];
	int n = fmt_format(line, sizeof line, "%-18s", "net (least min)");
	for (int m = 0; m < METHOD_COUNT; m++)
		if (r->rows[m].ran)
			n += fmt_format(line + n, sizeof line - (size_t)n, " %13s", methods[m].name);
	kprintf("%s\n", line);
	for (int i = 0; i <= RESULTS_CODE_ROW; i++) {
		if (!results_has_net(r, -1, i))
			continue;
		n = fmt_format(line, sizeof line, "%-18s", summary_row_name(r, i));
		for (int m = 0; m < METHOD_COUNT; m++)
			if (r->rows[m].ran)
				n += r->net_units[m][i] ? fmt_format(line + n, sizeof line - (size_t)n, " %13lld",
								     (long long)r->net_in[m][i][r->rows[m].r.unit])
						  : fmt_format(line + n, sizeof line - (size_t)n, " %13s", "-");
		kprintf("%s\n", line);
	}
	kprintf("(net figures are TSC ticks, or core cycles for the ctr_ methods)\n");
}

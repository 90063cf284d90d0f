/* bench/summary.c - see summary.h. */
#include "summary.h"
#include "code.h"
#include "coderesult.h"
#include "report.h"
#include "../kernel/config.h"
#include "../kernel/clocks.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../lib/fmt.h"
#include "../lib/record.h"

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

const char *summary_net_cell(char *buf, size_t size, int64_t v, enum unit u, int width, unsigned *marks)
{
	enum net_flag f = results_net_flag(v, results_resolution(report_tsc_step(), u));
	if (f == NET_OK)
		return fmt_fit_i64(buf, size, v, width);
	char fig[24];
	*marks |= 1u << f;
	fmt_format(buf, size, "%s%c", fmt_fit_i64(fig, sizeof fig, v, width - 1),
		   f == NET_BELOW_ZERO ? SUMMARY_MARK_ZERO : SUMMARY_MARK_RESOLUTION);
	return buf;
}

const char *summary_net_legend(char *buf, size_t size, unsigned marks)
{
	uint64_t res = results_resolution(report_tsc_step(), UNIT_TSC);
	int k = 0;
	buf[0] = 0;
	if (!marks)
		return buf;
	if (marks >> NET_BELOW_ZERO & 1)
		k += fmt_format(buf, size, "%c below zero", SUMMARY_MARK_ZERO);
	if (marks >> NET_BELOW_RESOLUTION & 1)
		k += fmt_format(buf + k, size - (size_t)k, "%s%c below the resolution (%llu TSC tick%s, 1 count)",
				k ? "; " : "", SUMMARY_MARK_RESOLUTION, (unsigned long long)res, res == 1 ? "" : "s");
	fmt_format(buf + k, size - (size_t)k, ": not durations");
	return buf;
}

/* The TSC's step, when its figures show one (results_step): a line and a
 * record; nothing for a TSC moving by 1. */
static void step_line(void)
{
	int sure;
	const struct tsc_step *st = report_tsc_step();
	uint64_t step = results_step(st, &sure);
	if (!step)
		return;
	kprintf("tsc step: the TSC %s in steps of %llu ticks: the %s%d distinct TSC-tick figures of the "
		"ensembles (minimums, quantiles, maximums) are all multiples of %llu (their greatest common "
		"divisor)%s\n", sure ? "moves" : "may move", (unsigned long long)step, sure ? "first " : "",
		st->distinct, (unsigned long long)step,
		sure ? "; a window shorter than a step reads 0 or one step: offsets of 0 and nets below a step "
		       "are not durations, and every figure in TSC ticks is this coarse"
		     : "; too few figures to be sure (a TSC moving by 1 can give a few multiples of one number)");
	if (config_json()) {
		struct rec k;
		rec_begin(&k, "tsc_step");
		rec_u64(&k, "step", step);
		rec_bool(&k, "sure", sure);
		rec_u64(&k, "figures", (uint64_t)st->distinct);
		rec_end(&k);
	}
}

/* The "your code" section (code=; bench/coderesult.h): the answer, last
 * of the tables: per method and unit the N window's net and the figure per
 * copy, or where the code faulted. */
static void code_section(const struct bench_results *r)
{
	struct code_sizes k;
	char loops[48] = "", cell[64], net[24], legend[160];
	unsigned marks = 0; /* the net N's flags, as every workload's net (summary_net_cell) */
	code_sizes(&k);
	if (!k.configured || !results_code_ran(r))
		return;
	if (k.cfg->loops)
		fmt_format(loops, sizeof loops, " x loops=%llu", (unsigned long long)k.cfg->loops);
	kprintf("\nyour code: workload %s, N = %llu cop%s (unroll=%llu%s), 2N = %llu; per copy = (least min 2N - "
		"least min N) / N\n", k.cfg->code_name, (unsigned long long)code_copies_executed(),
		code_copies_executed() == 1 ? "y" : "ies",
		(unsigned long long)k.cfg->unroll, loops, (unsigned long long)(2 * code_copies_executed()));
	kprintf("%-14s %-13s %14s  %s\n", "method", "unit", "net N", "per copy");
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct code_row *c = &r->code[m];
		if (c->faulted)
			kprintf("%-14s FAULT %s: no figure\n", methods[m].name, code_fault_text(cell, sizeof cell, &c->fault));
		for (int u = 0; u < UNIT_COUNT && !c->faulted; u++) {
			if (!(c->units >> u & 1))
				continue;
			int has = r->net_units[m][RESULTS_CODE_ROW] >> u & 1;
			kprintf("%-14s %-13s %14s  %s\n", methods[m].name, unit_name[u],
				has ? summary_net_cell(net, sizeof net, r->net_in[m][RESULTS_CODE_ROW][u], (enum unit)u, 14,
						       &marks) : "-",
				code_per_copy_text(cell, sizeof cell, &c->per_copy[u]));
		}
		if (!c->faulted) /* its events, where events= measured them (events are the unit) */
			code_event_rows((enum method_id)m, r->code_row_name);
	}
	if (marks)
		kprintf("(net N: %s)\n", summary_net_legend(legend, sizeof legend, marks));
	for (int u = 0; u < UNIT_COUNT; u++) {
		struct agreement a;
		char text[200];
		if (code_agreement(r, (enum unit)u, &a))
			kprintf("%s\n", code_agreement_text(text, sizeof text, &a));
	}
	if (r->totals.code_faults)
		kprintf("(your code faulted under %llu method%s: the fault lines above say where)\n",
			(unsigned long long)r->totals.code_faults, r->totals.code_faults == 1 ? "" : "s");
}

/* A row per method, then the net result of each workload per method. */
void summary_tables(const struct bench_results *r)
{
	char off[48], ns[32], a[WIDE_DEC_SIZE], b[WIDE_DEC_SIZE], c[WIDE_DEC_SIZE];
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
			s->total_variance_ok ? wide_fit(a, sizeof a, &s->total_variance, 12) : "none",
			s->var_of_vars_ok ? wide_fit(b, sizeof b, &s->var_of_vars, 14) : "none",
			s->var_of_mins_ok ? wide_fit(c, sizeof c, &s->var_of_mins, 12) : "none",
			(unsigned long long)s->max_dev_all,
			smi_text(ns, sizeof ns, r->smi_counted, row->smi_unread, row->smis),
			(unsigned long long)row->nmis,
			!row->v.valid ? "unknown" : row->v.ergodic ? "ergodic" : "NOT ergodic");
	}
	/* Net results: one line per workload, one column per method run. */
	int any = 0;
	for (int i = 0; i <= RESULTS_CODE_ROW; i++)
		any |= results_has_net(r, -1, i);
	if (!any) {
		step_line();
		code_section(r);
		return;
	}
	char line[512], cell[24];
	unsigned marks = 0;
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
				n += fmt_format(line + n, sizeof line - (size_t)n, " %13s", !r->net_units[m][i] ? "-"
						: summary_net_cell(cell, sizeof cell, r->net_in[m][i][r->rows[m].r.unit],
								   r->rows[m].r.unit, 13, &marks));
		kprintf("%s\n", line);
	}
	kprintf("(net figures are TSC ticks, or core cycles for the ctr_ methods)\n");
	if (marks)
		kprintf("(%s)\n", summary_net_legend(line, sizeof line, marks));
	step_line();
	code_section(r);
}

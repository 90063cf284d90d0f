/* bench/coderesult.c - see coderesult.h. */
#include "coderesult.h"
#include "code.h"
#include "events.h"
#include "evrun.h"
#include "report.h"
#include "results.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

void code_print_config(void)
{
	struct code_sizes k;
	code_sizes(&k);
	const struct config *cfg = k.cfg;
	uint64_t code_len = k.code_len, init_len = k.init_len;
	char loop[48] = "";
	if (!k.configured)
		return;
	if (cfg->loops)
		fmt_format(loop, sizeof loop, " in a loop of %llu iterations (R15)", (unsigned long long)cfg->loops);
	kprintf("code: workload %s: %llu bytes of code= x unroll=%llu%s, init= %llu bytes; generated loops of "
		"%llu, %llu and %llu bytes (empty, N, 2N)\n", cfg->code_name, (unsigned long long)code_len,
		(unsigned long long)cfg->unroll, loop,
		(unsigned long long)init_len, (unsigned long long)k.loop_bytes[0], (unsigned long long)k.loop_bytes[1],
		(unsigned long long)k.loop_bytes[2]);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "code");
		rec_str(&r, "workload", cfg->code_name);
		rec_str(&r, "code", cfg->code);
		rec_str(&r, "init", cfg->init);
		rec_u64(&r, "code_bytes", code_len);
		rec_u64(&r, "init_bytes", init_len);
		rec_u64(&r, "unroll", cfg->unroll);
		rec_u64(&r, "loops", cfg->loops);
		rec_end(&r);
	}
	code_cache_print(); /* cache= (kernel/cacheflush.h) */
}

void code_report_offset(enum method_id m, const struct workload *w, const char *unit_key,
			const char *unit_name, uint64_t least, uint64_t offset, uint64_t n)
{
	if (config_human())
		kprintf("code %s: generated empty window: least minimum %llu %s over %llu samples; compiled "
			"offset %llu %s: %s\n", methods[m].name, (unsigned long long)least, unit_name,
			(unsigned long long)n, (unsigned long long)offset, unit_name,
			least == offset ? "equal" : "they differ: the nets below subtract the compiled offset");
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "code_offset");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_str(&r, "unit", unit_key);
		rec_u64(&r, "generated_min", least);
		rec_u64(&r, "offset", offset);
		rec_u64(&r, "samples", n);
		rec_end(&r);
	}
}

const char *code_fault_text(char *buf, size_t size, const struct code_fault_at *at)
{
	const char *name = code_fault_name(at->vector);
	char jump[40] = "", halt[16] = "";
	if (at->jump_copy)
		fmt_format(jump, sizeof jump, " (from copy %llu)", (unsigned long long)at->jump_copy);
	if (at->halt)
		fmt_format(halt, sizeof halt, " in %s", at->halt);
	if (at->vector == CODE_LEFT_VECTOR)
		fmt_format(buf, size, "%s by the epilogue%s", name, jump);
	else if (at->part == CF_CODE)
		fmt_format(buf, size, "%s%s at byte %llu of copy %llu", name, halt, (unsigned long long)at->offset,
			   (unsigned long long)at->copy);
	else if (at->part == CF_PAGE0 || at->part == CF_OUTSIDE) /* offset: the address */
		fmt_format(buf, size, "%s at 0x%llx, %s", name, (unsigned long long)at->offset,
			   at->part == CF_PAGE0 ? "in page 0" : "outside the loop");
	else
		fmt_format(buf, size, "%s%s at byte %llu of %s%s", name, halt, (unsigned long long)at->offset,
			   codefault_part_text(at->part), jump);
	return buf;
}

void code_keep_fault(struct bench_results *r, enum method_id m)
{
	static uint64_t kept; /* faults code_fault_last had given when one was last kept */
	struct code_fault_at at;
	uint64_t taken = code_fault_last(&at);
	if (taken == kept)
		return;
	kept = taken;
	results_keep_code_fault(r, m, &at);
}

/* Method m's figure per copy in unit u: its line and record. */
static void report_per_copy(struct bench_results *r, enum method_id m, enum unit u)
{
	const struct percopy *p = results_per_copy(r, m, u, results_step_bound(report_tsc_step(), u));
	const char *un = unit_name[u], *wname = r->code_row_name;
	uint64_t copies = p->copies;
	uint64_t least_n = r->code[m].windows[u][1].min_of_mins, least_2n = r->code[m].windows[u][2].min_of_mins;
	char what[400];
	code_per_copy_what(what, sizeof what, p, un, u == UNIT_TSC ? "TSC" : "counter");
	if (config_human())
		kprintf("per_copy %s/%s: %s (least minimum with %llu copies executed %llu - with %llu copies %llu, over "
			"%llu copies executed)\n", methods[m].name, wname, what, (unsigned long long)(2 * copies),
			(unsigned long long)least_2n, (unsigned long long)copies, (unsigned long long)least_n,
			(unsigned long long)copies);
	if (config_json()) {
		struct rec rc;
		rec_begin(&rc, "per_copy");
		rec_str(&rc, "method", methods[m].name);
		rec_str(&rc, "workload", wname);
		rec_str(&rc, "unit", unit_key[u]);
		code_per_copy_fields(&rc, p, least_n, least_2n);
		rec_end(&rc);
	}
}

void code_report_per_copy(struct bench_results *r)
{
	for (int m = 0; m < METHOD_COUNT; m++)
		for (int u = 0; u < UNIT_COUNT; u++)
			if (!r->code[m].faulted && r->code[m].units >> u & 1)
				report_per_copy(r, (enum method_id)m, (enum unit)u);
}

/* "cpuid, cr0, rdtscp": the methods of bit set ms into buf. */
static const char *method_list(char *buf, size_t size, unsigned ms)
{
	size_t k = 0;
	buf[0] = 0;
	for (int m = 0; m < METHOD_COUNT && k < size; m++)
		if (ms >> m & 1)
			k += (size_t)fmt_format(buf + k, size - k, "%s%s", k ? ", " : "", methods[m].name);
	return buf;
}

const char *code_agreement_text(char *buf, size_t size, const struct agreement *a)
{
	char list[160], g[24];
	size_t k = (size_t)fmt_format(buf, size, "agreement in %s: ", unit_name[a->unit]);
	if (a->count < 2)
		k += (size_t)fmt_format(buf + k, size - k, "%s%s", a->count ? "only " : "no figure",
					method_list(list, sizeof list, a->methods));
	else if (a->agree)
		k += (size_t)fmt_format(buf + k, size - k, "%s agree", method_list(list, sizeof list, a->methods));
	for (int i = 0; i < a->npairs && k < size; i++) {
		const struct results_pair *q = &a->pair[i];
		if (i == 3) {
			k += (size_t)fmt_format(buf + k, size - k, ", %d more", a->npairs - 3);
			break;
		}
		k += (size_t)fmt_format(buf + k, size - k, "%s%s < %s by %s", i ? ", " : "DISAGREE: ", methods[q->low].name,
					methods[q->high].name, percopy_milli_text(g, sizeof g, 0, q->gap_milli));
	}
	if (k < size)
		fmt_format(buf + k, size - k, "; trusted: %s", a->trusted >= 0 ? methods[a->trusted].name : "none");
	return buf;
}

int code_agreement(const struct bench_results *r, enum unit u, struct agreement *a)
{
	int measured = 0;
	for (int m = 0; m < METHOD_COUNT; m++)
		measured |= !r->code[m].faulted && r->code[m].units >> u & 1;
	if (measured)
		results_agreement(r, u, a);
	return measured;
}

void code_report_agreement(const struct bench_results *r)
{
	static char line[2048];
	char list[160], g[24];
	for (int u = 0; u < UNIT_COUNT; u++) {
		struct agreement a;
		if (!code_agreement(r, (enum unit)u, &a))
			continue;
		const char *un = unit_name[u];
		size_t k = (size_t)fmt_format(line, sizeof line, "per_copy agreement %s: ", unit_key[u]);
		if (!a.count)
			k += (size_t)fmt_format(line + k, sizeof line - k, "no method has a figure per copy: nothing to compare");
		else if (a.count == 1)
			k += (size_t)fmt_format(line + k, sizeof line - k, "only %s has a figure per copy: nothing to compare",
						method_list(list, sizeof list, a.methods));
		else if (a.count >= 2 && a.agree)
			k += (size_t)fmt_format(line + k, sizeof line - k, "%s agree (every two intervals, figure -+ bound "
						"per copy, overlap)", method_list(list, sizeof list, a.methods));
		else if (a.count >= 2)
			k += (size_t)fmt_format(line + k, sizeof line - k, "the methods DISAGREE (intervals, figure -+ bound "
						"per copy, that do not overlap):");
		for (int i = 0; i < a.npairs && k < sizeof line; i++)
			k += (size_t)fmt_format(line + k, sizeof line - k, "%s %s lies below %s by %s %s per copy",
						i ? "," : "", methods[a.pair[i].low].name, methods[a.pair[i].high].name,
						percopy_milli_text(g, sizeof g, 0, a.pair[i].gap_milli), un);
		if (k < sizeof line)
			fmt_format(line + k, sizeof line - k, "; the recommendation trusts %s: %s",
				   a.trusted >= 0 ? methods[a.trusted].name : "none", a.why);
		if (config_human())
			kprintf("%s\n", line);
		if (!config_json())
			continue;
		struct rec rc;
		rec_begin(&rc, "per_copy_agreement");
		rec_str(&rc, "workload", r->code_row_name);
		rec_str(&rc, "unit", unit_key[u]);
		rec_array(&rc, "methods");
		for (int m = 0; m < METHOD_COUNT; m++)
			if (a.methods >> m & 1)
				rec_str(&rc, 0, methods[m].name);
		rec_array_end(&rc);
		rec_bool(&rc, "agree", a.agree);
		rec_array(&rc, "disagree");
		for (int i = 0; i < a.npairs; i++) {
			rec_object(&rc, 0);
			rec_str(&rc, "a", methods[a.pair[i].low].name);
			rec_str(&rc, "b", methods[a.pair[i].high].name);
			rec_str(&rc, "gap", percopy_milli_text(g, sizeof g, 0, a.pair[i].gap_milli));
			rec_object_end(&rc);
		}
		rec_array_end(&rc);
		rec_str(&rc, "trusted", a.trusted >= 0 ? methods[a.trusted].name : 0);
		rec_str(&rc, "why", a.why);
		rec_end(&rc);
	}
}

int code_event_rows(enum method_id m, const char *code_name)
{
	const struct workload cw = { .name = code_name, .flags = WL_CODE };
	int rows = 0;
	for (int ev = 0; ev < events_count(); ev++) {
		struct percopy p;
		int verified;
		int64_t net;
		char netc[24] = "-", cell[64];
		if (!evrun_per_copy(m, ev, &p, &verified))
			continue;
		if (evrun_net(m, &cw, ev, &net))
			fmt_format(netc, sizeof netc, "%lld", (long long)net);
		/* the unit and net N columns as the other rows' (13 + 1 + 14), a
		 * longer name pushing the net right */
		const char *name = events_at(ev)->def.name;
		int width = 27 - (int)strlen(name);
		kprintf("%-14s %s %*s  %s%s\n", methods[m].name, name, width > 0 ? width : 1, netc,
			code_per_copy_text(cell, sizeof cell, &p), verified ? "" : " (unverified)");
		rows++;
	}
	return rows;
}

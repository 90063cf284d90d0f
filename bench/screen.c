/* bench/screen.c - see screen.h. */
#include "screen.h"
#include "code.h"
#include "coderesult.h"
#include "events.h"
#include "evscreen.h"
#include "report.h"
#include "summary.h"
#include "sweep.h"
#include "../kernel/config.h"
#include "../kernel/clocks.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/efi.h"
#include "../kernel/efinet.h"
#include "../kernel/exit.h"
#include "../kernel/qr.h"
#include "../kernel/quiet.h"
#include "../kernel/runid.h"
#include "../kernel/smbios.h"
#include "../kernel/trap.h"
#include "../lib/cpus.h"
#include "../lib/fmt.h"
#include "../lib/latlevels.h"
#include "../lib/plan.h"
#include "../lib/qrtext.h"
#include "../lib/string.h"
#include "../lib/tscfreq.h"

/* ticks as nanoseconds with one decimal (floored), or "-". */
static const char *ns_of(char *buf, size_t size, int64_t ticks)
{
	uint64_t ps, tsc_hz = clocks_tsc_rate()->hz;
	if (!tsc_hz || ticks < 0 || ticks_to_ps((uint64_t)ticks, tsc_hz, &ps))
		fmt_format(buf, size, "-");
	else
		fmt_format(buf, size, "%llu.%llu", (unsigned long long)(ps / 1000),
			   (unsigned long long)(ps % 1000 / 100));
	return buf;
}

/* code='s lines of the QR text (lib/qrtext.h code, pc, pa, pe, cf): its
 * configuration, per method and unit measured the figure per copy, the
 * methods compared, per event of events= the figure per copy by the
 * recommended method, per method where it faulted. */
static void qr_code_lines(const struct bench_results *res, struct qrtext_run *q)
{
	static struct qrtext_code code;
	static struct qrtext_percopy pc[METHOD_COUNT * UNIT_COUNT];
	static struct qrtext_codefault cf[METHOD_COUNT];
	static struct qrtext_agreement ag[UNIT_COUNT];
	static struct qrtext_pair pairs[UNIT_COUNT][RESULTS_PAIRS];
	static char fig[METHOD_COUNT * UNIT_COUNT][2][24], vec[METHOD_COUNT][16], gap[UNIT_COUNT][RESULTS_PAIRS][24];
	struct code_sizes k;
	code_sizes(&k);
	if (!k.configured || !results_code_ran(res))
		return;
	code = (struct qrtext_code){ k.cfg->code_name, code_copies_executed(), k.cfg->unroll, k.cfg->loops };
	q->code = &code;
	q->per_copy = pc;
	q->code_faults = cf;
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct code_row *c = &res->code[m];
		if (c->faulted) {
			const struct code_fault_at *f = &c->fault;
			fmt_format(vec[m], sizeof vec[m], "%s", /* one token of the cf line */
				   f->vector == CODE_LEFT_VECTOR ? "left" : code_fault_name(f->vector));
			cf[q->ncode_faults++] = (struct qrtext_codefault){
				methods[m].name, vec[m], codefault_part_key(f->part), f->offset,
				f->copy ? f->copy : f->jump_copy };
		}
		for (int u = 0; u < UNIT_COUNT; u++) {
			const struct percopy *p = &c->per_copy[u];
			int i = q->nper_copy;
			if (!(c->units >> u & 1))
				continue;
			int wrapped = p->kind == PERCOPY_WRAPPED;
			int bound = p->kind == PERCOPY_FIGURE || p->kind == PERCOPY_BELOW_RESOLUTION;
			pc[q->nper_copy++] = (struct qrtext_percopy){
				methods[m].name, "tci"[u], percopy_kind_key(p->kind),
				wrapped ? 0 : percopy_milli_text(fig[i][0], 24, p->neg, p->milli),
				bound ? percopy_milli_text(fig[i][1], 24, 0, p->bound_milli) : 0,
				p->neg ? -(int64_t)p->num : (int64_t)p->num, p->den };
		}
	}
	static struct qrtext_event pe[BENCH_EV_MAX]; /* the pe lines: events= (bench/evscreen.h) */
	static char pe_text[BENCH_EV_MAX][2][24];
	q->events = pe;
	q->nevents = evscreen_qr(res, pe, pe_text, BENCH_EV_MAX);
	q->agreements = ag;
	for (int u = 0; u < UNIT_COUNT; u++) { /* the pa lines: the methods compared */
		struct agreement a;
		if (!code_agreement(res, (enum unit)u, &a))
			continue;
		for (int k = 0; k < a.npairs; k++)
			pairs[u][k] = (struct qrtext_pair){ methods[a.pair[k].low].name, methods[a.pair[k].high].name,
							    percopy_milli_text(gap[u][k], 24, 0, a.pair[k].gap_milli) };
		ag[q->nagreements++] = (struct qrtext_agreement){ "tci"[u], a.agree,
								  a.trusted >= 0 ? methods[a.trusted].name : 0,
								  pairs[u], a.npairs };
	}
}

/* The lat lines: sweep=latency's levels per unit (bench/sweep.h). */
static void qr_latency_lines(struct qrtext_run *q)
{
	static struct qrtext_latency lat[2];
	static struct qrtext_latlevel lv[2][LATLEVELS_MAX];
	static char fig[2][LATLEVELS_MAX][24];
	struct latlevels found;
	q->latency = lat;
	q->nlatency = 0;
	for (int u = 0; u < 2; u++) {
		if (!sweep_levels(u, &found))
			continue;
		for (int i = 0; i < found.n; i++)
			lv[u][i] = (struct qrtext_latlevel){ found.l[i].name, found.l[i].cpuid_bytes, found.l[i].edge_bytes,
							     fmt_milli(fig[u][i], 24, found.l[i].milli) };
		lat[q->nlatency++] = (struct qrtext_latency){ "tc"[u], lv[u], found.n };
	}
}

/* The QR code of the results beside the summary (kernel/qr.h): the
 * compact text (lib/qrtext.h) of the figures the summary shows and more:
 * every unit of every method's offset and every workload's net. */
/* screen_plan's: a plan run's experiments (n 0: no plan). */
static const char *plan_file;
static const struct screen_experiment *plan_x;
static int plan_n;

void screen_plan(const char *file, const struct screen_experiment *x, int n)
{
	plan_file = file, plan_x = x, plan_n = n;
}

/* The x and xa lines of a plan's experiments (lib/qrtext.h). */
static void qr_plan_lines(struct qrtext_run *q)
{
	static struct qrtext_experiment xs[PLAN_EXPERIMENTS_MAX];
	for (int i = 0; i < plan_n && i < PLAN_EXPERIMENTS_MAX; i++)
		xs[i] = (struct qrtext_experiment){ plan_x[i].name, plan_x[i].status, plan_x[i].pc };
	q->experiments = xs;
	q->nexperiments = plan_n < PLAN_EXPERIMENTS_MAX ? plan_n : PLAN_EXPERIMENTS_MAX;
}

static void screen_qr(const struct config *cfg, const struct cpu_info *cpu, const struct bench_results *res, const char *final_line,
		      int has_ucode, uint64_t ucode, const int *after, int nafter)
{
	const struct run_totals *t = &res->totals;
	const struct tsc_rate *rate = clocks_tsc_rate();
	static struct qrtext_method ms[METHOD_COUNT];
	static struct qrtext_workload ws[WORKLOADS_MAX + 1];
	static const char *skipped[METHOD_COUNT], *why[METHOD_COUNT];
	static char body[16384];
	struct qrtext_run r = {
		.run_id = runid_text(),
		.vendor = cpu->vendor, .brand = cpu->brand, .hypervisor = cpu->hypervisor ? cpu->hv_vendor : 0,
		.family = cpu->family, .model = cpu->model, .stepping = cpu->stepping,
		.has_microcode = has_ucode, .microcode = ucode,
		.tsc_hz = rate->hz, .tsc_ppm = rate->ppm, .tsc_source = rate->source,
		.ensembles = cfg->ensembles, .samples = cfg->samples, .warmup = cfg->warmup,
		.max_var_of_vars = cfg->max_var_of_vars, .max_var_of_mins = cfg->max_var_of_mins,
		.methods = ms, .skipped = skipped, .workloads = ws,
		.skip_why = console_serial_baud() ? 0 : why, /* no serial log holds the reasons */
		.recommended = t->recommended >= 0 ? methods[t->recommended].name : 0,
		.final_line = final_line,
	};
	smbios_texts(&r.system, &r.board, &r.bios); /* the sys line (kernel/smbios.h) */
	const struct tsc_step *st = report_tsc_step();
	r.tsc_step = results_step(st, &r.tsc_step_sure);
	uint64_t resolution[UNIT_COUNT];
	for (int u = 0; u < UNIT_COUNT; u++)
		resolution[u] = results_resolution(st, (enum unit)u);
	int col[METHOD_COUNT]; /* a method's place among the m lines */
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct method_row *row = &res->rows[m];
		col[m] = -1;
		if (!row->ran) {
			if ((cfg->methods >> m) & 1) {
				why[r.nskipped] = row->skip_why ? row->skip_why : "-";
				skipped[r.nskipped++] = methods[m].name;
			}
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
			.smi = !res->smi_counted ? QRTEXT_SMI_NA : row->smi_unread ? QRTEXT_SMI_UNREAD : QRTEXT_SMI_COUNTED,
			.smis = row->smis, .nmis = row->nmis,
		};
		for (int u = 0; u < UNIT_COUNT; u++)
			q->offset[u] = row->offset_in[u];
		col[m] = r.nmethods++;
	}
	for (int i = 0; i <= RESULTS_CODE_ROW; i++) {
		struct qrtext_workload *w = &ws[r.nworkloads];
		int has = 0;
		for (int m = 0; m < METHOD_COUNT; m++) {
			if (col[m] < 0)
				continue;
			w->units[col[m]] = res->net_units[m][i];
			has |= res->net_units[m][i];
			for (int u = 0; u < UNIT_COUNT; u++) {
				enum net_flag f = results_net_flag(res->net_in[m][i][u], resolution[u]);
				w->net[col[m]][u] = res->net_in[m][i][u];
				w->low[col[m]][u] = (uint8_t)(f == NET_BELOW_ZERO ? QRTEXT_LOW_ZERO
							      : f == NET_BELOW_RESOLUTION ? QRTEXT_LOW_RESOLUTION
											  : QRTEXT_LOW_NONE);
			}
		}
		if (!has)
			continue;
		w->name = summary_row_name(res, i);
		r.nworkloads++;
	}
	if (plan_n)
		qr_plan_lines(&r);
	else
		qr_code_lines(res, &r);
	qr_latency_lines(&r);
	int n = qrtext_body(&r, body, sizeof body);
	if (n < 0)
		kprintf("qr: no QR code of the results: their text is longer than %u bytes\n",
			(unsigned)sizeof body);
	else
		qr_show(body, (size_t)n, clocks_tsc_rate()->hz, after, nafter);
}

/* The summary's text is as wide as the screen, up to SCREEN_TEXT_COLS
 * columns: the rest of a wide framebuffer holds the QR code beside it. */
#define SCREEN_TEXT_COLS 132

/* line on the screen, wrapped at its width (at a space where one is in
 * the row's second half; rows after the first indented by two spaces)
 * rather than cut: the rows it took (print 0: the rows it would take,
 * nothing printed). */
static int screen_wrap(const char *line, int print)
{
	int cols = console_screen_cols(), rows = 0, indent = 0;
	cols = cols < 20 ? 80 : cols > SCREEN_TEXT_COLS ? SCREEN_TEXT_COLS : cols;
	for (;;) {
		int n = 0, room = cols - indent;
		while (line[n] && n < room)
			n++;
		int cut = n;
		if (line[n]) /* more to come: end this row at its last space */
			for (int k = n; k > room / 2; k--)
				if (line[k] == ' ') {
					cut = k;
					break;
				}
		if (print)
			kprintf("%*s%.*s\n", indent, "", cut, line);
		rows++;
		line += cut;
		while (*line == ' ')
			line++;
		if (!*line)
			return rows;
		indent = 2;
	}
}

static int screen_put(const char *line)
{
	return screen_wrap(line, 1);
}

/* Rows of a line of chars characters that the console wraps at cols
 * columns (kernel/console.h: at the last column, not at a space). */
static int console_rows(int chars, int cols)
{
	return chars <= cols ? 1 : (chars + cols - 1) / cols;
}

/* The lines the console prints below the end screen after it, their
 * longest lengths in characters into chars[0..2]: under UEFI with save=
 * on the save: line (kernel/efi.h), with send= (or after a network boot)
 * the send: line (kernel/efinet.h), then the halt line (kernel/exit.h).
 * Returns how many. */
static int after_lines(const struct config *cfg, int *chars)
{
	int n = 0;
	if (efi_booted() && cfg->save)
		chars[n++] = EFI_SAVE_LINE_MAX;
	if (efinet_line_expected(cfg))
		chars[n++] = EFINET_SEND_LINE_MAX;
	chars[n++] = EXIT_HALT_LINE_MAX;
	return n;
}

/* The rows the summary may fill above its final line: every row of the
 * screen (25 without one) but those of the final line, of the lines after
 * it (after_lines, wrapped at the summary's width) and the cursor's row
 * below them, so that nothing scrolls the summary's first rows away. */
static int summary_rows(const struct config *cfg, const char *final_line)
{
	int rows = console_screen_rows(), cols = console_screen_cols(), chars[3];
	if (!rows || !cols)
		rows = 25, cols = 80;
	int width = cols > SCREEN_TEXT_COLS ? SCREEN_TEXT_COLS : cols;
	int n = after_lines(cfg, chars);
	rows -= console_rows((int)strlen(final_line), cols);
	for (int i = 0; i < n; i++)
		rows -= console_rows(chars[i], width);
	return rows - 1; /* the cursor's row below the last line: a newline on the last row scrolls */
}

/* Where the rest of what the screen cannot show is: the serial log when a
 * serial port has it, the QR code when a framebuffer shows it (the QR
 * text carries every workload's net: lib/qrtext.h). */
static const char *elsewhere(void)
{
	int serial = console_serial_baud() != 0, qr = console_framebuffer();
	return serial && qr ? "see the serial log or the QR code" : serial ? "see the serial log"
		: qr ? "see the QR code, which carries them" : "not shown (no serial port, no QR code on VGA text)";
}

/* Whether the screen needs its note line (screen_note): a net of a
 * measured unit of any of the n runs cr[] is flagged, or the TSC moves in
 * steps. */
static int note_needed(const struct bench_results *const *cr, int n)
{
	int sure;
	if (results_step(report_tsc_step(), &sure))
		return 1;
	for (int c = 0; c < n; c++)
		for (int m = 0; m < METHOD_COUNT; m++)
			for (int i = 0; i <= RESULTS_CODE_ROW; i++)
				for (int u = 0; u < UNIT_COUNT; u++)
					if (cr[c]->net_units[m][i] >> u & 1 &&
					    results_net_flag(cr[c]->net_in[m][i][u],
							     results_resolution(report_tsc_step(), (enum unit)u)))
						return 1;
	return 0;
}

/* The note under the nets into line: what their marks mean
 * (summary_net_legend) and the TSC's step; 0 when neither applies. */
static const char *note_text(char *line, size_t size, unsigned marks)
{
	char legend[128];
	int sure;
	uint64_t step = results_step(report_tsc_step(), &sure);
	summary_net_legend(legend, sizeof legend, marks);
	if (!step && !marks)
		return 0;
	if (step)
		fmt_format(line, size, "TSC %s in steps of %llu ticks%s%s", sure ? "moves" : "may move",
			   (unsigned long long)step, marks ? "; " : "", legend);
	else
		fmt_format(line, size, "%s", legend);
	return line;
}

/* The rows the note takes at most (every mark), 0 when note_needed says
 * none. */
static int note_rows(int needed)
{
	char line[192];
	return needed && note_text(line, sizeof line, ~0u) ? screen_wrap(line, 0) : 0;
}

/* The note under the nets (note_text), wrapped; nothing when it is empty. */
static void screen_note(unsigned marks)
{
	char line[192];
	if (note_text(line, sizeof line, marks))
		screen_put(line);
}

/* The screen's per-CPU section (cpus= other than boot): each workload's
 * net least minimum in TSC ticks by method by on each CPU measured, as
 * many CPUs as fit in 80 columns (P-cores marked P, E-cores E), as many
 * workloads as fit in the rows left (rows_used of budget, the note's rows
 * left out of budget). The QR code carries the first CPU's only. */
static void per_cpu_section(const struct screen_cpus *cpus, int by, int rows_used, int budget)
{
	unsigned marks = 0;
	const struct bench_results *const *cr = cpus->r;
	const int *number = cpus->number;
	const uint8_t *type = cpus->type;
	int n = cpus->n, serial = console_serial_baud() != 0;
	char line[160], v[24];
	fmt_format(line, sizeof line, "net of the offset (least minimum) by %s, TSC ticks, per CPU%s", methods[by].name,
		   n < SCREEN_CPUS_MAX ? "" : serial ? " (the first 6; all: serial log)" : " (the first 6)");
	rows_used += screen_put(line);
	int k = fmt_format(line, sizeof line, "%-20s", "workload");
	for (int c = 0; c < n; c++) {
		char head[16];
		fmt_format(head, sizeof head, "CPU %d%s", number[c],
			   cpus_core_is_p(type[c]) ? " P" : cpus_core_is_e(type[c]) ? " E" : "");
		k += fmt_format(line + k, sizeof line - (size_t)k, " %9s", head);
	}
	rows_used += screen_put(line);
	int total = 0, shown = 0;
	for (int i = 0; i < workload_count(); i++)
		total += results_has_net(cr[0], by, i);
	for (int i = 0; i < workload_count(); i++) {
		if (!results_has_net(cr[0], by, i))
			continue;
		if (budget - rows_used <= 1 && total - shown > 1) {
			if (serial)
				fmt_format(line, sizeof line, "... and %d more workloads: see the serial log", total - shown);
			else if (console_framebuffer())
				fmt_format(line, sizeof line, "... and %d more workloads: the QR code has CPU %d's",
					   total - shown, number[0]);
			else
				fmt_format(line, sizeof line, "... and %d more workloads: not shown (no serial port)",
					   total - shown);
			screen_put(line);
			break;
		}
		k = fmt_format(line, sizeof line, "%-20s", workload_at(i)->name); /* a longer name: wider, not cut */
		for (int c = 0; c < n; c++) {
			int has = (cr[c]->net_units[by][i] >> UNIT_TSC) & 1;
			k += fmt_format(line + k, sizeof line - (size_t)k, " %9s",
					has ? summary_net_cell(v, sizeof v, cr[c]->net_in[by][i][UNIT_TSC], UNIT_TSC, 9,
							       &marks) : "-");
		}
		rows_used += screen_put(line);
		shown++;
	}
	screen_note(marks);
}

/* The methods skipped, named; with the reasons (method_unavailable's
 * lines, those with the same reason together) when no serial port holds
 * them, else a pointer to the serial log. The rows it took. */
static int screen_skipped(const struct config *cfg, const struct method_row *rows)
{
	char line[512];
	int k = 0, used = 0;
	if (console_serial_baud()) {
		k = fmt_format(line, sizeof line, "skipped:");
		for (int m = 0; m < METHOD_COUNT; m++)
			if ((cfg->methods >> m) & 1 && !rows[m].ran && k < (int)sizeof line)
				k += fmt_format(line + k, sizeof line - (size_t)k, " %s", methods[m].name);
		if (k < (int)sizeof line)
			fmt_format(line + k, sizeof line - (size_t)k, " (why: serial log)");
		return screen_put(line);
	}
	unsigned done = 0;
	for (int m = 0; m < METHOD_COUNT; m++) {
		const char *why = rows[m].skip_why;
		if (!((cfg->methods >> m) & 1) || rows[m].ran || (done >> m & 1))
			continue;
		k = fmt_format(line, sizeof line, "skipped %s", methods[m].name);
		for (int o = m + 1; o < METHOD_COUNT; o++)
			if ((cfg->methods >> o) & 1 && !rows[o].ran && why && rows[o].skip_why &&
			    strlen(why) == strlen(rows[o].skip_why) &&
			    !memcmp(why, rows[o].skip_why, strlen(why)) && k < (int)sizeof line) {
				k += fmt_format(line + k, sizeof line - (size_t)k, ", %s", methods[o].name);
				done |= 1u << o;
			}
		if (k < (int)sizeof line)
			fmt_format(line + k, sizeof line - (size_t)k, ": %s", why ? why : "(no reason recorded)");
		used += screen_put(line);
	}
	return used;
}

/* The screen's "your code" section (code=; bench/coderesult.h): the
 * answer before the workloads: a line per method with the N window's net
 * and the figure per copy in the method's own unit, or where the code
 * faulted; the methods' agreement; with events= the figures per copy in
 * each event (bench/evscreen.h). Returns the rows it took. */
/* The plan's rows in place of the "your code" section: a header and a row
 * per experiment while the budget lasts, then how many more. */
static int plan_section(int rows_left)
{
	char line[200];
	int rows = 0;
	fmt_format(line, sizeof line, "plan %s: %d experiment%s, each its code's figure per copy", plan_file, plan_n,
		   plan_n == 1 ? "" : "s");
	rows += screen_put(line);
	for (int i = 0; i < plan_n; i++) {
		if (rows_left - rows <= 1 && plan_n - i > 1) {
			fmt_format(line, sizeof line, "... and %d more experiments: %s", plan_n - i, elsewhere());
			return rows + screen_put(line);
		}
		const struct screen_experiment *x = &plan_x[i];
		if (x->answer && x->answer[0])
			fmt_format(line, sizeof line, "%-16s %-8s %s", x->name, x->status, x->answer);
		else
			fmt_format(line, sizeof line, "%-16s %s", x->name, x->status);
		rows += screen_put(line);
	}
	return rows;
}

static int code_section(const struct bench_results *r)
{
	struct code_sizes k;
	char line[160], cell[64], net[24], legend[128];
	unsigned marks = 0; /* the net N's flags, as every workload's net */
	int rows = 0;
	code_sizes(&k);
	if (!k.configured || !results_code_ran(r))
		return 0;
	fmt_format(line, sizeof line, "your code %s: N = %llu cop%s (unroll=%llu loops=%llu); net N, per copy",
		   k.cfg->code_name, (unsigned long long)code_copies_executed(), code_copies_executed() == 1 ? "y" : "ies", (unsigned long long)k.cfg->unroll,
		   (unsigned long long)k.cfg->loops);
	rows += screen_put(line);
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct code_row *c = &r->code[m];
		enum unit u = r->rows[m].r.unit;
		if (c->faulted)
			fmt_format(line, sizeof line, "%-13s FAULT %s", methods[m].name,
				   code_fault_text(cell, sizeof cell, &c->fault));
		else if (c->units >> u & 1)
			fmt_format(line, sizeof line, "%-13s %10s %-11s %s", methods[m].name,
				   r->net_units[m][RESULTS_CODE_ROW] >> u & 1
					   ? summary_net_cell(net, sizeof net, r->net_in[m][RESULTS_CODE_ROW][u], u, 10, &marks)
					   : "-",
				   unit_name[u], code_per_copy_text(cell, sizeof cell, &c->per_copy[u]));
		else
			continue;
		rows += screen_put(line);
	}
	if (marks) {
		fmt_format(line, sizeof line, "(net N: %s)", summary_net_legend(legend, sizeof legend, marks));
		rows += screen_put(line);
	}
	for (int u = 0; u < UNIT_COUNT; u++) { /* the methods compared (bench/coderesult.h) */
		struct agreement a;
		if (code_agreement(r, (enum unit)u, &a))
			rows += screen_put(code_agreement_text(line, sizeof line, &a));
	}
	static char events[640]; /* events=: the code's figures per copy in each event (bench/evscreen.h) */
	if (evscreen_line(r, events, sizeof events))
		rows += screen_put(events);
	return rows;
}

void bench_screen_summary(const struct config *cfg, const struct cpu_info *cpu, const struct bench_results *r,
			  const struct screen_cpus *cpus, const char *final_line)
{
	const struct run_totals *t = &r->totals;
	const struct method_row *rows = r->rows;
	uint64_t tsc_hz = clocks_tsc_rate()->hz;
	char line[160], a[24], b[WIDE_DEC_SIZE], c[WIDE_DEC_SIZE], d[WIDE_DEC_SIZE], e[24];
	int rows_used = 0, budget = summary_rows(cfg, final_line);
	console_set_serial(0);
	console_screen_clear();

	/* The machine. */
	const char *brand = cpu->brand;
	while (*brand == ' ')
		brand++;
	/* The system (SMBIOS, kernel/smbios.h) after it when the line fits
	 * the screen's width (docs/SCREEN.md). */
	const char *sys, *board, *bios;
	smbios_texts(&sys, &board, &bios);
	int head = fmt_format(line, sizeof line, "bench summary: %.64s", brand[0] ? brand : cpu->vendor);
	int width = console_screen_cols() < 20 ? 80 : console_screen_cols();
	if (sys[0] && head + 4 + (int)strlen(sys) <= width && head + 4 + (int)strlen(sys) < (int)sizeof line)
		fmt_format(line + head, sizeof line - (size_t)head, " on %s", sys);
	kprintf("%s\n", line);
	uint64_t ucode = 0;
	int has_ucode = quiet_microcode(cpu, &ucode) == 0;
	char mhz[TSCFREQ_MHZ_BUF];
	char uc[24] = "n/a";
	if (has_ucode)
		fmt_format(uc, sizeof uc, "0x%llx", (unsigned long long)ucode);
	fmt_format(line, sizeof line, "%s fam %u model %u step %u, microcode %s, TSC %s", cpu->vendor,
		   cpu->family, cpu->model, cpu->stepping, uc,
		   tsc_hz ? tscfreq_format_mhz(mhz, sizeof mhz, tsc_hz) : "rate unknown");
	rows_used += screen_put(line);
	uint64_t smis, nmis;
	int unread;
	results_disturbances(r, &smis, &nmis, &unread);
	fmt_format(line, sizeof line, "%llu ensembles x %llu samples; SMIs %s, NMIs %llu%s%s",
		   (unsigned long long)cfg->ensembles, (unsigned long long)cfg->samples,
		   !r->smi_counted ? "not readable" : unread ? "unreadable" : fmt_fit_u64(a, sizeof a, smis, 20),
		   (unsigned long long)nmis,
		   cpu->hypervisor ? "; hypervisor " : "", cpu->hypervisor ? cpu->hv_vendor : "");
	rows_used += 1 + screen_put(line);
	int serial = console_serial_baud() != 0, qr = console_framebuffer();
	fmt_format(line, sizeof line, "run ID %s%s", runid_text(),
		   serial && qr ? " (the serial log's and the QR code's too)" : serial ? " (the serial log's too)"
		   : qr ? " (the QR code's too)" : "");
	rows_used += screen_put(line);

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
			s->total_variance_ok ? wide_fit(b, sizeof b, &s->total_variance, 9) : "none",
			s->var_of_vars_ok ? wide_fit(c, sizeof c, &s->var_of_vars, 11) : "none",
			s->var_of_mins_ok ? wide_fit(d, sizeof d, &s->var_of_mins, 11) : "none",
			!row->v.valid ? "unknown" : row->v.ergodic ? "yes" : "NO");
		rows_used++;
	}
	kprintf("units: TSC ticks (ctr_: core cycles); variances in unit^2, var of vars unit^4\n");
	if (t->methods_skipped)
		rows_used += screen_skipped(cfg, rows);
	fmt_format(line, sizeof line, "recommended: %s (ergodic: var of vars <= %s, var of mins <= %s; paper 4)",
		   t->recommended >= 0 ? methods[t->recommended].name : t->methods_run ? "none ergodic" : "none ran",
		   fmt_fit_u64(a, sizeof a, cfg->max_var_of_vars, 6), fmt_fit_u64(b, sizeof b, cfg->max_var_of_mins, 6));
	rows_used += 1 + screen_put(line);
	rows_used += plan_n ? plan_section(budget - rows_used) : code_section(r);
	for (int u = 0; u < 2; u++) /* sweep=latency's levels (bench/sweep.h) */
		if (sweep_screen_text(u, line, (int)sizeof line))
			rows_used += screen_put(line);

	/* The workloads, net of the offset, by the recommended method, else
	 * the first that ran (a TSC method before a counter method). */
	int by = results_net_by(r);
	int wl_total = 0;
	for (int i = 0; by >= 0 && i < workload_count(); i++)
		wl_total += results_has_net(r, by, i);
	if (wl_total && cpus && cpus->active) {
		per_cpu_section(cpus, by, rows_used, budget - note_rows(note_needed(cpus->r, cpus->n)));
	} else if (wl_total) {
		int room = budget - note_rows(note_needed(&r, 1));
		unsigned marks = 0;
		/* Core cycles and instructions: from the same windows when the
		 * counters were read beside the method, else from a counter
		 * method. */
		int cnt = results_counters_by(r, by, workload_count());
		fmt_format(line, sizeof line, "net of the offset (least minimum), by %s%s%s", methods[by].name,
			   cnt >= 0 && cnt != by ? "; counters by " : "", cnt >= 0 && cnt != by ? methods[cnt].name : "");
		rows_used += screen_put(line) - 1;
		if (cnt >= 0)
			kprintf("%-24s %10s %9s %12s %12s\n", "workload", "TSC ticks", "ns", "core cycles", "instructions");
		else
			kprintf("%-24s %10s %9s\n", "workload", "TSC ticks", "ns");
		rows_used += 2;
		int shown = 0;
		for (int i = 0; i < workload_count(); i++) {
			if (!r->net_units[by][i])
				continue;
			if (room - rows_used <= 1 && wl_total - shown > 1) {
				fmt_format(line, sizeof line, "... and %d more workloads: %s", wl_total - shown, elsewhere());
				screen_put(line);
				break;
			}
			char nsb[16];
			int has_tsc = (r->net_units[by][i] >> UNIT_TSC) & 1;
			int64_t ticks = r->net_in[by][i][UNIT_TSC];
			int n = fmt_format(line, sizeof line, "%-24s %10s %9s", workload_at(i)->name, /* wider, not cut */
				       has_tsc ? summary_net_cell(a, sizeof a, ticks, UNIT_TSC, 10, &marks) : "-",
				       has_tsc ? ns_of(nsb, sizeof nsb, ticks) : "-");
			if (cnt >= 0) {
				int hc = (r->net_units[cnt][i] >> UNIT_CYC) & 1, hi = (r->net_units[cnt][i] >> UNIT_INS) & 1;
				fmt_format(line + n, sizeof line - (size_t)n, " %12s %12s",
					   hc ? summary_net_cell(b, sizeof b, r->net_in[cnt][i][UNIT_CYC], UNIT_CYC, 12,
								 &marks) : "-",
					   hi ? summary_net_cell(e, sizeof e, r->net_in[cnt][i][UNIT_INS], UNIT_INS, 12,
								 &marks) : "-");
			}
			rows_used += screen_put(line);
			shown++;
		}
		screen_note(marks);
	}
	kprintf("%s\n", final_line);
	int after[3], nafter = after_lines(cfg, after);
	screen_qr(cfg, cpu, r, final_line, has_ucode, ucode, after, nafter);
	console_set_serial(1);
}

/* bench/plan.c - see plan.h. */
#include "plan.h"
#include "code.h"
#include "coderesult.h"
#include "estimate.h"
#include "experiment.h"
#include "finish.h"
#include "methods.h"
#include "percopytext.h"
#include "progress.h"
#include "report.h"
#include "run.h"
#include "screen.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/exit.h"
#include "../kernel/mem.h"
#include "../kernel/memarea.h"
#include "../kernel/paging.h"
#include "../kernel/planfile.h"
#include "../kernel/watchdog.h"
#include "../lib/cpuinfo.h"
#include "../lib/fmt.h"
#include "../lib/percopy.h"
#include "../lib/plan.h"
#include "../lib/record.h"
#include "../lib/string.h"
#include "../lib/url.h"

static struct plan plan;
static int loaded; /* 1: plan_parse ran on the file's text */

/* plan_load's lines, kept until the console is up. */
static char kept[8192];
static size_t kept_used;
static int kept_dropped;

static void keep_line(void *ctx, const char *msg)
{
	(void)ctx;
	size_t n = strlen(msg);
	if (kept_used + n + 2 > sizeof kept) {
		kept_dropped++;
		return;
	}
	memcpy(kept + kept_used, msg, n);
	kept_used += n;
	kept[kept_used++] = '\n';
	kept[kept_used] = '\0';
}

void plan_load(void)
{
	const struct planfile *pf = planfile_get();
	char msg[320];
	if (!pf->asked)
		return;
	if (!pf->text) {
		fmt_format(msg, sizeof msg, "config: plan=%s: %s; no experiment runs", pf->name,
			   pf->why[0] ? pf->why : "the file was not found");
		keep_line(0, msg);
		config_add_problems(1);
		return;
	}
	int n = plan_parse(pf->text, pf->bytes, pf->name, &plan, keep_line, 0);
	loaded = 1;
	config_add_problems(n);
	if (plan.defaults && plan.defaults[0]) {
		fmt_format(msg, sizeof msg, "plan: %s line %d (defaults): ", pf->name, plan.defaults_line);
		config_plan_defaults(plan.defaults, msg);
	}
}

void plan_print_problems(void)
{
	if (kept_used)
		console_write(kept, kept_used);
	if (kept_dropped)
		kprintf("plan: %d more message%s not shown (the kernel keeps %llu bytes of them)\n", kept_dropped,
			kept_dropped == 1 ? "" : "s", (unsigned long long)sizeof kept);
}

int plan_active(void)
{
	return loaded && plan.n > 0;
}

/* "plan: FILE line N (NAME): " into buf. */
static const char *prefix_of(char *buf, size_t size, const struct plan_experiment *e)
{
	fmt_format(buf, size, "plan: %s line %d (%s): ", planfile_get()->name, e->line, e->name);
	return buf;
}

/* The memory an experiment took, handed back: its buffers forgotten
 * (bench/run.h), the TSC step's figures too (bench/report.h), the pool's bytes from mark on (kernel/mem.h), its areas
 * mapped write-back again (kernel/memarea.h). Returns 0, or -1 when a
 * mapping was refused (said: the memory is not used again). */
static int release(uint64_t mark)
{
	bench_run_release();
	report_tsc_step_reset(); /* the next judges the TSC's step from its own figures */
	mem_release(mark);
	if (memarea_release()) {
		kprintf("plan: %s; the experiments after this one are skipped\n", paging_refusal());
		return -1;
	}
	return 0;
}

/* What one experiment gave: its status and, for the end screen and the QR
 * text, its answer in one line. */
struct outcome {
	const char *status;  /* "complete", "faulted", "skipped" */
	char why[160];       /* faulted, skipped: why ("" otherwise) */
	char answer[120];    /* the trusted method's figure per copy, or why none */
	struct qrtext_percopy pc; /* the same for the QR text's xa line */
	int has_pc;
	char fig[24], bound[24];
};
/* From the pool, for a plan run only (plan_tables): a run without a plan
 * keeps that memory for its sample buffers (the paper's size in -m 4M). */
static struct outcome *outcomes;
static struct screen_experiment *shown;
static struct bench_results *none; /* every experiment skipped: nothing measured to show */

/* The plan's own tables and the room of config_plan_room, from the pool
 * before the first experiment's mark. Returns 0, or -1 (said) when they do
 * not fit. */
static int plan_tables(void)
{
	uint64_t n = (uint64_t)plan.n;
	uint64_t bytes = n * sizeof *outcomes + n * sizeof *shown + sizeof *none + CFG_MAX_LINE + 1;
	outcomes = mem_alloc(n * sizeof *outcomes);
	shown = mem_alloc(n * sizeof *shown);
	none = mem_alloc(sizeof *none);
	char *room = mem_alloc(CFG_MAX_LINE + 1);
	if (!outcomes || !shown || !none || !room) {
		kprintf("plan: no memory for the plan's own tables (%llu bytes, %llu free)\n",
			(unsigned long long)bytes, (unsigned long long)mem_free_bytes());
		return -1;
	}
	memset(none, 0, sizeof *none);
	config_plan_room(room, CFG_MAX_LINE + 1);
	return 0;
}

/* The answer of code= in x: the figure per copy in TSC ticks of the method
 * the agreement trusts (bench/coderesult.h), else of the first method
 * with one, into o's answer and pc; why none otherwise. */
static void answer_of(const struct experiment_result *x, struct outcome *o)
{
	const struct bench_results *r = x->results;
	char *buf = o->answer;
	size_t size = sizeof o->answer;
	struct agreement a;
	int m = -1;
	char cell[64];
	if (!code_configured() || !results_code_ran(r)) {
		fmt_format(buf, size, "no code= answer (no code= given, or it did not run)");
		return;
	}
	if (code_agreement(r, UNIT_TSC, &a) && a.trusted >= 0)
		m = a.trusted;
	for (int k = 0; m < 0 && k < METHOD_COUNT; k++)
		if (r->code[k].units & 1)
			m = k;
	if (m < 0) {
		fmt_format(buf, size, "no figure per copy in TSC ticks");
		return;
	}
	const struct percopy *p = &r->code[m].per_copy[UNIT_TSC];
	fmt_format(buf, size, "%s %s TSC ticks per copy", methods[m].name, code_per_copy_text(cell, sizeof cell, p));
	int wrapped = p->kind == PERCOPY_WRAPPED;
	int bound = p->kind == PERCOPY_FIGURE || p->kind == PERCOPY_BELOW_RESOLUTION;
	o->pc = (struct qrtext_percopy){ methods[m].name, 't', percopy_kind_key(p->kind),
					 wrapped ? 0 : percopy_milli_text(o->fig, sizeof o->fig, p->neg, p->milli),
					 bound ? percopy_milli_text(o->bound, sizeof o->bound, 0, p->bound_milli) : 0,
					 p->neg ? -(int64_t)p->num : (int64_t)p->num, p->den };
	o->has_pc = 1;
}

static void experiment_begin(int i, const struct plan_experiment *e)
{
	kprintf("plan: experiment %d of %d: %s (%s line %d): %s\n", i + 1, plan.n, e->name, planfile_get()->name,
		e->line, e->words);
	struct rec r;
	rec_begin(&r, "experiment");
	rec_i64(&r, "index", i + 1);
	rec_i64(&r, "of", plan.n);
	rec_str(&r, "name", e->name);
	rec_i64(&r, "line", e->line);
	rec_str(&r, "words", e->words);
	rec_end(&r);
}

static void experiment_end(int i, const struct plan_experiment *e, const struct outcome *o,
			   const struct run_totals *t)
{
	if (o->why[0])
		kprintf("plan: experiment %d of %d: %s: %s (%s)\n", i + 1, plan.n, e->name, o->status, o->why);
	else
		kprintf("plan: experiment %d of %d: %s: %s\n", i + 1, plan.n, e->name, o->status);
	static const struct run_totals none;
	if (!t)
		t = &none;
	struct rec r;
	rec_begin(&r, "experiment_end");
	rec_i64(&r, "index", i + 1);
	rec_str(&r, "name", e->name);
	rec_str(&r, "status", o->status);
	rec_str(&r, "why", o->why[0] ? o->why : 0);
	rec_i64(&r, "methods_run", t->methods_run);
	rec_i64(&r, "methods_skipped", t->methods_skipped);
	rec_u64(&r, "ensemble_errors", t->ensemble_errors);
	rec_u64(&r, "code_faults", t->code_faults);
	rec_end(&r);
}

/* s on the consoles, a send= token's characters as '*' (lib/url.h). */
static void write_masked(const char *s)
{
	size_t from = 0, i = 0;
	for (; s[i]; i++) {
		size_t len = url_secret_at(s, (size_t)-1, i);
		if (!len)
			continue;
		console_write(s + from, i - from);
		for (size_t j = 0; j < len; j++)
			console_write("*", 1);
		i += len - 1;
		from = i + 1;
	}
	console_write(s + from, i - from);
}

static void plan_record(uint64_t log_bytes)
{
	const struct planfile *pf = planfile_get();
	char crc[16];
	fmt_format(crc, sizeof crc, "0x%08x", pf->crc32);
	kprintf("plan: %s (%s, %llu bytes, CRC-32 %s): %d experiment%s checked, run in turn; defaults: ", pf->name,
		pf->source == PLANFILE_EFI ? "read through the firmware" : "a boot module",
		(unsigned long long)pf->bytes, crc, plan.n, plan.n == 1 ? "" : "s");
	write_masked(plan.defaults[0] ? plan.defaults : "(none)");
	kprintf("; the serial log's RAM copy holds %llu bytes\n", (unsigned long long)log_bytes);
	struct rec r;
	rec_begin(&r, "plan");
	rec_str(&r, "file", pf->name);
	rec_str(&r, "source", pf->source == PLANFILE_EFI ? "efi" : "module");
	rec_u64(&r, "bytes", pf->bytes);
	rec_str(&r, "crc32", crc);
	rec_i64(&r, "experiments", plan.n);
	rec_strn_masked(&r, "defaults", plan.defaults, (size_t)-1, url_secret_at);
	rec_end(&r);
}

/* The check: every experiment's configuration and its keys' users, before
 * anything is measured, their memory taken back. Returns the problems;
 * *log_bytes receives the serial estimates' sum. */
static int check(const struct cpu_info *cpu, int counters, int cpus, int boot_problems, uint64_t *log_bytes)
{
	char prefix[PLAN_NAME_MAX + 128];
	int bad = 0;
	*log_bytes = 0;
	for (int i = 0; i < plan.n; i++) {
		const struct plan_experiment *e = &plan.exp[i];
		int n = 0;
		const struct config *c = config_plan_experiment(plan.defaults, e->words, prefix_of(prefix, sizeof prefix, e),
								boot_problems, &n);
		uint64_t mark = mem_mark();
		if (!mark) {
			kprintf("%sno memory left for its buffers (the pool ends at 0x%llx)\n", prefix,
				(unsigned long long)mem_pool_end());
			bad += n + 1;
			continue;
		}
		/* The keys' users quietly (their lines come again when the
		 * experiment runs); again aloud when they found a problem. */
		console_set_serial(0);
		int users = experiment_prepare(c, cpu, counters);
		if (!users)
			estimate_serial(c, cpu, counters, cpus);
		console_set_serial(1);
		if (users) {
			kprintf("%s%d problem%s found by its keys' users, said below:\n", prefix, users,
				users == 1 ? "" : "s");
			if (release(mark))
				return bad + n + users;
			mark = mem_mark();
			experiment_prepare(c, cpu, counters);
		} else {
			*log_bytes += estimate_serial_bytes();
		}
		if (release(mark))
			return bad + n + users;
		bad += n + users;
	}
	return bad;
}

void plan_run(const struct config *cfg, const struct cpu_info *cpu, int counters, struct bench_results *per,
	      int ncpus, int problems)
{
	const struct planfile *pf = planfile_get();
	int cpus = per ? ncpus : 1;
	int no_tables = plan_tables() != 0;
	config_add_problems(problems + no_tables);
	int boot_problems = cfg->problems;
	uint64_t estimates = 0;
	int bad = no_tables ? 0 : check(cpu, counters, cpus, boot_problems, &estimates);
	/* The boot's own configuration again (the command line and defaults). */
	cfg = config_plan_experiment(plan.defaults, "", "", boot_problems + bad, 0);
	if (cfg->problems && cfg->on_problems == PROBLEMS_STOP)
		finish_stop_for_problems(cfg);
	config_print();
	/* The serial log's RAM copy (kernel/console.h): twice the estimates
	 * (each good to ~25 %) and 64 KiB, as a run without a plan. */
	uint64_t log_bytes = 2 * estimates + 65536;
	plan_record(log_bytes);
	console_log_move(mem_alloc(log_bytes), log_bytes);
	if (!cpu->has_tsc) {
		kprintf("bench: no time-stamp counter (CPUID.1:EDX[4]=0): no method can run\n");
		finish_end_record(cfg, "no_tsc", 0, 0, 0);
		kprintf("bench: run aborted: no time-stamp counter (exit code 0x%x)\n", EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}

	static struct run_totals sum;
	static struct plan_tally tally;
	struct experiment_result x = { 0 };
	int watchdog = 0, broken = 0;
	tally.file = pf->name;
	exit_set_stage(EXIT_STAGE_MEASURING); /* an abort from here: "the results above are incomplete" */
	for (int i = 0; i < plan.n; i++) {
		const struct plan_experiment *e = &plan.exp[i];
		struct outcome *o = &outcomes[i];
		char prefix[PLAN_NAME_MAX + 128];
		*o = (struct outcome){ .status = "skipped" };
		experiment_begin(i, e);
		if (broken) {
			fmt_format(o->why, sizeof o->why, "the memory of an experiment before could not be mapped again");
			tally.skipped++;
			experiment_end(i, e, o, 0);
			continue;
		}
		cfg = config_plan_experiment(plan.defaults, e->words, prefix_of(prefix, sizeof prefix, e),
					     boot_problems + bad, 0);
		uint64_t mark = mem_mark();
		uint64_t *ticks = 0;
		if (mark) {
			config_add_problems(experiment_prepare(cfg, cpu, counters));
			ticks = cfg->samples ? mem_alloc(cfg->samples * sizeof(uint64_t)) : 0;
		}
		if (!ticks) {
			fmt_format(o->why, sizeof o->why, "no memory for a sample buffer of %llu samples (%llu bytes)",
				   (unsigned long long)cfg->samples, (unsigned long long)(cfg->samples * 8));
			tally.skipped++;
			experiment_end(i, e, o, 0);
			if (mark && release(mark))
				broken = 1;
			continue;
		}
		config_print();
		memarea_print();
		code_print_config();
		if (code_configured() && !watchdog) {
			watchdog_init(); /* the bound of code='s loops (kernel/watchdog.h), once */
			watchdog = 1;
		}
		progress_begin(cfg, cpu, counters, cpus);
		experiment_measure(cfg, cpu, ticks, per, &x);
		progress_end();
		const struct run_totals *t = x.totals;
		answer_of(&x, o);
		if (t->code_faults) {
			o->status = "faulted";
			fmt_format(o->why, sizeof o->why, "your code faulted under %llu method%s",
				   (unsigned long long)t->code_faults, t->code_faults == 1 ? "" : "s");
			tally.faulted++;
		} else {
			o->status = "complete";
		}
		tally.run++;
		sum.methods_run += t->methods_run;
		sum.methods_skipped += t->methods_skipped;
		sum.ensemble_errors += t->ensemble_errors;
		sum.code_faults += t->code_faults;
		experiment_end(i, e, o, t);
		if (release(mark))
			broken = 1;
	}
	for (int i = 0; i < plan.n; i++) /* the end screen's rows, the QR text's x lines */
		shown[i] = (struct screen_experiment){ plan.exp[i].name, outcomes[i].status,
						       outcomes[i].has_pc ? outcomes[i].answer : outcomes[i].why,
						       outcomes[i].has_pc ? &outcomes[i].pc : 0 };
	screen_plan(pf->name, shown, plan.n);
	if (!x.results)
		x = (struct experiment_result){ .results = none, .totals = &sum, .measured = per ? 0 : -1 };
	cfg = config_plan_experiment(plan.defaults, "", "", boot_problems + bad, 0);
	finish_run(cfg, cpu, &x, &sum, per != 0, &tally);
}

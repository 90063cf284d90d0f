/* bench/finish.h - how a run ends, shared by the run without a plan
 * (bench/main.c) and a plan's (bench/plan.h): the end record, the final
 * line, the screen summary and the exit (docs/OUTPUT.md "How a run ends",
 * docs/RECORDS.md "Machine-readable output"). */
#ifndef BENCH_FINISH_H
#define BENCH_FINISH_H

#include "experiment.h"
#include "results.h"

struct config;
struct cpu_info;

/* A plan's count of its experiments (NULL for a run without a plan). */
struct plan_tally {
	const char *file;   /* plan='s FILE */
	int run;            /* experiments that ran to their end (faulted ones included) */
	int faulted;        /* of those, experiments whose code faulted under some method */
	int skipped;        /* experiments that could not run */
};

/* finish_end_record - the end record and the records' closing marker:
 * status ("complete", "config_problems", "no_memory", "no_tsc"), and for
 * a complete run (t not NULL) its totals, the CPUs measured (cpus >= 0)
 * and, in a plan run (pt not NULL), experiments_run, experiments_faulted
 * and experiments_skipped. */
void finish_end_record(const struct config *cfg, const char *status, const struct run_totals *t, int cpus,
		       const struct plan_tally *pt);

/* finish_stop_for_problems - the run ends before measuring because of
 * cfg->problems command-line problems (problems=stop): the config line and
 * record, the end record (status config_problems), the problems again on
 * the screen, the "bench: run aborted" line; exits (never returns). */
void finish_stop_for_problems(const struct config *cfg) __attribute__((noreturn));

/* finish_run - a run that measured: the end record (status complete),
 * the final line ("bench: run complete: ..."; in a plan run "plan FILE: N
 * experiments run, F faulted, S skipped" before the exit code), the log
 * saved under UEFI, the screen summary of x, the exit; never returns. t:
 * the totals (x's, or a plan's sums); per: 1 when measured per CPU. */
void finish_run(const struct config *cfg, const struct cpu_info *cpu, const struct experiment_result *x,
		const struct run_totals *t, int per, const struct plan_tally *pt) __attribute__((noreturn));

#endif

/* bench/report.h - everything the measurement prints, in one place: the
 * paper's log format (Paoloni 2010 3.1.2 and appendix lines 163-175),
 * human lines with units, and the machine-readable records (docs/RECORDS.md
 * "Machine-readable output"). Never called inside a measured window. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stdint.h>
#include "methods.h"
#include "results.h"
#include "workload.h"
#include "../lib/robust.h"
#include "../lib/stats.h"

/* The records lie between these two lines. */
#define RECORDS_BEGIN "BEGIN bench-records v1"
#define RECORDS_END "END bench-records"

/* The paper's per-ensemble line (appendix lines 163-175; its four figures:
 * loop size, variance as text (lib/wide.h: exact, with PAPER64_NOTE where
 * the paper's 64-bit var_calc would have overflowed), max deviation, min), and the compact ensemble record
 * (docs/RECORDS.md "Machine-readable output": unit index, ensemble, min, max,
 * variance as text, median, NMIs, then ",SMIS" as text or nothing): the
 * format strings that print them, which bench/estimate.c measures. */
#define REPORT_PAPER_LINE "loop_size:%llu >>>> variance(cycles): %s; max_deviation: %llu ;min time: %llu\n"
/* Said beside a true figure where the paper's own 64-bit code would have
 * overflowed (lib/stats.h paper64; the paper printed "CRITICAL OVERFLOW
 * ERROR IN var_calc" and went on with -EINVAL). */
#define PAPER64_NOTE " (too large for the paper's 64-bit code)"
#define REPORT_COMPACT_RECORD "{\"e\":[%d,%llu,%llu,%llu,%s,%llu,%llu%s]}\n"

/* Units are given by their record key (unit_key[], results.h). Paper-format
 * lines are printed for a method's own unit (primary) only; report_ensemble
 * prints nothing at output=summary. */
void report_run_start(enum method_id m, const struct workload *w, uint64_t ensembles,
		      uint64_t samples, uint64_t warmup, int resolution, const char *unit);
void report_method_skip(enum method_id m, const char *why);
void report_ensemble(enum method_id m, const struct workload *w, uint64_t j, uint64_t param,
		     const char *unit, int primary, const struct ensemble_stats *e,
		     const struct robust_stats *r, const struct disturbance *d);
/* report_disturbed - one line flagging an ensemble during which SMIs or NMIs happened. */
void report_disturbed(enum method_id m, const struct workload *w, uint64_t j,
		      const struct disturbance *d);
/* report_smi_lost - MSR_SMI_COUNT faulted (fault: "#GP") when read around
 * ensemble j: a line and an "smi_unreadable" record; the ensemble records
 * from there on carry "smis": null. */
void report_smi_lost(enum method_id m, const struct workload *w, uint64_t j, const char *fault);
/* report_smi_choice - whether SMIs are counted, and why not. */
void report_smi_choice(int ok, int intel);
/* report_samples - the raw samples of one ensemble as "samples" records of
 * at most 100 values each (at most DUMP_MAX_SAMPLES values in all). */
void report_samples(enum method_id m, const struct workload *w, uint64_t j, const char *unit,
		    const uint64_t *values, uint64_t n);
/* report_tsc_step - the TSC's step over the boot so far: report_ensemble
 * adds every ensemble's figures in TSC ticks (results_step_add). */
const struct tsc_step *report_tsc_step(void);
/* report_tsc_step_reset - the step's figures forgotten: a plan's next
 * experiment (bench/plan.h) judges the TSC's step from its own ensembles,
 * as the same words booted alone would. */
void report_tsc_step_reset(void);
/* report_summary - a (method, workload)'s summary in one unit: the paper's
 * lines, the summary and robust lines, the result line and the summary
 * record. A net below zero or below its resolution (results_net_flag, at
 * the resolution known when it is printed) is flagged on the result line
 * and in the record ("net_min_flag", "net_median_flag", "resolution"). */
void report_summary(enum method_id m, const struct workload *w, const struct workload_result *r,
		    int primary);
/* report_counters - the counters' view of a (method, workload): net core
 * cycles and instructions and, beside a TSC method, core cycles per TSC
 * tick. out[] is indexed by enum unit. */
void report_counters(enum method_id m, const struct workload *w, const struct workload_result *out,
		     int beside_tsc);
/* report_counters_choice - whether counters are read beside the TSC methods. */
void report_counters_choice(int on, const char *why, const char *ins_label, const char *cyc_label);
void report_progress(enum method_id m, const struct workload *w, uint64_t done, uint64_t total,
		     uint64_t elapsed_ticks);
/* report_verdict - the method's verdict against the thresholds (TSC ticks^4
 * and ^2 or the unit's: verdict.var_of_vars=, verdict.var_of_mins=). */
void report_verdict(enum method_id m, const struct verdict *v, uint64_t max_var_of_vars,
		    uint64_t max_var_of_mins);
/* report_walk - walk=on: what single-stepping one sample of m's window
 * around w executed (bench/walk.h; bad: walk_window's return), as a line
 * and a "walk" record; resolution: the sample was of loop size param. */
struct walk_result;
void report_walk(enum method_id m, const struct workload *w, int resolution, uint64_t param, int bad,
		 const struct walk_result *r);
void report_resolution(enum method_id m, const struct resolution *r);
void report_recommendation(int m, const char *why);
#endif

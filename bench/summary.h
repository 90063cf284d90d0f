/* bench/summary.h - the summary tables printed at the end of a run (on the
 * serial log and the scrolling screen), from its results
 * (bench/results.h). Printing only: the figures come from
 * bench/results.c; the one-screen summary is bench/screen.h's. */
#ifndef BENCH_SUMMARY_H
#define BENCH_SUMMARY_H

#include <stddef.h>
#include "results.h"

/* summary_row_name - the name of workload row i of r (0 <= i <
 * workload_count(): the registered workload's; RESULTS_CODE_ROW: code='s,
 * NULL when it did not run). */
const char *summary_row_name(const struct bench_results *r, int i);

/* Marks after a flagged net figure in the tables and on the screen:
 * below zero, below its resolution (results_net_flag). */
#define SUMMARY_MARK_ZERO '!'
#define SUMMARY_MARK_RESOLUTION '~'

/* summary_net_cell - net figure v in unit u in at most width (>= 2)
 * characters (fmt_fit_i64), followed by its mark when it is flagged at the
 * resolution the boot's TSC step gives (report_tsc_step,
 * results_resolution); *marks gets bit f set for flag f. size >= 24.
 * Returns buf. */
const char *summary_net_cell(char *buf, size_t size, int64_t v, enum unit u, int width, unsigned *marks);

/* summary_net_legend - what the marks of *marks (summary_net_cell) mean,
 * one line of at most 79 characters, into buf (size >= 96); "" when no
 * mark was made: "! below zero; ~ below the resolution (5 TSC ticks, 1
 * count): not durations". Returns buf. */
const char *summary_net_legend(char *buf, size_t size, unsigned marks);

/* summary_tables - the final summary tables: a row per method run (offset
 * in TSC ticks and ns, or core cycles; total variance, variance of
 * variances, variance of minimum values, max deviation, SMIs, NMIs,
 * verdict; paper 4), then the net least minimum of each workload per
 * method, in each method's own unit, flagged figures marked and the
 * marks explained; then the TSC's step when it moves in steps (a line and
 * a "tsc_step" record); last, with code=, the "your code" section: per
 * method and unit the N window's net and the figure per copy
 * (bench/coderesult.h code_per_copy_text), or where the code faulted. */
void summary_tables(const struct bench_results *r);

#endif

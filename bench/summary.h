/* bench/summary.h - the summary tables printed at the end of a run (on the
 * serial log and the scrolling screen), from its results
 * (bench/results.h). Printing only: the figures come from
 * bench/results.c; the one-screen summary is bench/screen.h's. */
#ifndef BENCH_SUMMARY_H
#define BENCH_SUMMARY_H

#include "results.h"

/* summary_row_name - the name of workload row i of r (0 <= i <
 * workload_count(): the registered workload's; RESULTS_CODE_ROW: code='s,
 * NULL when it did not run). */
const char *summary_row_name(const struct bench_results *r, int i);

/* summary_tables - the final summary tables: a row per method run (offset
 * in TSC ticks and ns, or core cycles; total variance, variance of
 * variances, variance of minimum values, max deviation, SMIs, NMIs,
 * verdict; paper 4), then the net least minimum of each workload per
 * method, in each method's own unit. */
void summary_tables(const struct bench_results *r);

#endif

/* bench/coderesult.h - what the run says of the user's own code (code=,
 * bench/code.h): its configuration lines, the generated empty window
 * against the compiled offset, and the 2N-N figure per copy. Printing
 * only; the loops, templates and faults are bench/code.c's. */
#ifndef BENCH_CODERESULT_H
#define BENCH_CODERESULT_H

#include <stddef.h>
#include <stdint.h>
#include "methods.h"
#include "results.h"
#include "workload.h"
#include "percopytext.h"

/* code_report_offset - the line and record comparing the generated empty
 * window's least minimum (least, in the method's own unit, over n samples)
 * with the compiled loops' offset: equal where the sequences are the same
 * bytes, as they are (exactly so under QEMU -icount). */
void code_report_offset(enum method_id m, const struct workload *w, const char *unit_key,
			const char *unit_name, uint64_t least, uint64_t offset, uint64_t n);

/* code_report_per_copy - once every method has run: each method's 2N-N
 * figure in each unit it kept windows in (nanoBench's; lib/percopy.h),
 * computed from them (results_per_copy, with the clock's step
 * results_step_bound of every TSC-tick figure of the run, 1 for a
 * counter) and said in a line and a record {"rec":"per_copy"}: an exact
 * reduced fraction and a decimal with three places only where every
 * spread is 0 and the step 1; else the figure +- its bound (the spreads
 * and 2 x (step - 1)), "below resolution" with the most it can be, "below
 * zero", or no figure when a least minimum wrapped. */
void code_report_per_copy(struct bench_results *r);

/* code_report_agreement - after the per_copy lines and the recommendation
 * (results_recommend): per unit measured by any method, a line "per_copy
 * agreement UNIT: ..." and a record {"rec":"per_copy_agreement"}
 * (docs/RECORDS.md): whether the methods' intervals per copy overlap
 * (results_agreement), the pairs that do not and the gap between them per
 * copy [unit, thousandths, rounded up], and the method the recommendation
 * trusts and why. */
void code_report_agreement(const struct bench_results *r);

/* code_agreement - results_agreement of r in unit u into *a when some
 * method that did not fault measured code= in u: returns 1, else 0 (*a
 * untouched: no line for u). */
int code_agreement(const struct bench_results *r, enum unit u, struct agreement *a);

/* code_agreement_text - a's verdict in one short line for the "your code"
 * sections (final tables, end screen): "agreement in TSC ticks: cpuid,
 * rdtscp agree; trusted: rdtscp", or "...: DISAGREE: cpuid < rdtscp by
 * 0.840, ...; trusted: rdtscp" (the first 3 pairs, then how many more).
 * Returns buf. */
const char *code_agreement_text(char *buf, size_t size, const struct agreement *a);

/* code_keep_fault - after method m's code= workloads: when the user's
 * code faulted under m (a fault code_fault_take took since the last call),
 * r's code row for m says where (results_keep_code_fault). */
void code_keep_fault(struct bench_results *r, enum method_id m);

/* code_fault_text - "#UD at byte 0 of copy 1", "#GP at byte 3 of init=",
 * "#UD at byte 20 of the loop's epilogue (from copy 1)" (a part of the
 * loop, lib/codefault.h, and the copy whose jump lands there where
 * known), "watchdog in HLT at byte 0 of copy 1", "left the loop by the
 * epilogue", "#PF at 0x0, in page 0" (a RET or CALL to 0) or "... outside
 * the loop" into buf[0..size-1] (64 bytes hold every one). Returns buf. */
const char *code_fault_text(char *buf, size_t size, const struct code_fault_at *at);

/* code_event_rows - the your-code section's rows of method m's events
 * (bench/evrun.h): per event with a figure per copy of code= (workload
 * code_name), "METHOD EVENT NET_N PER_COPY", the event's name as the unit,
 * " (unverified)" after a figure its pass's check did not confirm.
 * Returns the rows printed (0 without events=). */
int code_event_rows(enum method_id m, const char *code_name);

/* code_print_config - the "code:" lines of the configuration: the bytes,
 * their size, unroll, loops and the generated loop's size; then the
 * cache= line (bench/code.h code_cache_print). */
void code_print_config(void);

#endif

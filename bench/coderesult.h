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

/* code_report_offset - the line and record comparing the generated empty
 * window's least minimum (least, in the method's own unit, over n samples)
 * with the compiled loops' offset: equal where the sequences are the same
 * bytes, as they are (exactly so under QEMU -icount). */
void code_report_offset(enum method_id m, const struct workload *w, const char *unit_key,
			const char *unit_name, uint64_t least, uint64_t offset, uint64_t n);

/* code_report_per_copy - method m's 2N-N figure in unit u (nanoBench's;
 * lib/percopy.h): kept in r (results_keep_per_copy) and said in a line
 * and a record {"rec":"per_copy"}: an exact reduced fraction and a
 * decimal with three places only where every spread is 0; else the
 * figure +- its bound, "below resolution" with the most it can be, "below
 * zero", or no figure when a least minimum wrapped. copies: those the N
 * window executes; empty, n, n2: the empty, N and 2N windows' results in
 * unit u. */
void code_report_per_copy(struct bench_results *r, enum method_id m, const struct workload *w, enum unit u,
			  uint64_t copies, const struct workload_result *empty, const struct workload_result *n,
			  const struct workload_result *n2);

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

/* code_per_copy_text - p in a table cell of at most 30 characters:
 * "1.000 exactly", "2.210 +-0.070", "below resolution (<= 0.500)",
 * "-3.000 below zero", "wrapped: no figure". Returns buf. */
const char *code_per_copy_text(char *buf, size_t size, const struct percopy *p);

/* code_print_config - the "code:" lines of the configuration: the bytes,
 * their size, unroll, loops and the generated loop's size. */
void code_print_config(void);

#endif

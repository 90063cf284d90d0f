/* bench/percopytext.h - the words of a figure per copy (lib/percopy.h),
 * shared by the per_copy lines of the TSC and the counters
 * (bench/coderesult.c) and the event_per_copy lines (bench/evrun.c): the
 * table cell, the line's text and the record's fields. Printing only. */
#ifndef BENCH_PERCOPYTEXT_H
#define BENCH_PERCOPYTEXT_H

#include <stddef.h>
#include <stdint.h>
#include "../lib/percopy.h"

/* code_per_copy_text - p in a table cell of at most 30 characters:
 * "1.000 exactly", "2.210 +-0.070", "below resolution (<= 0.500)",
 * "-3.000 below zero", "wrapped: no figure". Returns buf. */
const char *code_per_copy_text(char *buf, size_t size, const struct percopy *p);

/* code_per_copy_what - what a per_copy line says of p in unit un (a
 * unit's name, or an event's: bench/evrun.h): "1.000 TSC ticks per copy,
 * exactly 1", "... +- 0.020 (not exact: ...)", "below resolution: at most
 * ...", "below zero: ...", or "not a figure: ..." naming clock ("TSC",
 * "counter") as what moved back; into buf[0..size-1] (400 bytes hold
 * every one). Returns buf. */
const char *code_per_copy_what(char *buf, size_t size, const struct percopy *p, const char *un, const char *clock);

/* code_per_copy_fields - a per_copy record's fields from copies to step
 * (docs/RECORDS.md: copies, least_min_n, least_min_2n, num, den, per_copy,
 * status, spread, bound, step) of figure p and the two least minimums,
 * into rc (lib/record.h), which the caller began and ends. */
struct rec;
void code_per_copy_fields(struct rec *rc, const struct percopy *p, uint64_t least_n, uint64_t least_2n);

#endif

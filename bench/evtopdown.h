/* bench/evtopdown.h - events=topdown: code='s TMA level-1 fractions
 * (lib/topdown.h) per method, from its per-copy figures (bench/evrun.h
 * evrun_per_copy), once the method's events passes are measured.
 * Line `topdown METHOD code: ...` and record `topdown` (docs/RECORDS.md). */
#ifndef BENCH_EVTOPDOWN_H
#define BENCH_EVTOPDOWN_H

#include "methods.h"

/* evtopdown_method - after evrun_method(m): when the resolved events
 * include every event of one topdown set and code= has per-copy figures
 * of them under m, the line and the record (nothing otherwise). */
void evtopdown_method(enum method_id m);

#endif

/* bench/evrun.h - the windows of each events pass (bench/events.h):
 * for a TSC method, each pass measures the empty window, the workloads
 * and code='s N and 2N copies again, its events read with RDPMC beside the
 * TSC (bench/methods.h SEQ_EV_START / SEQ_EV_STOP, outside the TSC window,
 * nothing else between the reads), and gives per event and window the
 * statistics core cycles get (least minimum, the paper's variances,
 * median of medians), the net of the empty window and, for code=, the
 * 2N-N figure per copy under lib/percopy.h's rule with step 1.
 * Records: event_window, event_per_copy (docs/RECORDS.md).
 *
 * ISSUE 30 INTERFACE: owned by the measurement work; bench/run.c calls
 * evrun_method, the printers (bench/coderesult.c, bench/screen.c, the QR
 * text) read the figures back. */
#ifndef BENCH_EVRUN_H
#define BENCH_EVRUN_H

#include <stdint.h>
#include "methods.h"
#include "../lib/percopy.h"

/* evrun_begin - at the start of each run (bench/run.c bench_run): the
 * run's configuration (ensembles, samples, warmup, workloads, walk) and
 * its TSC buffer, which the events windows fill beside their events.
 * (Added to the interface: evrun_method had no way to reach either.) */
struct config;
void evrun_begin(const struct config *c, uint64_t *tsc);

/* evrun_release - between the experiments of a plan (bench/plan.h), when
 * their memory is handed out again (kernel/mem.h mem_release): the
 * buffers forgotten, taken again (for the next experiment's events=
 * and ensembles) at its first window. */
void evrun_release(void);

/* evrun_method - measure every pass of events for TSC method m (nothing
 * when events_passes() is 0 or m is a counter method). capacity: the
 * samples the TSC buffer holds. Call after the method's own windows and
 * code=; where the user's code faulted there (or faults in a pass), the
 * passes leave code= out (the fault is said once, by code_fault_take). The events' sample buffers are allocated by the first call that
 * measures a pass (only then), from the free memory: the configured
 * samples, or the most that fit (said in one line). */
struct workload_result;
void evrun_method(enum method_id m, uint64_t capacity);

/* evrun_per_copy - code='s per-copy figure of event ev (bench/events.h
 * index) under method m: 1 and *out (lib/percopy.h) with *verified (its
 * pass's check held or did not predict it) when measured, else 0. */
int evrun_per_copy(enum method_id m, int ev, struct percopy *out, int *verified);

/* evrun_net - the net (least minimum - the empty window's) of event ev in
 * workload w's windows under method m, in events: 1 and *net when
 * measured, else 0. */
struct workload;
int evrun_net(enum method_id m, const struct workload *w, int ev, int64_t *net);

#endif

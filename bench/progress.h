/* bench/progress.h - the screen's progress area during the run: where a
 * long run is and how long it has left, in a few rows rewritten in place
 * (kernel/console.h console_area_open) while the log and the records go
 * to the serial port only. What it shows:
 *
 *   progress of the run (the records and the log: serial port only)
 *   method 2 of 3: rdtscp; workload 3 of 7: add_chain_64
 *   ensembles 812 of 2100 done (38 %)
 *   elapsed 12.4 s; time left about 20.1 s (by the ensembles done so far)
 *
 * (with CPU k of K before the method on a per-CPU run, cpus=). The time
 * left is the larger of two bounds (lib/eta.h): the mean time of the
 * ensembles done so far times those still to come, and the serial log
 * still to print (bench/estimate.h) at the port's rate; elapsed in TSC
 * ticks when the TSC rate is unknown. The area is redrawn when a
 * workload begins and between ensembles at most every quarter of a second
 * (of the TSC): never inside a measured window, so no sampling path does
 * I/O. Nothing goes to the serial log: its bytes are those of a run
 * without a screen. */
#ifndef BENCH_PROGRESS_H
#define BENCH_PROGRESS_H

#include "methods.h"

struct config;
struct cpu_info;
struct workload;

/* progress_begin - open the area below the lines already on the screen
 * and plan the run: the methods of c that run on cpu (method_unavailable;
 * the ctr_ methods only with counters), each with the empty window, the
 * resolution loop (resolution=on), the selected workloads and code='s two
 * (N and 2N copies), c->ensembles each, on cpus CPUs in turn. No effect
 * without a screen. Call once, after estimate_serial, before bench_run. */
void progress_begin(const struct config *c, const struct cpu_info *cpu, int counters, int cpus);

/* progress_workload - method m begins workload w (its empty window first:
 * a new method, or a new CPU when m does not follow the last method). */
void progress_workload(enum method_id m, const struct workload *w);

/* progress_ensemble - one ensemble of the current workload is done. */
void progress_ensemble(void);

/* progress_end - the area drawn one last time and closed: the screen
 * shows the log again (the final line, then the summary). */
void progress_end(void);

#endif

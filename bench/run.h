/* bench/run.h - drive the measurement: for each method, the empty window
 * (offset and verdict, paper 4 steps 1-2), the resolution test (3.3, step
 * 3) and every selected workload net of the offset (step 4), each as
 * ensembles of samples from the sampling loops (bench/workload.h). The
 * figures are derived in bench/results.c, printed as they come by
 * bench/report.c and at the end by bench/summary.c.
 *
 * State that holds for the whole boot (the TSC rate; the sample buffers and
 * the ensembles' arrays, allocated by the first run and reused) is kept
 * here; what one run gives is its struct bench_results, so that a run can
 * be repeated (on another CPU) with its results kept apart. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdint.h>
#include "results.h"

struct cpu_info;

/* bench_run - one run: the methods and workloads of cfg with its sizes on
 * this CPU, using ticks[0..capacity-1] (capacity >= cfg.samples) as the
 * TSC ensemble buffer; buffers for the counters are allocated when
 * counters work. Prints as it goes, then the recommendation and the final
 * tables (bench/summary.h); r receives the results (results_init first). */
void bench_run(const struct cpu_info *cpu, uint64_t *ticks, uint64_t capacity, struct bench_results *r);

/* bench_set_tsc_hz - the TSC frequency in Hz (0: unknown), for the
 * nanosecond figures; set before bench_run. */
void bench_set_tsc_hz(uint64_t hz);
uint64_t bench_tsc_hz(void);

/* bench_set_tsc_source - that frequency's bound [ppm] and its source
 * (kernel/clocks.h struct tsc_rate: "pit", "hpet", "pmtimer", a
 * tscfreq_kind_name(), "none"), for the QR code's text (kernel/qr.h);
 * bench_tsc_source returns the source and sets *ppm. */
void bench_set_tsc_source(uint32_t ppm, const char *source);
const char *bench_tsc_source(uint32_t *ppm);

#endif

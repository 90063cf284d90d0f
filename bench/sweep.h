/* bench/sweep.h - sweep=latency, the memory hierarchy measured (README
 * "The memory hierarchy"): a pointer chase through a random cyclic
 * permutation of cache lines, in areas from 4 KiB to at least twice the
 * largest cache CPUID reports (leaf 4, or 8000_001DH), in steps of
 * 2^(1/4); per size the latency per load by 2N-N (lib/percopy.h), in TSC
 * ticks and, where counters count, core cycles; then the levels
 * (lib/latlevels.h) beside CPUID's caches. */
#ifndef BENCH_SWEEP_H
#define BENCH_SWEEP_H

struct config;
struct cpu_info;

/* sweep_prepare - with sweep=latency, take its area (kernel/memarea.h:
 * 1 GiB pages by default where available) before the sample buffers take
 * the rest. Returns the command-line problems (no memory for even the
 * smallest useful sweep). */
int sweep_prepare(const struct config *cfg, const struct cpu_info *cpu);

/* sweep_run - after the methods' measurement: one latency_point record
 * and line per size, one latency_levels record and the levels' lines. */
void sweep_run(const struct config *cfg, const struct cpu_info *cpu);

#endif

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

/* sweep_prepare - with sweep=latency, take its area (kernel/memarea.h
 * memarea_take "sweep", write-back): four times the largest data or
 * unified cache CPUID lists (lib/cachelist.h) where free RAM allows beside
 * the run's sample buffers, else twice it, else what fits (said by
 * sweep_run); 1 GiB pages where CPUID.80000001H:EDX[26] says they exist
 * and one holds the area, else 2 MiB, else 4 KiB when not even one 2 MiB
 * page fits; mem.pages= overrides. Before the sample buffers take the
 * rest. Returns the command-line problems: 1 (with its line) when not
 * even 64 KiB can be had, else 0. */
int sweep_prepare(const struct config *cfg, const struct cpu_info *cpu);

/* sweep_run - after the methods' measurement (nothing without an area):
 * per size from 4 KiB in steps of 2^(1/4) (whole 64-byte lines) up to
 * the area, the latency per load by 2N-N (lib/percopy.h) in TSC ticks
 * and, where ctr_rdpmc runs, core cycles: one latency line and
 * latency_point record per size and unit; then per unit the levels
 * (lib/latlevels.h): their lines and one latency_levels record
 * (docs/RECORDS.md, docs/OUTPUT.md). */
void sweep_run(const struct config *cfg, const struct cpu_info *cpu);

/* sweep_levels - the levels the last sweep_run found in unit u (0: TSC
 * ticks, 1: core cycles; lib/latlevels.h), for the end screen and its QR
 * text (bench/screen.c): 1 with *out filled when that unit was measured,
 * else 0. */
struct latlevels;
int sweep_levels(int u, struct latlevels *out);

/* sweep_screen_text - the end screen's row of unit u's levels ("memory
 * latency, core cycles per load: L1d 32 KiB 4.0; L2 256 KiB 11.0; DRAM
 * 200", or "... no level told apart (flat curve)") into buf[0..size-1];
 * NULL when unit u was not measured. */
const char *sweep_screen_text(int u, char *buf, int size);

#endif

/* kernel/prefetch.h - the hardware prefetchers under the experiment's
 * control (prefetch=keep|off|on, README "Boot parameters"): Intel's
 * documented controls (MSR 1A4H, Intel's "Disclosure of Hardware
 * Prefetcher Control on Some Intel Processors", only for the models it and
 * the later documentation list), AMD's where the family's PPR documents
 * them. Which control each model has is decided in lib/prefetch.h
 * (host-tested over tests/corpus/cpuid); this file writes, reads back and
 * says. */
#ifndef KERNEL_PREFETCH_H
#define KERNEL_PREFETCH_H

struct config;
struct cpu_info;

/* prefetch_apply - prefetch=off or on: each documented control written
 * (rdmsr_safe/wrmsr_safe), read back, one "prefetch:" line and one
 * prefetch record each ("L2 hardware prefetcher: off (MSR 1A4H bit 0 = 1,
 * read back)"), or one line saying exactly why nothing was written (a
 * model not documented, a #GP, a bit that did not stick). prefetch=keep:
 * the state read and said where it can be read, nothing written. On every
 * CPU the run measures (cpus=). Called by bench/main.c after pmu_print. */
void prefetch_apply(const struct config *cfg, const struct cpu_info *cpu);

#endif

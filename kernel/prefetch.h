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

/* prefetch_apply - prefetch=off or on: each control lib/prefetch.h
 * documents for cpu's model read (rdmsr_safe), written with only its bit
 * changed (wrmsr_safe), read back, and said in one "prefetch:" line and
 * one prefetch record (docs/RECORDS.md): "L2 hardware prefetcher: off (MSR
 * 1A4H bit 0 = 1, read back)" only when the read back shows it; a #GP or
 * a bit that did not stick is "not taken" with what was written and read
 * (QEMU's TCG: 1A4H reads 0 and ignores the write). prefetch=keep: the
 * state read and said, nothing written; a read that faults is "unknown".
 * A model no document lists: one line and one record (control null)
 * saying why, nothing written. Never fails; the run goes on.
 * The MSRs are each core's (the disclosure: shared by a core's
 * hyper-threads): bench/main.c calls this on the boot CPU after pmu_print,
 * bench/percpu.c on every other CPU cpus= measures, before its run (its
 * lines under that CPU's "cpus: measuring" line, its records tagged).
 * Sources: lib/prefetch.h (the documents), SDM Vol. 2B RDMSR/WRMSR. */
void prefetch_apply(const struct config *cfg, const struct cpu_info *cpu);

#endif

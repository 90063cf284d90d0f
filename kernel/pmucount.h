/* kernel/pmucount.h - the instructions of the events check (bench/events.c,
 * lib/pmucheck.h): a pass's counters and the TSC read around a known loop
 * of `dec; jnz`. Only the instructions live here; what the counts mean is
 * judged by lib/pmucheck.c. */
#ifndef KERNEL_PMUCOUNT_H
#define KERNEL_PMUCOUNT_H

#include <stdint.h>

/* Most counters one read of pmucount_loop takes. */
#define PMUCOUNT_MAX 16

/* pmucount_loop - read counters ecx[0..n-1] with RDPMC (SDM Vol. 2B
 * "RDPMC"; kernel/pmu.h PMU_RDPMC_INSN, RDTSC in the fake-PMU build) into
 * before[], then the TSC into tsc[0], then run `1: dec; jnz 1b`
 * `iterations` times (2 x iterations instructions, iterations branches),
 * then the TSC into tsc[1], then the counters again into after[]. One asm
 * block: the instructions around the loop are the same whatever
 * iterations is, so two calls with N and 2N differ by N iterations only.
 * Values as RDPMC gives them (the counter's width; events), TSC in TSC
 * ticks. n 0..PMUCOUNT_MAX (larger is taken as PMUCOUNT_MAX), iterations
 * >= 1 (0 is taken as 1). Every ecx must be a counter RDPMC can read
 * (else #GP, reported by the trap handler as any fault). Interrupts off. */
void pmucount_loop(const uint32_t *ecx, int n, uint64_t iterations, uint64_t *before, uint64_t *after,
		   uint64_t tsc[2]);

#endif

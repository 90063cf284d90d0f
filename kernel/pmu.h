/* kernel/pmu.h - the performance counters on this machine: lib/pmu_*.c's
 * logic over the real CPUID, RDMSR, WRMSR and RDPMC, done once at boot.
 *
 *   pmu_setup(cfg->pmu);     detect, program, verify (never faults: every
 *                            MSR access is fault-safe, kernel/trap.h)
 *   pmu_print(config_json()) the "env: pmu:" header lines (and a record)
 *
 * Then, inside a measurement window, only for a counter with
 * pmu_usable(&pmu, id) true, the plain readers below: RDPMC for the fixed
 * counters where pmu.ctr[id].rdpmc_ok, else RDMSR of pmu.ctr[id].msr;
 * deltas with pmu_delta(a, b, pmu.ctr[id].width). As in Goossens'
 * "Le compteur CTR1", put the read after the method's serializing
 * instruction (CPUID): neither RDMSR nor RDPMC is serializing (SDM Vol. 2B
 * "RDMSR", "RDPMC"), so without it the read can pass the measured code.
 */
#ifndef KERNEL_PMU_H
#define KERNEL_PMU_H

#include <stdint.h>
#include "../lib/pmu.h"

/* The counting check's loop: PMU_CHECK_ITERATIONS iterations of
 * "dec; jnz", two instructions each. */
#define PMU_CHECK_ITERATIONS 10000
#define PMU_CHECK_INSTRUCTIONS (2 * PMU_CHECK_ITERATIONS)
/* Checks tried before a counter is declared not counting. */
#define PMU_CHECK_ATTEMPTS 3

/* What pmu_setup found; all ABSENT before it runs. */
extern struct pmu_info pmu;

/* pmu_kernel_backend - the real instructions (cpuid(), rdmsr_safe,
 * wrmsr_safe, rdpmc_safe, trap_fault_string). */
extern const struct pmu_backend pmu_kernel_backend;

/* pmu_setup - pmu_detect, pmu_program and pmu_verify with the check loop
 * (up to PMU_CHECK_ATTEMPTS times while a counter fails it), for mode
 * (enum pmu_mode; the pmu= boot parameter; other values mean auto).
 * Prints nothing.
 * Call once, interrupts off, before any measurement. Never faults. */
void pmu_setup(uint64_t mode);

/* pmu_print - the header lines of pmu_describe, and when json is nonzero
 * the {"rec":"pmu",...} record (tools/benchlog/ must know that kind
 * before this is turned on). */
void pmu_print(int json);

/* pmu_rdmsr_raw - plain RDMSR (SDM Vol. 2B "RDMSR"), for use in a window
 * on an MSR the safe path proved readable (pmu_usable). Faults (#GP) on
 * an MSR that does not exist: never call it on one that was not checked.
 * Not serializing; "memory" keeps the compiler from moving memory
 * accesses across it. */
static inline uint64_t pmu_rdmsr_raw(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* pmu_rdpmc_raw - plain RDPMC (SDM Vol. 2B "RDPMC"): ecx =
 * PMU_RDPMC_FIXED(i) reads fixed counter i, width pmu.ctr[i].width bits.
 * Only where pmu.ctr[i].rdpmc_ok. In ring 0 CR4.PCE does not matter. */
static inline uint64_t pmu_rdpmc_raw(uint32_t ecx)
{
	uint32_t lo, hi;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Fixed counters by name, for windows: instructions retired and unhalted
 * core cycles (Goossens' CTR0 and CTR1). RDPMC, so rdpmc_ok must hold. */
static inline uint64_t pmu_read_instructions(void)
{
	return pmu_rdpmc_raw(PMU_RDPMC_FIXED(0));
}

static inline uint64_t pmu_read_core_cycles(void)
{
	return pmu_rdpmc_raw(PMU_RDPMC_FIXED(1));
}

#endif

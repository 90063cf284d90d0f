/* kernel/pmu.h - the performance counters on this machine: lib/pmu_*.c's
 * logic over the real CPUID, RDMSR, WRMSR and RDPMC, done once at boot.
 *
 *   pmu_setup(cfg->pmu);     detect, program, verify (never faults: every
 *                            MSR access is fault-safe, kernel/trap.h)
 *   pmu_print(config_json()) the "env: pmu:" header lines (and a record)
 *   pmu_pass_program / pmu_pass_stop   one pass of events (bench/events.c)
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
#include <stddef.h>
#include "../lib/pmu.h"
#include "../lib/pmugp.h"

/* PMU_RDPMC_INSN - the instruction that reads a performance counter, as
 * asm text for the sequences of bench/ and the events' check: "rdpmc"
 * (SDM Vol. 2B "RDPMC": ECX selects the counter, EDX:EAX its value), or
 * "rdtsc" in the fake PMU test build (BENCH_FAKE_PMU: same registers out,
 * ECX ignored, same instruction count). */
#ifdef BENCH_FAKE_PMU
#define PMU_RDPMC_INSN "rdtsc"
#else
#define PMU_RDPMC_INSN "rdpmc"
#endif

/* The fake PMU test build (make FAKE_PMU=1: -DBENCH_FAKE_PMU): the
 * backend's CPUID answers leaf 0AH with version 4, 8 GP counters x 48 bits,
 * EBX length 7 and EBX 0 (every architectural event), 3 fixed counters x 48
 * bits, the max basic leaf raised to 0AH if below, leaf 23H zeros; the
 * PMU MSRs (186H-18DH, C1H-C8H, 4C1H-4C8H, 309H-30CH, 38DH-390H, 345H)
 * are a memory array (writes stick, reads return them) and RDPMC is RDTSC
 * (PMU_RDPMC_INSN). Under QEMU -icount every counter read then counts
 * instructions retired. The real CPUID's vendor, family and model are
 * kept. Never in a real image. */
#define PMU_FAKE_MIN_MAX_BASIC 0xAu
#define PMU_FAKE_LEAF_A_EAX (4u | 8u << 8 | 48u << 16 | 7u << 24)
#define PMU_FAKE_LEAF_A_EDX (3u | 48u << 5)

/* The counting check's loop: PMU_CHECK_ITERATIONS iterations of
 * "dec; jnz", two instructions each. */
#define PMU_CHECK_ITERATIONS 10000
#define PMU_CHECK_INSTRUCTIONS (2 * PMU_CHECK_ITERATIONS)
/* Checks tried before a counter is declared not counting. */
#define PMU_CHECK_ATTEMPTS 3

/* What pmu_setup found; all ABSENT before it runs. */
extern struct pmu_info pmu;

/* Every counter CPUID enumerates (lib/pmugp.h), filled by pmu_setup with
 * its mode (pmu=off: ngp 0, why "pmu=off"); ngp 0 before it runs. */
extern struct pmu_layout pmu_layout;

/* pmu_kernel_backend - the real instructions (cpuid(), rdmsr_safe,
 * wrmsr_safe, rdpmc_safe, trap_fault_string). */
extern const struct pmu_backend pmu_kernel_backend;

/* pmu_setup - pmu_detect, pmu_layout_detect (into pmu_layout),
 * pmu_program and pmu_verify with the check loop
 * (up to PMU_CHECK_ATTEMPTS times while a counter fails it), for mode
 * (enum pmu_mode; the pmu= boot parameter; other values mean auto).
 * Prints nothing.
 * Call once, interrupts off, before any measurement. Never faults. */
void pmu_setup(uint64_t mode);

/* pmu_print - the header lines of pmu_describe, then pmu_layout_describe's
 * line (in the fake PMU build a line saying so comes first), and when json
 * is nonzero the {"rec":"pmu",...} record with the layout's fields (tools/benchlog/ must know that kind
 * before this is turned on). */
void pmu_print(int json);

/* pmu_pass_program - program one pass of events on this CPU:
 * pmu_layout_program (lib/pmugp.h) with the kernel backend, pmu_layout and
 * pmu.fixed_ctrl (the fixed counters pmu_program enabled stay enabled).
 * Returns 0, or the number of problems with err[] the first (a fault or a
 * value that does not stick: the MSR, what was written, what came back).
 * Call between windows, interrupts off. Never faults. */
int pmu_pass_program(const struct pmu_assign *a, int n, char *err, size_t errlen);

/* pmu_pass_stop - after a pass, pmu_layout_stop (lib/pmugp.h): global
 * control back to what pmu_program set (IA32_PERF_GLOBAL_CTRL =
 * pmu.global_ctrl; AMD PerfCntrGlobalCtl 0), every IA32_PERFEVTSELx /
 * PERF_CTLn of pmu_layout 0, IA32_FIXED_CTR_CTRL = pmu.fixed_ctrl. Faults
 * are caught and ignored (the safe accessors). Never faults. */
void pmu_pass_stop(void);

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
	__asm__ volatile(PMU_RDPMC_INSN : "=a"(lo), "=d"(hi) : "c"(ecx) : "memory");
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

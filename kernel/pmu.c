/* kernel/pmu.c - see pmu.h. */
#include "pmu.h"
#include "console.h"
#include "cpu.h"
#include "trap.h"

struct pmu_info pmu;

static void k_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	(void)ctx;
	struct cpuid_regs r = cpuid(leaf, sub);
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}

static int k_rdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	(void)ctx;
	return rdmsr_safe(msr, val);
}

static int k_wrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	(void)ctx;
	return wrmsr_safe(msr, val);
}

static int k_rdpmc(void *ctx, uint32_t ecx, uint64_t *val)
{
	(void)ctx;
	return rdpmc_safe(ecx, val);
}

static const char *k_fault_name(void *ctx, int fault)
{
	(void)ctx;
	return trap_fault_string(fault);
}

const struct pmu_backend pmu_kernel_backend = {
	.ctx = 0,
	.cpuid = k_cpuid,
	.rdmsr = k_rdmsr,
	.wrmsr = k_wrmsr,
	.rdpmc = k_rdpmc,
	.fault_name = k_fault_name,
};

/* Exactly 2 x *ctx instructions: "dec; jnz" per iteration (the pair may
 * macro-fuse into one uop but retires as two instructions). noinline so
 * that the count does not depend on what the compiler folds around it. */
static __attribute__((noinline)) void check_loop(void *ctx)
{
	uint64_t n = *(const uint64_t *)ctx;
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

void pmu_setup(uint64_t mode)
{
	uint64_t iterations = PMU_CHECK_ITERATIONS;
	enum pmu_mode m = mode == PMU_MODE_OFF ? PMU_MODE_OFF
			  : mode == PMU_MODE_FORCE ? PMU_MODE_FORCE
						   : PMU_MODE_AUTO;
	pmu_detect(&pmu_kernel_backend, m, &pmu);
	pmu_program(&pmu_kernel_backend, &pmu);
	/* SMM runs at CPL 0, so an OS-only counter may count an SMI handler
	 * landing in the loop unless IA32_DEBUGCTL[14] FREEZE_WHILE_SMM is set
	 * (SDM Vol. 3B 17.4.1 "IA32_DEBUGCTL MSR"; we leave it alone): a
	 * failed check is tried again, and one pass within bounds is proof
	 * enough. */
	for (int attempt = 0; attempt < PMU_CHECK_ATTEMPTS; attempt++) {
		int failed = 0;
		pmu_verify(&pmu_kernel_backend, &pmu, check_loop, &iterations, PMU_CHECK_INSTRUCTIONS);
		for (int id = 0; id < PMU_NCOUNTERS; id++)
			failed |= pmu.ctr[id].state == PMU_NOT_COUNTING;
		if (!failed)
			break;
	}
}

static void emit(void *ctx, const char *line)
{
	(void)ctx;
	kprintf("%s\n", line);
}

void pmu_print(int json)
{
	pmu_describe(&pmu, emit, 0);
	if (json)
		pmu_record(&pmu);
}

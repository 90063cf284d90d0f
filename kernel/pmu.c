/* kernel/pmu.c - see pmu.h. */
#include "pmu.h"
#include "console.h"
#include "cpu.h"
#include "trap.h"

struct pmu_info pmu;
struct pmu_layout pmu_layout;

#ifdef BENCH_FAKE_PMU
/* The fake PMU test build (kernel/pmu.h): the PMU MSRs kept in memory,
 * CPUID leaf 0AH faked, RDPMC read as RDTSC. */
static const struct {
	uint32_t first, last;
} fake_ranges[] = {
	{ 0x186, 0x18D }, /* IA32_PERFEVTSEL0-7 */
	{ 0xC1, 0xC8 },   /* IA32_PMC0-7 */
	{ 0x4C1, 0x4C8 }, /* IA32_A_PMC0-7 */
	{ 0x309, 0x30C }, /* IA32_FIXED_CTR0-3 */
	{ 0x38D, 0x390 }, /* IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_STATUS/_CTRL/_OVF_CTRL */
	{ 0x345, 0x345 }, /* IA32_PERF_CAPABILITIES */
};
static uint64_t fake_msrs[8 + 8 + 8 + 4 + 4 + 1];

/* The fake MSR's cell, or 0 for an MSR the fake does not keep. */
static uint64_t *fake_msr(uint32_t msr)
{
	unsigned base = 0;
	for (unsigned i = 0; i < sizeof fake_ranges / sizeof fake_ranges[0]; i++) {
		if (msr >= fake_ranges[i].first && msr <= fake_ranges[i].last)
			return &fake_msrs[base + msr - fake_ranges[i].first];
		base += fake_ranges[i].last - fake_ranges[i].first + 1;
	}
	return 0;
}
#endif

static void k_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	(void)ctx;
	struct cpuid_regs r = cpuid(leaf, sub);
#ifdef BENCH_FAKE_PMU
	if (leaf == 0 && r.eax < PMU_FAKE_MIN_MAX_BASIC)
		r.eax = PMU_FAKE_MIN_MAX_BASIC;
	if (leaf == 0xA)
		r = (struct cpuid_regs){ .eax = PMU_FAKE_LEAF_A_EAX, .ebx = 0, .ecx = 0, .edx = PMU_FAKE_LEAF_A_EDX };
	if (leaf == 0x23) /* no extended leaf: leaf 0AH alone says what exists */
		r = (struct cpuid_regs){ 0 };
#endif
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}

static int k_rdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	(void)ctx;
#ifdef BENCH_FAKE_PMU
	uint64_t *m = fake_msr(msr);
	if (m) {
		*val = *m;
		return 0;
	}
#endif
	return rdmsr_safe(msr, val);
}

static int k_wrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	(void)ctx;
#ifdef BENCH_FAKE_PMU
	uint64_t *m = fake_msr(msr);
	if (m) {
		*m = val;
		return 0;
	}
#endif
	return wrmsr_safe(msr, val);
}

static int k_rdpmc(void *ctx, uint32_t ecx, uint64_t *val)
{
	(void)ctx;
#ifdef BENCH_FAKE_PMU
	(void)ecx;
	*val = rdtsc();
	return 0;
#else
	return rdpmc_safe(ecx, val);
#endif
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
	pmu_layout_detect(&pmu_kernel_backend, m, &pmu_layout);
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
	char line[PMU_LAYOUT_LINE];
#ifdef BENCH_FAKE_PMU
	kprintf("env: pmu: FAKE PMU test build (BENCH_FAKE_PMU): CPUID leaf 0AH faked (version 4, 8 GP "
		"counters x 48 bits, 3 fixed x 48 bits, EBX 0), the PMU MSRs kept in memory, RDPMC read "
		"as RDTSC: every counter read counts TSC ticks (instructions retired under QEMU -icount), "
		"not the event programmed\n");
#endif
	pmu_describe(&pmu, emit, 0);
	pmu_layout_describe(&pmu_layout, line, sizeof line);
	kprintf("%s\n", line);
	if (json)
		pmu_record_with(&pmu, pmu_layout_record_fields, &pmu_layout);
}

int pmu_pass_program(const struct pmu_assign *a, int n, char *err, size_t errlen)
{
	return pmu_layout_program(&pmu_kernel_backend, &pmu_layout, a, n, pmu.fixed_ctrl, err, errlen);
}

void pmu_pass_stop(void)
{
	int intel = pmu_layout.global_ctrl_msr == PMU_MSR_PERF_GLOBAL_CTRL;
	pmu_layout_stop(&pmu_kernel_backend, &pmu_layout, intel && pmu.programmed ? pmu.global_ctrl : 0,
			pmu.programmed ? pmu.fixed_ctrl : 0);
}

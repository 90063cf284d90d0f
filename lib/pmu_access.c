/* lib/pmu_access.c - see pmu_access.h. */
#include "pmu_access.h"
#include "fmt.h"

const char *pmu_msr_name(uint32_t msr, char *buf, size_t n)
{
	(void)buf;
	(void)n;
	switch (msr) {
	case PMU_MSR_FIXED_CTR0: return "IA32_FIXED_CTR0";
	case PMU_MSR_FIXED_CTR0 + 1: return "IA32_FIXED_CTR1";
	case PMU_MSR_FIXED_CTR0 + 2: return "IA32_FIXED_CTR2";
	case PMU_MSR_FIXED_CTR_CTRL: return "IA32_FIXED_CTR_CTRL";
	case PMU_MSR_PERF_GLOBAL_STATUS: return "IA32_PERF_GLOBAL_STATUS";
	case PMU_MSR_PERF_GLOBAL_CTRL: return "IA32_PERF_GLOBAL_CTRL";
	case PMU_MSR_PERF_GLOBAL_OVF_CTRL: return "IA32_PERF_GLOBAL_OVF_CTRL";
	case PMU_MSR_APERF: return "IA32_APERF";
	case PMU_MSR_AMD_HWCR: return "HWCR";
	case PMU_MSR_AMD_IRPERF: return "IRPerfCount";
	}
	return "MSR";
}

/* The fault as the backend names it ("#GP"), else its code. */
const char *pmu_fault_str(const struct pmu_backend *b, int fault, char *buf, size_t size)
{
	if (b->fault_name)
		return b->fault_name(b->ctx, fault);
	fmt_format(buf, size, "fault 0x%x", (unsigned)fault);
	return buf;
}

/* Logged accessors: on a fault, describe it in out[] (the instruction,
 * the MSR by address and name, the value written). */
int pmu_rd(const struct pmu_backend *b, uint32_t msr, uint64_t *v, char *out, size_t size)
{
	int f = b->rdmsr(b->ctx, msr, v);
	if (f) {
		char fb[24], nb[32];
		*v = 0;
		fmt_format(out, size, "RDMSR 0x%x (%s) faulted: %s", msr, pmu_msr_name(msr, nb, sizeof nb),
			   pmu_fault_str(b, f, fb, sizeof fb));
	}
	return f;
}

int pmu_wr(const struct pmu_backend *b, uint32_t msr, uint64_t v, char *out, size_t size)
{
	int f = b->wrmsr(b->ctx, msr, v);
	if (f) {
		char fb[24], nb[32];
		fmt_format(out, size, "WRMSR 0x%x (%s) <- 0x%llx faulted: %s", msr, pmu_msr_name(msr, nb, sizeof nb),
			   (unsigned long long)v, pmu_fault_str(b, f, fb, sizeof fb));
	}
	return f;
}

void pmu_copy(char *dst, size_t size, const char *src)
{
	fmt_format(dst, size, "%s", src);
}

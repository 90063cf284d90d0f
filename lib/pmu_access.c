/* lib/pmu_access.c - see pmu_access.h. */
#include "pmu_access.h"
#include "fmt.h"

const char *pmu_msr_name(uint32_t msr, char *buf, size_t n)
{
	/* Ranges with an index: SDM Vol. 4 table 2-2 (IA32_PMC0-9 C1H-CAH,
	 * IA32_PERFEVTSEL0-9 186H-18FH, IA32_A_PMC0-9 4C1H-4CAH,
	 * IA32_FIXED_CTR0-3 309H-30CH); AMD PPRs (PERF_LEGACY_CTL0-3
	 * C001_0000H-3H, PERF_LEGACY_CTR0-3 C001_0004H-7H, PERF_CTL0-5 and
	 * PERF_CTR0-5 interleaved from C001_0200H). */
	static const struct {
		uint32_t first, count, stride;
		const char *fmt;
	} range[] = {
		{ PMU_MSR_PMC0, 10, 1, "IA32_PMC%u" },
		{ PMU_MSR_PERFEVTSEL0, 10, 1, "IA32_PERFEVTSEL%u" },
		{ PMU_MSR_A_PMC0, 10, 1, "IA32_A_PMC%u" },
		{ PMU_MSR_FIXED_CTR0, 4, 1, "IA32_FIXED_CTR%u" },
		{ PMU_MSR_AMD_LEGACY_CTL0, 4, 1, "PERF_LEGACY_CTL%u" },
		{ PMU_MSR_AMD_LEGACY_CTR0, 4, 1, "PERF_LEGACY_CTR%u" },
		{ PMU_MSR_AMD_PERF_CTL0, 16, 2, "PERF_CTL%u" },
		{ PMU_MSR_AMD_PERF_CTL0 + 1, 16, 2, "PERF_CTR%u" },
	};
	switch (msr) {
	case PMU_MSR_FIXED_CTR_CTRL: return "IA32_FIXED_CTR_CTRL";
	case PMU_MSR_PERF_GLOBAL_STATUS: return "IA32_PERF_GLOBAL_STATUS";
	case PMU_MSR_PERF_GLOBAL_CTRL: return "IA32_PERF_GLOBAL_CTRL";
	case PMU_MSR_PERF_GLOBAL_OVF_CTRL: return "IA32_PERF_GLOBAL_OVF_CTRL";
	case PMU_MSR_PERF_METRICS: return "IA32_PERF_METRICS";
	case PMU_MSR_PERF_CAPABILITIES: return "IA32_PERF_CAPABILITIES";
	case PMU_MSR_APERF: return "IA32_APERF";
	case PMU_MSR_AMD_HWCR: return "HWCR";
	case PMU_MSR_AMD_IRPERF: return "IRPerfCount";
	case PMU_MSR_AMD_GLOBAL_STATUS: return "PerfCntrGlobalStatus";
	case PMU_MSR_AMD_GLOBAL_CTL: return "PerfCntrGlobalCtl";
	case PMU_MSR_AMD_GLOBAL_STATUS_CLR: return "PerfCntrGlobalStatusClr";
	}
	for (size_t i = 0; i < sizeof range / sizeof range[0]; i++) {
		uint32_t d = msr - range[i].first;
		if (msr >= range[i].first && d % range[i].stride == 0 && d / range[i].stride < range[i].count) {
			fmt_format(buf, n, range[i].fmt, (unsigned)(d / range[i].stride));
			return buf;
		}
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

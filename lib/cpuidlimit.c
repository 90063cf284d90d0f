/* lib/cpuidlimit.c - see cpuidlimit.h. */
#include "cpuidlimit.h"
#include "fmt.h"

/* What stays lost while the limit holds. */
#define CPUID_LIMIT_LOST "leaves above it (topology, performance counters, the TSC's CPUID rate) are unavailable"

int cpuid_limit_applies(int intel, uint32_t family, uint32_t model)
{
	return intel && (family > 6 || (family == 6 && model >= 0xD));
}

static const char *fault_str(const struct cpuid_limit_ops *ops, int fault, char *buf, size_t size)
{
	if (ops->fault_name)
		return ops->fault_name(ops->ctx, fault);
	fmt_format(buf, size, "fault 0x%x", (unsigned)fault);
	return buf;
}

void cpuid_limit_lift(const struct cpuid_limit_ops *ops, int intel, uint32_t family,
		      uint32_t model, struct cpuid_limit *out)
{
	uint64_t v = 0, after = 0;
	char fb[24];
	*out = (struct cpuid_limit){ 0 };
	out->max_before = out->max_after = ops->max_basic(ops->ctx);
	if (!cpuid_limit_applies(intel, family, model))
		return;
	int f = ops->rdmsr(ops->ctx, CPUID_LIMIT_MSR, &v);
	if (f) {
		if (out->max_before <= 3)
			fmt_format(out->line, sizeof out->line,
				   "env: cpuid: max basic leaf 0x%x and IA32_MISC_ENABLE (MSR 1A0H) "
				   "unreadable (%s): a BIOS's Limit CPUID Maxval (bit 22) cannot be ruled "
				   "out; " CPUID_LIMIT_LOST,
				   out->max_before, fault_str(ops, f, fb, sizeof fb));
		return;
	}
	if (!(v & CPUID_LIMIT_BIT))
		return;
	out->was_set = 1;
	f = ops->wrmsr(ops->ctx, CPUID_LIMIT_MSR, v & ~CPUID_LIMIT_BIT);
	if (f) {
		fmt_format(out->line, sizeof out->line,
			   "env: cpuid: the BIOS limits CPUID to leaf 0x%x (IA32_MISC_ENABLE[22] Limit "
			   "CPUID Maxval, MSR 1A0H = 0x%llx): clearing it faulted (%s); " CPUID_LIMIT_LOST,
			   out->max_before, (unsigned long long)v, fault_str(ops, f, fb, sizeof fb));
		return;
	}
	f = ops->rdmsr(ops->ctx, CPUID_LIMIT_MSR, &after);
	out->max_after = ops->max_basic(ops->ctx);
	out->cleared = !f && !(after & CPUID_LIMIT_BIT);
	if (out->cleared)
		fmt_format(out->line, sizeof out->line,
			   "env: cpuid: the BIOS limited CPUID to leaf 0x%x (IA32_MISC_ENABLE[22] Limit "
			   "CPUID Maxval, MSR 1A0H): cleared, as Linux does; max basic leaf now 0x%x",
			   out->max_before, out->max_after);
	else
		fmt_format(out->line, sizeof out->line,
			   "env: cpuid: the BIOS limits CPUID to leaf 0x%x (IA32_MISC_ENABLE[22] Limit "
			   "CPUID Maxval, MSR 1A0H): clearing it did not take (MSR 1A0H %s%s; max basic "
			   "leaf 0x%x); " CPUID_LIMIT_LOST,
			   out->max_before, f ? "unreadable after the write: " : "still has bit 22",
			   f ? fault_str(ops, f, fb, sizeof fb) : "", out->max_after);
}

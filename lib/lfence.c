/* lib/lfence.c - see lfence.h. */
#include "lfence.h"

enum lfence_rule lfence_rule(const struct lfence_cpu *c)
{
	if (c->intel)
		return LFENCE_INTEL;
	if (!c->amd && !c->hygon)
		return LFENCE_UNKNOWN;
	if (c->always)
		return LFENCE_AMD_CPUID;
	if (c->amd && !c->hypervisor && (c->family == 0xF || c->family == 0x11))
		return LFENCE_AMD_FAMILY;
	return LFENCE_AMD_DE_CFG;
}

int lfence_known(enum lfence_rule rule)
{
	return rule == LFENCE_INTEL || rule == LFENCE_AMD_CPUID || rule == LFENCE_AMD_FAMILY;
}

const char *lfence_why(enum lfence_rule rule)
{
	switch (rule) {
	case LFENCE_INTEL:
		return "dispatch-serializing on Intel (SDM Vol. 2A LFENCE: it does not execute until "
		       "all prior instructions have completed locally)";
	case LFENCE_AMD_CPUID:
		return "always serializing (CPUID.80000021H:EAX[2]=1)";
	case LFENCE_AMD_FAMILY:
		return "dispatch-serializing on AMD families 0Fh and 11h, which have no DE_CFG MSR "
		       "(AMD, \"Software Techniques for Managing Speculation on AMD Processors\", G-2: "
		       "they \"support LFENCE as serializing always\"; Linux trusts it too)";
	case LFENCE_AMD_DE_CFG:
	case LFENCE_UNKNOWN:
		break;
	}
	return "";
}

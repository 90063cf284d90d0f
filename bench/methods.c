/* bench/methods.c - the method table; the sequences are in methods.h. */
#include "methods.h"
#include "../kernel/probe.h"

const struct method_desc methods[METHOD_COUNT] = {
	[METHOD_cpuid] = { "cpuid", "CPUID;RDTSC ... CPUID;RDTSC", "Paoloni 2010 section 3.1" },
	[METHOD_rdtscp] = { "rdtscp", "CPUID;RDTSC ... RDTSCP;mov;mov;CPUID",
			    "Paoloni 2010 section 3.2.1" },
	[METHOD_cr0] = { "cr0", "CPUID;RDTSC ... mov %cr0,%rax;mov %rax,%cr0;RDTSC",
			 "Paoloni 2010 section 3.2.3" },
	[METHOD_lfence_rdtscp] = { "lfence_rdtscp", "LFENCE;RDTSC ... RDTSCP;LFENCE",
				   "SDM Vol. 2B RDTSC and RDTSCP" },
	[METHOD_lfence] = { "lfence", "LFENCE;RDTSC ... LFENCE;RDTSC", "SDM Vol. 2B RDTSC" },
	[METHOD_serialize] = { "serialize", "SERIALIZE;RDTSC ... SERIALIZE;RDTSC",
			       "SDM Vol. 2B SERIALIZE" },
};

const char *method_unavailable(enum method_id m, const struct cpu_info *cpu)
{
	if ((m == METHOD_rdtscp || m == METHOD_lfence_rdtscp) && !cpu->has_rdtscp)
		return "RDTSCP is not supported (CPUID.80000001H:EDX[27]=0)";
	if ((m == METHOD_lfence_rdtscp || m == METHOD_lfence) && !cpu->lfence_serializing)
		return "LFENCE is not dispatch-serializing on this AMD CPU (CPUID 80000021H:EAX[2]=0 and "
		       "DE_CFG MSR C001_1029h bit 1 could not be set)";
	if (m == METHOD_serialize && !cpu->has_serialize)
		return "SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)";
	return 0;
}

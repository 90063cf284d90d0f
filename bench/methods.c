/* bench/methods.c - the method table; the sequences are in methods.h. */
#include "methods.h"
#include "../kernel/probe.h"

const struct method_desc methods[METHOD_COUNT] = {
	[METHOD_cpuid] = { "cpuid", "CPUID;RDTSC ... CPUID;RDTSC", "Paoloni 2010 section 3.1" },
	[METHOD_rdtscp] = { "rdtscp", "CPUID;RDTSC ... RDTSCP;mov;mov;CPUID",
			    "Paoloni 2010 section 3.2.1" },
	[METHOD_cr0] = { "cr0", "CPUID;RDTSC ... mov %cr0,%rax;mov %rax,%cr0;RDTSC",
			 "Paoloni 2010 section 3.2.3" },
};

const char *method_unavailable(enum method_id m, const struct cpu_info *cpu)
{
	if (m == METHOD_rdtscp && !cpu->has_rdtscp)
		return "RDTSCP is not supported (CPUID.80000001H:EDX[27]=0)";
	return 0;
}

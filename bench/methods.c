/* bench/methods.c - the method table; the sequences are in methods.h. */
#include "methods.h"
#include "events.h"
#include "../kernel/pmu.h"
#include "../kernel/probe.h"
#include "../lib/lfence.h"

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
	[METHOD_ctr_rdmsr] = { "ctr_rdmsr", "RDMSR CTR0,CTR1;CPUID ... CPUID;RDMSR CTR1,CTR0",
			       "Goossens, slide Le compteur CTR1" },
	[METHOD_ctr_rdpmc] = { "ctr_rdpmc", "RDPMC CTR0,CTR1;CPUID ... CPUID;RDPMC CTR1,CTR0",
			       "Goossens' method read with RDPMC (SDM Vol. 2B RDPMC)" },
};

const char *method_unavailable(enum method_id m, const struct cpu_info *cpu)
{
	if ((m == METHOD_rdtscp || m == METHOD_lfence_rdtscp) && !cpu->has_rdtscp)
		return "RDTSCP is not supported (CPUID.80000001H:EDX[27]=0)";
	if ((m == METHOD_lfence_rdtscp || m == METHOD_lfence) && !cpu->lfence_serializing)
		return cpu->is_amd ? LFENCE_NOT_KNOWN " on this AMD CPU (CPUID 80000021H:EAX[2]=0, not "
						      "family 0Fh or 11h on bare metal, and DE_CFG MSR "
						      "C001_1029h bit 1 not set; see the quiet: lfence: line)"
				   : LFENCE_NOT_KNOWN " on this vendor (documented for Intel and AMD only; "
						      "see the quiet: lfence: line)";
	if (m == METHOD_serialize && !cpu->has_serialize)
		return "SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)";
	if (method_is_ctr(m)) {
		for (int id = PMU_FIXED0; id <= PMU_FIXED1; id++)
			if (!pmu_usable(&pmu, (enum pmu_counter_id)id))
				return id == PMU_FIXED0 ? "IA32_FIXED_CTR0 (instructions retired) is not usable: see the env: pmu: lines"
							: "IA32_FIXED_CTR1 (unhalted core cycles) is not usable: see the env: pmu: lines";
		if (m == METHOD_ctr_rdpmc &&
		    !(pmu.ctr[PMU_FIXED0].rdpmc_ok && pmu.ctr[PMU_FIXED1].rdpmc_ok))
			return "RDPMC of the fixed counters did not pass the boot check: see the env: pmu: lines";
	}
	return 0;
}

/* What the start sequences read and the stops subtract (methods.h); the
 * counters' MSRs beside a TSC method (set by bench/run.c from the boot
 * check, read by SEQ_BESIDE_*). */
struct bench_window bench_w0 __attribute__((aligned(64)));
uint32_t bench_msr_ins, bench_msr_cyc;

/* The events of a pass read beside a TSC method (SEQ_EV_*): each slot's
 * RDPMC ECX (set by events_pass_begin through bench/evrun.c), its value at
 * the start, and after the stop its raw difference. */
_Static_assert(SEQ__EV_SLOTS == BENCH_EV_SLOTS, "methods.h reads BENCH_EV_SLOTS counters");
uint32_t bench_ev_ecx[SEQ__EV_SLOTS] __attribute__((aligned(64)));
uint64_t bench_ev0[SEQ__EV_SLOTS] __attribute__((aligned(64)));
uint64_t bench_ev_delta[SEQ__EV_SLOTS] __attribute__((aligned(64)));

/* kernel/probe.h - what CPU this is (CPUID, SDM Vol. 2A "CPUID"). */
#ifndef KERNEL_PROBE_H
#define KERNEL_PROBE_H

#include <stdint.h>
#include "multiboot.h"
#include "../lib/cpuidlimit.h"
#include "../lib/lfence.h"

struct cpu_info {
	char vendor[13];
	char brand[49];      /* empty when CPUID.80000000H:EAX < 80000004H */
	uint32_t max_basic, max_ext;
	uint32_t family, model, stepping;
	uint32_t signature;  /* CPUID.1:EAX */
	int has_tsc;         /* CPUID.1:EDX[4] */
	int has_rdtscp;      /* CPUID.80000001H:EDX[27] */
	int invariant_tsc;   /* CPUID.80000007H:EDX[8] */
	int hypervisor;      /* CPUID.1:ECX[31] */
	int has_serialize;   /* CPUID.(EAX=07H,ECX=0):EDX[14] */
	int is_amd;          /* vendor AuthenticAMD or HygonGenuine */
	enum lfence_rule lfence_rule; /* lib/lfence.h: which vendor rule says
				 * whether LFENCE is dispatch-serializing */
	int lfence_serializing; /* LFENCE known to be dispatch-serializing: by the
				 * rule alone (Intel; AMD per CPUID 80000021H:EAX[2];
				 * AMD families 0Fh and 11h), or after DE_CFG bit 1
				 * is set (kernel/machine.c); other vendors never
				 * (not documented: "unknown", the LFENCE methods skip) */
	char hv_vendor[13];  /* CPUID.40000000H:EBX,ECX,EDX when hypervisor */
	struct cpuid_limit cpuid_limit; /* a BIOS's Limit CPUID Maxval, cleared
				 * (lib/cpuidlimit.h); its line, if any, printed
				 * by probe_print */
};

/* probe_cpu - fill *c from CPUID, on the calling CPU. First, on Intel, a
 * BIOS's "Limit CPUID Maxval" (IA32_MISC_ENABLE[22]) is cleared as Linux
 * does (cpuid_limit_lift, with the fault-safe MSR accessors), so that
 * max_basic and every leaf read after it are the CPU's own. Never faults
 * (CPUID is checked in boot; the IDT must be set up: trap_init). */
void probe_cpu(struct cpu_info *c);

/* cpu_vendor_is - 1 when c's vendor string (CPUID leaf 0: EBX, EDX, ECX)
 * is v, else 0. v holds at least 12 characters ("GenuineIntel",
 * "AuthenticAMD", "HygonGenuine"); its first 12 are compared. */
int cpu_vendor_is(const struct cpu_info *c, const char *v);

/* probe_print - the environment header: human lines and one "env" record. */
void probe_print(const struct cpu_info *c, const struct boot_info *bi);

#endif

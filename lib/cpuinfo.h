/* lib/cpuinfo.h - what CPU this is, decoded from CPUID (SDM Vol. 2A
 * "CPUID"; AMD64 APM Vol. 3, "CPUID"): vendor, family, model, stepping,
 * brand string and the feature bits the benchmark depends on.
 *
 * Freestanding and host-tested: the caller passes a CPUID function. The
 * kernel passes the instruction (kernel/cpu.h cpuid_into, via
 * kernel/probe.c); tests/unit/test_cpuid_corpus.c passes real CPUs' dumps
 * (tests/corpus/cpuid/), so both run this very code. The same callback
 * feeds lib/cpus.h (topology, core type), lib/tscfreq.h and lib/pmu.h.
 */
#ifndef LIB_CPUINFO_H
#define LIB_CPUINFO_H

#include <stdint.h>
#include "cpuidlimit.h"
#include "lfence.h"

/* CPUID with EAX = leaf, ECX = sub: out[] = EAX, EBX, ECX, EDX. A leaf
 * above the maximum returns what the CPU returns there: the caller of a
 * decoder need not check (the decoders check the maximum first). */
typedef void cpuid_fn(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4]);

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
				 * (lib/cpuidlimit.h, by the kernel's probe_cpu;
				 * cpuinfo_read leaves it zero); its line, if any,
				 * printed by probe_print */
};

/* cpuinfo_read - fill *c from CPUID through f(ctx, ...). Never fails:
 * what a leaf below the maximum does not say is 0 (or empty). */
void cpuinfo_read(cpuid_fn *f, void *ctx, struct cpu_info *c);

/* cpuinfo_regs_str - the 12 characters of three CPUID registers, a's
 * bytes first, lowest byte first, and a NUL into dst[12]: the vendor
 * string of leaf 0 (EBX, EDX, ECX) or a hypervisor's of 40000000H (EBX,
 * ECX, EDX). SDM Vol. 2A CPUID. */
void cpuinfo_regs_str(char dst[13], uint32_t a, uint32_t b, uint32_t c);

/* cpu_vendor_is - 1 when c's vendor string (CPUID leaf 0: EBX, EDX, ECX)
 * is v, else 0. v holds at least 12 characters ("GenuineIntel",
 * "AuthenticAMD", "HygonGenuine"); its first 12 are compared. */
int cpu_vendor_is(const struct cpu_info *c, const char *v);

/* cpuinfo_family - the display family of CPUID.1:EAX: the base family
 * (EAX[11:8]), plus the extended family (EAX[27:20]) when the base is 0FH
 * (SDM Vol. 2A figure "Version Information"; APM Vol. 3 CPUID Fn0000_0001
 * EAX: the same rule). */
uint32_t cpuinfo_family(uint32_t eax1);

/* cpuinfo_model - the display model of CPUID.1:EAX: the base model
 * (EAX[7:4]), plus the extended model (EAX[19:16]) << 4 for the base
 * families the vendor adds it for: Intel 06H and 0FH (SDM), AMD and Hygon
 * 0FH (APM), Centaur and Zhaoxin 06H and above (lib/cpuinfo.c says why),
 * others as Intel. vendor: the 12 characters of leaf 0 (EBX, EDX, ECX). */
uint32_t cpuinfo_model(const char *vendor, uint32_t eax1);

#endif

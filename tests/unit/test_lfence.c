/* tests/unit/test_lfence.c - lib/lfence.c: which vendor rule says whether
 * LFENCE is dispatch-serializing, on CPUID values copied from real CPUs'
 * dumps (libcpuid's tests/ folder, BSD-2-Clause, github:anrieff/libcpuid;
 * each file named) and on what QEMU's CPU models claim. */
#include <stdint.h>
#include "check.h"
#include "../../lib/lfence.h"

/* The display family of CPUID.1:EAX (SDM Vol. 2A CPUID, "Processor
 * Signature"): base, plus the extended family when the base is 0FH. */
static uint32_t family_of(uint32_t eax)
{
	uint32_t base = (eax >> 8) & 0xF;
	return base == 0xF ? base + ((eax >> 20) & 0xFF) : base;
}

/* An AMD CPU of signature sig whose max extended leaf is below 80000021H. */
static struct lfence_cpu amd(uint32_t sig, int hypervisor)
{
	return (struct lfence_cpu){ .amd = 1, .family = family_of(sig), .hypervisor = hypervisor };
}

/* A rule that settles it alone has a documented reason. */
#define CHECK_HAS_WHY(rule)                                                                  \
	CHECK(lfence_why(rule)[0] != '\0', "rule %d: the quiet line gives a reason", (int)(rule))

static void test_amd_families(void)
{
	/* tests/amd/k8/amd-athlon-64-processor-3200+.test: 00020FF0. */
	struct lfence_cpu c = amd(0x00020FF0, 0);
	CHECK_EQ_U64(c.family, 0xF, "Athlon 64 3200+: family 0Fh");
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_FAMILY, "Athlon 64 3200+: AMD's family 0Fh rule");
	CHECK(lfence_known(lfence_rule(&c)), "Athlon 64 3200+: serializing without DE_CFG");
	/* tests/amd/k8/amd-opteron-processor-248.test: 00000F5A. */
	c = amd(0x00000F5A, 0);
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_FAMILY, "Opteron 248 (family 0Fh): AMD's rule");
	/* tests/amd/k8/amd-turion-x2-ultra-dual-core-mobile-zm-82.test:
	 * 00200F31, family 11h (Griffin). */
	c = amd(0x00200F31, 0);
	CHECK_EQ_U64(c.family, 0x11, "Turion X2 Ultra ZM-82: family 11h");
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_FAMILY, "Turion X2 Ultra ZM-82: AMD's family 11h rule");
	CHECK_HAS_WHY(LFENCE_AMD_FAMILY);
	/* Family 10h (tests/amd/k10/quad-core-amd-opteron-processor-2344-he.test:
	 * 00100F2A) and 12h (amd-a8-3850-apu-with-radeon-hd-graphics.test: 00300F10)
	 * have DE_CFG: the MSR decides. */
	c = amd(0x00100F2A, 0);
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_DE_CFG, "family 10h: DE_CFG decides");
	CHECK(!lfence_known(LFENCE_AMD_DE_CFG), "DE_CFG: not known before the MSR is set");
	CHECK_STR(lfence_why(LFENCE_AMD_DE_CFG), "", "DE_CFG: the caller explains");
	c = amd(0x00300F10, 0);
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_DE_CFG, "family 12h: DE_CFG decides");
	/* Zen 3 with CPUID 80000021H:EAX[2] = 1: always. */
	c = amd(0x00A20F10, 0);
	c.always = 1;
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_CPUID, "80000021H:EAX[2] = 1: always");
	CHECK_STR(lfence_why(LFENCE_AMD_CPUID), "always serializing (CPUID.80000021H:EAX[2]=1)",
		  "80000021H:EAX[2]: the quiet line's reason");
}

static void test_hypervisor_and_vendors(void)
{
	/* QEMU's max and qemu64 models: AuthenticAMD family 0Fh model 6BH
	 * (00060FB1), hypervisor bit set: the family is the hypervisor's. */
	struct lfence_cpu c = amd(0x00060FB1, 1);
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_DE_CFG,
		     "family 0Fh under a hypervisor: DE_CFG decides, not the family");
	c.hypervisor = 0;
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_FAMILY, "the same without a hypervisor: family 0Fh");
	/* tests/hygon/dhyana/hygon-c86-7185-32-core-processor.test: 00900F01,
	 * family 18h: DE_CFG, as Linux's init_hygon() sets it. */
	c = (struct lfence_cpu){ .hygon = 1, .family = family_of(0x00900F01) };
	CHECK_EQ_U64(c.family, 0x18, "Hygon C86 7185: family 18h");
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_DE_CFG, "Hygon: DE_CFG decides");
	/* Hygon has no family 0Fh: the AMD family rule is AuthenticAMD's. */
	c.family = 0xF;
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_AMD_DE_CFG, "HygonGenuine family 0Fh: not AMD's rule");
	/* tests/intel/x86-64/nehalem/intel-core-i5-cpu-650.test: Intel, always. */
	c = (struct lfence_cpu){ .intel = 1, .family = family_of(0x00020652), .hypervisor = 1 };
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_INTEL, "i5-650: Intel's rule, hypervisor or not");
	CHECK(lfence_known(LFENCE_INTEL), "Intel: known");
	CHECK_HAS_WHY(LFENCE_INTEL);
	/* CentaurHauls, even family 0Fh: nothing documented. */
	c = (struct lfence_cpu){ .family = 0xF };
	CHECK_EQ_U64(lfence_rule(&c), LFENCE_UNKNOWN, "another vendor: unknown");
	CHECK(!lfence_known(LFENCE_UNKNOWN), "another vendor: not known");
	CHECK(strstr(LFENCE_NOT_KNOWN, "not known to be dispatch-serializing") != NULL,
	      "the one phrase for an unsettled LFENCE");
}

int main(void)
{
	test_amd_families();
	test_hypervisor_and_vendors();
	return check_summary("test_lfence");
}

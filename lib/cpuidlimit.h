/* lib/cpuidlimit.h - a BIOS's "Limit CPUID Maxval" undone, as Linux does.
 *
 * IA32_MISC_ENABLE (MSR 1A0H) bit 22, "Limit CPUID Maxval": when 1,
 * CPUID.00H:EAX returns a maximum basic leaf of 2 (SDM Vol. 4, table 2-2;
 * a BIOS setup option for old operating systems). Every leaf above it is
 * then lost: 4 and 0BH (topology), 0AH (the performance counters), 15H
 * (the TSC's nominal rate). Linux clears the bit on Intel CPUs of family 6
 * from model 0DH on, and of any later family (arch/x86/kernel/cpu/intel.c:
 * early_init_intel, "Unmask CPUID levels if masked", now
 * intel_unlock_cpuid_leafs: vendor Intel and family/model at least Pentium
 * M Dothan, 6/0DH), then reads CPUID.00H:EAX again. So does
 * cpuid_limit_lift, on the calling CPU, and says what it did in one line.
 *
 * Freestanding and host-tested (tests/unit/test_cpuidlimit.c): CPUID and
 * the MSR are read and written through struct cpuid_limit_ops, which the
 * kernel backs with cpuid() and the fault-safe rdmsr_safe/wrmsr_safe
 * (kernel/probe.c, kernel/trap.h) and the test with a fake CPU.
 */
#ifndef LIB_CPUIDLIMIT_H
#define LIB_CPUIDLIMIT_H

#include <stdint.h>

#define CPUID_LIMIT_MSR 0x1A0u            /* IA32_MISC_ENABLE */
#define CPUID_LIMIT_BIT (1ull << 22)      /* Limit CPUID Maxval */

/* What cpuid_limit_lift reads and writes through. rdmsr/wrmsr return 0, or
 * a nonzero fault code when the instruction faulted (rdmsr then stores 0);
 * fault_name (may be NULL) names a code ("#GP"). */
struct cpuid_limit_ops {
	void *ctx;
	uint32_t (*max_basic)(void *ctx); /* CPUID.00H:EAX */
	int (*rdmsr)(void *ctx, uint32_t msr, uint64_t *val);
	int (*wrmsr)(void *ctx, uint32_t msr, uint64_t val);
	const char *(*fault_name)(void *ctx, int fault);
};

struct cpuid_limit {
	uint32_t max_before;   /* CPUID.00H:EAX before */
	uint32_t max_after;    /* CPUID.00H:EAX after (= max_before unless cleared) */
	int was_set;           /* IA32_MISC_ENABLE[22] read 1 */
	int cleared;           /* written 0, read back 0 */
	char line[320];        /* "" when there is nothing to say; else one whole
				* line (no newline) saying what was found and done */
};

/* cpuid_limit_applies - 1 when Linux clears the bit on this CPU: intel
 * (vendor GenuineIntel) and display family > 6, or family 6 with display
 * model >= 0DH; else 0. */
int cpuid_limit_applies(int intel, uint32_t family, uint32_t model);

/* cpuid_limit_lift - where cpuid_limit_applies: read IA32_MISC_ENABLE; if
 * bit 22 is set, write the value with it clear, read it back and read
 * CPUID.00H:EAX again. out->line then says, in one line starting
 * "env: cpuid: ", that the BIOS limited CPUID to leaf max_before and that
 * the limit was cleared (max basic leaf now max_after), or that clearing
 * it faulted or did not take (and which leaves stay lost). A read of the
 * MSR that faults is said only when the max basic leaf is 3 or less
 * (then the limit cannot be ruled out). Nothing is written unless the bit
 * reads 1. Never fails. */
void cpuid_limit_lift(const struct cpuid_limit_ops *ops, int intel, uint32_t family,
		      uint32_t model, struct cpuid_limit *out);

#endif

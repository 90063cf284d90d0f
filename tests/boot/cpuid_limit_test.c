/* tests/boot/cpuid_limit_test.c - linked only into a test build
 * (EXTRA_SRC; tests/boot/t_figures.py): a BIOS that set "Limit CPUID
 * Maxval" (IA32_MISC_ENABLE[22]). QEMU keeps the MSR's value but its CPUID
 * ignores the bit, so this build sets the bit at the first read of
 * CPUID.00H:EAX and answers 2 while the bit is set, as SDM Vol. 4 table
 * 2-2 says the CPU does; the kernel's own clearing (kernel/probe.c,
 * lib/cpuidlimit.c) runs unchanged on the real MSR. */
#include <stdint.h>
#include "../../kernel/cpu.h"
#include "../../kernel/trap.h"
#include "../../lib/cpuidlimit.h"

uint32_t probe_max_basic(void *ctx);
uint32_t probe_max_basic(void *ctx)
{
	static int set;
	uint64_t v = 0;
	(void)ctx;
	if (!set) {
		set = 1;
		if (!rdmsr_safe(CPUID_LIMIT_MSR, &v))
			(void)wrmsr_safe(CPUID_LIMIT_MSR, v | CPUID_LIMIT_BIT);
	}
	if (!rdmsr_safe(CPUID_LIMIT_MSR, &v) && (v & CPUID_LIMIT_BIT))
		return 2;
	return cpuid(0, 0).eax;
}

/* kernel/xsave.c - see xsave.h. */
#include "xsave.h"
#include "console.h"
#include "cpu.h"
#include "../lib/fmt.h"
#include "../lib/string.h"
#include "../lib/xcr0.h"

#define CR4_OSXSAVE (1ull << 18)

static struct {
	int decided;
	struct xcr0_cpuid in;
	uint64_t xcr0;      /* written on every CPU; 0: none */
	uint32_t area;      /* CPUID.(EAX=0DH,ECX=0):EBX after XSETBV */
} xs;

void xsave_enable(void)
{
	if (!xs.decided) {
		xcr0_cpuid_read(cpuid_into, 0, &xs.in);
		xs.xcr0 = xcr0_choose(&xs.in);
		xs.decided = 1;
	}
	if (!xs.xcr0)
		return;
	uint64_t cr4 = read_cr4() | CR4_OSXSAVE;
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4) : "memory");
	__asm__ volatile("xsetbv" : : "c"(0), "a"((uint32_t)xs.xcr0), "d"((uint32_t)(xs.xcr0 >> 32)) : "memory");
	/* EBX: the size the enabled components need (SDM Vol. 2A CPUID leaf 0DH). */
	xs.area = cpuid(0xD, 0).ebx;
}

void xsave_print(void)
{
	char line[400];
	xcr0_line(line, sizeof line, &xs.in, xs.xcr0, xs.area);
	size_t n = strlen(line);
	if (xs.xcr0 && xs.area > XSAVE_AREA_MAX)
		fmt_format(line + n, sizeof line - n, "; more than the %u bytes reserved: the loops save x87 "
			   "and SSE state only (FXSAVE64)", XSAVE_AREA_MAX);
	kprintf("%s\n", line);
}

uint64_t xsave_mask(void)
{
	return xs.area <= XSAVE_AREA_MAX ? xs.xcr0 : 0;
}

/* kernel/runid.c - see runid.h. */
#include "runid.h"
#include "console.h"
#include "cpu.h"
#include "../lib/fmt.h"

#define RDRAND_RETRIES 10 /* Intel DRNG Software Implementation Guide 5.2.1 */

static char text[17];

/* SplitMix64's finalizer (Steele, Lea and Flood 2014): every input bit
 * moves every output bit. */
static uint64_t mix(uint64_t h, uint64_t part)
{
	h ^= part;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ h >> 31;
}

/* One 64-bit value of RDSEED (seed != 0) or RDRAND into *v; 0 when the
 * generator said it had none (CF=0) RDRAND_RETRIES times in a row. */
static int random64(int seed, uint64_t *v)
{
	for (int i = 0; i < RDRAND_RETRIES; i++) {
		uint8_t ok;
		if (seed)
			__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
		else
			__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
		if (ok)
			return 1;
	}
	return 0;
}

/* The CMOS clock's six date and time registers, one byte each. */
static uint64_t cmos_clock(void)
{
	static const uint8_t regs[] = { 0x00, 0x02, 0x04, 0x07, 0x08, 0x09 };
	uint64_t v = 0;
	for (unsigned i = 0; i < sizeof regs; i++) {
		outb(0x70, regs[i]); /* bit 7, NMI disable on PC chipsets, clear: as Linux's CMOS_READ */
		v = v << 8 | inb(0x71);
	}
	return v;
}

void runid_make(void)
{
	if (text[0])
		return;
	struct cpuid_regs l1 = cpuid(1, 0);
	int has_tsc = l1.edx >> 4 & 1, has_rdrand = l1.ecx >> 30 & 1;
	int has_rdseed = cpuid(0, 0).eax >= 7 && (cpuid(7, 0).ebx >> 18 & 1);
	uint64_t h = 0, r = 0;
	h = mix(h, has_tsc ? rdtsc() : 0);
	h = mix(h, l1.ebx >> 24);
	const char *gen;
	if (has_rdseed && random64(1, &r))
		gen = "RDSEED";
	else if (has_rdrand && random64(0, &r))
		gen = "RDRAND";
	else
		gen = has_rdseed || has_rdrand ? "no value from RDSEED or RDRAND" : "no RDSEED or RDRAND";
	h = mix(h, r);
	h = mix(h, cmos_clock());
	fmt_format(text, sizeof text, "%016llx", (unsigned long long)h);
	kprintf("run: ID %s (made from %s, the APIC ID %u, %s, the CMOS clock; kernel/runid.h)\n", text,
		has_tsc ? "the TSC at boot" : "no TSC", l1.ebx >> 24, gen);
}

const char *runid_text(void)
{
	return text;
}

/* kernel/mtrr.c - see mtrr.h. */
#include "mtrr.h"
#include "cpu.h"
#include "msr.h"
#include "trap.h"

const char *mtrr_type_name(uint64_t t)
{
	switch (t) {
	case 0: return "UC";
	case 1: return "WC";
	case 4: return "WT";
	case 5: return "WP";
	case 6: return "WB";
	case 7: return "UC-";
	}
	return "reserved";
}

int mtrr_type(const struct cpu_info *c, uint64_t pa, int *which)
{
	uint64_t cap, def;
	*which = -1;
	if (!((cpuid(1, 0).edx >> 12) & 1))
		return -1;
	if (rdmsr_safe(MSR_MTRRCAP, &cap) || rdmsr_safe(MSR_MTRR_DEF_TYPE, &def))
		return -1;
	if (!((def >> 11) & 1))
		return 0; /* MTRRs disabled: all memory UC (12.11.2.1) */
	/* MAXPHYADDR: CPUID.80000008H:EAX[7:0], else 36 (SDM Vol. 3A 5.1.4). */
	uint32_t maxphys = c->max_ext >= 0x80000008u ? cpuid(0x80000008u, 0).eax & 0xFF : 36;
	if (maxphys < 32 || maxphys > 52)
		maxphys = maxphys > 52 ? 52 : 36;
	uint64_t addr_mask = ((1ull << maxphys) - 1) & ~0xFFFull;
	int n_uc = -1, n_wt = -1, n_wb = -1, n_other = -1, other = -1;
	for (int i = 0; i < (int)(cap & 0xFF); i++) {
		uint64_t base, mask;
		if (rdmsr_safe(MSR_MTRR_PHYSBASE0 + 2 * i, &base) ||
		    rdmsr_safe(MSR_MTRR_PHYSBASE0 + 2 * i + 1, &mask))
			return -1;
		if (!((mask >> 11) & 1)) /* V: the range is in use */
			continue;
		mask &= addr_mask;
		if ((pa & mask) != (base & mask))
			continue;
		int t = (int)(base & 0xFF);
		if (t == 0)
			n_uc = i;
		else if (t == 4)
			n_wt = i;
		else if (t == 6)
			n_wb = i;
		else if (other < 0 || other == t)
			other = t, n_other = i;
		else
			return -2;
	}
	/* 12.11.4.1: identical types are that type; UC wins; WT beats WB;
	 * any other mix is undefined. */
	if (n_uc >= 0)
		return *which = n_uc, 0;
	if (n_other >= 0) {
		if (n_wt >= 0 || n_wb >= 0)
			return -2;
		return *which = n_other, other;
	}
	if (n_wt >= 0)
		return *which = n_wt, 4;
	if (n_wb >= 0)
		return *which = n_wb, 6;
	return (int)(def & 0xFF);
}

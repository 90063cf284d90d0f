/* lib/pmu.c - the rules over lib/pmu.h's figures that need no MSR: a
 * counter's delta modulo its width, the counting check's verdict and its
 * words, the use rule (only a counter that passed the check is used) and
 * the states' names. The MSR work is in pmu_detect.c (CPUID), pmu_program.c
 * (the writes), pmu_verify.c (the check's reads) and pmu_describe.c (the
 * lines and record), on pmu_access.c. Sections are the SDM's (Vol. 3B,
 * "Performance Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"

uint64_t pmu_delta(uint64_t a, uint64_t b, unsigned width)
{
	uint64_t d = b - a;
	if (width >= 1 && width < 64)
		d &= (1ull << width) - 1;
	return d;
}

enum pmu_verdict pmu_check_counting(enum pmu_kind kind, uint64_t before, uint64_t after,
				    unsigned width, uint64_t loop_insns, uint64_t *delta)
{
	uint64_t d = pmu_delta(before, after, width);
	if (delta)
		*delta = d;
	if (d == 0)
		return PMU_VERDICT_STILL;
	if (kind == PMU_KIND_CYCLES)
		return PMU_VERDICT_COUNTING;
	if (d < loop_insns)
		return PMU_VERDICT_TOO_FEW;
	uint64_t max = loop_insns > UINT64_MAX / PMU_CHECK_MAX_RATIO ? UINT64_MAX
								     : loop_insns * PMU_CHECK_MAX_RATIO;
	if (loop_insns && d > max)
		return PMU_VERDICT_TOO_MANY;
	return PMU_VERDICT_COUNTING;
}

const char *pmu_verdict_string(enum pmu_verdict v)
{
	switch (v) {
	case PMU_VERDICT_COUNTING: return "counting";
	case PMU_VERDICT_STILL: return "does not move";
	case PMU_VERDICT_TOO_FEW: return "counts fewer instructions than the loop retires";
	case PMU_VERDICT_TOO_MANY: return "counts more than 4x the instructions the loop retires";
	}
	return "?";
}

int pmu_usable(const struct pmu_info *info, enum pmu_counter_id id)
{
	return (unsigned)id < PMU_NCOUNTERS && info->ctr[id].state == PMU_COUNTING;
}

const char *pmu_state_string(enum pmu_state s)
{
	switch (s) {
	case PMU_ABSENT: return "absent";
	case PMU_PRESENT: return "present";
	case PMU_FAULTED: return "faulted";
	case PMU_PROGRAMMED: return "programmed";
	case PMU_NOT_COUNTING: return "not counting";
	case PMU_COUNTING: return "counting";
	}
	return "?";
}

/* lib/pmu_program.c - programming of the fixed counters, APERF and IRPerfCount (lib/pmu.h). Sections are the SDM's (Vol. 3B,
 * "Performance Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"
#include "pmu_access.h"
#include "fmt.h"

/* Every fixed counter still in the running fails with the same message. */
static void fail_fixed(struct pmu_info *info, unsigned set, const char *msg)
{
	for (int i = 0; i < PMU_NFIXED; i++)
		if ((set >> i) & 1) {
			info->ctr[i].state = PMU_FAULTED;
			pmu_copy(info->ctr[i].why, sizeof info->ctr[i].why, msg);
		}
}

static void note_fault(struct pmu_info *info, int *first, int f, const char *msg)
{
	if (!*first) {
		*first = f;
		pmu_copy(info->error, sizeof info->error, msg);
	}
}

int pmu_program(const struct pmu_backend *b, struct pmu_info *info)
{
	char msg[160];
	int first = 0, f;
	unsigned set = 0;
	for (int i = 0; i < PMU_NFIXED; i++)
		if (info->ctr[i].state == PMU_PRESENT)
			set |= 1u << i;

	if (set) {
		/* 18.2.2: disable, zero, clear overflow, configure, enable. */
		if ((f = pmu_wr(b, PMU_MSR_PERF_GLOBAL_CTRL, 0, msg, sizeof msg)) ||
		    (f = pmu_wr(b, PMU_MSR_FIXED_CTR_CTRL, 0, msg, sizeof msg))) {
			fail_fixed(info, set, msg);
			note_fault(info, &first, f, msg);
			set = 0;
		}
		for (int i = 0; i < PMU_NFIXED; i++) {
			if (!((set >> i) & 1))
				continue;
			if ((f = pmu_wr(b, info->ctr[i].msr, 0, msg, sizeof msg))) {
				fail_fixed(info, 1u << i, msg);
				note_fault(info, &first, f, msg);
				set &= ~(1u << i);
			}
		}
	}
	if (set) {
		uint64_t status = 0, fixed_ctrl = 0, global = 0;
		for (int i = 0; i < PMU_NFIXED; i++)
			if ((set >> i) & 1) {
				fixed_ctrl |= PMU_FIXED_EN_OS << (4 * i);
				global |= PMU_GLOBAL_FIXED(i);
			}
		info->fixed_ctrl = fixed_ctrl;
		info->global_ctrl = global;
		if (!(f = pmu_rd(b, PMU_MSR_PERF_GLOBAL_STATUS, &status, msg, sizeof msg))) {
			info->ovf_clear = global | (status & (PMU_OVF_BUFFER | PMU_OVF_COND_CHGD));
			f = pmu_wr(b, PMU_MSR_PERF_GLOBAL_OVF_CTRL, info->ovf_clear, msg, sizeof msg);
		}
		if (!f)
			f = pmu_wr(b, PMU_MSR_FIXED_CTR_CTRL, fixed_ctrl, msg, sizeof msg);
		if (!f)
			f = pmu_wr(b, PMU_MSR_PERF_GLOBAL_CTRL, global, msg, sizeof msg);
		if (!f)
			f = pmu_rd(b, PMU_MSR_FIXED_CTR_CTRL, &info->fixed_ctrl_read, msg, sizeof msg);
		if (!f)
			f = pmu_rd(b, PMU_MSR_PERF_GLOBAL_CTRL, &info->global_ctrl_read, msg, sizeof msg);
		if (f) {
			fail_fixed(info, set, msg);
			note_fault(info, &first, f, msg);
		} else {
			info->programmed = 1;
			for (int i = 0; i < PMU_NFIXED; i++)
				if ((set >> i) & 1)
					info->ctr[i].state = PMU_PROGRAMMED;
		}
	}

	struct pmu_counter *c = &info->ctr[PMU_APERF];
	if (c->state == PMU_PRESENT) {
		uint64_t v;
		if ((f = pmu_rd(b, c->msr, &v, msg, sizeof msg))) {
			c->state = PMU_FAULTED;
			pmu_copy(c->why, sizeof c->why, msg);
			note_fault(info, &first, f, msg);
		} else {
			c->state = PMU_PROGRAMMED;
		}
	}

	c = &info->ctr[PMU_IRPERF];
	if (c->state == PMU_PRESENT) {
		uint64_t hwcr = 0, v;
		f = pmu_rd(b, PMU_MSR_AMD_HWCR, &hwcr, msg, sizeof msg);
		if (!f && !(hwcr & PMU_HWCR_IRPERF_EN))
			f = pmu_wr(b, PMU_MSR_AMD_HWCR, hwcr | PMU_HWCR_IRPERF_EN, msg, sizeof msg);
		if (!f)
			f = pmu_rd(b, c->msr, &v, msg, sizeof msg);
		if (f) {
			c->state = PMU_FAULTED;
			pmu_copy(c->why, sizeof c->why, msg);
			note_fault(info, &first, f, msg);
		} else {
			c->state = PMU_PROGRAMMED;
		}
	}
	info->program_fault = first;
	return first;
}

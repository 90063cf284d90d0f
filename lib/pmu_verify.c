/* lib/pmu_verify.c - the counting check: the known loop between two reads, RDPMC (lib/pmu.h; the verdicts: lib/pmu.c). Sections are the SDM's (Vol. 3B,
 * "Performance Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"
#include "pmu_access.h"
#include "fmt.h"

static int checkable(const struct pmu_counter *c)
{
	return c->state == PMU_PROGRAMMED || c->state == PMU_COUNTING ||
	       c->state == PMU_NOT_COUNTING;
}

/* RDMSR a, RDPMC p, RDMSR b: RDPMC reads the same counter when
 * a <= p <= b modulo 2^width (SDM Vol. 2B "RDPMC"). */
static void check_rdpmc(const struct pmu_backend *b, struct pmu_counter *c)
{
	uint64_t a, p = 0, z;
	char msg[120];
	c->rdpmc_ok = 0;
	c->rdpmc_why[0] = '\0';
	if (!b->rdpmc) {
		pmu_copy(c->rdpmc_why, sizeof c->rdpmc_why, "RDPMC not checked (no backend)");
		return;
	}
	if (pmu_rd(b, c->msr, &a, msg, sizeof msg)) {
		pmu_copy(c->rdpmc_why, sizeof c->rdpmc_why, msg);
		return;
	}
	int f = b->rdpmc(b->ctx, c->rdpmc_ecx, &p);
	if (pmu_rd(b, c->msr, &z, msg, sizeof msg)) {
		pmu_copy(c->rdpmc_why, sizeof c->rdpmc_why, msg);
		return;
	}
	if (f) {
		char fb[24];
		fmt_format(c->rdpmc_why, sizeof c->rdpmc_why, "RDPMC 0x%x faulted: %s", c->rdpmc_ecx,
			   pmu_fault_str(b, f, fb, sizeof fb));
		return;
	}
	if (pmu_delta(a, p, c->width) > pmu_delta(a, z, c->width)) {
		fmt_format(c->rdpmc_why, sizeof c->rdpmc_why,
			   "RDPMC 0x%x read 0x%llx, outside RDMSR's 0x%llx..0x%llx", c->rdpmc_ecx,
			   (unsigned long long)p, (unsigned long long)a, (unsigned long long)z);
		return;
	}
	c->rdpmc_ok = 1;
}

int pmu_verify(const struct pmu_backend *b, struct pmu_info *info,
	       void (*loop)(void *loop_ctx), void *loop_ctx, uint64_t loop_insns)
{
	uint64_t before[PMU_NCOUNTERS] = { 0 };
	char msg[160];
	int n = 0;
	info->check_insns = loop_insns;
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		struct pmu_counter *c = &info->ctr[id];
		if (!checkable(c))
			continue;
		if (pmu_rd(b, c->msr, &before[id], msg, sizeof msg)) {
			c->state = PMU_FAULTED;
			pmu_copy(c->why, sizeof c->why, msg);
		}
	}
	loop(loop_ctx);
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		struct pmu_counter *c = &info->ctr[id];
		uint64_t after;
		if (!checkable(c))
			continue;
		if (pmu_rd(b, c->msr, &after, msg, sizeof msg)) {
			c->state = PMU_FAULTED;
			pmu_copy(c->why, sizeof c->why, msg);
			continue;
		}
		enum pmu_verdict v = pmu_check_counting(c->kind, before[id], after, c->width,
							loop_insns, &c->check_delta);
		if (v == PMU_VERDICT_COUNTING) {
			c->state = PMU_COUNTING;
			c->why[0] = '\0';
			n++;
			continue;
		}
		c->state = PMU_NOT_COUNTING;
		char hint[112], nb[32];
		hint[0] = '\0';
		if (id < PMU_NFIXED && info->fixed_ctrl_read != info->fixed_ctrl)
			fmt_format(hint, sizeof hint, "; %s reads back 0x%llx after 0x%llx was written",
				   pmu_msr_name(PMU_MSR_FIXED_CTR_CTRL, nb, sizeof nb), (unsigned long long)info->fixed_ctrl_read,
				   (unsigned long long)info->fixed_ctrl);
		else if (id < PMU_NFIXED && info->global_ctrl_read != info->global_ctrl)
			fmt_format(hint, sizeof hint, "; %s reads back 0x%llx after 0x%llx was written",
				   pmu_msr_name(PMU_MSR_PERF_GLOBAL_CTRL, nb, sizeof nb), (unsigned long long)info->global_ctrl_read,
				   (unsigned long long)info->global_ctrl);
		fmt_format(c->why, sizeof c->why,
			   "not counting: MSR 0x%x %s (+%llu over a loop of %llu instructions)%s", c->msr,
			   pmu_verdict_string(v), (unsigned long long)c->check_delta,
			   (unsigned long long)loop_insns, hint);
	}
	for (int id = 0; id < PMU_NFIXED; id++)
		if (info->ctr[id].state == PMU_COUNTING)
			check_rdpmc(b, &info->ctr[id]);
	return n;
}

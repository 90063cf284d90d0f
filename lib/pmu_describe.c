/* lib/pmu_describe.c - the env: pmu: header lines and the pmu record (lib/pmu.h). Sections are the SDM's (Vol. 3B,
 * "Performance Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"
#include "pmu_access.h"
#include "fmt.h"
#include "record.h"

static void counter_line(const struct pmu_info *info, const struct pmu_counter *c, char *line,
			 size_t size)
{
	int n = fmt_format(line, size, "env: pmu: %s (%s, MSR 0x%x", c->label, c->event, c->msr);
	if (c->has_rdpmc)
		n += fmt_format(line + n, size > (size_t)n ? size - (size_t)n : 0, ", RDPMC 0x%x",
				c->rdpmc_ecx);
	size_t rest = size > (size_t)n ? size - (size_t)n : 0;
	char forced[200];
	forced[0] = '\0';
	if (c->forced)
		fmt_format(forced, sizeof forced, "; forced by pmu=force although %s", c->cpuid_note);
	switch (c->state) {
	case PMU_COUNTING: {
		char rdpmc[140];
		rdpmc[0] = '\0';
		if (c->has_rdpmc)
			fmt_format(rdpmc, sizeof rdpmc, ", RDPMC %s%s", c->rdpmc_ok ? "ok" : "not usable: ",
			    c->rdpmc_ok ? "" : c->rdpmc_why);
		fmt_format(line + n, rest,
			   "): yes, %u bits, counting (+%llu over a loop of %llu instructions)%s%s",
			   c->width, (unsigned long long)c->check_delta,
			   (unsigned long long)info->check_insns, rdpmc, forced);
		break;
	}
	case PMU_PRESENT:
	case PMU_PROGRAMMED:
		fmt_format(line + n, rest, "): %s, %u bits, counting not checked yet: not used%s",
			   pmu_state_string(c->state), c->width, forced);
		break;
	default:
		fmt_format(line + n, rest, "): no: %s%s", c->why, forced);
		break;
	}
}

void pmu_describe(const struct pmu_info *info, void (*emit)(void *ctx, const char *line),
		  void *ctx)
{
	char line[640];
	if (info->mode == PMU_MODE_OFF) {
		emit(ctx, "env: pmu: pmu=off: performance counters not probed; figures are TSC ticks only");
	} else if (info->max_basic < 0xA || info->version == 0) {
		fmt_format(line, sizeof line, "env: pmu: architectural performance monitoring: none: %s (pmu=%s)",
			   info->arch_why, pmu_mode_words[info->mode]);
		emit(ctx, line);
	} else {
		char assumed[400];
		assumed[0] = '\0';
		if (info->fixed_assumed)
			fmt_format(assumed, sizeof assumed,
				   " (assumed: CPUID.0AH:EDX reports %u x %u bits; early Intel Core and Atom "
				   "processors under-report it, SDM Vol. 3B NOTE in \"Architectural Performance "
				   "Monitoring Version 2\", and have three fixed counters, as Linux assumes; each "
				   "is checked before use)",
				   info->leaf_a[3] & 0x1F, (info->leaf_a[3] >> 5) & 0xFF);
		fmt_format(line, sizeof line,
			   "env: pmu: architectural performance monitoring version %u (CPUID.0AH: EAX=0x%08x "
			   "EBX=0x%08x ECX=0x%08x EDX=0x%08x): %u GP counters x %u bits, %u fixed counters x "
			   "%u bits%s%s, EBX length %u (pmu=%s)",
			   info->version, info->leaf_a[0], info->leaf_a[1], info->leaf_a[2], info->leaf_a[3],
			   info->gp_count, info->gp_width, info->fixed_contig, info->fixed_width,
			   info->version >= 5 ? " + ECX mask" : info->version == 1 ? " (version 1: none)" : "",
			   assumed, info->ebx_length, pmu_mode_words[info->mode]);
		emit(ctx, line);
	}
	if (info->mode != PMU_MODE_OFF && info->hypervisor) {
		fmt_format(line, sizeof line,
			   "env: pmu: hypervisor \"%s\" (CPUID.1:ECX[31]=1): the counters are virtualized; "
			   "they may not count, or count the guest only, so each is checked before use",
			   info->hv_vendor);
		emit(ctx, line);
	}
	if (info->program_fault) {
		fmt_format(line, sizeof line, "env: pmu: programming fault: %s", info->error);
		emit(ctx, line);
	}
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		counter_line(info, &info->ctr[id], line, sizeof line);
		emit(ctx, line);
	}
}

void pmu_record(const struct pmu_info *info)
{
	pmu_record_with(info, 0, 0);
}

void pmu_record_with(const struct pmu_info *info, void (*more)(struct rec *r, const void *ctx), const void *ctx)
{
	struct rec r;
	rec_begin(&r, "pmu");
	rec_str(&r, "mode", pmu_mode_words[info->mode]);
	rec_u64(&r, "version", info->version);
	rec_u64(&r, "gp_counters", info->gp_count);
	rec_u64(&r, "gp_width", info->gp_width);
	rec_u64(&r, "fixed_counters", info->fixed_contig);
	rec_u64(&r, "fixed_width", info->fixed_width);
	rec_i64(&r, "fixed_assumed", info->fixed_assumed);
	rec_u64(&r, "fixed_mask", info->fixed_mask);
	rec_u64(&r, "ebx_unavailable", info->ebx_unavail);
	rec_u64(&r, "ebx_length", info->ebx_length);
	rec_i64(&r, "hypervisor", info->hypervisor);
	rec_u64(&r, "fixed_ctrl", info->fixed_ctrl);
	rec_u64(&r, "global_ctrl", info->global_ctrl);
	rec_strn(&r, "error", info->error, sizeof info->error);
	rec_u64(&r, "check_instructions", info->check_insns);
	rec_array(&r, "counters");
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		const struct pmu_counter *c = &info->ctr[id];
		rec_object(&r, 0);
		rec_str(&r, "name", c->label);
		rec_u64(&r, "msr", c->msr);
		rec_str(&r, "state", pmu_state_string(c->state));
		rec_i64(&r, "usable", c->state == PMU_COUNTING);
		rec_u64(&r, "width", c->width);
		rec_i64(&r, "forced", c->forced);
		rec_u64(&r, "delta", c->check_delta);
		rec_i64(&r, "rdpmc", c->rdpmc_ok);
		rec_strn(&r, "why", c->state == PMU_COUNTING ? "" : c->why, sizeof c->why);
		rec_object_end(&r);
	}
	rec_array_end(&r);
	if (more)
		more(&r, ctx);
	rec_end(&r);
}

/* lib/pmugp_describe.c - the layout's env line and record fields (see
 * pmugp.h). MSR names: SDM Vol. 4 table 2-2, AMD PPRs (lib/pmu_access.h). */
#include "pmugp.h"
#include "pmu_access.h"
#include "fmt.h"
#include "record.h"

/* "IA32_PERFEVTSEL0-7 (186H-18DH)" for the first and last of a run of
 * MSRs (the last's index alone after the dash); names from pmu_msr_name. */
static int msr_span(char *out, size_t n, uint32_t first, uint32_t last)
{
	char a[32], b[32];
	const char *na = pmu_msr_name(first, a, sizeof a), *nb = pmu_msr_name(last, b, sizeof b);
	size_t k = 0;
	while (nb[k])
		k++;
	while (k && nb[k - 1] >= '0' && nb[k - 1] <= '9')
		k--;
	if (first == last)
		return fmt_format(out, n, "%s (%XH)", na, first);
	return fmt_format(out, n, "%s-%s (%XH-%XH)", na, nb + k, first, last);
}

void pmu_layout_describe(const struct pmu_layout *l, char *line, size_t n)
{
	if (!l->ngp) {
		fmt_format(line, n, "env: pmu: general-purpose counters: none: %s%s%s", l->why,
			   l->source[0] ? "; " : "", l->source);
		return;
	}
	char sel[80], ctr[80], fixed[120], global[80];
	const struct pmu_gp_counter *g0 = &l->gp[0], *gl = &l->gp[l->ngp - 1];
	int amd = l->vendor == PMU_VENDOR_AMD || l->vendor == PMU_VENDOR_HYGON;
	msr_span(sel, sizeof sel, g0->evtsel_msr, gl->evtsel_msr);
	msr_span(ctr, sizeof ctr, g0->ctr_msr, gl->ctr_msr);
	if (l->fixed_bitmap)
		fmt_format(fixed, sizeof fixed, "fixed counters: bitmap 0x%x x %u bits%s%s", l->fixed_bitmap,
			   l->fixed_width, (l->fixed_bitmap >> 3) & 1 ? " (fixed 3: TOPDOWN.SLOTS" : "",
			   (l->fixed_bitmap >> 3) & 1 ? (l->perf_metrics ? ", IA32_PERF_METRICS)" : ", no IA32_PERF_METRICS)")
						      : "");
	else
		fmt_format(fixed, sizeof fixed, "fixed counters: none%s",
			   amd ? " (AMD has none)" : l->version < 2 ? " (version < 2)" : "");
	if (l->global_ctrl) {
		char nb[32];
		fmt_format(global, sizeof global, "global control: %s (%XH)",
			   pmu_msr_name(l->global_ctrl_msr, nb, sizeof nb), l->global_ctrl_msr);
	} else {
		fmt_format(global, sizeof global, "global control: none (%s)",
			   amd ? "no PerfMonV2: each PERF_CTL's En alone" : "version < 2: each PERFEVTSEL's EN alone");
	}
	char bitmap[32];
	bitmap[0] = '\0';
	if (l->gp_bitmap != (l->ngp >= 32 ? 0xFFFFFFFFu : (1u << l->ngp) - 1))
		fmt_format(bitmap, sizeof bitmap, ", bitmap 0x%x", l->gp_bitmap);
	fmt_format(line, n,
		   "env: pmu: general-purpose counters: %u x %u bits%s, %s, %s%s; %s; %s (%s; each pass's check "
		   "decides whether they count)",
		   l->ngp, g0->width, bitmap, sel, ctr,
		   amd ? "" : l->full_width ? ", full-width writes (IA32_PERF_CAPABILITIES[13])" : ", no full-width writes",
		   fixed, global, l->source);
}

void pmu_layout_record_fields(struct rec *r, const void *ctx)
{
	const struct pmu_layout *l = ctx;
	static const char *const vendor[] = { "other", "intel", "amd", "hygon" };
	rec_object(r, "layout");
	rec_str(r, "vendor", vendor[l->vendor]);
	rec_u64(r, "version", l->version);
	rec_u64(r, "gp_counters", l->ngp);
	rec_u64(r, "gp_bitmap", l->gp_bitmap);
	rec_u64(r, "gp_width", l->ngp ? l->gp[0].width : 0);
	rec_u64(r, "evtsel_msr0", l->ngp ? l->gp[0].evtsel_msr : 0);
	rec_u64(r, "ctr_msr0", l->ngp ? l->gp[0].ctr_msr : 0);
	rec_i64(r, "full_width", l->full_width);
	rec_u64(r, "fixed_bitmap", l->fixed_bitmap);
	rec_u64(r, "fixed_width", l->fixed_width);
	rec_i64(r, "perf_metrics", l->perf_metrics);
	rec_u64(r, "global_ctrl_msr", l->global_ctrl ? l->global_ctrl_msr : 0);
	rec_strn(r, "source", l->source, sizeof l->source);
	rec_strn(r, "why", l->why, sizeof l->why);
	rec_object_end(r);
}

/* lib/pmu_detect.c - detection of the fixed counters, APERF and IRPerfCount from CPUID (lib/pmu.h). Sections are the SDM's (Vol. 3B,
 * "Performance Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"
#include "pmu_access.h"
#include "cpuinfo.h"
#include "fmt.h"

const char *const pmu_mode_words[] = { "auto", "off", "force", 0 };

/* Static description of each counter, in enum pmu_counter_id order. */
static const struct {
	const char *label, *event;
	uint32_t msr;
	enum pmu_kind kind;
} counter_desc[PMU_NCOUNTERS] = {
	[PMU_FIXED0] = { "fixed ctr0", "instructions retired", PMU_MSR_FIXED_CTR0,
			 PMU_KIND_INSTRUCTIONS },
	[PMU_FIXED1] = { "fixed ctr1", "unhalted core cycles", PMU_MSR_FIXED_CTR0 + 1,
			 PMU_KIND_CYCLES },
	[PMU_FIXED2] = { "fixed ctr2", "unhalted reference cycles", PMU_MSR_FIXED_CTR0 + 2,
			 PMU_KIND_CYCLES },
	[PMU_APERF] = { "aperf", "core clocks in C0", PMU_MSR_APERF, PMU_KIND_CYCLES },
	[PMU_IRPERF] = { "irperf", "instructions retired", PMU_MSR_AMD_IRPERF,
			 PMU_KIND_INSTRUCTIONS },
};

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}


/* Under pmu=force a counter CPUID denies is tried anyway; else it stays
 * absent with the reason. */
static void deny(struct pmu_info *info, enum pmu_counter_id id, const char *reason)
{
	struct pmu_counter *c = &info->ctr[id];
	if (info->mode == PMU_MODE_FORCE) {
		c->state = PMU_PRESENT;
		c->forced = 1;
		pmu_copy(c->cpuid_note, sizeof c->cpuid_note, reason);
		c->why[0] = '\0';
	} else {
		c->state = PMU_ABSENT;
		pmu_copy(c->why, sizeof c->why, reason);
	}
}

/* A width of 1..64 bits, else 0. */
static unsigned valid_width(unsigned w)
{
	return w >= 1 && w <= 64 ? w : 0;
}

/* The width of a fixed counter CPUID does not size: the GP width, else
 * PMU_FORCE_DEFAULT_WIDTH. */
static unsigned fallback_width(const struct pmu_info *info)
{
	return valid_width(info->gp_width) ? info->gp_width : PMU_FORCE_DEFAULT_WIDTH;
}

/* Early Intel processors' under-reported EDX (pmu_detect): versions 2-4 on
 * GenuineIntel, not under a hypervisor, fewer than 3 fixed counters. */
static void assume_fixed(struct pmu_info *info)
{
	if (info->vendor != PMU_VENDOR_INTEL || info->hypervisor || info->version < 2 ||
	    info->version > 4 || info->fixed_contig >= PMU_NFIXED)
		return;
	info->fixed_assumed = 1;
	info->fixed_contig = PMU_NFIXED;
	if (!valid_width(info->fixed_width))
		info->fixed_width = fallback_width(info);
}

static void detect_fixed(struct pmu_info *info)
{
	unsigned force_width = info->version > 1 && valid_width(info->fixed_width)
				       ? info->fixed_width
				       : fallback_width(info);
	for (int i = 0; i < PMU_NFIXED; i++) {
		struct pmu_counter *c = &info->ctr[i];
		char reason[160];
		reason[0] = '\0';
		if (info->arch_why[0]) {
			pmu_copy(reason, sizeof reason, info->arch_why);
		} else if (!(info->fixed_contig > (unsigned)i ||
			     (info->version >= 5 && ((info->fixed_mask >> i) & 1)))) {
			/* 18.2.5 / leaf 0AH: FxCtr[i] exists iff ECX[i] || EDX[4:0] > i. */
			if (info->version >= 5)
				fmt_format(reason, sizeof reason,
					   "CPUID.0AH:ECX[%d]=0 and EDX[4:0]=%u: fixed counter %d not enumerated",
					   i, info->fixed_contig, i);
			else
				fmt_format(reason, sizeof reason,
					   "CPUID.0AH:EDX[4:0]=%u: fixed counter %d not enumerated%s", info->fixed_contig,
					   i,
					   info->vendor == PMU_VENDOR_INTEL && info->hypervisor
						   ? " (early Intel processors' 3 not assumed under a hypervisor: "
						     "try pmu=force)"
						   : "");
		} else if (!valid_width(info->fixed_width)) {
			fmt_format(reason, sizeof reason, "CPUID.0AH:EDX[12:5]=%u: no valid fixed-counter width",
				   info->fixed_width);
		}
		if (!reason[0]) {
			c->state = PMU_PRESENT;
			c->width = info->fixed_width;
		} else {
			deny(info, (enum pmu_counter_id)i, reason);
			c->width = c->forced ? force_width : 0;
		}
	}
}

void pmu_detect(const struct pmu_backend *b, enum pmu_mode mode, struct pmu_info *info)
{
	*info = (struct pmu_info){ .mode = mode };
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		struct pmu_counter *c = &info->ctr[id];
		c->label = counter_desc[id].label;
		c->event = counter_desc[id].event;
		c->msr = counter_desc[id].msr;
		c->kind = counter_desc[id].kind;
		c->state = PMU_ABSENT;
		c->width = id == PMU_APERF ? 64 : id == PMU_IRPERF ? 48 : 0;
		if (id < PMU_NFIXED) {
			c->has_rdpmc = 1;
			c->rdpmc_ecx = PMU_RDPMC_FIXED(id);
		}
	}
	if (mode == PMU_MODE_OFF) {
		pmu_copy(info->arch_why, sizeof info->arch_why, "pmu=off: not probed");
		for (int id = 0; id < PMU_NCOUNTERS; id++)
			pmu_copy(info->ctr[id].why, sizeof info->ctr[id].why, "pmu=off: not probed");
		return;
	}

	uint32_t r[4];
	b->cpuid(b->ctx, 0, 0, r);
	info->max_basic = r[0];
	cpuinfo_regs_str(info->vendor_str, r[1], r[3], r[2]);
	info->vendor = str_eq(info->vendor_str, "GenuineIntel")   ? PMU_VENDOR_INTEL
		       : str_eq(info->vendor_str, "AuthenticAMD") ? PMU_VENDOR_AMD
		       : str_eq(info->vendor_str, "HygonGenuine") ? PMU_VENDOR_HYGON
								  : PMU_VENDOR_OTHER;
	if (info->max_basic >= 1) {
		b->cpuid(b->ctx, 1, 0, r);
		info->family = cpuinfo_family(r[0]);
		info->model = cpuinfo_model(info->vendor_str, r[0]);
		info->hypervisor = (r[2] >> 31) & 1;
	}
	if (info->hypervisor) {
		b->cpuid(b->ctx, 0x40000000u, 0, r);
		cpuinfo_regs_str(info->hv_vendor, r[1], r[2], r[3]);
	}
	b->cpuid(b->ctx, 0x80000000u, 0, r);
	info->max_ext = (r[0] >= 0x80000000u && r[0] <= 0x8000FFFFu) ? r[0] : 0;

	/* CPUID.0AH: Vol. 2A leaf 0AH; 18.2.1 (version 0: no architectural
	 * PMU), 18.2.2 (EDX only when version > 1), 18.2.5 (ECX from 5). */
	if (info->max_basic < 0xA) {
		fmt_format(info->arch_why, sizeof info->arch_why,
			   "CPUID max basic leaf 0x%x < 0xA: no architectural performance monitoring leaf",
			   info->max_basic);
	} else {
		b->cpuid(b->ctx, 0xA, 0, info->leaf_a);
		uint32_t eax = info->leaf_a[0], edx = info->leaf_a[3];
		info->version = eax & 0xFF;
		info->gp_count = (eax >> 8) & 0xFF;
		info->gp_width = (eax >> 16) & 0xFF;
		info->ebx_length = (eax >> 24) & 0xFF;
		info->ebx_unavail = info->leaf_a[1];
		if (info->version > 1) {
			info->fixed_contig = edx & 0x1F;
			info->fixed_width = (edx >> 5) & 0xFF;
		}
		if (info->version >= 5)
			info->fixed_mask = info->leaf_a[2];
		assume_fixed(info);
		if (info->version == 0)
			pmu_copy(info->arch_why, sizeof info->arch_why,
				 "CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring");
		else if (info->version == 1)
			pmu_copy(info->arch_why, sizeof info->arch_why,
				 "CPUID.0AH:EAX[7:0]=1: version 1 has no fixed-function counters "
				 "(CPUID.0AH:EDX is valid only when the version is > 1)");
	}
	detect_fixed(info);

	/* APERF: CPUID.06H:ECX[0], hardware coordination feedback (Vol. 3B
	 * 14.2; AMD APM Vol. 2 "effective frequency interface"). */
	if (info->max_basic < 6) {
		char reason[96];
		fmt_format(reason, sizeof reason, "CPUID max basic leaf 0x%x < 0x6: IA32_APERF not enumerated",
			   info->max_basic);
		deny(info, PMU_APERF, reason);
	} else {
		b->cpuid(b->ctx, 6, 0, r);
		if (r[2] & 1)
			info->ctr[PMU_APERF].state = PMU_PRESENT;
		else
			deny(info, PMU_APERF, "CPUID.06H:ECX[0]=0: no IA32_APERF/IA32_MPERF");
	}

	/* IRPERF: CPUID.80000008H:EBX[1] InstRetCntMsr (AMD PPR); erratum
	 * 1054 on family 17h models 00h-2Fh and on Hygon's family 18h. */
	if (info->max_ext < 0x80000008u) {
		char reason[112];
		fmt_format(reason, sizeof reason,
			   "CPUID max extended leaf 0x%x < 0x80000008: IRPerfCount not enumerated", info->max_ext);
		deny(info, PMU_IRPERF, reason);
	} else {
		b->cpuid(b->ctx, 0x80000008u, 0, r);
		if (!((r[1] >> 1) & 1))
			deny(info, PMU_IRPERF, "CPUID.80000008H:EBX[1]=0: no IRPerfCount (an AMD MSR)");
		else if (info->vendor == PMU_VENDOR_AMD && info->family == 0x17 && info->model < 0x30)
			deny(info, PMU_IRPERF,
			     "AMD erratum 1054: IRPerfCount may be inaccurate on family 17h models 00h-2Fh");
		else if (info->vendor == PMU_VENDOR_HYGON)
			deny(info, PMU_IRPERF,
			     "not used on Hygon: its family 18h is AMD's Zen 1 core, whose IRPerfCount "
			     "may be inaccurate (AMD erratum 1054); Linux never enables it on Hygon");
		else
			info->ctr[PMU_IRPERF].state = PMU_PRESENT;
	}
}

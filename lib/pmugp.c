/* lib/pmugp.c - see pmugp.h: every counter CPUID enumerates (detection)
 * and the programming of one pass of events. Sources: SDM Vol. 2A "CPUID"
 * (leaves 01H, 07H, 0AH, 1AH, 23H), SDM Vol. 3B "Performance Monitoring"
 * ("Architectural Performance Monitoring" versions 1-5, "Full-Width
 * Writes to Performance Counter Registers", "Performance Metrics"), SDM
 * Vol. 4 table 2-2; AMD APM Vol. 2 "Performance Monitoring Counters" and
 * APM Vol. 3 "CPUID" (8000_0001H:ECX[23] PerfCtrExtCore, 8000_0022H
 * PerfMonV2). Facts checked against Linux's arch/x86/events/intel/core.c
 * (update_pmu_cap: leaf 23H gated by CPUID.(07H,01H):EAX[8]
 * ArchPerfmonExt; subleaf 0 EAX bit 1 says subleaf 1 exists) and
 * arch/x86/events/amd/core.c (PerfMonV2: both enables). */
#include "pmugp.h"
#include <stdarg.h>
#include "pmu_access.h"
#include "fmt.h"

/* IA32_PERFEVTSELx / PERF_CTL bit 22 EN (SDM "IA32_PERFEVTSELx MSRs";
 * APM "PerfEvtSeln" bit 22 En). */
#define PMU_EVTSEL_EN (1ull << 22)
/* IA32_PERF_CAPABILITIES[13] FW_WRITE, [15] PERF_METRICS_AVAILABLE (SDM
 * Vol. 4 table 2-2, 345H). */
#define PMU_CAP_FW_WRITE (1ull << 13)
#define PMU_CAP_PERF_METRICS (1ull << 15)
/* Intel GP counters with a legacy address: IA32_PERFEVTSEL0-9 (186H-18FH),
 * IA32_PMC0-9 (C1H-CAH); the next addresses belong to other MSRs. */
#define PMU_INTEL_GP_ADDRESSED 10
#define PMU_AMD_LEGACY 4
#define PMU_AMD_EXT 6
#define PMU_AMD_WIDTH 48

static unsigned fls32(uint32_t v)
{
	unsigned n = 0;
	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static uint32_t low_bits(unsigned n)
{
	return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
}

/* Append to l->source, "; " between parts. */
static void note(struct pmu_layout *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct pmu_layout *l, const char *fmt, ...)
{
	size_t used = 0;
	while (used < sizeof l->source && l->source[used])
		used++;
	if (used && used + 2 < sizeof l->source)
		used += (size_t)fmt_format(l->source + used, sizeof l->source - used, "; ");
	va_list ap;
	va_start(ap, fmt);
	fmt_vformat(l->source + used, sizeof l->source - used, fmt, ap);
	va_end(ap);
}

static void intel_caps(const struct pmu_backend *b, struct pmu_layout *l, uint32_t leaf1_ecx)
{
	if (!((leaf1_ecx >> 15) & 1)) {
		note(l, "CPUID.1:ECX[15]=0: no IA32_PERF_CAPABILITIES (PDCM)");
		return;
	}
	uint64_t caps;
	char msg[120];
	if (pmu_rd(b, PMU_MSR_PERF_CAPABILITIES, &caps, msg, sizeof msg)) {
		note(l, "%s", msg);
		return;
	}
	l->full_width = (caps & PMU_CAP_FW_WRITE) != 0;
	l->perf_metrics = (caps & PMU_CAP_PERF_METRICS) && ((l->fixed_bitmap >> 3) & 1);
	note(l, "IA32_PERF_CAPABILITIES 0x%llx: [13]=%d%s", (unsigned long long)caps, l->full_width,
	     l->perf_metrics ? ", [15] PERF_METRICS" : "");
}

static void intel_detect(const struct pmu_backend *b, struct pmu_layout *l, uint32_t max_basic)
{
	uint32_t r[4], leaf1[4] = { 0 };
	if (max_basic < 0xA) {
		fmt_format(l->why, sizeof l->why,
			   "CPUID max basic leaf 0x%x < 0xA: no architectural performance monitoring leaf",
			   max_basic);
		return;
	}
	b->cpuid(b->ctx, 1, 0, leaf1);
	b->cpuid(b->ctx, 0xA, 0, r);
	l->version = r[0] & 0xFF;
	if (!l->version) {
		fmt_format(l->why, sizeof l->why, "CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring");
		return;
	}
	unsigned n = (r[0] >> 8) & 0xFF, width = (r[0] >> 16) & 0xFF;
	l->gp_bitmap = low_bits(n);
	note(l, "CPUID.0AH: version %u, %u GP x %u bits", l->version, n, width);
	if (l->version > 1) {
		unsigned contig = r[3] & 0x1F;
		l->fixed_width = (r[3] >> 5) & 0xFF;
		l->fixed_bitmap = low_bits(contig) | (l->version >= 5 ? r[2] : 0);
		/* Early Intel Core and Atom processors under-report EDX: three
		 * fixed counters, as lib/pmu_detect.c and Linux assume. */
		if (l->vendor == PMU_VENDOR_INTEL && !((leaf1[2] >> 31) & 1) && l->version <= 4 && contig < 3) {
			l->fixed_bitmap |= 7;
			if (!l->fixed_width)
				l->fixed_width = width ? width : PMU_FORCE_DEFAULT_WIDTH;
			note(l, "fixed 0-2 assumed (EDX[4:0]=%u under-reported)", contig);
		} else {
			note(l, "fixed 0x%x x %u bits (EDX%s)", l->fixed_bitmap, l->fixed_width,
			     l->version >= 5 ? ", ECX" : "");
		}
		l->global_ctrl = 1;
		l->global_ctrl_msr = PMU_MSR_PERF_GLOBAL_CTRL;
		l->global_status_msr = PMU_MSR_PERF_GLOBAL_STATUS;
		l->global_clear_msr = PMU_MSR_PERF_GLOBAL_OVF_CTRL;
	}
	/* Leaf 23H (Architectural Performance Monitoring Extended), enumerated
	 * by CPUID.(07H,01H):EAX[8]; subleaf 0 EAX[1]: subleaf 1 gives the
	 * counter bitmaps of this core type (Lion Cove P-cores: 10 GP where
	 * leaf 0AH says 8). */
	if (max_basic >= 0x23) {
		uint32_t s7[4], s0[4];
		b->cpuid(b->ctx, 7, 1, s7);
		b->cpuid(b->ctx, 0x23, 0, s0);
		if (((s7[0] >> 8) & 1) && ((s0[0] >> 1) & 1)) {
			b->cpuid(b->ctx, 0x23, 1, r);
			l->gp_bitmap = r[0];
			l->fixed_bitmap = r[1];
			note(l, "CPUID.23H.1: GP 0x%x, fixed 0x%x", r[0], r[1]);
		}
	}
	/* Hybrid parts: this core's type, CPUID.1AH:EAX[31:24] (CPUID.07H:EDX[15]). */
	if (max_basic >= 0x1A) {
		uint32_t s7[4];
		b->cpuid(b->ctx, 7, 0, s7);
		if ((s7[3] >> 15) & 1) {
			b->cpuid(b->ctx, 0x1A, 0, r);
			unsigned type = r[0] >> 24;
			note(l, "core type %02XH%s (CPUID.1AH:EAX[31:24])", type,
			     type == 0x40 ? " Core" : type == 0x20 ? " Atom" : "");
		}
	}
	if (fls32(l->gp_bitmap) > PMU_INTEL_GP_ADDRESSED) {
		note(l, "GP counters from %d on not used: no IA32_PERFEVTSELx address", PMU_INTEL_GP_ADDRESSED);
		l->gp_bitmap &= low_bits(PMU_INTEL_GP_ADDRESSED);
	}
	l->fixed_bitmap &= low_bits(PMU_FIXED_MAX);
	intel_caps(b, l, leaf1[2]);
	l->ngp = fls32(l->gp_bitmap);
	for (unsigned i = 0; i < l->ngp; i++)
		l->gp[i] = (struct pmu_gp_counter){
			.evtsel_msr = PMU_MSR_PERFEVTSEL0 + i,
			.ctr_msr = (l->full_width ? PMU_MSR_A_PMC0 : PMU_MSR_PMC0) + i,
			.rdpmc_ecx = i,
			.width = width,
		};
	if (!l->ngp)
		fmt_format(l->why, sizeof l->why, "CPUID.0AH:EAX[15:8]=0: no general-purpose counters");
}

static void amd_detect(const struct pmu_backend *b, struct pmu_layout *l)
{
	uint32_t r[4], max_ext;
	b->cpuid(b->ctx, 0x80000000u, 0, r);
	max_ext = (r[0] >= 0x80000000u && r[0] <= 0x8000FFFFu) ? r[0] : 0;
	int ext = 0;
	unsigned n = PMU_AMD_LEGACY;
	l->version = 1;
	if (max_ext >= 0x80000001u) {
		b->cpuid(b->ctx, 0x80000001u, 0, r);
		ext = (r[2] >> 23) & 1;
	}
	if (ext)
		n = PMU_AMD_EXT;
	note(l, ext ? "CPUID.80000001H:ECX[23] PerfCtrExtCore=1: 6 extended counters"
		    : "CPUID.80000001H:ECX[23] PerfCtrExtCore=0: the 4 legacy counters (APM Vol. 2: every AMD64 processor)");
	if (max_ext >= 0x80000022u) {
		b->cpuid(b->ctx, 0x80000022u, 0, r);
		if (r[0] & 1) {
			l->version = 2;
			ext = 1;
			n = r[1] & 0xF;
			l->global_ctrl = 1;
			l->global_ctrl_msr = PMU_MSR_AMD_GLOBAL_CTL;
			l->global_status_msr = PMU_MSR_AMD_GLOBAL_STATUS;
			l->global_clear_msr = PMU_MSR_AMD_GLOBAL_STATUS_CLR;
			note(l, "CPUID.80000022H:EAX[0] PerfMonV2, EBX[3:0]=%u counters", n);
		}
	}
	l->ngp = n;
	l->gp_bitmap = low_bits(n);
	for (unsigned i = 0; i < n; i++)
		l->gp[i] = (struct pmu_gp_counter){
			.evtsel_msr = ext ? PMU_MSR_AMD_PERF_CTL0 + 2 * i : PMU_MSR_AMD_LEGACY_CTL0 + i,
			.ctr_msr = ext ? PMU_MSR_AMD_PERF_CTL0 + 2 * i + 1 : PMU_MSR_AMD_LEGACY_CTR0 + i,
			.rdpmc_ecx = i,
			.width = PMU_AMD_WIDTH,
		};
	if (!n)
		fmt_format(l->why, sizeof l->why, "CPUID.80000022H:EBX[3:0]=0: no general-purpose counters");
}

void pmu_layout_detect(const struct pmu_backend *b, enum pmu_mode mode, struct pmu_layout *l)
{
	*l = (struct pmu_layout){ .vendor = PMU_VENDOR_OTHER };
	if (mode == PMU_MODE_OFF) {
		pmu_copy(l->why, sizeof l->why, "pmu=off");
		return;
	}
	uint32_t r[4];
	b->cpuid(b->ctx, 0, 0, r);
	/* CPUID.0: EBX, EDX, ECX "AuthenticAMD", "HygonGenuine", "GenuineIntel". */
	int amd = r[1] == 0x68747541u && r[3] == 0x69746e65u && r[2] == 0x444d4163u;
	int hygon = r[1] == 0x6f677948u && r[3] == 0x6e65476eu && r[2] == 0x656e6975u;
	int intel = r[1] == 0x756e6547u && r[3] == 0x49656e69u && r[2] == 0x6c65746eu;
	l->vendor = amd ? PMU_VENDOR_AMD : hygon ? PMU_VENDOR_HYGON : intel ? PMU_VENDOR_INTEL : PMU_VENDOR_OTHER;
	if (amd || hygon)
		amd_detect(b, l);
	else
		intel_detect(b, l, r[0]);
	if (l->ngp > PMU_GP_MAX)
		l->ngp = PMU_GP_MAX;
	l->gp_bitmap &= low_bits(l->ngp);
}

static int is_fixed(int counter)
{
	return counter >= 32 && counter < 32 + PMU_FIXED_MAX;
}

/* One step of pmu_layout_program: WRMSR then RDMSR, the value must stick.
 * A problem is counted and the first said in err. */
struct prog {
	const struct pmu_backend *b;
	char *err;
	size_t errlen;
	int problems;
};

static void problem(struct prog *p, const char *msg)
{
	if (!p->problems++ && p->err && p->errlen)
		pmu_copy(p->err, p->errlen, msg);
}

static void put(struct prog *p, uint32_t msr, uint64_t v)
{
	char msg[200], nb[32];
	uint64_t back;
	if (pmu_wr(p->b, msr, v, msg, sizeof msg) || pmu_rd(p->b, msr, &back, msg, sizeof msg)) {
		problem(p, msg);
		return;
	}
	if (back != v) {
		fmt_format(msg, sizeof msg, "WRMSR 0x%x (%s) <- 0x%llx: read back 0x%llx", msr,
			   pmu_msr_name(msr, nb, sizeof nb), (unsigned long long)v, (unsigned long long)back);
		problem(p, msg);
	}
}

int pmu_layout_program(const struct pmu_backend *b, const struct pmu_layout *l, const struct pmu_assign *a,
		       int n, uint64_t fixed_ctrl_keep, char *err, size_t errlen)
{
	struct prog p = { .b = b, .err = err, .errlen = errlen };
	uint32_t gp = 0, fixed = 0;
	if (err && errlen)
		err[0] = '\0';
	for (int k = 0; k < n; k++) {
		int c = a[k].counter;
		char msg[120];
		if (c >= 0 && c < (int)l->ngp && ((l->gp_bitmap >> c) & 1) && !((gp >> c) & 1)) {
			gp |= 1u << c;
		} else if (is_fixed(c) && ((l->fixed_bitmap >> (c - 32)) & 1) && !((fixed >> (c - 32)) & 1)) {
			fixed |= 1u << (c - 32);
		} else {
			fmt_format(msg, sizeof msg, "counter %d is not in this CPU's layout, or used twice in the pass", c);
			problem(&p, msg);
		}
	}
	/* Stop: global control 0, every PERFEVTSEL/PERF_CTL 0. */
	if (l->global_ctrl)
		put(&p, l->global_ctrl_msr, 0);
	for (unsigned i = 0; i < l->ngp; i++)
		if ((l->gp_bitmap >> i) & 1)
			put(&p, l->gp[i].evtsel_msr, 0);
	/* Zero the assigned counters. */
	for (unsigned i = 0; i < l->ngp; i++)
		if ((gp >> i) & 1)
			put(&p, l->gp[i].ctr_msr, 0);
	for (unsigned i = 0; i < PMU_FIXED_MAX; i++)
		if ((fixed >> i) & 1)
			put(&p, PMU_MSR_FIXED_CTR0 + i, 0);
	/* Extra MSRs (MSR_OFFCORE_RSPx, ...), then the event selects, En set. */
	for (int k = 0; k < n; k++)
		if (a[k].extra_msr)
			put(&p, a[k].extra_msr, a[k].extra_val);
	for (int k = 0; k < n; k++) {
		int c = a[k].counter;
		if (c >= 0 && c < (int)l->ngp && ((gp >> c) & 1))
			put(&p, l->gp[c].evtsel_msr, a[k].evtsel | PMU_EVTSEL_EN);
	}
	/* Fixed counters: pmu_program's bits plus OS-only for each assigned. */
	uint64_t fctrl = fixed_ctrl_keep;
	for (unsigned i = 0; i < PMU_FIXED_MAX; i++)
		if ((fixed >> i) & 1)
			fctrl |= PMU_FIXED_EN_OS << (4 * i);
	if (l->fixed_bitmap && l->version > 1)
		put(&p, PMU_MSR_FIXED_CTR_CTRL, fctrl);
	/* The global enables last. */
	if (l->global_ctrl) {
		uint64_t g = gp;
		if (l->global_ctrl_msr == PMU_MSR_PERF_GLOBAL_CTRL)
			for (unsigned i = 0; i < PMU_FIXED_MAX; i++)
				if ((fctrl >> (4 * i)) & (PMU_FIXED_EN_OS | PMU_FIXED_EN_USR))
					g |= PMU_GLOBAL_FIXED(i);
		put(&p, l->global_ctrl_msr, g);
	}
	return p.problems;
}

void pmu_layout_stop(const struct pmu_backend *b, const struct pmu_layout *l, uint64_t global_keep,
		     uint64_t fixed_ctrl_keep)
{
	if (l->global_ctrl)
		b->wrmsr(b->ctx, l->global_ctrl_msr, global_keep);
	for (unsigned i = 0; i < l->ngp; i++)
		if ((l->gp_bitmap >> i) & 1)
			b->wrmsr(b->ctx, l->gp[i].evtsel_msr, 0);
	if (l->fixed_bitmap && l->version > 1 && fixed_ctrl_keep)
		b->wrmsr(b->ctx, PMU_MSR_FIXED_CTR_CTRL, fixed_ctrl_keep);
}

uint32_t pmu_layout_rdpmc_ecx(const struct pmu_layout *l, int counter)
{
	if (is_fixed(counter))
		return PMU_RDPMC_FIXED((uint32_t)(counter - 32));
	if (counter >= 0 && counter < (int)l->ngp)
		return l->gp[counter].rdpmc_ecx;
	return 0;
}

unsigned pmu_layout_width(const struct pmu_layout *l, int counter)
{
	if (is_fixed(counter))
		return ((l->fixed_bitmap >> (counter - 32)) & 1) ? l->fixed_width : 0;
	if (counter >= 0 && counter < (int)l->ngp && ((l->gp_bitmap >> counter) & 1))
		return l->gp[counter].width;
	return 0;
}

const char *pmu_layout_msr_name(uint32_t msr, char *buf, size_t n)
{
	const char *s = pmu_msr_name(msr, buf, n);
	return s[0] == 'M' && s[1] == 'S' && s[2] == 'R' && !s[3] ? 0 : s;
}

const char *pmu_layout_counter_name(const struct pmu_layout *l, int counter, char *buf, size_t n)
{
	(void)l;
	if (is_fixed(counter))
		fmt_format(buf, n, "FIXED_CTR%d", counter - 32);
	else
		fmt_format(buf, n, "PMC%d", counter);
	return buf;
}

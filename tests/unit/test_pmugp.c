/* tests/unit/test_pmugp.c - lib/pmugp.c (every counter CPUID enumerates,
 * one pass programmed) against a fake CPU: CPUID leaves with sub-leaves,
 * an MSR table with per-MSR faults and MSRs that swallow writes, and a log
 * of every WRMSR in order.
 *
 * Cases: Intel version 4 with 4 and 8 GP counters, version 5's fixed
 * bitmap in ECX, leaf 23H with 10 GP counters where leaf 0AH says 8,
 * full-width writes on and off, PERF_METRICS, a hybrid core type, no
 * leaf 0AH and version 0; AMD legacy (4 counters), PerfCtrExtCore (6),
 * PerfMonV2 (both enables, in order), Hygon; the programming order
 * (global control 0 first, enables last), a value that does not stick and
 * a fault each said in err; the names of MSRs and counters. Then every
 * dump of tests/corpus/cpuid: the layout of each logical CPU computed
 * without crash, and the corpus's totals (issue 30). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/evsched.h"
#include "../../lib/pmugp.h"
#include "record_capture.h"

#define GP_FAULT 0x10d

struct fmsr {
	uint32_t addr;
	uint64_t val;
	int rd_fault, wr_fault, swallow;
};

struct fake {
	struct {
		uint32_t leaf, sub, r[4];
	} leaves[24];
	int nleaves;
	struct fmsr msr[64];
	int nmsr;
	struct {
		uint32_t msr;
		uint64_t val;
	} log[128];
	int nlog;
};

static struct fmsr *find(struct fake *f, uint32_t addr)
{
	for (int i = 0; i < f->nmsr; i++)
		if (f->msr[i].addr == addr)
			return &f->msr[i];
	return NULL;
}

static void fcpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	struct fake *f = ctx;
	memset(out, 0, 4 * sizeof out[0]);
	for (int i = 0; i < f->nleaves; i++)
		if (f->leaves[i].leaf == leaf && f->leaves[i].sub == sub)
			memcpy(out, f->leaves[i].r, 4 * sizeof out[0]);
}

static int frdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	struct fmsr *m = find(ctx, msr);
	*val = 0;
	if (!m || m->rd_fault)
		return GP_FAULT;
	*val = m->val;
	return 0;
}

static int fwrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	struct fake *f = ctx;
	struct fmsr *m = find(f, msr);
	if (f->nlog < 128) {
		f->log[f->nlog].msr = msr;
		f->log[f->nlog++].val = val;
	}
	if (!m || m->wr_fault)
		return GP_FAULT;
	if (!m->swallow)
		m->val = val;
	return 0;
}

static const char *fname(void *ctx, int fault)
{
	(void)ctx;
	return fault == GP_FAULT ? "#GP" : "?";
}

static struct pmu_backend backend(struct fake *f)
{
	return (struct pmu_backend){ .ctx = f, .cpuid = fcpuid, .rdmsr = frdmsr, .wrmsr = fwrmsr,
				     .fault_name = fname };
}

static void leaf(struct fake *f, uint32_t l, uint32_t sub, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	f->leaves[f->nleaves].leaf = l;
	f->leaves[f->nleaves].sub = sub;
	f->leaves[f->nleaves].r[0] = a;
	f->leaves[f->nleaves].r[1] = b;
	f->leaves[f->nleaves].r[2] = c;
	f->leaves[f->nleaves].r[3] = d;
	f->nleaves++;
}

static void set_eax(struct fake *f, uint32_t l, uint32_t sub, uint32_t eax)
{
	for (int i = 0; i < f->nleaves; i++)
		if (f->leaves[i].leaf == l && f->leaves[i].sub == sub)
			f->leaves[i].r[0] = eax;
}

static struct fmsr *msr(struct fake *f, uint32_t addr, uint64_t val)
{
	struct fmsr *m = &f->msr[f->nmsr++];
	*m = (struct fmsr){ .addr = addr, .val = val };
	return m;
}

/* An Intel CPU: max basic leaf, leaf 1 ECX (PDCM bit 15), leaf 0AH. */
static void intel(struct fake *f, uint32_t max_basic, uint32_t ecx1, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	memset(f, 0, sizeof *f);
	leaf(f, 0, 0, max_basic, 0x756e6547u, 0x6c65746eu, 0x49656e69u);
	leaf(f, 1, 0, 0x906EA, 0, ecx1, 0);
	leaf(f, 0xA, 0, a, b, c, d);
}

static void amd(struct fake *f, int hygon, uint32_t max_ext, uint32_t ecx81, uint32_t eax22, uint32_t ebx22)
{
	memset(f, 0, sizeof *f);
	if (hygon)
		leaf(f, 0, 0, 0xD, 0x6f677948u, 0x656e6975u, 0x6e65476eu);
	else
		leaf(f, 0, 0, 0x10, 0x68747541u, 0x444d4163u, 0x69746e65u);
	leaf(f, 0x80000000u, 0, max_ext, 0, 0, 0);
	leaf(f, 0x80000001u, 0, 0x00A20F10, 0, ecx81, 0);
	leaf(f, 0x80000022u, 0, eax22, ebx22, 0, 0);
}

/* Every PMU MSR of an Intel layout, present and sticking. */
static void intel_msrs(struct fake *f, int ngp, uint64_t caps)
{
	for (int i = 0; i < ngp; i++) {
		msr(f, PMU_MSR_PERFEVTSEL0 + (uint32_t)i, 0);
		msr(f, PMU_MSR_PMC0 + (uint32_t)i, 0x1234);
		msr(f, PMU_MSR_A_PMC0 + (uint32_t)i, 0x1234);
	}
	for (int i = 0; i < 4; i++)
		msr(f, PMU_MSR_FIXED_CTR0 + (uint32_t)i, 0x99);
	msr(f, PMU_MSR_FIXED_CTR_CTRL, 0x111);
	msr(f, PMU_MSR_PERF_GLOBAL_CTRL, 0x700000000ull);
	msr(f, PMU_MSR_PERF_GLOBAL_STATUS, 0);
	msr(f, PMU_MSR_PERF_CAPABILITIES, caps);
}

static void amd_msrs(struct fake *f, int ext, int n)
{
	for (int i = 0; i < n; i++) {
		msr(f, ext ? PMU_MSR_AMD_PERF_CTL0 + 2u * (uint32_t)i : PMU_MSR_AMD_LEGACY_CTL0 + (uint32_t)i, 0);
		msr(f, ext ? PMU_MSR_AMD_PERF_CTL0 + 2u * (uint32_t)i + 1 : PMU_MSR_AMD_LEGACY_CTR0 + (uint32_t)i, 7);
	}
	msr(f, PMU_MSR_AMD_GLOBAL_CTL, 0x3F);
	msr(f, PMU_MSR_AMD_GLOBAL_STATUS, 0);
}

static int has(const char *s, const char *sub)
{
	return s && strstr(s, sub) != NULL;
}

/* The index in the write log of the first write of msr after index from, -1 if none. */
static int written(const struct fake *f, uint32_t msr_addr, int from)
{
	for (int i = from; i < f->nlog; i++)
		if (f->log[i].msr == msr_addr)
			return i;
	return -1;
}

static int last_written(const struct fake *f, uint32_t msr_addr)
{
	for (int i = f->nlog - 1; i >= 0; i--)
		if (f->log[i].msr == msr_addr)
			return i;
	return -1;
}

#define EAX0A(v, n, w) ((uint32_t)(v) | (uint32_t)(n) << 8 | (uint32_t)(w) << 16 | 7u << 24)
#define EDX0A(n, w) ((uint32_t)(n) | (uint32_t)(w) << 5)

static void test_intel_v4(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	for (int n = 4; n <= 8; n += 4) {
		intel(&f, 0x16, 1u << 15, EAX0A(4, n, 48), 0, 0, EDX0A(3, 48));
		intel_msrs(&f, n, 0);
		pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
		CHECK_EQ_U64(l.vendor, PMU_VENDOR_INTEL, "v4 x%d: Intel", n);
		CHECK_EQ_U64(l.version, 4, "v4 x%d: version from CPUID.0AH:EAX[7:0]", n);
		CHECK_EQ_U64(l.ngp, (unsigned)n, "v4 x%d: GP counters from CPUID.0AH:EAX[15:8]", n);
		CHECK_EQ_U64(l.gp_bitmap, (1u << n) - 1, "v4 x%d: GP bitmap 0..n-1", n);
		CHECK_EQ_U64(l.fixed_bitmap, 7, "v4 x%d: fixed counters 0-2 from EDX[4:0]=3", n);
		CHECK_EQ_U64(l.fixed_width, 48, "v4 x%d: fixed width EDX[12:5]", n);
		CHECK(l.global_ctrl && l.global_ctrl_msr == 0x38F && l.global_status_msr == 0x38E &&
			      l.global_clear_msr == 0x390,
		      "v4 x%d: IA32_PERF_GLOBAL_CTRL 38FH, _STATUS 38EH, _OVF_CTRL 390H", n);
		CHECK_EQ_U64(l.full_width, 0, "v4 x%d: IA32_PERF_CAPABILITIES[13]=0: no full-width writes", n);
		for (int i = 0; i < n; i++) {
			CHECK_EQ_U64(l.gp[i].evtsel_msr, 0x186u + (unsigned)i, "v4 x%d: IA32_PERFEVTSEL%d", n, i);
			CHECK_EQ_U64(l.gp[i].ctr_msr, 0xC1u + (unsigned)i, "v4 x%d: IA32_PMC%d (legacy)", n, i);
			CHECK_EQ_U64(l.gp[i].rdpmc_ecx, (unsigned)i, "v4 x%d: RDPMC ECX of GP %d", n, i);
			CHECK_EQ_U64(l.gp[i].width, 48, "v4 x%d: width of GP %d from EAX[23:16]", n, i);
		}
		CHECK(l.why[0] == 0, "v4 x%d: no why when counters exist: %s", n, l.why);
		CHECK(has(l.source, "CPUID.0AH"), "v4 x%d: source names leaf 0AH: %s", n, l.source);
	}
}

static void test_intel_full_width_metrics_v5(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	/* Version 5, 8 GP, EDX says 3 fixed, ECX bitmap 0xF (fixed 3 = TOPDOWN.SLOTS). */
	intel(&f, 0x20, 1u << 15, EAX0A(5, 8, 48), 0, 0xF, EDX0A(3, 48));
	intel_msrs(&f, 8, (1ull << 13) | (1ull << 15));
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.fixed_bitmap, 0xF, "v5: fixed bitmap EDX[4:0] | ECX");
	CHECK_EQ_U64(l.full_width, 1, "v5: IA32_PERF_CAPABILITIES[13] full-width writes");
	CHECK_EQ_U64(l.perf_metrics, 1, "v5: IA32_PERF_CAPABILITIES[15] with fixed counter 3: PERF_METRICS");
	CHECK_EQ_U64(l.gp[0].ctr_msr, 0x4C1, "full width: counter writes through IA32_A_PMC0");
	CHECK_EQ_U64(l.gp[7].ctr_msr, 0x4C8, "full width: IA32_A_PMC7");
	CHECK_EQ_U64(pmu_layout_width(&l, EVSCHED_FIXED(3)), 48, "fixed 3 is 48 bits");
	CHECK_EQ_U64(pmu_layout_rdpmc_ecx(&l, EVSCHED_FIXED(3)), 0x40000003u, "RDPMC ECX of fixed 3");
	/* PERF_METRICS without fixed counter 3 does not count. */
	intel(&f, 0x20, 1u << 15, EAX0A(5, 8, 48), 0, 0x7, EDX0A(3, 48));
	intel_msrs(&f, 8, 1ull << 15);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.perf_metrics, 0, "PERF_METRICS needs fixed counter 3");
	/* No PDCM: IA32_PERF_CAPABILITIES is never read. */
	intel(&f, 0x20, 0, EAX0A(5, 8, 48), 0, 0xF, EDX0A(3, 48));
	intel_msrs(&f, 8, (1ull << 13) | (1ull << 15));
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(!l.full_width && !l.perf_metrics, "no CPUID.1:ECX[15] PDCM: no full width, no PERF_METRICS");
	CHECK(has(l.source, "PDCM"), "the source says PDCM is missing: %s", l.source);
	/* PDCM but the RDMSR faults: said, full width stays off. */
	intel(&f, 0x20, 1u << 15, EAX0A(5, 8, 48), 0, 0xF, EDX0A(3, 48));
	intel_msrs(&f, 8, 1ull << 13);
	find(&f, PMU_MSR_PERF_CAPABILITIES)->rd_fault = 1;
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.full_width, 0, "IA32_PERF_CAPABILITIES faults: no full width");
	CHECK(has(l.source, "RDMSR 0x345 (IA32_PERF_CAPABILITIES) faulted: #GP"), "the fault is in source: %s",
	      l.source);
}

static void test_intel_leaf23(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	/* Lion Cove P-core as the corpus's Core Ultra 9 285H: leaf 0AH 8 GP,
	 * 23H.1 EAX 0x3FF, EBX 0xF; 07H.1:EAX[8]; hybrid, core type 40H. */
	intel(&f, 0x23, 1u << 15, EAX0A(5, 8, 48), 0, 0xF, EDX0A(3, 48));
	leaf(&f, 7, 0, 2, 0, 0, 1u << 15);
	leaf(&f, 7, 1, 1u << 8, 0, 0, 0);
	leaf(&f, 0x1A, 0, 0x40000001u, 0, 0, 0);
	leaf(&f, 0x23, 0, 0xB, 3, 0, 0);
	leaf(&f, 0x23, 1, 0x3FF, 0xF, 0, 0);
	intel_msrs(&f, 10, 1ull << 13);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 10, "leaf 23H: 10 GP counters where leaf 0AH says 8");
	CHECK_EQ_U64(l.gp_bitmap, 0x3FF, "leaf 23H.1 EAX: GP bitmap");
	CHECK_EQ_U64(l.fixed_bitmap, 0xF, "leaf 23H.1 EBX: fixed bitmap");
	CHECK_EQ_U64(l.gp[9].evtsel_msr, 0x18F, "GP 9: IA32_PERFEVTSEL9 18FH");
	CHECK_EQ_U64(l.gp[9].ctr_msr, 0x4CA, "GP 9: IA32_A_PMC9 4CAH");
	CHECK_EQ_U64(l.gp[9].width, 48, "GP 9: the width of leaf 0AH");
	CHECK(has(l.source, "23H"), "source names leaf 23H: %s", l.source);
	CHECK(has(l.source, "core type 40H"), "source names the core type: %s", l.source);
	/* An E-core of the same part: 23H.1 says 8 GP (0xFF), fixed 0x77 -> only 0..3 kept. */
	f.leaves[f.nleaves - 1].r[0] = 0xFF;
	f.leaves[f.nleaves - 1].r[1] = 0x77;
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 8, "leaf 23H: 8 GP on the other core type");
	CHECK_EQ_U64(l.fixed_bitmap, 0x7, "fixed bitmap cut to the 4 fixed counters this code knows");
	/* 07H.1:EAX[8] clear (ArchPerfmonExt): leaf 23H not read. */
	f.leaves[f.nleaves - 1].r[0] = 0x3FF;
	set_eax(&f, 7, 1, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 8, "without CPUID.(07H,01H):EAX[8] leaf 23H is not used");
	/* 23H.0 EAX[1] clear: no subleaf 1. */
	set_eax(&f, 7, 1, 1u << 8);
	set_eax(&f, 0x23, 0, 1);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 8, "without CPUID.23H.0:EAX[1] subleaf 1 is not read");
}

static void test_intel_none(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	intel(&f, 0x7, 0, 0, 0, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 0, "max basic leaf 7: no counters");
	CHECK(has(l.why, "0xA"), "why names leaf 0AH: %s", l.why);
	intel(&f, 0xD, 0, 0, 0, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK_EQ_U64(l.ngp, 0, "version 0 (QEMU TCG): no counters");
	CHECK(has(l.why, "CPUID.0AH:EAX[7:0]=0"), "why names the version: %s", l.why);
	CHECK(!l.global_ctrl, "version 0: no global control");
	pmu_layout_detect(&b, PMU_MODE_OFF, &l);
	CHECK(l.ngp == 0 && has(l.why, "pmu=off"), "pmu=off: nothing read: %s", l.why);
	/* Version 1: GP counters, no fixed, no global control. */
	intel(&f, 0xD, 0, EAX0A(1, 2, 40), 0, 0, EDX0A(3, 48));
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.ngp == 2 && l.fixed_bitmap == 0 && !l.global_ctrl, "version 1: 2 GP, no fixed, no global ctrl");
}

static void test_amd(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	amd(&f, 0, 0x80000008u, 0, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.vendor == PMU_VENDOR_AMD && l.ngp == 4 && l.version == 1, "AMD legacy: 4 counters, version 1");
	CHECK(l.gp[3].evtsel_msr == 0xC0010003u && l.gp[3].ctr_msr == 0xC0010007u,
	      "legacy PERF_CTL3 C001_0003H / PERF_CTR3 C001_0007H");
	CHECK(!l.global_ctrl && !l.fixed_bitmap, "legacy: no global control, no fixed counters");
	amd(&f, 0, 0x80000020u, 1u << 23, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.ngp == 6 && !l.global_ctrl, "PerfCtrExtCore: 6 counters, no global control");
	CHECK(l.gp[5].evtsel_msr == 0xC001020Au && l.gp[5].ctr_msr == 0xC001020Bu,
	      "extended PERF_CTL5 C001_020AH / PERF_CTR5 C001_020BH");
	CHECK_EQ_U64(l.gp[5].width, 48, "AMD counters are 48 bits");
	CHECK_EQ_U64(l.gp[5].rdpmc_ecx, 5, "AMD RDPMC ECX n");
	amd(&f, 0, 0x80000022u, 1u << 23, 1, 6);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.ngp == 6 && l.version == 2 && l.global_ctrl, "PerfMonV2: 6 counters, version 2, global control");
	CHECK(l.global_ctrl_msr == 0xC0000301u && l.global_status_msr == 0xC0000300u &&
		      l.global_clear_msr == 0xC0000302u,
	      "PerfCntrGlobalCtl C000_0301H, PerfCntrGlobalStatus C000_0300H, StatusClr C000_0302H");
	/* A PerfMonV2 leaf beyond the maximum extended leaf is not read. */
	amd(&f, 0, 0x80000021u, 1u << 23, 1, 6);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.version == 1 && !l.global_ctrl, "8000_0022H beyond max extended: no PerfMonV2");
	amd(&f, 1, 0x8000001Fu, 1u << 23, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	CHECK(l.vendor == PMU_VENDOR_HYGON && l.ngp == 6, "Hygon with PerfCtrExtCore: 6 counters");
}

static void test_program_intel(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	char err[200];
	intel(&f, 0x16, 1u << 15, EAX0A(4, 8, 48), 0, 0, EDX0A(3, 48));
	intel_msrs(&f, 8, 1ull << 13);
	msr(&f, 0x1A6, 0); /* MSR_OFFCORE_RSP_0 */
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	f.nlog = 0;
	struct pmu_assign a[] = {
		{ .counter = 0, .evtsel = 0x430151 },
		{ .counter = 3, .evtsel = 0x0300C4, .extra_msr = 0x1A6, .extra_val = 0x10001 },
		{ .counter = EVSCHED_FIXED(0) },
	};
	int r = pmu_layout_program(&b, &l, a, 3, 0x110, err, sizeof err);
	CHECK_EQ_U64(r, 0, "a pass programs without problems: %s", err);
	CHECK_EQ_U64(f.log[0].msr, 0x38F, "IA32_PERF_GLOBAL_CTRL is written first");
	CHECK_EQ_U64(f.log[0].val, 0, "... with 0 (stop)");
	CHECK_EQ_U64(f.log[f.nlog - 1].msr, 0x38F, "IA32_PERF_GLOBAL_CTRL is written last");
	CHECK_EQ_U64(f.log[f.nlog - 1].val, 0x700000009ull,
		     "global enables: GP 0 and 3, fixed 0 (assigned), 1 and 2 (pmu_program's 0x110 kept)");
	for (int i = 0; i < 8; i++)
		CHECK(written(&f, 0x186u + (unsigned)i, 0) >= 0 && written(&f, 0x186u + (unsigned)i, 0) < written(&f, 0x4C1, 0),
		      "IA32_PERFEVTSEL%d stopped (0) before any counter is zeroed", i);
	CHECK_EQ_U64(find(&f, 0x4C1)->val, 0, "GP 0 zeroed through IA32_A_PMC0 (full width)");
	CHECK_EQ_U64(find(&f, 0x4C4)->val, 0, "GP 3 zeroed");
	CHECK_EQ_U64(find(&f, 0x4C2)->val, 0x1234, "an unassigned counter is not zeroed");
	CHECK_EQ_U64(find(&f, 0x309)->val, 0, "fixed 0 zeroed");
	CHECK_EQ_U64(find(&f, 0x30A)->val, 0x99, "fixed 1 (kept by 0x110, not assigned) not zeroed");
	CHECK(written(&f, 0x1A6, 0) < last_written(&f, 0x189), "the extra MSR is written before its PERFEVTSEL");
	CHECK_EQ_U64(find(&f, 0x1A6)->val, 0x10001, "MSR_OFFCORE_RSP_0 written");
	CHECK_EQ_U64(find(&f, 0x186)->val, 0x430151, "IA32_PERFEVTSEL0 = the event");
	CHECK_EQ_U64(find(&f, 0x189)->val, 0x4300C4, "IA32_PERFEVTSEL3 = the event with EN (bit 22) set");
	CHECK_EQ_U64(find(&f, 0x187)->val, 0, "an unassigned PERFEVTSEL stays 0");
	CHECK_EQ_U64(find(&f, 0x38D)->val, 0x111, "IA32_FIXED_CTR_CTRL: 0x110 kept | fixed 0 OS-only");
	CHECK(last_written(&f, 0x38D) < last_written(&f, 0x38F) &&
		      last_written(&f, 0x186) < last_written(&f, 0x38F),
	      "the enables come after every select and the fixed control");
	/* After the pass: global control back to pmu_program's, selects 0, fixed control kept. */
	f.nlog = 0;
	pmu_layout_stop(&b, &l, 0x700000000ull, 0x111 & ~0xFull);
	CHECK(f.log[0].msr == 0x38F && f.log[0].val == 0x700000000ull,
	      "stop: IA32_PERF_GLOBAL_CTRL back to pmu_program's value first");
	CHECK(find(&f, 0x186)->val == 0 && find(&f, 0x189)->val == 0, "stop: every IA32_PERFEVTSELx 0");
	CHECK_EQ_U64(find(&f, 0x38D)->val, 0x110, "stop: IA32_FIXED_CTR_CTRL back to pmu_program's");
	/* A counter outside the layout. */
	struct pmu_assign bad[] = { { .counter = 8, .evtsel = 0x4300C0 } };
	r = pmu_layout_program(&b, &l, bad, 1, 0, err, sizeof err);
	CHECK(r >= 1 && has(err, "counter 8"), "GP 8 of an 8-counter layout is a problem: %s", err);
}

static void test_program_problems(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	char err[200];
	intel(&f, 0x16, 0, EAX0A(4, 4, 48), 0, 0, EDX0A(3, 48));
	intel_msrs(&f, 4, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	struct pmu_assign a[] = { { .counter = 0, .evtsel = 0x4300C0 } };
	/* QEMU TCG-like: the select swallows the write and reads 0. */
	find(&f, 0x186)->swallow = 1;
	int r = pmu_layout_program(&b, &l, a, 1, 0, err, sizeof err);
	CHECK_EQ_U64(r, 1, "one value that does not stick: one problem");
	CHECK_STR(err, "WRMSR 0x186 (IA32_PERFEVTSEL0) <- 0x4300c0: read back 0x0", "the readback mismatch is said");
	find(&f, 0x186)->swallow = 0;
	find(&f, 0x186)->wr_fault = 1;
	r = pmu_layout_program(&b, &l, a, 1, 0, err, sizeof err);
	CHECK(r >= 1, "a faulting select is a problem (%d)", r);
	CHECK_STR(err, "WRMSR 0x186 (IA32_PERFEVTSEL0) <- 0x0 faulted: #GP",
		  "the first problem is the stop write's fault, said with MSR, value and fault");
	find(&f, 0x186)->wr_fault = 0;
	find(&f, 0x38F)->wr_fault = 1;
	r = pmu_layout_program(&b, &l, a, 1, 0, err, sizeof err);
	CHECK_EQ_U64(r, 2, "IA32_PERF_GLOBAL_CTRL faulting: the stop and the enable");
	CHECK_STR(err, "WRMSR 0x38f (IA32_PERF_GLOBAL_CTRL) <- 0x0 faulted: #GP", "global control fault said");
}

static void test_program_amd(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	char err[200];
	amd(&f, 0, 0x80000022u, 1u << 23, 1, 6);
	amd_msrs(&f, 1, 6);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	f.nlog = 0;
	struct pmu_assign a[] = { { .counter = 1, .evtsel = 0x0300C0 }, { .counter = 4, .evtsel = 0x4300C2 } };
	int r = pmu_layout_program(&b, &l, a, 2, 0x111, err, sizeof err);
	CHECK_EQ_U64(r, 0, "PerfMonV2 pass programs: %s", err);
	CHECK(f.log[0].msr == 0xC0000301u && f.log[0].val == 0, "PerfCntrGlobalCtl <- 0 first");
	CHECK(f.log[f.nlog - 1].msr == 0xC0000301u && f.log[f.nlog - 1].val == 0x12,
	      "PerfCntrGlobalCtl <- GP 1 and 4 last");
	CHECK_EQ_U64(find(&f, 0xC0010202u)->val, 0x4300C0, "PERF_CTL1's En (bit 22) set as well");
	CHECK_EQ_U64(find(&f, 0xC0010208u)->val, 0x4300C2, "PERF_CTL4 = the event");
	CHECK_EQ_U64(find(&f, 0xC0010209u)->val, 0, "PERF_CTR4 zeroed");
	CHECK(last_written(&f, 0xC0010208u) < last_written(&f, 0xC0000301u), "PERF_CTL before the global enable");
	CHECK(written(&f, 0x38D, 0) < 0 && written(&f, 0x38F, 0) < 0, "no Intel MSR written on AMD");
	pmu_layout_stop(&b, &l, 0, 0x111);
	CHECK(find(&f, 0xC0000301u)->val == 0 && find(&f, 0xC0010208u)->val == 0,
	      "stop on PerfMonV2: PerfCntrGlobalCtl 0, PERF_CTL4 0");
	CHECK(written(&f, 0x38D, 0) < 0, "stop on AMD writes no IA32_FIXED_CTR_CTRL");
	/* Legacy AMD: En only. */
	amd(&f, 0, 0x80000008u, 0, 0, 0);
	amd_msrs(&f, 0, 4);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	f.nlog = 0;
	r = pmu_layout_program(&b, &l, a, 1, 0, err, sizeof err);
	CHECK_EQ_U64(r, 0, "legacy AMD pass: %s", err);
	CHECK_EQ_U64(find(&f, 0xC0010001u)->val, 0x4300C0, "PERF_LEGACY_CTL1 = the event, En set");
	CHECK(written(&f, 0xC0000301u, 0) < 0, "no PerfCntrGlobalCtl without PerfMonV2");
}

static void test_names(void)
{
	char buf[40];
	struct pmu_layout l = { .vendor = PMU_VENDOR_INTEL, .ngp = 4 };
	CHECK_STR(pmu_layout_msr_name(0x189, buf, sizeof buf), "IA32_PERFEVTSEL3", "name of 189H");
	CHECK_STR(pmu_layout_msr_name(0xCA, buf, sizeof buf), "IA32_PMC9", "name of CAH");
	CHECK_STR(pmu_layout_msr_name(0x4C1, buf, sizeof buf), "IA32_A_PMC0", "name of 4C1H");
	CHECK_STR(pmu_layout_msr_name(0x30C, buf, sizeof buf), "IA32_FIXED_CTR3", "name of 30CH");
	CHECK_STR(pmu_layout_msr_name(0x329, buf, sizeof buf), "IA32_PERF_METRICS", "name of 329H");
	CHECK_STR(pmu_layout_msr_name(0xC0010204u, buf, sizeof buf), "PERF_CTL2", "name of C001_0204H");
	CHECK_STR(pmu_layout_msr_name(0xC0010205u, buf, sizeof buf), "PERF_CTR2", "name of C001_0205H");
	CHECK_STR(pmu_layout_msr_name(0xC0010002u, buf, sizeof buf), "PERF_LEGACY_CTL2", "name of C001_0002H");
	CHECK_STR(pmu_layout_msr_name(0xC0000301u, buf, sizeof buf), "PerfCntrGlobalCtl", "name of C000_0301H");
	CHECK(pmu_layout_msr_name(0x10, buf, sizeof buf) == NULL, "an MSR outside the PMU: NULL");
	CHECK_STR(pmu_layout_counter_name(&l, 3, buf, sizeof buf), "PMC3", "GP 3 is PMC3");
	CHECK_STR(pmu_layout_counter_name(&l, EVSCHED_FIXED(1), buf, sizeof buf), "FIXED_CTR1", "fixed 1");
}

static void test_describe(void)
{
	struct fake f;
	struct pmu_layout l;
	struct pmu_backend b = backend(&f);
	char line[PMU_LAYOUT_LINE];
	intel(&f, 0x16, 1u << 15, EAX0A(4, 8, 48), 0, 0, EDX0A(3, 48));
	intel_msrs(&f, 8, 1ull << 13);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK(has(line, "env: pmu: general-purpose counters: 8 x 48 bits, IA32_PERFEVTSEL0-7 (186H-18DH), "
			"IA32_A_PMC0-7 (4C1H-4C8H), full-width writes (IA32_PERF_CAPABILITIES[13]); fixed counters: "
			"bitmap 0x7 x 48 bits; global control: IA32_PERF_GLOBAL_CTRL (38FH) (CPUID.0AH: version 4"),
	      "Intel v4 line: %s", line);
	/* Leaf 23H: the bitmap and fixed 3 with PERF_METRICS. */
	intel(&f, 0x23, 1u << 15, EAX0A(5, 8, 48), 0, 0xF, EDX0A(3, 48));
	leaf(&f, 7, 1, 1u << 8, 0, 0, 0);
	leaf(&f, 0x23, 0, 0xB, 3, 0, 0);
	leaf(&f, 0x23, 1, 0x3FD, 0xF, 0, 0);
	intel_msrs(&f, 10, (1ull << 13) | (1ull << 15));
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK(has(line, "10 x 48 bits, bitmap 0x3fd, IA32_PERFEVTSEL0-9 (186H-18FH)"), "a bitmap with a hole: %s", line);
	CHECK(has(line, "bitmap 0xf x 48 bits (fixed 3: TOPDOWN.SLOTS, IA32_PERF_METRICS)"), "fixed 3: %s", line);
	CHECK(has(line, "CPUID.23H.1: GP 0x3fd, fixed 0xf"), "source leaf 23H: %s", line);
	amd(&f, 0, 0x80000022u, 1u << 23, 1, 6);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK(has(line, "6 x 48 bits, PERF_CTL0-5 (C0010200H-C001020AH), PERF_CTR0-5 (C0010201H-C001020BH); "
			"fixed counters: none (AMD has none); global control: PerfCntrGlobalCtl (C0000301H)"),
	      "AMD PerfMonV2 line: %s", line);
	amd(&f, 0, 0x80000008u, 0, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK(has(line, "PERF_LEGACY_CTL0-3 (C0010000H-C0010003H)") && has(line, "global control: none (no PerfMonV2"),
	      "AMD legacy line: %s", line);
	intel(&f, 0xD, 0, 0, 0, 0, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK_STR(line, "env: pmu: general-purpose counters: none: CPUID.0AH:EAX[7:0]=0: no architectural performance "
			"monitoring", "no counters: one line with why");
	pmu_layout_detect(&b, PMU_MODE_OFF, &l);
	pmu_layout_describe(&l, line, sizeof line);
	CHECK_STR(line, "env: pmu: general-purpose counters: none: pmu=off", "pmu=off line");
	/* The record's fields, inside a pmu record. */
	intel(&f, 0x16, 1u << 15, EAX0A(4, 8, 48), 0, 0, EDX0A(3, 48));
	intel_msrs(&f, 8, 0);
	pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
	struct pmu_info info;
	pmu_detect(&b, PMU_MODE_AUTO, &info);
	record_capture_start();
	pmu_record_with(&info, pmu_layout_record_fields, &l);
	CHECK(has(record_captured, "],\"layout\":{\"vendor\":\"intel\",\"version\":4,\"gp_counters\":8,\"gp_bitmap\":255,"
				   "\"gp_width\":48,\"evtsel_msr0\":390,\"ctr_msr0\":193,\"full_width\":0,"
				   "\"fixed_bitmap\":7,\"fixed_width\":48,\"perf_metrics\":0,\"global_ctrl_msr\":911,"
				   "\"source\":\"CPUID.0AH: version 4"),
	      "the pmu record's layout object: %s", record_captured);
	CHECK(has(record_captured, "\"why\":\"\"}}"), "the layout object ends the record: %s", record_captured);
}

/* Every dump of the corpus: each logical CPU's layout without crash, the
 * totals by the boot CPU (CPU 0) of each dump. */
static int no_msr(void *ctx, uint32_t m, uint64_t *v)
{
	(void)ctx;
	(void)m;
	*v = 0;
	return GP_FAULT;
}

static int no_wrmsr(void *ctx, uint32_t m, uint64_t v)
{
	(void)ctx;
	(void)m;
	(void)v;
	return GP_FAULT;
}

static void test_corpus(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path);
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	int intel_6_8 = 0, intel_8 = 0, leaf23 = 0, gp10 = 0, amd_all = 0, amd_ext = 0, amd_v2 = 0, intel_fixed3 = 0;
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < dumps[i].ncpus; c++) {
			struct pmu_backend b = { .ctx = &dumps[i].cpus[c], .cpuid = dump_cpuid, .rdmsr = no_msr,
						 .wrmsr = no_wrmsr };
			struct pmu_layout l;
			pmu_layout_detect(&b, PMU_MODE_AUTO, &l);
			CHECK(l.ngp <= PMU_GP_MAX && (l.ngp > 0) == (l.why[0] == 0),
			      "%s cpu %d: %u GP counters, why only when none: %s", dumps[i].name, c, l.ngp, l.why);
			if (c)
				continue;
			uint32_t r[4];
			dump_cpuid(&dumps[i].cpus[0], 0xA, 0, r);
			if (l.vendor == PMU_VENDOR_INTEL) {
				unsigned n0a = dumps[i].cpus[0].max_basic >= 0xA ? (r[0] >> 8) & 0xFF : 0;
				intel_6_8 += n0a == 6 || n0a == 8;
				intel_8 += n0a == 8;
				leaf23 += dumps[i].cpus[0].max_basic >= 0x23;
				gp10 += l.ngp == 10;
				intel_fixed3 += (l.fixed_bitmap >> 3) & 1;
			}
			if (l.vendor == PMU_VENDOR_AMD || l.vendor == PMU_VENDOR_HYGON) {
				amd_all++;
				amd_ext += l.ngp == 6;
				amd_v2 += l.version == 2;
				CHECK(l.ngp == 4 || l.ngp == 6, "%s: AMD/Hygon with 4 or 6 counters (%u)", dumps[i].name,
				      l.ngp);
			}
		}
	}
	/* The figures (by CPUID.0AH:EAX[15:8] and the boot CPU). */
	CHECK_EQ_U64(intel_6_8, 66, "Intel dumps whose leaf 0AH says 6 or 8 GP counters");
	CHECK_EQ_U64(intel_8, 46, "Intel dumps whose leaf 0AH says 8 GP counters");
	CHECK_EQ_U64(leaf23, 8, "Intel dumps with leaf 23H");
	CHECK_EQ_U64(gp10, 5, "boot CPUs with 10 GP counters from leaf 23H (Lion Cove P-cores)");
	CHECK_EQ_U64(amd_all, 188, "AMD and Hygon dumps");
	CHECK_EQ_U64(amd_ext, 109, "AMD and Hygon dumps with the 6 extended counters");
	CHECK_EQ_U64(amd_v2, 25, "AMD dumps with PerfMonV2");
	printf("corpus: %d Intel boot CPUs with fixed counter 3\n", intel_fixed3);
	if (n > 0)
		dump_free(dumps, n);
}

int main(void)
{
	test_intel_v4();
	test_intel_full_width_metrics_v5();
	test_intel_leaf23();
	test_intel_none();
	test_amd();
	test_program_intel();
	test_program_problems();
	test_program_amd();
	test_names();
	test_describe();
	test_corpus();
	return check_summary("pmugp");
}

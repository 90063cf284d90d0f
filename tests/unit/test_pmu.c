/* tests/unit/test_pmu.c - lib/pmu_detect.c, pmu_program.c, pmu_verify.c
 * and pmu_describe.c against a fake CPU: CPUID leaves, an MSR table with per-MSR faults, a log of every WRMSR, and a tiny model
 * of the fixed counters (a counter advances in the "loop" only when its
 * IA32_FIXED_CTR_CTRL field and its IA32_PERF_GLOBAL_CTRL bit are set).
 *
 * Cases: no PMU (max basic leaf < 0xA; version 0 as QEMU TCG reports),
 * version 1 (no fixed counters whatever EDX says), version 2 with three
 * 48-bit counters (the exact WRMSR sequence), version 4 with four,
 * version 5's ECX mask, EBX (which refuses no fixed counter), counters that
 * do not count (QEMU TCG: MSRs read 0 and swallow writes), MSRs that fault,
 * wrap-around at 40/48/64 bits, AMD IRPERF and APERF, RDPMC, pmu=off and
 * pmu=force, the header lines and record; and real CPUs' leaves copied
 * from libcpuid's dumps: fixed counter 2 where EBX[2] = 1 (i5-650,
 * i5-L16G7), the fixed counters early Intel processors under-report (Core
 * 2 6300, Atom N270; not the N450), Hygon's IRPerfCount. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../lib/pmu.h"
#include "record_capture.h"

/* The pmu record as the record writer writes it (lib/record.h). */
static char *record_text(const struct pmu_info *info)
{
	record_capture_start();
	pmu_record(info);
	return record_captured;
}

#define GP_FAULT 0x10d /* what the kernel's accessors return for #GP */
#define UD_FAULT 0x106

struct fake_msr {
	uint32_t addr;
	uint64_t val;
	int rd_fault, wr_fault;
};

struct fake_write {
	uint32_t msr;
	uint64_t val;
	int faulted;
};

struct fake {
	struct {
		uint32_t leaf;
		uint32_t r[4];
	} leaves[16];
	int nleaves;
	struct fake_msr msr[32];
	int nmsr;
	int unknown_reads_zero; /* QEMU TCG: unknown MSRs read 0, writes vanish */
	struct fake_write log[64];
	int nlog;
	int cpuid_calls, reads;
	int rdpmc_fault, rdpmc_bogus, rdpmc_calls;
	unsigned width[PMU_NCOUNTERS];  /* counter widths of the model */
	uint64_t inc[PMU_NCOUNTERS];    /* advance per loop when enabled */
	int loops;
};

static struct fake_msr *find(struct fake *f, uint32_t addr)
{
	for (int i = 0; i < f->nmsr; i++)
		if (f->msr[i].addr == addr)
			return &f->msr[i];
	return NULL;
}

static void fcpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	struct fake *f = ctx;
	(void)sub;
	f->cpuid_calls++;
	memset(out, 0, 4 * sizeof out[0]);
	for (int i = 0; i < f->nleaves; i++)
		if (f->leaves[i].leaf == leaf)
			memcpy(out, f->leaves[i].r, 4 * sizeof out[0]);
}

static int frdmsr(void *ctx, uint32_t msr, uint64_t *val)
{
	struct fake *f = ctx;
	struct fake_msr *m = find(f, msr);
	f->reads++;
	*val = 0;
	if (!m)
		return f->unknown_reads_zero ? 0 : GP_FAULT;
	if (m->rd_fault)
		return GP_FAULT;
	*val = m->val;
	return 0;
}

static int fwrmsr(void *ctx, uint32_t msr, uint64_t val)
{
	struct fake *f = ctx;
	struct fake_msr *m = find(f, msr);
	int fault = m ? (m->wr_fault ? GP_FAULT : 0) : (f->unknown_reads_zero ? 0 : GP_FAULT);
	if (f->nlog < 64)
		f->log[f->nlog++] = (struct fake_write){ .msr = msr, .val = val, .faulted = fault != 0 };
	if (m && !fault)
		m->val = val;
	return fault;
}

static int frdpmc(void *ctx, uint32_t ecx, uint64_t *val)
{
	struct fake *f = ctx;
	f->rdpmc_calls++;
	*val = 0;
	if (f->rdpmc_fault)
		return f->rdpmc_fault;
	if (!(ecx & (1u << 30)))
		return GP_FAULT;
	struct fake_msr *m = find(f, PMU_MSR_FIXED_CTR0 + (ecx & 0x3FFFFFFF));
	if (!m)
		return GP_FAULT;
	*val = f->rdpmc_bogus ? m->val + 1000000 : m->val;
	return 0;
}

static const char *fname(void *ctx, int fault)
{
	(void)ctx;
	return fault == GP_FAULT ? "#GP" : fault == UD_FAULT ? "#UD" : "?";
}

/* The measured loop: advance what the model says is enabled. */
static void floop(void *ctx)
{
	struct fake *f = ctx;
	struct fake_msr *ctrl = find(f, PMU_MSR_FIXED_CTR_CTRL), *glob = find(f, PMU_MSR_PERF_GLOBAL_CTRL);
	f->loops++;
	for (int i = 0; i < PMU_NFIXED; i++) {
		struct fake_msr *c = find(f, PMU_MSR_FIXED_CTR0 + (uint32_t)i);
		if (!c || !ctrl || !glob)
			continue;
		if (((ctrl->val >> (4 * i)) & 3) && ((glob->val >> (32 + i)) & 1))
			c->val = pmu_delta(0, c->val + f->inc[i], f->width[i]);
	}
	struct fake_msr *a = find(f, PMU_MSR_APERF);
	if (a)
		a->val += f->inc[PMU_APERF];
	struct fake_msr *hwcr = find(f, PMU_MSR_AMD_HWCR), *ir = find(f, PMU_MSR_AMD_IRPERF);
	if (hwcr && ir && (hwcr->val & PMU_HWCR_IRPERF_EN))
		ir->val = pmu_delta(0, ir->val + f->inc[PMU_IRPERF], 48);
}

static void set_leaf(struct fake *f, uint32_t leaf, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	for (int i = 0; i < f->nleaves; i++)
		if (f->leaves[i].leaf == leaf) {
			f->leaves[i].r[0] = a, f->leaves[i].r[1] = b;
			f->leaves[i].r[2] = c, f->leaves[i].r[3] = d;
			return;
		}
	f->leaves[f->nleaves].leaf = leaf;
	f->leaves[f->nleaves].r[0] = a, f->leaves[f->nleaves].r[1] = b;
	f->leaves[f->nleaves].r[2] = c, f->leaves[f->nleaves].r[3] = d;
	f->nleaves++;
}

static struct fake_msr *add_msr(struct fake *f, uint32_t addr, uint64_t val)
{
	struct fake_msr *m = find(f, addr);
	if (!m)
		m = &f->msr[f->nmsr++];
	*m = (struct fake_msr){ .addr = addr, .val = val };
	return m;
}

/* vendor: 12 characters in EBX, EDX, ECX order. */
static void fake_init(struct fake *f, const char *vendor, uint32_t max_basic, uint32_t max_ext,
		      uint32_t signature)
{
	uint32_t w[3];
	memset(f, 0, sizeof *f);
	memcpy(w, vendor, 12);
	set_leaf(f, 0, max_basic, w[0], w[2], w[1]);
	set_leaf(f, 1, signature, 0, 0, 0x10); /* EDX[4] TSC */
	set_leaf(f, 0x80000000u, max_ext, 0, 0, 0);
	for (int i = 0; i < PMU_NCOUNTERS; i++)
		f->width[i] = 48;
	f->inc[PMU_FIXED0] = 20011; /* the loop's 20000 plus the reads around it */
	f->inc[PMU_FIXED1] = 15000;
	f->inc[PMU_FIXED2] = 9000;
	f->inc[PMU_APERF] = 14000;
	f->inc[PMU_IRPERF] = 20013;
}

/* The MSRs of nfixed fixed counters and of their controls. */
static void add_fixed_msrs(struct fake *f, int nfixed)
{
	for (int i = 0; i < nfixed; i++)
		add_msr(f, PMU_MSR_FIXED_CTR0 + (uint32_t)i, 0x1234 + (uint64_t)i);
	add_msr(f, PMU_MSR_FIXED_CTR_CTRL, 0xB0); /* firmware left something */
	add_msr(f, PMU_MSR_PERF_GLOBAL_STATUS, 0);
	add_msr(f, PMU_MSR_PERF_GLOBAL_CTRL, 0xF);  /* reset value: GP enables */
	add_msr(f, PMU_MSR_PERF_GLOBAL_OVF_CTRL, 0);
}

/* An Intel CPU with the architectural PMU of leaf 0AH = eax..edx and
 * every MSR of the fixed counters (nfixed of them). */
static void intel_pmu(struct fake *f, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx,
		      int nfixed)
{
	fake_init(f, "GenuineIntel", 0x16, 0x80000008u, 0x000906EA);
	set_leaf(f, 0xA, eax, ebx, ecx, edx);
	add_fixed_msrs(f, nfixed);
}

/* A real CPU: its CPUID leaves as a dump lists them (leaf, EAX, EBX, ECX,
 * EDX; leaf 0 first), and the MSRs it has: nfixed fixed counters with
 * their controls, and APERF. */
static void dump_cpu(struct fake *f, const uint32_t (*leaves)[5], int nleaves, int nfixed)
{
	fake_init(f, "............", 0, 0, 0);
	for (int i = 0; i < nleaves; i++)
		set_leaf(f, leaves[i][0], leaves[i][1], leaves[i][2], leaves[i][3], leaves[i][4]);
	add_fixed_msrs(f, nfixed);
	add_msr(f, PMU_MSR_APERF, 0x5555);
}

static struct pmu_backend backend(struct fake *f)
{
	return (struct pmu_backend){ .ctx = f, .cpuid = fcpuid, .rdmsr = frdmsr, .wrmsr = fwrmsr,
				     .rdpmc = frdpmc, .fault_name = fname };
}

/* Leaf 0AH EAX/EDX builders. */
static uint32_t leaf_eax(unsigned version, unsigned ngp, unsigned gpw, unsigned ebxlen)
{
	return version | ngp << 8 | gpw << 16 | ebxlen << 24;
}
static uint32_t leaf_edx(unsigned nfixed, unsigned width)
{
	return nfixed | width << 5;
}

static int has(const char *s, const char *sub)
{
	return s && strstr(s, sub) != NULL;
}

/* CHECK_HAS(s, sub, fmt, ...) - s holds sub; a failure prints both after
 * the message. */
#define CHECK_HAS(s, sub, fmt, ...)                                                        \
	do {                                                                               \
		const char *check_s = (s);                                                 \
		if (has(check_s, (sub))) {                                                 \
			check_passed++;                                                    \
		} else {                                                                   \
			check_fail(__FILE__, __LINE__, "" fmt, ##__VA_ARGS__);             \
			printf(" (\"%s\" lacks \"%s\")\n", check_s ? check_s : "(null)", (sub)); \
		}                                                                          \
	} while (0)

/* CHECK_WRITE(f, k, m, v, what) - the k-th WRMSR logged wrote v to MSR m;
 * what, a string literal, names the step of the sequence. */
#define CHECK_WRITE(f, k, m, v, what)                                                      \
	do {                                                                               \
		CHECK((f)->nlog > (k), what ": WRMSR %d made", (int)(k));                  \
		if ((f)->nlog > (k)) {                                                     \
			CHECK_EQ_U64((f)->log[k].msr, (m), what ": WRMSR %d's MSR", (int)(k));   \
			CHECK_EQ_U64((f)->log[k].val, (v), what ": WRMSR %d's value", (int)(k)); \
		}                                                                          \
	} while (0)

/* Header lines captured for inspection. */
struct lines {
	char l[16][700];
	int n;
};

/* TEST_PMU_VERBOSE=1 prints every header line the tests produce. */
static void capture(void *ctx, const char *line)
{
	struct lines *ls = ctx;
	if (getenv("TEST_PMU_VERBOSE"))
		printf("%s\n", line);
	if (ls->n < 16)
		snprintf(ls->l[ls->n++], sizeof ls->l[0], "%s", line);
}

static const char *line_for(struct lines *ls, const char *label)
{
	char key[64];
	snprintf(key, sizeof key, "env: pmu: %s (", label);
	for (int i = 0; i < ls->n; i++)
		if (strncmp(ls->l[i], key, strlen(key)) == 0)
			return ls->l[i];
	return NULL;
}

static void run_all(struct fake *f, enum pmu_mode mode, struct pmu_info *info, int *fault, int *n)
{
	struct pmu_backend b = backend(f);
	pmu_detect(&b, mode, info);
	*fault = pmu_program(&b, info);
	*n = pmu_verify(&b, info, floop, f, 20000);
}

static void test_no_leaf(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	fake_init(&f, "GenuineIntel", 0x7, 0x80000008u, 0x000006F6);
	set_leaf(&f, 0xA, leaf_eax(2, 2, 40, 7), 0, 0, leaf_edx(3, 40)); /* beyond max: ignored */
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.max_basic, 7, "max basic leaf 7 read from CPUID.0");
	CHECK_EQ_U64(info.version, 0, "leaf 0AH beyond the max: version 0");
	CHECK_EQ_U64(fault, 0, "no PMU: no fault");
	CHECK_EQ_U64(n, 0, "no PMU: no counter counting");
	CHECK_EQ_U64(f.nlog, 0, "no PMU: no WRMSR");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_ABSENT, "no leaf 0AH: fixed ctr%d absent", i);
		CHECK_HAS(info.ctr[i].why, "CPUID max basic leaf 0x7 < 0xA",
		          "no leaf 0AH: fixed ctr%d's reason names the max basic leaf", i);
		CHECK(!pmu_usable(&info, (enum pmu_counter_id)i),
		      "no leaf 0AH: fixed ctr%d not usable", i);
	}
	CHECK_EQ_U64(info.ctr[PMU_APERF].state, PMU_ABSENT, "no leaf 0AH: APERF absent");
	CHECK_HAS(info.ctr[PMU_APERF].why, "CPUID.06H:ECX[0]=0",
	          "APERF's reason: CPUID.06H:ECX[0]");
	CHECK_HAS(info.ctr[PMU_IRPERF].why, "CPUID.80000008H:EBX[1]=0",
	          "IRPERF's reason: CPUID.80000008H:EBX[1]");
}

/* QEMU TCG -cpu max: "AuthenticAMD", leaf 0AH all zero, and unknown MSRs
 * read as 0 without a fault. */
static void tcg_fake(struct fake *f)
{
	fake_init(f, "AuthenticAMD", 0xD, 0x8000000Au, 0x00060FB1);
	set_leaf(f, 1, 0x00060FB1, 0, 1u << 31, 0x10);
	set_leaf(f, 0x40000000u, 0x40000001u, 0x54474354, 0x43544743, 0x47435447); /* "TCGTCGTCGTCG" */
	f->unknown_reads_zero = 1;
}

static void test_version0_tcg(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	tcg_fake(&f);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.vendor, PMU_VENDOR_AMD, "QEMU TCG: AuthenticAMD");
	CHECK_EQ_U64(info.version, 0, "QEMU TCG: version 0");
	CHECK(info.hypervisor, "QEMU TCG: hypervisor bit set");
	CHECK_STR(info.hv_vendor, "TCGTCGTCGTCG", "QEMU TCG: hypervisor vendor");
	CHECK_EQ_U64(fault, 0, "QEMU TCG, pmu=auto: no fault");
	CHECK_EQ_U64(n, 0, "QEMU TCG, pmu=auto: no counter counting");
	CHECK_EQ_U64(f.nlog, 0, "pmu=auto on version 0: no MSR written");
	CHECK_EQ_U64(f.reads, 0, "pmu=auto on version 0: no MSR read");
	for (int i = 0; i < PMU_NFIXED; i++)
		CHECK_STR(info.ctr[i].why, "CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring",
		          "version 0: fixed ctr%d's reason", i);

	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_EQ_U64(ls.n, 2 + PMU_NCOUNTERS,
	             "version 0 header: summary, hypervisor, one line per counter");
	CHECK_STR(ls.l[0], "env: pmu: architectural performance monitoring: none: CPUID.0AH:EAX[7:0]=0: "
			  "no architectural performance monitoring (pmu=auto)",
			  "version 0 header: the summary line");
	CHECK_HAS(ls.l[1], "hypervisor \"TCGTCGTCGTCG\" (CPUID.1:ECX[31]=1)",
	          "version 0 header: the hypervisor line");
	CHECK_STR(line_for(&ls, "fixed ctr0"),
		  "env: pmu: fixed ctr0 (instructions retired, MSR 0x309, RDPMC 0x40000000): no: "
		  "CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring",
		  "version 0 header: fixed ctr0's line");
	CHECK_HAS(line_for(&ls, "fixed ctr1"), "unhalted core cycles, MSR 0x30a",
	          "fixed ctr1's line names its event and MSR");
	CHECK_HAS(line_for(&ls, "fixed ctr2"), "unhalted reference cycles, MSR 0x30b",
	          "fixed ctr2's line names its event and MSR");
	CHECK_HAS(line_for(&ls, "aperf"), "no: CPUID.06H:ECX[0]=0", "APERF's line: no, and why");
	CHECK_HAS(line_for(&ls, "irperf"), "no: CPUID.80000008H:EBX[1]=0",
	          "IRPERF's line: no, and why");
}

/* pmu=force under TCG: programming "succeeds" and nothing counts. */
static void test_force_tcg_not_counting(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	tcg_fake(&f);
	run_all(&f, PMU_MODE_FORCE, &info, &fault, &n);
	CHECK_EQ_U64(fault, 0, "pmu=force under TCG: writes swallowed, no fault");
	CHECK_EQ_U64(n, 0, "pmu=force under TCG: nothing counts");
	CHECK(info.programmed, "pmu=force under TCG: programmed");
	CHECK_EQ_U64(info.fixed_ctrl, 0x111, "pmu=force: IA32_FIXED_CTR_CTRL written 111h");
	CHECK_EQ_U64(info.fixed_ctrl_read, 0, "under TCG: IA32_FIXED_CTR_CTRL reads back 0");
	for (int i = 0; i < PMU_NCOUNTERS; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_NOT_COUNTING,
		             "pmu=force under TCG: counter %d not counting", i);
		CHECK(info.ctr[i].forced, "pmu=force under TCG: counter %d forced", i);
		CHECK(!pmu_usable(&info, (enum pmu_counter_id)i),
		      "pmu=force under TCG: counter %d not usable", i);
		CHECK_HAS(info.ctr[i].why, "does not move (+0 over a loop of 20000 instructions)",
		          "pmu=force under TCG: counter %d does not move", i);
	}
	CHECK_HAS(info.ctr[PMU_FIXED0].why, "IA32_FIXED_CTR_CTRL reads back 0x0 after 0x111 was written",
	          "fixed ctr0's reason: the control MSR reads back 0");
	CHECK_EQ_U64(info.ctr[PMU_FIXED0].width, PMU_FORCE_DEFAULT_WIDTH,
	             "forced without any width: the default width");
	/* HWCR read 0, so IRPerfEn was written. */
	CHECK_WRITE(&f, f.nlog - 1, PMU_MSR_AMD_HWCR, PMU_HWCR_IRPERF_EN,
	            "HWCR read 0: IRPerfEn written");

	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_HAS(line_for(&ls, "fixed ctr1"),
		  "): no: not counting: MSR 0x30a does not move (+0 over a loop of 20000 instructions)",
		  "forced fixed ctr1's line: not counting, why");
	CHECK_HAS(line_for(&ls, "fixed ctr1"),
		  "forced by pmu=force although CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring",
		  "forced fixed ctr1's line: forced although CPUID said no");
}

static void test_version1(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	/* EDX claims three 48-bit fixed counters: invalid at version 1. */
	intel_pmu(&f, leaf_eax(1, 2, 40, 7), 0, 0, leaf_edx(3, 48), 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.version, 1, "version 1 read from leaf 0AH");
	CHECK_EQ_U64(info.gp_count, 2, "version 1: 2 GP counters");
	CHECK_EQ_U64(info.gp_width, 40, "version 1: GP counters 40 bits");
	CHECK_EQ_U64(info.fixed_contig, 0, "version 1: EDX's three fixed counters ignored");
	CHECK_EQ_U64(info.fixed_width, 0, "version 1: EDX's fixed width ignored");
	CHECK_EQ_U64(f.nlog, 0, "version 1, pmu=auto: no WRMSR");
	CHECK_EQ_U64(n, 0, "version 1, pmu=auto: no counter counting");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_ABSENT, "version 1: fixed ctr%d absent", i);
		CHECK_HAS(info.ctr[i].why, "CPUID.0AH:EAX[7:0]=1: version 1 has no fixed-function counters",
		          "version 1: fixed ctr%d's reason", i);
	}

	/* Forced: the version-2 sequence, with the GP width (40) for want of
	 * EDX. APERF is forced too, and this CPU has none: #GP, reported. */
	run_all(&f, PMU_MODE_FORCE, &info, &fault, &n);
	CHECK_EQ_U64(fault, GP_FAULT, "version 1 forced, no APERF: #GP reported");
	CHECK_STR(info.error, "RDMSR 0xe8 (IA32_APERF) faulted: #GP",
	          "version 1 forced: the APERF read's fault named");
	CHECK_EQ_U64(n, 3, "version 1 forced: the three fixed counters count");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK(info.ctr[i].forced, "version 1 forced: fixed ctr%d forced", i);
		CHECK_EQ_U64(info.ctr[i].width, 40,
		             "version 1 forced: fixed ctr%d has the GP width, 40", i);
		CHECK(pmu_usable(&info, (enum pmu_counter_id)i),
		      "version 1 forced: fixed ctr%d usable", i);
	}
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_HAS(line_for(&ls, "fixed ctr0"), "): yes, 40 bits, counting (+20011 over a loop of 20000 instructions)",
	          "version 1 forced: fixed ctr0's line, 40 bits, counting");
	CHECK_HAS(line_for(&ls, "fixed ctr0"), "forced by pmu=force although CPUID.0AH:EAX[7:0]=1",
	          "version 1 forced: fixed ctr0's line says forced");
}

/* Version 2, three 48-bit fixed counters: the exact sequence. */
static void test_version2_sequence(void)
{
	struct fake f;
	struct pmu_info info;
	struct pmu_backend b;
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	b = backend(&f);
	pmu_detect(&b, PMU_MODE_AUTO, &info);
	CHECK_EQ_U64(f.reads, 0, "detection is CPUID only: no MSR read");
	CHECK_EQ_U64(info.vendor, PMU_VENDOR_INTEL, "version 2: GenuineIntel");
	CHECK_EQ_U64(info.version, 2, "version 2 read from leaf 0AH");
	CHECK_EQ_U64(info.gp_count, 4, "version 2: 4 GP counters");
	CHECK_EQ_U64(info.fixed_contig, 3, "version 2: 3 fixed counters (EDX[4:0])");
	CHECK_EQ_U64(info.fixed_width, 48, "version 2: fixed counters 48 bits (EDX[12:5])");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_PRESENT, "version 2: fixed ctr%d present", i);
		CHECK_EQ_U64(info.ctr[i].width, 48, "version 2: fixed ctr%d 48 bits", i);
		CHECK_EQ_U64(info.ctr[i].rdpmc_ecx, 0x40000000u + (unsigned)i,
		             "version 2: fixed ctr%d's RDPMC index 4000000%dh", i, i);
	}
	CHECK_EQ_U64(pmu_program(&b, &info), 0, "version 2: programmed without fault");
	CHECK_EQ_U64(f.nlog, 8, "version 2: eight WRMSRs");
	CHECK_WRITE(&f, 0, 0x38F, 0, "disable all (GLOBAL_CTRL 0)");
	CHECK_WRITE(&f, 1, 0x38D, 0, "stop the fixed counters (FIXED_CTR_CTRL 0)");
	CHECK_WRITE(&f, 2, 0x309, 0, "zero IA32_FIXED_CTR0");
	CHECK_WRITE(&f, 3, 0x30A, 0, "zero IA32_FIXED_CTR1");
	CHECK_WRITE(&f, 4, 0x30B, 0, "zero IA32_FIXED_CTR2");
	CHECK_WRITE(&f, 5, 0x390, 0x700000000ull, "clear the fixed overflows");
	CHECK_WRITE(&f, 6, 0x38D, 0x111, "count in every ring (FIXED_CTR_CTRL 111h)");
	CHECK_WRITE(&f, 7, 0x38F, 0x700000000ull, "enable the fixed counters (GLOBAL_CTRL)");
	CHECK_EQ_U64(find(&f, 0x309)->val, 0, "IA32_FIXED_CTR0 zeroed");
	CHECK_EQ_U64(info.fixed_ctrl_read, 0x111, "IA32_FIXED_CTR_CTRL reads back 111h");
	CHECK_EQ_U64(info.global_ctrl_read, 0x700000000ull,
	             "IA32_PERF_GLOBAL_CTRL reads back the three fixed enables");
	for (int i = 0; i < PMU_NFIXED; i++)
		CHECK_EQ_U64(info.ctr[i].state, PMU_PROGRAMMED,
		             "version 2 programmed: fixed ctr%d programmed", i);
	CHECK(!pmu_usable(&info, PMU_FIXED0), "programmed but not checked: not usable");

	CHECK_EQ_U64(pmu_verify(&b, &info, floop, &f, 20000), 3,
	             "version 2: the counting check passes all three");
	CHECK_EQ_U64(f.loops, 1, "the counting check runs the loop once");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK(pmu_usable(&info, (enum pmu_counter_id)i),
		      "version 2 checked: fixed ctr%d usable", i);
		CHECK(info.ctr[i].rdpmc_ok, "version 2 checked: fixed ctr%d RDPMC ok", i);
	}
	CHECK_EQ_U64(info.ctr[PMU_FIXED0].check_delta, 20011,
	             "fixed ctr0 advanced by the loop's instructions");
	CHECK_EQ_U64(info.ctr[PMU_FIXED1].check_delta, 15000,
	             "fixed ctr1 advanced by the loop's cycles");
	CHECK_EQ_U64(f.rdpmc_calls, 3, "one RDPMC per fixed counter");

	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_EQ_U64(ls.n, 1 + PMU_NCOUNTERS, "version 2 header: summary and one line per counter");
	CHECK_STR(ls.l[0],
		  "env: pmu: architectural performance monitoring version 2 (CPUID.0AH: EAX=0x07300402 "
		  "EBX=0x00000000 ECX=0x00000000 EDX=0x00000603): 4 GP counters x 48 bits, 3 fixed "
		  "counters x 48 bits, EBX length 7 (pmu=auto)",
		  "version 2 header: the summary line with leaf 0AH");
	CHECK_STR(line_for(&ls, "fixed ctr0"),
		  "env: pmu: fixed ctr0 (instructions retired, MSR 0x309, RDPMC 0x40000000): yes, 48 bits, "
		  "counting (+20011 over a loop of 20000 instructions), RDPMC ok",
		  "version 2 header: fixed ctr0's line");
	CHECK_HAS(line_for(&ls, "aperf"), "(core clocks in C0, MSR 0xe8): no: CPUID.06H:ECX[0]=0",
	          "version 2 header: APERF's line");
}

/* Version 4, four fixed counters: we own and program CTR0..CTR2 only;
 * CondChgd set in GLOBAL_STATUS is cleared, a foreign overflow bit not. */
static void test_version4(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(4, 8, 48, 8), 0, 0, leaf_edx(4, 48), 4);
	find(&f, PMU_MSR_PERF_GLOBAL_STATUS)->val = PMU_OVF_COND_CHGD | (1ull << 35) | 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(fault, 0, "version 4: no fault");
	CHECK_EQ_U64(n, 3, "version 4: three fixed counters count");
	CHECK_EQ_U64(info.fixed_contig, 4, "version 4: four fixed counters enumerated");
	CHECK_EQ_U64(f.nlog, 8, "version 4: eight WRMSRs");
	CHECK_WRITE(&f, 5, 0x390, 0x700000000ull | PMU_OVF_COND_CHGD,
	            "version 4: clear the fixed overflows and CondChgd");
	CHECK_WRITE(&f, 6, 0x38D, 0x111, "version 4: count in every ring");
	CHECK_WRITE(&f, 7, 0x38F, 0x700000000ull, "version 4: enable the three fixed counters");
	for (int k = 0; k < f.nlog; k++)
		CHECK(f.log[k].msr != 0x30C,
		      "version 4: WRMSR %d leaves fixed counter 3 untouched", k);
}

/* Version 5: ECX is a bit mask of fixed counters, OR'ed with EDX[4:0]. */
static void test_version5_mask(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(5, 8, 48, 8), 0, 0x5, leaf_edx(0, 48), 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.fixed_mask, 5, "version 5: ECX's fixed-counter mask");
	CHECK_EQ_U64(n, 2, "version 5 mask 101b: two counters count");
	CHECK(pmu_usable(&info, PMU_FIXED0), "version 5 mask 101b: fixed ctr0 usable");
	CHECK(!pmu_usable(&info, PMU_FIXED1), "version 5 mask 101b: fixed ctr1 not");
	CHECK(pmu_usable(&info, PMU_FIXED2), "version 5 mask 101b: fixed ctr2 usable");
	CHECK_STR(info.ctr[PMU_FIXED1].why,
		  "CPUID.0AH:ECX[1]=0 and EDX[4:0]=0: fixed counter 1 not enumerated",
		  "version 5 mask 101b: fixed ctr1's reason");
	CHECK_EQ_U64(info.fixed_ctrl, 0x101,
	             "version 5 mask 101b: IA32_FIXED_CTR_CTRL enables 0 and 2");
	CHECK_EQ_U64(info.global_ctrl, (1ull << 32) | (1ull << 34),
	             "version 5 mask 101b: IA32_PERF_GLOBAL_CTRL enables 0 and 2");
	for (int k = 0; k < f.nlog; k++)
		CHECK(f.log[k].msr != 0x30A,
		      "version 5 mask 101b: WRMSR %d leaves fixed counter 1 untouched", k);

	/* Before version 5 ECX is reserved: ignored even if nonzero. Under a
	 * hypervisor, so that EDX[4:0] = 1 is taken as it is (no early Intel
	 * processors' rule). */
	intel_pmu(&f, leaf_eax(4, 8, 48, 8), 0, 0x7, leaf_edx(1, 48), 3);
	set_leaf(&f, 1, 0x000906EA, 0, 1u << 31, 0x10);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.fixed_mask, 0, "version 4: ECX reserved, no mask");
	CHECK_EQ_U64(n, 1, "version 4, EDX[4:0] = 1: one counter counts");
	CHECK(pmu_usable(&info, PMU_FIXED0), "version 4, EDX[4:0] = 1: fixed ctr0 usable");
	CHECK_HAS(info.ctr[PMU_FIXED2].why, "CPUID.0AH:EDX[4:0]=1: fixed counter 2 not enumerated (",
	          "version 4, EDX[4:0] = 1: fixed ctr2's reason");
	CHECK_EQ_U64(info.fixed_ctrl, 0x1, "version 4, EDX[4:0] = 1: only fixed ctr0 enabled");

	/* Another vendor's version 2 reporting no fixed counters: Intel's
	 * rule for its own early processors is not applied. */
	intel_pmu(&f, leaf_eax(2, 2, 40, 7), 0, 0, leaf_edx(0, 0), 3);
	set_leaf(&f, 0, 0x16, 0x746E6543, 0x736C7561, 0x48727561); /* "CentaurHauls" */
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_HAS(info.ctr[PMU_FIXED0].why, "CPUID.0AH:EDX[4:0]=0: fixed counter 0 not enumerated",
	          "version 2 without fixed counters: the reason");
	CHECK(!info.fixed_assumed, "version 2 without fixed counters, not Intel: nothing assumed");
	CHECK_EQ_U64(f.nlog, 0, "version 2 without fixed counters: no WRMSR");
}

/* CPUID.0AH:EBX says which architectural events the general-purpose
 * counters cannot count (Vol. 2A leaf 0AH); which fixed counters exist is
 * EDX[4:0] and, from version 5, ECX alone. So no EBX bit and no EBX length
 * refuses a fixed counter. */
static void test_ebx_unavailable(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	/* EBX[1] and EBX[2]: instructions retired and reference cycles not
	 * available to the GP counters. */
	intel_pmu(&f, leaf_eax(3, 4, 48, 7), 0x6, 0, leaf_edx(3, 48), 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.ebx_unavail, 6, "EBX read: events 1 and 2 unavailable to GP counters");
	CHECK_EQ_U64(n, 3, "EBX[1], EBX[2] set: the three fixed counters still count");
	for (int i = 0; i < PMU_NFIXED; i++)
		CHECK(pmu_usable(&info, (enum pmu_counter_id)i) && !info.ctr[i].forced,
		      "EBX[1], EBX[2] set: fixed ctr%d usable without pmu=force", i);
	CHECK_EQ_U64(info.fixed_ctrl, 0x111, "EBX[1], EBX[2] set: all three enabled");

	/* EBX length 2: bit 2 (reference cycles) is not enumerated; fixed
	 * counter 2 exists all the same. */
	intel_pmu(&f, leaf_eax(3, 4, 48, 2), 0, 0, leaf_edx(3, 48), 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(n, 3, "EBX length 2: the three fixed counters count");
	CHECK(pmu_usable(&info, PMU_FIXED2), "EBX length 2: fixed ctr2 usable");
}

/* CPUID leaves copied from real CPUs' dumps (libcpuid's tests/ folder,
 * BSD-2-Clause, github:anrieff/libcpuid; the file of each is named):
 * {leaf, EAX, EBX, ECX, EDX}. */

/* tests/intel/x86-64/nehalem/intel-core-i5-cpu-650.test (Clarkdale, family
 * 6 model 25H): version 3, EBX[2] = 1 (reference cycles unavailable to the
 * GP counters), three 48-bit fixed counters. */
static const uint32_t i5_650[][5] = {
	{ 0x0, 0x0000000B, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x1, 0x00020652, 0x00100800, 0x0298E3FF, 0xBFEBFBFF },
	{ 0x6, 0x00000007, 0x00000002, 0x00000001, 0x00000000 },
	{ 0xA, 0x07300403, 0x00000004, 0x00000000, 0x00000603 },
	{ 0x80000000u, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000008u, 0x00003024, 0x00000000, 0x00000000, 0x00000000 },
};

/* tests/intel/x86-atom/tremont/intel-core-i5-l16g7-cpu.test (Lakefield,
 * family 6 model 8AH): version 5, EBX[2] = 1, ECX = 7 lists fixed counters
 * 0-2, EDX = 8603H (three, 48 bits). */
static const uint32_t i5_l16g7[][5] = {
	{ 0x0, 0x0000001B, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x1, 0x000806A1, 0x00100800, 0x4FD8EBBF, 0xBFEBFBFF },
	{ 0x6, 0x001F8FF7, 0x00000002, 0x00000009, 0x00000003 },
	{ 0xA, 0x07300405, 0x00000004, 0x00000007, 0x00008603 },
	{ 0x80000000u, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
};

/* tests/intel/x86-64/core/intel-core2-cpu-6300.test (Conroe, family 6
 * model 0FH): version 2, EDX = 0: no fixed counter enumerated. */
static const uint32_t core2_6300[][5] = {
	{ 0x0, 0x0000000A, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x1, 0x000006F2, 0x00020800, 0x0000E3BD, 0xBFEBFBFF },
	{ 0x6, 0x00000001, 0x00000002, 0x00000001, 0x00000000 },
	{ 0xA, 0x07280202, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000000u, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000008u, 0x00003024, 0x00000000, 0x00000000, 0x00000000 },
};

/* tests/intel/x86-atom/bonnell/intel-atom-cpu-n270.test (Bonnell, family
 * 6 model 1CH): version 3, EDX = 2501H: one 40-bit fixed counter. */
static const uint32_t atom_n270[][5] = {
	{ 0x0, 0x0000000A, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x1, 0x000106C2, 0x00020800, 0x0040C39D, 0xBFE9FBFF },
	{ 0x6, 0x00000001, 0x00000002, 0x00000001, 0x00000000 },
	{ 0xA, 0x07280203, 0x00000000, 0x00000000, 0x00002501 },
	{ 0x80000000u, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000008u, 0x00002020, 0x00000000, 0x00000000, 0x00000000 },
};

/* tests/intel/x86-atom/bonnell/intel-atom-cpu-n450.test (Pineview, family
 * 6 model 1CH): version 3, EDX = 503H: three 40-bit fixed counters. */
static const uint32_t atom_n450[][5] = {
	{ 0x0, 0x0000000A, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x1, 0x000106CA, 0x01020800, 0x0040E39D, 0xBFE9FBFF },
	{ 0xA, 0x07280203, 0x00000000, 0x00000000, 0x00000503 },
	{ 0x80000000u, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000008u, 0x00003020, 0x00000000, 0x00000000, 0x00000000 },
};

/* tests/hygon/dhyana/hygon-c86-7185-32-core-processor.test (family 18h
 * model 00h): CPUID.80000008H:EBX[1] = 1 offers IRPerfCount. */
static const uint32_t hygon_c86_7185[][5] = {
	{ 0x0, 0x0000000D, 0x6F677948, 0x656E6975, 0x6E65476E },
	{ 0x1, 0x00900F01, 0x3E400800, 0x7CD83209, 0x178BFBFF },
	{ 0x6, 0x00000004, 0x00000000, 0x00000001, 0x00000000 },
	{ 0xA, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000000u, 0x8000001F, 0x6F677948, 0x656E6975, 0x6E65476E },
	{ 0x80000008u, 0x00003030, 0x00001007, 0x0000603F, 0x00000000 },
};

#define DUMP(f, d, nfixed) dump_cpu((f), (d), (int)(sizeof(d) / sizeof((d)[0])), (nfixed))

/* Fixed counter 2 on CPUs whose EBX[2] = 1 (issue 20, item 4). */
static void test_real_fixed_ctr2(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	DUMP(&f, i5_650, 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.ebx_unavail, 4, "i5-650: EBX[2] = 1 read");
	CHECK_EQ_U64(info.ctr[PMU_FIXED2].state, PMU_COUNTING, "i5-650: fixed ctr2 counting");
	CHECK(!info.ctr[PMU_FIXED2].forced, "i5-650: fixed ctr2 needs no pmu=force");
	CHECK_EQ_U64(info.ctr[PMU_FIXED2].width, 48, "i5-650: fixed ctr2 48 bits");
	CHECK_EQ_U64(info.fixed_ctrl, 0x111, "i5-650: IA32_FIXED_CTR_CTRL enables the three");
	CHECK_EQ_U64(n, 4, "i5-650: three fixed counters and APERF count");

	DUMP(&f, i5_l16g7, 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.version, 5, "i5-L16G7: version 5");
	CHECK_EQ_U64(info.fixed_mask, 7, "i5-L16G7: ECX lists fixed counters 0-2");
	CHECK_EQ_U64(info.ctr[PMU_FIXED2].state, PMU_COUNTING, "i5-L16G7: fixed ctr2 counting");
	CHECK_EQ_U64(info.global_ctrl, 0x700000000ull,
	             "i5-L16G7: IA32_PERF_GLOBAL_CTRL enables the three");
}

/* Early Core 2 and Bonnell under-report the fixed counters (item 5). */
static void test_real_fixed_assumed(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	DUMP(&f, core2_6300, 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(info.fixed_assumed, "Core 2 6300 (version 2, EDX = 0): three fixed counters assumed");
	CHECK_EQ_U64(info.fixed_contig, 3, "Core 2 6300: 3 fixed counters used");
	CHECK_EQ_U64(info.fixed_width, 40, "Core 2 6300: the GP width, 40 bits, for want of EDX's");
	CHECK_EQ_U64(n, 4, "Core 2 6300: three fixed counters and APERF count");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK(pmu_usable(&info, (enum pmu_counter_id)i) && !info.ctr[i].forced,
		      "Core 2 6300: fixed ctr%d usable without pmu=force", i);
		CHECK_EQ_U64(info.ctr[i].width, 40, "Core 2 6300: fixed ctr%d 40 bits", i);
	}
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_HAS(ls.l[0], "3 fixed counters x 40 bits (assumed: CPUID.0AH:EDX reports 0 x 0 bits;",
	          "Core 2 6300: the pmu line says the counters were assumed");
	CHECK_HAS(ls.l[0], "\"Architectural Performance Monitoring Version 2\"",
	          "Core 2 6300: the pmu line names the SDM's section");
	CHECK_HAS(record_text(&info), "\"fixed_assumed\":1", "Core 2 6300: the record says so too");

	DUMP(&f, atom_n270, 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(info.fixed_assumed, "Atom N270 (version 3, EDX[4:0] = 1): three assumed");
	CHECK_EQ_U64(info.fixed_width, 40, "Atom N270: EDX's width, 40 bits, kept");
	CHECK(pmu_usable(&info, PMU_FIXED2), "Atom N270: fixed ctr2 usable");

	DUMP(&f, atom_n450, 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(!info.fixed_assumed, "Atom N450 (EDX[4:0] = 3): nothing assumed");
	CHECK_HAS(record_text(&info), "\"fixed_assumed\":0", "Atom N450: the record says not");
	CHECK(pmu_usable(&info, PMU_FIXED2), "Atom N450: fixed ctr2 usable");

	/* Under a hypervisor CPUID says what is virtualized: not assumed. */
	DUMP(&f, core2_6300, 3);
	set_leaf(&f, 1, 0x000006F2, 0x00020800, 0x0000E3BD | 1u << 31, 0xBFEBFBFF);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(!info.fixed_assumed, "Core 2 under a hypervisor: nothing assumed");
	CHECK_EQ_U64(f.nlog, 0, "Core 2 under a hypervisor: no WRMSR");
	CHECK_HAS(info.ctr[PMU_FIXED0].why, "not assumed under a hypervisor",
	          "Core 2 under a hypervisor: the reason says why");

	/* Version 5 enumerates by ECX: never assumed. */
	intel_pmu(&f, leaf_eax(5, 8, 48, 8), 0, 0x1, leaf_edx(0, 48), 3);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(!info.fixed_assumed, "version 5: nothing assumed");
	CHECK_EQ_U64(n, 1, "version 5, ECX = 1: one counter counts");
}

/* Hygon family 18h: IRPerfCount not used (item 6). */
static void test_real_hygon(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	DUMP(&f, hygon_c86_7185, 0);
	add_msr(&f, PMU_MSR_AMD_HWCR, 0);
	add_msr(&f, PMU_MSR_AMD_IRPERF, 0);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.family, 0x18, "Hygon C86 7185: family 18h");
	CHECK_EQ_U64(info.ctr[PMU_IRPERF].state, PMU_ABSENT, "Hygon: IRPERF not used");
	CHECK_HAS(info.ctr[PMU_IRPERF].why, "Hygon", "Hygon: the reason names the vendor");
	CHECK_HAS(info.ctr[PMU_IRPERF].why, "erratum 1054", "Hygon: the reason names erratum 1054");
	CHECK_EQ_U64(f.nlog, 0, "Hygon: HWCR not written");
	CHECK(pmu_usable(&info, PMU_APERF), "Hygon: APERF usable");
	run_all(&f, PMU_MODE_FORCE, &info, &fault, &n);
	CHECK(info.ctr[PMU_IRPERF].forced && pmu_usable(&info, PMU_IRPERF),
	      "Hygon, pmu=force: IRPERF tried and counting");
}

static void test_faults(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	/* A control MSR faults: no fixed counter, the error names it. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, PMU_MSR_FIXED_CTR_CTRL)->wr_fault = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(fault, GP_FAULT, "IA32_FIXED_CTR_CTRL write faults: #GP");
	CHECK_EQ_U64(n, 0, "IA32_FIXED_CTR_CTRL write faults: nothing counts");
	CHECK_STR(info.error, "WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x0 faulted: #GP",
	          "IA32_FIXED_CTR_CTRL write faults: the error names it");
	CHECK_EQ_U64(f.nlog, 2, "IA32_FIXED_CTR_CTRL write faults: stopped at the fault");
	CHECK(f.log[1].faulted, "the second WRMSR faulted");
	for (int i = 0; i < PMU_NFIXED; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_FAULTED,
		             "control write faulted: fixed ctr%d faulted", i);
		CHECK_STR(info.ctr[i].why, "WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x0 faulted: #GP",
		          "control write faulted: fixed ctr%d's reason", i);
	}
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_STR(ls.l[1], "env: pmu: programming fault: WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x0 faulted: #GP",
	          "control write faulted: the header's fault line");
	CHECK_HAS(line_for(&ls, "fixed ctr2"), "): no: WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x0 faulted: #GP",
	          "control write faulted: fixed ctr2's line");

	/* The enable write faults: same, and the counters were never enabled. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, PMU_MSR_PERF_GLOBAL_OVF_CTRL)->wr_fault = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(fault, GP_FAULT, "overflow-clear write faults: #GP");
	CHECK_STR(info.error, "WRMSR 0x390 (IA32_PERF_GLOBAL_OVF_CTRL) <- 0x700000000 faulted: #GP",
	          "overflow-clear write faults: the error names it");
	CHECK_EQ_U64(find(&f, PMU_MSR_PERF_GLOBAL_CTRL)->val, 0,
	             "overflow-clear write faulted: IA32_PERF_GLOBAL_CTRL never enabled");
	CHECK_EQ_U64(find(&f, PMU_MSR_FIXED_CTR_CTRL)->val, 0,
	             "overflow-clear write faulted: IA32_FIXED_CTR_CTRL never enabled");

	/* One counter faults: dropped, the others go on. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, 0x30B)->wr_fault = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(fault, GP_FAULT, "IA32_FIXED_CTR2 write faults: #GP");
	CHECK_EQ_U64(n, 2, "IA32_FIXED_CTR2 write faults: the other two count");
	CHECK_EQ_U64(info.ctr[PMU_FIXED2].state, PMU_FAULTED,
	             "IA32_FIXED_CTR2 write faults: fixed ctr2 faulted");
	CHECK_STR(info.ctr[PMU_FIXED2].why, "WRMSR 0x30b (IA32_FIXED_CTR2) <- 0x0 faulted: #GP",
	          "IA32_FIXED_CTR2 write faults: its reason");
	CHECK_EQ_U64(info.fixed_ctrl, 0x11, "IA32_FIXED_CTR2 dropped from IA32_FIXED_CTR_CTRL");
	CHECK_EQ_U64(info.global_ctrl, 0x300000000ull,
	             "IA32_FIXED_CTR2 dropped from IA32_PERF_GLOBAL_CTRL");
	CHECK(pmu_usable(&info, PMU_FIXED0), "IA32_FIXED_CTR2 faulted: fixed ctr0 usable");
	CHECK(pmu_usable(&info, PMU_FIXED1), "IA32_FIXED_CTR2 faulted: fixed ctr1 usable");

	/* A counter whose read faults at the check. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, 0x30A)->rd_fault = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(fault, 0,
	             "IA32_FIXED_CTR1 read faults at the check: programming had no fault");
	CHECK_EQ_U64(n, 2, "IA32_FIXED_CTR1 read faults: the other two count");
	CHECK_EQ_U64(info.ctr[PMU_FIXED1].state, PMU_FAULTED,
	             "IA32_FIXED_CTR1 read faults: faulted");
	CHECK_STR(info.ctr[PMU_FIXED1].why, "RDMSR 0x30a (IA32_FIXED_CTR1) faulted: #GP",
	          "IA32_FIXED_CTR1 read faults: its reason");

	/* pmu=force on an AMD CPU without Intel's MSRs: the first write faults. */
	fake_init(&f, "AuthenticAMD", 0x10, 0x80000021u, 0x00A20F10);
	run_all(&f, PMU_MODE_FORCE, &info, &fault, &n);
	CHECK_EQ_U64(fault, GP_FAULT, "pmu=force on AMD without Intel's MSRs: #GP");
	CHECK_EQ_U64(n, 0, "pmu=force on AMD without Intel's MSRs: nothing counts");
	CHECK_STR(info.ctr[PMU_FIXED0].why, "WRMSR 0x38f (IA32_PERF_GLOBAL_CTRL) <- 0x0 faulted: #GP",
	          "pmu=force on AMD: fixed ctr0's reason names the first write");
	CHECK_STR(info.ctr[PMU_APERF].why, "RDMSR 0xe8 (IA32_APERF) faulted: #GP",
	          "pmu=force on AMD: APERF's reason");
	CHECK_STR(info.ctr[PMU_IRPERF].why, "RDMSR 0xc0010015 (HWCR) faulted: #GP",
	          "pmu=force on AMD: IRPERF's reason names HWCR");

	/* Without fault_name the code is printed. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, PMU_MSR_PERF_GLOBAL_CTRL)->wr_fault = 1;
	struct pmu_backend b = backend(&f);
	b.fault_name = NULL;
	pmu_detect(&b, PMU_MODE_AUTO, &info);
	CHECK_EQ_U64(pmu_program(&b, &info), GP_FAULT, "IA32_PERF_GLOBAL_CTRL write faults: #GP");
	CHECK_STR(info.error, "WRMSR 0x38f (IA32_PERF_GLOBAL_CTRL) <- 0x0 faulted: fault 0x10d",
	          "no fault_name: the fault code printed");
}

static void test_rdpmc(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	f.rdpmc_fault = UD_FAULT;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(n, 3, "RDPMC faults: the three still count");
	CHECK(pmu_usable(&info, PMU_FIXED0), "RDPMC faults: fixed ctr0 still usable through RDMSR");
	CHECK(!info.ctr[PMU_FIXED0].rdpmc_ok, "RDPMC faults: not ok");
	CHECK_STR(info.ctr[PMU_FIXED0].rdpmc_why, "RDPMC 0x40000000 faulted: #UD",
	          "RDPMC faults: the reason");
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_HAS(line_for(&ls, "fixed ctr1"), ", RDPMC not usable: RDPMC 0x40000001 faulted: #UD",
	          "RDPMC faults: fixed ctr1's line says RDPMC not usable");

	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	f.rdpmc_bogus = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK(!info.ctr[PMU_FIXED2].rdpmc_ok, "RDPMC disagrees with RDMSR: not ok");
	CHECK_HAS(info.ctr[PMU_FIXED2].rdpmc_why, "outside RDMSR's",
	          "RDPMC disagrees with RDMSR: the reason");

	/* No rdpmc in the backend: not checked, not ok. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	struct pmu_backend b = backend(&f);
	b.rdpmc = NULL;
	pmu_detect(&b, PMU_MODE_AUTO, &info);
	pmu_program(&b, &info);
	CHECK_EQ_U64(pmu_verify(&b, &info, floop, &f, 20000), 3,
	             "no RDPMC in the backend: the three count");
	CHECK(!info.ctr[PMU_FIXED0].rdpmc_ok, "no RDPMC in the backend: not ok");
	CHECK_EQ_U64(f.rdpmc_calls, 0, "no RDPMC in the backend: never called");
}

/* Counters that count, but wrongly. */
static void test_bad_counts(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	f.inc[PMU_FIXED0] = 19999;  /* fewer than the loop retires */
	f.inc[PMU_FIXED1] = 0;      /* stuck */
	f.inc[PMU_FIXED2] = 1;      /* any advance will do for cycles */
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(n, 1, "bad counts: only the cycles counter passes");
	CHECK_STR(info.ctr[PMU_FIXED0].why,
		  "not counting: MSR 0x309 counts fewer instructions than the loop retires "
		  "(+19999 over a loop of 20000 instructions)",
		  "fewer instructions than the loop retires: the reason");
	CHECK_STR(info.ctr[PMU_FIXED1].why,
		  "not counting: MSR 0x30a does not move (+0 over a loop of 20000 instructions)",
		  "stuck counter: the reason");
	CHECK(pmu_usable(&info, PMU_FIXED2), "reference cycles advancing at all: usable");

	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	f.inc[PMU_FIXED0] = 80001;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.ctr[PMU_FIXED0].state, PMU_NOT_COUNTING,
	             "more than 4x the loop's instructions: not counting");
	CHECK_HAS(info.ctr[PMU_FIXED0].why, "more than 4x",
	          "more than 4x the loop's instructions: the reason");
}

static void test_delta_and_check(void)
{
	/* widths 40, 48, 64, and out-of-range widths as 64 */
	CHECK_EQ_U64(pmu_delta(100, 250, 48), 150, "delta without wrap");
	CHECK_EQ_U64(pmu_delta(7, 7, 48), 0, "delta of an unchanged counter");
	CHECK_EQ_U64(pmu_delta((1ull << 40) - 16, 0x10, 40), 32, "delta across the 40-bit wrap");
	CHECK_EQ_U64(pmu_delta((1ull << 48) - 1, 0, 48), 1, "delta across the 48-bit wrap");
	CHECK_EQ_U64(pmu_delta((1ull << 48) - 100, 19900, 48), 20000,
	             "delta of 20000 across the 48-bit wrap");
	CHECK_EQ_U64(pmu_delta(UINT64_MAX - 1, 3, 64), 5, "delta across the 64-bit wrap");
	CHECK_EQ_U64(pmu_delta(UINT64_MAX - 1, 3, 0), 5, "width 0 taken as 64");
	CHECK_EQ_U64(pmu_delta(UINT64_MAX - 1, 3, 65), 5, "width 65 taken as 64");
	CHECK_EQ_U64(pmu_delta(0, (1ull << 40) - 1, 40), (1ull << 40) - 1, "largest 40-bit delta");
	/* bits above the width (a reader that did not mask) are ignored */
	CHECK_EQ_U64(pmu_delta(0xFF00000000000005ull, 0x0000000000000009ull, 48), 4,
	             "bits above the width ignored");

	uint64_t d = 0;
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 0, 20000, 48, 20000, &d),
		     PMU_VERDICT_COUNTING,
		     "20000 instructions in a 20000-instruction loop: counting");
	CHECK_EQ_U64(d, 20000, "20000 instructions: the delta");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 0, 19999, 48, 20000, NULL),
		     PMU_VERDICT_TOO_FEW, "19999 instructions: too few");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 0, 80000, 48, 20000, NULL),
		     PMU_VERDICT_COUNTING, "80000 instructions, 4x the loop: counting");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 0, 80001, 48, 20000, NULL),
		     PMU_VERDICT_TOO_MANY, "80001 instructions: too many");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 5, 5, 48, 20000, &d), PMU_VERDICT_STILL,
	             "unchanged: does not move");
	CHECK_EQ_U64(d, 0, "unchanged: delta 0");
	/* across a wrap */
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, (1ull << 48) - 100, 19950, 48, 20000, &d),
		     PMU_VERDICT_COUNTING, "instructions across the 48-bit wrap: counting");
	CHECK_EQ_U64(d, 20050, "instructions across the 48-bit wrap: the delta");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_CYCLES, (1ull << 40) - 1, 0, 40, 20000, &d),
		     PMU_VERDICT_COUNTING, "one cycle across the 40-bit wrap: counting");
	CHECK_EQ_U64(d, 1, "one cycle across the 40-bit wrap: delta 1");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_CYCLES, 7, 7, 40, 20000, NULL), PMU_VERDICT_STILL,
	             "unchanged cycles: does not move");
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_CYCLES, UINT64_MAX, 41, 64, 20000, &d),
		     PMU_VERDICT_COUNTING, "cycles across the 64-bit wrap: counting");
	CHECK_EQ_U64(d, 42, "cycles across the 64-bit wrap: delta 42");
	/* a huge loop count does not overflow the upper bound */
	CHECK_EQ_U64(pmu_check_counting(PMU_KIND_INSTRUCTIONS, 0, UINT64_MAX, 64, UINT64_MAX / 2, NULL),
		     PMU_VERDICT_COUNTING, "a huge loop count does not overflow the upper bound");
	CHECK_STR(pmu_verdict_string(PMU_VERDICT_STILL), "does not move",
	          "does-not-move verdict's text");
	CHECK_STR(pmu_state_string(PMU_NOT_COUNTING), "not counting", "not-counting state's text");
}

static void test_amd(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	/* Zen 3 (family 19h model 21h): IRPERF and APERF, no leaf 0AH PMU. */
	fake_init(&f, "AuthenticAMD", 0x10, 0x80000021u, 0x00A20F10);
	set_leaf(&f, 6, 0, 0, 0x1, 0);
	set_leaf(&f, 0x80000008u, 0x3030, 0x2, 0, 0);
	add_msr(&f, PMU_MSR_AMD_HWCR, 0x0000000001006010ull);
	add_msr(&f, PMU_MSR_AMD_IRPERF, 0x123456789ull);
	add_msr(&f, PMU_MSR_APERF, 0x987654321ull);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.vendor, PMU_VENDOR_AMD, "Zen 3: AuthenticAMD");
	CHECK_EQ_U64(info.family, 0x19, "Zen 3: family 19h");
	CHECK_EQ_U64(info.model, 0x21, "Zen 3: model 21h");
	CHECK_EQ_U64(fault, 0, "Zen 3: no fault");
	CHECK_EQ_U64(n, 2, "Zen 3: IRPERF and APERF count");
	CHECK(pmu_usable(&info, PMU_IRPERF), "Zen 3: IRPERF usable");
	CHECK(pmu_usable(&info, PMU_APERF), "Zen 3: APERF usable");
	CHECK(!pmu_usable(&info, PMU_FIXED0), "Zen 3: no Intel fixed counter");
	CHECK_EQ_U64(info.ctr[PMU_IRPERF].width, 48, "IRPERF 48 bits");
	CHECK_EQ_U64(info.ctr[PMU_APERF].width, 64, "APERF 64 bits");
	CHECK_EQ_U64(info.ctr[PMU_IRPERF].check_delta, 20013,
	             "IRPERF advanced by the loop's instructions");
	CHECK_EQ_U64(info.ctr[PMU_APERF].check_delta, 14000, "APERF advanced by the loop's cycles");
	CHECK_EQ_U64(f.nlog, 1, "Zen 3: only HWCR written, read-modify-write");
	CHECK_WRITE(&f, 0, PMU_MSR_AMD_HWCR, 0x0000000041006010ull,
	            "Zen 3: IRPerfEn set in HWCR, the other bits kept");
	CHECK_EQ_U64(find(&f, PMU_MSR_AMD_IRPERF)->val, 0x123456789ull + 20013,
	             "IRPERF never written: only advanced");
	CHECK_EQ_U64(f.rdpmc_calls, 0, "Zen 3: no RDPMC");
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_STR(line_for(&ls, "irperf"),
		  "env: pmu: irperf (instructions retired, MSR 0xc00000e9): yes, 48 bits, counting "
		  "(+20013 over a loop of 20000 instructions)", "Zen 3 header: IRPERF's line");
	CHECK_HAS(line_for(&ls, "aperf"), "): yes, 64 bits, counting (+14000",
	          "Zen 3 header: APERF's line");

	/* IRPerfEn already set: no write at all. */
	fake_init(&f, "AuthenticAMD", 0x10, 0x80000021u, 0x00A20F10);
	set_leaf(&f, 0x80000008u, 0x3030, 0x2, 0, 0);
	add_msr(&f, PMU_MSR_AMD_HWCR, PMU_HWCR_IRPERF_EN);
	add_msr(&f, PMU_MSR_AMD_IRPERF, 0);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(f.nlog, 0, "IRPerfEn already set: no WRMSR");
	CHECK(pmu_usable(&info, PMU_IRPERF), "IRPerfEn already set: IRPERF usable");

	/* Zen 1 (family 17h model 01h): erratum 1054, not used unless forced. */
	fake_init(&f, "AuthenticAMD", 0xD, 0x8000001Fu, 0x00800F11);
	set_leaf(&f, 0x80000008u, 0x3030, 0x2, 0, 0);
	add_msr(&f, PMU_MSR_AMD_HWCR, 0);
	add_msr(&f, PMU_MSR_AMD_IRPERF, 0);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.family, 0x17, "Zen 1: family 17h");
	CHECK_EQ_U64(info.model, 0x01, "Zen 1: model 01h");
	CHECK_EQ_U64(info.ctr[PMU_IRPERF].state, PMU_ABSENT, "Zen 1: IRPERF absent");
	CHECK_HAS(info.ctr[PMU_IRPERF].why, "AMD erratum 1054",
	          "Zen 1: the reason names erratum 1054");
	CHECK_EQ_U64(f.nlog, 0, "Zen 1: no WRMSR");
	run_all(&f, PMU_MODE_FORCE, &info, &fault, &n);
	CHECK(info.ctr[PMU_IRPERF].forced, "Zen 1 forced: IRPERF forced");
	CHECK(pmu_usable(&info, PMU_IRPERF), "Zen 1 forced: IRPERF usable");

	/* Zen+ model 0x30 and later is not affected. */
	fake_init(&f, "AuthenticAMD", 0xD, 0x8000001Fu, 0x00830F00);
	set_leaf(&f, 0x80000008u, 0x3030, 0x2, 0, 0);
	add_msr(&f, PMU_MSR_AMD_HWCR, 0);
	add_msr(&f, PMU_MSR_AMD_IRPERF, 0);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(info.model, 0x30, "Zen+: model 30h");
	CHECK(pmu_usable(&info, PMU_IRPERF), "Zen+ model 30h: not affected, IRPERF usable");

	/* APERF: the CPUID gates. */
	fake_init(&f, "GenuineIntel", 0x5, 0x80000008u, 0x000006F6);
	add_msr(&f, PMU_MSR_APERF, 0);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_STR(info.ctr[PMU_APERF].why, "CPUID max basic leaf 0x5 < 0x6: IA32_APERF not enumerated",
	          "max basic leaf 5: APERF's reason");
	CHECK_EQ_U64(f.reads, 0, "max basic leaf 5: no MSR read");
	fake_init(&f, "GenuineIntel", 0x6, 0x80000007u, 0x000006F6);
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_STR(info.ctr[PMU_IRPERF].why,
		  "CPUID max extended leaf 0x80000007 < 0x80000008: IRPerfCount not enumerated",
		  "max extended leaf 80000007h: IRPERF's reason");
	CHECK_STR(info.ctr[PMU_APERF].why, "CPUID.06H:ECX[0]=0: no IA32_APERF/IA32_MPERF",
	          "CPUID.06H:ECX[0] = 0: APERF's reason");
}

static void test_off(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(4, 8, 48, 8), 0, 0, leaf_edx(3, 48), 3);
	run_all(&f, PMU_MODE_OFF, &info, &fault, &n);
	CHECK_EQ_U64(f.cpuid_calls, 0, "pmu=off: no CPUID");
	CHECK_EQ_U64(f.reads, 0, "pmu=off: no RDMSR");
	CHECK_EQ_U64(f.nlog, 0, "pmu=off: no WRMSR");
	CHECK_EQ_U64(f.loops, 1, "pmu=off: the loop still runs");
	CHECK_EQ_U64(fault, 0, "pmu=off: no fault");
	CHECK_EQ_U64(n, 0, "pmu=off: nothing counts");
	for (int i = 0; i < PMU_NCOUNTERS; i++) {
		CHECK_EQ_U64(info.ctr[i].state, PMU_ABSENT, "pmu=off: counter %d absent", i);
		CHECK_STR(info.ctr[i].why, "pmu=off: not probed",
		          "pmu=off: counter %d's reason", i);
	}
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_EQ_U64(ls.n, 1 + PMU_NCOUNTERS, "pmu=off header: summary and one line per counter");
	CHECK_HAS(ls.l[0], "env: pmu: pmu=off", "pmu=off header: the summary says pmu=off");
	CHECK_STR(line_for(&ls, "fixed ctr1"),
		  "env: pmu: fixed ctr1 (unhalted core cycles, MSR 0x30a, RDPMC 0x40000001): no: pmu=off: not probed",
		  "pmu=off header: fixed ctr1's line");
	CHECK_STR(pmu_mode_words[PMU_MODE_AUTO], "auto", "pmu= word auto");
	CHECK_STR(pmu_mode_words[PMU_MODE_OFF], "off", "pmu= word off");
	CHECK_STR(pmu_mode_words[PMU_MODE_FORCE], "force", "pmu= word force");
	CHECK(pmu_mode_words[3] == NULL, "pmu= words end with NULL");
}

static void test_hypervisor_and_json(void)
{
	struct fake f;
	struct pmu_info info;
	int fault, n;
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	set_leaf(&f, 1, 0x000906EA, 0, 1u << 31, 0x10);
	set_leaf(&f, 0x40000000u, 0x40000001u, 0x4B4D564B, 0x564B4D56, 0x0000004D); /* "KVMKVMKVM" */
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	CHECK_EQ_U64(n, 3, "under KVM: the three count");
	struct lines ls = { .n = 0 };
	pmu_describe(&info, capture, &ls);
	CHECK_EQ_U64(ls.n, 2 + PMU_NCOUNTERS, "under KVM: header with the hypervisor line");
	CHECK_HAS(ls.l[1], "env: pmu: hypervisor \"KVMKVMKVM\" (CPUID.1:ECX[31]=1)",
	          "under KVM: the hypervisor line");

	char *buf = record_text(&info);
	size_t len = strlen(buf);
	CHECK(len > 2 && buf[len - 1] == '\n', "pmu record: one whole line");
	CHECK(strncmp(buf, "{\"rec\":\"pmu\",\"mode\":\"auto\",\"version\":2,", 38) == 0,
	      "pmu record: rec, mode and version first");
	CHECK_HAS(buf, "\"counters\":[{\"name\":\"fixed ctr0\",\"msr\":777,\"state\":\"counting\",\"usable\":1,"
		       "\"width\":48,\"forced\":0,\"delta\":20011,\"rdpmc\":1,\"why\":\"\"}",
		       "pmu record: fixed ctr0 counting");
	CHECK_HAS(buf, "{\"name\":\"irperf\",\"msr\":3221225705,\"state\":\"absent\",\"usable\":0",
	          "pmu record: IRPERF absent");
	CHECK(buf[len - 2] == '}' && buf[len - 3] == ']',
	      "pmu record: the counters array closes the record");

	/* A faulted fixed counter's reason, with quotes escaped. */
	intel_pmu(&f, leaf_eax(2, 4, 48, 7), 0, 0, leaf_edx(3, 48), 3);
	find(&f, PMU_MSR_PERF_GLOBAL_CTRL)->wr_fault = 1;
	run_all(&f, PMU_MODE_AUTO, &info, &fault, &n);
	buf = record_text(&info);
	CHECK_HAS(buf, "\"error\":\"WRMSR 0x38f (IA32_PERF_GLOBAL_CTRL) <- 0x0 faulted: #GP\"",
	          "record with a fault: the error");
	CHECK_HAS(buf, "\"state\":\"faulted\",\"usable\":0",
	          "record with a fault: the faulted counter not usable");

	/* The longest record: everything forced and not counting. */
	struct fake t;
	tcg_fake(&t);
	run_all(&t, PMU_MODE_FORCE, &info, &fault, &n);
	buf = record_text(&info);
	len = strlen(buf);
	CHECK(len > 1000 && buf[len - 1] == '\n' && strchr(buf, '\n') == buf + len - 1,
	      "the longest record (everything forced, not counting): written whole, one line");
}

int main(void)
{
	test_no_leaf();
	test_version0_tcg();
	test_force_tcg_not_counting();
	test_version1();
	test_version2_sequence();
	test_version4();
	test_version5_mask();
	test_ebx_unavailable();
	test_real_fixed_ctr2();
	test_real_fixed_assumed();
	test_real_hygon();
	test_faults();
	test_rdpmc();
	test_bad_counts();
	test_delta_and_check();
	test_amd();
	test_off();
	test_hypervisor_and_json();
	return check_summary("test_pmu");
}

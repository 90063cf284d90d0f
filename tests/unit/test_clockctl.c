/* tests/unit/test_clockctl.c - lib/clockctl.c (turbo= and pstate=: which
 * MSR and bits each setting writes, the read-back, the verdict) against a
 * fake CPU: CPUID leaves, an MSR table with per-MSR faults and MSRs that
 * swallow writes (QEMU TCG's way), a log of every WRMSR.
 *
 * Cases, against the SDM and the APM/PPRs as lib/clockctl.h cites them:
 * Intel IA32_MISC_ENABLE[38], IA32_PERF_CTL (ratio 15:8, IDA disengage
 * bit 32) for base and max (MSR_PLATFORM_INFO, MSR_TURBO_RATIO_LIMIT), HWP
 * enabled (IA32_HWP_REQUEST, IA32_PERF_CTL untouched); QEMU TCG's Intel
 * model (no turbo bit, no EIST: nothing written, said why); a write that
 * does not stick and one that faults; AMD HWCR[25] CpbDis, the P-state
 * control by P-state and by frequency, CPPC enabled; keep/keep touching
 * nothing; another vendor. Then every dump of tests/corpus/cpuid: which
 * machines get which control, no crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/clockctl.h"

#define GP_FAULT 0x10d

struct fmsr {
	uint32_t addr;
	uint64_t val;
	int rd_fault, wr_fault, swallow;
};

struct fake {
	struct {
		uint32_t leaf, r[4];
	} leaves[12];
	int nleaves;
	struct fmsr msr[24];
	int nmsr;
	int accesses;
	struct {
		uint32_t msr;
		uint64_t val;
	} log[16];
	int nlog;
	struct dump_cpu *dump;       /* the corpus: CPUID from a dump */
	int sticky;                  /* the corpus: unknown MSRs read 0 and keep writes */
};

static struct fmsr *find(struct fake *f, uint32_t a)
{
	for (int i = 0; i < f->nmsr; i++)
		if (f->msr[i].addr == a)
			return &f->msr[i];
	return 0;
}

static struct fmsr *add(struct fake *f, uint32_t a, uint64_t v)
{
	struct fmsr *m = find(f, a);
	if (!m)
		m = &f->msr[f->nmsr++];
	*m = (struct fmsr){ .addr = a, .val = v };
	return m;
}

static void fcpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	struct fake *f = ctx;
	if (f->dump) {
		dump_cpuid(f->dump, leaf, sub, out);
		return;
	}
	memset(out, 0, 4 * sizeof out[0]);
	for (int i = 0; i < f->nleaves; i++)
		if (f->leaves[i].leaf == leaf)
			memcpy(out, f->leaves[i].r, 4 * sizeof out[0]);
}

static int frd(void *ctx, uint32_t a, uint64_t *v)
{
	struct fake *f = ctx;
	struct fmsr *m = find(f, a);
	f->accesses++;
	*v = 0;
	if (!m && f->sticky)
		m = add(f, a, 0);
	if (!m || m->rd_fault)
		return GP_FAULT;
	*v = m->val;
	return 0;
}

static int fwr(void *ctx, uint32_t a, uint64_t v)
{
	struct fake *f = ctx;
	struct fmsr *m = find(f, a);
	f->accesses++;
	if (f->nlog < 16)
		f->log[f->nlog].msr = a, f->log[f->nlog++].val = v;
	if (!m && f->sticky)
		m = add(f, a, 0);
	if (!m || m->wr_fault)
		return GP_FAULT;
	if (!m->swallow)
		m->val = v;
	return 0;
}

static const char *fname(void *ctx, int fault)
{
	(void)ctx;
	return fault == GP_FAULT ? "#GP" : "?";
}

static void set_leaf(struct fake *f, uint32_t leaf, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	f->leaves[f->nleaves].leaf = leaf;
	f->leaves[f->nleaves].r[0] = a, f->leaves[f->nleaves].r[1] = b;
	f->leaves[f->nleaves].r[2] = c, f->leaves[f->nleaves++].r[3] = d;
}

/* vendor: 12 characters; eax1: CPUID.1:EAX; ecx1, leaf 6 EAX/ECX, 80000007H EDX, 80000008H EBX. */
static void fake_cpu(struct fake *f, const char *vendor, uint32_t eax1, uint32_t ecx1, uint32_t eax6, uint32_t ecx6,
		     uint32_t edx87, uint32_t ebx88)
{
	uint32_t v[3];
	memset(f, 0, sizeof *f);
	memcpy(v, vendor, 12);
	set_leaf(f, 0, 0x16, v[0], v[2], v[1]);
	set_leaf(f, 1, eax1, 0, ecx1, 0);
	set_leaf(f, 6, eax6, 0, ecx6, 0);
	set_leaf(f, 0x80000000u, 0x80000008u, 0, 0, 0);
	set_leaf(f, 0x80000007u, 0, 0, 0, edx87);
	set_leaf(f, 0x80000008u, 0, ebx88, 0, 0);
}

static struct pmu_backend backend(struct fake *f)
{
	return (struct pmu_backend){ .ctx = f, .cpuid = fcpuid, .rdmsr = frd, .wrmsr = fwr, .fault_name = fname };
}

static int has(const char *s, const char *sub)
{
	return strstr(s, sub) != 0;
}

static int wrote(const struct fake *f, uint32_t msr)
{
	for (int i = 0; i < f->nlog; i++)
		if (f->log[i].msr == msr)
			return 1;
	return 0;
}

#define SKYLAKE 0x506E3u   /* family 6 model 5EH */
#define EIST (1u << 7)

static void test_intel_turbo_and_perf_ctl(void)
{
	struct fake f;
	struct clockctl_result r;
	char line[400];
	fake_cpu(&f, "GenuineIntel", SKYLAKE, EIST, 1u << 1 | 1u << 2, 1, 0, 0);
	add(&f, CLK_MSR_MISC_ENABLE, 0x850089);
	add(&f, CLK_MSR_PLATFORM_INFO, 0x80838F1011C00ull); /* base ratio 1CH = 28 */
	add(&f, CLK_MSR_TURBO_RATIO_LIMIT, 0x2C2C2D2Eull);  /* one core: 2EH = 46 */
	add(&f, CLK_MSR_PERF_CTL, 0x1A00);
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
	CHECK_EQ_U64(clockctl_write(&b, &w, &r), 2, "Intel turbo=off pstate=base: two settings");
	CHECK(r.cpu.vendor == CLOCKCTL_VENDOR_INTEL && r.cpu.turbo && r.cpu.eist && r.cpu.aperfmperf && !r.cpu.hwp,
	      "CPUID.06H:EAX[1], CPUID.01H:ECX[7], CPUID.06H:ECX[0] read, no HWP");
	CHECK_STR(r.step[0].setting, "turbo", "the first step is turbo");
	CHECK_EQ_U64(r.step[0].msr, 0x1A0, "turbo is IA32_MISC_ENABLE (1A0H)");
	CHECK_EQ_U64(r.step[0].written, 0x850089 | 1ull << 38, "bit 38 Turbo Mode Disable set, the rest kept");
	CHECK(r.step[0].taken, "the read-back holds bit 38: taken");
	clockctl_step_text(&r.step[0], line, sizeof line);
	CHECK_STR(line,
		  "clock: turbo=off: IA32_MISC_ENABLE (MSR 0x1a0) 0x850089 -> wrote 0x4000850089, read back "
		  "0x4000850089: taken (bit 38 Turbo Mode Disable = 1)",
		  "the turbo line");
	CHECK_EQ_U64(r.step[1].msr, 0x199, "pstate is IA32_PERF_CTL (199H)");
	CHECK_EQ_U64(r.step[1].written, 1ull << 32 | 0x1C00, "base: MSR_PLATFORM_INFO's ratio 28 in 15:8, IDA disengaged");
	CHECK(r.step[1].taken, "IA32_PERF_CTL read back: taken");
	clockctl_step_text(&r.step[1], line, sizeof line);
	CHECK(has(line, "clock: pstate=base: IA32_PERF_CTL (MSR 0x199) 0x1a00 -> wrote 0x100001c00") &&
	      has(line, "taken (ratio 28 in bits 15:8, bit 32 IDA disengage = 1") && has(line, "IA32_PERF_STATUS"),
	      "the pstate line says the request, not the running ratio: %s", line);

	/* turbo=on pstate=max: the one-core turbo ratio, IDA engaged. */
	add(&f, CLK_MSR_MISC_ENABLE, 0x4000850089ull);
	set_leaf(&f, 6, 1u << 2, 0, 1, 0); /* with bit 38 set, CPUID.06H:EAX[1] reads 0 */
	w = (struct clockctl_want){ CLOCKCTL_ON, CLOCKCTL_PSTATE_MAX, 0 };
	clockctl_write(&b, &w, &r);
	CHECK(r.step[0].taken && r.step[0].written == 0x850089, "turbo=on clears bit 38 (present: the bit read 1)");
	CHECK_EQ_U64(r.step[1].written & 0x1FFFFFFFFull, 0x2E00, "max with turbo on: ratio 46, bit 32 clear");

	/* pstate=max with turbo off: the base ratio. */
	w = (struct clockctl_want){ CLOCKCTL_OFF, CLOCKCTL_PSTATE_MAX, 0 };
	clockctl_write(&b, &w, &r);
	CHECK_EQ_U64(r.step[1].written & 0x1FFFFFFFFull, 1ull << 32 | 0x1C00, "max with turbo off: the base ratio");

	/* pstate=RATIO above the base: IDA engaged. */
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_RATIO, 40 };
	f.nlog = 0;
	CHECK_EQ_U64(clockctl_write(&b, &w, &r), 1, "turbo=keep: only the pstate step");
	CHECK(!wrote(&f, CLK_MSR_MISC_ENABLE), "turbo=keep writes no IA32_MISC_ENABLE");
	CHECK_EQ_U64(r.step[0].written & 0x1FFFFFFFFull, 0x2800, "pstate=40: ratio 40, above the base: bit 32 clear");
	CHECK_STR(r.step[0].asked, "pstate=40", "the asked words");
}

static void test_intel_hwp(void)
{
	struct fake f;
	struct clockctl_result r;
	char line[400];
	fake_cpu(&f, "GenuineIntel", SKYLAKE, EIST, 1u << 1 | 1u << 7, 1, 0, 0);
	add(&f, CLK_MSR_MISC_ENABLE, 0x850089);
	add(&f, CLK_MSR_PM_ENABLE, 1);
	add(&f, CLK_MSR_HWP_CAPABILITIES, 0x01081C2Eull); /* lowest 1, efficient 8, guaranteed 28, highest 46 */
	add(&f, CLK_MSR_HWP_REQUEST, 0x80002E01ull);      /* EPP 80H, max 46, min 1 */
	add(&f, CLK_MSR_PERF_CTL, 0);
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_KEEP, CLOCKCTL_PSTATE_BASE, 0 };
	clockctl_write(&b, &w, &r);
	CHECK_STR(r.step[0].setting, "hwp", "HWP enabled: the hwp setting");
	CHECK_EQ_U64(r.step[0].msr, 0x774, "IA32_HWP_REQUEST (774H)");
	CHECK_EQ_U64(r.step[0].written, 0x801C1C1Cull, "minimum = maximum = desired = guaranteed 28, EPP kept");
	CHECK(r.step[0].taken, "taken");
	CHECK(!wrote(&f, CLK_MSR_PERF_CTL), "IA32_PERF_CTL is ignored with HWP: not written");
	clockctl_step_text(&r.step[0], line, sizeof line);
	CHECK(has(line, "IA32_PERF_CTL is ignored"), "the line says IA32_PERF_CTL is ignored: %s", line);
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_MAX, 0 };
	clockctl_write(&b, &w, &r);
	CHECK_EQ_U64(r.step[0].written & 0xFFFFFF, 0x2E2E2E, "max with turbo on: highest 46");
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_RATIO, 60 };
	clockctl_write(&b, &w, &r);
	CHECK(!r.step[0].attempted && has(r.step[0].why, "outside IA32_HWP_CAPABILITIES"),
	      "60 beyond highest 46: nothing written, said: %s", r.step[0].why);
}

/* QEMU TCG's Intel model: leaf 6 only ARAT, no EIST, MSR_PLATFORM_INFO
 * #GP, IA32_MISC_ENABLE readable. */
static void test_intel_tcg(void)
{
	struct fake f;
	struct clockctl_result r;
	char line[400];
	fake_cpu(&f, "GenuineIntel", SKYLAKE, 0, 1u << 2, 0, 0, 0);
	add(&f, CLK_MSR_MISC_ENABLE, 1);
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
	clockctl_write(&b, &w, &r);
	CHECK(f.nlog == 0, "no turbo, no EIST: no WRMSR at all (%d)", f.nlog);
	CHECK(!r.step[0].taken && has(r.step[0].why, "CPUID.06H:EAX[1]=0 and IA32_MISC_ENABLE[38]=0"),
	      "turbo: not taken, the CPUID bit named: %s", r.step[0].why);
	clockctl_step_text(&r.step[1], line, sizeof line);
	CHECK_STR(line,
		  "clock: pstate=base: IA32_PERF_CTL (MSR 0x199) not taken: nothing written: CPUID.01H:ECX[7]=0: no "
		  "Enhanced Intel SpeedStep Technology, so no IA32_PERF_CTL (SDM Vol. 4 table 2-2)",
		  "the pstate line under TCG");
	/* EIST said, MSR_PLATFORM_INFO faulting: the base is unknown. */
	set_leaf(&f, 1, SKYLAKE, 0, EIST, 0);
	clockctl_write(&b, &w, &r);
	CHECK(has(r.step[1].why, "the base ratio is unknown: RDMSR MSR_PLATFORM_INFO (MSR 0xce) raised #GP"),
	      "the fault named: %s", r.step[1].why);
	/* NetBurst (family 0FH) with EIST: its IA32_PERF_CTL is not a ratio in 15:8. */
	set_leaf(&f, 1, 0xF43, 0, EIST, 0);
	add(&f, CLK_MSR_PERF_CTL, 0);
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_RATIO, 20 };
	f.nlog = 0;
	clockctl_write(&b, &w, &r);
	CHECK(f.nlog == 0 && has(r.step[0].why, "family 0FH"), "family 0FH: nothing written: %s", r.step[0].why);
}

static void test_not_sticking_and_faults(void)
{
	struct fake f;
	struct clockctl_result r;
	char line[400];
	fake_cpu(&f, "GenuineIntel", SKYLAKE, EIST, 1u << 1, 0, 0, 0);
	add(&f, CLK_MSR_MISC_ENABLE, 0x850089)->swallow = 1;
	add(&f, CLK_MSR_PLATFORM_INFO, 0x1C00);
	add(&f, CLK_MSR_PERF_CTL, 0)->wr_fault = 1;
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
	clockctl_write(&b, &w, &r);
	CHECK(r.step[0].attempted && r.step[0].have_read && !r.step[0].taken, "a swallowed write: not taken");
	clockctl_step_text(&r.step[0], line, sizeof line);
	CHECK(has(line, "not taken: the bits written did not stick: read back 0x850089") && !has(line, " set"),
	      "the line: %s", line);
	CHECK(r.step[1].attempted && !r.step[1].have_read && !r.step[1].taken, "a faulting write: not taken");
	CHECK(has(r.step[1].why, "WRMSR IA32_PERF_CTL (MSR 0x199) <- 0x100001c00 raised #GP"), "the fault: %s",
	      r.step[1].why);
	CHECK_EQ_U64(r.writes, 2, "two WRMSRs executed");
}

#define ZEN3 0xA20F10u    /* family 19h model 21H */
#define CPB (1u << 9)
#define CPPC (1u << 27)

static uint64_t amd_def(uint32_t fid, uint32_t dfs)
{
	return 1ull << 63 | (uint64_t)dfs << 8 | fid;
}

static void test_amd(void)
{
	struct fake f;
	struct clockctl_result r;
	char line[400];
	fake_cpu(&f, "AuthenticAMD", ZEN3, 0, 1u << 2, 1, CPB | 1u << 8, 0);
	add(&f, CLK_MSR_AMD_HWCR, 0x40000000ull | 1ull << 24);
	add(&f, CLK_MSR_AMD_PSTATE_LIMIT, 0x20);              /* PstateMaxVal 2, limit P0 */
	add(&f, CLK_MSR_AMD_PSTATE_DEF0, amd_def(0x88, 8));   /* 136 / 8 x 200 = 3400 MHz */
	add(&f, CLK_MSR_AMD_PSTATE_DEF0 + 1, amd_def(0x70, 8)); /* 2800 MHz */
	add(&f, CLK_MSR_AMD_PSTATE_DEF0 + 2, amd_def(0x60, 0xC)); /* 1600 MHz */
	add(&f, CLK_MSR_AMD_PSTATE_CTL, 2);
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
	clockctl_write(&b, &w, &r);
	CHECK(r.cpu.vendor == CLOCKCTL_VENDOR_AMD && r.cpu.cpb && r.cpu.family == 0x19, "AMD 19h with CPB");
	CHECK_EQ_U64(r.step[0].msr, 0xC0010015u, "turbo is HWCR");
	CHECK_EQ_U64(r.step[0].written, 0x40000000ull | 1ull << 24 | 1ull << 25, "CpbDis (bit 25) set, the rest kept");
	CHECK(r.step[0].taken, "taken");
	CHECK_EQ_U64(r.step[1].msr, 0xC0010062u, "pstate is P-state Control");
	CHECK_EQ_U64(r.step[1].written, 0, "base: PstateCmd = P0");
	clockctl_step_text(&r.step[1], line, sizeof line);
	CHECK(has(line, "taken (PstateCmd (bits 2:0) = P0, 3400 MHz; boost off)"), "the line: %s", line);
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_RATIO, 28 };
	clockctl_write(&b, &w, &r);
	CHECK_EQ_U64(r.step[0].written, 1, "pstate=28: the P-state at 2800 MHz, P1");
	w.ratio = 31;
	clockctl_write(&b, &w, &r);
	CHECK(!r.step[0].attempted &&
		      has(r.step[0].why, "no enabled P-state runs at 31 x 100 MHz (P0 3400 MHz, P1 2800 MHz, P2 1600 MHz)"),
	      "pstate=31: nothing written, the P-states listed: %s", r.step[0].why);
	CHECK_EQ_U64(clockctl_amd_cof_mhz(0x1A, 1ull << 63 | 700), 3500, "family 1Ah: CpuFid 700 x 5 MHz");
	CHECK_EQ_U64(clockctl_amd_cof_mhz(0x19, 0x808), 0, "PstateEn clear: no frequency");
	CHECK_EQ_U64(clockctl_amd_cof_mhz(0x15, amd_def(0x10, 1)), 0, "family 15h: encoding not known here");

	/* CPPC enabled: CPPC_REQ, the P-state control untouched. */
	set_leaf(&f, 0x80000008u, 0, CPPC, 0, 0);
	add(&f, CLK_MSR_AMD_CPPC_ENABLE, 1);
	add(&f, CLK_MSR_AMD_CPPC_CAP1, 0x0A3C78A6ull); /* highest A6H, nominal 78H */
	add(&f, CLK_MSR_AMD_CPPC_REQ, 0x8000FFA6ull);
	w = (struct clockctl_want){ CLOCKCTL_KEEP, CLOCKCTL_PSTATE_BASE, 0 };
	f.nlog = 0;
	clockctl_write(&b, &w, &r);
	CHECK_EQ_U64(r.step[0].msr, 0xC00102B3u, "CPPC enabled: CPPC_REQ");
	CHECK_EQ_U64(r.step[0].written, 0x80787878ull, "maximum = minimum = desired = nominal 78H, EPP kept");
	CHECK(!wrote(&f, CLK_MSR_AMD_PSTATE_CTL), "the P-state control untouched under CPPC");

	/* No CPB: nothing written. */
	fake_cpu(&f, "AuthenticAMD", ZEN3, 0, 1u << 2, 0, 0, 0);
	add(&f, CLK_MSR_AMD_HWCR, 0);
	w = (struct clockctl_want){ CLOCKCTL_OFF, CLOCKCTL_PSTATE_KEEP, 0 };
	clockctl_write(&b, &w, &r);
	CHECK(f.nlog == 0 && has(r.step[0].why, "CPUID.80000007H:EDX[9]=0"), "no CPB: said, nothing written: %s",
	      r.step[0].why);
}

static void test_keep_and_other_vendor(void)
{
	struct fake f;
	struct clockctl_result r;
	fake_cpu(&f, "GenuineIntel", SKYLAKE, EIST, 1u << 1, 1, 0, 0);
	struct pmu_backend b = backend(&f);
	struct clockctl_want w = { CLOCKCTL_KEEP, CLOCKCTL_PSTATE_KEEP, 0 };
	CHECK_EQ_U64(clockctl_write(&b, &w, &r), 0, "keep, keep: no step");
	CHECK_EQ_U64(f.accesses, 0, "keep, keep: no MSR touched");
	fake_cpu(&f, "CentaurHauls", 0x6F0, EIST, 1u << 1, 1, 0, 0);
	w = (struct clockctl_want){ CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
	CHECK_EQ_U64(clockctl_write(&b, &w, &r), 2, "another vendor: two steps");
	CHECK(f.accesses == 0 && r.step[0].msr == 0 && has(r.step[1].why, "vendor CentaurHauls"),
	      "another vendor: no MSR, said why: %s", r.step[1].why);
	CHECK_EQ_U64(clockctl_hz_of(2400000000ull, 3000000, 2400000), 3000000000ull, "core clock = TSC x 1.25");
	CHECK_EQ_U64(clockctl_hz_of(2400000000ull, 3ull << 40, 3ull << 40), 2400000000ull, "large counts halved");
	CHECK_EQ_U64(clockctl_hz_of(2400000000ull, 5, 0), 0, "den 0: 0");
	char t[64];
	CHECK_STR(clockctl_clock_text(t, sizeof t, 2400000000ull, 1208333, 1000000), "2.90 GHz = TSC x 1.208",
		  "turbo on: 2.9 GHz on a 2.4 GHz TSC");
	CHECK_STR(clockctl_clock_text(t, sizeof t, 2400000000ull, 4194304, 4194304), "2.40 GHz = TSC x 1.000",
		  "turbo off at base: the TSC's rate");
	CHECK_STR(clockctl_clock_text(t, sizeof t, 2399000000ull, 19995, 20000), "2.40 GHz = TSC x 1.000",
		  "rounded half up: 2.3984 GHz and 0.99975");
	CHECK_STR(clockctl_clock_text(t, sizeof t, 2400000000ull, 1, 0), "0.00 GHz = TSC x 0.000", "den 0");
}

/* Every dump: turbo=off pstate=base on its boot CPU with MSRs that read 0
 * and keep what is written (PLATFORM_INFO base 28, P0 enabled): no crash,
 * every step taken or saying why, and the control chosen as CPUID says. */
static void test_corpus(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path);
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	int misc = 0, hwcr = 0, perf_ctl = 0, hwp = 0, amd_ctl = 0, none = 0, intel = 0, amd = 0;
	for (int i = 0; i < n; i++) {
		struct fake f;
		memset(&f, 0, sizeof f);
		f.dump = &dumps[i].cpus[0];
		f.sticky = 1;
		add(&f, CLK_MSR_PLATFORM_INFO, 0x1C00);
		add(&f, CLK_MSR_PM_ENABLE, 1);
		add(&f, CLK_MSR_HWP_CAPABILITIES, 0x01081C2Eull);
		add(&f, CLK_MSR_AMD_PSTATE_DEF0, amd_def(0x88, 8));
		struct pmu_backend b = backend(&f);
		struct clockctl_want w = { CLOCKCTL_OFF, CLOCKCTL_PSTATE_BASE, 0 };
		struct clockctl_result r;
		CHECK_EQ_U64(clockctl_write(&b, &w, &r), 2, "%s: a turbo and a pstate step", dumps[i].name);
		uint32_t l6[4], l1[4], l87[4];
		dump_cpuid(f.dump, 6, 0, l6);
		dump_cpuid(f.dump, 1, 0, l1);
		dump_cpuid(f.dump, 0x80000007u, 0, l87);
		int six = f.dump->max_basic >= 6;
		intel += r.cpu.vendor == CLOCKCTL_VENDOR_INTEL;
		amd += r.cpu.vendor == CLOCKCTL_VENDOR_AMD;
		for (int k = 0; k < r.n; k++) {
			const struct clockctl_step *s = &r.step[k];
			CHECK(s->taken || s->why[0], "%s: step %s not taken says why", dumps[i].name, s->asked);
			if (!s->taken)
				continue;
			misc += s->msr == CLK_MSR_MISC_ENABLE;
			hwcr += s->msr == CLK_MSR_AMD_HWCR;
			perf_ctl += s->msr == CLK_MSR_PERF_CTL;
			hwp += s->msr == CLK_MSR_HWP_REQUEST;
			amd_ctl += s->msr == CLK_MSR_AMD_PSTATE_CTL;
		}
		if (r.cpu.vendor == CLOCKCTL_VENDOR_INTEL) {
			CHECK(r.step[0].taken == (six && ((l6[0] >> 1) & 1)),
			      "%s: IA32_MISC_ENABLE[38] written exactly where CPUID.06H:EAX[1]", dumps[i].name);
			int want_hwp = six && ((l6[0] >> 7) & 1);
			CHECK(r.step[1].msr == (want_hwp ? CLK_MSR_HWP_REQUEST : CLK_MSR_PERF_CTL),
			      "%s: HWP_REQUEST where CPUID.06H:EAX[7], else IA32_PERF_CTL", dumps[i].name);
			CHECK(want_hwp || r.step[1].taken == (int)(((l1[2] >> 7) & 1) && r.cpu.family != 0xF),
			      "%s: IA32_PERF_CTL written exactly where CPUID.01H:ECX[7], family not 0FH", dumps[i].name);
		} else if (r.cpu.vendor == CLOCKCTL_VENDOR_AMD) {
			int cpb = f.dump->max_ext >= 0x80000007u && ((l87[3] >> 9) & 1);
			CHECK(r.step[0].taken == cpb, "%s: HWCR[25] written exactly where CPUID.80000007H:EDX[9]",
			      dumps[i].name);
		} else {
			none++;
		}
	}
	printf("corpus: %d dumps: %d Intel, %d AMD/Hygon, %d other; turbo by IA32_MISC_ENABLE %d, by HWCR %d; "
	       "pstate by IA32_PERF_CTL %d, by IA32_HWP_REQUEST %d, by P-state Control %d\n",
	       n, intel, amd, none, misc, hwcr, perf_ctl, hwp, amd_ctl);
	CHECK(misc > 100 && hwcr > 50 && perf_ctl > 100 && hwp > 10 && amd_ctl > 100,
	      "the corpus exercises every control (%d %d %d %d %d)", misc, hwcr, perf_ctl, hwp, amd_ctl);
	if (n > 0)
		dump_free(dumps, n);
}

int main(void)
{
	test_intel_turbo_and_perf_ctl();
	test_intel_hwp();
	test_intel_tcg();
	test_not_sticking_and_faults();
	test_amd();
	test_keep_and_other_vendor();
	test_corpus();
	return check_summary("clockctl");
}

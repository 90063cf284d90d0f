/* lib/clockctl.c - see clockctl.h. */
#include "clockctl.h"
#include "cpuinfo.h"
#include "fmt.h"
#include "pmu_access.h"
#include "string.h"

static void leaf(const struct pmu_backend *b, uint32_t max, uint32_t l, uint32_t r[4])
{
	r[0] = r[1] = r[2] = r[3] = 0;
	if (l <= max)
		b->cpuid(b->ctx, l, 0, r);
}

void clockctl_probe(const struct pmu_backend *b, struct clockctl_cpu *c)
{
	uint32_t r[4];
	memset(c, 0, sizeof *c);
	b->cpuid(b->ctx, 0, 0, r);
	uint32_t max = r[0];
	cpuinfo_regs_str(c->vendor_str, r[1], r[3], r[2]);
	if (!memcmp(c->vendor_str, "GenuineIntel", 12))
		c->vendor = CLOCKCTL_VENDOR_INTEL;
	else if (!memcmp(c->vendor_str, "AuthenticAMD", 12) || !memcmp(c->vendor_str, "HygonGenuine", 12))
		c->vendor = CLOCKCTL_VENDOR_AMD;
	leaf(b, max, 1, r);
	c->family = cpuinfo_family(r[0]);
	c->model = cpuinfo_model(c->vendor_str, r[0]);
	c->eist = (r[2] >> 7) & 1;
	leaf(b, max, 6, r);
	c->turbo = (r[0] >> 1) & 1;
	c->hwp = (r[0] >> 7) & 1;
	c->aperfmperf = r[2] & 1;
	b->cpuid(b->ctx, 0x80000000u, 0, r);
	uint32_t max_ext = r[0] >= 0x80000000u && r[0] < 0x8000FFFFu ? r[0] : 0;
	if (max_ext >= 0x80000007u) {
		b->cpuid(b->ctx, 0x80000007u, 0, r);
		c->cpb = c->vendor == CLOCKCTL_VENDOR_AMD && ((r[3] >> 9) & 1);
	}
	if (max_ext >= 0x80000008u) {
		b->cpuid(b->ctx, 0x80000008u, 0, r);
		c->cppc = c->vendor == CLOCKCTL_VENDOR_AMD && ((r[1] >> 27) & 1);
	}
}

uint32_t clockctl_amd_cof_mhz(uint32_t family, uint64_t def)
{
	if (!(def >> 63))
		return 0;
	if (family == 0x17 || family == 0x18 || family == 0x19) {
		uint32_t fid = (uint32_t)def & 0xFF, dfs = (uint32_t)(def >> 8) & 0x3F;
		return dfs ? fid * 200 / dfs : 0;
	}
	if (family == 0x1A)
		return ((uint32_t)def & 0xFFF) * 5;
	return 0;
}

uint64_t clockctl_hz_of(uint64_t tsc_hz, uint64_t num, uint64_t den)
{
	while (num >= (1ull << 30) || den >= (1ull << 30)) {
		num >>= 1;
		den >>= 1;
	}
	return den ? tsc_hz * num / den : 0;
}

char *clockctl_clock_text(char *buf, size_t size, uint64_t tsc_hz, uint64_t num, uint64_t den)
{
	uint64_t c = (clockctl_hz_of(tsc_hz, num, den) + 5000000) / 10000000; /* 10 MHz */
	uint64_t m = (clockctl_hz_of(2000, num, den) + 1) / 2;                /* thousandths */
	fmt_format(buf, size, "%llu.%02llu GHz = TSC x %llu.%03llu", (unsigned long long)(c / 100),
		   (unsigned long long)(c % 100), (unsigned long long)(m / 1000), (unsigned long long)(m % 1000));
	return buf;
}

/* The MSR names this file writes or reads, for the lines. */
static const char *msr_name(uint32_t msr)
{
	switch (msr) {
	case CLK_MSR_PLATFORM_INFO: return "MSR_PLATFORM_INFO";
	case CLK_MSR_PERF_CTL: return "IA32_PERF_CTL";
	case CLK_MSR_MISC_ENABLE: return "IA32_MISC_ENABLE";
	case CLK_MSR_TURBO_RATIO_LIMIT: return "MSR_TURBO_RATIO_LIMIT";
	case CLK_MSR_PM_ENABLE: return "IA32_PM_ENABLE";
	case CLK_MSR_HWP_CAPABILITIES: return "IA32_HWP_CAPABILITIES";
	case CLK_MSR_HWP_REQUEST: return "IA32_HWP_REQUEST";
	case CLK_MSR_AMD_HWCR: return "HWCR";
	case CLK_MSR_AMD_PSTATE_LIMIT: return "P-state Current Limit";
	case CLK_MSR_AMD_PSTATE_CTL: return "P-state Control";
	case CLK_MSR_AMD_CPPC_CAP1: return "CPPC_CAP1";
	case CLK_MSR_AMD_CPPC_ENABLE: return "CPPC_ENABLE";
	case CLK_MSR_AMD_CPPC_REQ: return "CPPC_REQ";
	}
	if (msr >= CLK_MSR_AMD_PSTATE_DEF0 && msr < CLK_MSR_AMD_PSTATE_DEF0 + 8)
		return "P-state definition";
	return "MSR";
}

/* One RDMSR: 0, or the fault said into why ("RDMSR MSR_PLATFORM_INFO (MSR
 * 0xce) raised #GP"). */
static int rd(const struct pmu_backend *b, uint32_t msr, uint64_t *v, char *why, size_t size)
{
	int f = b->rdmsr(b->ctx, msr, v);
	if (f) {
		char fb[24];
		*v = 0;
		fmt_format(why, size, "RDMSR %s (MSR 0x%x) raised %s", msr_name(msr), msr,
			   pmu_fault_str(b, f, fb, sizeof fb));
	}
	return f;
}

static struct clockctl_step *step_new(struct clockctl_result *r, const char *setting, const char *asked,
				      uint32_t msr)
{
	struct clockctl_step *s = &r->step[r->n++];
	memset(s, 0, sizeof *s);
	s->setting = setting;
	fmt_format(s->asked, sizeof s->asked, "%s", asked);
	s->msr = msr;
	s->msr_name = msr ? msr_name(msr) : 0;
	return s;
}

/* The write: before (read), before with mask's bits replaced by value,
 * the read-back; taken when the read-back's mask bits are value. */
static void write_bits(const struct pmu_backend *b, struct clockctl_result *r, struct clockctl_step *s,
		       uint64_t mask, uint64_t value)
{
	char fb[24];
	if (rd(b, s->msr, &s->before, s->why, sizeof s->why))
		return;
	s->have_before = 1;
	s->written = (s->before & ~mask) | value;
	s->attempted = 1;
	r->writes++;
	int f = b->wrmsr(b->ctx, s->msr, s->written);
	if (f) {
		fmt_format(s->why, sizeof s->why, "WRMSR %s (MSR 0x%x) <- 0x%llx raised %s", s->msr_name, s->msr,
			   (unsigned long long)s->written, pmu_fault_str(b, f, fb, sizeof fb));
		return;
	}
	if (rd(b, s->msr, &s->read, s->why, sizeof s->why))
		return;
	s->have_read = 1;
	s->taken = (s->read & mask) == value;
	if (!s->taken)
		fmt_format(s->why, sizeof s->why,
			   "the bits written did not stick: read back 0x%llx where 0x%llx was written (mask 0x%llx)",
			   (unsigned long long)s->read, (unsigned long long)s->written, (unsigned long long)mask);
}

/* The turbo switch: one bit of one MSR that disables it (Intel
 * IA32_MISC_ENABLE[38] Turbo Mode Disable, AMD HWCR[25] CpbDis), present
 * where CPUID says so or the bit reads 1. Returns 1 when turbo is enabled
 * after it, 0 when not (absent or disabled), -1 unknown (unreadable). */
struct turbo_switch {
	uint32_t msr;
	uint64_t bit;
	int cpuid;            /* the CPUID bit that offers it */
	const char *what;     /* "bit 38 Turbo Mode Disable = %d" */
	const char *absent;   /* why nothing is written when absent */
};

static int turbo(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r,
		 const struct turbo_switch *t)
{
	uint64_t v;
	char why[160];
	int err = rd(b, t->msr, &v, why, sizeof why);
	int present = t->cpuid || (!err && (v & t->bit));
	if (w->turbo == CLOCKCTL_KEEP)
		return err ? -1 : present && !(v & t->bit);
	struct clockctl_step *s = step_new(r, "turbo", w->turbo == CLOCKCTL_OFF ? "turbo=off" : "turbo=on", t->msr);
	if (err) {
		fmt_format(s->why, sizeof s->why, "%s", why);
		return -1;
	}
	if (!present) {
		s->have_before = 1;
		s->before = v;
		fmt_format(s->why, sizeof s->why, "nothing written: %s", t->absent);
		return 0;
	}
	int off = w->turbo == CLOCKCTL_OFF;
	fmt_format(s->what, sizeof s->what, t->what, off);
	write_bits(b, r, s, t->bit, off ? t->bit : 0);
	if (!s->have_read)
		return -1;
	return !(s->read & t->bit);
}

static int intel_turbo(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r)
{
	const struct turbo_switch t = {
		CLK_MSR_MISC_ENABLE, CLK_MISC_TURBO_DISABLE, r->cpu.turbo, "bit 38 Turbo Mode Disable = %d",
		"CPUID.06H:EAX[1]=0 and IA32_MISC_ENABLE[38]=0: this CPU has no turbo mode to switch (SDM Vol. "
		"3B, Opportunistic Processor Performance Operation)"
	};
	return turbo(b, w, r, &t);
}

static int amd_turbo(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r)
{
	const struct turbo_switch t = {
		CLK_MSR_AMD_HWCR, CLK_HWCR_CPBDIS, r->cpu.cpb, "bit 25 CpbDis = %d",
		"CPUID.80000007H:EDX[9]=0 (no Core Performance Boost) and HWCR[25] CpbDis=0 (APM Vol. 3 CPUID "
		"Fn8000_0007)"
	};
	return turbo(b, w, r, &t);
}

static void intel_pstate_text(char *asked, size_t size, const struct clockctl_want *w)
{
	if (w->pstate == CLOCKCTL_PSTATE_RATIO)
		fmt_format(asked, size, "pstate=%u", w->ratio);
	else
		fmt_format(asked, size, "pstate=%s", w->pstate == CLOCKCTL_PSTATE_BASE ? "base" : "max");
}

/* Intel with HWP enabled: IA32_HWP_REQUEST minimum = maximum = desired. */
static void intel_hwp(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r,
		      int turbo_on, const char *asked)
{
	struct clockctl_step *s = step_new(r, "hwp", asked, CLK_MSR_HWP_REQUEST);
	uint64_t caps;
	if (rd(b, CLK_MSR_HWP_CAPABILITIES, &caps, s->why, sizeof s->why))
		return;
	unsigned highest = (unsigned)caps & 0xFF, guaranteed = (unsigned)(caps >> 8) & 0xFF,
		 lowest = (unsigned)(caps >> 24) & 0xFF;
	unsigned p = w->pstate == CLOCKCTL_PSTATE_RATIO ? w->ratio
		     : w->pstate == CLOCKCTL_PSTATE_BASE || turbo_on == 0 ? guaranteed : highest;
	if (p < lowest || p > highest || !p) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: performance level %u is outside IA32_HWP_CAPABILITIES' lowest %u .. "
			   "highest %u (SDM Vol. 3B 15.4.3)", p, lowest, highest);
		return;
	}
	fmt_format(s->what, sizeof s->what,
		   "minimum = maximum = desired = %u (bits 7:0, 15:8, 23:16; HWP enabled: IA32_PERF_CTL is ignored)",
		   p);
	write_bits(b, r, s, 0xFFFFFFull, (uint64_t)p | (uint64_t)p << 8 | (uint64_t)p << 16);
}

static void intel_pstate(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r,
			 int turbo_on)
{
	char asked[24], why[160];
	intel_pstate_text(asked, sizeof asked, w);
	uint64_t pm = 0;
	if (r->cpu.hwp && !rd(b, CLK_MSR_PM_ENABLE, &pm, why, sizeof why) && (pm & 1)) {
		intel_hwp(b, w, r, turbo_on, asked);
		return;
	}
	struct clockctl_step *s = step_new(r, "pstate", asked, CLK_MSR_PERF_CTL);
	if (!r->cpu.eist) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: CPUID.01H:ECX[7]=0: no Enhanced Intel SpeedStep Technology, so no "
			   "IA32_PERF_CTL (SDM Vol. 4 table 2-2)");
		return;
	}
	if (r->cpu.family == 0xF) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: family 0FH (NetBurst): IA32_PERF_CTL's bits 15:0 are not a ratio in "
			   "15:8 there (SDM Vol. 4 table 2-2: model specific)");
		return;
	}
	uint64_t info;
	unsigned base = 0;
	int base_err = rd(b, CLK_MSR_PLATFORM_INFO, &info, why, sizeof why);
	if (!base_err)
		base = (unsigned)(info >> 8) & 0xFF;
	if (!base_err && !base)
		fmt_format(why, sizeof why, "MSR_PLATFORM_INFO[15:8] (the maximum non-turbo ratio) reads 0");
	unsigned ratio = w->ratio;
	if (w->pstate != CLOCKCTL_PSTATE_RATIO && !base) {
		fmt_format(s->why, sizeof s->why, "nothing written: the base ratio is unknown: %s", why);
		return;
	}
	if (w->pstate == CLOCKCTL_PSTATE_BASE)
		ratio = base;
	if (w->pstate == CLOCKCTL_PSTATE_MAX) {
		ratio = base;
		if (turbo_on > 0) {
			uint64_t lim;
			int lim_err = rd(b, CLK_MSR_TURBO_RATIO_LIMIT, &lim, why, sizeof why);
			if (lim_err || !(lim & 0xFF)) {
				fmt_format(s->why, sizeof s->why,
					   "nothing written: turbo is on but its one-core ratio is unknown: %s",
					   lim_err ? why : "MSR_TURBO_RATIO_LIMIT[7:0] reads 0");
				return;
			}
			ratio = (unsigned)lim & 0xFF;
		}
	}
	/* Above the base ratio only with IDA engaged (bit 32 clear). */
	int disengage = base && ratio <= base;
	fmt_format(s->what, sizeof s->what, "ratio %u in bits 15:8, bit 32 IDA disengage = %d%s", ratio, disengage,
		   w->pstate == CLOCKCTL_PSTATE_MAX && turbo_on > 0 ? " (MSR_TURBO_RATIO_LIMIT[7:0])"
		   : base ? " (MSR_PLATFORM_INFO[15:8] is the base)" : "");
	write_bits(b, r, s, CLK_PERF_CTL_IDA_DISENGAGE | 0xFF00ull,
		   (disengage ? CLK_PERF_CTL_IDA_DISENGAGE : 0) | (uint64_t)ratio << 8);
	if (s->taken)
		fmt_format(s->why, sizeof s->why,
			   "IA32_PERF_CTL holds the request; the ratio the core runs at is the hardware's "
			   "(IA32_PERF_STATUS, the core clock below)");
}

/* AMD with CPPC enabled: CPPC_REQ maximum = minimum = desired. */
static void amd_cppc(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r,
		     int boost_on, const char *asked)
{
	struct clockctl_step *s = step_new(r, "pstate", asked, CLK_MSR_AMD_CPPC_REQ);
	if (w->pstate == CLOCKCTL_PSTATE_RATIO) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: CPPC is enabled (CPPC_ENABLE[0]=1): the P-state control is the "
			   "firmware's, and a ratio is not a CPPC performance level (use base or max)");
		return;
	}
	uint64_t cap;
	if (rd(b, CLK_MSR_AMD_CPPC_CAP1, &cap, s->why, sizeof s->why))
		return;
	unsigned highest = (unsigned)cap & 0xFF, nominal = (unsigned)(cap >> 8) & 0xFF;
	unsigned p = w->pstate == CLOCKCTL_PSTATE_MAX && boost_on != 0 ? highest : nominal;
	if (!p) {
		fmt_format(s->why, sizeof s->why, "nothing written: CPPC_CAP1 gives performance level 0 (0x%llx)",
			   (unsigned long long)cap);
		return;
	}
	fmt_format(s->what, sizeof s->what,
		   "maximum = minimum = desired = %u (bits 7:0, 15:8, 23:16; CPPC_CAP1 %s; CPPC enabled: "
		   "the P-state control is not used)", p, p == highest ? "highest" : "nominal");
	write_bits(b, r, s, 0xFFFFFFull, (uint64_t)p | (uint64_t)p << 8 | (uint64_t)p << 16);
}

static void amd_pstate(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r,
		       int boost_on)
{
	char asked[24], why[160];
	intel_pstate_text(asked, sizeof asked, w);
	uint64_t en = 0;
	if (r->cpu.cppc && !rd(b, CLK_MSR_AMD_CPPC_ENABLE, &en, why, sizeof why) && (en & 1)) {
		amd_cppc(b, w, r, boost_on, asked);
		return;
	}
	struct clockctl_step *s = step_new(r, "pstate", asked, CLK_MSR_AMD_PSTATE_CTL);
	if (r->cpu.family < 0x10) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: family 0x%x has no P-state MSRs C001_0061H-C001_006BH (from family 10h)",
			   r->cpu.family);
		return;
	}
	uint64_t lim, def[8];
	if (rd(b, CLK_MSR_AMD_PSTATE_LIMIT, &lim, s->why, sizeof s->why))
		return;
	unsigned maxval = (unsigned)(lim >> 4) & 7, curlim = (unsigned)lim & 7;
	int target = -1;
	char list[120];
	size_t used = 0;
	list[0] = 0;
	for (unsigned i = 0; i <= maxval; i++) {
		if (rd(b, CLK_MSR_AMD_PSTATE_DEF0 + i, &def[i], s->why, sizeof s->why))
			return;
		uint32_t mhz = clockctl_amd_cof_mhz(r->cpu.family, def[i]);
		if (def[i] >> 63 && used < sizeof list)
			used += (size_t)fmt_format(list + used, sizeof list - used, "%sP%u %u MHz", used ? ", " : "",
						   i, mhz);
		if (w->pstate == CLOCKCTL_PSTATE_RATIO && (def[i] >> 63) && mhz && mhz == w->ratio * 100u &&
		    target < 0)
			target = (int)i;
	}
	if (w->pstate != CLOCKCTL_PSTATE_RATIO)
		target = 0;
	if (target < 0) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: no enabled P-state runs at %u x 100 MHz (%s%s)", w->ratio,
			   list[0] ? list : "no P-state with PstateEn and a known frequency",
			   clockctl_amd_cof_mhz(r->cpu.family, 1ull << 63 | 0x808) ? ""
			   : "; this family's FID/DID encoding is not known here");
		return;
	}
	if (!(def[target] >> 63)) {
		fmt_format(s->why, sizeof s->why,
			   "nothing written: P%d's definition (MSR 0x%x) has PstateEn (bit 63) clear", target,
			   CLK_MSR_AMD_PSTATE_DEF0 + (unsigned)target);
		return;
	}
	uint32_t mhz = clockctl_amd_cof_mhz(r->cpu.family, def[target]);
	char f[24];
	if (mhz)
		fmt_format(f, sizeof f, ", %u MHz", mhz);
	else
		f[0] = 0;
	fmt_format(s->what, sizeof s->what, "PstateCmd (bits 2:0) = P%d%s%s", target, f,
		   w->pstate == CLOCKCTL_PSTATE_RATIO ? ""
		   : boost_on > 0 ? "; boost above P0 stays HWCR[25]'s (turbo=)" : "; boost off");
	write_bits(b, r, s, 7, (uint64_t)target);
	if (s->taken && (unsigned)target < curlim)
		fmt_format(s->why, sizeof s->why,
			   "P-state Current Limit's CurPstateLimit is P%u: the hardware runs no faster than P%u",
			   curlim, curlim);
}

int clockctl_write(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r)
{
	memset(r, 0, sizeof *r);
	if (w->turbo == CLOCKCTL_KEEP && w->pstate == CLOCKCTL_PSTATE_KEEP)
		return 0;
	clockctl_probe(b, &r->cpu);
	if (r->cpu.vendor == CLOCKCTL_VENDOR_OTHER) {
		char asked[24];
		if (w->turbo != CLOCKCTL_KEEP) {
			struct clockctl_step *s = step_new(r, "turbo", w->turbo == CLOCKCTL_OFF ? "turbo=off" : "turbo=on", 0);
			fmt_format(s->why, sizeof s->why,
				   "nothing written: vendor %s: only Intel's and AMD's controls are documented here",
				   r->cpu.vendor_str);
		}
		if (w->pstate != CLOCKCTL_PSTATE_KEEP) {
			intel_pstate_text(asked, sizeof asked, w);
			struct clockctl_step *s = step_new(r, "pstate", asked, 0);
			fmt_format(s->why, sizeof s->why,
				   "nothing written: vendor %s: only Intel's and AMD's controls are documented here",
				   r->cpu.vendor_str);
		}
		return r->n;
	}
	int intel = r->cpu.vendor == CLOCKCTL_VENDOR_INTEL;
	int turbo_on = intel ? intel_turbo(b, w, r) : amd_turbo(b, w, r);
	if (w->pstate != CLOCKCTL_PSTATE_KEEP) {
		if (intel)
			intel_pstate(b, w, r, turbo_on);
		else
			amd_pstate(b, w, r, turbo_on);
	}
	/* A step not attempted still says its MSR's value where it reads. */
	for (int i = 0; i < r->n; i++) {
		struct clockctl_step *s = &r->step[i];
		char ignored[160];
		if (s->msr && !s->have_before && !s->attempted)
			s->have_before = !rd(b, s->msr, &s->before, ignored, sizeof ignored);
	}
	return r->n;
}

char *clockctl_step_text(const struct clockctl_step *s, char *buf, size_t size)
{
	char before[24] = "unreadable", msr[64] = "";
	if (s->have_before)
		fmt_format(before, sizeof before, "0x%llx", (unsigned long long)s->before);
	if (s->msr)
		fmt_format(msr, sizeof msr, " %s (MSR 0x%x)", s->msr_name, s->msr);
	if (s->taken)
		fmt_format(buf, size, "clock: %s:%s 0x%llx -> wrote 0x%llx, read back 0x%llx: taken (%s)%s%s", s->asked,
			   msr, (unsigned long long)s->before, (unsigned long long)s->written,
			   (unsigned long long)s->read, s->what, s->why[0] ? "; " : "", s->why);
	else if (s->attempted)
		fmt_format(buf, size, "clock: %s:%s %s -> wrote 0x%llx (%s): not taken: %s", s->asked, msr, before,
			   (unsigned long long)s->written, s->what, s->why);
	else
		fmt_format(buf, size, "clock: %s:%s not taken: %s", s->asked, msr, s->why);
	return buf;
}

/* lib/pmu.c - see pmu.h. Sections are the SDM's (Vol. 3B, "Performance
 * Monitoring", 2016-2022 numbering) unless said otherwise. */
#include "pmu.h"
#include "cpuinfo.h"
#include <stdarg.h>
#include "fmt.h"
#include "record.h"

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

static void say(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fmt_vformat(dst, size, fmt, ap);
	va_end(ap);
}

static const char *msr_name(uint32_t msr)
{
	switch (msr) {
	case PMU_MSR_FIXED_CTR0: return "IA32_FIXED_CTR0";
	case PMU_MSR_FIXED_CTR0 + 1: return "IA32_FIXED_CTR1";
	case PMU_MSR_FIXED_CTR0 + 2: return "IA32_FIXED_CTR2";
	case PMU_MSR_FIXED_CTR_CTRL: return "IA32_FIXED_CTR_CTRL";
	case PMU_MSR_PERF_GLOBAL_STATUS: return "IA32_PERF_GLOBAL_STATUS";
	case PMU_MSR_PERF_GLOBAL_CTRL: return "IA32_PERF_GLOBAL_CTRL";
	case PMU_MSR_PERF_GLOBAL_OVF_CTRL: return "IA32_PERF_GLOBAL_OVF_CTRL";
	case PMU_MSR_APERF: return "IA32_APERF";
	case PMU_MSR_AMD_HWCR: return "HWCR";
	case PMU_MSR_AMD_IRPERF: return "IRPerfCount";
	}
	return "MSR";
}

/* The fault as the backend names it ("#GP"), else its code. */
static const char *fault_str(const struct pmu_backend *b, int fault, char *buf, size_t size)
{
	if (b->fault_name)
		return b->fault_name(b->ctx, fault);
	say(buf, size, "fault 0x%x", (unsigned)fault);
	return buf;
}

/* Logged accessors: on a fault, describe it in out[] (the instruction,
 * the MSR by address and name, the value written). */
static int rd(const struct pmu_backend *b, uint32_t msr, uint64_t *v, char *out, size_t size)
{
	int f = b->rdmsr(b->ctx, msr, v);
	if (f) {
		char fb[24];
		*v = 0;
		say(out, size, "RDMSR 0x%x (%s) faulted: %s", msr, msr_name(msr),
		    fault_str(b, f, fb, sizeof fb));
	}
	return f;
}

static int wr(const struct pmu_backend *b, uint32_t msr, uint64_t v, char *out, size_t size)
{
	int f = b->wrmsr(b->ctx, msr, v);
	if (f) {
		char fb[24];
		say(out, size, "WRMSR 0x%x (%s) <- 0x%llx faulted: %s", msr, msr_name(msr),
		    (unsigned long long)v, fault_str(b, f, fb, sizeof fb));
	}
	return f;
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	say(dst, size, "%s", src);
}

/* Under pmu=force a counter CPUID denies is tried anyway; else it stays
 * absent with the reason. */
static void deny(struct pmu_info *info, enum pmu_counter_id id, const char *reason)
{
	struct pmu_counter *c = &info->ctr[id];
	if (info->mode == PMU_MODE_FORCE) {
		c->state = PMU_PRESENT;
		c->forced = 1;
		copy_str(c->cpuid_note, sizeof c->cpuid_note, reason);
		c->why[0] = '\0';
	} else {
		c->state = PMU_ABSENT;
		copy_str(c->why, sizeof c->why, reason);
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
			copy_str(reason, sizeof reason, info->arch_why);
		} else if (!(info->fixed_contig > (unsigned)i ||
			     (info->version >= 5 && ((info->fixed_mask >> i) & 1)))) {
			/* 18.2.5 / leaf 0AH: FxCtr[i] exists iff ECX[i] || EDX[4:0] > i. */
			if (info->version >= 5)
				say(reason, sizeof reason,
				    "CPUID.0AH:ECX[%d]=0 and EDX[4:0]=%u: fixed counter %d not enumerated",
				    i, info->fixed_contig, i);
			else
				say(reason, sizeof reason,
				    "CPUID.0AH:EDX[4:0]=%u: fixed counter %d not enumerated%s", info->fixed_contig,
				    i,
				    info->vendor == PMU_VENDOR_INTEL && info->hypervisor
					    ? " (early Intel processors' 3 not assumed under a hypervisor: "
					      "try pmu=force)"
					    : "");
		} else if (!valid_width(info->fixed_width)) {
			say(reason, sizeof reason, "CPUID.0AH:EDX[12:5]=%u: no valid fixed-counter width",
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
		copy_str(info->arch_why, sizeof info->arch_why, "pmu=off: not probed");
		for (int id = 0; id < PMU_NCOUNTERS; id++)
			copy_str(info->ctr[id].why, sizeof info->ctr[id].why, "pmu=off: not probed");
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
		say(info->arch_why, sizeof info->arch_why,
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
			copy_str(info->arch_why, sizeof info->arch_why,
				 "CPUID.0AH:EAX[7:0]=0: no architectural performance monitoring");
		else if (info->version == 1)
			copy_str(info->arch_why, sizeof info->arch_why,
				 "CPUID.0AH:EAX[7:0]=1: version 1 has no fixed-function counters "
				 "(CPUID.0AH:EDX is valid only when the version is > 1)");
	}
	detect_fixed(info);

	/* APERF: CPUID.06H:ECX[0], hardware coordination feedback (Vol. 3B
	 * 14.2; AMD APM Vol. 2 "effective frequency interface"). */
	if (info->max_basic < 6) {
		char reason[96];
		say(reason, sizeof reason, "CPUID max basic leaf 0x%x < 0x6: IA32_APERF not enumerated",
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
		say(reason, sizeof reason,
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

/* Every fixed counter still in the running fails with the same message. */
static void fail_fixed(struct pmu_info *info, unsigned set, const char *msg)
{
	for (int i = 0; i < PMU_NFIXED; i++)
		if ((set >> i) & 1) {
			info->ctr[i].state = PMU_FAULTED;
			copy_str(info->ctr[i].why, sizeof info->ctr[i].why, msg);
		}
}

static void note_fault(struct pmu_info *info, int *first, int f, const char *msg)
{
	if (!*first) {
		*first = f;
		copy_str(info->error, sizeof info->error, msg);
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
		if ((f = wr(b, PMU_MSR_PERF_GLOBAL_CTRL, 0, msg, sizeof msg)) ||
		    (f = wr(b, PMU_MSR_FIXED_CTR_CTRL, 0, msg, sizeof msg))) {
			fail_fixed(info, set, msg);
			note_fault(info, &first, f, msg);
			set = 0;
		}
		for (int i = 0; i < PMU_NFIXED; i++) {
			if (!((set >> i) & 1))
				continue;
			if ((f = wr(b, info->ctr[i].msr, 0, msg, sizeof msg))) {
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
		if (!(f = rd(b, PMU_MSR_PERF_GLOBAL_STATUS, &status, msg, sizeof msg))) {
			info->ovf_clear = global | (status & (PMU_OVF_BUFFER | PMU_OVF_COND_CHGD));
			f = wr(b, PMU_MSR_PERF_GLOBAL_OVF_CTRL, info->ovf_clear, msg, sizeof msg);
		}
		if (!f)
			f = wr(b, PMU_MSR_FIXED_CTR_CTRL, fixed_ctrl, msg, sizeof msg);
		if (!f)
			f = wr(b, PMU_MSR_PERF_GLOBAL_CTRL, global, msg, sizeof msg);
		if (!f)
			f = rd(b, PMU_MSR_FIXED_CTR_CTRL, &info->fixed_ctrl_read, msg, sizeof msg);
		if (!f)
			f = rd(b, PMU_MSR_PERF_GLOBAL_CTRL, &info->global_ctrl_read, msg, sizeof msg);
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
		if ((f = rd(b, c->msr, &v, msg, sizeof msg))) {
			c->state = PMU_FAULTED;
			copy_str(c->why, sizeof c->why, msg);
			note_fault(info, &first, f, msg);
		} else {
			c->state = PMU_PROGRAMMED;
		}
	}

	c = &info->ctr[PMU_IRPERF];
	if (c->state == PMU_PRESENT) {
		uint64_t hwcr = 0, v;
		f = rd(b, PMU_MSR_AMD_HWCR, &hwcr, msg, sizeof msg);
		if (!f && !(hwcr & PMU_HWCR_IRPERF_EN))
			f = wr(b, PMU_MSR_AMD_HWCR, hwcr | PMU_HWCR_IRPERF_EN, msg, sizeof msg);
		if (!f)
			f = rd(b, c->msr, &v, msg, sizeof msg);
		if (f) {
			c->state = PMU_FAULTED;
			copy_str(c->why, sizeof c->why, msg);
			note_fault(info, &first, f, msg);
		} else {
			c->state = PMU_PROGRAMMED;
		}
	}
	info->program_fault = first;
	return first;
}

uint64_t pmu_delta(uint64_t a, uint64_t b, unsigned width)
{
	uint64_t d = b - a;
	if (width >= 1 && width < 64)
		d &= (1ull << width) - 1;
	return d;
}

enum pmu_verdict pmu_check_counting(enum pmu_kind kind, uint64_t before, uint64_t after,
				    unsigned width, uint64_t loop_insns, uint64_t *delta)
{
	uint64_t d = pmu_delta(before, after, width);
	if (delta)
		*delta = d;
	if (d == 0)
		return PMU_VERDICT_STILL;
	if (kind == PMU_KIND_CYCLES)
		return PMU_VERDICT_COUNTING;
	if (d < loop_insns)
		return PMU_VERDICT_TOO_FEW;
	uint64_t max = loop_insns > UINT64_MAX / PMU_CHECK_MAX_RATIO ? UINT64_MAX
								     : loop_insns * PMU_CHECK_MAX_RATIO;
	if (loop_insns && d > max)
		return PMU_VERDICT_TOO_MANY;
	return PMU_VERDICT_COUNTING;
}

const char *pmu_verdict_string(enum pmu_verdict v)
{
	switch (v) {
	case PMU_VERDICT_COUNTING: return "counting";
	case PMU_VERDICT_STILL: return "does not move";
	case PMU_VERDICT_TOO_FEW: return "counts fewer instructions than the loop retires";
	case PMU_VERDICT_TOO_MANY: return "counts more than 4x the instructions the loop retires";
	}
	return "?";
}

const char *pmu_state_string(enum pmu_state s)
{
	switch (s) {
	case PMU_ABSENT: return "absent";
	case PMU_PRESENT: return "present";
	case PMU_FAULTED: return "faulted";
	case PMU_PROGRAMMED: return "programmed";
	case PMU_NOT_COUNTING: return "not counting";
	case PMU_COUNTING: return "counting";
	}
	return "?";
}

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
		copy_str(c->rdpmc_why, sizeof c->rdpmc_why, "RDPMC not checked (no backend)");
		return;
	}
	if (rd(b, c->msr, &a, msg, sizeof msg)) {
		copy_str(c->rdpmc_why, sizeof c->rdpmc_why, msg);
		return;
	}
	int f = b->rdpmc(b->ctx, c->rdpmc_ecx, &p);
	if (rd(b, c->msr, &z, msg, sizeof msg)) {
		copy_str(c->rdpmc_why, sizeof c->rdpmc_why, msg);
		return;
	}
	if (f) {
		char fb[24];
		say(c->rdpmc_why, sizeof c->rdpmc_why, "RDPMC 0x%x faulted: %s", c->rdpmc_ecx,
		    fault_str(b, f, fb, sizeof fb));
		return;
	}
	if (pmu_delta(a, p, c->width) > pmu_delta(a, z, c->width)) {
		say(c->rdpmc_why, sizeof c->rdpmc_why,
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
		if (rd(b, c->msr, &before[id], msg, sizeof msg)) {
			c->state = PMU_FAULTED;
			copy_str(c->why, sizeof c->why, msg);
		}
	}
	loop(loop_ctx);
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		struct pmu_counter *c = &info->ctr[id];
		uint64_t after;
		if (!checkable(c))
			continue;
		if (rd(b, c->msr, &after, msg, sizeof msg)) {
			c->state = PMU_FAULTED;
			copy_str(c->why, sizeof c->why, msg);
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
		char hint[112];
		hint[0] = '\0';
		if (id < PMU_NFIXED && info->fixed_ctrl_read != info->fixed_ctrl)
			say(hint, sizeof hint, "; %s reads back 0x%llx after 0x%llx was written",
			    msr_name(PMU_MSR_FIXED_CTR_CTRL), (unsigned long long)info->fixed_ctrl_read,
			    (unsigned long long)info->fixed_ctrl);
		else if (id < PMU_NFIXED && info->global_ctrl_read != info->global_ctrl)
			say(hint, sizeof hint, "; %s reads back 0x%llx after 0x%llx was written",
			    msr_name(PMU_MSR_PERF_GLOBAL_CTRL), (unsigned long long)info->global_ctrl_read,
			    (unsigned long long)info->global_ctrl);
		say(c->why, sizeof c->why,
		    "not counting: MSR 0x%x %s (+%llu over a loop of %llu instructions)%s", c->msr,
		    pmu_verdict_string(v), (unsigned long long)c->check_delta,
		    (unsigned long long)loop_insns, hint);
	}
	for (int id = 0; id < PMU_NFIXED; id++)
		if (info->ctr[id].state == PMU_COUNTING)
			check_rdpmc(b, &info->ctr[id]);
	return n;
}

int pmu_usable(const struct pmu_info *info, enum pmu_counter_id id)
{
	return (unsigned)id < PMU_NCOUNTERS && info->ctr[id].state == PMU_COUNTING;
}

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
		say(forced, sizeof forced, "; forced by pmu=force although %s", c->cpuid_note);
	switch (c->state) {
	case PMU_COUNTING: {
		char rdpmc[140];
		rdpmc[0] = '\0';
		if (c->has_rdpmc)
			say(rdpmc, sizeof rdpmc, ", RDPMC %s%s", c->rdpmc_ok ? "ok" : "not usable: ",
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
		say(line, sizeof line, "env: pmu: architectural performance monitoring: none: %s (pmu=%s)",
		    info->arch_why, pmu_mode_words[info->mode]);
		emit(ctx, line);
	} else {
		char assumed[400];
		assumed[0] = '\0';
		if (info->fixed_assumed)
			say(assumed, sizeof assumed,
			    " (assumed: CPUID.0AH:EDX reports %u x %u bits; early Intel Core and Atom "
			    "processors under-report it, SDM Vol. 3B NOTE in \"Architectural Performance "
			    "Monitoring Version 2\", and have three fixed counters, as Linux assumes; each "
			    "is checked before use)",
			    info->leaf_a[3] & 0x1F, (info->leaf_a[3] >> 5) & 0xFF);
		say(line, sizeof line,
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
		say(line, sizeof line,
		    "env: pmu: hypervisor \"%s\" (CPUID.1:ECX[31]=1): the counters are virtualized; "
		    "they may not count, or count the guest only, so each is checked before use",
		    info->hv_vendor);
		emit(ctx, line);
	}
	if (info->program_fault) {
		say(line, sizeof line, "env: pmu: programming fault: %s", info->error);
		emit(ctx, line);
	}
	for (int id = 0; id < PMU_NCOUNTERS; id++) {
		counter_line(info, &info->ctr[id], line, sizeof line);
		emit(ctx, line);
	}
}

void pmu_record(const struct pmu_info *info)
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
	rec_end(&r);
}

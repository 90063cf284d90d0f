/* lib/prefetch.c - see prefetch.h: the documents' rows and the decisions. */
#include "prefetch.h"
#include "fmt.h"

/* Intel MSR 1A4H, all four (the disclosure's table; SDM Vol. 4). */
static const struct prefetch_control intel_four[] = {
	{ "l2_hw", "L2 hardware prefetcher", MSR_MISC_FEATURE_CONTROL, 0, 1 },
	{ "l2_adjacent", "L2 adjacent cache line prefetcher", MSR_MISC_FEATURE_CONTROL, 1, 1 },
	{ "dcu", "DCU prefetcher", MSR_MISC_FEATURE_CONTROL, 2, 1 },
	{ "dcu_ip", "DCU IP prefetcher", MSR_MISC_FEATURE_CONTROL, 3, 1 },
};

/* Intel Atom cores: bit 0 L2, bit 2 DCU (bit 1 and 3 reserved). */
static const struct prefetch_control intel_atom[] = {
	{ "l2_hw", "L2 hardware prefetcher", MSR_MISC_FEATURE_CONTROL, 0, 1 },
	{ "dcu", "DCU prefetcher", MSR_MISC_FEATURE_CONTROL, 2, 1 },
};

/* Intel Xeon Phi: bit 0 DCU, bit 1 L2 (the other bits reserved). */
static const struct prefetch_control intel_phi[] = {
	{ "dcu", "DCU prefetcher", MSR_MISC_FEATURE_CONTROL, 0, 1 },
	{ "l2_hw", "L2 hardware prefetcher", MSR_MISC_FEATURE_CONTROL, 1, 1 },
};

/* AMD PrefetchControl (bit 4 reserved; Zen 5's bits 9:6, aggressiveness
 * profiles, are not on/off controls and are left alone). */
static const struct prefetch_control amd_pfctl[] = {
	{ "l1_stream", "L1 stream prefetcher (L1Stream)", MSR_AMD_PREFETCH_CONTROL, 0, 1 },
	{ "l1_stride", "L1 stride prefetcher (L1Stride)", MSR_AMD_PREFETCH_CONTROL, 1, 1 },
	{ "l1_region", "L1 region prefetcher (L1Region)", MSR_AMD_PREFETCH_CONTROL, 2, 1 },
	{ "l2_stream", "L2 stream prefetcher (L2Stream)", MSR_AMD_PREFETCH_CONTROL, 3, 1 },
	{ "l2_updown", "L2 up/down prefetcher (UpDown)", MSR_AMD_PREFETCH_CONTROL, 5, 1 },
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum row_vendor { ROW_INTEL, ROW_AMD };

struct row {
	enum row_vendor vendor;
	uint32_t family, model_lo, model_hi;
	const struct prefetch_control *ctl;
	int n;
	const char *msr_name;
	const char *source;
};

#define DISCLOSURE "Intel, Disclosure of Hardware Prefetcher Control on Some Intel Processors (2014)"
#define PEPC_ALL "SDM Vol. 4 MSR_MISC_FEATURE_CONTROL; Intel pepc MiscFeatureControl.py (all four prefetchers)"
#define PEPC_ATOM "SDM Vol. 4 MSR_MISC_FEATURE_CONTROL (Goldmont: bits 0, 2; Linux resctrl pseudo_lock.c quotes it); " \
	"Intel pepc MiscFeatureControl.py (L2 and DCU)"
#define PHI "SDM Vol. 4 Xeon Phi MSR_MISC_FEATURE_CONTROL (bit 0 DCU, bit 1 L2; edk2 XeonPhiMsr.h); Intel pepc"
#define AMD(f, lo, hi, src) { ROW_AMD, f, lo, hi, amd_pfctl, N(amd_pfctl), "PrefetchControl", src }
#define INTEL(m, ctl, src, what) { ROW_INTEL, 6, m, m, ctl, N(ctl), "MSR_MISC_FEATURE_CONTROL", src " [" what "]" }

static const struct row rows[] = {
	INTEL(0x1A, intel_four, DISCLOSURE, "Nehalem-EP"),
	INTEL(0x1E, intel_four, DISCLOSURE, "Nehalem"),
	INTEL(0x1F, intel_four, DISCLOSURE, "Nehalem"),
	INTEL(0x2E, intel_four, DISCLOSURE, "Nehalem-EX"),
	INTEL(0x25, intel_four, DISCLOSURE, "Westmere"),
	INTEL(0x2C, intel_four, DISCLOSURE, "Westmere-EP"),
	INTEL(0x2F, intel_four, DISCLOSURE, "Westmere-EX"),
	INTEL(0x2A, intel_four, DISCLOSURE, "Sandy Bridge"),
	INTEL(0x2D, intel_four, DISCLOSURE, "Sandy Bridge-EP"),
	INTEL(0x3A, intel_four, DISCLOSURE, "Ivy Bridge"),
	INTEL(0x3E, intel_four, DISCLOSURE, "Ivy Bridge-EP"),
	INTEL(0x3C, intel_four, DISCLOSURE, "Haswell"),
	INTEL(0x3F, intel_four, DISCLOSURE, "Haswell-EP"),
	INTEL(0x45, intel_four, DISCLOSURE, "Haswell-ULT"),
	INTEL(0x46, intel_four, DISCLOSURE, "Haswell-GT3e"),
	INTEL(0x3D, intel_four, DISCLOSURE, "Broadwell"),
	INTEL(0x47, intel_four, DISCLOSURE, "Broadwell-H"),
	INTEL(0x4F, intel_four, DISCLOSURE, "Broadwell-EP"),
	INTEL(0x56, intel_four, DISCLOSURE, "Broadwell-DE"),
	INTEL(0x4E, intel_four, PEPC_ALL, "Skylake-U"),
	INTEL(0x5E, intel_four, PEPC_ALL, "Skylake"),
	INTEL(0x55, intel_four, PEPC_ALL, "Skylake-SP, Cascade Lake, Cooper Lake"),
	INTEL(0x66, intel_four, PEPC_ALL, "Cannon Lake"),
	INTEL(0x8E, intel_four, PEPC_ALL, "Kaby Lake-U"),
	INTEL(0x9E, intel_four, PEPC_ALL, "Kaby Lake, Coffee Lake"),
	INTEL(0xA5, intel_four, PEPC_ALL, "Comet Lake"),
	INTEL(0xA6, intel_four, PEPC_ALL, "Comet Lake-U"),
	INTEL(0x7D, intel_four, PEPC_ALL, "Ice Lake"),
	INTEL(0x7E, intel_four, PEPC_ALL, "Ice Lake-U"),
	INTEL(0x6A, intel_four, PEPC_ALL, "Ice Lake-SP"),
	INTEL(0x6C, intel_four, PEPC_ALL, "Ice Lake-D"),
	INTEL(0x8C, intel_four, PEPC_ALL, "Tiger Lake-U"),
	INTEL(0x8D, intel_four, PEPC_ALL, "Tiger Lake"),
	INTEL(0xA7, intel_four, PEPC_ALL, "Rocket Lake"),
	INTEL(0x8F, intel_four, PEPC_ALL, "Sapphire Rapids"),
	INTEL(0xCF, intel_four, PEPC_ALL, "Emerald Rapids"),
	INTEL(0xAD, intel_four, PEPC_ALL, "Granite Rapids"),
	INTEL(0xAE, intel_four, PEPC_ALL, "Granite Rapids-D"),
	INTEL(0x97, intel_four, PEPC_ALL, "Alder Lake"),
	INTEL(0x9A, intel_four, PEPC_ALL, "Alder Lake-P"),
	INTEL(0xBE, intel_four, PEPC_ALL, "Alder Lake-N"),
	INTEL(0xB7, intel_four, PEPC_ALL, "Raptor Lake"),
	INTEL(0xBA, intel_four, PEPC_ALL, "Raptor Lake-P"),
	INTEL(0xBF, intel_four, PEPC_ALL, "Raptor Lake-S"),
	INTEL(0xAA, intel_four, PEPC_ALL, "Meteor Lake-M"),
	INTEL(0xAC, intel_four, PEPC_ALL, "Meteor Lake"),
	INTEL(0x4D, intel_atom, PEPC_ATOM, "Silvermont-D (Avoton)"),
	INTEL(0x5C, intel_atom, PEPC_ATOM, "Goldmont (Apollo Lake)"),
	INTEL(0x5F, intel_atom, PEPC_ATOM, "Goldmont-D (Denverton)"),
	INTEL(0x7A, intel_atom, PEPC_ATOM, "Goldmont Plus (Gemini Lake)"),
	INTEL(0x86, intel_atom, PEPC_ATOM, "Tremont-D (Snow Ridge)"),
	INTEL(0x96, intel_atom, PEPC_ATOM, "Tremont (Elkhart Lake)"),
	INTEL(0x9C, intel_atom, PEPC_ATOM, "Tremont-L (Jasper Lake)"),
	INTEL(0xB6, intel_atom, PEPC_ATOM, "Crestmont (Grand Ridge)"),
	INTEL(0x57, intel_phi, PHI, "Xeon Phi Knights Landing"),
	INTEL(0x85, intel_phi, PHI, "Xeon Phi Knights Mill"),
	AMD(0x19, 0x10, 0x1F, "AMD PPR family 19h model 11h (#55901), MSRC000_0108 PrefetchControl [Zen 4, models 10h-1Fh]"),
	AMD(0x19, 0x60, 0x6F, "AMD PPR family 19h model 61h (#56713), MSRC000_0108 PrefetchControl [Zen 4, models 60h-6Fh]"),
	AMD(0x19, 0x70, 0x7F, "Zen 4 core's MSRC000_0108 PrefetchControl as PPR #55901 documents it; this model's own "
	    "PPR not checked [Zen 4, models 70h-7Fh]"),
	AMD(0x19, 0xA0, 0xAF, "Zen 4 core's MSRC000_0108 PrefetchControl as PPR #55901 documents it; this model's own "
	    "PPR not checked [Zen 4c, models A0h-AFh]"),
	AMD(0x1A, 0x00, 0x0F, "AMD PPR family 1Ah model 02h (#57238), MSRC000_0108 PrefetchControl [Zen 5, models 00h-0Fh]"),
	AMD(0x1A, 0x10, 0x7F, "Zen 5 core's MSRC000_0108 PrefetchControl as PPR #57238 documents it; this model's own "
	    "PPR not checked [Zen 5, models 10h-7Fh]"),
};

void prefetch_lookup(const struct cpu_info *c, struct prefetch_doc *d)
{
	int intel = cpu_vendor_is(c, "GenuineIntel");
	int amd = cpu_vendor_is(c, "AuthenticAMD");
	d->n = 0;
	d->ctl = 0;
	d->msr_name = 0;
	d->source = 0;
	d->why[0] = 0;
	for (int i = 0; i < N(rows); i++) {
		const struct row *r = &rows[i];
		if ((r->vendor == ROW_INTEL && !intel) || (r->vendor == ROW_AMD && !amd))
			continue;
		if (c->family != r->family || c->model < r->model_lo || c->model > r->model_hi)
			continue;
		d->n = r->n;
		d->ctl = r->ctl;
		d->msr_name = r->msr_name;
		d->source = r->source;
		return;
	}
	if (intel)
		fmt_format(d->why, sizeof d->why,
			   "GenuineIntel family %02XH model %02XH: no prefetcher control documented for this model "
			   "(Intel's MSR 1A4H disclosure, SDM Vol. 4, pepc)", c->family, c->model);
	else if (amd)
		fmt_format(d->why, sizeof d->why,
			   "AuthenticAMD family %02Xh model %02Xh: no prefetcher control documented in this family's "
			   "PPR (PrefetchControl MSR C000_0108H: family 19h Zen 4 models, 1Ah)",
			   c->family, c->model);
	else
		fmt_format(d->why, sizeof d->why, "%s family %02XH model %02XH: no prefetcher control documented "
			   "for this vendor", c->vendor[0] ? c->vendor : "(no vendor)", c->family, c->model);
}

uint64_t prefetch_value(const struct prefetch_control *c, uint64_t before, int want_on)
{
	uint64_t bit = 1ull << c->bit;
	int set = want_on ? !c->set_disables : c->set_disables;
	return set ? (before | bit) : (before & ~bit);
}

int prefetch_is_on(const struct prefetch_control *c, uint64_t v)
{
	int set = (int)((v >> c->bit) & 1);
	return c->set_disables ? !set : set;
}

int prefetch_should_write(const struct prefetch_try *t)
{
	return t->want != PREFETCH_KEEP && !t->read_fault;
}

enum prefetch_state prefetch_outcome(const struct prefetch_control *c, const struct prefetch_try *t)
{
	if (t->want == PREFETCH_KEEP) {
		if (t->read_fault)
			return PREFETCH_STATE_UNKNOWN;
		return prefetch_is_on(c, t->before) ? PREFETCH_STATE_ON : PREFETCH_STATE_OFF;
	}
	if (t->read_fault || !t->wrote || t->write_fault || t->readback_fault)
		return PREFETCH_STATE_NOT_TAKEN;
	int on = prefetch_is_on(c, t->read);
	if (on != (t->want == PREFETCH_ON))
		return PREFETCH_STATE_NOT_TAKEN;
	return on ? PREFETCH_STATE_ON : PREFETCH_STATE_OFF;
}

const char *prefetch_state_word(enum prefetch_state s)
{
	switch (s) {
	case PREFETCH_STATE_ON: return "on";
	case PREFETCH_STATE_OFF: return "off";
	case PREFETCH_STATE_NOT_TAKEN: return "not_taken";
	case PREFETCH_STATE_UNKNOWN: return "unknown";
	case PREFETCH_STATE_NOT_DOCUMENTED: return "not_documented";
	}
	return "unknown";
}

char *prefetch_msr_text(char *buf, size_t size, uint32_t msr)
{
	if (msr > 0xFFFFu)
		fmt_format(buf, size, "%04X_%04XH", msr >> 16, msr & 0xFFFFu);
	else
		fmt_format(buf, size, "%XH", msr);
	return buf;
}

/* " #GP" style name of an exception vector. */
static const char *vector_name(int v)
{
	switch (v) {
	case 6: return "#UD";
	case 13: return "#GP";
	case 14: return "#PF";
	default: return "an exception";
	}
}

static const char *hv_note(const struct prefetch_try *t)
{
	return t->hypervisor ? "; under a hypervisor (CPUID.1:ECX[31]), which may ignore or refuse it"
			     : "";
}

const char *prefetch_why(char *buf, size_t size, const struct prefetch_control *c, const struct prefetch_try *t)
{
	char m[16];
	prefetch_msr_text(m, sizeof m, c->msr);
	if (t->read_fault) {
		fmt_format(buf, size, "RDMSR of MSR %s faulted (%s): nothing written%s", m, vector_name(t->read_fault),
			   hv_note(t));
		return buf;
	}
	if (t->want == PREFETCH_KEEP)
		return 0;
	if (!t->wrote) {
		fmt_format(buf, size, "nothing written");
		return buf;
	}
	if (t->write_fault) {
		fmt_format(buf, size, "WRMSR of 0x%llx to MSR %s faulted (%s)%s", (unsigned long long)t->written, m,
			   vector_name(t->write_fault), hv_note(t));
		return buf;
	}
	if (t->readback_fault) {
		fmt_format(buf, size, "wrote 0x%llx to MSR %s; reading it back faulted (%s)%s",
			   (unsigned long long)t->written, m, vector_name(t->readback_fault), hv_note(t));
		return buf;
	}
	if (prefetch_outcome(c, t) == PREFETCH_STATE_NOT_TAKEN) {
		fmt_format(buf, size, "wrote 0x%llx to MSR %s, read back 0x%llx: bit %u = %u, %s%s",
			   (unsigned long long)t->written, m, (unsigned long long)t->read, c->bit,
			   (unsigned)((t->read >> c->bit) & 1), prefetch_is_on(c, t->read) ? "on" : "off", hv_note(t));
		return buf;
	}
	return 0;
}

char *prefetch_line(char *buf, size_t size, const struct prefetch_control *c, const struct prefetch_try *t)
{
	char m[16], why[240];
	enum prefetch_state s = prefetch_outcome(c, t);
	prefetch_msr_text(m, sizeof m, c->msr);
	if (t->want == PREFETCH_KEEP && !t->read_fault) {
		fmt_format(buf, size, "prefetch: %s: %s (MSR %s bit %u = %u, as the firmware left it)", c->name,
			   prefetch_state_word(s), m, c->bit, (unsigned)((t->before >> c->bit) & 1));
		return buf;
	}
	if (s == PREFETCH_STATE_ON || s == PREFETCH_STATE_OFF) {
		/* A bit already as wanted before the write proves nothing about the write. */
		int already = ((t->before ^ t->read) >> c->bit & 1) == 0;
		fmt_format(buf, size, "prefetch: %s: %s (MSR %s bit %u = %u, read back%s)", c->name,
			   prefetch_state_word(s), m, c->bit, (unsigned)((t->read >> c->bit) & 1),
			   already ? "; so before the write too" : "");
		return buf;
	}
	prefetch_why(why, sizeof why, c, t);
	fmt_format(buf, size, "prefetch: %s: %s (%s)", c->name, s == PREFETCH_STATE_UNKNOWN ? "unknown" : "not taken",
		   why);
	return buf;
}

/* lib/tscfreq.c - see tscfreq.h. */
#include "tscfreq.h"
#include "fmt.h"
#include "stats.h"

/* The nominal core crystal of Intel family 6 models whose CPUID.15H:ECX is
 * 0: SDM Vol. 3B "Determining the Processor Base Frequency", table
 * "Nominal Core Crystal Clock Frequency", and Linux native_calibrate_tsc()
 * before v5.2 (which added Denverton). Hz.
 *
 * Not 06_55H, although the SDM's table gives it 25 MHz: Xeon W-21xx/22xx
 * workstations of that model run a 24 MHz crystal (4 % off), and
 * Skylake-SP/Cascade Lake servers spread-spectrum theirs (about -0.25 %,
 * 2500 ppm), so a +-100 ppm figure would be false. Linux dropped the entry
 * for these reasons (commit b51120309348, "x86/tsc: Fix erroneous TSC rate
 * on Skylake Xeon", 2017) and turbostat has no 25 MHz case for it; the
 * model falls through to the CPUID.16H derivation (nominal, +-5000 ppm)
 * and to the PIT. */
static const struct {
	uint32_t model;
	uint32_t crystal_hz;
} crystal_table[] = {
	{ .model = 0x4E, .crystal_hz = 24000000 }, /* Skylake client, mobile */
	{ .model = 0x5E, .crystal_hz = 24000000 }, /* Skylake client, desktop */
	{ .model = 0x8E, .crystal_hz = 24000000 }, /* Kaby Lake / Coffee Lake, mobile */
	{ .model = 0x9E, .crystal_hz = 24000000 }, /* Kaby Lake / Coffee Lake, desktop */
	{ .model = 0x5F, .crystal_hz = 25000000 }, /* Goldmont-D, Denverton (Linux) */
	{ .model = 0x5C, .crystal_hz = 19200000 }, /* Goldmont, Apollo Lake (SDM table: 06_5CH) */
};

static uint32_t model_crystal(const struct tscfreq_cpuid *in)
{
	if (!in->vendor_intel || in->family != 6)
		return 0;
	for (size_t i = 0; i < sizeof crystal_table / sizeof crystal_table[0]; i++)
		if (crystal_table[i].model == in->model)
			return crystal_table[i].crystal_hz;
	return 0;
}

/* round(num / den) for den != 0, or -1 when the quotient passes 64 bits. */
static int div_round(u128 num, uint64_t den, uint64_t *q)
{
	uint64_t rem;
	u128 r = u128_div_u64(num, den, &rem);
	/* rem >= den - rem, i.e. rem >= den / 2 rounded up: round half up */
	if (rem >= den - rem)
		r++;
	if (r >> 64)
		return -1;
	*q = (uint64_t)r;
	return 0;
}

static int none(struct tscfreq *out, const char *why)
{
	out->hz = 0;
	out->crystal_hz = 0;
	out->ppm = 0;
	out->kind = TSCFREQ_NONE;
	out->source = why;
	return -1;
}

void tscfreq_cpuid_read(cpuid_fn *f, void *ctx, struct tscfreq_cpuid *in)
{
	struct cpu_info c;
	uint32_t r[4];
	cpuinfo_read(f, ctx, &c);
	*in = (struct tscfreq_cpuid){
		.vendor_intel = cpu_vendor_is(&c, "GenuineIntel"),
		.family = c.family,
		.model = c.model,
		.max_basic = c.max_basic,
	};
	if (c.max_basic >= 0x15) {
		f(ctx, 0x15, 0, r);
		in->eax15 = r[0];
		in->ebx15 = r[1];
		in->ecx15 = r[2];
	}
	if (c.max_basic >= 0x16) {
		f(ctx, 0x16, 0, r);
		in->eax16 = r[0];
	}
}

int tscfreq_from_cpuid(const struct tscfreq_cpuid *in, struct tscfreq *out)
{
	if (!in->vendor_intel)
		return none(out, "not enumerated: CPUID leaves 15H and 16H are read on GenuineIntel only "
				 "(as Linux does)");
	if (in->max_basic < 0x15)
		return none(out, "not enumerated: CPUID max basic leaf < 15H");

	uint32_t eax = in->eax15, ebx = in->ebx15;
	uint32_t base_mhz = in->max_basic >= 0x16 ? in->eax16 & 0xFFFF : 0;

	if (eax && ebx) {
		uint64_t crystal = in->ecx15;
		enum tscfreq_kind kind = TSCFREQ_CRYSTAL_ECX;
		const char *src = "CPUID.15H: enumerated core crystal (ECX) x EBX/EAX";
		uint32_t ppm = TSCFREQ_PPM_CRYSTAL;
		if (!crystal && (crystal = model_crystal(in)) != 0) {
			kind = TSCFREQ_CRYSTAL_MODEL;
			src = "CPUID.15H: EBX/EAX x this model's nominal crystal (ECX=0; SDM crystal "
			      "table, Linux native_calibrate_tsc)";
		}
		if (!crystal && base_mhz) {
			/* base x 10^6 x EAX < 2^16 x 2^20 x 2^32: 128 bits; a
			 * crystal past 64 bits is nonsense and is not used */
			u128 c = u128_div_u64((u128)base_mhz * 1000000u * eax, ebx, 0);
			crystal = c >> 64 ? 0 : (uint64_t)c;
			kind = TSCFREQ_CRYSTAL_16H;
			src = "CPUID.15H: EBX/EAX x crystal derived from CPUID.16H base MHz (ECX=0): nominal";
			ppm = TSCFREQ_PPM_NOMINAL;
		}
		uint64_t hz;
		if (crystal && div_round((u128)crystal * ebx, eax, &hz) == 0 && hz) {
			out->hz = hz;
			out->crystal_hz = crystal;
			out->ppm = ppm;
			out->kind = kind;
			out->source = src;
			return 0;
		}
	}
	if (base_mhz) {
		out->hz = (uint64_t)base_mhz * 1000000u;
		out->crystal_hz = 0;
		out->ppm = TSCFREQ_PPM_NOMINAL;
		out->kind = TSCFREQ_NOMINAL_16H;
		out->source = eax && ebx ? "CPUID.16H:EAX base frequency: nominal, not the exact TSC rate "
					   "(CPUID.15H crystal not enumerated)"
					 : "CPUID.16H:EAX base frequency: nominal, not the exact TSC rate "
					   "(CPUID.15H ratio not enumerated)";
		return 0;
	}
	if (!(eax && ebx))
		return none(out, in->max_basic >= 0x16
					 ? "not enumerated: CPUID.15H:EAX or EBX is 0 and CPUID.16H:EAX is 0"
					 : "not enumerated: CPUID.15H:EAX or EBX is 0 and no leaf 16H");
	return none(out, "not enumerated: CPUID.15H:ECX is 0, the model is not in the crystal table, "
			 "and there is no CPUID.16H base frequency");
}

int tscfreq_disagree(uint64_t a_hz, uint32_t a_ppm, uint64_t b_hz, uint32_t b_ppm)
{
	uint64_t gap = a_hz > b_hz ? a_hz - b_hz : b_hz - a_hz;
	/* gap x 10^6 < 2^84; each product < 2^96: the sum < 2^97 */
	return (u128)gap * 1000000u > (u128)a_hz * a_ppm + (u128)b_hz * b_ppm;
}

/* The nominal clocks (bits of c[] indices) that every measured clock
 * contradicts: two or more measured clocks are present, no two of them
 * disagree, and the nominal clock disagrees with each. They are then
 * several independent measurements of this TSC that agree, against one
 * specification's figure. Indices of 32 and above are never left out. */
static uint32_t contradicted(const struct tscfreq_clock *c, int n)
{
	int measured = 0;
	for (int i = 0; i < n; i++) {
		if (!c[i].hz || !c[i].measured)
			continue;
		measured++;
		for (int j = 0; j < i; j++)
			if (c[j].hz && c[j].measured && tscfreq_disagree(c[i].hz, c[i].ppm, c[j].hz, c[j].ppm))
				return 0;
	}
	if (measured < 2)
		return 0;
	uint32_t out = 0;
	for (int i = 0; i < n && i < 32; i++) {
		if (!c[i].hz || c[i].measured)
			continue;
		int all = 1;
		for (int j = 0; j < n && all; j++)
			if (c[j].hz && c[j].measured)
				all = tscfreq_disagree(c[i].hz, c[i].ppm, c[j].hz, c[j].ppm);
		if (all)
			out |= 1u << i;
	}
	return out;
}

int tscfreq_choose(const struct tscfreq_clock *c, int n, struct tscfreq_choice *out)
{
	*out = (struct tscfreq_choice){ .best = -1 };
	int best = -1, measured = -1;
	for (int i = 0; i < n; i++) {
		if (!c[i].hz)
			continue;
		if (best < 0 || c[i].ppm < c[best].ppm)
			best = i;
		if (c[i].measured && (measured < 0 || c[i].ppm < c[measured].ppm))
			measured = i;
		for (int j = 0; j < i; j++)
			if (c[j].hz) {
				out->pairs++;
				out->disagree += tscfreq_disagree(c[i].hz, c[i].ppm, c[j].hz, c[j].ppm);
			}
	}
	if (best < 0) {
		out->why = "no clock gave a rate";
		return -1;
	}
	int against_best = 0;
	for (int i = 0; i < n; i++)
		against_best |= c[i].hz && i != best && tscfreq_disagree(c[i].hz, c[i].ppm, c[best].hz, c[best].ppm);
	if (against_best && !c[best].measured && measured >= 0)
		best = measured;
	out->best = best;
	out->hz = c[best].hz;
	if (c[best].measured)
		out->left_out = contradicted(c, n);
	/* Widened to the far end of each disagreeing clock's interval: gap x
	 * 10^6 + other x other_ppm (< 2^97), in ppm of the chosen figure,
	 * rounded up. */
	u128 wide = c[best].ppm;
	for (int i = 0; i < n; i++) {
		if (!c[i].hz || i == best)
			continue;
		uint64_t gap = c[i].hz > out->hz ? c[i].hz - out->hz : out->hz - c[i].hz;
		uint32_t d = tscfreq_ppm(gap, out->hz);
		if (d > out->diff_ppm)
			out->diff_ppm = d;
		if ((out->left_out >> i & 1) || !tscfreq_disagree(c[i].hz, c[i].ppm, out->hz, c[best].ppm))
			continue;
		out->widened = 1;
		u128 far = (u128)gap * 1000000u + (u128)c[i].hz * c[i].ppm;
		u128 w = u128_div_u64(far + out->hz - 1, out->hz, 0);
		if (w > wide)
			wide = w;
	}
	out->ppm = wide > UINT32_MAX ? UINT32_MAX : (uint32_t)wide;
	if (out->pairs == 0)
		out->why = "the only clock that gave a rate";
	else if (!out->widened && !out->disagree)
		out->why = "the smallest uncertainty; every pair of clocks agrees within its combined uncertainty";
	else if (!out->widened && out->left_out)
		out->why = "the smallest uncertainty among the measured clocks, which agree with each other; the "
			   "nominal figure they all contradict is left out of the bound (a crystal off nominal, "
			   "a wrong crystal table entry or a hypervisor's figure)";
	else if (!out->widened)
		out->why = "the smallest uncertainty; it agrees with every other clock, though some of the others "
			   "disagree among themselves";
	else
		out->why = "it disagrees with another clock by more than their combined uncertainty and nothing "
			   "says which is wrong: the smallest uncertainty among the measured clocks (a "
			   "calibration measured this TSC; CPUID's figure is nominal), widened to cover every "
			   "clock it disagrees with";
	return 0;
}

const char *tscfreq_kind_name(enum tscfreq_kind k)
{
	switch (k) {
	case TSCFREQ_CRYSTAL_ECX:
		return "cpuid15h-ecx";
	case TSCFREQ_CRYSTAL_MODEL:
		return "cpuid15h-model";
	case TSCFREQ_CRYSTAL_16H:
		return "cpuid15h-16h";
	case TSCFREQ_NOMINAL_16H:
		return "cpuid16h-nominal";
	case TSCFREQ_NONE:
		break;
	}
	return "none";
}

uint64_t tscfreq_counter_delta(uint64_t from, uint64_t to, unsigned bits)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	return (to - from) & mask;
}

int tscfreq_window_rate(const struct tscfreq_window *w, unsigned bits, uint64_t ref_num, uint64_t ref_den,
			struct tscfreq_window_rate *out)
{
	*out = (struct tscfreq_window_rate){ 0 };
	if (w->a2 < w->a1 || w->b1 < w->a2 || w->b2 < w->b1 || !ref_den)
		return -1;
	out->counts = tscfreq_counter_delta(w->c0, w->c1, bits);
	/* Midpoint to midpoint, ((b1 - a1) + (b2 - a2)) / 2, each difference
	 * below 2^64: the sum in 128 bits. */
	out->ticks = (uint64_t)((((u128)(w->b1 - w->a1)) + (w->b2 - w->a2)) / 2);
	u128 den = (u128)out->counts * ref_den;
	if (!out->counts || !out->ticks || den >> 64)
		return -1;
	if (div_round((u128)out->ticks * ref_num, (uint64_t)den, &out->hz) || !out->hz) {
		out->hz = 0;
		return -1;
	}
	uint64_t half = (uint64_t)((((u128)(w->a2 - w->a1)) + (w->b2 - w->b1) + 1) / 2);
	uint64_t period = out->ticks / out->counts + (out->ticks % out->counts != 0);
	u128 err = (u128)half + 1 + period;
	out->err_ticks = err >> 64 ? UINT64_MAX : (uint64_t)err;
	out->ppm = tscfreq_ppm(out->err_ticks, out->ticks);
	return 0;
}

int tscfreq_ratio_hz(uint64_t ticks, uint64_t ref_hz, uint64_t ref_counts, uint64_t *hz)
{
	if (!ref_counts)
		return -1;
	/* ticks x ref_hz < 2^128 */
	return div_round((u128)ticks * ref_hz, ref_counts, hz);
}

uint32_t tscfreq_ppm(uint64_t part, uint64_t whole)
{
	if (!whole)
		return UINT32_MAX;
	uint64_t rem;
	u128 q = u128_div_u64((u128)part * 1000000u, whole, &rem);
	if (rem)
		q++;
	return q > UINT32_MAX ? UINT32_MAX : (uint32_t)q;
}

uint32_t tscfreq_ppm_diff(uint64_t a, uint64_t b)
{
	if (!b)
		return a ? UINT32_MAX : 0;
	return tscfreq_ppm(a > b ? a - b : b - a, b);
}

static int ticks_scaled(uint64_t ticks, uint64_t hz, uint64_t per_second, uint64_t *out)
{
	if (!hz)
		return -1;
	/* ticks x 10^12 < 2^104 */
	return div_round((u128)ticks * per_second, hz, out);
}

int ticks_to_ns(uint64_t ticks, uint64_t hz, uint64_t *ns)
{
	return ticks_scaled(ticks, hz, 1000000000ull, ns);
}

int ticks_to_ps(uint64_t ticks, uint64_t hz, uint64_t *ps)
{
	return ticks_scaled(ticks, hz, 1000000000000ull, ps);
}

char *tscfreq_format_mhz(char *buf, size_t size, uint64_t hz)
{
	char milli[24];
	uint64_t khz = hz / 1000 + (hz % 1000 >= 500);
	fmt_format(buf, size, "%s MHz", fmt_milli(milli, sizeof milli, khz));
	return buf;
}

/* lib/cpuinfo.c - see cpuinfo.h. */
#include "cpuinfo.h"

void cpuinfo_regs_str(char dst[13], uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t w[3] = { a, b, c };
	for (int i = 0; i < 12; i++)
		dst[i] = (char)(w[i / 4] >> (8 * (i % 4)));
	dst[12] = '\0';
}

static int vendor_is(const char *vendor, const char *v)
{
	for (int i = 0; i < 12; i++)
		if (vendor[i] != v[i])
			return 0;
	return 1;
}

int cpu_vendor_is(const struct cpu_info *c, const char *v)
{
	return vendor_is(c->vendor, v);
}

uint32_t cpuinfo_family(uint32_t eax1)
{
	uint32_t base = (eax1 >> 8) & 0xF;
	return base == 0xF ? base + ((eax1 >> 20) & 0xFF) : base;
}

/* Which base families add the extended model, by vendor:
 *  - Intel: 06H and 0FH (SDM Vol. 2A CPUID, "If Family_ID = 06H or
 *    Family_ID = 0FH, DisplayModel = (Extended_Model_ID << 4) + Model_ID");
 *  - AMD and Hygon: 0FH only (APM Vol. 3 CPUID Fn0000_0001_EAX: "Model is
 *    {ExtModel, BaseModel} if BaseFamily is Fh, else BaseModel");
 *  - Centaur and Zhaoxin: 06H and above. Their family 7 parts number their
 *    models with the extended field (KX-6000G: 000307B2H, model 3BH), as
 *    Linux x86_model() (arch/x86/lib/cpu.c: family >= 6, every vendor)
 *    and Zhaoxin's own model numbers have it;
 *  - any other vendor: the SDM's rule. */
uint32_t cpuinfo_model(const char *vendor, uint32_t eax1)
{
	uint32_t base_family = (eax1 >> 8) & 0xF, base_model = (eax1 >> 4) & 0xF;
	int add;
	if (vendor_is(vendor, "AuthenticAMD") || vendor_is(vendor, "HygonGenuine"))
		add = base_family == 0xF;
	else if (vendor_is(vendor, "CentaurHauls") || vendor_is(vendor, "  Shanghai  "))
		add = base_family >= 0x6;
	else
		add = base_family == 0x6 || base_family == 0xF;
	return add ? base_model + (((eax1 >> 16) & 0xF) << 4) : base_model;
}

void cpuinfo_read(cpuid_fn *f, void *ctx, struct cpu_info *c)
{
	uint32_t r[4];
	*c = (struct cpu_info){ 0 };
	f(ctx, 0, 0, r);
	c->max_basic = r[0];
	cpuinfo_regs_str(c->vendor, r[1], r[3], r[2]);

	f(ctx, 1, 0, r);
	c->signature = r[0];
	c->family = cpuinfo_family(r[0]);
	c->model = cpuinfo_model(c->vendor, r[0]);
	c->stepping = r[0] & 0xF;
	c->has_tsc = (r[3] >> 4) & 1;
	c->hypervisor = (r[2] >> 31) & 1;

	if (c->max_basic >= 7) {
		f(ctx, 7, 0, r);
		c->has_serialize = (r[3] >> 14) & 1;
	}
	c->is_amd = cpu_vendor_is(c, "AuthenticAMD") || cpu_vendor_is(c, "HygonGenuine");

	f(ctx, 0x80000000u, 0, r);
	c->max_ext = r[0];
	if (c->max_ext < 0x80000000u || c->max_ext > 0x8000FFFFu)
		c->max_ext = 0;
	if (c->max_ext >= 0x80000001u) {
		f(ctx, 0x80000001u, 0, r);
		c->has_rdtscp = (r[3] >> 27) & 1;
	}
	if (c->max_ext >= 0x80000007u) {
		f(ctx, 0x80000007u, 0, r);
		c->invariant_tsc = (r[3] >> 8) & 1;
	}

	if (c->max_ext >= 0x80000004u) {
		for (uint32_t i = 0; i < 3; i++) {
			f(ctx, 0x80000002u + i, 0, r);
			for (int j = 0; j < 16; j++)
				c->brand[i * 16 + j] = (char)(r[j / 4] >> (8 * (j % 4)));
		}
		c->brand[48] = '\0';
	}
	/* Trim the leading blanks some CPUs pad the brand string with. */
	int s = 0;
	while (c->brand[s] == ' ')
		s++;
	for (int i = 0;; i++) {
		c->brand[i] = c->brand[i + s];
		if (!c->brand[i])
			break;
	}

	/* The vendors' rules (lib/lfence.h); kernel/machine.c settles AMD's
	 * DE_CFG and says "unknown" for other vendors, which are then not
	 * trusted. */
	struct lfence_cpu lf = {
		.intel = cpu_vendor_is(c, "GenuineIntel"),
		.amd = cpu_vendor_is(c, "AuthenticAMD"),
		.hygon = cpu_vendor_is(c, "HygonGenuine"),
		.family = c->family,
		.hypervisor = c->hypervisor,
	};
	if (c->is_amd && c->max_ext >= 0x80000021u) {
		f(ctx, 0x80000021u, 0, r);
		lf.always = (r[0] >> 2) & 1;
	}
	c->lfence_rule = lfence_rule(&lf);
	c->lfence_serializing = lfence_known(c->lfence_rule);

	if (c->hypervisor) {
		f(ctx, 0x40000000u, 0, r);
		cpuinfo_regs_str(c->hv_vendor, r[1], r[2], r[3]);
	}
}

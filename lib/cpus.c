/* lib/cpus.c - see cpus.h. */
#include "cpus.h"
#include "fmt.h"
#include "nearest.h"

#define LEVEL_SMT 1

/* The bits that hold IDs 0..n-1: ceil(log2(n)), 0 for n <= 1. */
static uint32_t id_bits(uint32_t n)
{
	uint32_t b = 0;
	while (b < 32 && (1ull << b) < n)
		b++;
	return b;
}

static void topo_none(struct cpus_topo *out)
{
	out->known = 0;
	out->source = "none";
	out->smt_shift = out->pkg_shift = 0;
	out->has_cu = 0;
	out->cu_shift = 0;
	out->grouping = "";
}

void cpus_topo_from_cpuid(const struct cpus_topo_cpuid *in, struct cpus_topo *out)
{
	topo_none(out);
	if ((in->leaf == 0x1F || in->leaf == 0x0B) && in->nlevels > 0 && in->nlevels <= CPUS_TOPO_LEVELS) {
		uint32_t smt = 0, pkg = in->level_shift[in->nlevels - 1];
		for (int i = 0; i < in->nlevels; i++)
			if (in->level_type[i] == LEVEL_SMT)
				smt = in->level_shift[i];
		if (pkg > 32 || smt > pkg)
			return;
		out->known = 1;
		out->source = in->leaf == 0x1F ? "CPUID 1FH" : "CPUID 0BH";
		out->smt_shift = smt;
		out->pkg_shift = pkg;
		return;
	}
	if (in->amd && (in->amd_apic_id_size || in->amd_nc)) {
		uint32_t pkg = in->amd_apic_id_size ? in->amd_apic_id_size : id_bits(in->amd_nc);
		uint32_t per = in->amd_threads ? id_bits(in->amd_threads) : 0;
		int cu = in->amd_family == 0x15 && in->amd_threads;
		if (pkg > 32 || per > pkg)
			return;
		out->known = 1;
		out->source = in->amd_threads ? "CPUID 8000001EH" : "CPUID 80000008H";
		out->smt_shift = cu ? 0 : per;
		out->pkg_shift = pkg;
		out->has_cu = cu;
		out->cu_shift = cu ? per : 0;
		if (cu)
			out->grouping = "family 15h: each integer core of a compute unit counted as a core, "
					"per the APM (8000001EH:EBX[15:8] is cores per compute unit); Linux lists "
					"them as thread siblings";
		return;
	}
	if (in->htt && in->logical_ids > 1) {
		uint32_t cores = in->amd ? in->logical_ids : in->core_ids ? in->core_ids : 1;
		uint32_t per_core = in->logical_ids / cores ? in->logical_ids / cores : 1;
		out->known = 1;
		out->source = "CPUID 1H/4H";
		out->smt_shift = id_bits(per_core);
		out->pkg_shift = id_bits(in->logical_ids);
		if (out->smt_shift > out->pkg_shift)
			out->smt_shift = out->pkg_shift;
	}
}

void cpus_topo_read(cpuid_fn *f, void *ctx, struct cpus_topo_cpuid *in)
{
	static const uint32_t leaves[2] = { 0x1F, 0x0B };
	struct cpu_info c;
	uint32_t r[4];
	cpuinfo_read(f, ctx, &c);
	*in = (struct cpus_topo_cpuid){ 0 };
	for (int k = 0; k < 2 && !in->nlevels; k++) {
		if (c.max_basic < leaves[k])
			continue;
		for (uint32_t sub = 0; sub < CPUS_TOPO_LEVELS; sub++) {
			f(ctx, leaves[k], sub, r);
			uint32_t type = (r[2] >> 8) & 0xFF;
			if (!type)
				break;
			in->level_type[in->nlevels] = type;
			in->level_shift[in->nlevels] = r[0] & 0x1F;
			in->nlevels++;
		}
		if (in->nlevels)
			in->leaf = (int)leaves[k];
	}
	f(ctx, 1, 0, r);
	in->htt = (r[3] >> 28) & 1;
	in->logical_ids = (r[1] >> 16) & 0xFF;
	if (c.max_basic >= 4 && !c.is_amd) {
		f(ctx, 4, 0, r);
		in->core_ids = ((r[0] >> 26) & 0x3F) + 1;
	}
	in->amd = c.is_amd;
	if (!c.is_amd)
		return;
	in->amd_family = c.family;
	if (c.max_ext >= 0x80000008u) {
		f(ctx, 0x80000008u, 0, r);
		in->amd_apic_id_size = (r[2] >> 12) & 0xF;
		in->amd_nc = (r[2] & 0xFF) + 1;
	}
	if (c.max_ext >= 0x8000001Eu) {
		f(ctx, 0x80000001u, 0, r);
		if ((r[2] >> 22) & 1) { /* TopologyExtensions */
			f(ctx, 0x8000001Eu, 0, r);
			in->amd_threads = ((r[1] >> 8) & 0xFF) + 1;
		}
	}
}

uint8_t cpus_core_type_read(cpuid_fn *f, void *ctx)
{
	struct cpu_info c;
	uint32_t r[4];
	cpuinfo_read(f, ctx, &c);
	if (c.is_amd) {
		if (c.max_ext < 0x80000026u)
			return 0;
		f(ctx, 0x80000026u, 0, r);
		return (r[0] >> 30) & 1 ? CPU_TYPE_AMD(r[1] >> 28) : 0;
	}
	if (c.max_basic < 0x1A)
		return 0;
	f(ctx, 7, 0, r);
	if (!((r[3] >> 15) & 1))
		return 0;
	f(ctx, 0x1A, 0, r);
	return (uint8_t)(r[0] >> 24);
}

void cpus_topo_split(const struct cpus_topo *t, uint32_t apic_id, uint32_t *pkg, uint32_t *core,
		     uint32_t *thread)
{
	uint64_t id = apic_id;
	*thread = (uint32_t)(id & ((1ull << t->smt_shift) - 1));
	*core = (uint32_t)((id & ((1ull << t->pkg_shift) - 1)) >> t->smt_shift);
	*pkg = (uint32_t)(id >> t->pkg_shift);
}

uint32_t cpus_topo_unit(const struct cpus_topo *t, uint32_t core)
{
	return t->has_cu ? core >> t->cu_shift : 0;
}

const char *cpus_core_type_name(uint8_t type)
{
	switch (type) {
	case 0:
		return "not hybrid";
	case CPU_TYPE_CORE:
		return "P-core (Intel Core)";
	case CPU_TYPE_ATOM:
		return "E-core (Intel Atom)";
	case CPU_TYPE_AMD_PERFORMANCE:
		return "performance core (AMD)";
	case CPU_TYPE_AMD_EFFICIENCY:
		return "efficiency core (AMD)";
	default:
		return "unknown core type";
	}
}

int cpus_core_is_p(uint8_t type)
{
	return type == CPU_TYPE_CORE || type == CPU_TYPE_AMD_PERFORMANCE;
}

int cpus_core_is_e(uint8_t type)
{
	return type == CPU_TYPE_ATOM || type == CPU_TYPE_AMD_EFFICIENCY;
}

const char *cpus_mode_name(enum cpus_mode m)
{
	static const char *const names[] = { "boot", "all", "list", "p", "e", "one-per-core" };
	return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "?";
}

/* Whether v[0..len-1] is the word w. */
static int is_word(const char *v, size_t len, const char *w)
{
	size_t i = 0;
	for (; i < len && w[i]; i++)
		if (v[i] != w[i])
			return 0;
	return i == len && !w[i];
}

/* A decimal number of at most 5 digits at v[*i..], up to 65535; -1 if none. */
static int64_t number_at(const char *v, size_t len, size_t *i)
{
	int64_t x = 0;
	size_t start = *i;
	while (*i < len && v[*i] >= '0' && v[*i] <= '9' && *i - start < 6)
		x = x * 10 + (v[(*i)++] - '0');
	if (*i == start || x > 65535 || (*i < len && v[*i] >= '0' && v[*i] <= '9'))
		return -1;
	return x;
}

static int refuse(struct cpus_sel *out, char *err, size_t errsize, const char *what, const char *v, size_t len)
{
	char shown[40], dym[40] = "";
	const char *const names[] = { cpus_mode_name(CPUS_BOOT), cpus_mode_name(CPUS_ALL), cpus_mode_name(CPUS_P),
				      cpus_mode_name(CPUS_E), cpus_mode_name(CPUS_ONE_PER_CORE), 0 };
	int near = len <= NEAREST_MAX ? nearest_word(v, (int)len, names, -1) : -1;
	if (near >= 0)
		fmt_format(dym, sizeof dym, " (did you mean %s?)", names[near]);
	fmt_escape(shown, sizeof shown, v, len);
	fmt_format(err, errsize, "cpus=%s: %s%s (accepted: boot, all, p, e, one-per-core, or CPU numbers in "
		   "MADT order such as 0,2,4-7)", shown, what, dym);
	out->mode = CPUS_BOOT;
	out->n = 0;
	return -1;
}

static int add_number(struct cpus_sel *out, uint32_t x)
{
	for (int k = 0; k < out->n; k++)
		if (out->list[k] == x)
			return 0;
	if (out->n >= CPUS_LIST_MAX)
		return -1;
	out->list[out->n++] = x;
	return 0;
}

int cpus_parse(const char *v, size_t len, struct cpus_sel *out, char *err, size_t errsize)
{
	static const struct {
		const char *w;
		enum cpus_mode m;
	} words[] = { { "boot", CPUS_BOOT }, { "all", CPUS_ALL }, { "p", CPUS_P }, { "e", CPUS_E },
		      { "one-per-core", CPUS_ONE_PER_CORE } };
	out->n = 0;
	if (err && errsize)
		err[0] = 0;
	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
		if (is_word(v, len, words[k].w)) {
			out->mode = words[k].m;
			return 0;
		}
	out->mode = CPUS_LIST;
	size_t i = 0;
	while (1) {
		int64_t a = number_at(v, len, &i), b = a;
		if (a < 0)
			return refuse(out, err, errsize, "not a word or a list of CPU numbers 0..65535", v, len);
		if (i < len && v[i] == '-') {
			i++;
			b = number_at(v, len, &i);
			if (b < a)
				return refuse(out, err, errsize, "a range A-B needs A <= B, both 0..65535", v, len);
		}
		for (int64_t x = a; x <= b; x++)
			if (add_number(out, (uint32_t)x) < 0)
				return refuse(out, err, errsize, "more than 64 CPU numbers", v, len);
		if (i == len)
			return 0;
		if (v[i] != ',')
			return refuse(out, err, errsize, "not a word or a list of CPU numbers 0..65535", v, len);
		i++;
	}
}

static void say(struct cpus_choice *out, const char *fmt, uint64_t a, uint64_t b)
{
	if (out->nmsgs < CPUS_MSG_MAX)
		fmt_format(out->msg[out->nmsgs++], CPUS_MSG_LEN, fmt, (unsigned long long)a, (unsigned long long)b);
}

static int boot_index(const struct cpus_desc *cpus, int n)
{
	for (int i = 0; i < n; i++)
		if (cpus[i].is_boot)
			return i;
	return 0;
}

void cpus_select(const struct cpus_sel *sel, const struct cpus_desc *cpus, int n, uint8_t *chosen,
		 struct cpus_choice *out)
{
	int boot = boot_index(cpus, n), hybrid = 0;
	out->count = out->fell_back = out->nmsgs = 0;
	for (int i = 0; i < n; i++) {
		chosen[i] = 0;
		hybrid |= cpus[i].core_type != 0;
	}
	switch (sel->mode) {
	case CPUS_BOOT:
		chosen[boot] = 1;
		break;
	case CPUS_ALL:
		for (int i = 0; i < n; i++)
			chosen[i] = cpus[i].online != 0;
		break;
	case CPUS_P:
	case CPUS_E: {
		if (!hybrid) {
			say(out, sel->mode == CPUS_P ? "cpus=p: no CPU reports a hybrid core type "
				 "(CPUID.07H:EDX[15] Hybrid is 0, or leaf 1AH is absent; AMD: CPUID "
				 "80000026H:EAX[30] is 0, or the leaf is absent)" :
				 "cpus=e: no CPU reports a hybrid core type "
				 "(CPUID.07H:EDX[15] Hybrid is 0, or leaf 1AH is absent; AMD: CPUID "
				 "80000026H:EAX[30] is 0, or the leaf is absent)", 0, 0);
			break;
		}
		for (int i = 0; i < n; i++)
			chosen[i] = cpus[i].online && (sel->mode == CPUS_P ? cpus_core_is_p(cpus[i].core_type)
								      : cpus_core_is_e(cpus[i].core_type));
		break;
	}
	case CPUS_ONE_PER_CORE:
		for (int i = 0; i < n; i++) {
			if (!cpus[i].online)
				continue;
			int first = 1;
			for (int k = 0; k < n && first; k++)
				if (k != i && cpus[k].online && cpus[k].pkg == cpus[i].pkg &&
				    cpus[k].core == cpus[i].core &&
				    (cpus[k].thread < cpus[i].thread || (cpus[k].thread == cpus[i].thread && k < i)))
					first = 0;
			chosen[i] = (uint8_t)first;
		}
		break;
	case CPUS_LIST:
		for (int k = 0; k < sel->n; k++) {
			uint32_t x = sel->list[k];
			if (x >= (uint32_t)n)
				say(out, "cpus=: CPU %llu does not exist: this machine has %llu CPUs in its MADT "
					 "(numbers 0 up)", x, (uint64_t)n);
			else if (!cpus[x].online)
				say(out, "cpus=: CPU %llu (APIC ID %llu) is not online: left out", x, cpus[x].apic_id);
			else
				chosen[x] = 1;
		}
		break;
	}
	for (int i = 0; i < n; i++)
		out->count += chosen[i];
	if (!out->count) {
		chosen[boot] = 1;
		out->count = 1;
		out->fell_back = 1;
		if (out->nmsgs == CPUS_MSG_MAX) /* this line matters most */
			out->nmsgs--;
		say(out, "cpus=: no CPU selected is online: measuring the boot CPU (number %llu, APIC ID %llu) "
			 "instead", (uint64_t)boot, cpus[boot].apic_id);
	}
}

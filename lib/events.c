/* lib/events.c - see events.h: CPUID to struct ev_cpu, the table a CPU
 * selects, names (the model's table, then the SDM's architectural events)
 * and groups to encodings. nanoBench's notation is lib/evnotation.c; the
 * tables are lib/evtables.h (generated). */
#include "events.h"
#include "evnotation.h"
#include "evtables.h"
#include "fmt.h"
#include "nearest.h"
#include "string.h"

void ev_cpu_from_cpuid(void (*cpuid)(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4]),
		       void *ctx, struct ev_cpu *c)
{
	uint32_t r[4], max, fam, model;
	char vendor[12];

	memset(c, 0, sizeof *c);
	cpuid(ctx, 0, 0, r);
	max = r[0];
	memcpy(vendor, &r[1], 4);
	memcpy(vendor + 4, &r[3], 4);
	memcpy(vendor + 8, &r[2], 4);
	if (!memcmp(vendor, "GenuineIntel", 12))
		c->vendor = EV_VENDOR_INTEL;
	else if (!memcmp(vendor, "AuthenticAMD", 12))
		c->vendor = EV_VENDOR_AMD;
	else if (!memcmp(vendor, "HygonGenuine", 12))
		c->vendor = EV_VENDOR_HYGON;
	if (max < 1)
		return;
	/* SDM Vol. 2A CPUID leaf 01H: the display family and model. */
	cpuid(ctx, 1, 0, r);
	fam = (r[0] >> 8) & 0xF;
	model = (r[0] >> 4) & 0xF;
	c->stepping = r[0] & 0xF;
	if (fam == 0xF)
		fam += (r[0] >> 20) & 0xFF;
	if (fam == 0x6 || fam >= 0xF)
		model += ((r[0] >> 16) & 0xF) << 4;
	c->family = fam;
	c->model = model;
	if (c->vendor != EV_VENDOR_INTEL)
		return;
	/* SDM Vol. 2A leaf 0AH: architectural performance monitoring. */
	if (max >= 0xA) {
		cpuid(ctx, 0xA, 0, r);
		c->arch_version = r[0] & 0xFF;
		c->arch_ebx_len = r[0] >> 24;
		c->arch_ebx = r[1];
	}
	/* Leaf 1AH: the native model ID; EAX[31:24] the core type. */
	if (max >= 0x1A) {
		cpuid(ctx, 0x1A, 0, r);
		c->core_type = r[0] >> 24;
		c->native_model = r[0] & 0xFFFFFF;
	}
}

uint64_t ev_perfevtsel(enum ev_vendor v, const struct ev_def *d)
{
	uint64_t x = (uint64_t)(d->event_select & 0xFF) | (uint64_t)d->umask << 8 | 1ull << 17 |
		     (uint64_t)(d->edge ? 1 : 0) << 18 | 1ull << 22 | (uint64_t)(d->inv ? 1 : 0) << 23 |
		     (uint64_t)d->cmask << 24;
	if (v == EV_VENDOR_AMD || v == EV_VENDOR_HYGON)
		x |= (uint64_t)((d->event_select >> 8) & 0xF) << 32;
	else
		x |= (uint64_t)(d->anyt ? 1 : 0) << 21 | (uint64_t)d->umask_ext << 40;
	return x;
}

/* The ev_tab_tables index c selects, or -1 with why[]. */
static int table_of(const struct ev_cpu *c, char *why, size_t whylen)
{
	int hit = -1, hybrid = 0;
	/* A hybrid model's part that reports no core type (CPUID.1AH reads 0:
	 * Alder Lake 6-97 parts with P-cores only, or E-cores disabled) runs
	 * P-cores: its Core (40H) table. */
	uint32_t core_type = c->core_type ? c->core_type : 0x40;
	const char *vn = c->vendor == EV_VENDOR_INTEL ? "GenuineIntel" :
			 c->vendor == EV_VENDOR_AMD   ? "AuthenticAMD" :
			 c->vendor == EV_VENDOR_HYGON ? "HygonGenuine" : "a vendor other than Intel, AMD and Hygon";

	for (int i = 0; i < ev_tab_nselects; i++) {
		const struct ev_tab_select *s = &ev_tab_selects[i];
		if (s->vendor != (uint8_t)c->vendor || s->family != c->family || c->model < s->model_lo ||
		    c->model > s->model_hi || c->stepping > 15 || !(s->steppings >> c->stepping & 1))
			continue;
		if (s->core_type) {
			hybrid = 1;
			if (s->core_type != core_type)
				continue;
			/* Two tables of one core type (Arrow Lake 6-C5: Skymont and the
			 * Crestmont LP E-cores): the native model ID picks; without one,
			 * the first row. */
			if (s->native_model && c->native_model && s->native_model != c->native_model)
				continue;
		}
		hit = s->table;
		break;
	}
	if (hit < 0 && why && whylen) {
		char fam[16];
		/* The family as the vendors write it: 6, 0FH, 17H (hex from 10). */
		fmt_format(fam, sizeof fam, c->family < 10 ? "%u" : "0x%X", c->family);
		if (c->vendor == EV_VENDOR_OTHER)
			fmt_format(why, whylen, "no event table for %s", vn);
		else if (hybrid)
			fmt_format(why, whylen,
				   "%s family %s model 0x%02X is hybrid and CPUID.1AH:EAX[31:24] gives core "
				   "type 0x%02X, none of its tables' (intel/perfmon mapfile.csv)",
				   vn, fam, c->model, c->core_type);
		else
			fmt_format(why, whylen, "no %s table for %s family %s model 0x%02X stepping %u",
				   c->vendor == EV_VENDOR_INTEL ? "intel/perfmon" : "libpfm4 (AMD PPR)", vn,
				   fam, c->model, c->stepping);
	}
	return hit;
}

const char *ev_table_name(const struct ev_cpu *c, char *why, size_t whylen)
{
	int t = table_of(c, why, whylen);
	return t < 0 ? 0 : ev_tab_tables[t].name;
}

static const char *part(uint16_t i)
{
	return i == EV_TAB_NO_PART ? "" : ev_tab_pool + ev_tab_parts[i];
}

static char upper(char ch)
{
	return ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
}

/* 1 when s[0..len-1] equals the NUL-terminated upper-case p, any case. */
static int same(const char *s, size_t len, const char *p)
{
	size_t i;
	for (i = 0; i < len; i++)
		if (!p[i] || upper(s[i]) != p[i])
			return 0;
	return !p[i];
}

/* The index into ev_tab_events of name[0..len-1] in table t, or -1. */
static int find_in_table(int t, const char *name, size_t len)
{
	const struct ev_tab_table *tab = &ev_tab_tables[t];
	size_t dot = 0;
	while (dot < len && name[dot] != '.')
		dot++;
	for (uint32_t i = 0; i < tab->count; i++) {
		const struct ev_tab_event *e = &ev_tab_events[ev_tab_index[tab->start + i]];
		if (!same(name, dot, part(e->pre)))
			continue;
		if (e->suf == EV_TAB_NO_PART ? dot == len : dot < len && same(name + dot + 1, len - dot - 1, part(e->suf)))
			return ev_tab_index[tab->start + i];
	}
	return -1;
}

static void fill_table(int t, int k, struct ev_def *d)
{
	const struct ev_tab_event *e = &ev_tab_events[k];
	const struct ev_tab_attr *a = &ev_tab_attrs[e->attr];
	enum ev_vendor v = ev_tab_tables[t].layout == 1 ? EV_VENDOR_INTEL : EV_VENDOR_AMD;

	memset(d, 0, sizeof *d);
	fmt_format(d->name, sizeof d->name, "%s%s%s", part(e->pre), e->suf == EV_TAB_NO_PART ? "" : ".",
		   part(e->suf));
	d->origin = EV_ORIGIN_TABLE;
	d->source = ev_tab_tables[t].source;
	d->event_select = (uint16_t)(e->evsel | (uint16_t)a->evsel_hi << 8);
	d->umask = e->umask;
	d->umask_ext = a->umask_ext;
	d->cmask = e->cmask;
	d->inv = e->flags & EV_TAB_INV ? 1 : 0;
	d->edge = e->flags & EV_TAB_EDGE ? 1 : 0;
	d->anyt = e->flags & EV_TAB_ANYT ? 1 : 0;
	d->taken_alone = e->flags & EV_TAB_TAKEN_ALONE ? 1 : 0;
	d->counters = a->counters;
	d->fixed = a->fixed >= 0 ? a->fixed : EV_FIXED_NONE;
	d->fixed_only = a->fixed >= 0 && a->counters == 0;
	d->msr_index = a->msr_index;
	d->msr_value = ev_tab_msrs[e->msr];
	d->perfevtsel = ev_perfevtsel(v, d);
}

/* The SDM's pre-defined architectural events (SDM Vol. 3B, "Pre-defined
 * Architectural Performance Events", table "UMask and Event Select
 * Encodings for Pre-Defined Architectural Performance Events"; bit = its
 * CPUID.0AH:EBX bit), by intel/perfmon's names; and the fixed counters'
 * events ("Fixed-Function Performance Counters": fixed counter 0
 * instructions retired, 1 core cycles, 2 reference cycles at the TSC's
 * rate, 3 TOPDOWN.SLOTS), with perfmon's pseudo-encodings (event 00H,
 * umask = fixed counter + 1). Used only where the CPU's table lacks the
 * name (or there is none). Events 8-12 of the SDM's table (the topdown
 * slots of E-cores, LBR inserts) are left to the model tables: their
 * perfmon names differ between core types. */
static const struct {
	const char *name;
	uint8_t evsel, umask, bit;
	int8_t fixed;
} arch_events[] = {
	{"INST_RETIRED.ANY", 0x00, 0x01, 1, 0},
	{"CPU_CLK_UNHALTED.THREAD", 0x00, 0x02, 0, 1},
	{"CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2, 2},
	{"TOPDOWN.SLOTS", 0x00, 0x04, 7, 3},
	{"CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, 0, -1},
	{"INST_RETIRED.ANY_P", 0xC0, 0x00, 1, -1},
	{"CPU_CLK_UNHALTED.REF_XCLK", 0x3C, 0x01, 2, -1},
	{"LONGEST_LAT_CACHE.REFERENCE", 0x2E, 0x4F, 3, -1},
	{"LONGEST_LAT_CACHE.MISS", 0x2E, 0x41, 4, -1},
	{"BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0x00, 5, -1},
	{"BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, 6, -1},
	{"TOPDOWN.SLOTS_P", 0xA4, 0x01, 7, -1},
};
#define N_ARCH ((int)(sizeof arch_events / sizeof arch_events[0]))

static int find_arch(const char *name, size_t len)
{
	for (int i = 0; i < N_ARCH; i++)
		if (same(name, len, arch_events[i].name))
			return i;
	return -1;
}

/* 0 and *d, or -1 with err[] when CPUID.0AH says the event is absent. */
static int fill_arch(const struct ev_cpu *c, int i, struct ev_def *d, char *err, size_t errlen)
{
	unsigned bit = arch_events[i].bit;
	if (c->arch_version >= 1 && (bit >= c->arch_ebx_len || (c->arch_ebx >> bit & 1))) {
		if (bit >= c->arch_ebx_len)
			fmt_format(err, errlen,
				   "%s is architectural event %u, beyond the %u this CPU enumerates "
				   "(CPUID.0AH:EAX[31:24])", arch_events[i].name, bit, c->arch_ebx_len);
		else
			fmt_format(err, errlen, "%s is architectural event %u, not available here (CPUID.0AH:EBX[%u] = 1)",
				   arch_events[i].name, bit, bit);
		return -1;
	}
	memset(d, 0, sizeof *d);
	fmt_format(d->name, sizeof d->name, "%s", arch_events[i].name);
	d->origin = EV_ORIGIN_ARCH;
	d->source = "SDM Vol. 3B architectural event";
	d->event_select = arch_events[i].evsel;
	d->umask = arch_events[i].umask;
	d->fixed = arch_events[i].fixed >= 0 ? arch_events[i].fixed : EV_FIXED_NONE;
	d->fixed_only = arch_events[i].fixed >= 0;
	d->counters = d->fixed_only ? 0 : EV_COUNTERS_ANY;
	d->perfevtsel = ev_perfevtsel(EV_VENDOR_INTEL, d);
	return 0;
}

/* name[0..len-1] from the table t (>= 0), else the architectural events
 * (Intel only): 1, 0 when unknown, -1 with err[] when known but absent. */
static int lookup(const struct ev_cpu *c, int t, const char *name, size_t len, struct ev_def *d, char *err,
		  size_t errlen)
{
	int k = t >= 0 ? find_in_table(t, name, len) : -1;
	if (k >= 0) {
		fill_table(t, k, d);
		return 1;
	}
	if (c->vendor == EV_VENDOR_INTEL && (k = find_arch(name, len)) >= 0)
		return fill_arch(c, k, d, err, errlen) < 0 ? -1 : 1;
	return 0;
}

/* The distance of name[0..len-1] (upper-cased in u) from a table entry,
 * part by part (a name's parts are each at most NEAREST_MAX long). */
static int name_distance(const char *u, size_t dot, size_t len, const struct ev_tab_event *e)
{
	const char *p = part(e->pre), *s = part(e->suf);
	int d = nearest_distance(u, (int)dot, p, (int)strlen(p));
	if (dot < len)
		d += nearest_distance(u + dot + 1, (int)(len - dot - 1), s, (int)strlen(s));
	else
		d += (int)strlen(s) + (e->suf == EV_TAB_NO_PART ? 0 : 1);
	return d;
}

/* did-you-mean: the entry of table t nearest name (3 d <= length + 1, d
 * <= 3, nearest_word's rule over the whole name), or -1. */
static int nearest_in_table(int t, const char *name, size_t len)
{
	char u[2 * NEAREST_MAX + 2];
	size_t dot = 0;
	int best = -1, bestd = 1000;
	if (len >= sizeof u)
		return -1;
	for (size_t i = 0; i < len; i++)
		u[i] = upper(name[i]);
	while (dot < len && u[dot] != '.')
		dot++;
	if (dot > NEAREST_MAX || len - dot > NEAREST_MAX + 1)
		return -1;
	for (uint32_t i = 0; i < ev_tab_tables[t].count; i++) {
		int k = ev_tab_index[ev_tab_tables[t].start + i];
		const struct ev_tab_event *e = &ev_tab_events[k];
		int d = name_distance(u, dot, len, e);
		if (d < bestd) {
			size_t l = strlen(part(e->pre)) + (e->suf == EV_TAB_NO_PART ? 0 : 1 + strlen(part(e->suf)));
			size_t longer = l > len ? l : len;
			if (d <= 3 && 3 * (size_t)d <= longer + 1) {
				bestd = d;
				best = k;
			}
		}
	}
	return best;
}

static int same_word(const char *s, size_t len, const char *w)
{
	size_t i;
	for (i = 0; i < len; i++)
		if (!w[i] || upper(s[i]) != upper(w[i]))
			return 0;
	return !w[i];
}

/* Groups: their members, tried in order; a set is taken when all its
 * names resolve on this CPU (the first such set), else, for branches and
 * caches, every member that resolves (at least one). */
static const char *const grp_branches[] = {
	"BR_INST_RETIRED.ALL_BRANCHES", "BR_MISP_RETIRED.ALL_BRANCHES", /* Intel (SDM architectural 5, 6) */
	"RETIRED_BRANCH_INSTRUCTIONS", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", /* AMD PPR Ex_Ret_Brn(_Misp) */
	0};
static const char *const grp_caches[] = {
	/* Intel cores: L1D fills, L2 requests and misses, last-level-cache misses */
	"L1D.REPLACEMENT", "L2_RQSTS.REFERENCES", "L2_RQSTS.MISS", "LONGEST_LAT_CACHE.MISS",
	/* Intel cores without L2_RQSTS (Ice Lake server), Atom cores: retired loads that missed */
	"MEM_LOAD_RETIRED.L1_MISS", "MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_UOPS_RETIRED.L1_MISS",
	"MEM_LOAD_UOPS_RETIRED.L2_MISS", "MEM_UOPS_RETIRED.L1_MISS_LOADS",
	/* AMD Zen (PPR LS and L2 events): L1D accesses (Zen 1) or loads and stores
	 * dispatched, L1D read misses to L2, those that miss L2 */
	"DATA_CACHE_ACCESSES", "LS_DISPATCH.LD_ST_DISPATCH", "REQUESTS_TO_L2_GROUP1.RD_BLK_L",
	"CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS.LS_RD_BLK_C", 0};
/* topdown: level 1 of Intel's TMA (intel/perfmon TMA_Metrics-full.csv,
 * E-core_TMA_Metrics.csv), the events of its level-1 formulas:
 *  - Ice Lake and later P-cores: TOPDOWN.SLOTS on fixed counter 3 (where
 *    CPUID enumerates IA32_PERF_METRICS, the four fractions are read beside
 *    it) and the formulas' events: Frontend_Bound = IDQ_UOPS_NOT_DELIVERED.CORE
 *    (IDQ_BUBBLES.CORE from Sapphire Rapids) / SLOTS, Backend_Bound =
 *    TOPDOWN.BACKEND_BOUND_SLOTS / SLOTS, Retiring = UOPS_RETIRED.SLOTS /
 *    SLOTS, Bad_Speculation the rest;
 *  - Sandy Bridge to Cascade Lake: SLOTS = 4 CPU_CLK_UNHALTED.THREAD,
 *    Frontend_Bound = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS, Retiring =
 *    UOPS_RETIRED.RETIRE_SLOTS / SLOTS, Bad_Speculation = (UOPS_ISSUED.ANY -
 *    UOPS_RETIRED.RETIRE_SLOTS + 4 INT_MISC.RECOVERY_CYCLES) / SLOTS,
 *    Backend_Bound the rest;
 *  - E-cores (Tremont, Gracemont, ...): the four TOPDOWN_*.ALL slot counts
 *    and CPU_CLK_UNHALTED.CORE. */
static const char *const td_spr[] = {"TOPDOWN.SLOTS", "IDQ_BUBBLES.CORE", "TOPDOWN.BACKEND_BOUND_SLOTS",
				     "UOPS_RETIRED.SLOTS", 0};
static const char *const td_icl[] = {"TOPDOWN.SLOTS", "IDQ_UOPS_NOT_DELIVERED.CORE", "TOPDOWN.BACKEND_BOUND_SLOTS",
				     "UOPS_RETIRED.SLOTS", 0};
static const char *const td_core[] = {"CPU_CLK_UNHALTED.THREAD", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY",
				      "UOPS_RETIRED.RETIRE_SLOTS", "INT_MISC.RECOVERY_CYCLES", 0};
static const char *const td_atom[] = {"CPU_CLK_UNHALTED.CORE", "TOPDOWN_RETIRING.ALL", "TOPDOWN_BAD_SPECULATION.ALL",
				      "TOPDOWN_FE_BOUND.ALL", "TOPDOWN_BE_BOUND.ALL", 0};

static int all_of(const struct ev_cpu *c, int t, const char *const *names, struct ev_def *out, int max)
{
	int n = 0;
	char e[8];
	for (; names[n]; n++) {
		if (n >= max)
			return -2;
		if (t < 0 && c->vendor != EV_VENDOR_INTEL)
			return -1;
		if (lookup(c, t, names[n], strlen(names[n]), &out[n], e, sizeof e) != 1)
			return -1;
	}
	return n;
}

static int group(const struct ev_cpu *c, int t, const char *item, size_t len, struct ev_def *out, int max,
		 char *err, size_t errlen, const char *tname)
{
	int n = 0;
	char e[8];
	if (same_word(item, len, "topdown")) {
		const char *const *sets[] = {td_spr, td_icl, td_core, td_atom};
		for (int s = 0; s < 4; s++) {
			/* TOPDOWN.SLOTS must come from the model's table (a model with fixed counter 3). */
			n = all_of(c, t, sets[s], out, max);
			if (n == -2) {
				fmt_format(err, errlen, "group topdown: more than %d events", max);
				return -1;
			}
			if (n > 0 && (s > 1 || out[0].origin == EV_ORIGIN_TABLE))
				return n;
		}
		fmt_format(err, errlen,
			   "group topdown: %s has not the events of TMA level 1 (intel/perfmon's TMA metrics)", tname);
		return -1;
	}
	const char *const *m = same_word(item, len, "branches") ? grp_branches :
			       same_word(item, len, "caches")   ? grp_caches : 0;
	if (!m)
		return 0;
	for (int i = 0; m[i]; i++) {
		struct ev_def d;
		if (lookup(c, t, m[i], strlen(m[i]), &d, e, sizeof e) != 1)
			continue;
		if (n >= max) {
			fmt_format(err, errlen, "group %.*s: more than %d events", (int)len, item, max);
			return -1;
		}
		out[n++] = d;
		if (m == grp_caches && n == 4)
			break;
	}
	if (!n) {
		fmt_format(err, errlen, "group %.*s: none of its events is in %s", (int)len, item, tname);
		return -1;
	}
	return n;
}

/* nanoBench's notation (lib/evnotation.h) as an event: 1, or -1 with err[]. */
static int from_notation(const struct ev_cpu *c, const char *item, size_t len, struct ev_def *d, char *err,
			 size_t errlen)
{
	struct ev_notation n;
	int amd = c->vendor == EV_VENDOR_AMD || c->vendor == EV_VENDOR_HYGON;
	if (ev_notation_parse(amd, item, len, &n, err, errlen) < 0)
		return -1;
	memset(d, 0, sizeof *d);
	fmt_format(d->name, sizeof d->name, "%s", n.name);
	d->origin = EV_ORIGIN_NANOBENCH;
	d->source = "nanoBench notation as given";
	d->event_select = n.event_select;
	d->umask = n.umask;
	d->cmask = n.cmask;
	d->inv = n.inv;
	d->edge = n.edge;
	d->anyt = n.anyt;
	d->taken_alone = n.taken_alone;
	d->counters = n.ctr >= 0 ? 1u << n.ctr : EV_COUNTERS_ANY;
	d->fixed = EV_FIXED_NONE;
	d->msr_index = n.msr_index;
	d->msr_value = n.msr_value;
	d->perfevtsel = ev_perfevtsel(amd ? EV_VENDOR_AMD : EV_VENDOR_INTEL, d);
	return 1;
}

int ev_resolve(const struct ev_cpu *c, const char *item, size_t len, struct ev_def *out, int max, char *err,
	       size_t errlen)
{
	char why[160];
	int t, r, k;
	const char *tname;

	if (err && errlen)
		err[0] = 0;
	while (len && (item[0] == ' ' || item[0] == '\t'))
		item++, len--;
	while (len && (item[len - 1] == ' ' || item[len - 1] == '\t'))
		len--;
	if (!len) {
		fmt_format(err, errlen, "an empty event name");
		return -1;
	}
	if (max < 1) {
		fmt_format(err, errlen, "no room for event %.*s", (int)(len > 60 ? 60 : len), item);
		return -1;
	}
	t = table_of(c, why, sizeof why);
	tname = t >= 0 ? ev_tab_tables[t].name : why;
	r = group(c, t, item, len, out, max, err, errlen, t >= 0 ? tname : "this CPU (no table)");
	if (r)
		return r;
	if (len >= EV_NAME_MAX + 64) {
		fmt_format(err, errlen, "event name %.40s... is too long", item);
		return -1;
	}
	r = lookup(c, t, item, len, out, err, errlen);
	if (r == 1)
		return 1;
	if (r < 0)
		return -1;
	if (ev_notation_like(item, len))
		return from_notation(c, item, len, out, err, errlen);
	k = t >= 0 ? nearest_in_table(t, item, len) : -1;
	if (k >= 0) {
		struct ev_def d;
		fill_table(t, k, &d);
		fmt_format(err, errlen, "unknown event %.*s on %s; did you mean %s?", (int)(len > 64 ? 64 : len), item,
			   tname, d.name);
	} else if (t >= 0) {
		fmt_format(err, errlen, "unknown event %.*s on %s (tools/bench.py events --search lists them)",
			   (int)(len > 64 ? 64 : len), item, tname);
	} else {
		fmt_format(err, errlen, "unknown event %.*s: %s%s", (int)(len > 64 ? 64 : len), item, why,
			   c->vendor == EV_VENDOR_INTEL ? "; only the SDM's architectural events and nanoBench's "
							  "notation resolve" : "; only nanoBench's notation resolves");
	}
	return -1;
}

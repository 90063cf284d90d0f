/* bench/sweep.c - see sweep.h. sweep=latency: the latency of a load at
 * each size of area, by a pointer chase (lmbench's lat_mem_rd; 7-cpu.com's
 * tables), measured as code= measures: the N and 2N windows of one TSC
 * method (and of the counter method ctr_rdpmc for core cycles), their
 * least minimums, the 2N-N figure per load (lib/percopy.h). */
#include "sweep.h"
#include "methods.h"
#include "percopytext.h"
#include "report.h"
#include "results.h"
#include "../kernel/clocks.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/memarea.h"
#include "../kernel/pmu.h"
#include "../lib/cachelist.h"
#include "../lib/cpuinfo.h"
#include "../lib/fmt.h"
#include "../lib/latlevels.h"
#include "../lib/record.h"

/* The loads of the N window; the 2N window executes twice as many. A
 * prime: the TSC's step (bench/results.h) is the gcd of the windows'
 * figures, N + o and 2N + o for a method's offset o, which is gcd(N, o):
 * with N prime and o below it, 1 where the TSC counts single ticks (with
 * N = 256 and lfence's offset of 4 instructions under -icount, every
 * figure was a multiple of 4 and no figure could be called exact). */
#define SWEEP_N 251
/* Ensembles x samples per size and window: fixed, not cfg's (the sweep
 * has many sizes; each ensemble's minimum is what counts). */
#define SWEEP_ENSEMBLES 8
#define SWEEP_SAMPLES 16
#define SWEEP_LINE 64
#define SWEEP_MIN_BYTES (64 * 1024ull)
#define SWEEP_FIRST_BYTES 4096ull
#define SWEEP_POINTS 128

/* The chase's register: R8, which no start or stop sequence changes
 * (SEQ_CLOBBERS: RAX, RBX, RCX, RDX, RSI, RDI), so it is carried from
 * sample to sample and the successive samples walk on along the cycle.
 * Each load is `mov (%r8), %r8`: the next line's address from the first
 * 8 bytes of this one. */
#define SWEEP__LOADS(k) ".rept " #k "\n\tmov (%%r8), %%r8\n\t.endr\n\t"
#define SWEEP__BODY(k) __asm__ volatile(SWEEP__LOADS(k) : "+r"(p) : : "memory")

static uint64_t sweep_cursor; /* where the chase stands between sampling calls */

/* sampling loops: n samples of the window with k loads into out[] (TSC
 * ticks), or core cycles into out[] (ctr: the raw IA32_FIXED_CTR1
 * difference, masked afterwards). Named bench_fill_* so that
 * tests/boot/check_windows.py checks them. */
#define SWEEP__FILL(k, m, window)                                                  \
	static void bench_fill_sweep##k##_##m(uint64_t *out, uint64_t n)          \
	{                                                                      \
		register uint64_t p __asm__("r8") = sweep_cursor;              \
		uint64_t *volatile o = out;                                    \
		volatile uint64_t nv = n;                                      \
		for (volatile uint64_t i = 0; i < nv; i++) {                   \
			uint64_t d, di;                                        \
			window;                                                \
			(void)di;                                              \
			o[i] = d;                                              \
		}                                                              \
		sweep_cursor = p;                                              \
	}
#define SWEEP__FILL_TSC(k, m, start, stop) SWEEP__FILL(k, m, BENCH_TSC_WINDOW(start, SWEEP__BODY(k), stop, d))
#define SWEEP__FILL_CTR(k, m, start, stop) SWEEP__FILL(k, m, BENCH_CTR_WINDOW(start, SWEEP__BODY(k), stop, di, d))
#define SWEEP__FILL_N(arg, m, start, stop) SWEEP__FILL_TSC(251, m, start, stop) SWEEP__FILL_TSC(502, m, start, stop)
FOR_EACH_TSC_METHOD(SWEEP__FILL_N, _)
SWEEP__FILL_CTR(251, ctr_rdpmc, SEQ_START_RDPMC_CPUID, SEQ_STOP_CPUID_RDPMC)
SWEEP__FILL_CTR(502, ctr_rdpmc, SEQ_START_RDPMC_CPUID, SEQ_STOP_CPUID_RDPMC)

typedef void (*sweep_fill)(uint64_t *out, uint64_t n);
#define SWEEP__PTR(arg, m, start, stop) [METHOD_##m] = { bench_fill_sweep251_##m, bench_fill_sweep502_##m },
static const sweep_fill fills[METHOD_COUNT][2] = {
	FOR_EACH_TSC_METHOD(SWEEP__PTR, _)
	[METHOD_ctr_rdpmc] = { bench_fill_sweep251_ctr_rdpmc, bench_fill_sweep502_ctr_rdpmc },
};

static const struct mem_area *area;

static const char *size_text(char *buf, uint64_t bytes)
{
	return latlevels_size_text(buf, 24, bytes);
}

static uint64_t area_bytes, wanted_bytes;
static struct cache_list caches;
static const char *area_page_why;
static uint64_t area_largest, area_twice;

/* The area's lines (at the start of sweep_run: after the config line). */
static void area_print(void)
{
	char a[24], b[24], c[24];
	kprintf("sweep: area of %s at 0x%llx for sizes from 4 KiB up to it, %s; caches from %s\n",
		size_text(a, area_bytes), (unsigned long long)area->phys, area_page_why, caches.source);
	if (area_bytes < wanted_bytes && area_bytes < area_twice)
		kprintf("sweep: only %s fits in free RAM, less than twice the largest cache CPUID lists (%s): the "
			"sweep ends at %s\n", size_text(a, area_bytes), size_text(b, area_largest), size_text(c, area_bytes));
}

/* Whether CPUID.80000001H:EDX[26] (Page1GB) says 1 GiB pages exist. */
static int has_1g_pages(const struct cpu_info *cpu)
{
	uint32_t r[4];
	if (cpu->max_ext < 0x80000001u)
		return 0;
	cpuid_into(0, 0x80000001u, 0, r);
	return r[3] >> 26 & 1;
}


int sweep_prepare(const struct config *cfg, const struct cpu_info *cpu)
{
	char a[24], b[24], c[24];
	if (cfg->sweep != SWEEP_LATENCY)
		return 0;
	cachelist_read(cpuid_into, 0, cpu, &caches);
	uint64_t largest = cachelist_largest(&caches);
	/* Four times the largest cache where RAM allows (so DRAM shows a plateau
	 * of its own), at least twice it; 64 MiB when CPUID lists none. */
	uint64_t twice = largest ? 2 * largest : 32ull << 20;
	uint64_t page, reserve = cfg->ensembles * cfg->samples * 3 * sizeof(uint64_t) + (1ull << 20);
	const char *page_why;
	int one_g = has_1g_pages(cpu);
	if (cfg->mem_pages == MEM_PAGES_4K)
		page = 4096, page_why = "mem.pages=4k: TLB misses show in the curve";
	else if (cfg->mem_pages == MEM_PAGES_2M)
		page = 2ull << 20, page_why = "mem.pages=2m";
	else if (one_g && twice <= (1ull << 30) && memarea_largest(1ull << 30) >= twice + reserve)
		page = 1ull << 30, page_why = cfg->mem_pages == MEM_PAGES_1G ? "mem.pages=1g" :
			"1 GiB pages (CPUID.80000001H:EDX[26]): no TLB misses in the curve";
	else if (cfg->mem_pages == MEM_PAGES_1G)
		page = 2ull << 20, page_why = !one_g ? "2 MiB pages: mem.pages=1g, but this CPU has no 1 GiB pages "
			"(CPUID.80000001H:EDX[26]=0)" : "2 MiB pages: mem.pages=1g, but the area and a 1 GiB page do not "
			"fit in free RAM";
	else
		page = 2ull << 20, page_why = !one_g ? "2 MiB pages: no 1 GiB pages (CPUID.80000001H:EDX[26]=0)" :
			"2 MiB pages: the area and a 1 GiB page do not fit in free RAM";
	uint64_t room = memarea_largest(page);
	room = room > reserve ? (room - reserve) & ~4095ull : 0;
	wanted_bytes = room >= 2 * twice ? 2 * twice : twice;
	area_bytes = wanted_bytes <= room ? wanted_bytes : room;
	if (page > 4096 && area_bytes < page && area_bytes < wanted_bytes) {
		/* less than one large page fits: 4 KiB pages, as many as do */
		page = 4096, page_why = "4 KiB pages: less than one 2 MiB page fits in free RAM";
		room = memarea_largest(page);
		room = room > reserve ? (room - reserve) & ~4095ull : 0;
		area_bytes = wanted_bytes <= room ? wanted_bytes : room;
	}
	area_bytes &= ~(page - 1); /* whole pages: memarea_take maps no part of one */
	if (area_bytes < SWEEP_MIN_BYTES) {
		kprintf("sweep: no area for sweep=latency: %s of free RAM for %s pages beside the run's buffers, not "
			"even the %s the smallest sweep needs%s%s\n", size_text(a, room), size_text(b, page),
			size_text(c, SWEEP_MIN_BYTES), memarea_refusal()[0] ? ": " : "", memarea_refusal());
		area_bytes = 0;
		return 1;
	}
	area = memarea_take("sweep", area_bytes, page, PG_WB);
	if (!area) {
		kprintf("sweep: no area for sweep=latency (%s with %s pages): %s\n", size_text(a, area_bytes),
			size_text(b, page), memarea_refusal()[0] ? memarea_refusal() : "memarea_take refused");
		area_bytes = 0;
		return 1;
	}
	area_page_why = page_why;
	area_largest = largest;
	area_twice = twice;
	return 0;
}

/* Sattolo's algorithm over the size's lines: a random cyclic permutation
 * (one cycle through every line), fixed-seed xorshift64 so runs repeat;
 * each line's first 8 bytes then hold the address of the next. The
 * permutation is kept in those 8 bytes as line indexes first. */
static uint64_t build_cycle(uint64_t base, uint64_t lines)
{
	volatile uint64_t *line = (volatile uint64_t *)base;
	uint64_t x = 0x9E3779B97F4A7C15ull ^ lines;
	for (uint64_t i = 0; i < lines; i++)
		line[i * (SWEEP_LINE / 8)] = i;
	for (uint64_t i = lines - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t j = x % i; /* j < i: Sattolo's, not Fisher-Yates' */
		uint64_t t = line[i * (SWEEP_LINE / 8)];
		line[i * (SWEEP_LINE / 8)] = line[j * (SWEEP_LINE / 8)];
		line[j * (SWEEP_LINE / 8)] = t;
	}
	for (uint64_t i = 0; i < lines; i++)
		line[i * (SWEEP_LINE / 8)] = base + line[i * (SWEEP_LINE / 8)] * SWEEP_LINE;
	/* one walk around the cycle (outside any window): the caches hold what
	 * they will hold while the windows walk it */
	uint64_t p = base;
	for (uint64_t i = 0; i < lines; i++)
		p = *(volatile uint64_t *)p;
	return p;
}

/* One size in one unit: E ensembles of S samples of the N and the 2N
 * windows, alternating; the minimum of each ensemble, the least of those. */
static struct tsc_step step_seen; /* the run's TSC figures and the sweep's (results_step_add) */

static void measure(const sweep_fill f[2], uint64_t mask, int tsc, struct percopy_window w[2])
{
	static uint64_t buf[SWEEP_SAMPLES];
	for (int k = 0; k < 2; k++) {
		w[k].var_of_mins = 0;
		w[k].var_ok = 0;
		w[k].min_of_mins = ~0ull;
		w[k].max_of_mins = 0;
	}
	for (int e = 0; e < SWEEP_ENSEMBLES; e++)
		for (int k = 0; k < 2; k++) {
			f[k](buf, SWEEP_SAMPLES);
			uint64_t m = ~0ull;
			for (int i = 0; i < SWEEP_SAMPLES; i++)
				if ((buf[i] & mask) < m)
					m = buf[i] & mask;
			if (tsc)
				results_step_add(&step_seen, m);
			if (m < w[k].min_of_mins)
				w[k].min_of_mins = m;
			if (m > w[k].max_of_mins)
				w[k].max_of_mins = m;
		}
}

/* "4.000 TSC ticks per load exactly" and the like (the per-copy words of
 * bench/percopytext.h, per load) into buf. */
static const char *per_load_words(char *buf, size_t size, const struct percopy *p, const char *un)
{
	char f[24], g[24];
	percopy_milli_text(f, sizeof f, p->neg, p->milli);
	percopy_milli_text(g, sizeof g, 0, p->bound_milli);
	switch (p->kind) {
	case PERCOPY_EXACT:
		fmt_format(buf, size, "%s %s per load exactly", f, un);
		break;
	case PERCOPY_FIGURE:
		fmt_format(buf, size, "%s +- %s %s per load", f, g, un);
		break;
	case PERCOPY_BELOW_RESOLUTION:
		fmt_format(buf, size, "below resolution: at most %s %s per load", g, un);
		break;
	case PERCOPY_BELOW_ZERO:
		fmt_format(buf, size, "below zero: %s %s per load, not a duration", f, un);
		break;
	default:
		fmt_format(buf, size, "not a figure: a least minimum wrapped (the %s moved back)",
			   un[0] == 'T' ? "TSC" : "counter");
	}
	return buf;
}

/* thousandths of a unit at hz as "1.636" ns (three significant digits at least). */
static const char *ns_text(char *buf, uint64_t milli, uint64_t hz)
{
	uint64_t ns_milli = hz ? milli * 1000000000ull / hz : 0; /* milli < 2^34 in practice */
	int dec = ns_milli < 10000 ? 3 : ns_milli < 100000 ? 2 : ns_milli < 1000000 ? 1 : 0;
	return latlevels_figure(buf, 24, ns_milli, dec);
}

static struct latpoint points[2][SWEEP_POINTS];

static void point_out(int u, uint64_t bytes, const struct percopy *p, uint64_t least_n, uint64_t least_2n,
		      uint64_t hz)
{
	char what[200], sz[24], ns[24], nb[24];
	if (config_human()) {
		per_load_words(what, sizeof what, p, unit_name[u]);
		/* the time carries the figure's bound, as the ticks do */
		if (u == UNIT_TSC && hz && p->kind == PERCOPY_FIGURE && !p->neg)
			kprintf("latency: %s: %s (%s +- %s ns)\n", size_text(sz, bytes), what, ns_text(ns, p->milli, hz),
				ns_text(nb, p->bound_milli, hz));
		else if (u == UNIT_TSC && hz && p->kind == PERCOPY_EXACT && !p->neg)
			kprintf("latency: %s: %s (%s ns)\n", size_text(sz, bytes), what, ns_text(ns, p->milli, hz));
		else
			kprintf("latency: %s: %s\n", size_text(sz, bytes), what);
	}
	if (config_json()) {
		struct rec rc;
		rec_begin(&rc, "latency_point");
		rec_u64(&rc, "bytes", bytes);
		rec_u64(&rc, "loads", SWEEP_N);
		rec_str(&rc, "unit", unit_key[u]);
		code_per_copy_fields(&rc, p, least_n, least_2n);
		rec_end(&rc);
	}
}

static struct latlevels found[2];
static int found_ok[2];

int sweep_levels(int u, struct latlevels *out)
{
	if (u < 0 || u > 1 || !found_ok[u])
		return 0;
	*out = found[u];
	return 1;
}

const char *sweep_screen_text(int u, char *buf, int size)
{
	char fig[24], sz[24];
	int len;
	if (u < 0 || u > 1 || !found_ok[u])
		return 0;
	len = fmt_format(buf, (size_t)size, "memory latency, %s per load:", unit_name[u]);
	for (int i = 0; i < found[u].n && len < size; i++) {
		const struct latlevel *l = &found[u].l[i];
		latlevels_figure(fig, sizeof fig, l->milli, l->decimals);
		if (l->cpuid_bytes)
			len += fmt_format(buf + len, (size_t)(size - len), "%s %s %s %s", i ? ";" : "", l->name,
					  size_text(sz, l->cpuid_bytes), fig);
		else
			len += fmt_format(buf + len, (size_t)(size - len), "%s %s %s", i ? ";" : "", l->name, fig);
	}
	if (!found[u].n && len < size)
		fmt_format(buf + len, (size_t)(size - len), " no level told apart%s",
			   found[u].plateaus == 1 ? " (a flat curve)" : "");
	return buf;
}

static void levels_out(int u, int npoints, const uint64_t *cache_bytes, int ncaches, uint64_t hz)
{
	struct latlevels lv;
	char line[600], fig[24], sz[24], ed[24], ns[24];
	size_t len = 0;
	latlevels_find(points[u], npoints, cache_bytes, ncaches, &lv);
	found[u] = lv;
	found_ok[u] = 1;
	if (config_human()) {
		len += (size_t)fmt_format(line + len, sizeof line - len, "latency: levels in %s:", unit_name[u]);
		for (int i = 0; i < lv.n; i++) {
			const struct latlevel *l = &lv.l[i];
			latlevels_figure(fig, sizeof fig, l->milli, l->decimals);
			if (l->cpuid_bytes)
				len += (size_t)fmt_format(line + len, sizeof line - len, "%s %s %s: %s", i ? ";" : "",
							  l->name, size_text(sz, l->cpuid_bytes), fig);
			else
				len += (size_t)fmt_format(line + len, sizeof line - len, "%s %s: %s", i ? ";" : "",
							  l->name, fig);
			if (!i)
				len += (size_t)fmt_format(line + len, sizeof line - len, " %s per load", unit_name[u]);
			if (u == UNIT_TSC && hz)
				len += (size_t)fmt_format(line + len, sizeof line - len, " = %s ns",
							  latlevels_figure(ns, sizeof ns, l->milli * 1000000000ull / hz,
									   l->decimals));
			if (l->edge_bytes)
				len += (size_t)fmt_format(line + len, sizeof line - len, " (edge at %s)",
							  size_text(ed, l->edge_bytes));
		}
		if (!lv.n)
			len += (size_t)fmt_format(line + len, sizeof line - len, " none told apart");
		kprintf("%s\n", line);
		if (lv.why[0])
			kprintf("latency: levels in %s: %s\n", unit_name[u], lv.why);
	}
	if (config_json()) {
		struct rec rc;
		rec_begin(&rc, "latency_levels");
		rec_str(&rc, "unit", unit_key[u]);
		rec_array(&rc, "levels");
		for (int i = 0; i < lv.n; i++) {
			const struct latlevel *l = &lv.l[i];
			rec_object(&rc, 0);
			rec_str(&rc, "name", l->name);
			rec_u64_or_null(&rc, "cpuid_bytes", l->cpuid_bytes != 0, l->cpuid_bytes);
			rec_u64_or_null(&rc, "edge_bytes", l->edge_bytes != 0, l->edge_bytes);
			rec_str(&rc, "per_load", fmt_milli(fig, sizeof fig, l->milli));
			if (u == UNIT_TSC && hz)
				rec_str(&rc, "ns", fmt_milli(ns, sizeof ns, l->milli * 1000000000ull / hz));
			else
				rec_null(&rc, "ns");
			rec_object_end(&rc);
		}
		rec_array_end(&rc);
		rec_array(&rc, "cpuid_caches");
		for (int i = 0; i < caches.n; i++) {
			rec_object(&rc, 0);
			rec_u64(&rc, "level", (uint64_t)caches.c[i].level);
			rec_str(&rc, "type", cachelist_type_key(caches.c[i].type));
			rec_u64(&rc, "bytes", caches.c[i].bytes);
			rec_object_end(&rc);
		}
		rec_array_end(&rc);
		rec_str(&rc, "why", lv.why[0] ? lv.why : 0);
		rec_end(&rc);
	}
}

/* The TSC method: rdtscp unless methods= leaves it out, then the first
 * selected TSC method this CPU runs, else the first it runs at all. */
static int tsc_method(const struct config *cfg, const struct cpu_info *cpu, const char **why)
{
	if ((cfg->methods >> METHOD_rdtscp & 1) && !method_unavailable(METHOD_rdtscp, cpu)) {
		*why = "the paper's method 2";
		return METHOD_rdtscp;
	}
	for (int m = 0; m < METHOD_COUNT; m++)
		if (!method_is_ctr((enum method_id)m) && (cfg->methods >> m & 1) && !method_unavailable((enum method_id)m, cpu)) {
			*why = "the first method methods= selects that this CPU runs";
			return m;
		}
	*why = "no TSC method methods= selects runs here: the first this CPU runs";
	for (int m = 0; m < METHOD_COUNT; m++)
		if (!method_is_ctr((enum method_id)m) && !method_unavailable((enum method_id)m, cpu))
			return m;
	return -1;
}

void sweep_run(const struct config *cfg, const struct cpu_info *cpu)
{
	char a[24], b[24];
	if (cfg->sweep != SWEEP_LATENCY || !area)
		return;
	const char *why;
	int m = tsc_method(cfg, cpu, &why);
	const char *no_cyc = method_unavailable(METHOD_ctr_rdpmc, cpu);
	uint64_t hz = clocks_tsc_rate() ? clocks_tsc_rate()->hz : 0;
	uint64_t cyc_mask = pmu.ctr[PMU_FIXED1].width && pmu.ctr[PMU_FIXED1].width < 64 ?
				    (1ull << pmu.ctr[PMU_FIXED1].width) - 1 : ~0ull;
	if (m < 0) {
		kprintf("sweep: no TSC method runs on this CPU: no latency measured\n");
		return;
	}
	area_print();
	kprintf("sweep: latency by %s (%s), %d ensembles x %d samples of %d and %d loads per size (fixed, not "
		"ensembles= and samples=); core cycles %s%s\n", methods[m].name, why, SWEEP_ENSEMBLES, SWEEP_SAMPLES,
		SWEEP_N, 2 * SWEEP_N, no_cyc ? "not measured: " : "by ctr_rdpmc", no_cyc ? no_cyc : "");
	int n = 0;
	step_seen = *report_tsc_step();
	for (int k = 0; n < SWEEP_POINTS; k++) {
		static const uint64_t quarter[4] = { 1000, 1189, 1414, 1682 }; /* 2^(k/4), thousandths */
		uint64_t bytes = (SWEEP_FIRST_BYTES << (k / 4)) * quarter[k % 4] / 1000 / SWEEP_LINE * SWEEP_LINE;
		if (bytes > area_bytes)
			break;
		sweep_cursor = build_cycle(area->phys, bytes / SWEEP_LINE);
		for (int u = 0; u < 2; u++) {
			struct percopy_window w[2], empty = { 0, 0, 0, 0 };
			struct percopy p;
			if (u == UNIT_CYC && no_cyc)
				continue;
			measure(u == UNIT_TSC ? fills[m] : fills[METHOD_ctr_rdpmc], u == UNIT_TSC ? ~0ull : cyc_mask,
				u == UNIT_TSC, w);
			percopy_compute(w[0].min_of_mins, w[1].min_of_mins, SWEEP_N, percopy_spread(&w[0], &empty),
					percopy_spread(&w[1], &empty),
					u == UNIT_TSC ? results_step_bound(&step_seen, UNIT_TSC) : 1, &p);
			point_out(u, bytes, &p, w[0].min_of_mins, w[1].min_of_mins, hz);
			struct latpoint *pt = &points[u][n];
			pt->bytes = bytes;
			pt->valid = (p.kind == PERCOPY_EXACT || p.kind == PERCOPY_FIGURE) && !p.neg;
			pt->milli = p.milli;
			pt->bound_milli = p.kind == PERCOPY_EXACT ? 0 : p.bound_milli;
		}
		n++;
	}
	struct cache_desc data[CACHELIST_MAX];
	uint64_t cache_bytes[LATLEVELS_CACHES];
	int nd = cachelist_data(&caches, data, CACHELIST_MAX);
	if (nd > LATLEVELS_CACHES)
		nd = LATLEVELS_CACHES;
	for (int i = 0; i < nd; i++)
		cache_bytes[i] = data[i].bytes;
	kprintf("sweep: %d sizes from 4 KiB to %s (area %s)\n", n, size_text(a, n ? points[0][n - 1].bytes : 0),
		size_text(b, area_bytes));
	for (int u = 0; u < 2; u++)
		if (!(u == UNIT_CYC && no_cyc))
			levels_out(u, n, cache_bytes, nd, hz);
}

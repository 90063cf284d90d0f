/* lib/latlevels.c - see latlevels.h. */
#include "latlevels.h"
#include "fmt.h"

static const char *const level_name[] = { "L1d", "L2", "L3", "L4", "L5", "L6" };

struct seg {
	int first, last, count; /* point indexes (valid points only counted) */
	uint64_t lo, hi, bound, median;
};

/* The median of the valid points first..last (the lower middle one). */
static uint64_t median(const struct latpoint *p, int first, int last, int count)
{
	/* count is small (a plateau of a sweep: at most ~100 points): the
	 * k-th smallest by counting, no buffer. */
	int k = (count - 1) / 2;
	for (int i = first; i <= last; i++) {
		if (!p[i].valid)
			continue;
		int below = 0, equal = 0;
		for (int j = first; j <= last; j++) {
			if (!p[j].valid)
				continue;
			below += p[j].milli < p[i].milli;
			equal += p[j].milli == p[i].milli;
		}
		if (below <= k && k < below + equal)
			return p[i].milli;
	}
	return 0;
}

int latlevels_decimals(uint64_t u)
{
	return u == 0 ? 3 : u < 50 ? 2 : u < 500 ? 1 : 0;
}

const char *latlevels_figure(char *buf, int size, uint64_t milli, int decimals)
{
	static const uint64_t div[] = { 1000, 100, 10, 1 };
	if (decimals < 0)
		decimals = 0;
	if (decimals > 3)
		decimals = 3;
	uint64_t d = div[decimals], v = (milli + d / 2) / d, scale = 1000 / d;
	if (!decimals)
		fmt_format(buf, (size_t)size, "%llu", (unsigned long long)v);
	else
		fmt_format(buf, (size_t)size, "%llu.%0*llu", (unsigned long long)(v / scale), decimals,
			   (unsigned long long)(v % scale));
	return buf;
}

const char *latlevels_size_text(char *buf, int size, uint64_t bytes)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB" };
	uint64_t u = 1024;
	int k = 0;
	if (bytes < 1024) {
		fmt_format(buf, (size_t)size, "%llu bytes", (unsigned long long)bytes);
		return buf;
	}
	while (k < 2 && bytes >= u * 1024)
		u *= 1024, k++;
	/* hundredths of the unit, rounded; then as many as three digits say */
	uint64_t c = (bytes * 100 + u / 2) / u;
	if (c >= 10000)
		fmt_format(buf, (size_t)size, "%llu %s", (unsigned long long)((c + 50) / 100), unit[k]);
	else if (c >= 1000 && (c + 5) / 10 % 10)
		fmt_format(buf, (size_t)size, "%llu.%llu %s", (unsigned long long)((c + 5) / 100),
			   (unsigned long long)((c + 5) / 10 % 10), unit[k]);
	else if (c >= 1000)
		fmt_format(buf, (size_t)size, "%llu %s", (unsigned long long)((c + 5) / 100), unit[k]);
	else if (c % 100 == 0)
		fmt_format(buf, (size_t)size, "%llu %s", (unsigned long long)(c / 100), unit[k]);
	else if (c % 10 == 0)
		fmt_format(buf, (size_t)size, "%llu.%llu %s", (unsigned long long)(c / 100),
			   (unsigned long long)(c / 10 % 10), unit[k]);
	else
		fmt_format(buf, (size_t)size, "%llu.%02llu %s", (unsigned long long)(c / 100),
			   (unsigned long long)(c % 100), unit[k]);
	return buf;
}

/* |log2(a / b)| <= 1: a within a factor 2 of b. */
static int within2(uint64_t a, uint64_t b)
{
	return a <= 2 * b && b <= 2 * a;
}

static void why_add(struct latlevels *out, const char *fmt, uint64_t a, uint64_t b)
{
	char sa[24], sb[24], part[160];
	size_t len = 0;
	while (out->why[len])
		len++;
	latlevels_size_text(sa, sizeof sa, a);
	latlevels_size_text(sb, sizeof sb, b);
	fmt_format(part, sizeof part, fmt, sa, sb);
	fmt_format(out->why + len, sizeof out->why - len, "%s%s", len ? "; " : "", part);
}

static void add_level(struct latlevels *out, const char *name, uint64_t cpuid, const struct seg *s,
		      const struct latpoint *p, int has_edge)
{
	if (out->n >= LATLEVELS_MAX)
		return;
	struct latlevel *l = &out->l[out->n++];
	uint64_t half = (s->hi - s->lo + 1) / 2;
	l->name = name;
	l->cpuid_bytes = cpuid;
	l->edge_bytes = has_edge ? p[s->last].bytes : 0;
	l->first_bytes = p[s->first].bytes;
	l->milli = s->median;
	l->uncertainty_milli = half > s->bound ? half : s->bound;
	l->decimals = latlevels_decimals(l->uncertainty_milli);
}

void latlevels_find(const struct latpoint *p, int n, const uint64_t *cache_bytes, int ncaches,
		    struct latlevels *out)
{
	struct seg seg[64];
	int nseg = 0, i = 0;
	out->n = 0;
	out->plateaus = 0;
	out->why[0] = 0;
	if (ncaches > LATLEVELS_CACHES)
		ncaches = LATLEVELS_CACHES;
	/* The segments. */
	while (i < n) {
		if (!p[i].valid) {
			i++;
			continue;
		}
		struct seg s = { i, i, 1, p[i].milli, p[i].milli, p[i].bound_milli, 0 };
		int j = i + 1;
		for (; j < n; j++) {
			if (!p[j].valid)
				continue;
			uint64_t tol = s.lo * LATLEVELS_REL_PERMILLE / 1000 + p[j].bound_milli + s.bound;
			if (p[j].milli > s.lo + tol || p[j].milli + tol < s.lo)
				break;
			s.last = j;
			s.count++;
			if (p[j].milli < s.lo)
				s.lo = p[j].milli;
			if (p[j].milli > s.hi)
				s.hi = p[j].milli;
			if (p[j].bound_milli > s.bound)
				s.bound = p[j].bound_milli;
		}
		if (s.count >= LATLEVELS_MIN_POINTS && nseg < 64) {
			s.median = median(p, s.first, s.last, s.count);
			seg[nseg++] = s;
		}
		i = j;
	}
	out->plateaus = nseg;
	if (!nseg) {
		fmt_format(out->why, sizeof out->why, "no plateau of %d points or more on the curve",
			   LATLEVELS_MIN_POINTS);
		return;
	}
	uint64_t largest = 0;
	for (int k = 0; k < ncaches; k++)
		if (cache_bytes[k] > largest)
			largest = cache_bytes[k];
	int next = 0, flat = 0; /* the first cache level not yet paired */
	for (int s = 0; s < nseg; s++) {
		const struct seg *g = &seg[s];
		uint64_t first = p[g->first].bytes, last = p[g->last].bytes;
		int ends = s == nseg - 1 && g->last == n - 1;
		if (ends && ncaches && first > largest) {
			add_level(out, "DRAM", 0, g, p, 0);
			next = ncaches;
			continue;
		}
		if (!ends) {
			/* the cache nearest its edge, within a factor 2, from next on */
			int best = -1;
			for (int k = next; k < ncaches; k++) {
				if (!within2(last, cache_bytes[k]))
					continue;
				uint64_t a = last > cache_bytes[k] ? last : cache_bytes[k];
				uint64_t b = last > cache_bytes[k] ? cache_bytes[k] : last;
				uint64_t ba = best < 0 ? 0 : (last > cache_bytes[best] ? last : cache_bytes[best]);
				uint64_t bb = best < 0 ? 1 : (last > cache_bytes[best] ? cache_bytes[best] : last);
				if (best < 0 || a * bb < ba * b)
					best = k;
			}
			if (best < 0) {
				why_add(out, "a plateau from %s to %s lies at no cache size CPUID lists", first, last);
				continue;
			}
			for (int k = next; k < best; k++)
				why_add(out, "%s (CPUID) shows no step of its own: the plateau runs from below it to %s",
					cache_bytes[k], last);
			add_level(out, level_name[best], cache_bytes[best], g, p, 1);
			next = best + 1;
			continue;
		}
		/* the curve ends on it, below the largest cache */
		if (next < ncaches && last < 2 * cache_bytes[next]) {
			add_level(out, level_name[next], cache_bytes[next], g, p, 0);
			why_add(out, "the curve ends at %s, before the edge of the %s cache", last, cache_bytes[next]);
			next++;
			continue;
		}
		flat = 1;
		if (ncaches)
			why_add(out, "the curve is flat from %s to %s across the caches CPUID lists: no level told "
				"apart (an emulator's memory has no cache latencies)", first, last);
		else
			why_add(out, "a plateau from %s to %s, and CPUID lists no caches to pair it with", first, last);
	}
	if (ncaches && !flat && (out->n == 0 || out->l[out->n - 1].name[0] != 'D'))
		why_add(out, "DRAM not reached: no plateau beyond %s, the largest cache", largest, 0);
}

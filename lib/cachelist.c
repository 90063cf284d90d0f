/* lib/cachelist.c - see cachelist.h. */
#include "cachelist.h"

static void add(struct cache_list *l, int level, enum cache_type type, uint64_t bytes, uint32_t line)
{
	if (l->n >= CACHELIST_MAX || !bytes)
		return;
	l->c[l->n].level = level;
	l->c[l->n].type = type;
	l->c[l->n].bytes = bytes;
	l->c[l->n].line_bytes = line;
	l->n++;
}

/* Leaf 4 or 8000_001DH: the same layout (SDM Vol. 2A; APM Vol. 3). */
static void deterministic(cpuid_fn *f, void *ctx, uint32_t leaf, struct cache_list *l)
{
	for (uint32_t i = 0; i < 16 && l->n < CACHELIST_MAX; i++) {
		uint32_t r[4];
		f(ctx, leaf, i, r);
		uint32_t type = r[0] & 0x1f;
		if (type == 0)
			break;
		if (type > 3)
			continue; /* reserved */
		uint64_t ways = (r[1] >> 22) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1, line = (r[1] & 0xfff) + 1;
		uint64_t sets = (uint64_t)r[2] + 1;
		add(l, (int)((r[0] >> 5) & 7), (enum cache_type)type, ways * parts * line * sets, (uint32_t)line);
	}
}

void cachelist_read(cpuid_fn *f, void *ctx, const struct cpu_info *c, struct cache_list *l)
{
	uint32_t r[4];
	l->n = 0;
	l->source = "none";
	if (c->is_amd) {
		if (c->max_ext >= 0x80000001u) {
			f(ctx, 0x80000001u, 0, r);
			if ((r[2] >> 22 & 1) && c->max_ext >= 0x8000001Du) {
				deterministic(f, ctx, 0x8000001Du, l);
				if (l->n) {
					l->source = "CPUID 8000_001DH";
					return;
				}
			}
		}
		if (c->max_ext >= 0x80000005u) {
			f(ctx, 0x80000005u, 0, r);
			add(l, 1, CACHE_DATA, (uint64_t)(r[2] >> 24) * 1024, r[2] & 0xff);
			add(l, 1, CACHE_INSTRUCTION, (uint64_t)(r[3] >> 24) * 1024, r[3] & 0xff);
		}
		if (c->max_ext >= 0x80000006u) {
			f(ctx, 0x80000006u, 0, r);
			add(l, 2, CACHE_UNIFIED, (uint64_t)(r[2] >> 16) * 1024, r[2] & 0xff);
			add(l, 3, CACHE_UNIFIED, (uint64_t)(r[3] >> 18) * 512 * 1024, r[3] & 0xff);
		}
		if (l->n)
			l->source = "CPUID 8000_0005H/8000_0006H";
		return;
	}
	if (c->max_basic >= 4) {
		deterministic(f, ctx, 4, l);
		if (l->n)
			l->source = "CPUID leaf 4";
	}
}

int cachelist_data(const struct cache_list *l, struct cache_desc *out, int max)
{
	int n = 0;
	for (int level = 1; level <= 7 && n < max; level++) {
		const struct cache_desc *best = 0;
		for (int i = 0; i < l->n; i++)
			if (l->c[i].level == level && l->c[i].type != CACHE_INSTRUCTION &&
			    (!best || l->c[i].bytes > best->bytes))
				best = &l->c[i];
		if (best)
			out[n++] = *best;
	}
	return n;
}

uint64_t cachelist_largest(const struct cache_list *l)
{
	uint64_t m = 0;
	for (int i = 0; i < l->n; i++)
		if (l->c[i].type != CACHE_INSTRUCTION && l->c[i].bytes > m)
			m = l->c[i].bytes;
	return m;
}

const char *cachelist_type_key(enum cache_type t)
{
	return t == CACHE_DATA ? "data" : t == CACHE_INSTRUCTION ? "instruction" : "unified";
}

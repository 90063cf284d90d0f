/* lib/cachelist.h - the caches CPUID lists (for sweep=latency, bench/sweep.h):
 * level, type and size of each.
 *
 * - Intel (and every vendor with leaf 4): CPUID.(EAX=04H,ECX=i) "Deterministic
 *   Cache Parameters Leaf" (SDM Vol. 2A "CPUID", table "Information Returned
 *   by CPUID Instruction"): EAX[4:0] type (0 none: the end; 1 data, 2
 *   instruction, 3 unified), EAX[7:5] level, EBX[31:22] ways - 1,
 *   EBX[21:12] physical line partitions - 1, EBX[11:0] line size - 1, ECX
 *   sets - 1; bytes = ways x partitions x line size x sets.
 * - AMD and Hygon where CPUID.80000001H:ECX[22] (TopologyExtensions):
 *   CPUID Fn8000_001D "Cache Topology Information" (APM Vol. 3 appendix E),
 *   the same layout as leaf 4.
 * - Else AMD's legacy leaves (APM Vol. 3 appendix E): Fn8000_0005 ECX[31:24]
 *   L1 data cache KiB, EDX[31:24] L1 instruction cache KiB; Fn8000_0006
 *   ECX[31:16] L2 KiB, EDX[31:18] L3 size in 512 KiB units (0: none).
 *
 * Freestanding and host-tested over every dump of tests/corpus/cpuid
 * (tests/unit/test_cachelist.c). */
#ifndef LIB_CACHELIST_H
#define LIB_CACHELIST_H

#include <stdint.h>
#include "cpuinfo.h"

#define CACHELIST_MAX 8

enum cache_type { CACHE_DATA = 1, CACHE_INSTRUCTION = 2, CACHE_UNIFIED = 3 };

struct cache_desc {
	int level;            /* 1..7 */
	enum cache_type type;
	uint64_t bytes;       /* one cache's size (per core or per sharing group) */
	uint32_t line_bytes;  /* 0 when the leaf does not say */
};

struct cache_list {
	int n;                /* 0..CACHELIST_MAX, in the leaf's order */
	struct cache_desc c[CACHELIST_MAX];
	const char *source;   /* "CPUID leaf 4", "CPUID 8000_001DH", "CPUID 8000_0005H/8000_0006H",
			       * or "none" */
};

/* cachelist_read - the caches of the CPU whose CPUID f(ctx, ...) answers,
 * into *l; c: its decoded identity (lib/cpuinfo.h: vendor, max_basic,
 * max_ext). Never fails: no leaf that lists caches gives n = 0, source
 * "none". */
void cachelist_read(cpuid_fn *f, void *ctx, const struct cpu_info *c, struct cache_list *l);

/* cachelist_data - the caches that hold data (data or unified), one per
 * level, smallest level first, into out[0..max-1]; returns how many. */
int cachelist_data(const struct cache_list *l, struct cache_desc *out, int max);

/* cachelist_largest - the largest data or unified cache's bytes, 0 when
 * none is listed. */
uint64_t cachelist_largest(const struct cache_list *l);

/* cachelist_type_key - "data", "instruction", "unified". */
const char *cachelist_type_key(enum cache_type t);

#endif

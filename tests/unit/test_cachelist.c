/* tests/unit/test_cachelist.c - lib/cachelist.c: the caches CPUID lists
 * (leaf 4; AMD's 8000_001DH with TopologyExtensions, else 8000_0005H/
 * 8000_0006H), over every dump of tests/corpus/cpuid (as test_xcr0.c reads
 * them): named CPUs' caches as their vendors publish them, and for every
 * dump a list that is sane (levels 1..3 or 4, sizes from 1 KiB to 1 GiB,
 * one data or unified cache per level at most, a largest one wherever a
 * leaf lists any). */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/cachelist.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* The data caches per level, as Intel's ark and AMD's product pages give
 * them for these parts (and as the dumps say). */
static const struct {
	const char *name;
	uint64_t l1d, l2, l3;
	const char *source;
} named[] = {
	{ "intel/x86-64/skylake/intel-core-i3-6100-cpu.test", 32 * KIB, 256 * KIB, 3 * MIB, "CPUID leaf 4" },
	{ "intel/x86-64/haswell/intel-core-i3-4130-cpu.test", 32 * KIB, 256 * KIB, 3 * MIB, "CPUID leaf 4" },
	{ "amd/zen3/amd-ryzen-9-5950x-16-core-processor.test", 32 * KIB, 512 * KIB, 32 * MIB, "CPUID 8000_001DH" },
	{ "amd/k8/amd-athlon-64-x2-dual-core-processor-3800+.test", 64 * KIB, 512 * KIB, 0,
	  "CPUID 8000_0005H/8000_0006H" },
};

static void test_corpus(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path), found = 0, listed = 0, l3 = 0;
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	for (int i = 0; i < n; i++) {
		struct dump_cpu *d = &dumps[i].cpus[0];
		const char *name = dumps[i].name;
		struct cpu_info c;
		struct cache_list l;
		struct cache_desc data[CACHELIST_MAX];
		cpuinfo_read(dump_cpuid, d, &c);
		cachelist_read(dump_cpuid, d, &c, &l);
		int nd = cachelist_data(&l, data, CACHELIST_MAX);
		CHECK(l.n >= 0 && l.n <= CACHELIST_MAX, "%s: %d caches", name, l.n);
		CHECK(!l.n == !strcmp(l.source, "none"), "%s: source %s with %d caches", name, l.source, l.n);
		for (int k = 0; k < l.n; k++)
			CHECK(l.c[k].level >= 1 && l.c[k].level <= 4 && l.c[k].bytes >= KIB && l.c[k].bytes <= 1024 * MIB,
			      "%s: cache %d: level %d, %llu bytes (levels 1..4, 1 KiB..1 GiB)", name, k, l.c[k].level,
			      (unsigned long long)l.c[k].bytes);
		for (int k = 1; k < nd; k++)
			CHECK(data[k].level > data[k - 1].level, "%s: one data cache per level, in order", name);
		CHECK(!nd || cachelist_largest(&l) >= data[nd - 1].bytes,
		      "%s: the largest cache is at least the last level's", name);
		listed += nd > 0;
		l3 += nd >= 3;
		for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
			if (strcmp(name, named[k].name))
				continue;
			found++;
			CHECK_STR(l.source, named[k].source, "%s: the leaf", name);
			CHECK(nd >= 2, "%s: L1d and L2 listed (%d)", name, nd);
			if (nd < 2)
				continue;
			CHECK_EQ_U64(data[0].bytes, named[k].l1d, "%s: L1d", name);
			CHECK_EQ_U64(data[1].bytes, named[k].l2, "%s: L2", name);
			CHECK_EQ_U64(nd >= 3 ? data[2].bytes : 0, named[k].l3, "%s: L3", name);
		}
	}
	CHECK_EQ_U64(found, sizeof named / sizeof named[0], "every named dump is in the corpus");
	/* The corpus's spread, so a change of the rule or of the corpus shows. */
	CHECK(listed > 450 && l3 > 250, "dumps with caches listed %d, with an L3 %d", listed, l3);
	if (n > 0)
		dump_free(dumps, n);
}

/* A CPU of no leaf: none. */
static void none_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	(void)ctx, (void)leaf, (void)sub;
	out[0] = out[1] = out[2] = out[3] = 0;
}

static void test_none(void)
{
	struct cpu_info c;
	struct cache_list l;
	memset(&c, 0, sizeof c);
	c.max_basic = 1;
	cachelist_read(none_cpuid, 0, &c, &l);
	CHECK(l.n == 0 && !strcmp(l.source, "none"), "no leaf 4: no caches, source none (%d, %s)", l.n, l.source);
	CHECK_EQ_U64(cachelist_largest(&l), 0, "no caches: largest 0");
	CHECK_STR(cachelist_type_key(CACHE_UNIFIED), "unified", "the type's key");
}

int main(void)
{
	test_none();
	test_corpus();
	return check_summary("cachelist");
}

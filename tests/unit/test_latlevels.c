/* tests/unit/test_latlevels.c - lib/latlevels.c: the levels of the memory
 * hierarchy found on latency curves. Synthetic curves (clean steps, noisy
 * plateaus, a missing level, a curve shorter than a cache, a flat curve as
 * QEMU gives) and curves built from published latencies (sources in the
 * comments); the levels, their edges and their figures found within the
 * bounds each case states. The curves have the sweep's sizes: 4 KiB, then
 * x 2^(1/4) each step, whole 64-byte lines (bench/sweep.c). */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/latlevels.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)
#define MAXP 128

/* Marsaglia's xorshift64 (13, 7, 17): deterministic noise. */
static uint64_t xorshift64(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* 2^(k/4) in thousandths, k = 0..3. */
static const uint64_t quarter[4] = { 1000, 1189, 1414, 1682 };

/* The sweep's sizes from 4 KiB up to top: into b[], returns how many. */
static int sizes(uint64_t top, uint64_t *b)
{
	int n = 0;
	for (int k = 0; n < MAXP; k++) {
		uint64_t s = (4 * KIB << (k / 4)) * quarter[k % 4] / 1000 / 64 * 64;
		if (s > top)
			break;
		b[n++] = s;
	}
	return n;
}

/* A curve of plateaus: level i's figure lat[i] (thousandths) up to size
 * edge[i], then the next; noise: +- noise_permille of each figure
 * (deterministic xorshift); beyond the last edge lat[nl]. */
static int curve(struct latpoint *p, uint64_t top, const uint64_t *edge, const uint64_t *lat, int nl,
		 int noise_permille, uint64_t seed)
{
	uint64_t b[MAXP];
	int n = sizes(top, b);
	uint64_t x = seed;
	for (int i = 0; i < n; i++) {
		int l = 0;
		while (l < nl && b[i] > edge[l])
			l++;
		uint64_t v = lat[l];
		if (noise_permille) {
			x = xorshift64(x);
			int64_t d = (int64_t)(x % (uint64_t)(2 * noise_permille + 1)) - noise_permille;
			v = (uint64_t)((int64_t)v + (int64_t)v * d / 1000);
		}
		p[i].bytes = b[i];
		p[i].milli = v;
		p[i].bound_milli = noise_permille ? v * (uint64_t)noise_permille / 1000 / 4 : 0;
		p[i].valid = 1;
	}
	return n;
}

static const struct latlevel *level(const struct latlevels *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->l[i].name, name))
			return &l->l[i];
	return 0;
}

/* Level name found, its figure within tol_permille of want (thousandths),
 * its edge (when want_edge) within a factor 2^(1/2) of want_edge. */
static void expect(const struct latlevels *l, const char *what, const char *name, uint64_t want,
		   int tol_permille, uint64_t want_edge)
{
	const struct latlevel *v = level(l, name);
	CHECK(v != 0, "%s: level %s found (%d levels; why: %s)", what, name, l->n, l->why);
	if (!v)
		return;
	uint64_t d = v->milli > want ? v->milli - want : want - v->milli;
	CHECK(d * 1000 <= want * (uint64_t)tol_permille, "%s: %s %llu thousandths, want %llu +- %d permille", what,
	      name, (unsigned long long)v->milli, (unsigned long long)want, tol_permille);
	if (want_edge)
		CHECK(v->edge_bytes * 1000 >= want_edge * 707 && v->edge_bytes * 707 <= want_edge * 1000,
		      "%s: %s edge at %llu bytes, want %llu within a factor 2^(1/2)", what, name,
		      (unsigned long long)v->edge_bytes, (unsigned long long)want_edge);
}

static void test_clean_steps(void)
{
	struct latpoint p[MAXP];
	uint64_t caches[3] = { 48 * KIB, 1280 * KIB, 30 * MIB };
	uint64_t edge[3] = { 48 * KIB, 1280 * KIB, 30 * MIB }, lat[4] = { 5000, 15000, 52000, 200000 };
	struct latlevels l;
	int n = curve(p, 128 * MIB, edge, lat, 3, 0, 1);
	latlevels_find(p, n, caches, 3, &l);
	CHECK_EQ_U64(l.n, 4, "clean steps: L1d, L2, L3 and DRAM (why: %s)", l.why);
	expect(&l, "clean steps", "L1d", 5000, 0, 48 * KIB);
	expect(&l, "clean steps", "L2", 15000, 0, 1280 * KIB);
	expect(&l, "clean steps", "L3", 52000, 0, 30 * MIB);
	expect(&l, "clean steps", "DRAM", 200000, 0, 0);
	CHECK(l.l[0].decimals == 3 && l.l[3].edge_bytes == 0, "clean steps: exact figures said with 3 digits, "
	      "DRAM has no edge");
	CHECK_STR(l.why, "", "clean steps: nothing missing");
}

static void test_noisy_plateaus(void)
{
	struct latpoint p[MAXP];
	uint64_t caches[3] = { 32 * KIB, 256 * KIB, 8 * MIB };
	uint64_t lat[4] = { 4000, 12000, 42000, 180000 };
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct latlevels l;
		int n = curve(p, 32 * MIB, caches, lat, 3, 50, seed);
		latlevels_find(p, n, caches, 3, &l);
		CHECK_EQ_U64(l.n, 4, "noisy (+-5 %%, seed %llu): four levels (why: %s)", (unsigned long long)seed, l.why);
		expect(&l, "noisy", "L1d", 4000, 50, 32 * KIB);
		expect(&l, "noisy", "L2", 12000, 50, 256 * KIB);
		expect(&l, "noisy", "L3", 42000, 50, 8 * MIB);
		expect(&l, "noisy", "DRAM", 180000, 50, 0);
		CHECK(l.n < 1 || l.l[0].decimals <= 1, "noisy: L1d said with at most one decimal (%d)", l.l[0].decimals);
	}
}

static void test_missing_level(void)
{
	/* L2 and L3 at the same latency (no step at L2's size). */
	struct latpoint p[MAXP];
	uint64_t caches[3] = { 32 * KIB, 256 * KIB, 8 * MIB };
	uint64_t edge[2] = { 32 * KIB, 8 * MIB }, lat[3] = { 4000, 40000, 150000 };
	struct latlevels l;
	int n = curve(p, 32 * MIB, edge, lat, 2, 0, 1);
	latlevels_find(p, n, caches, 3, &l);
	CHECK_EQ_U64(l.n, 3, "missing level: L1d, L3, DRAM (why: %s)", l.why);
	expect(&l, "missing level", "L1d", 4000, 0, 32 * KIB);
	expect(&l, "missing level", "L3", 40000, 0, 8 * MIB);
	expect(&l, "missing level", "DRAM", 150000, 0, 0);
	CHECK(level(&l, "L2") == 0, "missing level: no L2 claimed");
	CHECK(strstr(l.why, "256 KiB (CPUID) shows no step") != 0, "missing level: why names L2's size: %s", l.why);
}

static void test_short_curve(void)
{
	/* The area (1 MiB) smaller than L3 (8 MiB): L3's plateau without an edge, no DRAM. */
	struct latpoint p[MAXP];
	uint64_t caches[3] = { 32 * KIB, 256 * KIB, 8 * MIB };
	uint64_t lat[4] = { 4000, 12000, 42000, 180000 };
	struct latlevels l;
	int n = curve(p, 1 * MIB, caches, lat, 3, 0, 1);
	latlevels_find(p, n, caches, 3, &l);
	CHECK_EQ_U64(l.n, 3, "short curve: L1d, L2, L3 (why: %s)", l.why);
	expect(&l, "short curve", "L3", 42000, 0, 0);
	CHECK(l.n == 3 && l.l[2].edge_bytes == 0, "short curve: L3 has no edge (the curve ends on it)");
	CHECK(strstr(l.why, "ends at 1 MiB, before the edge of the 8 MiB cache") != 0, "short curve: why: %s", l.why);
	CHECK(strstr(l.why, "DRAM not reached") != 0, "short curve: DRAM not reached: %s", l.why);
}

static void test_flat(void)
{
	/* QEMU -icount: one instruction per load at every size. */
	struct latpoint p[MAXP];
	uint64_t caches[3] = { 32 * KIB, 4 * MIB, 16 * MIB };
	uint64_t lat[1] = { 1000 };
	struct latlevels l;
	int n = curve(p, 64 * MIB, caches, lat, 0, 0, 1);
	latlevels_find(p, n, caches, 3, &l);
	CHECK_EQ_U64(l.n, 0, "flat: no level told apart");
	CHECK_EQ_U64(l.plateaus, 1, "flat: one plateau");
	CHECK(strstr(l.why, "flat from 4 KiB to 64 MiB") != 0, "flat: why: %s", l.why);
	/* too short to hold a plateau */
	latlevels_find(p, 2, caches, 3, &l);
	CHECK(l.n == 0 && strstr(l.why, "no plateau of 3 points") != 0, "two points: %s", l.why);
}

/* Published latencies, as curves of their plateaus:
 * - Skylake-S (Core i7-6700K): L1d 32 KiB 4 cycles, L2 256 KiB 11 cycles,
 *   L3 8 MiB 44 cycles (the table "Comparison: Skylake-S and Skylake-SP
 *   Caches", https://www.anandtech.com/show/11550/the-intel-skylakex-review-core-i9-7900x-i7-7820x-and-i7-7800x-tested/4);
 *   Skylake-SP: L2 1 MiB 11-13 cycles, L3 1.375 MiB per core 77 cycles (same table);
 * - Nehalem (Xeon 5500): L1 ~4 cycles, L2 ~10, L3 ~40, DRAM ~60 ns (Intel's
 *   "Performance Analysis Guide for Intel Core i7 Processor and Intel Xeon
 *   5500 processors", as quoted in
 *   http://stackoverflow.com/questions/4087280/approximate-cost-to-access-various-caches-and-main-memory);
 *   60 ns at 2.93 GHz is about 176 cycles.
 * The transitions are smoothed over one step each way (a set-associative
 * cache's edge is not sharp), noise +- 3 %. */
static void published(const char *what, const uint64_t *caches, const uint64_t *lat, int nl, uint64_t top)
{
	struct latpoint p[MAXP];
	struct latlevels l;
	int n = curve(p, top, caches, lat, nl, 30, 7);
	for (int i = 1; i + 1 < n; i++) /* the point after each edge: halfway */
		for (int k = 0; k < nl; k++)
			if (p[i].bytes > caches[k] && p[i - 1].bytes <= caches[k])
				p[i].milli = (lat[k] + lat[k + 1]) / 2;
	latlevels_find(p, n, caches, nl, &l);
	CHECK_EQ_U64(l.n, nl + 1, "%s: every level and DRAM (why: %s)", what, l.why);
	for (int k = 0; k < nl; k++)
		expect(&l, what, k == 0 ? "L1d" : k == 1 ? "L2" : "L3", lat[k], 40, caches[k]);
	expect(&l, what, "DRAM", lat[nl], 40, 0);
}

static void test_published(void)
{
	uint64_t sky[3] = { 32 * KIB, 256 * KIB, 8 * MIB }, sky_lat[4] = { 4000, 11000, 44000, 200000 };
	uint64_t skx[3] = { 32 * KIB, 1 * MIB, 11 * MIB }, skx_lat[4] = { 4000, 12000, 77000, 250000 };
	uint64_t nhm[3] = { 32 * KIB, 256 * KIB, 8 * MIB }, nhm_lat[4] = { 4000, 10000, 40000, 176000 };
	published("Skylake-S", sky, sky_lat, 3, 32 * MIB);
	published("Skylake-SP", skx, skx_lat, 3, 44 * MIB);
	published("Nehalem", nhm, nhm_lat, 3, 32 * MIB);
}

static void test_text(void)
{
	char b[24];
	CHECK_STR(latlevels_figure(b, sizeof b, 5012, 1), "5.0", "5.012 with one decimal");
	CHECK_STR(latlevels_figure(b, sizeof b, 15060, 1), "15.1", "15.060 with one decimal");
	CHECK_STR(latlevels_figure(b, sizeof b, 1000, 3), "1.000", "exact");
	CHECK_STR(latlevels_figure(b, sizeof b, 91400, 0), "91", "no decimal");
	CHECK_STR(latlevels_figure(b, sizeof b, 2045, 2), "2.05", "two decimals, half up");
	CHECK_EQ_U64(latlevels_decimals(0), 3, "exact: 3 decimals");
	CHECK_EQ_U64(latlevels_decimals(49), 2, "below 0.05: 2");
	CHECK_EQ_U64(latlevels_decimals(499), 1, "below 0.5: 1");
	CHECK_EQ_U64(latlevels_decimals(500), 0, "0.5 and above: 0");
	CHECK_STR(latlevels_size_text(b, sizeof b, 32 * KIB), "32 KiB", "32 KiB");
	CHECK_STR(latlevels_size_text(b, sizeof b, 1280 * KIB), "1.25 MiB", "1.25 MiB");
	CHECK_STR(latlevels_size_text(b, sizeof b, 38976), "38.1 KiB", "38976 bytes");
	CHECK_STR(latlevels_size_text(b, sizeof b, 4 * KIB * 1189 / 1000 / 64 * 64), "4.75 KiB", "4864 bytes");
	CHECK_STR(latlevels_size_text(b, sizeof b, 512), "512 bytes", "below a KiB");
	CHECK_STR(latlevels_size_text(b, sizeof b, 30 * MIB), "30 MiB", "30 MiB");
	CHECK_STR(latlevels_size_text(b, sizeof b, 2 * 1024 * MIB), "2 GiB", "2 GiB");
}

int main(void)
{
	test_text();
	test_clean_steps();
	test_noisy_plateaus();
	test_missing_level();
	test_short_curve();
	test_flat();
	test_published();
	return check_summary("latlevels");
}

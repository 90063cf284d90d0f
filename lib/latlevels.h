/* lib/latlevels.h - the levels of the memory hierarchy on a latency curve
 * (sweep=latency, bench/sweep.h; README "The memory hierarchy"): the
 * plateaus of the latency per load over the area's size, their edges, and
 * which of the caches CPUID lists (lib/cachelist.h) each one is; the last
 * plateau beyond the largest cache is DRAM.
 *
 * The rule, on the points in order of size (steps of 2^(1/4) or finer):
 * - a run of points each within LATLEVELS_REL_PERMILLE (20 %) plus the
 *   points' own bound above the run's least figure is one segment; a
 *   segment of at least LATLEVELS_MIN_POINTS (3) points is a plateau, the
 *   others are the rise between two plateaus;
 * - a plateau's figure is the median of its points, its uncertainty the
 *   larger of half its points' range and the largest bound of one of them
 *   (lib/percopy.h), which sets how many digits it is said with;
 * - its edge is the largest size on it, unless the curve ends on it (no
 *   edge: the curve does not show where it ends);
 * - a plateau with an edge is the cache whose size (CPUID) lies nearest its
 *   edge within a factor 2 (in order: each level after the one before);
 *   a CPUID cache whose size lies inside a plateau by a factor of 2 both
 *   ways had no step of its own (a missing level, said in why);
 * - the plateau the curve ends on is DRAM when it begins beyond the largest
 *   cache; else the next level's, if it does not run past that level's
 *   size by a factor 2; else the curve is flat across the caches (an
 *   emulator's memory: no level is told apart).
 *
 * Figures in thousandths of the unit (TSC ticks or core cycles), integer
 * arithmetic only (the kernel uses it). Pure, host-tested
 * (tests/unit/test_latlevels.c). */
#ifndef LIB_LATLEVELS_H
#define LIB_LATLEVELS_H

#include <stdint.h>

#define LATLEVELS_REL_PERMILLE 200
#define LATLEVELS_MIN_POINTS 3
#define LATLEVELS_MAX 6
#define LATLEVELS_CACHES 6

struct latpoint {
	uint64_t bytes;       /* the area's size */
	uint64_t milli;       /* the figure per load, thousandths of the unit */
	uint64_t bound_milli; /* how far it may be off (0: exact), thousandths */
	int valid;            /* 0: no figure at this size (skipped) */
};

struct latlevel {
	const char *name;     /* "L1d", "L2", "L3", "L4" or "DRAM" */
	uint64_t cpuid_bytes; /* the cache's size per CPUID; 0 for DRAM */
	uint64_t edge_bytes;  /* the largest size on the plateau; 0: the curve ends on it */
	uint64_t first_bytes; /* the smallest size on it */
	uint64_t milli;       /* the median figure, thousandths of the unit */
	uint64_t uncertainty_milli; /* see above */
	int decimals;         /* digits after the point it is said with (0..3) */
};

struct latlevels {
	int n;
	struct latlevel l[LATLEVELS_MAX];
	int plateaus;         /* plateaus found, named or not */
	char why[240];        /* what was not found and why; "" when every cache and DRAM was */
};

/* latlevels_find - the levels of curve p[0..n-1] (sizes increasing) beside
 * the data caches of CPUID, cache_bytes[0..ncaches-1] for levels 1..ncaches
 * (lib/cachelist.h cachelist_data; ncaches 0..LATLEVELS_CACHES), into *out. */
void latlevels_find(const struct latpoint *p, int n, const uint64_t *cache_bytes, int ncaches,
		    struct latlevels *out);

/* latlevels_decimals - the digits after the point a figure of uncertainty
 * u (thousandths) carries: 3 for 0 (exact), 2 below 0.05, 1 below 0.5,
 * else 0. */
int latlevels_decimals(uint64_t u);

/* latlevels_figure - milli thousandths with decimals digits (rounded half
 * up) into buf[0..size-1] (size >= 24): "5.0", "15", "1.000". Returns buf. */
const char *latlevels_figure(char *buf, int size, uint64_t milli, int decimals);

/* latlevels_size_text - bytes in KiB, MiB or GiB with at most three
 * significant digits ("32 KiB", "38.1 KiB", "1.25 MiB"; below 1 KiB:
 * "512 bytes") into buf[0..size-1] (size >= 24). Returns buf. */
const char *latlevels_size_text(char *buf, int size, uint64_t bytes);

#endif

/* lib/evsched.h - events onto counters, in as few passes as their
 * restrictions allow: each event's allowed general-purpose counters
 * (perfmon's Counter field), fixed-counter events, TakenAlone (alone in
 * its pass), events needing an extra MSR (MSR_OFFCORE_RSPx: one event per
 * MSR per pass). No counter is used twice in a pass. Freestanding;
 * host-tested with property tests (tests/unit/test_evsched.c).
 *
 * ISSUE 30 INTERFACE: owned by the scheduler work; bench/events.c calls it. */
#ifndef LIB_EVSCHED_H
#define LIB_EVSCHED_H

#include <stddef.h>
#include <stdint.h>

#define EVSCHED_MAX_EVENTS 64
#define EVSCHED_MAX_PASSES 64

/* A counter: general-purpose i (0..31) is i; fixed i is EVSCHED_FIXED(i). */
#define EVSCHED_FIXED(i) (32 + (i))
#define evsched_is_fixed(c) ((c) >= 32)

struct evsched_item {
	uint32_t gp_mask;  /* GP counters that can count it (0: none) */
	int fixed;         /* fixed counter that can count it, or -1 */
	int taken_alone;   /* alone in its pass */
	uint32_t extra_msr; /* 0, or the MSR it needs for itself in its pass */
};

struct evsched_slot {
	int pass;    /* 0 .. passes-1 */
	int counter; /* GP index or EVSCHED_FIXED(i) */
};

/* evsched_plan - place items[0..n-1] (n <= EVSCHED_MAX_EVENTS) on the
 * counters that exist (gp_avail: bit i = GP counter i exists; fixed_avail:
 * bit i = fixed counter i exists), at most max_per_pass counters in a pass
 * (the reads one window makes), preferring a fixed counter where one can
 * count it. out[i] gets item i's pass and counter. Returns the number of
 * passes (0 when n is 0), or -1 with why[] naming the first item no
 * counter can count ("event 3: needs GP counter 4 or 5, the CPU has 4").
 * The fewest passes: a lower bound is met whenever a search within a
 * fixed budget finds it. Deterministic; not reentrant (its work arrays
 * are static, about 10 KiB); at most a few tens of milliseconds on a
 * current core for 64 events (the search's budget, lib/evsched.c). */
int evsched_plan(const struct evsched_item *items, int n, uint32_t gp_avail, uint32_t fixed_avail,
		 int max_per_pass, struct evsched_slot *out, char *why, size_t whylen);

#endif

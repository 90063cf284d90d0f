/* tests/unit/test_evsched.c - lib/evsched.c: events onto counters in the
 * fewest passes their restrictions allow (issue 30, "Scheduling into
 * passes"): small cases whose optimum is known by hand, then property
 * tests on seeded random sets: every plan honours every restriction (the
 * counters each event allows, the counters the CPU has, TakenAlone, one
 * event per extra MSR in a pass, at most max_per_pass counters in a pass,
 * no counter twice in a pass, a fixed counter used wherever one in the
 * pass can count it), never fewer passes than the lower bound, and as few
 * as a brute force over every partition finds for up to 7 events. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "xorshift.h"
#include "../../lib/evsched.h"

#define ANY 0xFFFFFFFFu
#define OFFCORE_RSP0 0x1A6u
#define OFFCORE_RSP1 0x1A7u

static struct evsched_item gp(uint32_t mask)
{
	return (struct evsched_item){ .gp_mask = mask, .fixed = -1 };
}

static struct evsched_item with_fixed(uint32_t mask, int fixed)
{
	return (struct evsched_item){ .gp_mask = mask, .fixed = fixed };
}

static struct evsched_item alone(uint32_t mask)
{
	return (struct evsched_item){ .gp_mask = mask, .fixed = -1, .taken_alone = 1 };
}

static struct evsched_item msr(uint32_t mask, uint32_t m)
{
	return (struct evsched_item){ .gp_mask = mask, .fixed = -1, .extra_msr = m };
}

/* The counters item it may use on this CPU: bit c for counter c. */
static uint64_t allowed(const struct evsched_item *it, uint32_t gp_avail, uint32_t fixed_avail)
{
	uint64_t a = it->gp_mask & gp_avail;
	if (it->fixed >= 0 && it->fixed < 32 && (fixed_avail >> it->fixed & 1))
		a |= 1ull << (32 + it->fixed);
	return a;
}

/* Every restriction of a plan of `passes` passes; returns the failures. */
static int valid(const struct evsched_item *items, int n, uint32_t gp_avail, uint32_t fixed_avail, int cap,
		 const struct evsched_slot *out, int passes, const char *what)
{
	int before = check_failed;
	for (int q = 0; q < passes; q++) {
		int size = 0, has_alone = 0;
		uint64_t used = 0, wanted_fixed = 0;
		for (int i = 0; i < n; i++) {
			if (out[i].pass != q)
				continue;
			size++;
			has_alone |= items[i].taken_alone;
			uint64_t a = allowed(&items[i], gp_avail, fixed_avail);
			wanted_fixed |= a & ~0xFFFFFFFFull;
			int c = out[i].counter;
			CHECK(c >= 0 && c < 64 && (a >> c & 1), "%s: event %d's counter %d is one it allows and the CPU has",
			      what, i, c);
			CHECK(c < 0 || c >= 64 || !(used >> c & 1), "%s: counter %d used twice in pass %d", what, c, q);
			if (c >= 0 && c < 64)
				used |= 1ull << c;
			for (int j = i + 1; j < n; j++)
				CHECK(out[j].pass != q || !items[i].extra_msr || items[j].extra_msr != items[i].extra_msr,
				      "%s: events %d and %d need MSR %x and share pass %d", what, i, j,
				      items[i].extra_msr, q);
		}
		CHECK(size > 0, "%s: pass %d of %d holds an event", what, q, passes);
		CHECK(size <= cap, "%s: pass %d holds %d counters, at most %d", what, q, size, cap);
		CHECK(!has_alone || size == 1, "%s: a TakenAlone event is alone in pass %d (%d there)", what, q, size);
		CHECK((wanted_fixed & ~used) == 0, "%s: pass %d uses every fixed counter one of its events can (%llx of %llx)",
		      what, q, (unsigned long long)(used >> 32), (unsigned long long)(wanted_fixed >> 32));
	}
	for (int i = 0; i < n; i++)
		CHECK(out[i].pass >= 0 && out[i].pass < passes, "%s: event %d's pass %d is one of %d", what, i,
		      out[i].pass, passes);
	return check_failed - before;
}

static int plan(const struct evsched_item *items, int n, uint32_t gp_avail, uint32_t fixed_avail, int cap,
		struct evsched_slot *out, const char *what)
{
	char why[160];
	int passes = evsched_plan(items, n, gp_avail, fixed_avail, cap, out, why, sizeof why);
	CHECK(passes >= 0, "%s: a plan (%s)", what, why);
	if (passes >= 0)
		valid(items, n, gp_avail, fixed_avail, cap, out, passes, what);
	return passes;
}

static void test_known(void)
{
	struct evsched_item it[16] = { 0 };
	struct evsched_slot out[16];

	CHECK_EQ_U64(evsched_plan(it, 0, 0xF, 0x7, 8, out, NULL, 0), 0, "no events: 0 passes");

	for (int i = 0; i < 8; i++)
		it[i] = gp(ANY);
	CHECK_EQ_U64(plan(it, 8, 0xF, 0, 4, out, "8 on 4"), 2, "8 unrestricted events on 4 GP counters: 2 passes");
	CHECK_EQ_U64(plan(it, 8, 0xFF, 0, 8, out, "8 on 8"), 1, "8 unrestricted events on 8 GP counters: 1 pass");
	CHECK_EQ_U64(plan(it, 8, 0xFF, 0, 4, out, "8 on 8, 4 a pass"), 2,
		     "8 on 8 GP counters, 4 reads a pass: 2 passes");
	CHECK_EQ_U64(plan(it, 8, 0xFF, 0, 3, out, "8 on 8, 3 a pass"), 3, "8 events, 3 a pass: 3 passes");

	for (int i = 0; i < 3; i++)
		it[i] = gp(1u << 0);
	CHECK_EQ_U64(plan(it, 3, 0xF, 0, 4, out, "counter 0 only"), 3, "3 events each allowed only counter 0: 3 passes");
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(out[i].counter, 0, "event %d on counter 0", i);

	/* Counter 0-3 events (Counter "0,1,2,3") beside counter 0 and 1 ones. */
	it[0] = gp(0x3); it[1] = gp(0x3); it[2] = gp(0x3); it[3] = gp(0xF); it[4] = gp(0xF);
	CHECK_EQ_U64(plan(it, 5, 0xF, 0, 4, out, "0x3 x3"), 2, "3 events on counters 0-1 need 2 passes");

	it[0] = gp(ANY); it[1] = alone(ANY); it[2] = gp(ANY); it[3] = gp(ANY);
	CHECK_EQ_U64(plan(it, 4, 0xF, 0, 4, out, "alone"), 2, "a TakenAlone event and 3 others on 4 counters: 2 passes");
	CHECK(out[1].pass != out[0].pass && out[1].pass != out[2].pass && out[1].pass != out[3].pass,
	      "the TakenAlone event has its pass to itself");
	it[0] = alone(ANY); it[1] = alone(ANY);
	CHECK_EQ_U64(plan(it, 2, 0xF, 0, 4, out, "two alone"), 2, "two TakenAlone events: 2 passes");

	it[0] = msr(ANY, OFFCORE_RSP0); it[1] = msr(ANY, OFFCORE_RSP0); it[2] = gp(ANY); it[3] = msr(ANY, OFFCORE_RSP1);
	CHECK_EQ_U64(plan(it, 4, 0xF, 0, 4, out, "msr"), 2, "two events needing MSR_OFFCORE_RSP0: 2 passes");
	CHECK(out[0].pass != out[1].pass, "the two MSR_OFFCORE_RSP0 events are in different passes");
	it[2] = msr(ANY, OFFCORE_RSP0);
	CHECK_EQ_U64(plan(it, 4, 0xF, 0, 4, out, "msr x3"), 3, "three events needing MSR_OFFCORE_RSP0: 3 passes");

	/* INST_RETIRED.ANY fixed 0 only, CPU_CLK_UNHALTED.THREAD fixed 1 or
	 * any GP, CPU_CLK_UNHALTED.REF_TSC fixed 2 only, 4 GP events. */
	it[0] = with_fixed(0, 0); it[1] = with_fixed(ANY, 1); it[2] = with_fixed(0, 2);
	for (int i = 3; i < 7; i++)
		it[i] = gp(ANY);
	CHECK_EQ_U64(plan(it, 7, 0xF, 0x7, 8, out, "fixed"), 1, "3 fixed and 4 GP events on 4 + 3 counters: 1 pass");
	CHECK_EQ_U64(out[0].counter, EVSCHED_FIXED(0), "INST_RETIRED.ANY on fixed counter 0");
	CHECK_EQ_U64(out[1].counter, EVSCHED_FIXED(1), "core cycles on fixed counter 1, preferred to a GP counter");
	CHECK_EQ_U64(out[2].counter, EVSCHED_FIXED(2), "reference cycles on fixed counter 2");
	it[3] = with_fixed(ANY, 1); /* a second core-cycles event */
	CHECK_EQ_U64(plan(it, 7, 0xF, 0x7, 8, out, "fixed twice"), 1, "two core-cycles events: 1 pass");
	CHECK(out[1].counter != out[3].counter && (out[1].counter == EVSCHED_FIXED(1) || out[3].counter == EVSCHED_FIXED(1)),
	      "fixed counter 1 counts one of them, a GP counter the other (%d, %d)", out[1].counter, out[3].counter);
	it[1] = with_fixed(0, 0);
	CHECK_EQ_U64(plan(it, 2, 0xF, 0x7, 8, out, "fixed 0 twice"), 2,
		     "two fixed-counter-0-only events: 2 passes, fixed counter 0 not double-booked");
	it[0] = with_fixed(ANY, 1);
	CHECK_EQ_U64(plan(it, 1, 0xF, 0x0, 8, out, "no fixed"), 1, "core cycles where no fixed counter exists: a GP one");
	CHECK(out[0].counter >= 0 && out[0].counter < 4, "on a GP counter (%d)", out[0].counter);

	/* 4 counters read a pass, 7 counters: the cap counts fixed ones. */
	it[0] = with_fixed(0, 0); it[1] = with_fixed(0, 1); it[2] = with_fixed(0, 2);
	for (int i = 3; i < 7; i++)
		it[i] = gp(ANY);
	CHECK_EQ_U64(plan(it, 7, 0xF, 0x7, 4, out, "cap with fixed"), 2, "7 events, 4 reads a pass: 2 passes");

	it[0] = gp(ANY); it[1] = gp(0x30);
	int r = evsched_plan(it, 2, 0xF, 0x7, 8, out, (char[160]){0}, 160);
	CHECK(r == -1, "an event needing GP counter 4 or 5 on a CPU with 4: -1 (%d)", r);
	char why[160];
	r = evsched_plan(it, 2, 0xF, 0x7, 8, out, why, sizeof why);
	CHECK(strstr(why, "event 1") && strstr(why, "GP counter 4-5") && strstr(why, "GP counters 0-3"),
	      "the why names the event, what it needs and what the CPU has: '%s'", why);
	it[1] = with_fixed(0, 3);
	r = evsched_plan(it, 2, 0xF, 0x7, 8, out, why, sizeof why);
	CHECK(r == -1 && strstr(why, "event 1") && strstr(why, "fixed counter 3") && strstr(why, "fixed counters 0-2"),
	      "TOPDOWN.SLOTS (fixed counter 3 only) without fixed counter 3: -1, '%s'", why);
	it[1] = gp(0);
	r = evsched_plan(it, 2, 0xF, 0x7, 8, out, why, sizeof why);
	CHECK(r == -1 && strstr(why, "event 1"), "an event allowing no counter at all: -1, '%s'", why);
	it[1] = gp(ANY);
	r = evsched_plan(it, 2, 0, 0, 8, out, why, sizeof why);
	CHECK(r == -1 && strstr(why, "event 0") && strstr(why, "GP counters none"),
	      "no counters (QEMU TCG): -1 naming the first event, '%s'", why);
	r = evsched_plan(it, 2, 0xF, 0, 0, out, why, sizeof why);
	CHECK(r == -1 && why[0], "no reads a pass: -1 with a why, '%s'", why);
	r = evsched_plan(it, EVSCHED_MAX_EVENTS + 1, 0xF, 0, 4, out, why, sizeof why);
	CHECK(r == -1 && why[0], "more than EVSCHED_MAX_EVENTS: -1 with a why, '%s'", why);
}

/* The tests' own lower bound: TakenAlone events alone; of the others, all
 * over the cap and the counters any of them may use, the events allowed
 * one single same counter, the events sharing an MSR. */
static int simple_bound(const struct evsched_item *it, int n, uint32_t gp_avail, uint32_t fixed_avail, int cap)
{
	int alone_n = 0, rest = 0, most = 0;
	uint64_t any = 0;
	for (int i = 0; i < n; i++) {
		if (it[i].taken_alone) {
			alone_n++;
			continue;
		}
		rest++;
		any |= allowed(&it[i], gp_avail, fixed_avail);
	}
	if (!rest)
		return alone_n;
	int w = __builtin_popcountll(any) < cap ? __builtin_popcountll(any) : cap;
	most = (rest + w - 1) / w;
	for (int i = 0; i < n; i++) {
		if (it[i].taken_alone)
			continue;
		int single = 0, same = 0;
		uint64_t a = allowed(&it[i], gp_avail, fixed_avail);
		for (int j = 0; j < n; j++) {
			if (it[j].taken_alone)
				continue;
			if (__builtin_popcountll(a) == 1 && allowed(&it[j], gp_avail, fixed_avail) == a)
				single++;
			if (it[i].extra_msr && it[j].extra_msr == it[i].extra_msr)
				same++;
		}
		most = single > most ? single : most;
		most = same > most ? same : most;
	}
	return alone_n + most;
}

/* Brute force: can members[0..m-1] share a pass? */
static int assign(const uint64_t *a, int m, int k, uint64_t used)
{
	if (k == m)
		return 1;
	for (int c = 0; c < 64; c++)
		if ((a[k] >> c & 1) && !(used >> c & 1) && assign(a, m, k + 1, used | 1ull << c))
			return 1;
	return 0;
}

static int block_ok(const struct evsched_item *it, const int *members, int m, uint32_t gp_avail,
		    uint32_t fixed_avail, int cap)
{
	uint64_t a[8];
	if (m > cap)
		return 0;
	for (int k = 0; k < m; k++) {
		if (m > 1 && it[members[k]].taken_alone)
			return 0;
		for (int j = k + 1; j < m; j++)
			if (it[members[k]].extra_msr && it[members[k]].extra_msr == it[members[j]].extra_msr)
				return 0;
		a[k] = allowed(&it[members[k]], gp_avail, fixed_avail);
	}
	return assign(a, m, 0, 0);
}

/* The fewest passes over every partition of the n <= 7 events
 * (restricted growth strings), or -1 when none is feasible. */
static int brute_force(const struct evsched_item *it, int n, uint32_t gp_avail, uint32_t fixed_avail, int cap)
{
	int g[8] = { 0 }, best = -1;
	for (;;) {
		int blocks = 0;
		for (int i = 0; i < n; i++)
			blocks = g[i] + 1 > blocks ? g[i] + 1 : blocks;
		if (best < 0 || blocks < best) {
			int ok = 1;
			for (int b = 0; b < blocks && ok; b++) {
				int members[8], m = 0;
				for (int i = 0; i < n; i++)
					if (g[i] == b)
						members[m++] = i;
				ok = block_ok(it, members, m, gp_avail, fixed_avail, cap);
			}
			if (ok)
				best = blocks;
		}
		/* Next restricted growth string: g[0] = 0, g[i] <= max(g[0..i-1]) + 1. */
		int i = n - 1;
		for (; i > 0; i--) {
			int mx = 0;
			for (int j = 0; j < i; j++)
				mx = g[j] > mx ? g[j] : mx;
			if (g[i] <= mx) {
				g[i]++;
				break;
			}
			g[i] = 0;
		}
		if (i <= 0)
			return best;
	}
}

static struct evsched_item random_item(void)
{
	struct evsched_item it = { .fixed = -1 };
	switch (next() % 6) {
	case 0: it.gp_mask = ANY; break;
	case 1: it.gp_mask = 1u << (next() % 8); break;                /* Counter "n" */
	case 2: it.gp_mask = 0xFu; break;                               /* Counter "0,1,2,3" */
	case 3: it.gp_mask = 0x3u << (2 * (next() % 2)); break;         /* two counters */
	case 4: it.gp_mask = 0; it.fixed = (int)(next() % 4); break;    /* fixed only */
	default: it.gp_mask = (uint32_t)next() & (next() % 2 ? 0xFu : 0xFFu); break;
	}
	if (it.fixed < 0 && next() % 4 == 0)
		it.fixed = (int)(next() % 3);
	it.taken_alone = next() % 10 == 0;
	if (next() % 5 == 0)
		it.extra_msr = next() % 2 ? OFFCORE_RSP0 : OFFCORE_RSP1;
	return it;
}

static void test_random(void)
{
	static const uint32_t gps[] = { 0x3, 0xF, 0x3F, 0xFF, 0x3FF, 0xB };
	int compared = 0, met_bound = 0, below_bf = 0, failures = 0;
	for (int round = 0; round < 3000 && failures < 10; round++) {
		struct evsched_item it[EVSCHED_MAX_EVENTS];
		struct evsched_slot out[EVSCHED_MAX_EVENTS], again[EVSCHED_MAX_EVENTS];
		int small = round % 2 == 0;
		int n = small ? 1 + (int)(next() % 7) : 1 + (int)(next() % EVSCHED_MAX_EVENTS);
		uint32_t gp_avail = gps[next() % 6], fixed_avail = (uint32_t)(next() % 16);
		int cap = 1 + (int)(next() % (small ? 4 : 10));
		for (int i = 0; i < n; i++)
			it[i] = random_item();
		int first_bad = -1;
		for (int i = 0; i < n && first_bad < 0; i++)
			if (!allowed(&it[i], gp_avail, fixed_avail))
				first_bad = i;
		char why[160], name[48];
		snprintf(name, sizeof name, "round %d (n %d)", round, n);
		int passes = evsched_plan(it, n, gp_avail, fixed_avail, cap, out, why, sizeof why);
		if (first_bad >= 0) {
			char want[24];
			snprintf(want, sizeof want, "event %d:", first_bad);
			CHECK(passes == -1 && strstr(why, want), "%s: -1 naming event %d, no counter counts it: '%s'",
			      name, first_bad, why);
			continue;
		}
		int before = check_failed;
		CHECK(passes >= 1, "%s: a plan (%s)", name, why);
		if (passes < 1) {
			failures++;
			continue;
		}
		valid(it, n, gp_avail, fixed_avail, cap, out, passes, name);
		int bound = simple_bound(it, n, gp_avail, fixed_avail, cap);
		CHECK(passes >= bound, "%s: %d passes, never below the lower bound %d", name, passes, bound);
		met_bound += passes == bound;
		CHECK(evsched_plan(it, n, gp_avail, fixed_avail, cap, again, why, sizeof why) == passes &&
		      memcmp(out, again, sizeof out[0] * (size_t)n) == 0, "%s: the same plan twice", name);
		if (small) {
			int bf = brute_force(it, n, gp_avail, fixed_avail, cap);
			CHECK(passes == bf, "%s: %d passes, the brute force's optimum is %d", name, passes, bf);
			compared++;
			below_bf += passes < bf;
		}
		failures += check_failed != before;
	}
	CHECK(compared > 600, "property tests compared with the brute force (%d)", compared);
	CHECK(met_bound > 1000, "many random plans meet the simple lower bound (%d)", met_bound);
	CHECK(below_bf == 0, "no plan below the optimum (%d)", below_bf);
}

/* Where first-fit decreasing (most restricted first, then item order) is
 * not enough and the search finds the optimum: 4 events allowed counter
 * 3, 0, 1, 1 alone, 2 a pass; first-fit puts the first two together and
 * the two counter-1 events each in a pass of its own (3 passes), the
 * optimum pairs each counter-1 event with one of the others (2). And with
 * MSRs: A any counter and MSR_OFFCORE_RSP0, B counter 1 or 3 and
 * MSR_OFFCORE_RSP1, C counter 1, D counters 0-2 and MSR_OFFCORE_RSP0;
 * first-fit: {C, B}, {D}, {A} (A's MSR is D's), the optimum {C, D},
 * {B, A}. Then the full 64 events, each allowed two of 8 counters, with
 * TakenAlone and MSRs, finish within the budget. */
static void test_search(void)
{
	struct evsched_item it[EVSCHED_MAX_EVENTS];
	struct evsched_slot out[EVSCHED_MAX_EVENTS];
	it[0] = gp(0x8); it[1] = gp(0x1); it[2] = gp(0x2); it[3] = gp(0x2);
	CHECK_EQ_U64(plan(it, 4, 0xF, 0, 2, out, "singles"), 2, "counters 3, 0, 1, 1, 2 a pass: 2 passes, not 3");
	CHECK(out[2].pass != out[3].pass, "the two counter-1 events in different passes");

	it[0] = msr(ANY, OFFCORE_RSP0); it[1] = msr(0xA, OFFCORE_RSP1); it[2] = gp(0x2); it[3] = msr(0x7, OFFCORE_RSP0);
	CHECK_EQ_U64(plan(it, 4, 0xF, 0, 2, out, "msr search"), 2, "MSRs and counters, 2 a pass: 2 passes, not 3");

	for (int i = 0; i < EVSCHED_MAX_EVENTS; i++) {
		it[i] = gp(0x3u << (2 * (i % 4)));
		it[i].taken_alone = i % 17 == 0;
		it[i].extra_msr = i % 5 == 0 ? OFFCORE_RSP0 : 0;
	}
	int passes = plan(it, EVSCHED_MAX_EVENTS, 0xFF, 0x7, 8, out, "64 events");
	int bound = simple_bound(it, EVSCHED_MAX_EVENTS, 0xFF, 0x7, 8);
	CHECK(passes >= bound && passes <= EVSCHED_MAX_PASSES, "64 events: %d passes, bound %d", passes, bound);
}

int main(void)
{
	test_known();
	test_search();
	test_random();
	return check_summary("test_evsched");
}

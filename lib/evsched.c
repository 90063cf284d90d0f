/* lib/evsched.c - see evsched.h.
 *
 * A pass is feasible when it holds at most max_per_pass items, a
 * TakenAlone item only alone, no extra MSR twice, and the items can be
 * matched to distinct counters each of them allows: a bipartite matching
 * by augmenting paths (Berge 1957: a matching is maximum when no
 * augmenting path is left; Kuhn, "The Hungarian method for the assignment
 * problem", 1955), found breadth-first, so without recursion. The
 * restrictions are intel/perfmon's event fields Counter, TakenAlone and
 * MSRIndex (its README), fixed counters per SDM Vol. 3B "Fixed-Function
 * Performance Counters". The
 * plan: a lower bound on the passes, first-fit decreasing (most restricted
 * first), then, when that is above the bound, an exhaustive search for
 * each smaller count (iterative, a new pass only ever the next empty one)
 * within EVSCHED_BUDGET feasibility checks. Everything is in item order,
 * so the same items always give the same plan. */
#include "evsched.h"
#include "fmt.h"

/* Feasibility checks the search may make beyond first-fit (each one a
 * matching of at most max_per_pass items on at most 64 counters). */
#define EVSCHED_BUDGET 4000

#define NCOUNTERS 64

struct plan {
	int n, cap;
	uint64_t allowed[EVSCHED_MAX_EVENTS]; /* bit c: counter c can count item i */
	int alone[EVSCHED_MAX_EVENTS];
	uint32_t msr[EVSCHED_MAX_EVENTS];
	long budget;
};

static int popcount64(uint64_t x)
{
	int c = 0;
	for (; x; x &= x - 1)
		c++;
	return c;
}

/* Match members[0..m-1] to distinct counters: each fixed counter first to
 * the member wanting it with the fewest other counters (so a fixed counter
 * is used wherever one in the pass can count it: augmenting never frees a
 * matched counter), then every other member by breadth-first augmenting
 * paths, counters in ascending order. counter_of[k] gets member k's
 * counter. Returns 1 when every member has one. */
static int match(const struct plan *p, const int *members, int m, int *counter_of)
{
	int owner[NCOUNTERS]; /* member index holding counter c, or -1 */
	for (int c = 0; c < NCOUNTERS; c++)
		owner[c] = -1;
	for (int k = 0; k < m; k++)
		counter_of[k] = -1;
	for (int c = 32; c < NCOUNTERS; c++) {
		int best = -1;
		for (int k = 0; k < m; k++) {
			uint64_t a = p->allowed[members[k]];
			if (counter_of[k] < 0 && (a >> c & 1) &&
			    (best < 0 || popcount64(a) < popcount64(p->allowed[members[best]])))
				best = k;
		}
		if (best >= 0) {
			owner[c] = best;
			counter_of[best] = c;
		}
	}
	for (int k = 0; k < m; k++) {
		if (counter_of[k] >= 0)
			continue;
		/* Breadth-first over counters from member k. */
		int prev[NCOUNTERS]; /* the counter before c on the path, -2 unseen, -1 from k */
		int queue[NCOUNTERS], head = 0, tail = 0, found = -1;
		for (int c = 0; c < NCOUNTERS; c++)
			prev[c] = -2;
		for (int c = 0; c < NCOUNTERS; c++)
			if (p->allowed[members[k]] >> c & 1) {
				prev[c] = -1;
				queue[tail++] = c;
			}
		while (head < tail && found < 0) {
			int c = queue[head++];
			if (owner[c] < 0) {
				found = c;
				break;
			}
			uint64_t a = p->allowed[members[owner[c]]];
			for (int d = 0; d < NCOUNTERS; d++)
				if ((a >> d & 1) && prev[d] == -2) {
					prev[d] = c;
					queue[tail++] = d;
				}
		}
		if (found < 0)
			return 0;
		/* Shift every member on the path one counter along. */
		int c = found;
		while (c >= 0) {
			int before = prev[c];
			int moved = before >= 0 ? owner[before] : k;
			owner[c] = moved;
			counter_of[moved] = c;
			c = before;
		}
	}
	return 1;
}

/* Whether item x may join members[0..m-1] (a feasible pass). */
static int fits(struct plan *p, const uint8_t *members, int m, int x)
{
	if (m + 1 > p->cap)
		return 0;
	if (m > 0 && p->alone[x])
		return 0;
	for (int k = 0; k < m; k++) {
		if (p->alone[members[k]])
			return 0;
		if (p->msr[x] && p->msr[members[k]] == p->msr[x])
			return 0;
	}
	int all[EVSCHED_MAX_EVENTS], counter_of[EVSCHED_MAX_EVENTS];
	for (int k = 0; k < m; k++)
		all[k] = members[k];
	all[m] = x;
	p->budget--;
	return match(p, all, m + 1, counter_of);
}

static int ceil_div(int a, int b)
{
	return (a + b - 1) / b;
}

/* The passes no plan can do without: each TakenAlone item alone, and of
 * the rest the most of: all of them over the capacity of the counters any
 * can use; for each item's counter set A, the items needing counters within
 * A over |A| (3 items allowed only counter 0 need 3); the items sharing
 * one extra MSR. */
static int lower_bound(const struct plan *p)
{
	int alone = 0, rest = 0, most = 0;
	uint64_t any = 0;
	for (int i = 0; i < p->n; i++) {
		if (p->alone[i]) {
			alone++;
			continue;
		}
		rest++;
		any |= p->allowed[i];
	}
	if (rest == 0)
		return alone;
	int width = popcount64(any) < p->cap ? popcount64(any) : p->cap;
	most = ceil_div(rest, width);
	for (int i = 0; i < p->n; i++) {
		if (p->alone[i])
			continue;
		uint64_t a = p->allowed[i];
		int within = 0, same_msr = 0;
		for (int j = 0; j < p->n; j++) {
			if (p->alone[j])
				continue;
			if ((p->allowed[j] & ~a) == 0)
				within++;
			if (p->msr[i] && p->msr[j] == p->msr[i])
				same_msr++;
		}
		int w = popcount64(a) < p->cap ? popcount64(a) : p->cap;
		if (ceil_div(within, w) > most)
			most = ceil_div(within, w);
		if (same_msr > most)
			most = same_msr;
	}
	return alone + most;
}

/* The order items are placed in: TakenAlone first, then the fewest
 * counters allowed, an extra MSR before none, then item order. */
static int before(const struct plan *p, int a, int b)
{
	if (p->alone[a] != p->alone[b])
		return p->alone[a];
	int ca = popcount64(p->allowed[a]), cb = popcount64(p->allowed[b]);
	if (ca != cb)
		return ca < cb;
	if ((p->msr[a] != 0) != (p->msr[b] != 0))
		return p->msr[a] != 0;
	return a < b;
}

struct passes {
	int count;
	int size[EVSCHED_MAX_PASSES];
	uint8_t member[EVSCHED_MAX_PASSES][EVSCHED_MAX_EVENTS]; /* item indexes (< 64) */
};

/* First-fit decreasing: each item in order into the first pass it fits. */
static void first_fit(struct plan *p, const int *order, struct passes *s)
{
	s->count = 0;
	for (int k = 0; k < p->n; k++) {
		int x = order[k], q = 0;
		while (q < s->count && !fits(p, s->member[q], s->size[q], x))
			q++;
		if (q == s->count)
			s->size[s->count++] = 0;
		s->member[q][s->size[q]++] = (uint8_t)x;
	}
}

/* Every placement of the items into at most k passes, depth first without
 * recursion, an item going into a used pass or the first empty one.
 * Returns 1 with *s filled, 0 when there is none, -1 when the budget ran
 * out first. */
static int search(struct plan *p, const int *order, int k, struct passes *s)
{
	int choice[EVSCHED_MAX_EVENTS];
	int used = 0, depth = 0;
	for (int q = 0; q < k; q++)
		s->size[q] = 0;
	choice[0] = -1;
	while (depth >= 0) {
		if (depth == p->n) {
			s->count = used;
			return 1;
		}
		if (p->budget <= 0)
			return -1;
		int x = order[depth];
		if (choice[depth] >= 0) { /* take x back out of the pass it was in */
			int q = choice[depth];
			if (--s->size[q] == 0)
				used--;
		}
		int q = choice[depth] + 1, last = used < k ? used : k - 1;
		while (q <= last && !fits(p, s->member[q], s->size[q], x))
			q++;
		if (q <= last) {
			choice[depth] = q;
			if (s->size[q] == 0)
				used++;
			s->member[q][s->size[q]++] = (uint8_t)x;
			if (++depth < p->n)
				choice[depth] = -1;
		} else {
			choice[depth] = -1;
			depth--;
		}
	}
	return 0;
}

/* what, then the counters of mask as ranges ("GP counter 4-5,7", "...
 * none") into buf[0..len-1]. Returns the length written. */
static size_t say_counters(char *buf, size_t len, uint32_t mask, const char *what)
{
	size_t pos = 0;
	int first = 1;
#define PUT(...) (pos += (size_t)fmt_format(buf + pos, len - pos, __VA_ARGS__), pos = pos < len ? pos : len - 1)
	PUT("%s", what);
	for (int c = 0; c < 32; c++) {
		if (!(mask >> c & 1))
			continue;
		int last = c;
		while (last + 1 < 32 && (mask >> (last + 1) & 1))
			last++;
		if (last > c)
			PUT("%s%d-%d", first ? " " : ",", c, last);
		else
			PUT("%s%d", first ? " " : ",", c);
		first = 0;
		c = last;
	}
	if (first)
		PUT(" none");
#undef PUT
	return pos;
}

/* why[]: what item i needs and what the CPU has. */
static void say_unplaceable(const struct evsched_item *it, int i, uint32_t gp_avail, uint32_t fixed_avail,
			    char *why, size_t whylen)
{
	char need[96] = "", have[96];
	size_t pos = 0;
	if (it->gp_mask == 0xFFFFFFFFu)
		pos = (size_t)fmt_format(need, sizeof need, "any GP counter");
	else if (it->gp_mask)
		pos = say_counters(need, sizeof need, it->gp_mask, "GP counter");
	if (it->fixed >= 0)
		fmt_format(need + pos, sizeof need - pos, "%sfixed counter %d", pos ? " or " : "", it->fixed);
	else if (!it->gp_mask)
		fmt_format(need, sizeof need, "a counter and allows none");
	pos = say_counters(have, sizeof have, gp_avail, "GP counters");
	say_counters(have + pos, sizeof have - pos, fixed_avail, ", fixed counters");
	fmt_format(why, whylen, "event %d: needs %s, the CPU has %s", i, need, have);
}

int evsched_plan(const struct evsched_item *items, int n, uint32_t gp_avail, uint32_t fixed_avail,
		 int max_per_pass, struct evsched_slot *out, char *why, size_t whylen)
{
	/* About 10 KiB, kept off the kernel's stack: one plan at a time. */
	static struct plan p;
	static struct passes best, trial;
	int order[EVSCHED_MAX_EVENTS];

	if (why && whylen)
		why[0] = 0;
	if (n < 0 || n > EVSCHED_MAX_EVENTS) {
		if (why && whylen)
			fmt_format(why, whylen, "%d events: at most %d can be scheduled", n, EVSCHED_MAX_EVENTS);
		return -1;
	}
	if (n == 0)
		return 0;
	if (max_per_pass < 1) {
		if (why && whylen)
			fmt_format(why, whylen, "no counter can be read in a pass (at most %d a pass)", max_per_pass);
		return -1;
	}
	p.n = n;
	p.cap = max_per_pass;
	p.budget = EVSCHED_BUDGET;
	for (int i = 0; i < n; i++) {
		uint64_t a = (uint64_t)(items[i].gp_mask & gp_avail);
		if (items[i].fixed >= 0 && items[i].fixed < 32 && (fixed_avail >> items[i].fixed & 1))
			a |= 1ull << (32 + items[i].fixed);
		if (!a) {
			if (why && whylen)
				say_unplaceable(&items[i], i, gp_avail, fixed_avail, why, whylen);
			return -1;
		}
		p.allowed[i] = a;
		p.alone[i] = items[i].taken_alone != 0;
		p.msr[i] = items[i].extra_msr;
	}

	/* Insertion sort into placing order (n <= 64). */
	for (int i = 0; i < n; i++) {
		int k = i;
		while (k > 0 && before(&p, i, order[k - 1])) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}

	int bound = lower_bound(&p);
	first_fit(&p, order, &best);
	p.budget = EVSCHED_BUDGET;
	for (int k = bound; k < best.count; k++) {
		int r = search(&p, order, k, &trial);
		if (r < 0)
			break;
		if (r == 1) {
			best = trial;
			break;
		}
	}

	/* Number the passes by their first item, then each pass's counters. */
	int first_item[EVSCHED_MAX_PASSES], rank[EVSCHED_MAX_PASSES];
	for (int q = 0; q < best.count; q++) {
		first_item[q] = n;
		for (int k = 0; k < best.size[q]; k++)
			if (best.member[q][k] < first_item[q])
				first_item[q] = best.member[q][k];
	}
	for (int q = 0; q < best.count; q++) {
		rank[q] = 0;
		for (int r = 0; r < best.count; r++)
			if (first_item[r] < first_item[q])
				rank[q]++;
	}
	for (int q = 0; q < best.count; q++) {
		int sorted[EVSCHED_MAX_EVENTS], counter_of[EVSCHED_MAX_EVENTS], m = best.size[q];
		for (int k = 0; k < m; k++) { /* members in item order */
			int x = best.member[q][k], j = k;
			while (j > 0 && sorted[j - 1] > x) {
				sorted[j] = sorted[j - 1];
				j--;
			}
			sorted[j] = x;
		}
		match(&p, sorted, m, counter_of); /* feasible: it was checked */
		for (int k = 0; k < m; k++) {
			out[sorted[k]].pass = rank[q];
			out[sorted[k]].counter = counter_of[k];
		}
	}
	return best.count;
}

/* bench/walk.c - see walk.h. */
#include "walk.h"
#include "../kernel/trap.h"

/* The markers, sorted by address then kind, for a binary search per step.
 * 2048 (32 KiB of zeroed data; the image had 640 when this was set, from
 * 4096): linker.ld's ASSERT fails the link when bench_marks holds more,
 * so the table never silently leaves a window unwalkable. */
#define WALK_MAX_MARKS 2048
static struct bench_mark marks[WALK_MAX_MARKS];
static int nmarks = -1;
static struct bench_mark extra[4];
static int nextra;

enum walk_state { W_OUTSIDE, W_GAP_BEFORE, W_BODY, W_GAP_AFTER };
static struct walk_result *cur;
static enum walk_state state;

void walk_extra_marks(const struct bench_mark *m, int n)
{
	nextra = n < 4 ? n : 4;
	for (int i = 0; i < nextra; i++)
		extra[i] = m[i];
}

static int mark_less(const struct bench_mark *a, const struct bench_mark *b)
{
	return a->addr < b->addr || (a->addr == b->addr && a->kind < b->kind);
}

static int load_marks(void)
{
	if (nmarks >= 0)
		return nmarks <= WALK_MAX_MARKS;
	long n = __stop_bench_marks - __start_bench_marks;
	nmarks = (int)n;
	if (n > WALK_MAX_MARKS)
		return 0;
	for (int i = 0; i < nmarks; i++) {
		struct bench_mark m = __start_bench_marks[i];
		int j = i;
		for (; j > 0 && mark_less(&m, &marks[j - 1]); j--)
			marks[j] = marks[j - 1];
		marks[j] = m;
	}
	return 1;
}

static int (*prev_hook)(struct trap_frame *f);

/* The #DB handler while walking: the instruction just executed belongs to
 * the current part; the markers at the next RIP say which part comes next. */
static int walk_trap(struct trap_frame *f)
{
	if (f->vector != VEC_DB || !cur)
		return prev_hook ? prev_hook(f) : 0;
	uint64_t *part[] = { 0, &cur->gap_before, &cur->body, &cur->gap_after };
	if (part[state])
		(*part[state])++;
	if (++cur->steps >= WALK_MAX_STEPS) {
		f->rflags &= ~0x100ull; /* TF: stop stepping, let the sample finish */
		cur->complete = 0;
		return 1;
	}
	int lo = 0, hi = nmarks;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (marks[mid].addr < f->rip)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct bench_mark *at[8];
	int nat = 0;
	for (; lo < nmarks && marks[lo].addr == f->rip && nat < 4; lo++)
		at[nat++] = &marks[lo];
	for (int i = 0; i < nextra; i++)
		if (extra[i].addr == f->rip)
			at[nat++] = &extra[i];
	for (int i = 0; i < nat; i++) {
		switch (at[i]->kind) {
		case MARK_START_END:
			state = W_GAP_BEFORE;
			cur->windows++;
			break;
		case MARK_BODY_BEGIN:
			state = W_BODY;
			break;
		case MARK_BODY_END:
			state = W_GAP_AFTER;
			break;
		case MARK_STOP_BEGIN:
			state = W_OUTSIDE;
			break;
		}
	}
	return 1;
}

int walk_window(fill_fn fill, struct samples *s, struct wl_ctx *c, struct walk_result *r)
{
	*r = (struct walk_result){ .complete = 1 };
	if (!load_marks()) {
		r->complete = 0;
		return -1;
	}
	state = W_OUTSIDE;
	cur = r;
	prev_hook = trap_hook;
	trap_hook = walk_trap;
	__asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::: "cc", "memory");
	fill(s, 1, c);
	__asm__ volatile("pushfq\n\tandq $~0x100, (%%rsp)\n\tpopfq" ::: "cc", "memory");
	/* DR6.BS stays set after the steps (SDM Vol. 3B 18.2.3: the processor
	 * never clears DR6): clear it, so a later #DB reads its own cause. */
	__asm__ volatile("mov %0, %%dr6" : : "r"(0xFFFF0FF0ull));
	trap_hook = prev_hook;
	cur = 0;
	return r->complete ? 0 : -1;
}

/* bench/evrun.c - see evrun.h. */
#include "evrun.h"
#include "code.h"
#include "percopytext.h"
#include "results.h"
#include "events.h"
#include "walk.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/mem.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/robust.h"
#include "../lib/stats.h"
#include "../lib/string.h"

/* One window's figures of one event, in events (the event is the unit). */
struct evfig {
	struct summary_result s;    /* least minimum, the paper's variances (lib/stats.h) */
	uint64_t median_of_medians; /* median over ensembles of the ensemble medians */
};

/* Per boot: the buffers, allocated by the first method measured with a
 * pass (prepare). */
static int prepared;               /* 0 not yet, 1 ready, -1 no memory (said once) */
static const struct config *cfg;   /* evrun_begin's */
static uint64_t *tsc_buf;          /* the run's TSC buffer (evrun_begin) */
static uint64_t *ev_buf[BENCH_EV_SLOTS], *ev_mins[BENCH_EV_SLOTS], *ev_medians[BENCH_EV_SLOTS];
static uint64_t ev_cap;            /* samples each ev_buf holds */
static int ev_slots;               /* buffers allocated: the most events of one pass */
static int code_ok;                /* code_ev_prepare's loops exist */

/* What the printers read back: per method and event, code='s figure per
 * copy, and per method, workload row and event the net. Allocated with
 * the buffers (only when a pass exists). */
struct kept_copy {
	struct percopy p;
	int have, verified;
};
struct kept_net {
	int64_t net;
	int have;
};
static struct kept_copy *kept_copy; /* [METHOD_COUNT][events_count()] */
static struct kept_net *kept_net;   /* [METHOD_COUNT][rows][events_count()] */
static int kept_events, kept_rows;  /* rows: workload_count() + 1, the last code='s */

void evrun_begin(const struct config *c, uint64_t *tsc)
{
	cfg = c;
	tsc_buf = tsc;
}

void evrun_release(void)
{
	prepared = 0;
	kept_copy = 0;
	kept_net = 0;
	kept_events = kept_rows = 0;
	ev_cap = 0;
	ev_slots = 0;
	code_ok = 0;
	for (int s = 0; s < BENCH_EV_SLOTS; s++)
		ev_buf[s] = ev_mins[s] = ev_medians[s] = 0;
}

/* The most events one pass measures (0: none can count). */
static int most_per_pass(void)
{
	int per[BENCH_EV_MAX] = { 0 }, most = 0;
	for (int i = 0; i < events_count() && i < BENCH_EV_MAX; i++) {
		int p = events_at(i)->pass;
		if (p >= 0 && p < BENCH_EV_MAX && ++per[p] > most)
			most = per[p];
	}
	return most < BENCH_EV_SLOTS ? most : BENCH_EV_SLOTS;
}

/* Once: code='s loops with the events beside, the kept figures, each
 * slot's ensemble minimums and medians, then the sample buffers: the
 * configured samples, or the most that fit (one line). */
static int prepare(uint64_t capacity)
{
	if (prepared)
		return prepared > 0;
	prepared = -1;
	code_ok = code_ev_prepare() > 0;
	kept_events = events_count();
	kept_rows = workload_count() + 1;
	kept_copy = mem_alloc((uint64_t)METHOD_COUNT * (uint64_t)kept_events * sizeof *kept_copy);
	kept_net = mem_alloc((uint64_t)METHOD_COUNT * (uint64_t)kept_rows * (uint64_t)kept_events * sizeof *kept_net);
	ev_slots = most_per_pass();
	int ok = kept_copy && kept_net;
	for (int s = 0; s < ev_slots && ok; s++) {
		ev_mins[s] = mem_alloc(cfg->ensembles * sizeof(uint64_t));
		ev_medians[s] = mem_alloc(cfg->ensembles * sizeof(uint64_t));
		ok = ev_mins[s] && ev_medians[s];
	}
	if (!ok) {
		kprintf("events: no memory for the events' figures and ensemble minimums and medians: no events "
			"windows are measured\n");
		return 0;
	}
	if (kept_copy)
		memset(kept_copy, 0, (uint64_t)METHOD_COUNT * (uint64_t)kept_events * sizeof *kept_copy);
	memset(kept_net, 0, (uint64_t)METHOD_COUNT * (uint64_t)kept_rows * (uint64_t)kept_events * sizeof *kept_net);
	uint64_t want = cfg->samples < capacity ? cfg->samples : capacity;
	/* mem_alloc rounds each buffer up to 64 bytes: 8 samples. */
	uint64_t fit = ev_slots ? (mem_free_bytes() / (uint64_t)ev_slots) / 64 * 8 : 0;
	ev_cap = want <= fit ? want : fit;
	if (ev_cap < want)
		kprintf("events: samples=%llu needs %llu bytes for the sample buffers of %d events read in one pass, "
			"but %llu bytes are free; the events windows use %llu samples per ensemble, the most that "
			"fit\n", (unsigned long long)want, (unsigned long long)(want * 8 * (uint64_t)ev_slots), ev_slots,
			(unsigned long long)mem_free_bytes(), (unsigned long long)ev_cap);
	for (int s = 0; s < ev_slots && ev_cap; s++)
		if (!(ev_buf[s] = mem_alloc(ev_cap * sizeof(uint64_t))))
			ev_cap = 0;
	if (!ev_cap) {
		kprintf("events: no memory for one sample of each event: no events windows are measured\n");
		return 0;
	}
	prepared = 1;
	return 1;
}

/* The events of the pass being measured; whether code= runs in it (not
 * after the user's code faulted in the method's own windows). */
static int pass_k, pass_which[BENCH_EV_SLOTS], pass_no, code_runs;
static uint64_t faults_seen; /* code_fault_last's count at the last look */

static const struct bench_event *slot_event(int s)
{
	return events_at(pass_which[s]);
}

/* walk=on: one sample of the window single-stepped (bench/walk.h): the
 * TSC window holds the body only, the events' reads lie outside it. */
static int walk_events(enum method_id m, const struct workload *w, fill_fn fill, struct samples *sm)
{
	struct wl_ctx c = { .variable = 0, .param = w->default_param };
	struct walk_result r;
	int bad = walk_window(fill, sm, &c, &r);
	if ((w->flags & WL_CODE) && code_fault_take(m, w))
		return -1;
	if (!config_human())
		return 0;
	if (bad)
		kprintf("walk events %s/%s pass %d: incomplete\n", methods[m].name, w->name, pass_no + 1);
	else
		kprintf("walk events %s/%s pass %d: body %llu instructions; %llu instructions between the start "
			"sequence and the body, %llu between the body and the stop sequence, the events' reads "
			"outside (one sample single-stepped with RFLAGS.TF: %llu steps, %llu window%s)\n",
			methods[m].name, w->name, pass_no + 1, (unsigned long long)r.body,
			(unsigned long long)r.gap_before, (unsigned long long)r.gap_after,
			(unsigned long long)r.steps, (unsigned long long)r.windows, r.windows == 1 ? "" : "s");
	return 0;
}

/* One window of the pass: warm-up, then the method's ensembles of
 * ev_cap samples; per event the statistics core cycles get (bench/run.c:
 * ensemble_compute, summary, robust), deltas modulo the counter's width.
 * Returns 0, or -1 when the user's code faulted (reported). */
static int measure(enum method_id m, const struct workload *w, struct evfig *out)
{
	fill_fn fill = w->fill_ev[m];
	struct samples sm = { .tsc = tsc_buf, .nev = (uint64_t)pass_k };
	struct wl_ctx c = { .variable = 0, .param = w->default_param };
	struct paper_summary sum[BENCH_EV_SLOTS];
	struct ensemble_stats e;
	struct robust_stats r;
	uint64_t mask[BENCH_EV_SLOTS];
	for (int s = 0; s < pass_k; s++) {
		unsigned bits = slot_event(s)->width;
		sm.ev[s] = ev_buf[s];
		mask[s] = bits && bits < 64 ? (1ull << bits) - 1 : ~0ull;
		summary_init(&sum[s]);
	}
	if (cfg->walk && walk_events(m, w, fill, &sm))
		return -1;
	for (uint64_t left = cfg->warmup; left;) {
		uint64_t n = left < ev_cap ? left : ev_cap;
		fill(&sm, n, &c);
		left -= n;
	}
	if ((w->flags & WL_CODE) && code_fault_take(m, w))
		return -1;
	for (uint64_t j = 0; j < cfg->ensembles; j++) {
		fill(&sm, ev_cap, &c);
		if ((w->flags & WL_CODE) && code_fault_take(m, w))
			return -1;
		for (int s = 0; s < pass_k; s++) {
			uint64_t *b = ev_buf[s];
			for (uint64_t i = 0; i < ev_cap; i++)
				b[i] &= mask[s];
			ensemble_compute(b, ev_cap, &e);
			summary_add(&sum[s], &e);
			robust_compute(b, ev_cap, &r); /* reorders the buffer */
			ev_mins[s][j] = e.min;
			ev_medians[s][j] = r.median;
		}
	}
	for (int s = 0; s < pass_k; s++) {
		summary_finish(&sum[s], &out[s].s);
		robust_compute(ev_medians[s], cfg->ensembles, &r);
		out[s].median_of_medians = r.median;
	}
	return 0;
}

/* The row of the kept nets: the registered workload's index, or the last
 * (code=). */
static struct kept_net *net_at(enum method_id m, int row, int ev)
{
	return &kept_net[((uint64_t)m * (uint64_t)kept_rows + (uint64_t)row) * (uint64_t)kept_events + (uint64_t)ev];
}

/* "(unverified: <the check's text>)" for an event its pass's check did
 * not confirm, else "". */
static const char *unverified(char *buf, size_t size, const struct bench_event *e)
{
	buf[0] = 0;
	if (!e->verified)
		fmt_format(buf, size, " (unverified: %s)", e->check[0] ? e->check : "its pass's check did not run");
	return buf;
}

static void rec_wide_or_null(struct rec *k, const char *key, const struct wide *v, int ok)
{
	char d[WIDE_DEC_SIZE];
	rec_raw(k, key, ok ? wide_dec(d, sizeof d, v) : "null");
}

/* A window's line (each event's net and least minimum) and one
 * event_window record per event; offset: the empty window's figures (NULL
 * for the empty window itself). Keeps the nets of row (>= 0). */
static void report_window(enum method_id m, const struct workload *w, const struct evfig *f,
			  const struct evfig *offset, int row)
{
	static char line[8192]; /* 16 events with their checks' texts */
	char un[200];
	size_t k = (size_t)fmt_format(line, sizeof line, "events %s/%s pass %d:", methods[m].name, w->name, pass_no + 1);
	for (int s = 0; s < pass_k; s++) {
		const struct bench_event *e = slot_event(s);
		uint64_t least = f[s].s.min_of_mins, off = offset ? offset[s].s.min_of_mins : least;
		int64_t net = (int64_t)(least - off);
		if (row >= 0) {
			struct kept_net *kn = net_at(m, row, pass_which[s]);
			kn->net = net, kn->have = 1;
		}
		if (k < sizeof line) {
			if (offset)
				k += (size_t)fmt_format(line + k, sizeof line - k, "%s net %lld %s (least minimum %llu)%s",
							s ? "," : "", (long long)net, e->def.name, (unsigned long long)least,
							unverified(un, sizeof un, e));
			else
				k += (size_t)fmt_format(line + k, sizeof line - k, "%s least minimum %llu %s (the offset)%s",
							s ? "," : "", (unsigned long long)least, e->def.name,
							unverified(un, sizeof un, e));
		}
		if (!config_json())
			continue;
		struct rec r;
		rec_begin(&r, "event_window");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_str(&r, "event", e->def.name);
		rec_u64(&r, "pass", (uint64_t)pass_no);
		rec_u64(&r, "least_min", least);
		rec_wide_or_null(&r, "var_of_vars", &f[s].s.var_of_vars, f[s].s.var_of_vars_ok);
		rec_wide_or_null(&r, "var_of_mins", &f[s].s.var_of_mins, f[s].s.var_of_mins_ok);
		rec_u64(&r, "median_of_medians", f[s].median_of_medians);
		rec_u64(&r, "offset", off);
		rec_i64(&r, "net", net);
		rec_bool(&r, "verified", e->verified);
		rec_end(&r);
	}
	if (config_human())
		kprintf("%s\n", line);
}

/* A window's minimums for lib/percopy (bench/results.c window_of's rule). */
static struct percopy_window window_of(const struct evfig *f)
{
	int fits = f->s.var_of_mins_ok && wide_bits(&f->s.var_of_mins) <= 64;
	return (struct percopy_window){ .var_of_mins = fits ? f->s.var_of_mins.w[0] : 0, .var_ok = fits,
					.min_of_mins = f->s.min_of_mins, .max_of_mins = f->s.max_of_mins };
}

/* code='s 2N-N figure per copy of each event of the pass, step 1 (an
 * event counts by one): kept, and said in a line and a record. */
static void report_per_copy(enum method_id m, const char *wname, const struct evfig *empty, const struct evfig *fn,
			    const struct evfig *f2n)
{
	uint64_t copies = code_copies_executed();
	for (int s = 0; s < pass_k; s++) {
		const struct bench_event *e = slot_event(s);
		struct percopy_window we = window_of(&empty[s]), w1 = window_of(&fn[s]), w2 = window_of(&f2n[s]);
		struct kept_copy *kc = &kept_copy[(uint64_t)m * (uint64_t)kept_events + (uint64_t)pass_which[s]];
		uint64_t least_n = fn[s].s.min_of_mins, least_2n = f2n[s].s.min_of_mins;
		percopy_compute(least_n, least_2n, copies, percopy_spread(&w1, &we), percopy_spread(&w2, &we), 1, &kc->p);
		kc->have = 1;
		kc->verified = e->verified;
		const struct percopy *p = &kc->p;
		char what[400], un[200];
		if (config_human())
			kprintf("event_per_copy %s/%s: %s (least minimum with %llu copies executed %llu - with %llu copies "
				"%llu, over %llu copies executed)%s\n", methods[m].name, wname,
				code_per_copy_what(what, sizeof what, p, e->def.name, "counter"),
				(unsigned long long)(2 * copies), (unsigned long long)least_2n, (unsigned long long)copies,
				(unsigned long long)least_n, (unsigned long long)copies, unverified(un, sizeof un, e));
		if (!config_json())
			continue;
		struct rec rc;
		rec_begin(&rc, "event_per_copy");
		rec_str(&rc, "method", methods[m].name);
		rec_str(&rc, "workload", wname);
		rec_str(&rc, "event", e->def.name);
		code_per_copy_fields(&rc, p, least_n, least_2n);
		rec_bool(&rc, "verified", e->verified);
		rec_end(&rc);
	}
}

/* One pass under method m: the empty window, each workload the run
 * measures, code='s N and 2N windows. */
static void measure_pass(enum method_id m)
{
	static struct evfig empty[BENCH_EV_SLOTS], f[BENCH_EV_SLOTS], fn[BENCH_EV_SLOTS], f2n[BENCH_EV_SLOTS];
	const struct workload *ew = 0;
	for (int i = 0; i < workload_count(); i++)
		if (workload_at(i)->flags & WL_OFFSET)
			ew = workload_at(i);
	if (!ew || measure(m, ew, empty))
		return;
	report_window(m, ew, empty, 0, -1);
	for (int i = 0; i < workload_count(); i++) {
		const struct workload *w = workload_at(i);
		if (w->flags & (WL_OFFSET | WL_RESOLUTION) || !config_workload_selected(i))
			continue;
		if (!measure(m, w, f))
			report_window(m, w, f, empty, i);
	}
	if (!code_configured() || !code_ok || !code_runs)
		return;
	const struct workload *w = code_workload_ev(m, 1, pass_k);
	if (!w || measure(m, w, fn))
		return;
	char wname[48];
	fmt_format(wname, sizeof wname, "%s", w->name);
	report_window(m, w, fn, empty, kept_rows - 1);
	w = code_workload_ev(m, 2, pass_k);
	if (!w || measure(m, w, f2n))
		return;
	report_window(m, w, f2n, empty, -1);
	report_per_copy(m, wname, empty, fn, f2n);
}

void evrun_method(enum method_id m, uint64_t capacity)
{
	struct code_fault_at at;
	uint64_t taken = code_fault_last(&at);
	code_runs = taken == faults_seen; /* the method's own code= windows did not fault */
	faults_seen = taken;
	if (method_is_ctr(m) || events_passes() <= 0 || !cfg || !tsc_buf || !prepare(capacity))
		return;
	for (int p = 0; p < events_passes(); p++) {
		int k = events_pass_begin(p, bench_ev_ecx, pass_which); /* the windows' RDPMC ECX values */
		if (k > 0) {
			pass_no = p;
			pass_k = k < ev_slots ? k : ev_slots;
			measure_pass(m);
		}
		events_pass_end(p);
		faults_seen = code_fault_last(&at);
		code_runs = code_runs && faults_seen == taken; /* nor in this pass */
	}
}

int evrun_per_copy(enum method_id m, int ev, struct percopy *out, int *verified)
{
	if (prepared <= 0 || ev < 0 || ev >= kept_events || (int)m < 0 || m >= METHOD_COUNT)
		return 0;
	const struct kept_copy *kc = &kept_copy[(uint64_t)m * (uint64_t)kept_events + (uint64_t)ev];
	if (!kc->have)
		return 0;
	*out = kc->p;
	*verified = kc->verified;
	return 1;
}

static int name_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int evrun_net(enum method_id m, const struct workload *w, int ev, int64_t *net)
{
	if (prepared <= 0 || !w || ev < 0 || ev >= kept_events || (int)m < 0 || m >= METHOD_COUNT)
		return 0;
	int row = -1;
	for (int i = 0; i < workload_count(); i++)
		if (workload_at(i) == w || name_eq(workload_at(i)->name, w->name))
			row = i;
	if (row < 0 && (w->flags & WL_CODE) && code_configured())
		row = kept_rows - 1;
	if (row < 0)
		return 0;
	const struct kept_net *kn = net_at(m, row, ev);
	if (!kn->have)
		return 0;
	*net = kn->net;
	return 1;
}

/* bench/events.c - see events.h; docs/EVENTS.md says what a run prints. */
#include "events.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/pmu.h"
#include "../kernel/pmucount.h"
#include "../lib/evsched.h"
#include "../lib/fmt.h"
#include "../lib/pmucheck.h"
#include "../lib/record.h"
#include "../lib/string.h"

/* The check's loop (lib/pmucheck.h): N and 2N iterations of `dec; jnz`.
 * 1,000,000: large beside the few dozen instructions of the reads (which
 * cancel in count(2N) - count(N) anyway), small beside a run (3 x 10^6
 * iterations a pass, a few ms on hardware). */
#define EVENTS_CHECK_ITERATIONS 1000000ull
/* Checks tried while a predicted event misses (an SMI landing in the loop
 * counts at CPL 0, kernel/pmu.c): the last attempt's figures are said. */
#define EVENTS_CHECK_ATTEMPTS 3

static struct bench_event evs[BENCH_EV_MAX];
static int nev;           /* events resolved */
static int npasses;       /* passes to measure (0: nothing counts here) */
static enum ev_vendor vendor;
/* Pass p's events in slot order: pass_ev[p][slot] = event index. */
static int pass_ev[EVSCHED_MAX_PASSES][BENCH_EV_SLOTS];
static int pass_n[EVSCHED_MAX_PASSES];
/* Why an event has no counter (counter -1): its own text, or this one. */
static char why_ev[BENCH_EV_MAX][160];

int events_count(void)
{
	return nev;
}

const struct bench_event *events_at(int i)
{
	return i >= 0 && i < nev ? &evs[i] : 0;
}

int events_passes(void)
{
	return npasses;
}

/* CPUID for resolution; under pmu=off leaf 0AH reads as absent (pmu=off
 * touches nothing of the PMU, not even that leaf: lib/pmu.h). */
static void ev_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	int off = *(const int *)ctx;
	cpuid_into(0, leaf, sub, out);
	if (off && leaf == 0xA)
		out[0] = out[1] = out[2] = out[3] = 0;
}

/* "0x430151" */
static const char *hex(char *buf, size_t n, uint64_t v, int digits)
{
	fmt_format(buf, n, "0x%0*llx", digits, (unsigned long long)v);
	return buf;
}

static const char *origin_word(enum ev_origin o)
{
	return o == EV_ORIGIN_ARCH ? "arch" : o == EV_ORIGIN_NANOBENCH ? "nanobench" : "table";
}

/* The MSR a GP counter's PERFEVTSEL value goes to: "IA32_PERFEVTSEL0",
 * "PERF_CTL2". */
static const char *evtsel_name(int counter, char *buf, size_t n)
{
	if (counter < 0 || counter >= PMU_GP_MAX || !pmu_layout_msr_name(pmu_layout.gp[counter].evtsel_msr, buf, n))
		fmt_format(buf, n, "%s", vendor == EV_VENDOR_INTEL ? "IA32_PERFEVTSELx" : "PERF_CTLx");
	return buf;
}

/* The `event` record of event i (docs/RECORDS.md). */
static void event_record(int i)
{
	const struct bench_event *e = &evs[i];
	char b[24];
	struct rec r;
	rec_begin(&r, "event");
	rec_str(&r, "name", e->def.name);
	rec_str(&r, "origin", origin_word(e->def.origin));
	rec_str(&r, "source", e->def.source ? e->def.source : "");
	rec_str(&r, "event_select", hex(b, sizeof b, e->def.event_select, vendor == EV_VENDOR_INTEL ? 2 : 3));
	rec_str(&r, "umask", hex(b, sizeof b, e->def.umask, 2));
	rec_u64(&r, "cmask", e->def.cmask);
	rec_u64(&r, "inv", e->def.inv);
	rec_u64(&r, "edge", e->def.edge);
	rec_u64(&r, "anyt", e->def.anyt);
	rec_str(&r, "perfevtsel", hex(b, sizeof b, e->def.perfevtsel, 1));
	if (e->def.msr_index) {
		rec_str(&r, "msr_index", hex(b, sizeof b, e->def.msr_index, 1));
		rec_str(&r, "msr_value", hex(b, sizeof b, e->def.msr_value, 1));
	}
	rec_str(&r, "counter", e->pass >= 0 ? e->counter_name : 0);
	rec_u64_or_null(&r, "pass", e->pass >= 0, (uint64_t)e->pass);
	rec_bool(&r, "counts", e->pass >= 0);
	rec_str(&r, "why", e->pass >= 0 ? 0 : why_ev[i]);
	rec_end(&r);
}

/* Without records (output=human): the same in one line. */
static void event_line(int i)
{
	const struct bench_event *e = &evs[i];
	char b[24], m[32], what[64];
	if (e->def.fixed_only)
		fmt_format(what, sizeof what, "fixed counter %d only", e->def.fixed);
	else
		fmt_format(what, sizeof what, "%s = %s", evtsel_name(e->counter, m, sizeof m),
			   hex(b, sizeof b, e->def.perfevtsel, 1));
	kprintf("events: %s (%s, %s): %s%s%s\n", e->def.name, origin_word(e->def.origin),
		e->def.source ? e->def.source : "", what, e->pass >= 0 ? " on " : "", e->pass >= 0 ? e->counter_name : "");
}

/* One item of events= resolved into evs[]: 0, or 1 after its config: line. */
static int resolve_item(const struct ev_cpu *c, const char *item, size_t len)
{
	static struct ev_def got[BENCH_EV_MAX];
	char err[240], shown[96];
	if (!len) {
		kprintf("config: events= has an empty item (two commas, or one at an end); it is left out\n");
		return 1;
	}
	int n = ev_resolve(c, item, len, got, BENCH_EV_MAX, err, sizeof err);
	if (n < 0) {
		kprintf("config: events=%s: %s\n", fmt_escape(shown, sizeof shown, item, len), err);
		return 1;
	}
	for (int k = 0; k < n; k++) {
		int dup = 0;
		for (int j = 0; j < nev && !dup; j++)
			dup = evs[j].def.perfevtsel == got[k].perfevtsel && evs[j].def.fixed == got[k].fixed &&
			      evs[j].def.msr_value == got[k].msr_value && evs[j].def.msr_index == got[k].msr_index &&
			      strlen(evs[j].def.name) == strlen(got[k].name) &&
			      memcmp(evs[j].def.name, got[k].name, strlen(got[k].name)) == 0;
		if (dup)
			continue; /* a group's event also given by name: counted once */
		if (nev == BENCH_EV_MAX) {
			kprintf("config: events=%s: more than %d events (groups expanded); %s and the rest are left out\n",
				fmt_escape(shown, sizeof shown, item, len), BENCH_EV_MAX, got[k].name);
			return 1;
		}
		struct bench_event *e = &evs[nev++];
		memset(e, 0, sizeof *e);
		e->def = got[k];
		e->pass = e->slot = e->counter = -1;
	}
	return 0;
}

/* The fixed counters 0-2 whose counting pmu_setup proved (kernel/pmu.h
 * pmu_verify, by RDMSR): with a general-purpose counter, what says that
 * something can count here. */
static uint32_t fixed_verified(void)
{
	uint32_t m = 0;
	for (int i = 0; i < PMU_NFIXED; i++)
		if ((pmu_layout.fixed_bitmap >> i & 1) && pmu_usable(&pmu, (enum pmu_counter_id)(PMU_FIXED0 + i)))
			m |= 1u << i;
	return m;
}

static unsigned bits(uint32_t m)
{
	unsigned n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Why nothing can count here, or "" when something can: a
 * general-purpose counter CPUID enumerates, or a fixed counter pmu_setup
 * verified. */
static void why_nothing(const struct config *cfg, char *why, size_t n)
{
	why[0] = '\0';
	if (cfg->pmu == PMU_MODE_OFF)
		fmt_format(why, n, "pmu=off: no counter is touched");
	else if (pmu_layout.ngp || fixed_verified())
		return;
	else if (pmu_layout.why[0])
		fmt_format(why, n, "%s", pmu_layout.why);
	else if (pmu_layout.fixed_bitmap)
		fmt_format(why, n, "CPUID enumerates no general-purpose counter and no fixed counter passed the "
			   "counting check (the env: pmu: lines)");
	else
		fmt_format(why, n, "CPUID enumerates no general-purpose and no fixed counter");
}

/* evsched_plan's "event 3: needs ..." without its "event N: ". */
static const char *after_index(const char *why)
{
	if (memcmp(why, "event ", 6) == 0) {
		const char *p = why + 6;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p[0] == ':' && p[1] == ' ')
			return p + 2;
	}
	return why;
}

/* Schedule evs[] on gp / fixed; the events no counter can take get their
 * why. Returns the passes (0 when none is scheduled). */
static int schedule(uint32_t gp, uint32_t fixed)
{
	static struct evsched_item items[BENCH_EV_MAX];
	static struct evsched_slot out[BENCH_EV_MAX];
	static int idx[BENCH_EV_MAX];
	char why[200];
	int n = 0;
	for (int i = 0; i < nev; i++) {
		const struct ev_def *d = &evs[i].def;
		struct evsched_item it = { d->fixed_only ? 0 : d->counters, d->fixed, d->taken_alone, d->msr_index };
		if (d->fixed_only && (d->fixed < 0 || !(fixed >> d->fixed & 1))) {
			fmt_format(why_ev[i], sizeof why_ev[i], "fixed counter %d only, which CPUID does not enumerate",
				   d->fixed);
			continue;
		}
		/* alone first: an event no counter of this CPU can take is said, the others scheduled */
		if (evsched_plan(&it, 1, gp, fixed, BENCH_EV_SLOTS, out, why, sizeof why) < 0) {
			fmt_format(why_ev[i], sizeof why_ev[i], "%s", after_index(why));
			continue;
		}
		idx[n] = i;
		items[n++] = it;
	}
	if (!n)
		return 0;
	int passes = evsched_plan(items, n, gp, fixed, BENCH_EV_SLOTS, out, why, sizeof why);
	if (passes <= 0 || passes > EVSCHED_MAX_PASSES) {
		for (int k = 0; k < n; k++)
			fmt_format(why_ev[idx[k]], sizeof why_ev[idx[k]], "not scheduled: %s", why);
		return 0;
	}
	for (int p = 0; p < passes; p++)
		pass_n[p] = 0;
	for (int k = 0; k < n; k++) {
		struct bench_event *e = &evs[idx[k]];
		int p = out[k].pass;
		if (p < 0 || p >= passes || pass_n[p] >= BENCH_EV_SLOTS) {
			fmt_format(why_ev[idx[k]], sizeof why_ev[idx[k]], "not scheduled: the plan gave pass %d", p);
			continue;
		}
		e->pass = p;
		e->slot = pass_n[p];
		e->counter = out[k].counter;
		pass_ev[p][pass_n[p]++] = idx[k];
		pmu_layout_counter_name(&pmu_layout, e->counter, e->counter_name, sizeof e->counter_name);
		e->rdpmc_ecx = pmu_layout_rdpmc_ecx(&pmu_layout, e->counter);
		e->width = pmu_layout_width(&pmu_layout, e->counter);
	}
	return passes;
}

/* Program pass p's counters (pmu_pass_program); 0, or nonzero with err[]
 * the first problem after every counter is stopped again. */
static int program(int p, char *err, size_t errlen)
{
	static struct pmu_assign a[BENCH_EV_SLOTS];
	for (int s = 0; s < pass_n[p]; s++) {
		const struct bench_event *e = &evs[pass_ev[p][s]];
		a[s] = (struct pmu_assign){ e->counter, e->def.perfevtsel, e->def.msr_index, e->def.msr_value };
	}
	if (!pmu_pass_program(a, pass_n[p], err, errlen))
		return 0;
	pmu_pass_stop();
	return 1;
}

/* Each pass programmed once and stopped, before anything is printed: a
 * pass whose registers fault or do not keep their value (QEMU TCG's AMD
 * PERF_CTL read back 0) is left out, its events saying why; passes
 * renumbered. Returns the passes left; why[] the first problem when none
 * is. */
static int try_passes(int passes, char *why, size_t whylen)
{
	int kept = 0;
	char err[240];
	why[0] = '\0';
	for (int p = 0; p < passes; p++) {
		if (program(p, err, sizeof err)) {
			if (!why[0])
				fmt_format(why, whylen, "%s", err);
			for (int s = 0; s < pass_n[p]; s++) {
				int i = pass_ev[p][s];
				evs[i].pass = evs[i].slot = evs[i].counter = -1;
				evs[i].counter_name[0] = '\0';
				fmt_format(why_ev[i], sizeof why_ev[i], "its pass's counters cannot be programmed: %s", err);
			}
			continue;
		}
		pmu_pass_stop();
		for (int s = 0; s < pass_n[p]; s++) {
			evs[pass_ev[p][s]].pass = kept;
			pass_ev[kept][s] = pass_ev[p][s];
		}
		pass_n[kept++] = pass_n[p];
	}
	if (kept)
		why[0] = '\0';
	return kept;
}

/* The line and record of pass p. */
static void pass_print(int p, int json)
{
	char line[1200];
	int len = fmt_format(line, sizeof line, "events: pass %d of %d:", p + 1, npasses);
	for (int s = 0; s < pass_n[p] && len < (int)sizeof line; s++) {
		const struct bench_event *e = &evs[pass_ev[p][s]];
		char b[24], m[32];
		len += fmt_format(line + len, sizeof line - (size_t)len, "%s %s %s", s ? "," : "", e->counter_name,
				  e->def.name);
		if (!evsched_is_fixed(e->counter) && len < (int)sizeof line)
			len += fmt_format(line + len, sizeof line - (size_t)len, " (%s = %s%s)",
					  evtsel_name(e->counter, m, sizeof m), hex(b, sizeof b, e->def.perfevtsel, 1),
					  e->def.msr_index ? ", with an extra MSR" : "");
	}
	kprintf("%s\n", line);
	if (!json)
		return;
	struct rec r;
	rec_begin(&r, "event_pass");
	rec_u64(&r, "pass", (uint64_t)p);
	rec_u64(&r, "passes", (uint64_t)npasses);
	rec_array(&r, "counters");
	for (int s = 0; s < pass_n[p]; s++) {
		const struct bench_event *e = &evs[pass_ev[p][s]];
		char b[24];
		rec_object(&r, 0);
		rec_str(&r, "counter", e->counter_name);
		rec_str(&r, "event", e->def.name);
		/* on a fixed counter the event's encoding, as its event record
		 * (IA32_FIXED_CTR_CTRL enables the counter instead) */
		rec_str(&r, "perfevtsel", hex(b, sizeof b, e->def.perfevtsel, 1));
		rec_object_end(&r);
	}
	rec_array_end(&r);
	rec_end(&r);
}

int events_prepare(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cpu; /* resolution reads CPUID itself (ev_cpu_from_cpuid: leaves 0, 1, 0AH, 1AH) */
	nev = npasses = 0;
	if (!cfg->events[0])
		return 0;
	int off = cfg->pmu == PMU_MODE_OFF;
	static struct ev_cpu c;
	ev_cpu_from_cpuid(ev_cpuid, &off, &c);
	vendor = c.vendor;

	int problems = 0;
	const char *s = cfg->events;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		problems += resolve_item(&c, s, len);
		if (!comma)
			break;
		s = comma + 1;
	}

	char table_why[160], why[240];
	const char *table = ev_table_name(&c, table_why, sizeof table_why);
	/* every fixed counter the layout enumerates: each pass's check decides */
	uint32_t fixed = pmu_layout.fixed_bitmap;
	why_nothing(cfg, why, sizeof why);
	for (int i = 0; i < nev; i++)
		fmt_format(why_ev[i], sizeof why_ev[i], "%s", why);
	if (!why[0]) {
		int planned = schedule(pmu_layout.gp_bitmap, fixed);
		npasses = try_passes(planned, why, sizeof why);
		if (!npasses && !planned)
			why[0] = '\0'; /* none schedulable: each event's line says why */
	}

	char counters[96] = "";
	if (!why[0])
		fmt_format(counters, sizeof counters, "; %d pass%s on %u general-purpose and %u fixed counter%s", npasses,
			   npasses == 1 ? "" : "es", bits(pmu_layout.gp_bitmap), bits(fixed), bits(fixed) == 1 ? "" : "s");
	kprintf("events: %d event%s from events= (%s%s)%s%s\n", nev, nev == 1 ? "" : "s",
		table ? "model table " : "no model table: ", table ? table : table_why, counters,
		problems ? "; problems said above" : "");
	int json = config_json();
	for (int i = 0; i < nev; i++) {
		if (json)
			event_record(i);
		else
			event_line(i);
		if (!why[0] && evs[i].pass < 0)
			kprintf("events: %s cannot count here: %s\n", evs[i].def.name, why_ev[i]);
	}
	for (int p = 0; p < npasses; p++)
		pass_print(p, json);
	if (why[0] && nev)
		kprintf("events: cannot count here: %s; the event %s above say what would be programmed\n", why,
			json ? "records" : "lines");
	return problems;
}

/* The check of pass p (lib/pmucheck.h): count(2N) - count(N) of each of
 * its events, each attempt; 1 when every predicted event held. */
static int check_once(int p, const uint32_t *ecx, struct pmucheck_result *res)
{
	uint64_t b1[PMUCOUNT_MAX], a1[PMUCOUNT_MAX], b2[PMUCOUNT_MAX], a2[PMUCOUNT_MAX], t1[2], t2[2];
	int n = pass_n[p];
	pmucount_loop(ecx, n, EVENTS_CHECK_ITERATIONS, b1, a1, t1);
	pmucount_loop(ecx, n, 2 * EVENTS_CHECK_ITERATIONS, b2, a2, t2);
	int ok = 1;
	for (int s = 0; s < n; s++) {
		const struct bench_event *e = &evs[pass_ev[p][s]];
		uint64_t d1 = pmu_delta(b1[s], a1[s], e->width), d2 = pmu_delta(b2[s], a2[s], e->width);
		enum pmucheck_kind k = pmucheck_kind_of(vendor, &e->def,
							evsched_is_fixed(e->counter) ? e->counter - 32 : -1);
		pmucheck_judge(k, e->def.name, EVENTS_CHECK_ITERATIONS, (t2[1] - t2[0]) - (t1[1] - t1[0]),
			       pmu_delta(d1, d2, e->width), &res[s]);
		ok &= res[s].ok;
	}
	return ok;
}

static const char *kind_word(enum pmucheck_kind k)
{
	switch (k) {
	case PMUCHECK_INSTRUCTIONS:
		return "instructions";
	case PMUCHECK_BRANCHES:
		return "branches";
	case PMUCHECK_CORE_CYCLES:
		return "core_cycles";
	case PMUCHECK_REF_CYCLES:
		return "ref_cycles";
	default:
		return "none";
	}
}

/* The unit of an expectation, for the line. */
static const char *kind_unit(enum pmucheck_kind k)
{
	switch (k) {
	case PMUCHECK_INSTRUCTIONS:
		return "instructions";
	case PMUCHECK_BRANCHES:
		return "branch instructions";
	case PMUCHECK_CORE_CYCLES:
		return "core cycles";
	case PMUCHECK_REF_CYCLES:
		return "reference cycles";
	default:
		return "events";
	}
}

/* "2000000 instructions expected, 2000000 counted" or "1000..64000 core
 * cycles expected, 8000 counted". */
static void expectation(const struct pmucheck_result *r, char *buf, size_t n)
{
	if (r->lo == r->hi)
		fmt_format(buf, n, "%llu %s expected, %llu counted", (unsigned long long)r->lo, kind_unit(r->kind),
			   (unsigned long long)r->counted);
	else
		fmt_format(buf, n, "%llu..%llu %s expected, %llu counted", (unsigned long long)r->lo,
			   (unsigned long long)r->hi, kind_unit(r->kind), (unsigned long long)r->counted);
}

/* The check of pass p, its line and records; fills the events' fields. */
static void check_pass(int p, const uint32_t *ecx)
{
	static struct pmucheck_result res[BENCH_EV_SLOTS];
	int attempts = 1, ok;
	while (!(ok = check_once(p, ecx, res)) && attempts < EVENTS_CHECK_ATTEMPTS)
		attempts++;
	char line[1600];
	int len = fmt_format(line, sizeof line, "events: pass %d check:", p + 1);
	int predicted = 0, shown = 0;
	for (int s = 0; s < pass_n[p]; s++) {
		struct bench_event *e = &evs[pass_ev[p][s]];
		const struct pmucheck_result *r = &res[s];
		char exp[120];
		e->checked = 1;
		e->predicted = r->kind != PMUCHECK_NONE;
		e->verified = r->ok || !e->predicted;
		if (!e->predicted) {
			fmt_format(e->check, sizeof e->check, "not predicted by the check (%llu counted over %llu iterations "
				   "of dec; jnz)", (unsigned long long)r->counted,
				   (unsigned long long)EVENTS_CHECK_ITERATIONS);
			continue;
		}
		predicted++;
		expectation(r, exp, sizeof exp);
		fmt_format(e->check, sizeof e->check, "%s%s", exp, r->ok ? "" : ": counts wrong");
		if (len < (int)sizeof line)
			len += fmt_format(line + len, sizeof line - (size_t)len, "%s %s %s: %s", shown++ ? ";" : "",
					  e->def.name, exp,
					  r->ok ? "ok" : "counts wrong, its figures are marked unverified");
	}
	int unpredicted = pass_n[p] - predicted;
	if (!predicted && len < (int)sizeof line)
		len += fmt_format(line + len, sizeof line - (size_t)len, " ran; none of its %d event%s is one the check "
				  "predicts: printed as counted", unpredicted, unpredicted == 1 ? "" : "s");
	else if (unpredicted && len < (int)sizeof line)
		len += fmt_format(line + len, sizeof line - (size_t)len, "; %d event%s not predicted, printed as counted",
				  unpredicted, unpredicted == 1 ? "" : "s");
	if (attempts > 1 && ok && len < (int)sizeof line)
		fmt_format(line + len, sizeof line - (size_t)len, " (held at attempt %d of %d)", attempts,
			   EVENTS_CHECK_ATTEMPTS);
	else if (attempts > 1 && len < (int)sizeof line)
		fmt_format(line + len, sizeof line - (size_t)len, " (missed in each of %d attempts)", attempts);
	kprintf("%s\n", line);
	for (int s = 0; s < pass_n[p] && config_json(); s++) {
		const struct pmucheck_result *r = &res[s];
		if (r->kind == PMUCHECK_NONE)
			continue;
		struct rec rc;
		rec_begin(&rc, "event_check");
		rec_u64(&rc, "pass", (uint64_t)p);
		rec_str(&rc, "event", evs[pass_ev[p][s]].def.name);
		rec_str(&rc, "kind", kind_word(r->kind));
		rec_u64(&rc, "expected_lo", r->lo);
		rec_u64(&rc, "expected_hi", r->hi);
		rec_u64(&rc, "counted", r->counted);
		rec_bool(&rc, "ok", r->ok);
		rec_end(&rc);
	}
}

int events_pass_begin(int p, uint32_t ecx[BENCH_EV_SLOTS], int which[BENCH_EV_SLOTS])
{
	if (p < 0 || p >= npasses)
		return -1;
	int n = pass_n[p];
	for (int s = 0; s < n; s++)
		evs[pass_ev[p][s]].checked = 0;
	char err[240];
	if (program(p, err, sizeof err)) {
		kprintf("events: pass %d of %d: %s; the pass is skipped\n", p + 1, npasses, err);
		return -1;
	}
	for (int s = 0; s < BENCH_EV_SLOTS; s++) {
		ecx[s] = evs[pass_ev[p][s < n ? s : 0]].rdpmc_ecx;
		which[s] = s < n ? pass_ev[p][s] : -1;
	}
	check_pass(p, ecx);
	return n;
}

void events_pass_end(int p)
{
	(void)p;
	pmu_pass_stop();
}

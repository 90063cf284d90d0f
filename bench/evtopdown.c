/* bench/evtopdown.c - events=topdown: TMA level 1 of code= (bench/evtopdown.h). */
#include "evtopdown.h"
#include "events.h"
#include "evrun.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"
#include "../lib/percopy.h"
#include "../lib/record.h"
#include "../lib/string.h"
#include "../lib/topdown.h"

/* The event index of each input of set s, or 0 when one is not resolved. */
static int find_set(enum td_set s, int *ev)
{
	for (int i = 0; i < td_inputs(s); i++) {
		ev[i] = -1;
		for (int e = 0; e < events_count(); e++)
			if (strlen(events_at(e)->def.name) == strlen(td_event_name(s, i)) &&
			    !memcmp(events_at(e)->def.name, td_event_name(s, i), strlen(td_event_name(s, i))))
				ev[i] = e;
		if (ev[i] < 0)
			return 0;
	}
	return 1;
}

/* "25.0%" or "-50.0%" from thousandths; "0.250" for the record. */
static const char *pct(char *b, size_t n, int64_t m)
{
	uint64_t a = m < 0 ? (uint64_t)-m : (uint64_t)m;
	fmt_format(b, n, "%s%llu.%llu%%", m < 0 ? "-" : "", (unsigned long long)(a / 10), (unsigned long long)(a % 10));
	return b;
}

static const char *dec(char *b, size_t n, int64_t m)
{
	uint64_t a = m < 0 ? (uint64_t)-m : (uint64_t)m;
	fmt_format(b, n, "%s%llu.%03llu", m < 0 ? "-" : "", (unsigned long long)(a / 1000),
		   (unsigned long long)(a % 1000));
	return b;
}

static const char *source(enum td_set s)
{
	return s == TD_SET_ATOM ? "intel/perfmon E-core_TMA_Metrics" : "intel/perfmon TMA_Metrics";
}

void evtopdown_method(enum method_id m)
{
	int ev[TD_MAX_INPUTS], set = -1;
	for (int s = 0; s < TD_SET_COUNT && set < 0; s++)
		if (find_set((enum td_set)s, ev))
			set = s;
	if (set < 0)
		return;
	enum td_set s = (enum td_set)set;
	uint64_t in[TD_MAX_INPUTS];
	int have[TD_MAX_INPUTS], measured = 0, verified = 1, exact = 1;
	char why[160] = "";
	for (int i = 0; i < td_inputs(s); i++) {
		struct percopy p;
		int v;
		have[i] = evrun_per_copy(m, ev[i], &p, &v);
		if (!have[i]) {
			if (!why[0])
				fmt_format(why, sizeof why, "%s not measured", td_event_name(s, i));
			continue;
		}
		measured++;
		verified &= v != 0;
		exact &= p.kind == PERCOPY_EXACT;
		/* every input is a 2N-N difference over the same copies: the
		 * differences are the fractions' numerators */
		in[i] = p.diff;
		const char *not = p.kind == PERCOPY_BELOW_RESOLUTION ? "below resolution" :
				  p.kind == PERCOPY_BELOW_ZERO || p.neg ? "below zero" :
				  p.kind == PERCOPY_WRAPPED ? "a wrapped difference" : 0;
		if (not && !why[0])
			fmt_format(why, sizeof why, "%s per copy %s", td_event_name(s, i), not);
	}
	if (!measured)
		return;
	struct td_result r;
	const char *status;
	char st[200];
	if (why[0]) {
		r.status = TD_MISSING;
		status = why;
	} else {
		td_level1(s, in, have, &r);
		status = td_status_text(r.status);
		if (r.status == TD_OUT_OF_RANGE) {
			size_t k = (size_t)fmt_format(st, sizeof st, "%s:", status);
			for (int p = 0; p < TD_PARTS && k < sizeof st; p++)
				if (r.out_of_range & (1 << p))
					k += (size_t)fmt_format(st + k, sizeof st - k, " %s", td_part_name((enum td_part)p));
			status = st;
		}
	}
	int fractions = r.status == TD_OK || r.status == TD_OUT_OF_RANGE;
	if (config_human()) {
		char line[400], b[24];
		size_t k = (size_t)fmt_format(line, sizeof line, "topdown %s code: ", methods[m].name);
		if (fractions)
			for (int p = 0; p < TD_PARTS; p++)
				k += (size_t)fmt_format(line + k, sizeof line - k, "%s%s %s", p ? ", " : "",
							td_part_name((enum td_part)p), pct(b, sizeof b, r.milli[p]));
		else
			k += (size_t)fmt_format(line + k, sizeof line - k, "no fractions (%s)", status);
		kprintf("%s of SLOTS (TMA level 1, %s %s)%s%s%s%s%s\n", line, source(s), td_set_name(s),
			fractions && status[0] ? " (" : "", fractions ? status : "", fractions && status[0] ? ")" : "",
			fractions && !exact ? " (from figures +- their bounds, not exact)" : "",
			verified ? "" : " (unverified)");
	}
	if (!config_json())
		return;
	struct rec rc;
	char b[24];
	rec_begin(&rc, "topdown");
	rec_str(&rc, "method", methods[m].name);
	rec_str(&rc, "workload", "code");
	rec_str(&rc, "set", td_set_name(s));
	rec_str(&rc, "source", source(s));
	for (int p = 0; p < TD_PARTS; p++) {
		if (fractions)
			rec_str(&rc, td_part_key((enum td_part)p), dec(b, sizeof b, r.milli[p]));
		else
			rec_null(&rc, td_part_key((enum td_part)p));
	}
	rec_str(&rc, "status", status[0] ? status : "ok");
	rec_bool(&rc, "exact", exact); /* every input's per-copy figure exact (lib/percopy.h) */
	rec_bool(&rc, "verified", verified);
	rec_end(&rc);
}

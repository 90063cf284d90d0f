/* bench/evscreen.c - see evscreen.h. */
#include "evscreen.h"
#include "coderesult.h"
#include "events.h"
#include "evrun.h"
#include "../lib/fmt.h"
#include "../lib/percopy.h"

static int has_figures(int m)
{
	struct percopy p;
	int verified;
	for (int e = 0; e < events_count(); e++)
		if (evrun_per_copy((enum method_id)m, e, &p, &verified))
			return 1;
	return 0;
}

int evscreen_by(const struct bench_results *r)
{
	if (!events_count() || !events_passes() || !results_code_ran(r))
		return -1;
	if (r->totals.recommended >= 0 && has_figures(r->totals.recommended))
		return r->totals.recommended;
	for (int m = 0; m < METHOD_COUNT; m++)
		if (has_figures(m))
			return m;
	return -1;
}

int evscreen_line(const struct bench_results *r, char *line, size_t size)
{
	int by = evscreen_by(r), shown = 0, left = 0, unverified = 0;
	if (by < 0 || size < 64)
		return 0;
	size_t k = (size_t)fmt_format(line, size, "events per copy, by %s:", methods[by].name);
	for (int e = 0; e < events_count(); e++) {
		struct percopy p;
		int verified;
		char cell[64], item[160];
		if (!evrun_per_copy((enum method_id)by, e, &p, &verified))
			continue;
		int n = fmt_format(item, sizeof item, "%s %s %s%s", shown ? ";" : "", events_at(e)->def.name,
				   code_per_copy_text(cell, sizeof cell, &p), verified ? "" : " UNVERIFIED");
		if (left || k + (size_t)n + 40 >= size) { /* room kept for the count of those left */
			left++;
			continue;
		}
		k += (size_t)fmt_format(line + k, size - k, "%s", item);
		shown++;
		unverified |= !verified;
	}
	if (left)
		k += (size_t)fmt_format(line + k, size - k, "; %d more: serial log", left);
	if (unverified)
		fmt_format(line + k, size - k, " (UNVERIFIED: its pass's check missed)");
	return 1;
}

int evscreen_qr(const struct bench_results *r, struct qrtext_event *out, char (*text)[2][24], int max)
{
	int by = evscreen_by(r), n = 0;
	if (by < 0)
		return 0;
	for (int e = 0; e < events_count() && n < max; e++) {
		struct percopy p;
		int verified;
		if (!evrun_per_copy((enum method_id)by, e, &p, &verified))
			continue;
		int wrapped = p.kind == PERCOPY_WRAPPED;
		int bound = p.kind == PERCOPY_FIGURE || p.kind == PERCOPY_BELOW_RESOLUTION;
		out[n] = (struct qrtext_event){
			methods[by].name, events_at(e)->def.name, percopy_kind_key(p.kind),
			wrapped ? 0 : percopy_milli_text(text[n][0], 24, p.neg, p.milli),
			bound ? percopy_milli_text(text[n][1], 24, 0, p.bound_milli) : 0, verified };
		n++;
	}
	return n;
}

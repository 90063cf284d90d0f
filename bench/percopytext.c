/* bench/percopytext.c - see percopytext.h. */
#include "percopytext.h"
#include "../lib/fmt.h"
#include "../lib/record.h"

/* The text of a figure of p (its value, or its bound), with its sign. */
static const char *milli(char *buf, const struct percopy *p, int bound)
{
	return percopy_milli_text(buf, 24, bound ? 0 : p->neg, bound ? p->bound_milli : p->milli);
}

const char *code_per_copy_text(char *buf, size_t size, const struct percopy *p)
{
	char a[24], b[24];
	switch (p->kind) {
	case PERCOPY_EXACT:
		fmt_format(buf, size, "%s exactly", milli(a, p, 0));
		break;
	case PERCOPY_FIGURE:
		fmt_format(buf, size, "%s +-%s", milli(a, p, 0), milli(b, p, 1));
		break;
	case PERCOPY_BELOW_RESOLUTION:
		fmt_format(buf, size, "below resolution (<= %s)", milli(b, p, 1));
		break;
	case PERCOPY_BELOW_ZERO:
		fmt_format(buf, size, "%s below zero", milli(a, p, 0));
		break;
	default:
		fmt_format(buf, size, "wrapped: no figure");
	}
	return buf;
}

/* What a bound is made of, for the per_copy line: the spreads, and past a
 * step of 1 the clock's step (lib/percopy.h; results_step_bound: the gcd of
 * the run's TSC-tick figures). */
static const char *bound_parts(char *buf, size_t size, const struct percopy *p, const char *un)
{
	if (p->step <= 1)
		fmt_format(buf, size, "%llu %s in all", (unsigned long long)p->bound, un);
	else
		fmt_format(buf, size, "%llu + 2 x %llu %s for a TSC whose every figure is a multiple of %llu: %llu %s "
			   "in all", (unsigned long long)p->spread, (unsigned long long)(p->step - 1), un,
			   (unsigned long long)p->step, (unsigned long long)p->bound, un);
	return buf;
}

const char *code_per_copy_what(char *buf, size_t size, const struct percopy *p, const char *un, const char *clock)
{
	char frac[48], a[24], b[24], parts[200];
	if (p->den == 1)
		fmt_format(frac, sizeof frac, "%s%llu", p->neg ? "-" : "", (unsigned long long)p->num);
	else
		fmt_format(frac, sizeof frac, "%s%llu/%llu", p->neg ? "-" : "", (unsigned long long)p->num,
			   (unsigned long long)p->den);
	bound_parts(parts, sizeof parts, p, un);
	const char *within = p->step <= 1 ? "within the spread of their ensembles' minimums"
					  : "within the spread of their ensembles' minimums and the clock's step";
	switch (p->kind) {
	case PERCOPY_EXACT:
		fmt_format(buf, size, "%s %s per copy, exactly %s", milli(a, p, 0), un, frac);
		break;
	case PERCOPY_FIGURE:
		fmt_format(buf, size, "%s %s per copy, +- %s (not exact: the least minimums are each known to "
			   "%s, %s)", milli(a, p, 0), un, milli(b, p, 1), within, parts);
		break;
	case PERCOPY_BELOW_RESOLUTION:
		fmt_format(buf, size, "below resolution: at most %s %s per copy (the 2N-N difference, %s%llu %s, "
			   "is %s, %s)", milli(b, p, 1), un, p->neg ? "-" : "", (unsigned long long)p->diff, un,
			   p->step <= 1 ? "within the spread of the ensembles' minimums"
					: "within the spread of the ensembles' minimums and the clock's step", parts);
		break;
	case PERCOPY_BELOW_ZERO:
		fmt_format(buf, size, "below zero: %s %s per copy, beyond the spread of the ensembles' minimums%s "
			   "(%s): not a duration", milli(a, p, 0), un, p->step <= 1 ? "" : " and the clock's step",
			   parts);
		break;
	default:
		fmt_format(buf, size, "not a figure: a least minimum of 2^63 %s or more is a difference of two "
			   "reads that wrapped below zero (the code moved the %s back, or the window's reads)", un,
			   clock);
	}
	return buf;
}

void code_per_copy_fields(struct rec *rc, const struct percopy *p, uint64_t least_n, uint64_t least_2n)
{
	char a[24], b[24];
	rec_u64(rc, "copies", p->copies);
	rec_u64(rc, "least_min_n", least_n);
	rec_u64(rc, "least_min_2n", least_2n);
	rec_i64(rc, "num", p->neg ? -(int64_t)p->num : (int64_t)p->num);
	rec_u64(rc, "den", p->den);
	if (p->kind == PERCOPY_WRAPPED)
		rec_null(rc, "per_copy");
	else
		rec_str(rc, "per_copy", milli(a, p, 0));
	rec_str(rc, "status", percopy_kind_key(p->kind));
	rec_u64(rc, "spread", p->spread);
	if (p->kind == PERCOPY_FIGURE || p->kind == PERCOPY_BELOW_RESOLUTION)
		rec_str(rc, "bound", milli(b, p, 1));
	else
		rec_null(rc, "bound");
	rec_u64(rc, "step", p->step);
}

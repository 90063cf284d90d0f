/* lib/pmucheck.c - see pmucheck.h. */
#include "pmucheck.h"
#include "fmt.h"

enum pmucheck_kind pmucheck_kind_of(enum ev_vendor v, const struct ev_def *d, int fixed)
{
	if (fixed >= 0) {
		switch (fixed) {
		case 0: return PMUCHECK_INSTRUCTIONS;  /* INST_RETIRED.ANY */
		case 1: return PMUCHECK_CORE_CYCLES;   /* CPU_CLK_UNHALTED.THREAD */
		case 2: return PMUCHECK_REF_CYCLES;    /* CPU_CLK_UNHALTED.REF_TSC */
		default: return PMUCHECK_NONE;         /* TOPDOWN.SLOTS */
		}
	}
	if (!d || d->umask || d->umask_ext || d->cmask || d->inv || d->edge || d->anyt || d->msr_index)
		return PMUCHECK_NONE;
	if (v == EV_VENDOR_AMD || v == EV_VENDOR_HYGON) {
		switch (d->event_select) {
		case 0x0C0: return PMUCHECK_INSTRUCTIONS; /* Retired Instructions */
		case 0x0C2: return PMUCHECK_BRANCHES;     /* Retired Branch Instructions */
		case 0x076: return PMUCHECK_CORE_CYCLES;  /* Cycles not in Halt */
		default: return PMUCHECK_NONE;
		}
	}
	switch (d->event_select) {
	case 0xC0: return PMUCHECK_INSTRUCTIONS; /* INST_RETIRED.ANY_P */
	case 0xC4: return PMUCHECK_BRANCHES;     /* BR_INST_RETIRED.ALL_BRANCHES */
	case 0x3C: return PMUCHECK_CORE_CYCLES;  /* CPU_CLK_UNHALTED.THREAD_P */
	default: return PMUCHECK_NONE;
	}
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

void pmucheck_judge(enum pmucheck_kind k, const char *name, uint64_t iterations, uint64_t tsc,
		    uint64_t counted, struct pmucheck_result *r)
{
	const char *unit = "";
	uint64_t ratio = 0;
	*r = (struct pmucheck_result){ .kind = k, .ok = 1, .counted = counted };
	switch (k) {
	case PMUCHECK_INSTRUCTIONS:
		unit = "instructions retired";
		r->lo = r->hi = mul_sat(iterations, PMUCHECK_INSNS_PER_ITER);
		break;
	case PMUCHECK_BRANCHES:
		unit = "branch instructions retired";
		r->lo = r->hi = iterations;
		break;
	case PMUCHECK_CORE_CYCLES:
		unit = "core cycles";
		ratio = PMUCHECK_CYCLE_RATIO;
		break;
	case PMUCHECK_REF_CYCLES:
		unit = "reference cycles";
		ratio = PMUCHECK_REF_RATIO;
		break;
	default:
		r->kind = PMUCHECK_NONE;
		break;
	}
	/* The name's share of text: the rest takes up to 120 characters with
	 * numbers of 10 digits (a check's loop), 40 with none. */
	int room = (int)sizeof r->text - 120;
	if (!name)
		name = "event";
	if (r->kind == PMUCHECK_NONE) {
		fmt_format(r->text, sizeof r->text, "%.*s: not predicted, %llu counted", room + 80, name,
			   (unsigned long long)counted);
		return;
	}
	if (ratio) {
		r->lo = tsc / ratio + (tsc % ratio != 0);
		r->hi = mul_sat(tsc, ratio);
	}
	r->ok = counted >= r->lo && counted <= r->hi && (ratio == 0 || tsc != 0);
	const char *verdict = r->ok ? "ok" : counted == 0 ? "does not count, unverified" : "wrong, unverified";
	if (ratio && tsc == 0)
		fmt_format(r->text, sizeof r->text, "%.*s: the TSC did not advance, no %s expected; %llu counted: unverified",
			   room, name, unit, (unsigned long long)counted);
	else if (ratio)
		fmt_format(r->text, sizeof r->text, "%.*s: %llu..%llu %s expected (TSC %llu /%u..x%u), %llu counted: %s",
			   room, name, (unsigned long long)r->lo, (unsigned long long)r->hi, unit,
			   (unsigned long long)tsc, (unsigned)ratio, (unsigned)ratio, (unsigned long long)counted,
			   verdict);
	else
		fmt_format(r->text, sizeof r->text, "%.*s: %llu %s expected, %llu counted: %s", room, name,
			   (unsigned long long)r->lo, unit, (unsigned long long)counted, verdict);
}

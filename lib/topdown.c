/* lib/topdown.c - TMA level 1 from the topdown events (lib/topdown.h). */
#include "topdown.h"
#include "stats.h"

int td_inputs(enum td_set s)
{
	return s == TD_SET_CORE || s == TD_SET_ATOM ? 5 : 4;
}

/* The events of lib/events.c's td_spr, td_icl, td_core, td_atom, in order. */
static const char *const td_names[TD_SET_COUNT][TD_MAX_INPUTS] = {
	{"TOPDOWN.SLOTS", "IDQ_BUBBLES.CORE", "TOPDOWN.BACKEND_BOUND_SLOTS", "UOPS_RETIRED.SLOTS", 0},
	{"TOPDOWN.SLOTS", "IDQ_UOPS_NOT_DELIVERED.CORE", "TOPDOWN.BACKEND_BOUND_SLOTS", "UOPS_RETIRED.SLOTS", 0},
	{"CPU_CLK_UNHALTED.THREAD", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY", "UOPS_RETIRED.RETIRE_SLOTS",
	 "INT_MISC.RECOVERY_CYCLES"},
	{"CPU_CLK_UNHALTED.CORE", "TOPDOWN_RETIRING.ALL", "TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_FE_BOUND.ALL",
	 "TOPDOWN_BE_BOUND.ALL"},
};

const char *td_event_name(enum td_set s, int i)
{
	return s >= 0 && s < TD_SET_COUNT && i >= 0 && i < td_inputs(s) ? td_names[s][i] : 0;
}

const char *td_set_name(enum td_set s)
{
	static const char *const n[] = {"SPR", "ICL", "SKL", "E-core"};
	return s >= 0 && s < TD_SET_COUNT ? n[s] : "?";
}

const char *td_part_name(enum td_part p)
{
	static const char *const n[] = {"retiring", "bad speculation", "front-end bound", "back-end bound"};
	return p >= 0 && p < TD_PARTS ? n[p] : "?";
}

const char *td_part_key(enum td_part p)
{
	static const char *const n[] = {"retiring", "bad_speculation", "frontend_bound", "backend_bound"};
	return p >= 0 && p < TD_PARTS ? n[p] : "?";
}

const char *td_status_text(enum td_status st)
{
	switch (st) {
	case TD_OK: return "";
	case TD_MISSING: return "an input is missing";
	case TD_ZERO_SLOTS: return "zero slots";
	case TD_OVERFLOW: return "slots beyond 64 bits";
	case TD_OUT_OF_RANGE: return "a fraction outside 0..100%";
	}
	return "?";
}

/* A signed numerator: magnitude and sign (the magnitudes stay below 2^67). */
struct snum {
	u128 m;
	int neg;
};

static struct snum pos(u128 m)
{
	struct snum r = {m, 0};
	return r;
}

static struct snum add(struct snum a, struct snum b)
{
	struct snum r;
	if (a.neg == b.neg) {
		r.m = a.m + b.m;
		r.neg = a.neg;
	} else if (a.m >= b.m) {
		r.m = a.m - b.m;
		r.neg = a.neg;
	} else {
		r.m = b.m - a.m;
		r.neg = b.neg;
	}
	if (!r.m)
		r.neg = 0;
	return r;
}

static struct snum neg(struct snum a)
{
	a.neg = a.m ? !a.neg : 0;
	return a;
}

/* round(scale x / slots) half away from zero, in thousandths: scale is
 * 1000 / k where SLOTS = k slots_base (k = 1 or 4). x < 2^67, scale <=
 * 1000: scale x < 2^77 fits 128 bits. */
static int64_t milli(struct snum x, uint64_t scale, uint64_t slots)
{
	uint64_t rem;
	u128 q = u128_div_u64(x.m * scale, slots, &rem);
	if (rem >= slots - rem) /* half or more: away from zero */
		q++;
	int64_t v = (int64_t)q;
	return x.neg ? -v : v;
}

enum td_status td_level1(enum td_set s, const uint64_t *in, const int *have, struct td_result *out)
{
	struct snum part[TD_PARTS];
	uint64_t slots, scale;
	int n = td_inputs(s);
	for (int p = 0; p < TD_PARTS; p++)
		out->milli[p] = 0;
	out->out_of_range = 0;
	if (s < 0 || s >= TD_SET_COUNT)
		return out->status = TD_MISSING;
	for (int i = 0; i < n; i++)
		if (!have[i])
			return out->status = TD_MISSING;
	switch (s) {
	case TD_SET_SPR:
	case TD_SET_ICL: /* SLOTS, FE, BE, RET */
		slots = in[0];
		scale = 1000;
		part[TD_FRONTEND_BOUND] = pos(in[1]);
		part[TD_BACKEND_BOUND] = pos(in[2]);
		part[TD_RETIRING] = pos(in[3]);
		part[TD_BAD_SPECULATION] = neg(add(add(part[TD_FRONTEND_BOUND], part[TD_BACKEND_BOUND]),
						   part[TD_RETIRING]));
		part[TD_BAD_SPECULATION] = add(pos(slots), part[TD_BAD_SPECULATION]);
		break;
	case TD_SET_CORE: /* CLK, IDQ_UOPS_NOT_DELIVERED, UOPS_ISSUED, RETIRE_SLOTS, RECOVERY_CYCLES */
		slots = in[0];
		scale = 250; /* SLOTS = 4 cycles */
		part[TD_FRONTEND_BOUND] = pos(in[1]);
		part[TD_RETIRING] = pos(in[3]);
		part[TD_BAD_SPECULATION] = add(add(pos(in[2]), neg(pos(in[3]))), pos((u128)in[4] * 4));
		part[TD_BACKEND_BOUND] = add(pos((u128)in[0] * 4),
					     neg(add(add(part[TD_FRONTEND_BOUND], part[TD_BAD_SPECULATION]),
						     part[TD_RETIRING])));
		break;
	default: { /* TD_SET_ATOM: CLK, RETIRING, BAD_SPECULATION, FE_BOUND, BE_BOUND */
		u128 sum = (u128)in[1] + in[2] + in[3] + in[4];
		if (sum >> 64)
			return out->status = TD_OVERFLOW;
		slots = (uint64_t)sum;
		scale = 1000;
		part[TD_RETIRING] = pos(in[1]);
		part[TD_BAD_SPECULATION] = pos(in[2]);
		part[TD_FRONTEND_BOUND] = pos(in[3]);
		part[TD_BACKEND_BOUND] = pos(in[4]);
		break;
	}
	}
	if (!slots)
		return out->status = TD_ZERO_SLOTS;
	out->status = TD_OK;
	for (int p = 0; p < TD_PARTS; p++) {
		out->milli[p] = milli(part[p], scale, slots);
		/* outside [0, 1] exactly: below 0, or scale x > 1000 slots */
		if (part[p].neg || part[p].m * scale > (u128)slots * 1000) {
			out->out_of_range |= 1 << p;
			out->status = TD_OUT_OF_RANGE;
		}
	}
	return out->status;
}

/* lib/topdown.h - level 1 of Intel's Top-down Microarchitecture Analysis
 * (TMA): retiring, bad speculation, front-end bound and back-end bound as
 * fractions of the issue slots, from the events lib/events.c's `topdown`
 * group resolves to, by the formulas of intel/perfmon's TMA_Metrics-full.csv
 * (P-cores) and E-core_TMA_Metrics.csv (E-cores):
 *
 *  - TD_SET_SPR (Sapphire Rapids and later) and TD_SET_ICL (Ice Lake to
 *    Alder Lake): SLOTS = TOPDOWN.SLOTS, Frontend_Bound = IDQ_BUBBLES.CORE
 *    (IDQ_UOPS_NOT_DELIVERED.CORE on ICL) / SLOTS, Backend_Bound =
 *    TOPDOWN.BACKEND_BOUND_SLOTS / SLOTS, Retiring = UOPS_RETIRED.SLOTS /
 *    SLOTS, Bad_Speculation = 1 - the other three (perfmon's max(..., 0) is
 *    not applied: a rest below 0 is said, TD_OUT_OF_RANGE);
 *  - TD_SET_CORE (Sandy Bridge to Cascade Lake): SLOTS = 4
 *    CPU_CLK_UNHALTED.THREAD, Frontend_Bound = IDQ_UOPS_NOT_DELIVERED.CORE /
 *    SLOTS, Retiring = UOPS_RETIRED.RETIRE_SLOTS / SLOTS, Bad_Speculation =
 *    (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4
 *    INT_MISC.RECOVERY_CYCLES) / SLOTS, Backend_Bound = 1 - the other three;
 *  - TD_SET_ATOM (E-cores): each TOPDOWN_*.ALL / SLOTS. perfmon takes SLOTS
 *    = #Pipeline_Width x CPU_CLK_UNHALTED.CORE (the width a per-model
 *    constant: 5 Gracemont, 6 Crestmont, 8 Lunar/Arrow Lake) and
 *    Bad_Speculation on Gracemont as the rest; the width is not in the
 *    events tables, so here SLOTS = the sum of the four TOPDOWN_*.ALL
 *    (equal to perfmon's where the four count every slot) and each
 *    fraction is its own event's (CPU_CLK_UNHALTED.CORE is not used).
 *
 * Inputs: the events' figures in the order of lib/events.c's set (td_spr,
 * td_icl, td_core, td_atom), as counts over one common denominator (code='s
 * 2N-N differences, all over the same copies, or the nets of one window),
 * so the denominator cancels. Outputs in thousandths (per mille, i.e.
 * tenths of a percent), rounded half away from zero, each from its exact
 * numerator: the four need not add up to 1000 by one or two. Nothing is
 * clamped. Pure integer arithmetic, host-tested (tests/unit/test_topdown.c). */
#ifndef LIB_TOPDOWN_H
#define LIB_TOPDOWN_H

#include <stdint.h>

enum td_set { TD_SET_SPR, TD_SET_ICL, TD_SET_CORE, TD_SET_ATOM, TD_SET_COUNT };

/* The four level-1 fractions, in this order everywhere. */
enum td_part { TD_RETIRING, TD_BAD_SPECULATION, TD_FRONTEND_BOUND, TD_BACKEND_BOUND, TD_PARTS };

enum td_status {
	TD_OK,           /* every fraction within [0, 1] */
	TD_MISSING,      /* an input is missing (have[i] 0) */
	TD_ZERO_SLOTS,   /* SLOTS is 0: no fraction */
	TD_OVERFLOW,     /* SLOTS does not fit 64 bits (E-cores' sum of four) */
	TD_OUT_OF_RANGE, /* a fraction below 0 or above 1: computed and shown, not clamped */
};

#define TD_MAX_INPUTS 5

/* td_inputs - how many events set s takes (4 or 5). */
int td_inputs(enum td_set s);

/* td_event_name - input i's event name in set s (lib/events.c's sets, in
 * their order), 0 past the last. */
const char *td_event_name(enum td_set s, int i);

/* td_set_name - "SPR", "ICL", "SKL" (Sandy Bridge..Cascade Lake), "E-core". */
const char *td_set_name(enum td_set s);

/* td_part_name - "retiring", "bad speculation", ...; td_part_key - the
 * record keys "retiring", "bad_speculation", "frontend_bound", "backend_bound". */
const char *td_part_name(enum td_part p);
const char *td_part_key(enum td_part p);

/* td_status_text - one phrase: "" for TD_OK, "an input is missing", ... */
const char *td_status_text(enum td_status st);

struct td_result {
	enum td_status status;
	int64_t milli[TD_PARTS]; /* thousandths of SLOTS (valid unless MISSING, ZERO_SLOTS, OVERFLOW) */
	int out_of_range;        /* bit p: part p below 0 or above 1000/1000 exactly */
};

/* td_level1 - the four fractions of set s from in[0..td_inputs(s)-1]
 * (have[i]: input i was measured). */
enum td_status td_level1(enum td_set s, const uint64_t *in, const int *have, struct td_result *out);

#endif

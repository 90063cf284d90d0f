/* lib/pmucheck.h - each pass's counters checked on the machine before
 * their figures are trusted (what kvm-unit-tests' x86/pmu.c does in a VM):
 * a known loop of `dec; jnz` (2 instructions and 1 branch an iteration)
 * is counted with N and with 2N iterations, reads identical around both,
 * so the difference of the two counts is the N extra iterations' alone:
 *   instructions retired (INST_RETIRED.ANY, fixed counter 0, Intel
 *     EventSel C0H UMask 00H; AMD PMCx0C0 Retired Instructions): exactly 2N;
 *   branch instructions retired (Intel C4H/00H BR_INST_RETIRED.ALL_BRANCHES;
 *     AMD PMCx0C2 Retired Branch Instructions): exactly N;
 *   core cycles (CPU_CLK_UNHALTED.THREAD, fixed counter 1, Intel 3CH/00H;
 *     AMD PMCx076 Cycles not in Halt): within [TSC/PMUCHECK_CYCLE_RATIO,
 *     TSC x PMUCHECK_CYCLE_RATIO] of the TSC's advance over the same N;
 *   reference cycles (CPU_CLK_UNHALTED.REF_TSC, fixed counter 2): within
 *     [TSC/2, 2 x TSC].
 * Every other event is not predicted (its figures are printed as counted,
 * its pass's check having run). Freestanding; host-tested.
 *
 * ISSUE 30 INTERFACE: owned by the scheduler/check work. */
#ifndef LIB_PMUCHECK_H
#define LIB_PMUCHECK_H

#include <stddef.h>
#include <stdint.h>
#include "events.h"

#define PMUCHECK_CYCLE_RATIO 8
#define PMUCHECK_REF_RATIO 2 /* reference cycles: within [TSC/2, 2 x TSC] */
#define PMUCHECK_INSNS_PER_ITER 2

enum pmucheck_kind {
	PMUCHECK_NONE,         /* not predicted */
	PMUCHECK_INSTRUCTIONS,
	PMUCHECK_BRANCHES,
	PMUCHECK_CORE_CYCLES,
	PMUCHECK_REF_CYCLES,
};

/* pmucheck_kind_of - what the check predicts of d on vendor v (by its
 * encoding, not its name: EventSel/UMask with UMASK2, CMSK, INV, EDG,
 * AnyThread 0 and no extra MSR, or the fixed counter it is on, fixed: -1 for a GP
 * counter). Fixed counters 0, 1, 2 (SDM Vol. 3B "Fixed-Function
 * Performance Counters"): instructions, core cycles, reference cycles; 3
 * (TOPDOWN.SLOTS) none. GP, Intel and any other vendor with leaf 0AH (SDM
 * Vol. 3B "Pre-defined Architectural Performance Events"): C0H/00H
 * instructions, C4H/00H branches, 3CH/00H core cycles (3CH/01H counts at
 * the bus clock: none). AMD and Hygon (PPR family 17h/19h "Core
 * Performance Monitor Counters"): PMCx0C0 instructions, PMCx0C2
 * branches, PMCx076 core cycles, unit mask 00H. Anything else, or d NULL
 * on a GP counter: PMUCHECK_NONE. Never fails. */
enum pmucheck_kind pmucheck_kind_of(enum ev_vendor v, const struct ev_def *d, int fixed);

struct pmucheck_result {
	enum pmucheck_kind kind;
	int ok;              /* 1: within [lo, hi]; always 1 for PMUCHECK_NONE */
	uint64_t lo, hi;     /* the expectation, in the event's own unit */
	uint64_t counted;    /* count(2N) - count(N) */
	char text[160];      /* "INST_RETIRED.ANY: 2000000 expected, 2000000 counted: ok" */
};

/* pmucheck_judge - judge one counter: counted = count(2N) - count(N)
 * in the event's own unit (modulo its width, by the caller), iterations
 * = N (loop iterations), tsc = TSC(2N) - TSC(N) in TSC ticks. Sets
 * r->kind, lo and hi (instructions: 2N exactly; branches: N exactly;
 * core cycles: ceil(tsc / PMUCHECK_CYCLE_RATIO) .. tsc x
 * PMUCHECK_CYCLE_RATIO; reference cycles the same with PMUCHECK_REF_RATIO;
 * saturating at UINT64_MAX; a tsc of 0 judges no cycles: not ok), ok, and
 * text (at most 159 characters, name cut to fit): "NAME: EXPECTED UNIT
 * expected, COUNTED counted: ok" or ": wrong, unverified" (": does not
 * count, unverified" for 0); PMUCHECK_NONE: "NAME: not predicted, COUNTED
 * counted", ok 1. name NULL is printed as "event". Never fails. */
void pmucheck_judge(enum pmucheck_kind k, const char *name, uint64_t iterations, uint64_t tsc,
		    uint64_t counted, struct pmucheck_result *r);

#endif

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
#define PMUCHECK_INSNS_PER_ITER 2

enum pmucheck_kind {
	PMUCHECK_NONE,         /* not predicted */
	PMUCHECK_INSTRUCTIONS,
	PMUCHECK_BRANCHES,
	PMUCHECK_CORE_CYCLES,
	PMUCHECK_REF_CYCLES,
};

/* pmucheck_kind_of - what the check predicts of d on vendor v (by its
 * encoding, not its name: EventSel/UMask with CMSK, INV, EDG 0, or the
 * fixed counter it is on, fixed: -1 for a GP counter). */
enum pmucheck_kind pmucheck_kind_of(enum ev_vendor v, const struct ev_def *d, int fixed);

struct pmucheck_result {
	enum pmucheck_kind kind;
	int ok;              /* 1: within [lo, hi]; always 1 for PMUCHECK_NONE */
	uint64_t lo, hi;     /* the expectation, in the event's own unit */
	uint64_t counted;    /* count(2N) - count(N) */
	char text[160];      /* "INST_RETIRED.ANY: 2000000 expected, 2000000 counted: ok" */
};

/* pmucheck_judge - judge one counter: counted = count(2N) - count(N)
 * (modulo its width, by the caller), iterations = N, tsc = TSC(2N) -
 * TSC(N) in TSC ticks. name is printed in text. */
void pmucheck_judge(enum pmucheck_kind k, const char *name, uint64_t iterations, uint64_t tsc,
		    uint64_t counted, struct pmucheck_result *r);

#endif

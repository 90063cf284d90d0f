/* bench/walk.h - single-step one sample of a sampling loop and count, by
 * the CPU's own trap after every instruction (RFLAGS.TF, SDM Vol. 3B
 * 18.3.1.4 "Single-Step Exception Condition"), the instructions executed
 * in each part of its window: between the end of the start sequence and the
 * body, in the body, and between the body and the stop sequence. The parts
 * are told apart by the window markers (SEQ_MARK, bench/methods.h). Under
 * QEMU -icount, where a TSC tick is an instruction, a workload's net result
 * must equal the body's count here exactly (tests/boot/t_window.py).
 */
#ifndef BENCH_WALK_H
#define BENCH_WALK_H

#include <stdint.h>
#include "workload.h"

/* What one walk counted; instructions executed, not bytes or addresses. */
struct walk_result {
	uint64_t gap_before; /* after the start sequence, before the body's marker */
	uint64_t body;       /* between the body's markers */
	uint64_t gap_after;  /* after the body, before the stop sequence */
	uint64_t steps;      /* single-step traps in all (the whole call) */
	uint64_t windows;    /* start sequences completed (1 for one sample) */
	int complete;        /* 0: more than WALK_MAX_STEPS, or too many markers */
};

/* Steps one walk may take before it gives up (a long body): about 0.1 s
 * of traps on a current CPU, a few seconds under QEMU TCG. */
#define WALK_MAX_STEPS 2000000ull

/* walk_window - call fill(s, 1, c) with RFLAGS.TF set and count its
 * window's parts into *r. Interrupts must be off (they are for the whole
 * run). Returns 0, or -1 when the walk is incomplete (r->complete = 0). */
/* walk_extra_marks - markers of a loop generated at run time (bench/code.c),
 * beside those of the compiled loops; n <= 4, replacing the previous ones. */
void walk_extra_marks(const struct bench_mark *m, int n);

int walk_window(fill_fn fill, struct samples *s, struct wl_ctx *c, struct walk_result *r);

#endif

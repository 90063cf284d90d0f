/* tests/boot/wl_tempt_test.c - a C workload written to tempt the compiler
 * into putting code of its own into the window (tests/boot/t_window.py
 * builds an image with it through EXTRA_SRC). Twelve values live at once,
 * more than the registers the sampling loop leaves free, so the loop's own
 * counter and pointers must give way; a loop-invariant product; an inner
 * loop whose bound is read from the context inside the window; a result
 * stored through a volatile. Its executed instruction count is whatever GCC
 * makes of it: the test single-steps it (walk=on) and requires the net
 * result under -icount to equal that count exactly, and the static check
 * to find nothing but the body between the reads. */
#include "../../bench/workload.h"

#define TEMPT_N 12
uint64_t tempt_in[TEMPT_N];
volatile uint64_t tempt_out;

BENCH_INLINE void tempt_setup(struct wl_ctx *c)
{
	for (int k = 0; k < TEMPT_N; k++)
		tempt_in[k] = (uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull ^ c->param;
}
BENCH_INLINE void tempt_body(struct wl_ctx *c)
{
	uint64_t a[TEMPT_N];
	for (int k = 0; k < TEMPT_N; k++)
		a[k] = tempt_in[k];
	uint64_t rounds = 3 + (c->param & 3), inv = c->param * 0x5851f42d4c957f2dull;
	for (uint64_t r = 0; r < rounds; r++)
		for (int k = 0; k < TEMPT_N; k++)
			a[k] = (a[k] * 31 + (a[(k + 5) % TEMPT_N] >> 3)) ^ (r + inv);
	uint64_t x = 0;
	for (int k = 0; k < TEMPT_N; k++)
		x ^= a[k] + (uint64_t)k;
	tempt_out = x;
}
BENCH_WORKLOAD(tempt, "a test's workload: register pressure, an invariant, a loop bound read in the window", 5)

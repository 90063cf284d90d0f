/* tests/boot/wl_empty_test.c - a workload of no instruction: its net is 0,
 * below the resolution wherever the TSC moves in steps (the end screen's
 * note under the nets then says so: tests/boot/t_end_screen.py builds an
 * image with EXTRA_SRC=this file). */
#include "../../bench/workload.h"

BENCH_INLINE void empty_body_setup(struct wl_ctx *c)
{
	(void)c;
}
BENCH_INLINE void empty_body_body(struct wl_ctx *c)
{
	(void)c;
}
BENCH_WORKLOAD(empty_body, "a test's workload: no instruction at all (net 0)", 0)

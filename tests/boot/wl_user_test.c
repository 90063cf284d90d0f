/* tests/boot/wl_user_test.c - a user's workload, added with no other edit:
 * tests/boot/t_workloads.py builds an image with EXTRA_SRC=this file. */
#include "../../bench/workload.h"

BENCH_INLINE void user_ten_nops_setup(struct wl_ctx *c)
{
	(void)c;
}
BENCH_INLINE void user_ten_nops_body(struct wl_ctx *c)
{
	(void)c;
	__asm__ volatile(".rept 10\n\tnop\n\t.endr");
}
BENCH_WORKLOAD(user_ten_nops, "a test's workload: ten NOPs, exactly 10 instructions", 10)

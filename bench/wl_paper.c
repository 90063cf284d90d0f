/* bench/wl_paper.c - the paper's own workloads. */
#include "workload.h"

/* empty: nothing between the reads. Its minimum is the method's offset,
 * "the cost of calling the benchmarking function itself" (paper 3.1.2). */
BENCH_INLINE void empty_setup(struct wl_ctx *c)
{
	c->variable = 0; /* as the paper's loop body does (appendix line 36) */
}
BENCH_INLINE void empty_body(struct wl_ctx *c)
{
	(void)c;
}
BENCH_WORKLOAD(empty, "nothing: the offset of the method itself (paper 3.1.2)", 0)

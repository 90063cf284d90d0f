/* bench/wl_paper.c - the paper's own workloads (Paoloni 2010, 2.2 and 3.3). */
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
BENCH_WORKLOAD_FLAGS(empty, "nothing: the offset of the method itself (paper 3.1.2)", 0, WL_OFFSET)

/* measured_function: the paper's example (2.2), "(*var) = 1" through a
 * volatile pointer: one store. */
BENCH_INLINE void measured_function_setup(struct wl_ctx *c)
{
	c->variable = 0;
}
BENCH_INLINE void measured_function_body(struct wl_ctx *c)
{
	c->variable = 1;
}
BENCH_WORKLOAD(measured_function, "the paper's measured_function: one volatile store (paper 2.2)", 0)

/* measured_loop: the resolution test's loop (paper 3.3), n stores through a
 * volatile pointer; ensemble j runs it with n = j. */
BENCH_INLINE void measured_loop_setup(struct wl_ctx *c)
{
	c->variable = 0;
}
BENCH_INLINE void measured_loop_body(struct wl_ctx *c)
{
	for (uint64_t k = 0; k < c->param; k++)
		c->variable = 1;
}
BENCH_WORKLOAD_FLAGS(measured_loop, "the paper's measured_loop(j): j volatile stores (paper 3.3)", 0,
		     WL_RESOLUTION)

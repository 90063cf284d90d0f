/* bench/workload.h - the workload registry.
 *
 * A workload is measured code. To add one, write a C file in bench/ with
 *
 *     #include "workload.h"
 *     BENCH_INLINE void mine_setup(struct wl_ctx *c) { c->variable = 0; }
 *     BENCH_INLINE void mine_body(struct wl_ctx *c)  { ...measured code... }
 *     BENCH_WORKLOAD(mine, "what it measures, its expected cost", 0)
 *
 * setup runs before each sample, outside the window; body runs inside it.
 * The macro instantiates one sampling loop per method (FOR_EACH_METHOD in
 * methods.h) with the body inlined between the method's start and stop, and
 * puts a descriptor in the linker section bench_workloads: no central list.
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <stdint.h>
#include "methods.h"

/* Per-sample state a workload may use. */
struct wl_ctx {
	volatile int variable; /* the paper's `variable` */
	uint64_t param;        /* the workload's parameter (e.g. a loop size) */
};

/* Where a sampling loop puts sample i: tsc[i] in TSC ticks; ins[i] and
 * cyc[i] the raw differences of the instructions-retired and core-cycle
 * counters (taken modulo their width afterwards). A loop writes only the
 * arrays its kind fills. */
struct samples {
	uint64_t *tsc, *ins, *cyc;
	uint32_t msr_ins, msr_cyc; /* what a TSC method's counters-beside loop reads */
};

typedef void (*fill_fn)(struct samples *s, uint64_t n, struct wl_ctx *c);

/* Flags of a workload. */
#define WL_OFFSET 1     /* the empty window: its minimum is the method's offset */
#define WL_RESOLUTION 2 /* the resolution test's loop: param = ensemble index (paper 3.3) */

struct workload {
	const char *name;
	const char *desc;
	uint64_t default_param;
	unsigned flags;
	fill_fn fill[METHOD_COUNT];     /* TSC methods: tsc[] only; counter methods: ins[], cyc[] */
	fill_fn fill_ctr[METHOD_COUNT]; /* TSC methods: tsc[] and the counters beside it */
};

/* The sampling loops: no I/O, allocation or division between the reads;
 * the only stores after a stop are the samples themselves. */
#define WORKLOAD__FILL_TSC(w, m, start, stop)                                    \
	static void bench_fill_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	{                                                                        \
		uint64_t *tsc = s->tsc;                                          \
		for (uint64_t i = 0; i < n; i++) {                               \
			w##_setup(c);                                            \
			uint64_t t0 = start();                                   \
			w##_body(c);                                             \
			uint64_t t1 = stop();                                    \
			tsc[i] = t1 - t0;                                        \
		}                                                                \
	}                                                                        \
	static void bench_fillc_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	{                                                                        \
		uint64_t *tsc = s->tsc, *ins = s->ins, *cyc = s->cyc;            \
		const uint32_t mi = s->msr_ins, mc = s->msr_cyc;                 \
		for (uint64_t i = 0; i < n; i++) {                               \
			w##_setup(c);                                            \
			uint64_t i0 = rdmsr_in_window(mi);                       \
			uint64_t c0 = rdmsr_in_window(mc);                       \
			uint64_t t0 = start();                                   \
			w##_body(c);                                             \
			uint64_t t1 = stop();                                    \
			uint64_t c1 = rdmsr_in_window(mc);                       \
			uint64_t i1 = rdmsr_in_window(mi);                       \
			tsc[i] = t1 - t0;                                        \
			ins[i] = i1 - i0;                                        \
			cyc[i] = c1 - c0;                                        \
		}                                                                \
	}
#define WORKLOAD__FILL_CTR(w, m, start, stop)                                    \
	static void bench_fill_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	{                                                                        \
		uint64_t *ins = s->ins, *cyc = s->cyc;                           \
		for (uint64_t i = 0; i < n; i++) {                               \
			w##_setup(c);                                            \
			struct ctr_pair a = start();                             \
			w##_body(c);                                             \
			struct ctr_pair b = stop();                              \
			ins[i] = b.ins - a.ins;                                  \
			cyc[i] = b.cyc - a.cyc;                                  \
		}                                                                \
	}
#define WORKLOAD__PTR(w, m, start, stop) [METHOD_##m] = bench_fill_##w##_##m,
#define WORKLOAD__PTRC_TSC(w, m, start, stop) [METHOD_##m] = bench_fillc_##w##_##m,
#define WORKLOAD__PTRC_CTR(w, m, start, stop) [METHOD_##m] = bench_fill_##w##_##m,

#define BENCH_WORKLOAD_FLAGS(w, description, param, wflags)                     \
	FOR_EACH_TSC_METHOD(WORKLOAD__FILL_TSC, w)                              \
	FOR_EACH_CTR_METHOD(WORKLOAD__FILL_CTR, w)                              \
	static const struct workload bench_workload_##w                         \
		__attribute__((used, section("bench_workloads"), aligned(8))) = { \
			.name = #w,                                             \
			.desc = description,                                    \
			.default_param = param,                                 \
			.flags = wflags,                                        \
			.fill = { FOR_EACH_METHOD(WORKLOAD__PTR, w) },          \
			.fill_ctr = { FOR_EACH_TSC_METHOD(WORKLOAD__PTRC_TSC, w) \
				      FOR_EACH_CTR_METHOD(WORKLOAD__PTRC_CTR, w) }, \
		};

#define BENCH_WORKLOAD(w, description, param) BENCH_WORKLOAD_FLAGS(w, description, param, 0)

extern const struct workload __start_bench_workloads[], __stop_bench_workloads[];

/* workload_find - the registered workload called name, or NULL. */
const struct workload *workload_find(const char *name);

/* workload_count - how many workloads are registered (at most
 * WORKLOADS_MAX are used). */
#define WORKLOADS_MAX 63
int workload_count(void);

/* workload_at - the i-th registered workload, 0 <= i < workload_count(), in
 * the order of their names, so that output and bit masks do not depend on
 * link order. */
const struct workload *workload_at(int i);

#endif

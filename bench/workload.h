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
#include "events.h"

/* Per-sample state a workload may use. */
struct wl_ctx {
	volatile int variable; /* the paper's `variable` */
	uint64_t param;        /* the workload's parameter (e.g. a loop size) */
};

/* Where a sampling loop puts sample i: tsc[i] in TSC ticks; ins[i] and
 * cyc[i] the raw differences of the instructions-retired and core-cycle
 * counters (taken modulo their width afterwards); beside an events pass
 * (fill_ev), ev[k][i] the raw difference of slot k's counter for k < nev
 * (bench/methods.h SEQ_EV_*; the slots beyond nev are read, not stored).
 * A loop writes only the arrays its kind fills. The generated loops
 * (lib/codegen.h) address tsc, ins, cyc at +0, +8, +16, ev at
 * CG_SAMPLES_EV. */
struct samples {
	uint64_t *tsc, *ins, *cyc;
	uint64_t *ev[BENCH_EV_SLOTS];
	uint64_t nev; /* 0..BENCH_EV_SLOTS */
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
	fill_fn fill_ev[METHOD_COUNT];  /* TSC methods: tsc[] and the events of a pass beside it
					 * (ev[0..nev-1]); counter methods: NULL */
};

/* The sampling loops: no I/O, allocation or division between the reads;
 * the only stores after a stop are the samples themselves. The window
 * (BENCH_*_WINDOW, bench/methods.h) holds the start sequence after its
 * read, the body and the stop sequence up to its read, nothing else:
 * tests/boot/check_windows.py checks every loop of the built kernel.
 * The loop's own state (the sample index, the count, the buffers) is
 * volatile, so it lives in memory, not in a register the body could make
 * the compiler spill and reload inside the window; only c, which the
 * body may use, is live across it. */
#define WORKLOAD__LOOP(w, decl, window, store)                                   \
	{                                                                        \
		uint64_t d = 0, di = 0, dc = 0;                                  \
		decl;                                                            \
		(void)d, (void)di, (void)dc;                                     \
		for (volatile uint64_t i = 0; i < nv; i++) {                     \
			w##_setup(c);                                            \
			window;                                                  \
			store;                                                   \
		}                                                                \
	}
#define WORKLOAD__FILL_TSC(w, m, start, stop)                                    \
	static void bench_fill_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	WORKLOAD__LOOP(w, uint64_t *volatile tsc = s->tsc; volatile uint64_t nv = n,   \
		       BENCH_TSC_WINDOW(start, w##_body(c), stop, d),             \
		       tsc[i] = d)                                                \
	static void bench_fillc_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	WORKLOAD__LOOP(w, uint64_t *volatile tsc = s->tsc; uint64_t *volatile ins = s->ins; \
		       uint64_t *volatile cyc = s->cyc; volatile uint64_t nv = n, \
		       BENCH_BESIDE_WINDOW(start, w##_body(c), stop, d, di, dc),  \
		       tsc[i] = d; ins[i] = di; cyc[i] = dc)
/* The events of a pass beside the TSC (bench/evrun.h): the pass's nev
 * differences copied from bench_ev_delta after the window. */
#define WORKLOAD__FILL_EV(w, m, start, stop)                                     \
	static void bench_fille_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	WORKLOAD__LOOP(w, uint64_t *volatile tsc = s->tsc; struct samples *volatile sv = s; \
		       volatile uint64_t nv = n,                                  \
		       BENCH_EV_WINDOW(start, w##_body(c), stop, d),              \
		       tsc[i] = d;                                                \
		       for (uint64_t k = 0; k < sv->nev; k++) sv->ev[k][i] = bench_ev_delta[k])
#define WORKLOAD__FILL_CTR(w, m, start, stop)                                    \
	static void bench_fill_##w##_##m(struct samples *s, uint64_t n, struct wl_ctx *c) \
	WORKLOAD__LOOP(w, uint64_t *volatile ins = s->ins; uint64_t *volatile cyc = s->cyc; \
		       volatile uint64_t nv = n,                                  \
		       BENCH_CTR_WINDOW(start, w##_body(c), stop, di, dc),        \
		       ins[i] = di; cyc[i] = dc)
#define WORKLOAD__PTR(w, m, start, stop) [METHOD_##m] = bench_fill_##w##_##m,
#define WORKLOAD__PTRC_TSC(w, m, start, stop) [METHOD_##m] = bench_fillc_##w##_##m,
#define WORKLOAD__PTRC_CTR(w, m, start, stop) [METHOD_##m] = bench_fill_##w##_##m,
#define WORKLOAD__PTRE_TSC(w, m, start, stop) [METHOD_##m] = bench_fille_##w##_##m,

#define BENCH_WORKLOAD_FLAGS(w, description, param, wflags)                     \
	FOR_EACH_TSC_METHOD(WORKLOAD__FILL_TSC, w)                              \
	FOR_EACH_TSC_METHOD(WORKLOAD__FILL_EV, w)                               \
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
			.fill_ev = { FOR_EACH_TSC_METHOD(WORKLOAD__PTRE_TSC, w) }, \
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

/* bench_config_choices - the names methods= and workloads= choose from,
 * for config_parse (kernel/config.h): every method in enum method_id
 * order, every registered workload in workload_at order; by default every
 * method and every workload but the empty window and the resolution
 * test's loop. The lists stay valid for the whole run. */
struct config_choices;
void bench_config_choices(struct config_choices *ch);

#endif

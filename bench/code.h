/* bench/code.h - the user's own code, measured without rebuilding (boot
 * parameters code=, init=, unroll=, loops=, code.name=; README "Measuring
 * your own code"). The sampling loops are generated at run time
 * (lib/codegen.c) from the same assembler text of each method's sequences
 * that the compiled loops use (bench/methods.h), assembled once into
 * templates here. A fault in the user's init or code (#DE, #NM, #UD, #SS,
 * #GP, #PF, #AC and every other exception but NMI, #DF, #MC), wherever its
 * bytes reached (a jump into the loop's prologue or epilogue too), a
 * watchdog stop, and a return of the loop before its last sample end that
 * workload for that method, not the run.
 */
#ifndef BENCH_CODE_H
#define BENCH_CODE_H

#include <stddef.h>
#include <stdint.h>
#include "methods.h"
#include "workload.h"

/* Flag of the generated workloads (struct workload.flags). */
#define WL_CODE 4

/* The vector a code fault carries when the loop returned before its last
 * sample without a fault (the code jumped into the loop's epilogue, which
 * returned): no vector of the IDT's, as kernel/watchdog.h WATCHDOG_VECTOR. */
#define CODE_LEFT_VECTOR 257

/* Most bytes code= and init= take. */
#define CODE_MAX_BYTES 4096

/* code_prepare - check code=, init=, unroll=, loops=, code.name= (one
 * config: line per problem, each naming the key; the code workload is then
 * left out), and set aside memory for the generated loops before the
 * sample buffers take the rest. Returns the number of problems. Call after
 * config_parse. */
struct config;
int code_prepare(const struct config *c);

/* code_configured - 1 when a valid code= was given and its memory found. */
int code_configured(void);

/* code_copies_executed - the copies the N window executes: unroll= times
 * loops= (1 without a loop); the 2N window executes twice as many. */
uint64_t code_copies_executed(void);

/* code_workload - generate method m's loop (with the counters beside it
 * when beside) holding copies x unroll copies of code (copies 0: the
 * empty window, 1: N, 2: 2N) and return it as a workload, or NULL after
 * printing why not (it does not fit). The workload is valid until the
 * next call with the same copies. */
const struct workload *code_workload(enum method_id m, int beside, int copies);

/* code_ev_prepare - set aside, once, the memory of the loops with the
 * events of a pass beside the TSC (bench/evrun.h), before the events'
 * sample buffers take the rest: 1 when they exist, 0 without code=, -1
 * after printing that they do not fit (code= is then left out of the
 * events passes). */
int code_ev_prepare(void);

/* code_workload_ev - TSC method m's loop with the events of a pass beside
 * (bench/methods.h SEQ_EV_*), storing nev (0..BENCH_EV_SLOTS) slots per
 * sample into s->ev[] (its fill_ev[m]), copies as code_workload; NULL for
 * a counter method, without code_ev_prepare's memory, or after printing
 * why not. Valid until the next call with the same copies. */
const struct workload *code_workload_ev(enum method_id m, int copies, int nev);

/* code_fault_take - after a fill of a generated workload: 1 when the
 * user's code faulted (and then prints the fault line and record naming
 * the vector, the part (init=, code=, a part of the loop: lib/codefault.h),
 * the byte offset, the copy, the relative jump of the code that lands
 * there where one does, the halting instruction a watchdog stop ended,
 * and the method); clears the fault. */
int code_fault_take(enum method_id m, const struct workload *w);

/* code_fault_name - the short name of a code fault's vector: "#UD" etc.
 * (kernel/trap.h trap_fault_string), "watchdog" for WATCHDOG_VECTOR
 * (kernel/watchdog.h: the code did not finish within its bound), "left
 * the loop" for CODE_LEFT_VECTOR. */
const char *code_fault_name(uint64_t vector);

/* code_fault_last - where the last fault code_fault_take reported was
 * (bench/results.h struct code_fault_at), into *at; returns how many
 * faults code_fault_take has taken since the boot (0: none, *at zeroed). */
struct code_fault_at;
uint64_t code_fault_last(struct code_fault_at *at);

/* code_cache_print - cache=flush|wbinvd: the flush before each sample
 * measured once and said (kernel/cacheflush.h cacheflush_print) for the
 * generated loops' buffers (empty, N, 2N); nothing without code=. */
void code_cache_print(void);

/* code_sizes - what bench/coderesult.c prints of the configuration:
 * whether code= is configured, code_prepare's config, the bytes of code=
 * and init=, and the generated loops' sizes in bytes (empty, N, 2N). */
struct code_sizes {
	int configured;
	const struct config *cfg;
	size_t code_len, init_len;
	size_t loop_bytes[3];
};
void code_sizes(struct code_sizes *s);

#endif

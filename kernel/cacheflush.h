/* kernel/cacheflush.h - cache=flush|wbinvd (README "The caches before each
 * sample"): the caches put in a known state before every sample of code=,
 * between init= and the method's start sequence, outside the window. The
 * generated loop calls cacheflush_hook() (lib/codegen.h spec.hook) on its
 * own stack; it flushes every cache line of the code's memory areas
 * (kernel/memarea.h: each register's area) and of the running generated loop (which holds
 * init= and the copies of code=) with CLFLUSHOPT where CPUID.(EAX=7,
 * ECX=0):EBX[23], else CLFLUSH (CPUID.1:EDX[19]; line size CPUID.1:
 * EBX[15:8] x 8 bytes), then a fence: SFENCE after CLFLUSHOPT (SDM Vol. 2A
 * CLFLUSHOPT: "ordered with respect to ... SFENCE"), MFENCE after CLFLUSH
 * (SDM Vol. 2A CLFLUSH, MFENCE); or WBINVD (SDM Vol. 2B WBINVD: every
 * cache of this CPU written back and invalidated; ring 0 only, and may
 * take long). Its cost is measured once, outside every window, and said
 * in one line and the cache_state record (docs/RECORDS.md).
 */
#ifndef KERNEL_CACHEFLUSH_H
#define KERNEL_CACHEFLUSH_H

#include <stdint.h>

struct config;

/* Bytes at addr: an area, or a generated loop's buffer. */
struct cacheflush_range {
	uint64_t addr, bytes;
};

/* The instruction each sample's flush uses; CACHEFLUSH_NONE: nothing is
 * done (cache=warm, or cache=flush on a CPU without CLFLUSH). */
enum cacheflush_insn { CACHEFLUSH_NONE, CACHEFLUSH_CLFLUSHOPT, CACHEFLUSH_CLFLUSH, CACHEFLUSH_WBINVD };

/* cacheflush_prepare - with code= given (bench/code.c code_prepare, after
 * memarea_prepare): choose the instruction for cfg->cache from CPUID
 * (above) and take the code's areas: every area of a register of the
 * contract (memarea_get: who "R14", "RDI", "RSI", "RBP", "RSP"; not a
 * built-in experiment's). Prints nothing (cacheflush_print says it).
 * Returns the instruction. */
enum cacheflush_insn cacheflush_prepare(const struct config *cfg);

/* cacheflush_hook - the address the generated loop calls before each
 * sample's start sequence (lib/codegen.h spec.hook), 0 when nothing is
 * flushed. It keeps every general register and RFLAGS (DF is cleared
 * while it runs); cacheflush_hook_stack - its stack's top (16-aligned,
 * 8 KiB below it). */
uint64_t cacheflush_hook(void);
uint64_t cacheflush_hook_stack(void);

/* cacheflush_set_loop - the generated loop the next samples run (its
 * first byte and bytes, e.g. its buffer's capacity): flushed with the
 * areas. Call before entering the loop, outside any window. */
void cacheflush_set_loop(uint64_t addr, uint64_t bytes);

/* cacheflush_lines - the cache lines (CPUID.1:EBX[15:8] x 8 bytes each)
 * that bytes at addr span; 0 for 0 bytes or when no line size is known
 * (CACHEFLUSH_NONE, CACHEFLUSH_WBINVD). */
uint64_t cacheflush_lines(uint64_t addr, uint64_t bytes);

/* cacheflush_cost - the TSC ticks one flush took when cacheflush_print
 * measured it (0 before, or when nothing is flushed). */
uint64_t cacheflush_cost(void);

/* cacheflush_print - measure one flush of the areas and of the code=
 * loop of N copies (loops[1]) once, in TSC ticks (LFENCE; RDTSC on each
 * side, outside every window: SDM Vol. 2B RDTSC), and say it: one
 * "cache:" line and one cache_state record (docs/OUTPUT.md,
 * docs/RECORDS.md), the lines of the empty and 2N loops (loops[0],
 * loops[2]) named in the line too; or one line and the record saying why
 * nothing is flushed (no CLFLUSH: CPUID.1:EDX[19] = 0). One line more
 * when the flushes of one fill (samples= or warmup= samples) take over
 * half the watchdog's bound (kernel/watchdog.h WATCHDOG_MAX_MS). Nothing
 * for cache=warm (no line, no record: the config record says warm). */
void cacheflush_print(const struct cacheflush_range loops[3]);

#endif

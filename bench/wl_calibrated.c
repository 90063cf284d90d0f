/* bench/wl_calibrated.c - workloads whose cost is known, so the tool can
 * check itself: chains of dependent instructions in one asm block (no
 * compiler code inside the window). On a real core a chain of N dependent
 * 1-cycle ADDs takes N core cycles and N dependent IMULs 3N (latency 3 on
 * Intel cores since Nehalem: Intel 64 and IA-32 Optimization Reference
 * Manual, appendix C); under QEMU -icount every instruction is one TSC tick,
 * so the net result is exactly the chain's length. */
#include "workload.h"

#define CHAIN(name, insn, n, text)                                                     \
	BENCH_INLINE void name##_setup(struct wl_ctx *c)                               \
	{                                                                              \
		(void)c;                                                               \
	}                                                                              \
	BENCH_INLINE void name##_body(struct wl_ctx *c)                                \
	{                                                                              \
		(void)c;                                                               \
		__asm__ volatile(".rept " #n "\n\t" insn "\n\t.endr" ::: "r8", "cc");  \
	}                                                                              \
	BENCH_WORKLOAD(name, text, n)

CHAIN(add_chain_64, "add %%r8, %%r8", 64,
      "64 dependent ADDs: 64 core cycles; exactly 64 instructions")
CHAIN(add_chain_256, "add %%r8, %%r8", 256,
      "256 dependent ADDs: 256 core cycles; exactly 256 instructions")
CHAIN(imul_chain_64, "imul %%r8, %%r8", 64,
      "64 dependent IMULs: 192 core cycles (latency 3); exactly 64 instructions")

/* kernel/pmucount.c - see pmucount.h. */
#include "pmucount.h"
#include "pmu.h"

/* One read of every counter: for r8 = 0..n-1, ECX = ecx[r8], RDPMC (or
 * RDTSC in the fake-PMU build), out[r8] = EDX:EAX. */
#define PMUCOUNT_READ_ALL(out, top, end)              \
	"xor %%r8d, %%r8d\n\t"                        \
	top ":\n\t"                                   \
	"cmp %[n], %%r8d\n\t"                         \
	"jae " end "f\n\t"                            \
	"mov (%[ecx],%%r8,4), %%ecx\n\t"             \
	PMU_RDPMC_INSN "\n\t"                         \
	"shl $32, %%rdx\n\t"                          \
	"or %%rdx, %%rax\n\t"                         \
	"mov %%rax, (%[" out "],%%r8,8)\n\t"          \
	"inc %%r8d\n\t"                               \
	"jmp " top "b\n\t"                            \
	end ":\n\t"

void pmucount_loop(const uint32_t *ecx, int n, uint64_t iterations, uint64_t *before, uint64_t *after,
		   uint64_t tsc[2])
{
	if (n < 0)
		n = 0;
	if (n > PMUCOUNT_MAX)
		n = PMUCOUNT_MAX;
	if (iterations == 0)
		iterations = 1;
	uint64_t count = iterations;
	__asm__ volatile(
		PMUCOUNT_READ_ALL("before", "10", "11")
		"rdtsc\n\t"
		"shl $32, %%rdx\n\t"
		"or %%rdx, %%rax\n\t"
		"mov %%rax, (%[tsc])\n\t"
		"1: dec %[count]\n\t"
		"jnz 1b\n\t"
		"rdtsc\n\t"
		"shl $32, %%rdx\n\t"
		"or %%rdx, %%rax\n\t"
		"mov %%rax, 8(%[tsc])\n\t"
		PMUCOUNT_READ_ALL("after", "12", "13")
		: [count] "+r"(count)
		: [n] "r"(n), [ecx] "r"(ecx), [before] "r"(before), [after] "r"(after), [tsc] "r"(tsc)
		: "rax", "rcx", "rdx", "r8", "cc", "memory");
}

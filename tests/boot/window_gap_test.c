/* tests/boot/window_gap_test.c - a negative control for
 * tests/boot/check_windows.py: a sampling loop written the way the image's
 * were before the window fix (the start's EDX:EAX returned in registers and
 * combined in C, which GCC may place after the start's read, inside the
 * window). Linked on its own by tests/boot/t_window.py; the checker must
 * report it. */
#include "../../bench/methods.h"

struct bench_window bench_w0;
volatile int gap_variable;

void bench_fill_gap_cpuid(uint64_t *tsc, uint64_t n);
void bench_fill_gap_cpuid(uint64_t *tsc, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint32_t hi, lo;
		__asm__ volatile("xor %%eax, %%eax\n\tcpuid\n\trdtsc\n\tmov %%edx, %0\n\tmov %%eax, %1\n\t"
				 SEQ_MARK(MARK_START_END)
				 : "=r"(hi), "=r"(lo)
				 :
				 : "rax", "rbx", "rcx", "rdx", "memory");
		uint64_t t0 = ((uint64_t)hi << 32) | lo;
		/* GCC sinks the combine below a body this small; with a body that
		 * needs registers (saddb) it did not. This empty asm, which takes
		 * t0 in a register, pins the combine where such a body left it. */
		__asm__ volatile("" : "+r"(t0));
		__asm__ volatile(SEQ_MARK(MARK_BODY_BEGIN) ::: "memory");
		gap_variable = 1;
		__asm__ volatile(SEQ_MARK(MARK_BODY_END) ::: "memory");
		uint64_t d;
		__asm__ volatile(SEQ_MARK(MARK_STOP_BEGIN) "xor %%eax, %%eax\n\tcpuid\n\trdtsc\n\t"
				 "shl $32, %%rdx\n\tor %%rax, %%rdx\n\t"
				 : "=d"(d)
				 :
				 : "rax", "rbx", "rcx", "memory");
		tsc[i] = d - t0;
	}
}

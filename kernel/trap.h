/* kernel/trap.h - descriptor tables, exceptions, and fault-safe access.
 *
 * Every one of the 256 vectors has a handler (boot/vectors.asm). An
 * exception prints its name, error code, RIP, CR2 and the general registers
 * and ends the run with EXIT_FAILURE_CODE, unless the faulting instruction
 * is in the exception table: then execution resumes after it and the
 * accessor returns the vector as an error (the kvm-unit-tests approach).
 * NMIs are counted and return. NMI, #DF and #MC each run on a stack of
 * their own (TSS IST1, IST2, IST3), so even a stack overflow is reported,
 * and an NMI during a #DF or #MC report does not overwrite its frame.
 */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include <stdint.h>

/* The layout boot/vectors.asm pushes. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

/* Exception vectors used by name (SDM Vol. 3A table 7-1). */
#define VEC_DE 0
#define VEC_DB 1
#define VEC_NMI 2
#define VEC_UD 6
#define VEC_DF 8
#define VEC_GP 13
#define VEC_PF 14
#define VEC_MC 18

/* trap_init - load our GDT with a TSS (IST1..IST3 stacks) and the IDT. */
void trap_init(void);

/* trap_vector_name - "#GP general protection" etc.; "interrupt" above 31. */
const char *trap_vector_name(uint64_t vector);

/* trap_hook - when set, called first for every exception (vectors 0-31
 * but NMI) with the trap frame, which it may change (RIP, RFLAGS, general
 * registers); it returns 1 when it handled the exception (the handler then
 * returns to the frame), 0 to let the usual handling go on. Hooks chain:
 * one set over another calls the one before for what it does not handle.
 * Used by the single-step walk of a sampling window (bench/walk.c) and by
 * the recovery from faults in the user's code (bench/code.c). */
extern int (*trap_hook)(struct trap_frame *f);

/* trap_nmi_count - NMIs received since boot. */
uint64_t trap_nmi_count(void);

/* An exception-table entry: a fault at insn resumes at resume, with
 * R11 = TRAP_FAULTED | vector. */
struct ex_entry {
	uint64_t insn, resume;
};
#define TRAP_FAULTED 0x100

/* rdmsr_safe - read MSR msr into *val (SDM Vol. 2B "RDMSR"). Returns 0, or
 * TRAP_FAULTED | vector when the instruction faulted (#GP for an MSR the
 * CPU or hypervisor does not implement); *val is then 0. */
static inline int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;
	register uint64_t fault __asm__("r11") = 0;
	__asm__ volatile("1: rdmsr\n2:\n"
			 ".pushsection .ex_table, \"a\"\n"
			 ".balign 8\n.quad 1b, 2b\n"
			 ".popsection"
			 : "+a"(lo), "+d"(hi), "+r"(fault)
			 : "c"(msr)
			 : "memory");
	*val = fault ? 0 : ((uint64_t)hi << 32) | lo;
	return (int)fault;
}

/* wrmsr_safe - write val to MSR msr (SDM Vol. 2B "WRMSR"). Returns 0, or
 * TRAP_FAULTED | vector when the write faulted. */
static inline int wrmsr_safe(uint32_t msr, uint64_t val)
{
	register uint64_t fault __asm__("r11") = 0;
	__asm__ volatile("1: wrmsr\n2:\n"
			 ".pushsection .ex_table, \"a\"\n"
			 ".balign 8\n.quad 1b, 2b\n"
			 ".popsection"
			 : "+r"(fault)
			 : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "memory");
	return (int)fault;
}

/* rdpmc_safe - read performance counter ecx (SDM Vol. 2B "RDPMC"). Returns 0,
 * or TRAP_FAULTED | vector (#GP for a bad index, #UD where unsupported). */
static inline int rdpmc_safe(uint32_t ecx, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;
	register uint64_t fault __asm__("r11") = 0;
	__asm__ volatile("1: rdpmc\n2:\n"
			 ".pushsection .ex_table, \"a\"\n"
			 ".balign 8\n.quad 1b, 2b\n"
			 ".popsection"
			 : "+a"(lo), "+d"(hi), "+r"(fault)
			 : "c"(ecx)
			 : "memory");
	*val = fault ? 0 : ((uint64_t)hi << 32) | lo;
	return (int)fault;
}

/* trap_fault_string - "#GP" for an error from the safe accessors. */
const char *trap_fault_string(int err);

#endif

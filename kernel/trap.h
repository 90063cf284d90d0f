/* kernel/trap.h - descriptor tables, exceptions, and fault-safe access.
 *
 * Every one of the 256 vectors has a handler (boot/vectors.asm). An
 * exception prints its name, error code, RIP, CR2 and the general registers
 * and ends the run with EXIT_FAILURE_CODE, unless the faulting instruction
 * is in the exception table: then execution resumes after it and the
 * accessor returns the vector as an error (the kvm-unit-tests approach).
 * NMIs are counted and return. Every vector runs on a stack of its own
 * kind, never on the interrupted RSP (TSS IST1..IST7, trap.c): NMI, #DF
 * and #MC each alone, so that an NMI during a #DF or #MC report does not
 * overwrite its frame; then #DB and #BP, #PF, #GP and #UD (the faults of
 * the fault-safe accessors below, which a handler may use), and the rest.
 * So a stack overflow is a reported #PF, and an exception in code whose
 * RSP points anywhere (code=) is reported with its true frame.
 *
 * Software INT n reaches every vector (the gates have DPL 0 and the code
 * runs in ring 0). The stub tells an INT n to a vector with an error code
 * by the frame's size (boot/vectors.asm); for NMI, #MC and vectors 32-255,
 * trap.c reads the two bytes before RIP (CD n). Such a frame has soft = 1:
 * an INT 2 is not counted as an NMI, and every software INT goes to the
 * trap hook like an exception.
 */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include <stdint.h>

/* The layout boot/vectors.asm pushes. soft: 1 when an INT n instruction
 * raised it (trap.h above), set by trap_handler before any hook runs. */
struct trap_frame {
	uint64_t soft;
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;
};

/* Exception vectors used by name (SDM Vol. 3A table 7-1). */
#define VEC_DE 0
#define VEC_DB 1
#define VEC_NMI 2
#define VEC_BP 3
#define VEC_UD 6
#define VEC_DF 8
#define VEC_GP 13
#define VEC_PF 14
#define VEC_MC 18

/* Set in the vector a stub pushes when it saw a software INT n to a vector
 * with an error code (boot/vectors.asm); trap_handler clears it. */
#define TRAP_VECTOR_SOFT 0x100

/* The 64-bit TSS (SDM Vol. 3A 9.7, figure 9-11). */
struct trap_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

/* Seven stacks per CPU, TSS IST1..IST7 (trap.c says which vectors use
 * which), of 16 KiB each. */
#define TRAP_IST_STACKS 7
#define TRAP_IST_STACK_SIZE 16384

/* What each CPU has of its own (the boot CPU's is static in trap.c, an
 * application processor's is in its kernel/smp.c area): its GDT, whose
 * TSS descriptor points at its own TSS, whose IST1..IST3 point at its own
 * stacks. The IDT is shared: one table, loaded by LIDT on every CPU (the
 * IDTR is per logical processor, SDM Vol. 3A 2.4.3); its gates hold only
 * the IST index, and the CPU taking the interrupt reads the stack pointer
 * from the TSS its own TR selects (SDM Vol. 3A 7.14.5), so one IDT serves
 * every CPU while each keeps its own IST stacks. trap_this_cpu finds it by
 * the APIC ID CPUID gives, not through GDTR, which code= may load. */
struct trap_cpu {
	uint64_t gdt[5];
	struct trap_tss *tss;
	int cpu;               /* number in MADT order; -1 until kernel/smp.c names it */
	uint32_t apic_id;
	int ap;                /* 1: an application processor */
	volatile uint64_t nmis;       /* NMIs received, wake-ups excepted */
	volatile uint64_t wake_sent;  /* wake-up NMIs sent to this CPU (by others) */
	volatile uint64_t wake_recv;  /* ... and received */
	/* trap_this_cpu's list, filled when the CPU registers (trap_init,
	 * trap_init_ap): the APIC ID its CPUID gave (full: the 32-bit x2APIC
	 * ID of leaf 0BH; else the 8-bit initial APIC ID) and the CPU
	 * registered after it. No table sized for the most CPUs: each
	 * CPU's entry is in its own struct trap_cpu. */
	uint32_t cpuid_apic_id;
	int cpuid_full;
	struct trap_cpu *volatile next;
};

/* trap_init - the boot CPU: load its GDT with a TSS (IST1..IST3 stacks)
 * and the IDT, which it builds. */
void trap_init(void);

/* trap_init_ap - an application processor: fill *t (cpu, apic_id given;
 * trap_this_cpu knows it by the APIC ID its own CPUID gives),
 * whose TSS is *tss and whose IST stacks are ist[0..TRAP_IST_STACKS *
 * TRAP_IST_STACK_SIZE - 1] (16-byte aligned), load that GDT, TR and the
 * shared IDT. Called on that CPU, after trap_init on the boot CPU. */
void trap_init_ap(struct trap_cpu *t, struct trap_tss *tss, uint8_t *ist, int cpu, uint32_t apic_id);

/* trap_this_cpu - the calling CPU's struct trap_cpu, looked up by the APIC
 * ID its CPUID gives (the x2APIC ID of leaf 0BH, else the initial APIC ID,
 * CPUID.1:EBX[31:24]; SDM Vol. 3A 11.12.8): read-only values no
 * instruction changes, where GDTR (once the way), IA32_GS_BASE and
 * IA32_TSC_AUX are each one LGDT, WRMSR or SWAPGS away for code= in ring 0.
 * A limit on CPUID's leaves (IA32_MISC_ENABLE[22]) only hides leaf 0BH:
 * then the initial APIC ID is matched against the low 8 bits. Before
 * trap_init, or for a CPU not registered, the boot CPU's. Never faults. */
struct trap_cpu *trap_this_cpu(void);

/* trap_halt - one HLT that a wake-up NMI always ends: when the NMI arrives
 * after the caller's last check but before the HLT executes, the NMI
 * handler moves the return address past it (else the wake-up would be
 * lost and the CPU would halt until the next one). Interrupts stay off
 * (RFLAGS.IF = 0): only NMI, SMI, INIT or #MC end the HLT (SDM Vol. 2A
 * HLT). Callers loop around it and check what they wait for. */
void trap_halt(void);

/* trap_vector_name - "#GP general protection" etc.; "INT 64" above 31 (with
 * interrupts off, only an INT instruction reaches those vectors). */
const char *trap_vector_name(uint64_t vector);

/* trap_hook - when set, called first for every vector but an NMI from the
 * hardware (exceptions, software INT n of every vector, INT 2 and INT 18
 * included: f->soft, and an external interrupt should code enable them)
 * with the trap frame, which it may change (RIP, RFLAGS, general
 * registers); it returns 1 when it handled the exception (the handler then
 * returns to the frame), 0 to let the usual handling go on. Hooks chain:
 * one set over another calls the one before for what it does not handle.
 * Used by the single-step walk of a sampling window (bench/walk.c) and by
 * the recovery from faults in the user's code (bench/code.c). Also called
 * for the NMI of the watchdog whose bound passed, with vector
 * WATCHDOG_VECTOR (kernel/watchdog.h): 1 when it stopped the code, else
 * the watchdog is armed once more. */
extern int (*trap_hook)(struct trap_frame *f);

/* trap_nmi_count - NMIs the calling CPU received since it started, less
 * the wake-up NMIs of kernel/smp.c's parking (wake_sent/wake_recv: an NMI
 * is a wake-up while fewer were received than sent). */
uint64_t trap_nmi_count(void);

/* An exception-table entry: a fault at insn resumes at resume, with
 * R11 = TRAP_FAULTED | vector. */
struct ex_entry {
	uint64_t insn, resume;
};
#define TRAP_FAULTED 0x100

/* TRAP_EX_TABLE(insn) - the asm text of one instruction (a string
 * literal) with its struct ex_entry in section .ex_table (linker.ld): a
 * fault at it resumes right after it, with R11 = TRAP_FAULTED | vector
 * (kernel/trap.c). The asm statement must hold R11 as an in-out operand,
 * 0 on entry, which then reads 0 or the fault. */
#define TRAP_EX_TABLE(insn)                                                    \
	"1: " insn "\n2:\n"                                                    \
	".pushsection .ex_table, \"a\"\n"                                      \
	".balign 8\n.quad 1b, 2b\n"                                            \
	".popsection"

/* TRAP__READ_SAFE(insn, ecx, val) - insn, which reads EDX:EAX for the
 * index in ECX (RDMSR, RDPMC), under TRAP_EX_TABLE: *val gets the value,
 * or 0 when it faulted. Evaluates to 0, or TRAP_FAULTED | vector. */
#define TRAP__READ_SAFE(insn, ecx, val)                                        \
	({                                                                     \
		uint32_t lo_ = 0, hi_ = 0;                                     \
		register uint64_t fault_ __asm__("r11") = 0;                   \
		__asm__ volatile(TRAP_EX_TABLE(insn)                           \
				 : "+a"(lo_), "+d"(hi_), "+r"(fault_)          \
				 : "c"(ecx)                                    \
				 : "memory");                                  \
		*(val) = fault_ ? 0 : ((uint64_t)hi_ << 32) | lo_;             \
		(int)fault_;                                                   \
	})

/* rdmsr_safe - read MSR msr into *val (SDM Vol. 2B "RDMSR"). Returns 0, or
 * TRAP_FAULTED | vector when the instruction faulted (#GP for an MSR the
 * CPU or hypervisor does not implement); *val is then 0. */
static inline int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	return TRAP__READ_SAFE("rdmsr", msr, val);
}

/* wrmsr_safe - write val to MSR msr (SDM Vol. 2B "WRMSR"). Returns 0, or
 * TRAP_FAULTED | vector when the write faulted. */
static inline int wrmsr_safe(uint32_t msr, uint64_t val)
{
	register uint64_t fault __asm__("r11") = 0;
	__asm__ volatile(TRAP_EX_TABLE("wrmsr")
			 : "+r"(fault)
			 : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "memory");
	return (int)fault;
}

/* rdpmc_safe - read performance counter ecx (SDM Vol. 2B "RDPMC"). Returns 0,
 * or TRAP_FAULTED | vector (#GP for a bad index, #UD where unsupported). */
static inline int rdpmc_safe(uint32_t ecx, uint64_t *val)
{
	return TRAP__READ_SAFE("rdpmc", ecx, val);
}

/* trap_fault_string - "#GP" for an error from the safe accessors. */
const char *trap_fault_string(int err);

#endif

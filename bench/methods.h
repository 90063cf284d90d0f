/* bench/methods.h - the serialization sequences, defined once, side by side.
 *
 * Each sequence is assembler text (SEQ_START_* and SEQ_STOP_*); a method is
 * a (start, stop) pair. FOR_EACH_METHOD lists them and everything else
 * refers to them by name: bench/workload.h instantiates one sampling loop
 * per method and workload with the measured code inlined between the two
 * reads, as the paper asks, and nothing else there (BENCH_TSC_WINDOW).
 */
#ifndef BENCH_METHODS_H
#define BENCH_METHODS_H

#include <stdint.h>
#include "../kernel/pmu.h"

#define BENCH_INLINE static inline __attribute__((always_inline))

/* Where the start sequences put what they read, and the MSRs the counters
 * read beside a TSC method come from (bench/methods.c). The start stores its
 * reads here, with absolute addresses (the kernel lies below 2 GiB), so no
 * register is live across the window: nothing of the compiler's (a combine
 * of EDX:EAX, a spill, a copy) has a reason to be there. The stop loads them
 * after its own read and leaves the difference in a register. The two
 * stores take the place of the paper's two movs to registers (appendix
 * lines 41-46): the same number of instructions in the window. */
struct bench_window {
	uint64_t tsc; /* +0:  TSC at the start's read */
	uint64_t ins; /* +8:  instructions-retired counter at the start */
	uint64_t cyc; /* +16: core-cycle counter at the start */
};
extern struct bench_window bench_w0;
extern uint32_t bench_msr_ins, bench_msr_cyc;

/* The sequences as assembler text, each written once. A method is a start
 * and a stop; every sampling loop (bench/workload.h) is
 *
 *     asm(start)  body  asm(stop)
 *
 * with nothing else between the start's read and the stop's read. A start
 * ends with its read stored in bench_w0; a stop ends with the difference
 * in %rdx (TSC methods) or the counter differences in %rdx (instructions)
 * and %rdi (core cycles). Registers a sequence may change: SEQ_CLOBBERS.
 *
 * One deliberate difference from the paper's listings: before each CPUID we
 * set EAX = 0 (xor %eax,%eax, as Goossens' slide "Organisation générale d'une
 * mesure" does). The paper leaves EAX to whatever the compiler had there,
 * so CPUID's leaf, and with it its latency, varied from sample to sample. */
#define SEQ__SAVE_TSC "mov %%edx, bench_w0+4\n\tmov %%eax, bench_w0\n\t"
/* %rdx = (hi:lo) - bench_w0.tsc, hi and lo zero-extended 32-bit registers. */
#define SEQ__TSC_DELTA(hi, lo) \
	"shl $32, %%" hi "\n\tor %%" lo ", %%" hi "\n\tsub bench_w0, %%" hi "\n\t"

/* CPUID;RDTSC - the start of the paper's methods (paper 3.1, appendix lines
 * 41-46; 3.2.1 first block; 3.2.3 loop body). CPUID waits for all earlier
 * instructions to complete (SDM Vol. 3A 10.3 "Serializing Instructions"),
 * then RDTSC reads the counter (SDM Vol. 2B "RDTSC"). */
#define SEQ_START_CPUID_RDTSC "xor %%eax, %%eax\n\tcpuid\n\trdtsc\n\t" SEQ__SAVE_TSC

/* Method 1 stop, CPUID;RDTSC (paper 3.1, appendix lines 48-51): the same
 * sequence as the start. The CPUID inside the window is what makes this
 * method's minimum vary (paper 3.1.2). */
#define SEQ_STOP_CPUID_RDTSC "xor %%eax, %%eax\n\tcpuid\n\trdtsc\n\t" SEQ__TSC_DELTA("rdx", "rax")

/* Method 2 stop, RDTSCP;mov;mov;CPUID (paper 3.2.1). RDTSCP waits until all
 * previous instructions have executed before reading the counter (SDM
 * Vol. 2B "RDTSCP"); the CPUID after the two movs keeps later instructions
 * from starting before it. Needs CPUID.80000001H:EDX[27]. */
#define SEQ_STOP_RDTSCP_CPUID                                          \
	"rdtscp\n\tmov %%edx, %%edi\n\tmov %%eax, %%esi\n\t"           \
	"xor %%eax, %%eax\n\tcpuid\n\t" SEQ__TSC_DELTA("rdi", "rsi") \
	"mov %%rdi, %%rdx\n\t"

/* Method 3 stop, mov %cr0,%rax; mov %rax,%cr0; RDTSC (paper 3.2.3): a move to
 * a control register is serializing (SDM Vol. 3A 10.3), for CPUs without
 * RDTSCP. Ring 0 only, which we are. */
#define SEQ_STOP_CR0_RDTSC \
	"mov %%cr0, %%rax\n\tmov %%rax, %%cr0\n\trdtsc\n\t" SEQ__TSC_DELTA("rdx", "rax")

/* The sequences the SDM recommends today (Vol. 2B "RDTSC" and "RDTSCP"):
 * "If software requires RDTSC to be executed only after all previous
 * instructions have executed and all previous loads are globally visible, it
 * can execute LFENCE immediately before RDTSC", and "if software requires
 * RDTSC[P] to be executed prior to execution of any subsequent instruction,
 * it can execute LFENCE immediately after". LFENCE orders execution
 * (dispatch-serializing) on Intel; on AMD only where CPUID 80000021H:EAX[2]
 * says so or DE_CFG (MSR C001_1029h) bit 1 is set (kernel/machine.c). */
#define SEQ_START_LFENCE_RDTSC "lfence\n\trdtsc\n\t" SEQ__SAVE_TSC

/* Stop: RDTSCP waits for the measured code; the LFENCE after it keeps later
 * instructions from starting before the read. */
#define SEQ_STOP_RDTSCP_LFENCE "rdtscp\n\tlfence\n\t" SEQ__TSC_DELTA("rdx", "rax")

/* Stop without RDTSCP: LFENCE waits for the measured code, then RDTSC. */
#define SEQ_STOP_LFENCE_RDTSC "lfence\n\trdtsc\n\t" SEQ__TSC_DELTA("rdx", "rax")

/* SERIALIZE (SDM Vol. 2B "SERIALIZE"; CPUID.(EAX=07H,ECX=0):EDX[14]): the
 * architectural serializing instruction without CPUID's side effects,
 * around both reads as CPUID is in method 1. Encoded as bytes (0F 01 E8)
 * for assemblers that do not know it. */
#define SEQ__SERIALIZE ".byte 0x0f, 0x01, 0xe8\n\t" /* serialize */
#define SEQ_START_SERIALIZE_RDTSC SEQ__SERIALIZE "rdtsc\n\t" SEQ__SAVE_TSC
#define SEQ_STOP_SERIALIZE_RDTSC SEQ__SERIALIZE "rdtsc\n\t" SEQ__TSC_DELTA("rdx", "rax")

/* Goossens' fixed-counter method (slides "Organisation générale d'une
 * mesure", "Le compteur CTR1"): read the counters, then xor eax,eax; CPUID
 * ... xor eax,eax; CPUID, then read them again. CTR0 (IA32_FIXED_CTR0, MSR
 * 309H) counts instructions retired, CTR1 (IA32_FIXED_CTR1, 30AH) unhalted
 * core cycles (SDM Vol. 3B "Fixed-Function Performance Counters"). Read
 * with RDMSR as on the slides, or with RDPMC (ECX = 4000000xH), which is
 * cheaper. The stop reads in the reverse order of the start, so each
 * counter's window nests the other's. Differences are raw: they are taken
 * modulo the counter width after the window (kernel/pmu.h).
 *
 * SEQ__CTR_START(op, ins, cyc): op (rdmsr or rdpmc) of ECX = ins, then cyc,
 * each stored in bench_w0. SEQ__CTR_STOP: cyc, kept in EDI:ESI, then ins;
 * then %rdx = instructions and %rdi = core cycles since the start. The ECX
 * operand is "$0x309" or, beside a TSC method, the MSR the boot check
 * chose ("bench_msr_ins", an absolute memory operand). */
#define SEQ__CTR_START(op, ins, cyc)                                              \
	"mov " ins ", %%ecx\n\t" op "\n\tmov %%eax, bench_w0+8\n\tmov %%edx, bench_w0+12\n\t" \
	"mov " cyc ", %%ecx\n\t" op "\n\tmov %%eax, bench_w0+16\n\tmov %%edx, bench_w0+20\n\t"
#define SEQ__CTR_STOP(op, ins, cyc)                                               \
	"mov " cyc ", %%ecx\n\t" op "\n\tmov %%eax, %%esi\n\tmov %%edx, %%edi\n\t"  \
	"mov " ins ", %%ecx\n\t" op "\n\t"                                         \
	"shl $32, %%rdx\n\tor %%rax, %%rdx\n\tsub bench_w0+8, %%rdx\n\t"           \
	"shl $32, %%rdi\n\tor %%rsi, %%rdi\n\tsub bench_w0+16, %%rdi\n\t"
#define SEQ__CPUID "xor %%eax, %%eax\n\tcpuid\n\t"

#define SEQ_START_RDMSR_CPUID SEQ__CTR_START("rdmsr", "$0x309", "$0x30a") SEQ__CPUID
#define SEQ_STOP_CPUID_RDMSR SEQ__CPUID SEQ__CTR_STOP("rdmsr", "$0x309", "$0x30a")
#define SEQ_START_RDPMC_CPUID SEQ__CTR_START("rdpmc", "$0x40000000", "$0x40000001") SEQ__CPUID
#define SEQ_STOP_CPUID_RDPMC SEQ__CPUID SEQ__CTR_STOP("rdpmc", "$0x40000000", "$0x40000001")

/* The counters read beside a TSC method, outside its TSC window: before
 * the start sequence and after the stop sequence (whose difference is then
 * moved to %rbx), with RDMSR of the MSRs the boot check chose (fixed
 * CTR0/CTR1, or IRPERF/APERF). */
#define SEQ_BESIDE_START SEQ__CTR_START("rdmsr", "bench_msr_ins", "bench_msr_cyc")
#define SEQ_BESIDE_STOP "mov %%rdx, %%rbx\n\t" SEQ__CTR_STOP("rdmsr", "bench_msr_ins", "bench_msr_cyc")

/* The events of a pass (bench/events.h, bench/evrun.h) read beside a TSC
 * method, outside its TSC window: SEQ_EV_START before the start sequence,
 * SEQ_EV_STOP after the stop sequence (whose TSC difference it first moves
 * to %rbx, as SEQ_BESIDE_STOP does). Each reads BENCH_EV_SLOTS counters
 * with RDPMC (SDM Vol. 2B "RDPMC"), ECX from bench_ev_ecx[s] (absolute
 * memory operands, as bench_msr_ins), unrolled: the start in slot order,
 * each value stored to bench_ev0[s]; the stop in the reverse order, each
 * value stored to bench_ev_delta[s], so every slot's window nests the next
 * one's and the TSC window lies inside all of them. Between two reads only
 * the load of ECX and the two stores of EDX:EAX; the differences
 * (bench_ev_delta[s] - bench_ev0[s], raw: taken modulo the counter's width
 * after the window) are computed after the last read. Slots beyond the
 * pass's events read slot 0's counter again (events_pass_begin), so every
 * window reads the same number of counters and costs the same: 2 x
 * BENCH_EV_SLOTS RDPMC per sample, all outside the TSC window.
 * In the fake PMU test build (BENCH_FAKE_PMU: PMU MSRs in memory) RDPMC is
 * RDTSC (kernel/pmu.h PMU_RDPMC_INSN), which under QEMU -icount counts
 * instructions. */
#define SEQ__RDPMC PMU_RDPMC_INSN
#define SEQ__EV_READ(s, to)                                                    \
	"mov bench_ev_ecx+4*" #s ", %%ecx\n\t" SEQ__RDPMC "\n\t"                \
	"mov %%eax, " to "+8*" #s "\n\tmov %%edx, " to "+8*" #s "+4\n\t"
#define SEQ__EV_DIFF(s)                                                        \
	"mov bench_ev_delta+8*" #s ", %%rax\n\tsub bench_ev0+8*" #s ", %%rax\n\t" \
	"mov %%rax, bench_ev_delta+8*" #s "\n\t"
#define SEQ__EV_UP(X, a)                                                                   \
	X(0, a) X(1, a) X(2, a) X(3, a) X(4, a) X(5, a) X(6, a) X(7, a) X(8, a) X(9, a) X(10, a) \
	X(11, a) X(12, a) X(13, a) X(14, a) X(15, a)
#define SEQ__EV_DOWN(X, a)                                                                 \
	X(15, a) X(14, a) X(13, a) X(12, a) X(11, a) X(10, a) X(9, a) X(8, a) X(7, a) X(6, a) \
	X(5, a) X(4, a) X(3, a) X(2, a) X(1, a) X(0, a)
#define SEQ__EV_DIFF1(s, a) SEQ__EV_DIFF(s)
#define SEQ__EV_SLOTS 16 /* the reads above: BENCH_EV_SLOTS (bench/events.h) */
#define SEQ_EV_START SEQ__EV_UP(SEQ__EV_READ, "bench_ev0")
#define SEQ_EV_STOP                                                            \
	"mov %%rdx, %%rbx\n\t" SEQ__EV_DOWN(SEQ__EV_READ, "bench_ev_delta") \
	SEQ__EV_UP(SEQ__EV_DIFF1, _)
extern uint32_t bench_ev_ecx[SEQ__EV_SLOTS];
extern uint64_t bench_ev0[SEQ__EV_SLOTS], bench_ev_delta[SEQ__EV_SLOTS];

/* Window markers: a zero-length label recorded in the section bench_marks
 * as (address, kind), so that a test can check in the built kernel that
 * each window holds nothing but its body (tests/boot/check_windows.py),
 * and the single-step walk (bench/walk.c) can tell the body's instructions
 * from the rest. */
#define MARK_START_END 1  /* after a start sequence */
#define MARK_BODY_BEGIN 2 /* before the body */
#define MARK_BODY_END 3   /* after the body */
#define MARK_STOP_BEGIN 4 /* before a stop sequence */
#define MARK__STR2(k) #k
#define MARK__STR(k) MARK__STR2(k)
#define SEQ_MARK(kind)                                                         \
	"881:\n\t.pushsection bench_marks, \"a\"\n\t.balign 8\n\t.quad 881b, " \
	MARK__STR(kind) "\n\t.popsection\n\t"
struct bench_mark {
	uint64_t addr, kind;
};
extern const struct bench_mark __start_bench_marks[], __stop_bench_marks[];

/* What every sequence may change. */
#define SEQ_CLOBBERS "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "cc", "memory"

/* The window: start, body, stop. The body is bracketed by markers that are
 * compiler barriers for memory (so its loads and stores stay inside); the
 * stop's results come out in registers only after its read. The variadic
 * part is the stop's operands and clobbers. */
#define BENCH__WINDOW(start, body, stop, ...)                                         \
	do {                                                                          \
		__asm__ volatile(start SEQ_MARK(MARK_START_END) ::: SEQ_CLOBBERS);     \
		__asm__ volatile(SEQ_MARK(MARK_BODY_BEGIN) ::: "memory");             \
		body;                                                                 \
		__asm__ volatile(SEQ_MARK(MARK_BODY_END) ::: "memory");               \
		__asm__ volatile(SEQ_MARK(MARK_STOP_BEGIN) stop __VA_ARGS__);          \
	} while (0)
/* A TSC method: the difference in TSC ticks in delta. */
#define BENCH_TSC_WINDOW(start, body, stop, delta)                                    \
	BENCH__WINDOW(start, body, stop, : "=d"(delta) : : "rax", "rbx", "rcx", "rsi", "rdi", "cc", "memory")
/* A counter method: the raw counter differences in ins and cyc. */
#define BENCH_CTR_WINDOW(start, body, stop, ins, cyc)                                 \
	BENCH__WINDOW(start, body, stop, : "=d"(ins), "=D"(cyc) : : "rax", "rbx", "rcx", "rsi", "cc", "memory")
/* A TSC method with the counters beside it. */
#define BENCH_BESIDE_WINDOW(start, body, stop, delta, ins, cyc)                       \
	BENCH__WINDOW(SEQ_BESIDE_START start, body, stop SEQ_BESIDE_STOP,                \
		      : "=b"(delta), "=d"(ins), "=D"(cyc) : : "rax", "rcx", "rsi", "cc", "memory")

/* A TSC method with the events of a pass beside it: the TSC difference in
 * delta, the events' in bench_ev_delta[]. */
#define BENCH_EV_WINDOW(start, body, stop, delta)                                    \
	BENCH__WINDOW(SEQ_EV_START start, body, stop SEQ_EV_STOP,                      \
		      : "=b"(delta) : : "rax", "rcx", "rdx", "rsi", "rdi", "cc", "memory")

/* The TSC methods: X(arg, name, start, stop). The paper's three first, in
 * its order, then the modern ones. The counter methods: the same shape,
 * their stop leaves two differences. Together, in this order, they give
 * enum method_id. */
#define FOR_EACH_CTR_METHOD(X, arg)                                           \
	X(arg, ctr_rdmsr, SEQ_START_RDMSR_CPUID, SEQ_STOP_CPUID_RDMSR)        \
	X(arg, ctr_rdpmc, SEQ_START_RDPMC_CPUID, SEQ_STOP_CPUID_RDPMC)

#define FOR_EACH_METHOD(X, arg) FOR_EACH_TSC_METHOD(X, arg) FOR_EACH_CTR_METHOD(X, arg)

#define FOR_EACH_TSC_METHOD(X, arg)                                                   \
	X(arg, cpuid, SEQ_START_CPUID_RDTSC, SEQ_STOP_CPUID_RDTSC)                    \
	X(arg, rdtscp, SEQ_START_CPUID_RDTSC, SEQ_STOP_RDTSCP_CPUID)                  \
	X(arg, cr0, SEQ_START_CPUID_RDTSC, SEQ_STOP_CR0_RDTSC)                        \
	X(arg, lfence_rdtscp, SEQ_START_LFENCE_RDTSC, SEQ_STOP_RDTSCP_LFENCE)         \
	X(arg, lfence, SEQ_START_LFENCE_RDTSC, SEQ_STOP_LFENCE_RDTSC)                 \
	X(arg, serialize, SEQ_START_SERIALIZE_RDTSC, SEQ_STOP_SERIALIZE_RDTSC)

/* How many of the methods are the paper's; the first counter method. */
#define PAPER_METHODS 3
#define METHOD_FIRST_CTR METHOD_ctr_rdmsr
#define method_is_ctr(m) ((m) >= METHOD_FIRST_CTR)

#define METHOD__ENUM(arg, name, start, stop) METHOD_##name,
enum method_id { FOR_EACH_METHOD(METHOD__ENUM, _) METHOD_COUNT };

struct cpu_info;

/* What the report says about a method. */
struct method_desc {
	const char *name;     /* the boot parameter's word: cpuid, rdtscp, cr0 */
	const char *sequence; /* the instructions around the measured code */
	const char *source;   /* paper section */
};

extern const struct method_desc methods[METHOD_COUNT];

/* method_unavailable - NULL when method m can run on this CPU, else one
 * line saying why not (which CPUID bit, or what the counter check found). */
const char *method_unavailable(enum method_id m, const struct cpu_info *cpu);

#endif

/* bench/methods.h - the serialization sequences, defined once, side by side.
 *
 * Each start_* / stop_* function is one inline-assembly block with exact
 * clobbers, returning the TSC in ticks. A method is a (start, stop) pair;
 * FOR_EACH_METHOD lists them and everything else refers to them by name
 * (bench/workload.h instantiates one sampling loop per method and workload,
 * so the measured code is inlined between the two reads, as the paper asks).
 *
 * One deliberate difference from the paper's listings: before each CPUID we
 * set EAX = 0 (xor %eax,%eax, as Goossens' slide "Organisation générale d'une
 * mesure" does). The paper leaves EAX to whatever the compiler had there,
 * so CPUID's leaf, and with it its latency, varied from sample to sample.
 */
#ifndef BENCH_METHODS_H
#define BENCH_METHODS_H

#include <stdint.h>

#define BENCH_INLINE static inline __attribute__((always_inline))

/* CPUID;RDTSC - the start of every method (paper 3.1, appendix lines 41-46;
 * 3.2.1 first block; 3.2.3 loop body). CPUID waits for all earlier
 * instructions to complete (SDM Vol. 3A 10.3 "Serializing Instructions"),
 * then RDTSC reads the counter (SDM Vol. 2B "RDTSC"). */
BENCH_INLINE uint64_t start_cpuid_rdtsc(void)
{
	uint32_t hi, lo;
	__asm__ volatile("xor %%eax, %%eax\n\t"
			 "cpuid\n\t"
			 "rdtsc\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rbx", "rcx", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Method 1 stop, CPUID;RDTSC (paper 3.1, appendix lines 48-51): the same
 * sequence as the start. The CPUID inside the window is what makes this
 * method's minimum vary (paper 3.1.2). */
BENCH_INLINE uint64_t stop_cpuid_rdtsc(void)
{
	return start_cpuid_rdtsc();
}

/* Method 2 stop, RDTSCP;mov;mov;CPUID (paper 3.2.1). RDTSCP waits until all
 * previous instructions have executed before reading the counter (SDM
 * Vol. 2B "RDTSCP"); the CPUID after the two movs keeps later instructions
 * from starting before it. Needs CPUID.80000001H:EDX[27]. */
BENCH_INLINE uint64_t stop_rdtscp_cpuid(void)
{
	uint32_t hi, lo;
	__asm__ volatile("rdtscp\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 "xor %%eax, %%eax\n\t"
			 "cpuid\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rbx", "rcx", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Method 3 stop, mov %cr0,%rax; mov %rax,%cr0; RDTSC (paper 3.2.3): a move to
 * a control register is serializing (SDM Vol. 3A 10.3), for CPUs without
 * RDTSCP. Ring 0 only, which we are. */
BENCH_INLINE uint64_t stop_cr0_rdtsc(void)
{
	uint32_t hi, lo;
	__asm__ volatile("mov %%cr0, %%rax\n\t"
			 "mov %%rax, %%cr0\n\t"
			 "rdtsc\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The sequences the SDM recommends today (Vol. 2B "RDTSC" and "RDTSCP"):
 * "If software requires RDTSC to be executed only after all previous
 * instructions have executed and all previous loads are globally visible, it
 * can execute LFENCE immediately before RDTSC", and "if software requires
 * RDTSC[P] to be executed prior to execution of any subsequent instruction,
 * it can execute LFENCE immediately after". LFENCE orders execution
 * (dispatch-serializing) on Intel; on AMD only where CPUID 80000021H:EAX[2]
 * says so or DE_CFG (MSR C001_1029h) bit 1 is set (kernel/quiet.c). */
BENCH_INLINE uint64_t start_lfence_rdtsc(void)
{
	uint32_t hi, lo;
	__asm__ volatile("lfence\n\t"
			 "rdtsc\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Stop: RDTSCP waits for the measured code; the LFENCE after it keeps later
 * instructions from starting before the read. */
BENCH_INLINE uint64_t stop_rdtscp_lfence(void)
{
	uint32_t hi, lo;
	__asm__ volatile("rdtscp\n\t"
			 "lfence\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rcx", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Stop without RDTSCP: LFENCE waits for the measured code, then RDTSC. */
BENCH_INLINE uint64_t stop_lfence_rdtsc(void)
{
	return start_lfence_rdtsc();
}

/* SERIALIZE (SDM Vol. 2B "SERIALIZE"; CPUID.(EAX=07H,ECX=0):EDX[14]): the
 * architectural serializing instruction without CPUID's side effects,
 * around both reads as CPUID is in method 1. Encoded as bytes (0F 01 E8)
 * for assemblers that do not know it. */
BENCH_INLINE uint64_t start_serialize_rdtsc(void)
{
	uint32_t hi, lo;
	__asm__ volatile(".byte 0x0f, 0x01, 0xe8\n\t" /* serialize */
			 "rdtsc\n\t"
			 "mov %%edx, %0\n\t"
			 "mov %%eax, %1\n\t"
			 : "=r"(hi), "=r"(lo)
			 :
			 : "rax", "rdx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

BENCH_INLINE uint64_t stop_serialize_rdtsc(void)
{
	return start_serialize_rdtsc();
}

/* Goossens' fixed-counter method (slides "Organisation générale d'une
 * mesure", "Le compteur CTR1"): read the counters, then xor eax,eax; CPUID
 * ... xor eax,eax; CPUID, then read them again. CTR0 (IA32_FIXED_CTR0, MSR
 * 309H) counts instructions retired, CTR1 (IA32_FIXED_CTR1, 30AH) unhalted
 * core cycles (SDM Vol. 3B "Fixed-Function Performance Counters"). Read
 * with RDMSR as on the slides, or with RDPMC (ECX = 4000000xH), which is
 * cheaper. The stop reads in the reverse order of the start, so each
 * counter's window nests the other's. Values are raw: deltas are taken
 * modulo the counter width after the window (kernel/pmu.h). */
struct ctr_pair {
	uint64_t ins, cyc;
};

/* CTR__READ2 reads counter a then b (op: rdmsr with ECX = MSR, or rdpmc
 * with ECX = 4000000xH) into %0:%1 and %2:%3; CTR__SERIALIZE is Goossens'
 * "xorl %eax,%eax; cpuid". */
#define CTR__READ2(op, a, b)                                                   \
	"mov $" a ", %%ecx\n\t" op "\n\tmov %%eax, %0\n\tmov %%edx, %1\n\t"       \
	"mov $" b ", %%ecx\n\t" op "\n\tmov %%eax, %2\n\tmov %%edx, %3\n\t"
#define CTR__SERIALIZE "xor %%eax, %%eax\n\tcpuid\n\t"
#define CTR__SEQ(name, text, ins_first)                                        \
	BENCH_INLINE struct ctr_pair name(void)                                \
	{                                                                      \
		uint32_t a_lo, a_hi, b_lo, b_hi;                               \
		__asm__ volatile(text                                          \
				 : "=r"(a_lo), "=r"(a_hi), "=r"(b_lo), "=r"(b_hi) \
				 :                                             \
				 : "rax", "rbx", "rcx", "rdx", "memory");      \
		uint64_t a = ((uint64_t)a_hi << 32) | a_lo;                    \
		uint64_t b = ((uint64_t)b_hi << 32) | b_lo;                    \
		struct ctr_pair p = { ins_first ? a : b, ins_first ? b : a };  \
		return p;                                                      \
	}

CTR__SEQ(start_rdmsr_cpuid, CTR__READ2("rdmsr", "0x309", "0x30a") CTR__SERIALIZE, 1)
CTR__SEQ(stop_cpuid_rdmsr, CTR__SERIALIZE CTR__READ2("rdmsr", "0x30a", "0x309"), 0)
CTR__SEQ(start_rdpmc_cpuid, CTR__READ2("rdpmc", "0x40000000", "0x40000001") CTR__SERIALIZE, 1)
CTR__SEQ(stop_cpuid_rdpmc, CTR__SERIALIZE CTR__READ2("rdpmc", "0x40000001", "0x40000000"), 0)

/* Counters read beside a TSC method, outside its TSC window (before the
 * start sequence and after the stop sequence), with RDMSR of the MSRs the
 * boot check chose (fixed CTR0/CTR1, or IRPERF/APERF). */
BENCH_INLINE uint64_t rdmsr_in_window(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The TSC methods: X(arg, name, start, stop). The paper's three first, in
 * its order, then the modern ones. The counter methods: the same shape,
 * their start and stop return a struct ctr_pair. Together, in this order,
 * they give enum method_id. */
#define FOR_EACH_CTR_METHOD(X, arg)                                   \
	X(arg, ctr_rdmsr, start_rdmsr_cpuid, stop_cpuid_rdmsr)        \
	X(arg, ctr_rdpmc, start_rdpmc_cpuid, stop_cpuid_rdpmc)

#define FOR_EACH_METHOD(X, arg) FOR_EACH_TSC_METHOD(X, arg) FOR_EACH_CTR_METHOD(X, arg)

#define FOR_EACH_TSC_METHOD(X, arg)                                   \
	X(arg, cpuid, start_cpuid_rdtsc, stop_cpuid_rdtsc)            \
	X(arg, rdtscp, start_cpuid_rdtsc, stop_rdtscp_cpuid)          \
	X(arg, cr0, start_cpuid_rdtsc, stop_cr0_rdtsc)                \
	X(arg, lfence_rdtscp, start_lfence_rdtsc, stop_rdtscp_lfence) \
	X(arg, lfence, start_lfence_rdtsc, stop_lfence_rdtsc)         \
	X(arg, serialize, start_serialize_rdtsc, stop_serialize_rdtsc)

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

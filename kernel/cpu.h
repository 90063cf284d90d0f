/* kernel/cpu.h - small typed helpers for the instructions the kernel uses.
 *
 * Each wraps one instruction with exact clobbers. None of these is used inside
 * a measured window: the serialization sequences are in bench/methods.h.
 * Fault-safe MSR access (rdmsr_safe/wrmsr_safe) is in kernel/trap.h.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* cpuid - execute CPUID with EAX = leaf, ECX = subleaf (SDM Vol. 2A "CPUID").
 * Never faults in ring 0. Leaves above the maximum return the data of the
 * highest basic leaf on Intel: callers check the maximum leaf first. */
static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

/* cpuid_into - cpuid() in the shape of lib/cpuinfo.h's cpuid_fn (ctx
 * unused): the callback the kernel hands to the decoders of lib/ (cpuinfo,
 * cpus, tscfreq, pmu), which the host tests feed real CPUs' dumps. */
static inline void cpuid_into(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
	struct cpuid_regs r = cpuid(leaf, subleaf);
	(void)ctx;
	out[0] = r.eax;
	out[1] = r.ebx;
	out[2] = r.ecx;
	out[3] = r.edx;
}

/* rdtsc - the time-stamp counter, in TSC ticks (SDM Vol. 2B "RDTSC").
 * Not ordered with surrounding instructions: for measurement use the
 * sequences of bench/methods.h. */
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* rdmsr, wrmsr - an MSR that is known to exist (a #GP otherwise: see
 * rdmsr_safe in kernel/trap.h for one that may not). SDM Vol. 2B RDMSR. */
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline uint64_t read_cr0(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_rflags(void)
{
	uint64_t v;
	__asm__ volatile("pushfq; popq %0" : "=r"(v));
	return v;
}

static inline void cli(void)
{
	__asm__ volatile("cli" ::: "memory");
}

/* halt_forever - interrupts off, HLT in a loop. An NMI wakes HLT; the loop
 * halts again. */
static inline __attribute__((noreturn)) void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

/* io_delay - about 1 us: a write to the unused POST port 0x80, as Linux does. */
static inline void io_delay(void)
{
	outb(0x80, 0);
}

#endif

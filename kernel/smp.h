/* kernel/smp.h - the other CPUs: started, parked, and lent one at a time.
 *
 * The CPUs are the MADT's processor entries (kernel/acpi.c), numbered in
 * MADT order from 0 (disabled entries keep their number); the boot CPU is
 * the one whose APIC ID is its own (CPUID.0BH:EDX, else CPUID.1:EBX[31:24]).
 * smp_start() starts each other enabled or online-capable CPU with
 * INIT-SIPI-SIPI (SDM Vol. 3A 9.4.4.1, the universal start-up algorithm's
 * delays: 10 ms after INIT, 200 us after each start-up IPI), one at a time,
 * through the real-mode trampoline of boot/trampoline.asm, into long mode on
 * the kernel's page tables with its own stack, GDT and TSS (IST stacks for
 * NMI, #DF and #MC) and the shared IDT (kernel/trap.h). A CPU that has not
 * answered 2 s after its INIT is reported, sent INIT again (it stays in the
 * wait-for-SIPI state) and left alone.
 *
 * Parking: every CPU that is not running something waits, interrupts off,
 * on a 128-byte line of its own that no other CPU touches until it wakes
 * it: with MONITOR/MWAIT on that line (CPUID.1:ECX[3]; SDM Vol. 2B MWAIT,
 * Vol. 3A 10.10.4) when available and there is no hypervisor (QEMU TCG's
 * MWAIT returns at once when there is more than one CPU, so it would spin),
 * else with HLT, woken by an NMI IPI (the one interrupt HLT with
 * RFLAGS.IF = 0 answers to that needs no INIT; kernel/trap.c counts such
 * wake-ups apart from the NMIs that disturb a measurement). smp.park=
 * overrides the choice. No CPU ever spins on a line another CPU writes
 * while it measures.
 *
 * Timing uses the TSC: at the measured rate plus 1/16, or, without one,
 * at 10 GHz, more than any TSC runs, so every delay is at least as long
 * as the SDM asks and every wait is bounded.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdint.h>
#include "multiboot.h"
#include "probe.h"
#include "../lib/acpi.h"

#define SMP_MAX_CPUS ACPI_MAX_CPUS

/* One CPU, as smp_start() found and left it. */
struct smp_cpu_info {
	int number;           /* MADT order, 0..smp_cpu_count()-1 */
	uint32_t apic_id;     /* the MADT's (x2)APIC ID */
	int boot;             /* 1: the boot CPU */
	int online;           /* 1: the boot CPU, or started and parked */
	const char *why;      /* not online: why, one phrase; NULL when online */
	uint64_t start_ticks; /* TSC ticks from its INIT to its answer; 0 for the boot CPU
			       * and CPUs not started */
};

/* smp_start - read the MADT's CPUs and, when start is 1, start the other
 * ones (see above), printing the smp: section (one line per CPU: its APIC
 * ID, started and in how long, or why not) and an "smp" record. bi: the
 * memory map, for a free page below 1 MiB for the trampoline; c: the boot
 * CPU; tsc_hz: the TSC rate, 0 when unknown. Call after quiet_timers()
 * (the xAPIC page is then uncacheable) and acpi_init(). With start 0 it
 * prints nothing and every other CPU is "not started". Never fails: what
 * cannot be done is one line and the run goes on on the boot CPU. park:
 * smp.park= (kernel/config.h enum smp_park: how a waiting CPU waits);
 * silent: test.smp=silent, the last CPU is left without its start-up
 * IPIs (a CPU that never answers). */
void smp_start(const struct boot_info *bi, const struct cpu_info *c, uint64_t tsc_hz, int start, int park,
	       int silent);

/* smp_cpu_count - the CPUs smp_start() listed: the MADT's entries, or 1
 * (the boot CPU) without a usable MADT. */
int smp_cpu_count(void);

/* smp_cpu - CPU n (0 <= n < smp_cpu_count()), else NULL. */
const struct smp_cpu_info *smp_cpu(int n);

/* smp_boot_cpu, smp_this_cpu - the boot CPU's number; the calling CPU's. */
int smp_boot_cpu(void);
int smp_this_cpu(void);

/* smp_run_on - run fn(arg) on CPU cpu while every other CPU, the caller
 * included, is parked; return when fn has returned. fn runs with
 * interrupts off on that CPU's own 64 KiB stack; an exception there is
 * reported with its CPU number and APIC ID and ends the run with
 * EXIT_FAILURE_CODE, as on the boot CPU. There is no time limit: fn may be
 * a whole measurement. Returns 0, or -1 (nothing run) when cpu is not
 * online. On the calling CPU itself fn simply runs. */
int smp_run_on(int cpu, void (*fn)(void *), void *arg);

/* smp_post, smp_wait - the two halves of smp_run_on for a caller that
 * runs something of its own meanwhile (kernel/tscsync.c): smp_post starts
 * fn(arg) on cpu (online, not the caller) and returns a token (the
 * caller's park-line count before it); smp_wait, on the same CPU, parks
 * it until that fn has returned. */
uint64_t smp_post(int cpu, void (*fn)(void *), void *arg);
void smp_wait(uint64_t token);

/* smp_ticks_us - TSC ticks in at least us microseconds (see above). */
uint64_t smp_ticks_us(uint64_t us);

/* smp_test - test only (test.smp=): run, with smp_run_on, a function on
 * each online AP that reports its CPU number and APIC ID (CPUID) and
 * stack, or make the last online AP execute UD2 (test.smp=fault). */
void smp_test(int what);

#endif

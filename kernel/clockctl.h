/* kernel/clockctl.h - turbo and the core clock under the experiment's
 * control (turbo=keep|off|on, pstate=keep|base|max|RATIO; README "Boot
 * parameters"): Intel IA32_MISC_ENABLE[38], IA32_PERF_CTL (ratio in bits
 * 15:8, IDA disengage bit 32), HWP (IA32_HWP_REQUEST minimum = maximum =
 * desired) when IA32_PM_ENABLE says it is on; AMD HWCR[25] CpbDis and the
 * P-state control MSR (PPR). The decisions per vendor, family and model
 * are lib/clockctl.h's (host-tested); this file writes, reads back, and
 * measures the effect: the core clock over a calibrated loop from
 * APERF/MPERF (CPUID.6:ECX[0]) or core cycles against the TSC, before and
 * after. */
#ifndef KERNEL_CLOCKCTL_H
#define KERNEL_CLOCKCTL_H

struct config;
struct cpu_info;

/* clockctl_apply - one line and one record per MSR written (written, read
 * back, taken or not), then the core clock before and after ("core clock:
 * 2.90 GHz before, 2.40 GHz = TSC x 1.000 after turbo=off") or why it
 * cannot be measured (the CPUID bit, the counter's state: QEMU TCG has
 * neither APERF/MPERF nor fixed counters). turbo=keep pstate=keep: nothing
 * written, the clock measured once and said. The boot CPU's MSRs only:
 * with cpus= a line says so (IA32_PERF_CTL, IA32_HWP_REQUEST and AMD's
 * P-state control are per logical CPU). The loop: 2^22 dec/jnz iterations
 * (about 1.4 ms at 3 GHz) after one unmeasured run of it, twice when
 * something was written. Called by bench/main.c after pmu_print (the TSC
 * rate is known: clocks_tsc_rate); never faults (rdmsr_safe, wrmsr_safe). */
void clockctl_apply(const struct config *cfg, const struct cpu_info *cpu);

#endif

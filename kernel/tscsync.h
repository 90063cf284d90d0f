/* kernel/tscsync.h - the TSC across CPUs: is it one clock?
 *
 * A warp test between the boot CPU and each online AP, after Linux's
 * check_tsc_sync_source/target (arch/x86/kernel/tsc_sync.c): the two CPUs
 * meet at a barrier, then for 20 ms of their own TSC (at most 10,000,000
 * rounds each) take turns through one shared line: under a spinlock, read
 * the TSC value the other left there, read their own TSC (MFENCE;LFENCE;
 * RDTSC, which waits for every earlier instruction and store: SDM Vol. 2B
 * RDTSC) and leave it. A value lower than the one left before it is a
 * backward step, a "warp": the two TSCs disagree by at least that much.
 * Then each online CPU's IA32_TSC_ADJUST (MSR 3BH, where
 * CPUID.(EAX=07H,ECX=0):EBX[1] says it exists; SDM Vol. 3B 18.17.3): the
 * value firmware or a hypervisor added to that CPU's TSC; CPUs whose
 * values differ count at different offsets unless their TSCs were written
 * to compensate. Lines "tsc sync:" and "tsc adjust:", records "tsc_sync"
 * and "tsc_adjust". Every wait is bounded (kernel/smp.h).
 */
#ifndef KERNEL_TSCSYNC_H
#define KERNEL_TSCSYNC_H

#include "probe.h"

/* tscsync_check - the warp test against each online AP, then every online
 * CPU's IA32_TSC_ADJUST; one clear line when there is no AP or no MSR.
 * Call after smp_start(). */
void tscsync_check(const struct cpu_info *c);

#endif

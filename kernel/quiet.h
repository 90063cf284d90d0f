/* kernel/quiet.h - a quiet, known machine: no timer left running, and the
 * facts about the CPU that decide whether its figures can be trusted
 * (kernel/machine.h, included here: quiet_cpu_report and the microcode,
 * SMI and ratio reads).
 *
 * Interrupts are off for the whole run and the 8259s are masked
 * (kernel/pic.h), so no timer can interrupt a measurement. Stopping the
 * timers still matters: under a hypervisor every tick of a running PIT or
 * APIC timer costs host time (a VM exit, or steal time) whether or not the
 * guest takes the interrupt; and a timer left armed by the firmware or the
 * loader is state nobody chose. Every MSR access goes through the safe
 * accessors (kernel/trap.h): an MSR a CPU or hypervisor lacks is reported
 * as "#GP", never fatal.
 *
 * SDM sections are numbered as in the 2023 and later editions (Vol. 3A
 * chapter 11 "APIC", chapter 12 "Memory Cache Control"; one less in older
 * editions). MSR addresses and layouts: SDM Vol. 4 (kernel/msr.h).
 */
#ifndef KERNEL_QUIET_H
#define KERNEL_QUIET_H

#include "machine.h"
#include "probe.h"

/* quiet_timers - stop every timer that could be pending, printing one
 * "quiet:" line per step done or skipped, with the reason, then a "quiet"
 * record:
 *  1. the 8259 masks are read back (pic_mask_all set them);
 *  2. PIT channel 0 is stopped (pit_stop_channel0) and read back;
 *  3. the local APIC, when present (CPUID.1:EDX[9]) and globally enabled
 *     (IA32_APIC_BASE, MSR 1BH, bit 11; SDM Vol. 3A 11.4.4), in xAPIC mode
 *     (MMIO at the base in that MSR) or x2APIC mode (bit 10; MSRs 800H +
 *     offset/16, SDM Vol. 3A 11.12): its page made uncacheable, every LVT
 *     entry it has masked, its timer's initial count written 0, IRR and
 *     ISR counted (lapic_quiet, kernel/lapic.h);
 *  4. IA32_TSC_DEADLINE (MSR 6E0H) is written 0, which disarms a deadline
 *     (SDM Vol. 3A 11.5.4.1), when CPUID.1:ECX[24] says it exists
 *     (lapic_deadline_disarm).
 * Masking LINT1 would block the external NMIs wired to it (chipset NMI
 * button, SERR, IOCHK): LINT1 wired for NMI is left as it is; other NMIs
 * (the APIC's own, IPIs) still arrive; all are counted (trap_nmi_count).
 * Never faults. */
void quiet_timers(const struct cpu_info *c);

#endif

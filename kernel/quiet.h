/* kernel/quiet.h - a quiet, known machine: no timer left running, and the
 * facts about the CPU that decide whether its figures can be trusted
 * (microcode, SMIs, frequency ratios, whether LFENCE serializes).
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
 * editions). MSR addresses and layouts: SDM Vol. 4.
 */
#ifndef KERNEL_QUIET_H
#define KERNEL_QUIET_H

#include <stdint.h>
#include "probe.h"

/* quiet_timers - stop every timer that could be pending, printing one
 * "quiet:" line per step done or skipped, with the reason, then a "quiet"
 * record:
 *  1. the 8259 masks are read back (pic_mask_all set them);
 *  2. PIT channel 0 is stopped (pit_stop_channel0) and read back;
 *  3. the local APIC, when present (CPUID.1:EDX[9]) and globally enabled
 *     (IA32_APIC_BASE, MSR 1BH, bit 11; SDM Vol. 3A 11.4.4), in xAPIC mode
 *     (MMIO at the base in that MSR) or x2APIC mode (bit 10; MSRs 800H +
 *     offset/16, SDM Vol. 3A 11.12): its page is made uncacheable (see
 *     quiet.c), every LVT entry the version register's Max LVT Entry field
 *     says exists gets its mask bit (16) set (SDM Vol. 3A 11.5.1), as
 *     Linux's clear_local_APIC() does: timer 320H, LINT0 350H, LINT1 360H,
 *     error 370H (max LVT >= 3), performance counters 340H (>= 4), thermal
 *     330H (>= 5), CMCI 2F0H (>= 6); the timer's initial count (380H) is
 *     written 0, which stops it in one-shot and periodic modes (SDM Vol. 3A
 *     11.5.4); IRR and ISR are counted;
 *  4. IA32_TSC_DEADLINE (MSR 6E0H) is written 0, which disarms a deadline
 *     (SDM Vol. 3A 11.5.4.1), when CPUID.1:ECX[24] says it exists.
 * Masking LINT1 blocks the external NMIs wired to it (chipset NMI button,
 * SERR, IOCHK); other NMIs (the APIC's own, IPIs) still arrive and are
 * counted (trap_nmi_count). Never faults. */
void quiet_timers(const struct cpu_info *c);

/* quiet_microcode - the microcode revision (SDM Vol. 3A 10.11.7.1
 * "Determining the Signature"): on Intel, 0 is written to
 * IA32_BIOS_SIGN_ID (MSR 8BH), CPUID leaf 1 is executed, and the revision
 * is the MSR's bits 63:32; on AMD and Hygon, MSR 8BH (PATCH_LEVEL) bits
 * 31:0. Returns 0 with *rev set, or -1 (another vendor, or the MSR
 * faulted: some hypervisors). Read once; later calls return the same
 * result. */
int quiet_microcode(const struct cpu_info *c, uint64_t *rev);

/* quiet_smi_count - MSR_SMI_COUNT (MSR 34H) bits 31:0: the SMIs taken
 * since reset (Intel, Nehalem and later; SDM Vol. 4). Returns 0 with
 * *count set, or -1 (not Intel, or the read faulted). Cheap enough to call
 * around each ensemble: the difference of two reads is the SMIs in
 * between, each of which stole time from whatever was measured. */
int quiet_smi_count(const struct cpu_info *c, uint64_t *count);

/* quiet_ratios - Intel frequency ratios (multiples of the bus clock, 100
 * MHz since Sandy Bridge): *max_nonturbo = MSR_PLATFORM_INFO (CEH) bits
 * 15:8, *current = IA32_PERF_STATUS (198H) bits 15:8. Returns a mask:
 * bit 0 set when *max_nonturbo was read, bit 1 when *current was; 0 on
 * other vendors or when both faulted. A field reading 0 is no ratio (QEMU
 * TCG returns 0 for MSRs it lacks) and counts as not read. Unread values
 * are set to 0. */
int quiet_ratios(const struct cpu_info *c, uint32_t *max_nonturbo, uint32_t *current);

/* quiet_cpu_report - microcode revision, SMI count, frequency ratios and
 * turbo/EIST state (IA32_MISC_ENABLE, 1A0H, bits 38 and 16), and LFENCE:
 * whether it is dispatch-serializing, the property the paper's alternative
 * LFENCE;RDTSC sequences need. On Intel it is (SDM Vol. 2A "LFENCE"). On
 * AMD: CPUID.80000021H:EAX[2] says it always is; otherwise bit 1 of
 * DE_CFG (MSR C0011029H) makes it so, and is set with wrmsr_safe and read
 * back, as Linux's init_amd() does (AMD "Software techniques for managing
 * speculation on AMD processors"). One "quiet:" line per fact, then a
 * "machine" record. Never faults. Returns the LFENCE finding: 1
 * dispatch-serializing, 0 not, -1 unknown. */
int quiet_cpu_report(const struct cpu_info *c);

#endif

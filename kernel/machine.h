/* kernel/machine.h - the facts about the CPU that decide whether its
 * figures can be trusted, printed as "quiet:" lines and the "machine"
 * record: the microcode revision, the SMIs taken, the frequency ratios,
 * turbo and EIST, and whether LFENCE is dispatch-serializing (made so
 * where AMD lets it be).
 *
 * Part of the quiet machine's report (kernel/quiet.h, which includes this
 * header: hence the quiet_ names). Every MSR access goes through the safe
 * accessors (kernel/trap.h): an MSR a CPU or hypervisor lacks is reported
 * as "#GP", never fatal. MSR addresses and layouts: SDM Vol. 4
 * (kernel/msr.h).
 */
#ifndef KERNEL_MACHINE_H
#define KERNEL_MACHINE_H

#include <stdint.h>
#include "probe.h"

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
 * AMD: CPUID.80000021H:EAX[2] says it always is, and so is it on families
 * 0Fh and 11h on bare metal (c->lfence_rule, lib/lfence.h); otherwise bit
 * 1 of DE_CFG (MSR C0011029H) makes it so, and is set with wrmsr_safe and
 * read back, as Linux's init_amd() does (AMD "Software techniques for
 * managing speculation on AMD processors"). One "quiet:" line per fact, then a
 * "machine" record. Never faults. Returns the LFENCE finding: 1
 * dispatch-serializing, 0 not, -1 unknown. */
int quiet_cpu_report(const struct cpu_info *c);

#endif

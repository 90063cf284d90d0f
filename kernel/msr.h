/* kernel/msr.h - the model-specific registers the kernel reads or writes,
 * each defined once.
 *
 * Each macro is MSR_ and the manual's name, less its IA32_ prefix where it
 * has one (MSR_PAT is IA32_PAT), as Linux spells most of them; AMD's carry
 * AMD_, and MSR_X2APIC_FIRST names the first of a range. The full name
 * and where it is defined are beside each. "Table 2-2" is SDM Vol. 4
 * table 2-2 "IA-32 Architectural MSRs": architectural, present wherever
 * the CPUID bit it names says so. The others are model-specific: Intel's
 * listed in SDM Vol. 4 chapter 2 per microarchitecture, AMD's in its
 * Processor Programming Reference (PPR) per family; a CPU or hypervisor
 * that lacks one raises #GP, so they are read with rdmsr_safe
 * (kernel/trap.h). The performance counters' MSRs are in lib/pmu.h, which
 * is host-tested and includes nothing of the kernel's.
 */
#ifndef KERNEL_MSR_H
#define KERNEL_MSR_H

/* IA32_APIC_BASE (table 2-2; SDM Vol. 3A 11.4.4, figure 11-5): the local
 * APIC's base address (bits MAXPHYADDR-1:12) and its mode bits. */
#define MSR_APIC_BASE 0x1B
#define APIC_BASE_BSP (1ull << 8)   /* this is the bootstrap processor */
#define APIC_BASE_EXTD (1ull << 10) /* x2APIC mode (SDM Vol. 3A 11.12.1) */
#define APIC_BASE_EN (1ull << 11)   /* globally enabled */

/* MSR_SMI_COUNT: SMIs since reset, bits 31:0 (Intel, Nehalem and later:
 * SDM Vol. 4, the table of MSRs of processors based on the Nehalem
 * microarchitecture and the tables after it). */
#define MSR_SMI_COUNT 0x34

/* IA32_TSC_ADJUST (table 2-2; SDM Vol. 3B 18.17.3, as kernel/tscsync.h cites it), when
 * CPUID.(EAX=07H,ECX=0):EBX[1]. */
#define MSR_TSC_ADJUST 0x3B

/* IA32_BIOS_SIGN_ID (table 2-2; SDM Vol. 3A 10.11.7.1): the microcode
 * revision in bits 63:32 after CPUID(1). The same address is AMD's
 * PATCH_LEVEL (PPR MSR0000_008B), the revision in bits 31:0. */
#define MSR_BIOS_SIGN_ID 0x8B

/* MSR_PLATFORM_INFO: bits 15:8 the maximum non-turbo ratio (Intel, Nehalem
 * and later: SDM Vol. 4, as MSR_SMI_COUNT). */
#define MSR_PLATFORM_INFO 0xCE

/* IA32_MTRRCAP (table 2-2; SDM Vol. 3A 12.11.1): bits 7:0 the number of
 * variable ranges. */
#define MSR_MTRRCAP 0xFE

/* IA32_PERF_STATUS (table 2-2): bits 15:8 the current ratio on current
 * processors (SDM Vol. 4, the per-microarchitecture tables). */
#define MSR_PERF_STATUS 0x198

/* IA32_MISC_ENABLE (table 2-2): bit 16 EIST enabled, bit 38 turbo
 * disabled. */
#define MSR_MISC_ENABLE 0x1A0

/* IA32_MTRR_PHYSBASE0 (table 2-2; SDM Vol. 3A 12.11.2.3): variable range
 * n's base is 200H + 2n, its mask (IA32_MTRR_PHYSMASKn) 201H + 2n. */
#define MSR_MTRR_PHYSBASE0 0x200

/* IA32_PAT (table 2-2; SDM Vol. 3A 12.12.2): eight memory types, one per
 * byte. */
#define MSR_PAT 0x277

/* IA32_MTRR_DEF_TYPE (table 2-2; SDM Vol. 3A 12.11.2.1): the default type,
 * bit 11 MTRRs enabled. */
#define MSR_MTRR_DEF_TYPE 0x2FF

/* IA32_TSC_DEADLINE (table 2-2; SDM Vol. 3A 11.5.4.1), when
 * CPUID.1:ECX[24]. */
#define MSR_TSC_DEADLINE 0x6E0

/* The x2APIC's registers (SDM Vol. 3A 11.12.1.2, table 11-6): the register
 * at xAPIC offset off is MSR 800H + off/16. IA32_X2APIC_ICR (table 2-2) is
 * the interrupt command register, xAPIC offsets 300H and 310H in one. */
#define MSR_X2APIC_FIRST 0x800
#define MSR_X2APIC_ICR 0x830

/* IA32_EFER (table 2-2; SDM Vol. 3A 2.2.1): bit 10 LMA. */
#define MSR_EFER 0xC0000080u

/* IA32_FS_BASE (table 2-2): the FS segment's base in 64-bit mode. */
#define MSR_FS_BASE 0xC0000100u

/* DE_CFG (AMD PPR for family 17h and later, MSRC001_1029): bit 1 makes
 * LFENCE dispatch-serializing (AMD, "Software techniques for managing
 * speculation on AMD processors"). */
#define MSR_AMD_DE_CFG 0xC0011029u

#endif

/* kernel/mtrr.h - the memory type the MTRRs give an address (SDM Vol. 3A
 * 12.11 "Memory Type Range Registers").
 *
 * Read only: the firmware set the MTRRs, and the kernel reports what they
 * say where it matters (the local APIC's page, kernel/lapic.c). MSRs:
 * IA32_MTRRCAP, IA32_MTRR_DEF_TYPE, IA32_MTRR_PHYSBASEn/PHYSMASKn
 * (kernel/msr.h), each read with rdmsr_safe. SDM sections are numbered as
 * in the 2023 and later editions (one less in older ones).
 */
#ifndef KERNEL_MTRR_H
#define KERNEL_MTRR_H

#include <stdint.h>
#include "probe.h"

/* mtrr_type - the MTRR memory type of physical address pa >= 1 MiB (the
 * fixed ranges below are not read): the variable ranges, then the default
 * type (12.11); 12.11.4.1 for overlaps: UC wins, WT beats WB, others
 * undefined. Needs CPUID.1:EDX[12]. Returns the type (0..7, as
 * mtrr_type_name spells it), or -1 when the MTRRs cannot be read (absent,
 * or an MSR faulted), -2 for an undefined overlap. *which is the variable
 * range that decided, or -1 for the default type (or on error). */
int mtrr_type(const struct cpu_info *c, uint64_t pa, int *which);

/* mtrr_type_name - "UC", "WC", "WT", "WP", "WB" for the memory type
 * encodings 0, 1, 4, 5, 6 that MTRRs and the PAT share (12.11 table 12-8,
 * 12.12.2), "UC-" for 7 (the PAT's only), else "reserved". */
const char *mtrr_type_name(uint64_t t);

#endif

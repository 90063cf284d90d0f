/* lib/pmu_access.h - the performance-monitoring code's MSR accesses through
 * struct pmu_backend (lib/pmu.h), each fault said in one line naming the
 * instruction, the MSR by address and SDM/APM name, and the value written;
 * shared by lib/pmu_detect.c, pmu_program.c, pmu_verify.c, pmu_describe.c
 * and lib/pmugp.c. MSR names: SDM Vol. 4, table 2-2 "IA-32 Architectural
 * MSRs"; AMD APM Vol. 2 "Performance Monitoring Counters" and the family
 * PPRs. */
#ifndef LIB_PMU_ACCESS_H
#define LIB_PMU_ACCESS_H

#include <stddef.h>
#include <stdint.h>
#include "pmu.h"

/* pmu_msr_name - the SDM's or APM's name of a performance-monitoring MSR
 * ("IA32_FIXED_CTR_CTRL", "IA32_PERFEVTSEL3", "PERF_CTL2",
 * "PerfCntrGlobalCtl"), written into buf[0..n-1] where it carries an
 * index; "MSR" for one this code does not know. Never NULL. */
const char *pmu_msr_name(uint32_t msr, char *buf, size_t n);

/* pmu_fault_str - the fault as the backend names it ("#GP"), else
 * "fault 0x10d" in buf. */
const char *pmu_fault_str(const struct pmu_backend *b, int fault, char *buf, size_t size);

/* pmu_rd - RDMSR through the backend: returns 0, or its fault code with
 * *v = 0 and out[] = "RDMSR 0x38e (IA32_PERF_GLOBAL_STATUS) faulted: #GP". */
int pmu_rd(const struct pmu_backend *b, uint32_t msr, uint64_t *v, char *out, size_t size);

/* pmu_wr - WRMSR through the backend: returns 0, or its fault code with
 * out[] = "WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x111 faulted: #GP". */
int pmu_wr(const struct pmu_backend *b, uint32_t msr, uint64_t v, char *out, size_t size);

/* pmu_copy - src into dst[0..size-1], truncated, always NUL-terminated. */
void pmu_copy(char *dst, size_t size, const char *src);

#endif

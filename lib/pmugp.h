/* lib/pmugp.h - every counter CPUID enumerates, general-purpose and
 * fixed, Intel and AMD, and their programming for one pass of events.
 *
 * Intel (SDM Vol. 3B "Performance Monitoring"; CPUID leaf 0AH, 1AH, 23H in
 * Vol. 2A "CPUID"): IA32_PERFEVTSELx 186H + x / IA32_PMCx C1H + x
 * (CPUID.0AH:EAX[15:8] of them, EAX[23:16] bits wide; leaf 23H subleaf 1
 * EAX bitmap where present); writes through the full-width aliases
 * IA32_A_PMCx 4C1H + x when IA32_PERF_CAPABILITIES (345H)[13]; fixed
 * counters 0..3 (EDX[4:0], version 5: ECX bitmap; leaf 23H subleaf 1 EBX),
 * fixed counter 3 TOPDOWN.SLOTS with IA32_PERF_METRICS (329H) when
 * IA32_PERF_CAPABILITIES[15]; IA32_PERF_GLOBAL_CTRL 38FH, _STATUS 38EH,
 * _OVF_CTRL 390H from version 2. RDPMC ECX: x, or 4000_0000H + i.
 * AMD and Hygon (APM Vol. 2 "Performance Monitoring Counters"; family
 * PPRs): 4 legacy PERF_CTL C001_0000H + n / PERF_CTR C001_0004H + n, or 6
 * extended PERF_CTL C001_0200H + 2n / PERF_CTR C001_0201H + 2n with
 * PerfCtrExtCore (CPUID 8000_0001H:ECX[23]); PerfMonV2 (8000_0022H:EAX[0];
 * EBX[3:0] counters): PerfCntrGlobalCtl C000_0301H, PerfCntrGlobalStatus
 * C000_0300H, PerfCntrGlobalStatusClr C000_0302H. Counters are 48 bits.
 * RDPMC ECX: n.
 * Host-tested through struct pmu_backend (lib/pmu.h) with a fake CPU, and
 * over tests/corpus/cpuid.
 *
 * ISSUE 30 INTERFACE: owned by the pmu-layout work. */
#ifndef LIB_PMUGP_H
#define LIB_PMUGP_H

#include <stddef.h>
#include <stdint.h>
#include "pmu.h"

#define PMU_GP_MAX 16
#define PMU_FIXED_MAX 4

struct pmu_gp_counter {
	uint32_t evtsel_msr; /* IA32_PERFEVTSELx, PERF_CTLn */
	uint32_t ctr_msr;    /* IA32_PMCx (or IA32_A_PMCx when full_width), PERF_CTRn */
	uint32_t rdpmc_ecx;
	unsigned width;      /* bits */
};

struct pmu_layout {
	enum pmu_vendor vendor;
	unsigned version;          /* Intel CPUID.0AH:EAX[7:0]; AMD 1, PerfMonV2 2; 0: none */
	unsigned ngp;              /* general-purpose counters: gp[0..ngp-1] (bitmap may have holes) */
	uint32_t gp_bitmap;        /* bit i: GP counter i exists */
	struct pmu_gp_counter gp[PMU_GP_MAX];
	uint32_t fixed_bitmap;     /* bit i: fixed counter i exists (Intel) */
	unsigned fixed_width;
	int full_width;            /* IA32_PERF_CAPABILITIES[13] */
	int perf_metrics;          /* IA32_PERF_CAPABILITIES[15] with fixed counter 3 */
	int global_ctrl;           /* Intel version >= 2, AMD PerfMonV2 */
	uint32_t global_ctrl_msr, global_status_msr, global_clear_msr;
	char source[240];          /* the leaves and bits that said so, one line */
	char why[200];             /* ngp == 0: why (the CPUID bit), else "" */
};

/* pmu_layout_detect - fill *l from CPUID (and IA32_PERF_CAPABILITIES
 * through b->rdmsr when CPUID.1:ECX[15] PDCM; a fault there is said in
 * source and full_width stays 0). mode PMU_MODE_OFF: nothing read, ngp 0,
 * why "pmu=off". Never fails. */
void pmu_layout_detect(const struct pmu_backend *b, enum pmu_mode mode, struct pmu_layout *l);

/* One counter of a pass: a GP counter (counter 0..31) or fixed counter i
 * (counter EVSCHED_FIXED(i) = 32 + i, lib/evsched.h), the PERFEVTSEL value
 * (ignored for fixed), an extra MSR (0: none) and its value. */
struct pmu_assign {
	int counter;
	uint64_t evtsel;
	uint32_t extra_msr;
	uint64_t extra_val;
};

/* pmu_layout_program - program one pass: stop every counter (global
 * control 0 where it exists; every PERFEVTSEL/PERF_CTL of the layout 0),
 * zero the assigned counters, write each extra MSR, each PERFEVTSEL, the
 * fixed counters' control (fixed_ctrl_keep, the bits pmu_program set for
 * fixed counters 0-2, plus OS-only enables of the assigned fixed
 * counters), then the global enables (Intel version >= 2: IA32_PERF_
 * GLOBAL_CTRL = the GP bits assigned | bit 32+i of each fixed counter
 * enabled; AMD PerfMonV2: PerfCntrGlobalCtl = the GP bits, both its and
 * PERF_CTL's En set, as Linux's PerfMonV2 support does). Every write is
 * read back. Returns 0, or the number of problems with err[] the first:
 * "WRMSR 0x186 (IA32_PERFEVTSEL0) <- 0x4300c0 faulted: #GP" or
 * "WRMSR 0x186 (IA32_PERFEVTSEL0) <- 0x4300c0: read back 0x0". */
int pmu_layout_program(const struct pmu_backend *b, const struct pmu_layout *l, const struct pmu_assign *a,
		       int n, uint64_t fixed_ctrl_keep, char *err, size_t errlen);

/* pmu_layout_stop - after a pass: the global control back to global_keep
 * (Intel: the IA32_PERF_GLOBAL_CTRL pmu_program set; AMD PerfMonV2: 0),
 * every PERFEVTSEL/PERF_CTL of the layout 0, then IA32_FIXED_CTR_CTRL =
 * fixed_ctrl_keep where fixed counters exist (Intel version >= 2) and
 * fixed_ctrl_keep is nonzero. Faults are not reported (nothing is left
 * counting that a pass enabled unless a write faulted, which
 * pmu_layout_program already said). */
void pmu_layout_stop(const struct pmu_backend *b, const struct pmu_layout *l, uint64_t global_keep,
		     uint64_t fixed_ctrl_keep);

/* pmu_layout_rdpmc_ecx - RDPMC's ECX for counter (GP index or 32 + i). */
uint32_t pmu_layout_rdpmc_ecx(const struct pmu_layout *l, int counter);

/* pmu_layout_width - the counter's width in bits. */
unsigned pmu_layout_width(const struct pmu_layout *l, int counter);

/* pmu_layout_msr_name - "IA32_PERFEVTSEL3", "PERF_CTL2", "IA32_PMC0",
 * "PerfCntrGlobalCtl", ... for an MSR of the layout, or NULL. */
const char *pmu_layout_msr_name(uint32_t msr, char *buf, size_t n);

/* pmu_layout_counter_name - "PMC3" for GP 3 (Intel "IA32_PMC3", AMD
 * "PERF_CTR3"), "FIXED_CTR0" for fixed 0, into buf. */
const char *pmu_layout_counter_name(const struct pmu_layout *l, int counter, char *buf, size_t n);

/* PMU_LAYOUT_LINE - room for pmu_layout_describe's line. */
#define PMU_LAYOUT_LINE 600

/* pmu_layout_describe - one line "env: pmu: general-purpose counters: ..."
 * into line[0..n-1]: the GP counters (count, width in bits, the MSRs of
 * the selects and counters, full-width writes or not), the fixed
 * counters' bitmap and width (fixed 3 / IA32_PERF_METRICS where present),
 * the global control MSR or why none, and source (the leaves that said
 * so); or "none: " and why. No unit but bits; nothing is measured. */
void pmu_layout_describe(const struct pmu_layout *l, char *line, size_t n);

/* pmu_layout_record_fields - the layout's fields of the pmu record (lib/
 * record.h; ctx is a const struct pmu_layout *): "layout": {"vendor",
 * "version", "gp_counters", "gp_bitmap", "gp_width", "evtsel_msr0",
 * "ctr_msr0", "full_width", "fixed_bitmap", "fixed_width",
 * "perf_metrics", "global_ctrl_msr" (0: none), "source", "why"}. For
 * pmu_record_with (lib/pmu.h). */
struct rec;
void pmu_layout_record_fields(struct rec *r, const void *ctx);

#endif

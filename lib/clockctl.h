/* lib/clockctl.h - turbo and the P-state under the experiment's control
 * (turbo=keep|off|on, pstate=keep|base|max|RATIO): which MSR and which
 * bits each setting writes on this CPU, the write, the read-back and the
 * verdict, through struct pmu_backend (lib/pmu.h) so that the kernel runs
 * it on the real RDMSR/WRMSR (kernel/clockctl.c) and tests/unit/
 * test_clockctl.c on fake CPUs and on every dump of tests/corpus/cpuid.
 *
 * Sources, by register:
 *  Intel (SDM Vol. 4 table 2-2 "IA-32 Architectural MSRs" and the
 *  per-microarchitecture tables; SDM Vol. 3B, "Power and Thermal
 *  Management": "Enhanced Intel SpeedStep Technology", "Opportunistic
 *  Processor Performance Operation" (Turbo Boost), and section 15.4
 *  "Hardware-Controlled Performance States (HWP)"):
 *   IA32_MISC_ENABLE 1A0H bit 38 Turbo Mode Disable (present where
 *     CPUID.06H:EAX[1] = 1 or the bit reads 1: with it set, CPUID.06H:
 *     EAX[1] reads 0);
 *   IA32_PERF_CTL 199H bits 15:8 the target ratio, bit 32 IDA (turbo)
 *     disengage; architectural where CPUID.01H:ECX[7] (EIST), not written
 *     on family 0FH (NetBurst), whose bits 15:0 are not that ratio;
 *   MSR_PLATFORM_INFO CEH bits 15:8 the maximum non-turbo ratio (base);
 *   MSR_TURBO_RATIO_LIMIT 1ADH bits 7:0 the one-core turbo ratio (max);
 *   IA32_PM_ENABLE 770H bit 0 HWP enabled (CPUID.06H:EAX[7]); then
 *     IA32_PERF_CTL is ignored and IA32_HWP_REQUEST 774H decides: minimum
 *     7:0, maximum 15:8, desired 23:16, within IA32_HWP_CAPABILITIES 771H
 *     (highest 7:0, guaranteed 15:8, most efficient 23:16, lowest 31:24).
 *  AMD (APM Vol. 2 "Processor Power Management"; the family PPRs, e.g.
 *  55898 for 17h, 56214 for 19h, 57238 for 1Ah; Hygon 18h as 17h):
 *   HWCR C001_0015H bit 25 CpbDis (Core Performance Boost, CPUID
 *     8000_0007H:EDX[9] CPB);
 *   P-state Current Limit C001_0061H (CurPstateLimit 2:0, PstateMaxVal
 *     6:4), Control C001_0062H (PstateCmd 2:0), Status C001_0063H
 *     (CurPstate 2:0), definitions C001_0064H + n, n = 0..7 (PstateEn bit
 *     63; families 17h-19h: CpuFid 7:0, CpuDfsId 13:8, core frequency
 *     CpuFid / CpuDfsId x 200 MHz; family 1Ah: CpuFid 11:0 x 5 MHz);
 *   CPPC (CPUID 8000_0008H:EBX[27]): CPPC_CAP1 C001_02B0H (highest 7:0,
 *     nominal 15:8, lowest nonlinear 23:16, lowest 31:24), CPPC_ENABLE
 *     C001_02B1H bit 0, CPPC_REQ C001_02B3H (maximum 7:0, minimum 15:8,
 *     desired 23:16): once enabled, the P-state control is the firmware's
 *     and CPPC_REQ decides.
 */
#ifndef LIB_CLOCKCTL_H
#define LIB_CLOCKCTL_H

#include <stddef.h>
#include <stdint.h>
#include "pmu.h"

/* The MSRs, by the manuals' names. */
#define CLK_MSR_PLATFORM_INFO 0xCEu        /* MSR_PLATFORM_INFO (Intel) */
#define CLK_MSR_MPERF 0xE7u                /* IA32_MPERF (CPUID.06H:ECX[0]) */
#define CLK_MSR_APERF 0xE8u                /* IA32_APERF (CPUID.06H:ECX[0]) */
#define CLK_MSR_PERF_STATUS 0x198u         /* IA32_PERF_STATUS */
#define CLK_MSR_PERF_CTL 0x199u            /* IA32_PERF_CTL */
#define CLK_MSR_MISC_ENABLE 0x1A0u         /* IA32_MISC_ENABLE */
#define CLK_MSR_TURBO_RATIO_LIMIT 0x1ADu   /* MSR_TURBO_RATIO_LIMIT */
#define CLK_MSR_PM_ENABLE 0x770u           /* IA32_PM_ENABLE */
#define CLK_MSR_HWP_CAPABILITIES 0x771u    /* IA32_HWP_CAPABILITIES */
#define CLK_MSR_HWP_REQUEST 0x774u         /* IA32_HWP_REQUEST */
#define CLK_MSR_AMD_HWCR 0xC0010015u       /* HWCR */
#define CLK_MSR_AMD_PSTATE_LIMIT 0xC0010061u  /* P-state Current Limit */
#define CLK_MSR_AMD_PSTATE_CTL 0xC0010062u    /* P-state Control */
#define CLK_MSR_AMD_PSTATE_STATUS 0xC0010063u /* P-state Status */
#define CLK_MSR_AMD_PSTATE_DEF0 0xC0010064u   /* P-state 0 definition */
#define CLK_MSR_AMD_CPPC_CAP1 0xC00102B0u     /* CPPC_CAP1 */
#define CLK_MSR_AMD_CPPC_ENABLE 0xC00102B1u   /* CPPC_ENABLE */
#define CLK_MSR_AMD_CPPC_REQ 0xC00102B3u      /* CPPC_REQ */

#define CLK_MISC_TURBO_DISABLE (1ull << 38)  /* IA32_MISC_ENABLE[38] */
#define CLK_PERF_CTL_IDA_DISENGAGE (1ull << 32) /* IA32_PERF_CTL[32] */
#define CLK_HWCR_CPBDIS (1ull << 25)         /* HWCR[25] CpbDis */

/* turbo=: the order of kernel/config.h enum knob. */
enum clockctl_knob { CLOCKCTL_KEEP, CLOCKCTL_OFF, CLOCKCTL_ON };
/* pstate=: the order of kernel/config.h enum pstate_mode. */
enum clockctl_pstate { CLOCKCTL_PSTATE_KEEP, CLOCKCTL_PSTATE_BASE, CLOCKCTL_PSTATE_MAX, CLOCKCTL_PSTATE_RATIO };

struct clockctl_want {
	int turbo;       /* enum clockctl_knob */
	int pstate;      /* enum clockctl_pstate */
	unsigned ratio;  /* CLOCKCTL_PSTATE_RATIO: 1..255 */
};

/* One setting: an MSR written and read back, or why nothing was written. */
struct clockctl_step {
	const char *setting;  /* "turbo", "pstate" or "hwp" (a record's "setting") */
	char asked[24];       /* "turbo=off", "pstate=base", "pstate=24" */
	uint32_t msr;         /* the MSR written (or that would be); 0: none */
	const char *msr_name; /* its SDM/APM name; NULL when msr is 0 */
	int have_before;      /* before read */
	uint64_t before;
	int attempted;        /* WRMSR executed */
	uint64_t written;     /* the value written (when attempted) */
	int have_read;        /* read back after the write */
	uint64_t read;
	int taken;            /* the read-back shows the bits written */
	char what[120];       /* what the bits written mean ("bit 38 Turbo Mode Disable = 1") */
	char why[240];        /* not taken: why (fault, CPUID bit, bits not sticking); taken: a note or "" */
};

#define CLOCKCTL_STEPS_MAX 4

enum clockctl_vendor { CLOCKCTL_VENDOR_OTHER, CLOCKCTL_VENDOR_INTEL, CLOCKCTL_VENDOR_AMD };

/* What the CPUID of this CPU offers (clockctl_probe). */
struct clockctl_cpu {
	int vendor;           /* enum clockctl_vendor (Hygon counts as AMD) */
	char vendor_str[13];
	uint32_t family, model;
	int eist;             /* CPUID.01H:ECX[7] */
	int turbo;            /* CPUID.06H:EAX[1] (Intel) */
	int hwp;              /* CPUID.06H:EAX[7] (Intel) */
	int aperfmperf;       /* CPUID.06H:ECX[0] */
	int cpb;              /* CPUID.80000007H:EDX[9] (AMD) */
	int cppc;             /* CPUID.80000008H:EBX[27] (AMD) */
};

struct clockctl_result {
	struct clockctl_cpu cpu;
	int n;                /* steps */
	struct clockctl_step step[CLOCKCTL_STEPS_MAX];
	int writes;           /* WRMSRs executed */
};

/* clockctl_probe - the CPUID bits above through b->cpuid (SDM Vol. 2A
 * "CPUID"; APM Vol. 3 "CPUID"); leaves above the maximum read as 0. Never
 * fails. */
void clockctl_probe(const struct pmu_backend *b, struct clockctl_cpu *c);

/* clockctl_write - decide, write and read back what w asks on this CPU:
 * per setting asked (not keep) one step or more, each an MSR read (before),
 * written with only its bits changed, and read back (taken only when the
 * read-back holds the bits written), or a step not attempted saying why
 * (the CPUID bit, the fault, the MSR that says the feature is off). Order:
 * turbo first (the maximum depends on it), then the P-state. Faults come
 * from b (rdmsr/wrmsr return nonzero; b->fault_name names them). Nothing
 * asked (keep, keep): r->n = 0, no MSR touched. Returns r->n. */
int clockctl_write(const struct pmu_backend *b, const struct clockctl_want *w, struct clockctl_result *r);

/* clockctl_step_text - the step as one line without the trailing newline,
 * "clock: turbo=off: IA32_MISC_ENABLE (MSR 0x1a0) 0x850089 -> wrote
 * 0x4000850089, read back 0x4000850089: taken (bit 38 Turbo Mode Disable =
 * 1)", or "...: not taken: <why>". Into buf[0..size-1], truncated; returns
 * buf. */
char *clockctl_step_text(const struct clockctl_step *s, char *buf, size_t size);

/* clockctl_amd_cof_mhz - the core frequency of an AMD P-state definition
 * (C001_0064H + n) in MHz for families 17h, 18h (Hygon), 19h (CpuFid[7:0]
 * / CpuDfsId[13:8] x 200) and 1Ah (CpuFid[11:0] x 5), per their PPRs; 0
 * when the family's encoding is not known here, PstateEn (bit 63) is clear
 * or CpuDfsId is 0. */
uint32_t clockctl_amd_cof_mhz(uint32_t family, uint64_t def);

/* clockctl_hz_of - tsc_hz x num / den in Hz (the core clock from APERF/
 * MPERF or core cycles against the TSC), without overflow: num and den are
 * halved together while either is 2^30 or more (a relative error below
 * 2^-29), tsc_hz below 2^34 (17 GHz); 0 when den is 0. */
uint64_t clockctl_hz_of(uint64_t tsc_hz, uint64_t num, uint64_t den);

/* clockctl_clock_text - the core clock from num core cycles (APERF
 * counts, fixed counter 1) over den TSC ticks (MPERF counts at the TSC's
 * rate), the TSC at tsc_hz: "2.90 GHz = TSC x 1.208", GHz to 10 MHz and
 * the ratio to 0.001, both rounded half up (the TSC rate's uncertainty is
 * hundreds of ppm at best: kernel/clocks.h). Into buf[0..size-1]; returns
 * buf; "0.00 GHz = TSC x 0.000" when den is 0. */
char *clockctl_clock_text(char *buf, size_t size, uint64_t tsc_hz, uint64_t num, uint64_t den);

#endif

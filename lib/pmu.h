/* lib/pmu.h - the fixed performance counters Goossens reads around CPUID:
 * detection (CPUID), programming (MSRs), and proof that they count.
 *
 * Freestanding and host-tested: every CPUID and MSR access goes through a
 * struct pmu_backend, which the kernel backs with the real instructions
 * (kernel/pmu.c) and tests/unit/test_pmu.c with a fake CPU.
 *
 * The counters (Goossens, "Les 5 compteurs"; SDM Vol. 3B 18.2.2, table
 * "Association of Fixed-Function Performance Counters with Architectural
 * Performance Events"):
 *
 *   IA32_FIXED_CTR0 0x309  instructions retired        (INST_RETIRED.ANY)
 *   IA32_FIXED_CTR1 0x30A  unhalted core cycles        (CPU_CLK_UNHALTED.THREAD)
 *   IA32_FIXED_CTR2 0x30B  unhalted reference cycles   (CPU_CLK_UNHALTED.REF_TSC)
 *
 * and, where those do not exist, two free-running MSRs:
 *
 *   IA32_APERF      0xE8         core clock counts in C0 (CPUID.06H:ECX[0];
 *                                SDM Vol. 3B 14.2 "Hardware Coordination
 *                                Feedback"; Intel and AMD)
 *   IRPerfCount     0xC00000E9   instructions retired, 48 bits (AMD:
 *                                CPUID.80000008H:EBX[1], enabled by
 *                                HWCR 0xC0010015 bit 30 IRPerfEn)
 *
 * Section numbers are those of the SDM editions where "Performance
 * Monitoring" is chapter 18 of Vol. 3B (2016-2022); later editions renumber
 * the chapter but keep the section titles quoted here. CPUID leaf 0AH is in
 * Vol. 2A, "CPUID", table 3-8 (leaf 0AH).
 *
 * The order of use: pmu_detect (CPUID only) -> pmu_program (MSR writes) ->
 * pmu_verify (a known loop between two reads) -> pmu_describe (header
 * lines). Only a counter whose state is PMU_COUNTING may be used in a
 * measurement window (pmu_usable). A counter that does not move is never
 * used: QEMU TCG, for one, reads 0 from MSRs it does not implement and
 * ignores writes to them, without faulting.
 */
#ifndef LIB_PMU_H
#define LIB_PMU_H

#include <stddef.h>
#include <stdint.h>

/* MSR addresses (SDM Vol. 4, table 2-2 "IA-32 Architectural MSRs"; AMD
 * from the family 17h/19h PPRs). */
#define PMU_MSR_FIXED_CTR0 0x309u          /* + i for fixed counter i */
#define PMU_MSR_FIXED_CTR_CTRL 0x38Du
#define PMU_MSR_PERF_GLOBAL_STATUS 0x38Eu  /* version >= 2 */
#define PMU_MSR_PERF_GLOBAL_CTRL 0x38Fu    /* version >= 2 */
#define PMU_MSR_PERF_GLOBAL_OVF_CTRL 0x390u /* version >= 2; IA32_PERF_GLOBAL_STATUS_RESET from version 4 */
#define PMU_MSR_PERF_METRICS 0x329u       /* IA32_PERF_CAPABILITIES[15] */
#define PMU_MSR_PERF_CAPABILITIES 0x345u  /* CPUID.1:ECX[15] PDCM */
#define PMU_MSR_PMC0 0xC1u                 /* IA32_PMCx: + x */
#define PMU_MSR_PERFEVTSEL0 0x186u         /* IA32_PERFEVTSELx: + x */
#define PMU_MSR_A_PMC0 0x4C1u              /* IA32_A_PMCx (full-width writes): + x */
#define PMU_MSR_AMD_LEGACY_CTL0 0xC0010000u /* PERF_LEGACY_CTLn: + n, n < 4 */
#define PMU_MSR_AMD_LEGACY_CTR0 0xC0010004u /* PERF_LEGACY_CTRn: + n, n < 4 */
#define PMU_MSR_AMD_PERF_CTL0 0xC0010200u   /* PERF_CTLn: + 2n; PERF_CTRn: + 2n + 1 */
#define PMU_MSR_AMD_GLOBAL_STATUS 0xC0000300u     /* PerfCntrGlobalStatus (PerfMonV2) */
#define PMU_MSR_AMD_GLOBAL_CTL 0xC0000301u        /* PerfCntrGlobalCtl (PerfMonV2) */
#define PMU_MSR_AMD_GLOBAL_STATUS_CLR 0xC0000302u /* PerfCntrGlobalStatusClr (PerfMonV2) */
#define PMU_MSR_APERF 0xE8u
#define PMU_MSR_AMD_HWCR 0xC0010015u
#define PMU_MSR_AMD_IRPERF 0xC00000E9u

/* HWCR[30] IRPerfEn: 1 enables IRPerfCount (AMD family 17h+ PPR, MSRC001_0015). */
#define PMU_HWCR_IRPERF_EN (1ull << 30)

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter i at bits 4i..4i+3:
 * bit 0 counts at ring 0 (OS), bit 1 at rings > 0 (USR), bit 2 AnyThread
 * (version 3+), bit 3 PMI on overflow (SDM 18.2.2 and 18.2.3, figures
 * "Layout of IA32_FIXED_CTR_CTRL MSR"). We set OS only: this kernel runs in ring 0 and wants
 * neither the other thread's events nor interrupts. */
#define PMU_FIXED_EN_OS 0x1ull
#define PMU_FIXED_EN_USR 0x2ull
#define PMU_FIXED_ANYTHREAD 0x4ull
#define PMU_FIXED_PMI 0x8ull

/* IA32_PERF_GLOBAL_CTRL / _STATUS / _OVF_CTRL: bit 32+i is fixed counter
 * i, bits 0..n-1 the general-purpose counters; OVF_CTRL bit 62 clears
 * OvfBuffer (DS/PEBS buffer), bit 63 clears CondChgd (SDM 18.2.2, figures
 * "Layout of IA32_PERF_GLOBAL_CTRL/_STATUS/_OVF_CTRL MSR"; 18.2.4: from
 * version 4 the address 390H is named IA32_PERF_GLOBAL_STATUS_RESET). */
#define PMU_GLOBAL_FIXED(i) (1ull << (32 + (i)))
#define PMU_OVF_BUFFER (1ull << 62)
#define PMU_OVF_COND_CHGD (1ull << 63)

/* RDPMC's ECX for fixed counter i: bit 30 selects the fixed counters
 * (SDM Vol. 2B, "RDPMC"). */
#define PMU_RDPMC_FIXED(i) ((1u << 30) | (uint32_t)(i))

/* The counting check (pmu_verify): an instruction counter passes when it
 * advances by at least the loop's instruction count and at most
 * PMU_CHECK_MAX_RATIO times it (the reads around the loop retire a few
 * dozen instructions more); a cycle counter passes when it advances. */
#define PMU_CHECK_MAX_RATIO 4

/* Width assumed for a fixed counter tried under pmu=force when CPUID gives
 * none and no GP width either: 40 bits, the narrowest fixed counters Intel
 * shipped (SDM, "Fixed-function Performance Counters" of the Intel Core
 * microarchitecture, 18.4.1 in the 2016 edition: "model-specific fixed-function
 * performance counters on processors that support Architectural Perfmon
 * version 1 are 40 bits wide"). Too narrow is harmless for deltas below 2^40; too wide
 * would mis-compute a delta across a wrap. */
#define PMU_FORCE_DEFAULT_WIDTH 40

/* What the kernel reads and writes through. rdmsr/wrmsr return 0, or a
 * nonzero fault code when the instruction faulted (kernel: TRAP_FAULTED |
 * vector); rdmsr then stores 0. The last two members may be NULL: without
 * rdpmc, RDPMC is not checked (and rdpmc_ok stays 0); without fault_name,
 * faults are printed as "fault 0x10d". */
struct pmu_backend {
	void *ctx;
	void (*cpuid)(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4]); /* EAX, EBX, ECX, EDX */
	int (*rdmsr)(void *ctx, uint32_t msr, uint64_t *val);
	int (*wrmsr)(void *ctx, uint32_t msr, uint64_t val);
	int (*rdpmc)(void *ctx, uint32_t ecx, uint64_t *val);   /* optional */
	const char *(*fault_name)(void *ctx, int fault);       /* optional: "#GP" */
};

/* pmu= boot parameter. The order is that of pmu_mode_words. */
enum pmu_mode {
	PMU_MODE_AUTO,  /* use what CPUID enumerates */
	PMU_MODE_OFF,   /* never touch a counter MSR, not even CPUID leaf 0AH */
	PMU_MODE_FORCE, /* also try what CPUID denies; faults and the check decide */
};

/* "auto", "off", "force", NULL: the choices of a CFG_CHOICE key. */
extern const char *const pmu_mode_words[];

enum pmu_vendor { PMU_VENDOR_OTHER, PMU_VENDOR_INTEL, PMU_VENDOR_AMD, PMU_VENDOR_HYGON };

/* The counters this module knows: indexes of pmu_info.ctr[]. */
enum pmu_counter_id {
	PMU_FIXED0,  /* IA32_FIXED_CTR0: instructions retired */
	PMU_FIXED1,  /* IA32_FIXED_CTR1: unhalted core cycles */
	PMU_FIXED2,  /* IA32_FIXED_CTR2: unhalted reference cycles */
	PMU_APERF,   /* IA32_APERF: core clocks in C0 */
	PMU_IRPERF,  /* AMD IRPerfCount: instructions retired */
	PMU_NCOUNTERS
};
#define PMU_NFIXED 3 /* fixed counters we program: CTR0..CTR2 */

enum pmu_kind { PMU_KIND_INSTRUCTIONS, PMU_KIND_CYCLES };

/* A counter's life: ABSENT, or PRESENT -> (FAULTED | PROGRAMMED) ->
 * (FAULTED | NOT_COUNTING | COUNTING). Only COUNTING may be used. */
enum pmu_state {
	PMU_ABSENT,       /* CPUID does not offer it (or pmu=off): why says which bit */
	PMU_PRESENT,      /* offered (or forced), not programmed yet */
	PMU_FAULTED,      /* an MSR access faulted: why names the MSR */
	PMU_PROGRAMMED,   /* programmed without fault, not checked yet */
	PMU_NOT_COUNTING, /* failed the counting check: never use it */
	PMU_COUNTING,     /* passed the counting check */
};

/* pmu_check_counting's verdicts. */
enum pmu_verdict {
	PMU_VERDICT_COUNTING,
	PMU_VERDICT_STILL,    /* did not move: not counting */
	PMU_VERDICT_TOO_FEW,  /* instructions: fewer than the loop retires */
	PMU_VERDICT_TOO_MANY, /* instructions: more than PMU_CHECK_MAX_RATIO x the loop */
};

struct pmu_counter {
	const char *label;   /* "fixed ctr0", "aperf", "irperf" */
	const char *event;   /* "instructions retired", ... */
	uint32_t msr;        /* read with RDMSR */
	uint32_t rdpmc_ecx;  /* PMU_RDPMC_FIXED(i) for fixed counters, else 0 */
	int has_rdpmc;       /* fixed counters: RDPMC can read it */
	int rdpmc_ok;        /* RDPMC checked: no fault, agrees with RDMSR */
	unsigned width;      /* bits; deltas are modulo 2^width (pmu_delta); 0 for a fixed counter ABSENT */
	enum pmu_kind kind;
	enum pmu_state state;
	int forced;          /* tried under pmu=force although CPUID said no (cpuid_note says why) */
	uint64_t check_delta; /* advance over the check loop (pmu_verify), in events */
	char why[200];       /* state != PMU_COUNTING: why, naming the CPUID bit or the MSR */
	char cpuid_note[160]; /* forced: what CPUID said */
	char rdpmc_why[120]; /* has_rdpmc && !rdpmc_ok after pmu_verify: why */
};

struct pmu_info {
	enum pmu_mode mode;
	enum pmu_vendor vendor;
	char vendor_str[13];
	uint32_t max_basic, max_ext; /* CPUID.0:EAX, CPUID.80000000H:EAX (0 when invalid) */
	uint32_t family, model;      /* CPUID.1:EAX, display family/model */
	int hypervisor;              /* CPUID.1:ECX[31] */
	char hv_vendor[13];          /* CPUID.40000000H:EBX,ECX,EDX when hypervisor */

	/* CPUID.0AH (Vol. 2A table 3-8; SDM 18.2.1-18.2.5); all 0 when the
	 * leaf is beyond max_basic. */
	uint32_t leaf_a[4];     /* raw EAX, EBX, ECX, EDX */
	unsigned version;       /* EAX[7:0]; 0: no architectural PMU */
	unsigned gp_count;      /* EAX[15:8]: GP counters per logical processor */
	unsigned gp_width;      /* EAX[23:16] */
	unsigned ebx_length;    /* EAX[31:24]: valid bits of EBX */
	uint32_t ebx_unavail;   /* EBX: bit x set = architectural event x not available */
	unsigned fixed_contig;  /* EDX[4:0], version > 1 only: fixed counters 0..n-1 exist
				 * (3 when fixed_assumed) */
	unsigned fixed_width;   /* EDX[12:5], version > 1 only (when fixed_assumed and EDX's
				 * is invalid: the GP width, else PMU_FORCE_DEFAULT_WIDTH) */
	uint32_t fixed_mask;    /* ECX, version >= 5 only: fixed counter i exists if bit i */
	char arch_why[160];     /* why there are no fixed counters at all, or "" */
	int fixed_assumed;      /* 1: fixed_contig and fixed_width are the early Intel
				 * processors' rule, not EDX (pmu_detect) */

	/* What pmu_program wrote (or tried to) and read back (version >= 2
	 * sequence). */
	int programmed;         /* the control MSRs were written without fault */
	uint64_t fixed_ctrl, global_ctrl, ovf_clear; /* steps 5, 6 and 4 */
	uint64_t fixed_ctrl_read, global_ctrl_read; /* read back after the writes */
	int program_fault;      /* first fault code of pmu_program, 0 if none */
	char error[160];        /* that fault: "WRMSR 0x38d (IA32_FIXED_CTR_CTRL) <- 0x111 faulted: #GP" */

	uint64_t check_insns;   /* loop_insns of the last pmu_verify, 0 before */
	struct pmu_counter ctr[PMU_NCOUNTERS];
};

/* pmu_detect - fill *info from CPUID alone (no MSR is touched) for mode.
 * Fixed counter i (i < 3) is PRESENT when, to the letter of the SDM:
 *  - CPUID max basic leaf >= 0AH and CPUID.0AH:EAX[7:0] (version) > 1
 *    (18.2.1: version 0 = no architectural PMU, e.g. QEMU TCG; 18.2.2:
 *    fixed counters and CPUID.0AH:EDX exist from version 2 only);
 *  - EDX[4:0] > i, or, from version 5, ECX[i] = 1 (18.2.5; leaf 0AH:
 *    "FxCtr[i]_is_supported := ECX[i] || (EDX[4:0] > i)");
 *  - EDX[12:5] (width) is 1..64.
 * CPUID.0AH:EBX plays no part: its bits say which architectural events the
 * general-purpose counters cannot count (leaf 0AH; 18.2.1.2 "Pre-defined
 * Architectural Performance Events"), not which fixed counters exist
 * (Nehalem and Lakefield set EBX[2] and have fixed counter 2).
 * Early Intel processors under-report EDX (SDM Vol. 3B, "Architectural
 * Performance Monitoring Version 2", NOTE: "Early generation of processors
 * based on Intel Core microarchitecture may report in CPUID.0AH:EDX of
 * support for version 2 but indicating incorrect information of version 2
 * facilities"; e.g. Core 2 6300: EDX = 0; Atom N270, version 3: one
 * counter), while the SDM's chapters on the Intel Core and Atom
 * microarchitectures give them three fixed counters. So on GenuineIntel,
 * versions 2 to 4, not under a hypervisor (whose CPUID says what it
 * virtualizes), EDX[4:0] < 3 is taken as 3 (fixed_assumed = 1), with
 * EDX's width if valid, else the GP width EAX[23:16] if valid, else
 * PMU_FORCE_DEFAULT_WIDTH; Linux does the same (arch/x86/events/intel/
 * core.c: "v2 perfmon does not report fixed-purpose events, so assume at
 * least 3 events, when not running in a hypervisor"). pmu_verify still
 * proves each counts before use.
 * APERF is PRESENT when max basic >= 6 and CPUID.06H:ECX[0] = 1; IRPERF
 * when max extended >= 80000008H and CPUID.80000008H:EBX[1] = 1, except
 * on AMD family 17h models 00h-2Fh (erratum 1054: IRPerfCount may be
 * inaccurate; Linux does not enable it there either) and on Hygon
 * (HygonGenuine, family 18h: AMD's Zen 1 core, erratum 1054 with it;
 * Linux's arch/x86/kernel/cpu/hygon.c never enables it).
 * Everything not PRESENT is ABSENT with a why. Under PMU_MODE_FORCE
 * every ABSENT counter becomes PRESENT with forced = 1 and the CPUID
 * reason in cpuid_note; a forced fixed counter's width is EDX[12:5] if
 * valid, else the GP width EAX[23:16] if valid, else
 * PMU_FORCE_DEFAULT_WIDTH. Under PMU_MODE_OFF no CPUID leaf is read and
 * every counter is ABSENT ("pmu=off"). Never fails. */
void pmu_detect(const struct pmu_backend *b, enum pmu_mode mode, struct pmu_info *info);

/* pmu_program - program the PRESENT counters, SDM 18.2.2 (version 2
 * facilities; used under pmu=force whatever the version):
 *   1. IA32_PERF_GLOBAL_CTRL <- 0        (stop every counter)
 *   2. IA32_FIXED_CTR_CTRL <- 0
 *   3. IA32_FIXED_CTRi <- 0              (each PRESENT fixed counter; one
 *                                         that faults is dropped, the
 *                                         others go on)
 *   4. read IA32_PERF_GLOBAL_STATUS; IA32_PERF_GLOBAL_OVF_CTRL <- bit 32+i
 *      of each counter kept, plus bits 62/63 only where STATUS has them
 *      set (a bit the CPU never sets is never written)
 *   5. IA32_FIXED_CTR_CTRL <- 0x1 << 4i for each counter kept (OS only:
 *      0x111 for three)
 *   6. IA32_PERF_GLOBAL_CTRL <- bit 32+i for each counter kept
 *   7. read back IA32_FIXED_CTR_CTRL and IA32_PERF_GLOBAL_CTRL
 *      (diagnostics: QEMU TCG reads 0 after any write).
 * We own the machine: whole values are written, so the general-purpose
 * counters' global enables and fixed counters 3+ end up disabled (nothing
 * else here uses them). A fault in steps 1, 2 or 4-7 makes every fixed
 * counter FAULTED; the sequence stops there, and since step 1 or 2 has
 * already cleared the enables (or faulted before any write), no counter is
 * left half-enabled.
 * APERF: one RDMSR proves it readable (it is never written). IRPERF:
 * RDMSR HWCR; if bit 30 is clear, WRMSR HWCR | bit 30; RDMSR IRPerfCount
 * (it is never written: HWCR[27] may make it read-only).
 * Returns 0, or the first fault code (then info->error names the
 * instruction, the MSR and the value; each affected counter's why too).
 * Counters that faulted are FAULTED, the others PROGRAMMED. */
int pmu_program(const struct pmu_backend *b, struct pmu_info *info);

/* pmu_delta - b - a modulo 2^width: the events between two reads a, b of
 * a width-bit counter, correct across one wrap. width 1..64; any other
 * width is taken as 64. Units: those of the counter. */
uint64_t pmu_delta(uint64_t a, uint64_t b, unsigned width);

/* pmu_check_counting - judge one counter read before and after a loop that
 * retires loop_insns instructions (>= 1). PMU_KIND_INSTRUCTIONS: counting
 * when loop_insns <= delta <= PMU_CHECK_MAX_RATIO x loop_insns;
 * PMU_KIND_CYCLES: counting when delta > 0. A delta of 0 is
 * PMU_VERDICT_STILL for both. *delta (may be NULL) receives
 * pmu_delta(before, after, width). */
enum pmu_verdict pmu_check_counting(enum pmu_kind kind, uint64_t before, uint64_t after,
				    unsigned width, uint64_t loop_insns, uint64_t *delta);

/* pmu_verdict_string - a short phrase for the header line. */
const char *pmu_verdict_string(enum pmu_verdict v);

/* pmu_verify - the counting check of every PROGRAMMED (or already
 * checked) counter: read each with RDMSR, call loop(loop_ctx), which must
 * retire loop_insns instructions (>= 1), read each again, and set each
 * COUNTING or NOT_COUNTING (FAULTED if a read faults) by
 * pmu_check_counting. Then, for each fixed counter COUNTING and a backend
 * with rdpmc: RDMSR a, RDPMC p, RDMSR b; rdpmc_ok when RDPMC does not
 * fault and a <= p <= b modulo 2^width. Returns the number of counters
 * COUNTING. */
int pmu_verify(const struct pmu_backend *b, struct pmu_info *info,
	       void (*loop)(void *loop_ctx), void *loop_ctx, uint64_t loop_insns);

/* pmu_usable - 1 when counter id passed the counting check (COUNTING),
 * else 0. The only test a measurement should make. */
int pmu_usable(const struct pmu_info *info, enum pmu_counter_id id);

/* pmu_state_string - "absent", "present", "faulted", "programmed",
 * "not counting", "counting". */
const char *pmu_state_string(enum pmu_state s);

/* pmu_describe - the environment header: one line per call of emit (no
 * newline), each starting "env: pmu: ": a summary of CPUID.0AH, a
 * hypervisor warning when CPUID.1:ECX[31] = 1, a programming fault if
 * any, then exactly one line per counter saying whether it is usable and,
 * if not, why (the CPUID bit, the faulting MSR, or the failed check). */
void pmu_describe(const struct pmu_info *info, void (*emit)(void *ctx, const char *line),
		  void *ctx);

/* pmu_record - the {"rec":"pmu",...} record, through the one record
 * writer (lib/record.h): the CPUID.0AH figures, the control registers as
 * programmed, the error, and per counter its MSR, state, width, check
 * delta and why it is not usable. */
void pmu_record(const struct pmu_info *info);

/* pmu_record_with - pmu_record, with more(r, ctx) called to add fields
 * before the record ends (kernel/pmu.c: pmu_layout_record_fields of
 * lib/pmugp.h). more may be NULL. */
struct rec;
void pmu_record_with(const struct pmu_info *info, void (*more)(struct rec *r, const void *ctx), const void *ctx);

#endif

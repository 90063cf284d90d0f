/* lib/prefetch.h - which hardware prefetcher controls a CPU documents, and
 * the decisions of prefetch=keep|off|on over them (README "Prefetchers").
 * Pure C, host-tested (tests/unit/test_prefetch.c, over every dump of
 * tests/corpus/cpuid); kernel/prefetch.c reads, writes and reads back.
 *
 * The documents, one per row of the table in lib/prefetch.c:
 *  - Intel MSR 1A4H MSR_MISC_FEATURE_CONTROL, bits 0 L2 hardware
 *    prefetcher, 1 L2 adjacent cache line prefetcher, 2 DCU prefetcher,
 *    3 DCU IP prefetcher, 1 = disabled: Intel's "Disclosure of Hardware
 *    Prefetcher Control on Some Intel Processors" (2014) for Nehalem,
 *    Westmere, Sandy Bridge, Ivy Bridge, Haswell and Broadwell; SDM Vol. 4
 *    MSR_MISC_FEATURE_CONTROL and the model list of Intel's pepc
 *    (pepclibs/msr/MiscFeatureControl.py, "all prefetchers" CPUs) for
 *    Skylake to Granite Rapids;
 *  - Intel Atom cores (Silvermont-D, Goldmont, Goldmont Plus, Tremont,
 *    Crestmont): MSR 1A4H bit 0 L2 hardware prefetcher, bit 2 DCU
 *    prefetcher (SDM Vol. 4 Goldmont table, as quoted in Linux
 *    arch/x86/kernel/cpu/resctrl/pseudo_lock.c; pepc's "L2 and DCU" CPUs);
 *  - Intel Xeon Phi (Knights Landing 57H, Knights Mill 85H): MSR 1A4H bit
 *    0 DCU prefetcher, bit 1 L2 hardware prefetcher (SDM Vol. 4 Xeon Phi
 *    table, edk2 XeonPhiMsr.h MSR_XEON_PHI_MISC_FEATURE_CONTROL; pepc);
 *  - AMD MSR C000_0108H PrefetchControl (Core::X86::Msr::PrefetchControl),
 *    bits 0 L1Stream, 1 L1Stride, 2 L1Region, 3 L2Stream, 5 UpDown,
 *    1 = disabled: the PPRs for family 19h model 11h (#55901) and model
 *    61h (#56713) (Zen 4: models 10h-1Fh, 60h-6Fh) and for family 1Ah
 *    model 02h (#57238) (Zen 5: models 00h-0Fh); the other Zen 4 (19h
 *    70h-7Fh, A0h-AFh) and Zen 5 (1Ah 10h-7Fh) models by the same core's
 *    register, their source saying their own PPR was not checked.
 * Every other CPU (an Intel model none of these lists, AMD families whose
 * PPR documents no prefetcher control such as 17h, Hygon, other vendors):
 * no control, one reason, nothing written. */
#ifndef LIB_PREFETCH_H
#define LIB_PREFETCH_H

#include <stddef.h>
#include <stdint.h>
#include "cpuinfo.h"

#define MSR_MISC_FEATURE_CONTROL 0x1A4u  /* Intel SDM Vol. 4 (and the disclosure) */
#define MSR_AMD_PREFETCH_CONTROL 0xC0000108u /* AMD PPR Core::X86::Msr::PrefetchControl */

#define PREFETCH_MAX 5 /* controls of one CPU at most */

/* One documented control: a bit of an MSR. */
struct prefetch_control {
	const char *key;   /* the prefetch record's "control": l2_hw, l2_adjacent, dcu, dcu_ip,
			    * l1_stream, l1_stride, l1_region, l2_stream, l2_updown */
	const char *name;  /* as the document names it: "L2 hardware prefetcher" */
	uint32_t msr;
	unsigned bit;      /* 0..63 */
	int set_disables;  /* polarity: 1 when the bit set disables the prefetcher
			    * (every control documented so far) */
};

/* What the documents say of one CPU. */
struct prefetch_doc {
	int n;                                  /* controls, 0..PREFETCH_MAX */
	const struct prefetch_control *ctl;     /* ctl[0..n-1], static */
	const char *msr_name;                   /* "MSR_MISC_FEATURE_CONTROL", "PrefetchControl"; n == 0: NULL */
	const char *source;                     /* the document of this model's row; n == 0: NULL */
	char why[240];                          /* n == 0: why no control (vendor, family, model); else "" */
};

/* prefetch_lookup - the controls documented for c's vendor, family and
 * model (c as lib/cpuinfo.h cpuinfo_read fills it; the stepping does not
 * matter for any row). Never fails: a CPU no document lists gets n = 0
 * and a reason in d->why. */
void prefetch_lookup(const struct cpu_info *c, struct prefetch_doc *d);

/* What prefetch= asks (kernel/config.h enum knob, in the same order). */
enum prefetch_want { PREFETCH_KEEP, PREFETCH_OFF, PREFETCH_ON };

/* prefetch_value - the MSR value that sets control c's prefetcher on
 * (want_on 1) or off (0), from the value before: only c's bit changes. */
uint64_t prefetch_value(const struct prefetch_control *c, uint64_t before, int want_on);

/* prefetch_is_on - 1 when MSR value v says c's prefetcher is enabled. */
int prefetch_is_on(const struct prefetch_control *c, uint64_t v);

/* What was done with one control (kernel/prefetch.c fills it). Fault
 * fields: 0, or the exception vector (13 for #GP) of a faulting
 * RDMSR/WRMSR (kernel/trap.h rdmsr_safe, without TRAP_FAULTED). */
struct prefetch_try {
	enum prefetch_want want;
	int hypervisor;          /* CPUID.1:ECX[31]: the MSR may be emulated, or not at all */
	int read_fault;          /* the first RDMSR */
	uint64_t before;         /* its value (read_fault == 0) */
	int wrote;               /* a WRMSR was attempted (written holds its value) */
	uint64_t written;
	int write_fault;
	int readback_fault;      /* the RDMSR after the write (wrote) */
	uint64_t read;           /* its value (wrote, readback_fault == 0) */
};

/* The prefetch record's "state". */
enum prefetch_state {
	PREFETCH_STATE_ON, PREFETCH_STATE_OFF, PREFETCH_STATE_NOT_TAKEN, PREFETCH_STATE_UNKNOWN,
	PREFETCH_STATE_NOT_DOCUMENTED
};

/* prefetch_should_write - whether a control is written at all: only for
 * prefetch=off or on and only after its MSR was read (a read that faults
 * writes nothing). */
int prefetch_should_write(const struct prefetch_try *t);

/* prefetch_outcome - the state t leaves c in: keep: on or off as read, or
 * unknown when the read faulted; off/on: off or on only when the read back
 * shows c's bit as wanted, else not_taken (a read, write or read-back
 * fault, or a bit that did not stick). Never "off"/"on" from what was
 * written alone. */
enum prefetch_state prefetch_outcome(const struct prefetch_control *c, const struct prefetch_try *t);

/* prefetch_state_word - "on", "off", "not_taken", "unknown", "not_documented". */
const char *prefetch_state_word(enum prefetch_state s);

/* prefetch_msr_text - an MSR number as the documents write it: "1A4H",
 * "C000_0108H" (above FFFFH: the AMD style). Returns buf (size >= 16). */
char *prefetch_msr_text(char *buf, size_t size, uint32_t msr);

/* prefetch_line - the "prefetch: NAME: STATE (...)" line for c and t, no
 * newline, into buf (size >= 200 holds every line): e.g. "prefetch: L2
 * hardware prefetcher: off (MSR 1A4H bit 0 = 1, read back)"; "...: on
 * (MSR 1A4H bit 0 = 0, read back; so before the write too)" where the bit
 * was so already (the write proves nothing then); "...: on (MSR 1A4H bit
 * 0 = 0, as the firmware left it)" (keep); "...: not taken (wrote 0x1 to
 * MSR 1A4H, read back 0x0: bit 0 = 0, on)". Returns buf. */
char *prefetch_line(char *buf, size_t size, const struct prefetch_control *c, const struct prefetch_try *t);

/* prefetch_why - the record's "why" for c and t, or NULL when the state
 * needs none (on/off as wanted or as read). buf: size >= 160. */
const char *prefetch_why(char *buf, size_t size, const struct prefetch_control *c, const struct prefetch_try *t);

#endif

/* lib/lfence.h - whether LFENCE is dispatch-serializing on a CPU, the
 * property the LFENCE;RDTSC methods need (an LFENCE that lets later
 * instructions start before earlier ones complete does not fence RDTSC).
 * Freestanding and host-tested (tests/unit/test_lfence.c); the kernel
 * settles the DE_CFG case with the MSR (kernel/machine.c) and prints the
 * "quiet: lfence:" line; bench/methods.c skips the LFENCE methods with
 * LFENCE_NOT_KNOWN when it is not settled.
 *
 * What the vendors document:
 *   Intel: always (SDM Vol. 2A "LFENCE": it "does not execute until all
 *     prior instructions have completed locally, and no later instruction
 *     begins execution until LFENCE completes").
 *   AMD: CPUID 80000021H:EAX[2] = 1 says always (AMD APM Vol. 3, CPUID
 *     Fn8000_0021 "LFenceAlwaysSerializing"). Otherwise AMD, "Software
 *     Techniques for Managing Speculation on AMD Processors" (2018),
 *     mitigation G-2: "AMD family 0Fh/11h processors support LFENCE as
 *     serializing always but do not support this MSR"; families 10h, 12h
 *     and later make it so with DE_CFG (MSR C001_1029H) bit 1. Linux:
 *     init_amd() sets the bit where the MSR exists and sets
 *     X86_FEATURE_LFENCE_RDTSC on every AMD CPU with SSE2 ("On families
 *     which don't have that MSR, LFENCE is already serializing"); Hygon
 *     (family 18h, AMD's Zen 1 core) the same with DE_CFG.
 *   Others: nothing documented, so not trusted.
 */
#ifndef LIB_LFENCE_H
#define LIB_LFENCE_H

#include <stdint.h>

/* The one phrase every line uses for an LFENCE that is not settled: the
 * quiet: lfence: line, the methods' skip reason and its record. */
#define LFENCE_NOT_KNOWN "LFENCE is not known to be dispatch-serializing"

enum lfence_rule {
	LFENCE_INTEL,      /* GenuineIntel: always */
	LFENCE_AMD_CPUID,  /* AMD or Hygon with CPUID 80000021H:EAX[2] = 1: always */
	LFENCE_AMD_FAMILY, /* AuthenticAMD family 0Fh or 11h, no hypervisor: always */
	LFENCE_AMD_DE_CFG, /* AMD or Hygon otherwise: only once DE_CFG[1] is set */
	LFENCE_UNKNOWN,    /* another vendor: not documented */
};

/* What lfence_rule decides from: CPUID, read by the caller. */
struct lfence_cpu {
	int intel;          /* vendor GenuineIntel */
	int amd;            /* vendor AuthenticAMD */
	int hygon;          /* vendor HygonGenuine */
	uint32_t family;    /* display family: CPUID.1:EAX[11:8] + [27:20] when [11:8] = 0FH */
	int hypervisor;     /* CPUID.1:ECX[31] */
	int always;         /* max extended leaf >= 80000021H and CPUID 80000021H:EAX[2] */
};

/* lfence_rule - which of the rules above applies to c. Under a hypervisor
 * (CPUID.1:ECX[31] = 1) the family is the hypervisor's to say (QEMU's
 * default and "max" CPU models claim AMD family 0Fh on any host), so
 * AMD's family 0Fh/11h rule is not applied there: LFENCE_AMD_DE_CFG, where
 * the MSR, read through the hypervisor, settles it. Never fails. */
enum lfence_rule lfence_rule(const struct lfence_cpu *c);

/* lfence_known - 1 when rule alone makes LFENCE dispatch-serializing
 * (LFENCE_INTEL, LFENCE_AMD_CPUID, LFENCE_AMD_FAMILY), else 0. */
int lfence_known(enum lfence_rule rule);

/* lfence_why - the documented reason of a rule that settles it alone, for
 * the "quiet: lfence:" line; "" for LFENCE_AMD_DE_CFG and LFENCE_UNKNOWN,
 * which the caller explains (the MSR's outcome; the vendor). */
const char *lfence_why(enum lfence_rule rule);

#endif

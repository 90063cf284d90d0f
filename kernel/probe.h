/* kernel/probe.h - what CPU this is (CPUID, SDM Vol. 2A "CPUID"). */
#ifndef KERNEL_PROBE_H
#define KERNEL_PROBE_H

#include <stdint.h>
#include "multiboot.h"
#include "../lib/cpuinfo.h"

/* probe_cpu - fill *c from this CPU's CPUID (lib/cpuinfo.h cpuinfo_read,
 * the code the host tests run on real CPUs' dumps). First, on Intel, a
 * BIOS's "Limit CPUID Maxval" (IA32_MISC_ENABLE[22]) is cleared as Linux
 * does (cpuid_limit_lift, with the fault-safe MSR accessors), so that
 * max_basic and every leaf read after it are the CPU's own; what was done
 * is in c->cpuid_limit. Never faults (CPUID is checked in boot; the IDT
 * must be set up: trap_init). */
void probe_cpu(struct cpu_info *c);

/* probe_print - the environment header: human lines and one "env" record. */
void probe_print(const struct cpu_info *c, const struct boot_info *bi);

#endif

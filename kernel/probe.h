/* kernel/probe.h - what CPU this is (CPUID, SDM Vol. 2A "CPUID"). */
#ifndef KERNEL_PROBE_H
#define KERNEL_PROBE_H

#include <stdint.h>
#include "multiboot.h"
#include "../lib/cpuinfo.h"

/* probe_cpu - fill *c from this CPU's CPUID (lib/cpuinfo.h cpuinfo_read,
 * the code the host tests run on real CPUs' dumps). Never faults (CPUID is
 * checked in boot). */
void probe_cpu(struct cpu_info *c);

/* probe_print - the environment header: human lines and one "env" record. */
void probe_print(const struct cpu_info *c, const struct boot_info *bi);

#endif

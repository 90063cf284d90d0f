/* tests/boot/smi_fault_test.c - linked only into a test build (EXTRA_SRC;
 * tests/boot/t_figures.py): MSR_SMI_COUNT reads as the CPU has it for the
 * first SMI_GOOD_READS reads, then faults (#GP), as an MSR can start to
 * under a hypervisor or firmware that traps it. QEMU TCG's MSR 34H never
 * faults by itself. With methods=cpuid,rdtscp and one workload of 3
 * ensembles, read 1 is the boot check and reads 2-13 bracket cpuid's six
 * ensembles; rdtscp's empty window then loses its count at its third
 * ensemble's closing read (read 19). */
#include <stdint.h>
#include "../../kernel/msr.h"
#include "../../kernel/trap.h"

#define SMI_GOOD_READS 18

int bench_smi_read(uint64_t *v);
int bench_smi_read(uint64_t *v)
{
	static unsigned reads;
	if (++reads > SMI_GOOD_READS) {
		*v = 0;
		return TRAP_FAULTED | 13; /* #GP, as rdmsr_safe reports it */
	}
	return rdmsr_safe(MSR_SMI_COUNT, v);
}

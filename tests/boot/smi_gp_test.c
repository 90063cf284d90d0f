/* tests/boot/smi_gp_test.c - linked only into a test build (EXTRA_SRC;
 * tests/boot/t_quiet.py): every read of MSR_SMI_COUNT faults with #GP, as
 * on an Intel CPU or a hypervisor without the MSR. QEMU TCG and KVM both
 * implement MSR 34H, so no stock QEMU CPU makes the read fault by itself.
 * Both readers are replaced: the boot's (kernel/machine.c) and the
 * per-ensemble one (bench/run.c). */
#include <stdint.h>
#include "../../kernel/trap.h"

int machine_smi_read(uint64_t *v);
int machine_smi_read(uint64_t *v)
{
	*v = 0;
	return TRAP_FAULTED | 13; /* #GP, as rdmsr_safe reports it */
}

int bench_smi_read(uint64_t *v);
int bench_smi_read(uint64_t *v)
{
	return machine_smi_read(v);
}

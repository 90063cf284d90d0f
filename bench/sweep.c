/* bench/sweep.c - see sweep.h. (Interface first: filled in by the issue's
 * sweep work.) */
#include "sweep.h"

int sweep_prepare(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cfg, (void)cpu;
	return 0;
}

void sweep_run(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cfg, (void)cpu;
}

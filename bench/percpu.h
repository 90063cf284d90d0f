/* bench/percpu.h - cpus= (docs/MACHINE.md "Every CPU: `cpus=`"): the machine's CPUs listed
 * with their topology and core type, the ones cpus= selects, and the run
 * of the selected methods and workloads on each of them in turn, one CPU
 * at a time, every other CPU parked (kernel/smp.h smp_run_on).
 *
 * Sources: issue 14; SDM Vol. 2A CPUID leaves 0BH/1FH (topology), 07H:EDX[15]
 * and 1AH (hybrid core type); the selection logic is lib/cpus.c (host-tested).
 */
#ifndef BENCH_PERCPU_H
#define BENCH_PERCPU_H

#include <stdint.h>
#include "results.h"
#include "../kernel/probe.h"

/* percpu_list - after smp_start(): read the topology (the boot CPU's
 * CPUID leaves) and each online CPU's core type (CPUID on that CPU, through
 * smp_run_on), and print the cpus: lines (one per CPU: APIC ID, boot CPU,
 * online or why not, package/core/thread, core type) and the cpus record.
 * Then select the CPUs cpus= names (value: cpus= as given, "boot" when empty),
 * printing one line for each CPU left out and for a bad value (counted in
 * *problems). Returns the number of CPUs selected, >= 1 (the boot CPU when
 * nothing else is left). Its tables, per CPU listed (about 45 bytes each),
 * come from the pool (kernel/mem.h) when there is more than one CPU; when
 * they do not fit, one line says the bytes needed, nothing is listed, the
 * run is the boot CPU's alone (percpu_active 0; a problem in *problems
 * only when cpus= asked for more). */
int percpu_list(const struct cpu_info *boot, const char *value, int *problems);

/* percpu_active - whether the run is per CPU (cpus= other than boot, valid):
 * records then carry "cpu" and "apic_id". */
int percpu_active(void);

/* percpu_run - run bench_run on each selected CPU in MADT order, into
 * results[0..count-1] (count as percpu_list returned): on an AP, first its
 * own CPUID (probe_cpu), LAPIC quieting (quiet_timers), LFENCE report and
 * PMU programming (pmu_setup, counting check), all printed under that CPU,
 * then the CPU's final tables (bench/summary.h summary_tables).
 * Every record printed meanwhile carries "cpu" and "apic_id"
 * (lib/record.h record_set_cpu). Then the side-by-side table: each workload's
 * net least minimum on each CPU (P-cores before E-cores), a line each and a
 * cpu_compare record. Sums the totals into *sum (methods run, skipped,
 * ensemble errors over all CPUs). Returns the CPUs measured. */
struct config;
int percpu_run(const struct config *cfg, uint64_t *ticks, uint64_t samples, struct bench_results *results,
	       struct run_totals *sum);

/* percpu_screen - the CPUs measured and their results for the screen
 * summary's per-CPU section (bench/screen.h struct screen_cpus): the
 * first SCREEN_CPUS_MAX of them, with their results, CPU numbers and core
 * types (0: not hybrid); active as percpu_active(). */
struct screen_cpus;
void percpu_screen(struct screen_cpus *out);

#endif

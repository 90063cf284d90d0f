/* bench/plan.h - running a plan: many experiments in one boot (README
 * "Running a plan", issue 32). The plan file's bytes are kernel/planfile.h's,
 * its format lib/plan.h's; this room checks every experiment before anything
 * is measured, then runs each in turn after the one boot-wide probe, each
 * with its own configuration (kernel/config.h config_plan_experiment), its
 * own offsets and its own answer (bench/experiment.h), its memory taken
 * back between experiments (kernel/mem.h mem_mark, mem_release; kernel/
 * memarea.h memarea_release; bench/run.h bench_run_release). Records:
 * plan, experiment, experiment_end, the end record's experiments_* fields
 * (docs/RECORDS.md); lines: docs/OUTPUT.md "A plan's lines". */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

struct config;
struct cpu_info;
struct bench_results;

/* plan_load - at boot, right after planfile_load and before the console
 * is up: with plan= given, its file parsed (lib/plan.h plan_parse) and its
 * defaults line applied to the boot's configuration (kernel/config.h
 * config_plan_defaults: its boot-wide keys, console= among them, apply to
 * the whole boot). A file not found or too large (kernel/planfile.h says
 * why), and each problem of the file's lines, is a command-line problem
 * (config_add_problems), its line kept for plan_print_problems. */
void plan_load(void);

/* plan_print_problems - plan_load's lines, printed (after
 * config_print_problems); nothing without plan=. */
void plan_print_problems(void);

/* plan_active - 1 when plan= named a file whose text holds at least one
 * experiment: bench/main.c then calls plan_run instead of measuring the
 * command line's configuration. */
int plan_active(void);

/* plan_run - after the boot-wide probe (probe, ACPI, TSC rate, SMP, PMU,
 * turbo=, pstate=, prefetch=): every experiment's configuration parsed
 * and its keys' users run (events=, mem=, sweep=, code=, samples= beyond
 * memory) with their memory taken back, before anything is measured (each
 * problem a line prefixed "plan: FILE line N (NAME): "; any problem stops
 * the run as a bad boot parameter does, unless problems=ignore); then the
 * boot's configuration line and record, the plan record, the serial log's
 * RAM copy for every experiment's estimate, and each experiment in turn:
 * its "plan: experiment I of N" line and experiment record, its own
 * configuration, lines and records, its experiment_end. An experiment
 * whose code faults is said faulted and the next runs; one whose buffers
 * do not fit is skipped with why. Ends the run (bench/finish.h
 * finish_run): never returns. counters: bench_counters_possible(); per,
 * ncpus: cpus='s results (NULL: the boot CPU alone); problems: the keys'
 * users' found at boot (cpus=). */
void plan_run(const struct config *cfg, const struct cpu_info *cpu, int counters, struct bench_results *per,
	      int ncpus, int problems) __attribute__((noreturn));

#endif

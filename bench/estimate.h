/* bench/estimate.h - the serial estimate: how many bytes the run will
 * print and how long that takes at the serial console's rate, said in the
 * config section before anything is measured (issue 13, "a lean serial
 * log": a lab user sees at once whether a run's printing fits its time).
 * Printing only; an estimate, within ~25 % of what is printed (tested by
 * tests/boot/t_lean.py, measured by tests/bench/run_benchmarks.py). */
#ifndef BENCH_ESTIMATE_H
#define BENCH_ESTIMATE_H

#include <stdint.h>

struct cpu_info;

/* estimate_serial - a "serial:" line and a "serial_estimate" record: the
 * bytes the run will print (the bytes printed so far plus the counts of
 * its lines and records times their sizes, bench/estimate.c) and how long
 * they take at the serial console's baud rate (8N1: 10 bits a byte), or
 * that nothing goes to a serial port. c: the configuration (sizes, methods,
 * workloads, output level); counters: 1 when counters will be
 * read beside the TSC methods (3 series each, the ctr_ methods run); cpus:
 * the CPUs measured in turn (cpus=; 1 for the boot CPU alone). */
struct config;
void estimate_serial(const struct config *c, const struct cpu_info *cpu, int counters, int cpus);

/* estimate_serial_bytes - the bytes the last estimate_serial said the run
 * prints (0 before it ran): the serial side of the time left on the
 * screen's progress area (bench/progress.h). */
uint64_t estimate_serial_bytes(void);

#endif

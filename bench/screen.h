/* bench/screen.h - the one-screen summary that stays on the screen after
 * the run (a photo records it), and the QR code of the results beside it
 * (kernel/qr.h, with the text of lib/qrtext.h). Screen only: the serial log
 * has all of it above; the figures come from bench/results.c. */
#ifndef BENCH_SCREEN_H
#define BENCH_SCREEN_H

#include <stdint.h>
#include "results.h"
#include "../lib/qrtext.h"

struct config;
struct cpu_info;

/* The CPUs measured in turn (cpus= other than boot: bench/percpu.h
 * percpu_screen fills it), for the screen summary's per-CPU section: active
 * when the run was per CPU; n of them shown (at most SCREEN_CPUS_MAX), each
 * with its results, CPU number and core type (0: not hybrid). */
#define SCREEN_CPUS_MAX 6
struct screen_cpus {
	int active;
	int n;
	const struct bench_results *r[SCREEN_CPUS_MAX];
	int number[SCREEN_CPUS_MAX];
	uint8_t type[SCREEN_CPUS_MAX];
};

/* A plan's experiment on the end screen and in the QR text (README
 * "Running a plan"): its name, status (complete, faulted, skipped), its
 * row's text after them (the answer: the figure per copy with its unit
 * and bound, or why there is none) and its xa line (NULL: none). */
struct screen_experiment {
	const char *name;
	const char *status;
	const char *answer;
	const struct qrtext_percopy *pc;
};

/* screen_plan - a plan run (bench/plan.h), before bench_screen_summary:
 * the file and its n experiments (at most PLAN_EXPERIMENTS_MAX, lib/plan.h),
 * shown as a row each in place of the "your code" section (the last
 * experiment's), and in the QR text as x and xa lines in place of the
 * code, pc, pa, pe and cf lines (lib/qrtext.h). x stays the caller's. */
void screen_plan(const char *file, const struct screen_experiment *x, int n);

/* bench_screen_summary - the one-screen summary that stays on the screen
 * after the run, so that a photo records it: the machine (brand, family,
 * model, stepping, microcode, TSC rate), the sizes, SMIs and NMIs; per
 * method its offset (TSC ticks and ns; core cycles for the ctr_ methods),
 * total variance, variance of variances, variance of minimum values and
 * verdict (paper 4); with code=, the "your code" section (per method the
 * N window's net and the figure per copy in its own unit, or where the
 * code faulted); per workload its net least minimum by the
 * recommended method in TSC ticks and ns, with core cycles and
 * instructions retired where counters were read; then final_line. As
 * wide as the screen up to 132 columns (longer lines wrap), 23 rows (the
 * final line may take two more): wider figures are shown as d.dde+N. The
 * methods skipped with their reasons when no serial port holds them. Screen only (the serial log has all of it
 * above); clears the screen first; no effect without a screen. Call after
 * bench_run and the final line. cfg: the run's configuration (its sizes,
 * methods and verdict thresholds); cpus: the per-CPU rows (NULL: the boot CPU
 * alone). On a framebuffer the QR code of the
 * results follows (kernel/qr.h), beside or below the summary, or on pages
 * of its own that kernel/exit.c shows in turn after the halt line. */
struct config;
void bench_screen_summary(const struct config *cfg, const struct cpu_info *cpu, const struct bench_results *r,
			  const struct screen_cpus *cpus, const char *final_line);

#endif

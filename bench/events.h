/* bench/events.h - the events= boot parameter (README "Performance events";
 * docs/EVENTS.md): names resolved to encodings (lib/events.h) from CPUID
 * alone, scheduled into passes (lib/evsched.h), each pass programmed
 * (lib/pmugp.h through kernel/pmu.h) and checked on the machine
 * (lib/pmucheck.h) before its figures are trusted. bench/run.c measures the
 * windows of each pass (bench/evrun.c); this file owns everything before
 * and around that.
 *
 * Lines and records it prints: one `event` record per event resolved
 * (name, source, perfevtsel, counter, pass, ...), one `events: pass P of
 * Q: ...` line per pass, the `events:` line saying why nothing counts
 * here when so (CPUID.0AH:EAX version 0, pmu=off, ...), and the check's
 * lines and `event_check` records.
 *
 * ISSUE 30 INTERFACE: owned by the events front-end work; bench/run.c and
 * bench/evrun.c call it. */
#ifndef BENCH_EVENTS_H
#define BENCH_EVENTS_H

#include <stdint.h>
#include "../lib/events.h"

/* Most counters one pass reads (the unrolled RDPMC reads of the event
 * windows, bench/methods.h SEQ_EV_*). */
#define BENCH_EV_SLOTS 16
/* Most events one events= takes (groups expanded). */
#define BENCH_EV_MAX 64

struct bench_event {
	struct ev_def def;
	int pass;            /* 0..passes-1, or -1 when not scheduled */
	int slot;            /* its read in the pass: 0..BENCH_EV_SLOTS-1 */
	int counter;         /* GP index, or 32 + fixed index (lib/evsched.h) */
	char counter_name[24]; /* "PMC0", "FIXED_CTR1" */
	uint32_t rdpmc_ecx;
	unsigned width;      /* bits: deltas are modulo 2^width */
	int checked;         /* its pass's check ran */
	int verified;        /* checked, and the check predicted it and it held, or did not
			      * predict it (then `predicted` is 0) */
	int predicted;       /* the check had an expectation for it */
	char check[160];     /* the check's text for it, "" before */
};

struct config;
struct cpu_info;

/* events_prepare - after probe_cpu: resolve every item of events=
 * (config's text) on this CPU, schedule them into passes on the counters
 * CPUID enumerates (or, when none count here, still print every `event`
 * record with the value it would program and one `events:` line saying
 * why it cannot count), print the records and pass lines. A name that
 * does not resolve is a command-line problem (config: line with
 * did-you-mean; config_add_problems). Returns the number of problems. */
int events_prepare(const struct config *c, const struct cpu_info *cpu);

/* events_count - events resolved (0 without events=). */
int events_count(void);

/* events_at - event i, 0 <= i < events_count(). */
const struct bench_event *events_at(int i);

/* events_passes - passes to measure: 0 when nothing can count here. */
int events_passes(void);

/* events_pass_begin - program pass p's counters and run the check on
 * them (its lines and records printed); fill ecx[0..BENCH_EV_SLOTS-1]
 * (slots beyond the pass's events repeat slot 0's ECX, so every window
 * reads the same number of counters) and which[slot] = the event index
 * (or -1). Returns the number of events in the pass, or -1 after
 * printing why the pass cannot be measured (a programming fault). */
int events_pass_begin(int p, uint32_t ecx[BENCH_EV_SLOTS], int which[BENCH_EV_SLOTS]);

/* events_pass_end - stop pass p's counters (every GP PERFEVTSEL 0; the
 * fixed counters as pmu_program left them). */
void events_pass_end(int p);

#endif

/* bench/estimate.c - see estimate.h. */
#include "estimate.h"
#include "code.h"
#include "events.h"
#include "report.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

#define ULL(x) ((unsigned long long)(x))

static const struct config *cfg; /* estimate_serial's */
static uint64_t estimated;       /* its bytes */

uint64_t estimate_serial_bytes(void)
{
	return estimated;
}

/* What the run will print, estimated from the counts of the lines and
 * records it prints and their sizes: the fixed text of a paper-format line
 * and of a compact record taken from the format strings that print them
 * (bench/report.h), the figures' typical widths and the rest measured on
 * QEMU TCG runs of the default size (the figures of a noisy TCG run: about
 * 11 characters for the three of a paper-format line, 20 for the five of
 * a compact record) and of 1 and 3 methods x 2 and 7 workloads for the
 * fixed part. tests/bench/run_benchmarks.py (serial_budget) prints how far
 * it is from what a run printed. Not counted: progress lines (one every
 * few seconds) and the code= lines. */

/* The characters of fmt that are not conversions: each %llu, %d or %s
 * (the only ones the two formats use) counts 0. */
static uint64_t fixed_chars(const char *fmt)
{
	uint64_t n = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			n++;
			continue;
		}
		while (*p && *p != 'u' && *p != 'd' && *p != 's')
			p++;
		if (!*p)
			break;
	}
	return n;
}

/* "loop_size:J >>>> ..." without J's digits: its fixed text and the
 * typical 11 digits of its three figures. */
#define EST_PAPER_FIGURES 11
/* {"e":[U,J,...]} without J's digits and without SMIs (",SMIS", the %s
 * at its end: the common case, not read or no disturbance): its fixed
 * text, U's one digit and the typical 16 characters of MIN, MAX,
 * VARIANCE, MEDIAN and NMIS. */
#define EST_COMPACT_FIGURES 17
#define EST_FULL 349      /* a full ensemble record without J, names, unit and samples */
#define EST_SECONDARY_SERIES_HALF 2 /* a counter's series prints half a series' fixed part */
#define EST_SELF 700      /* this line and record */

/* Bytes besides the ensembles' lines, by output level: per series of the
 * method's own unit (method lines and record, summaries), per method run
 * (its verdict), once (recommendation, tables, end record, final line). */
static const struct {
	uint16_t series, method, once;
} est_fixed[] = {
	[OUTPUT_HUMAN] = { 1230, 100, 950 },
	[OUTPUT_JSON] = { 750, 400, 1300 },
	[OUTPUT_BOTH] = { 1960, 300, 1400 },
	[OUTPUT_FULL] = { 1960, 300, 1400 },
	[OUTPUT_SUMMARY] = { 1960, 300, 1400 },
};

/* Decimal digits of x. */
static uint64_t digits_of(uint64_t x)
{
	uint64_t d = 1;
	for (; x >= 10; x /= 10)
		d++;
	return d;
}

/* Decimal digits of 0..n-1, summed: what the ensemble numbers take. */
static uint64_t digits_below(uint64_t n)
{
	uint64_t sum = 0, lo = 0, hi = 10;
	for (uint64_t d = 1; lo < n; d++, lo = hi, hi *= 10)
		sum += d * ((n < hi ? n : hi) - lo);
	return sum;
}

/* What the ensembles of one (method, workload) print, with its fixed part:
 * units series (the method's own first), lm and lw the names' lengths. */
static uint64_t est_workload(int units, uint64_t lm, uint64_t lw, int resolution, uint64_t *paper,
			     uint64_t *records)
{
	uint64_t e = cfg->ensembles, jd = digits_below(e), b = 0;
	if (config_human() && config_per_ensemble()) {
		b += e * (fixed_chars(REPORT_PAPER_LINE) + EST_PAPER_FIGURES) + jd;
		*paper += e;
	}
	for (int u = 0; u < units && config_json() && config_per_ensemble(); u++) {
		b += config_full() ? e * (EST_FULL + lm + lw + strlen(unit_key[u]) + digits_of(cfg->samples)) + jd
				   : e * (fixed_chars(REPORT_COMPACT_RECORD) + EST_COMPACT_FIGURES) + jd;
		*records += e;
	}
	b += est_fixed[cfg->output].series + (uint64_t)(units - 1) * est_fixed[cfg->output].series /
					       EST_SECONDARY_SERIES_HALF;
	if (cfg->dump != CFG_OFF) { /* samples records of at most 100 values of ~3 digits */
		uint64_t n = cfg->samples < DUMP_MAX_SAMPLES ? cfg->samples : DUMP_MAX_SAMPLES;
		b += (n + 99) / 100 * (100 + lm + lw) + n * 4;
	}
	if (cfg->walk) /* a walk line and record per window walked */
		b += (resolution ? e : 1) * ((config_human() ? 250 : 0) + (config_json() ? 150 : 0));
	return b;
}

/* The workloads measured besides the empty window and code=. */
static int selected_workloads(void)
{
	int n = 0;
	for (int i = 0; i < workload_count(); i++)
		if (!(workload_at(i)->flags & (WL_OFFSET | WL_RESOLUTION)) && config_workload_selected(i))
			n++;
	return n;
}

/* events= (bench/evrun.c), per TSC method: each pass's check line and
 * event_check records, per window a line naming each event's figures
 * (with the check's text where unverified) and an event_window record per
 * event, for code= an event_per_copy line and record per event and its
 * your-code row: sizes seen in the fake PMU build under QEMU (about 70
 * bytes an event in a line, 190 a record), rounded up, so that the log
 * kept in RAM (bench/main.c: twice the estimate) holds them. */
static uint64_t est_events(int windows)
{
	uint64_t n = (uint64_t)events_count();
	if (!events_passes() || !n)
		return 0;
	uint64_t human = config_human() ? 70 : 0, json = config_json() ? 190 : 0;
	return (uint64_t)events_passes() * 400 + n * (human + json) * ((uint64_t)windows + 3);
}

/* A CPU's own section in a per-CPU run (cpus=): its quiet:, lfence and
 * pmu: lines and records, measured under QEMU (about 3.5 KB). */
#define EST_PER_CPU 3500

void estimate_serial(const struct config *c, const struct cpu_info *cpu, int counters, int cpus)
{
	cfg = c;
	uint64_t base = console_bytes_written() + EST_SELF + est_fixed[cfg->output].once;
	uint64_t bytes = base;
	uint64_t series = 0, paper = 0, records = 0;
	int run = 0;
	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		if (!((cfg->methods >> m) & 1))
			continue;
		const char *why = method_unavailable(m, cpu);
		uint64_t lm = strlen(methods[m].name);
		if (why || (method_is_ctr(m) && !counters)) { /* a skip line and record */
			uint64_t lw = why ? strlen(why) : 40;
			bytes += 20 + lm + lw + (config_json() ? 36 + lm + lw : 0u);
			continue;
		}
		int units = method_is_ctr(m) ? 2 : counters ? 3 : 1;
		run++;
		bytes += est_fixed[cfg->output].method;
		for (int i = 0; i < workload_count(); i++) {
			const struct workload *w = workload_at(i);
			int res = (w->flags & WL_RESOLUTION) != 0;
			if (!(w->flags & WL_OFFSET) && !(res ? cfg->resolution != 0 : config_workload_selected(i)))
				continue;
			bytes += est_workload(units, lm, strlen(w->name), res, &paper, &records);
			series += (uint64_t)units;
		}
		int windows = 1;
		for (int k = 0; k < 2 && code_configured(); k++) { /* code=: N copies and 2N */
			bytes += est_workload(units, lm, strlen(cfg->code_name) + 3, 0, &paper, &records);
			series += (uint64_t)units;
			windows++;
		}
		if (!method_is_ctr(m))
			bytes += est_events(windows + selected_workloads());
	}
	if (cpus > 1) { /* the same run on each CPU, each with its own section */
		bytes = base + (bytes - base + EST_PER_CPU) * (uint64_t)cpus;
		series *= (uint64_t)cpus;
		paper *= (uint64_t)cpus;
		records *= (uint64_t)cpus;
		run *= cpus;
	}
	estimated = bytes;
	uint32_t baud = console_serial_baud();
	uint64_t ms = baud ? bytes * 10000 / baud : 0; /* 8N1: 10 bits a byte */
	char when[128] = "but nothing goes to a serial port here (console=none, or no UART answered)", min[32] = "";
	if (ms >= 120000)
		fmt_format(min, sizeof min, " (%llu.%llu min)", ULL(ms / 60000), ULL(ms % 60000 / 6000));
	if (baud)
		fmt_format(when, sizeof when, "about %llu.%llu s%s at %u baud (8N1: 10 bits a byte)",
			   ULL(ms / 1000), ULL(ms % 1000 / 100), min, baud);
	char recs[64] = "no ensemble records";
	if (!config_per_ensemble())
		fmt_format(recs, sizeof recs, "no per-ensemble lines or records (output=summary)");
	else if (records)
		fmt_format(recs, sizeof recs, "%llu %s ensemble records", ULL(records),
			   config_full() ? "full" : "compact");
	kprintf("serial: this run prints about %llu KB (%llu bytes), %s; an estimate: the bytes printed so "
		"far plus %llu paper-format lines, %s and the summaries of %llu series of %llu ensembles "
		"(%d method%s run), at typical sizes measured under QEMU\n",
		ULL((bytes + 500) / 1000), ULL(bytes), when, ULL(paper), recs, ULL(series), ULL(cfg->ensembles),
		run, run == 1 ? "" : "s");
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "serial_estimate");
		rec_u64(&r, "bytes", bytes);
		rec_u64_or_null(&r, "baud", baud != 0, baud);
		rec_u64_or_null(&r, "ms", baud != 0, ms);
		rec_u64(&r, "paper_lines", paper);
		rec_u64(&r, "ensemble_records", records);
		rec_bool(&r, "compact", !config_full());
		rec_u64(&r, "series", series);
		rec_u64(&r, "ensembles", cfg->ensembles);
		rec_i64(&r, "methods_run", run);
		rec_end(&r);
	}
}

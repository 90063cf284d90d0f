/* bench/progress.c - see progress.h. */
#include "progress.h"
#include "estimate.h"
#include "workload.h"
#include "code.h"
#include "../kernel/clocks.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../lib/eta.h"
#include "../lib/fmt.h"
#include "../lib/tscfreq.h"

#define PROGRESS_ROWS 4
/* Between two redraws between ensembles: a quarter of a second of the
 * TSC, or 2^28 ticks while its rate is unknown. */
#define PROGRESS_PER_SECOND 4
#define PROGRESS_TICKS_NO_RATE (1ull << 28)

static struct {
	int open;                  /* the area is on the screen */
	int methods, workloads, cpus; /* per CPU, per method, CPUs in turn */
	uint64_t total, done;      /* ensembles */
	int cpu, method, workload; /* 1-based places of the current one; 0: none yet */
	enum method_id m;
	const char *wname;
	uint64_t t0, drawn;        /* TSC at progress_begin, at the last redraw */
} p;

/* The redraw: four rows (progress.h). */
static void draw(void)
{
	char line[200], cpu[32] = "", a[24], b[24];
	p.drawn = rdtsc();
	console_area_line(0, console_serial_baud() ? "progress of the run (the records and the log: serial port only)"
						   : "progress of the run (no serial port: the results follow on "
						     "this screen at the end)");
	if (p.cpus > 1)
		fmt_format(cpu, sizeof cpu, "CPU %d of %d, ", p.cpu, p.cpus);
	if (p.method)
		fmt_format(line, sizeof line, "%smethod %d of %d: %s; workload %d of %d: %s", cpu, p.method,
			   p.methods, methods[p.m].name, p.workload, p.workloads, p.wname);
	else
		fmt_format(line, sizeof line, "%s%d methods of %d workloads each to measure", cpu, p.methods,
			   p.workloads);
	console_area_line(1, line);
	fmt_format(line, sizeof line, "ensembles %llu of %llu done (%llu %%)", (unsigned long long)p.done,
		   (unsigned long long)p.total, (unsigned long long)(p.total ? p.done * 100 / p.total : 100));
	console_area_line(2, line);

	uint64_t ticks = p.drawn - p.t0, hz = clocks_tsc_rate()->hz, ns;
	if (!hz || ticks_to_ns(ticks, hz, &ns)) {
		uint64_t left = eta_by_work(ticks, p.done, p.total);
		fmt_format(line, sizeof line, "elapsed %llu TSC ticks (TSC rate unknown); time left about %s%s",
			   (unsigned long long)ticks, left == ETA_UNKNOWN ? "unknown" : fmt_fit_u64(a, sizeof a, left, 20),
			   left == ETA_UNKNOWN ? "" : " TSC ticks (by the ensembles done so far)");
	} else {
		uint64_t ms = ns / 1000000, est = estimate_serial_bytes(), out = console_bytes_written();
		uint64_t by_work = eta_by_work(ms, p.done, p.total);
		uint64_t by_serial = eta_by_bytes(est > out ? est - out : 0, console_serial_baud());
		int serial = by_serial != ETA_UNKNOWN && (by_work == ETA_UNKNOWN || by_serial > by_work);
		uint64_t left = serial ? by_serial : by_work;
		fmt_format(line, sizeof line, "elapsed %s; time left %s%s%s", eta_format(a, sizeof a, ms),
			   left == ETA_UNKNOWN ? "" : "about ", eta_format(b, sizeof b, left),
			   left == ETA_UNKNOWN ? " (no ensemble done yet)" : serial ? " (by the serial log still to print)"
										 : " (by the ensembles done so far)");
	}
	console_area_line(3, line);
}

void progress_begin(const struct config *c, const struct cpu_info *cpu, int counters, int cpus)
{
	p.methods = p.workloads = 0;
	for (int mi = 0; mi < METHOD_COUNT; mi++) {
		enum method_id m = (enum method_id)mi;
		p.methods += (c->methods >> m & 1) && !method_unavailable(m, cpu) && (counters || !method_is_ctr(m));
	}
	/* What bench/run.c runs per method, in its order. */
	for (int i = 0; i < workload_count(); i++) {
		unsigned f = workload_at(i)->flags;
		p.workloads += f & WL_OFFSET ? 1 : f & WL_RESOLUTION ? c->resolution != 0 : config_workload_selected(i);
	}
	p.workloads += code_configured() ? 2 : 0;
	p.cpus = cpus;
	p.total = (uint64_t)p.methods * (uint64_t)p.workloads * c->ensembles * (uint64_t)cpus;
	p.done = 0;
	p.cpu = 1;
	p.method = p.workload = 0;
	p.t0 = rdtsc();
	p.open = console_area_open(PROGRESS_ROWS) > 0;
	if (p.open)
		draw();
}

void progress_workload(enum method_id m, const struct workload *w)
{
	if (w->flags & WL_OFFSET) { /* a method begins: on the next CPU when it does not follow the last */
		if (p.method && m <= p.m)
			p.cpu++, p.method = 0;
		p.method++;
		p.workload = 0;
	}
	p.workload++;
	p.m = m;
	p.wname = w->name;
	if (p.open)
		draw();
}

void progress_ensemble(void)
{
	p.done++;
	if (!p.open)
		return;
	uint64_t hz = clocks_tsc_rate()->hz;
	uint64_t every = hz ? hz / PROGRESS_PER_SECOND : PROGRESS_TICKS_NO_RATE;
	if (rdtsc() - p.drawn >= every)
		draw();
}

void progress_end(void)
{
	if (!p.open)
		return;
	draw();
	console_area_close();
	p.open = 0;
}

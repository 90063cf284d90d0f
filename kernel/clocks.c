/* kernel/clocks.c - see clocks.h. */
#include "clocks.h"
#include "acpi.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

#define HPET_GCAP_ID 0x000      /* General Capabilities and ID (HPET 1.0a 2.3.4) */
#define HPET_GCAP_COUNT_SIZE (1ull << 13)
#define HPET_GEN_CONF 0x010     /* General Configuration (2.3.5) */
#define HPET_ENABLE_CNF 0x1u
#define HPET_MAIN_COUNTER 0x0F0 /* Main Counter Value (2.3.7) */
#define PM_TIMER_HZ 3579545u    /* ACPI 6.5 4.8.3.3 */
#define MAPPED_END 0x100000000ull /* the identity map: the first 4 GiB (boot/entry.asm) */

/* A window's reads: the best (narrowest bracket) of this many. */
#define READ_TRIES 8
/* Give up on a window after 4 x 50 ms at 10 GHz in TSC ticks, or after
 * this many reads (an uncached read takes well over 10 ns; under QEMU
 * -icount a poll is about 15 instructions, 15 virtual ns). */
#define WINDOW_LIMIT_TICKS 2000000000ull
#define WINDOW_LIMIT_POLLS 20000000ull

static const char *const clock_names[CLOCK_COUNT] = { "cpuid", "pit", "hpet", "pmtimer" };

/* A counter to calibrate against: the HPET's main counter or the PM timer. */
struct counter {
	const char *name;       /* as in clock_names */
	unsigned bits;          /* 24, 32 or 64 */
	uint64_t ref_num, ref_den; /* it counts ref_num / ref_den Hz */
	uint64_t target;        /* periods in a 50 ms window */
	volatile const uint8_t *mmio; /* the HPET's registers, or NULL */
	uint16_t port;          /* the PM timer's port, or 0 */
};

static uint64_t counter_read(const struct counter *k)
{
	if (!k->mmio)
		return inl(k->port);
	if (k->bits == 64)
		return *(volatile const uint64_t *)(k->mmio + HPET_MAIN_COUNTER);
	return *(volatile const uint32_t *)(k->mmio + HPET_MAIN_COUNTER);
}

/* One read of the counter between two RDTSCs, the narrowest of
 * READ_TRIES. The uncached read (I/O, or MMIO of UC type) executes only
 * once it is the oldest instruction, after the first RDTSC; CPUID, which
 * is serializing (SDM Vol. 3A 10.3, "Serializing Instructions"), makes the
 * second RDTSC wait for the read's data. */
static void read_bracketed(const struct counter *k, uint64_t *t1, uint64_t *v, uint64_t *t2)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < READ_TRIES; i++) {
		uint64_t a = rdtsc();
		uint64_t x = counter_read(k);
		cpuid(0, 0);
		uint64_t b = rdtsc();
		if (b - a < best) {
			best = b - a;
			*t1 = a;
			*v = x;
			*t2 = b;
		}
	}
}

static const char err_backwards[] = "the counter went backwards (or a pause between two reads was longer than its "
				    "wrap)";
static const char err_limit[] = "the counter did not reach 50 ms (gave up after 4x the window at 10 GHz or 2x10^7 "
				"reads): it is not counting";
static const char err_rate[] = "no rate from the window (the TSC did not advance, or the figures overflow)";

/* One window of k->target periods; 0, or -1 with r->error, -2 with
 * r->error when the counter does not count. */
static int counter_window(const struct counter *k, struct counter_cal *r)
{
	struct tscfreq_window w;
	*r = (struct counter_cal){ 0 };
	read_bracketed(k, &w.a1, &w.c0, &w.a2);
	uint64_t done = 0;
	for (;;) {
		uint64_t d = tscfreq_counter_delta(w.c0, counter_read(k), k->bits);
		uint64_t now = rdtsc();
		r->polls++;
		if (d < done) {
			r->error = err_backwards;
			return -1;
		}
		done = d;
		if (done >= k->target)
			break;
		if (now - w.a2 > WINDOW_LIMIT_TICKS || r->polls >= WINDOW_LIMIT_POLLS) {
			r->ticks = now - w.a2;
			r->counts = done;
			r->error = err_limit;
			return -2;
		}
	}
	read_bracketed(k, &w.b1, &w.c1, &w.b2);
	struct tscfreq_window_rate wr;
	r->start_read = w.a2 - w.a1;
	r->end_read = w.b2 - w.b1;
	if (tscfreq_window_rate(&w, k->bits, k->ref_num, k->ref_den, &wr)) {
		r->error = err_rate;
		return -1;
	}
	r->hz = wr.hz;
	r->ppm = wr.ppm;
	r->ticks = wr.ticks;
	r->counts = wr.counts;
	return 0;
}

/* counter_window as struct cal_windows (below) runs it: clock a struct
 * counter, result a struct counter_cal. The window works on a local copy,
 * so that its poll loop keeps its count in a register. */
static int counter_run(const void *clock, void *result, uint32_t *ppm)
{
	struct counter_cal r;
	int err = counter_window(clock, &r);
	*(struct counter_cal *)result = r;
	*ppm = r.ppm;
	return err;
}

/* One 50 ms window against the PIT (kernel/pit.h) as struct cal_windows
 * runs it: result a struct pit_cal. */
static int pit_run(const void *clock, void *result, uint32_t *ppm)
{
	struct pit_cal *r = result;
	(void)clock;
	int err = pit_calibrate_tsc(PIT_COUNTS_50MS, r);
	*ppm = r->ppm;
	return err;
}

/* The windows of one clock, for clock_best: run(clock, result, ppm) runs
 * one, filling result (size bytes: a struct pit_cal or struct
 * counter_cal), and returns 0 with *ppm its bound; -1 when it failed but
 * another may succeed; -2 when another will not help (no such clock, or
 * it does not count, which costs up to 4 windows at 10 GHz to find). */
struct cal_windows {
	int (*run)(const void *clock, void *result, uint32_t *ppm);
	const void *clock;
	size_t size;
};

/* clock_best - one calibration: up to TSC_RATE_TRIES windows of k,
 * stopping at the first whose bound is within TSC_RATE_TARGET_PPM. A
 * pause at a window's end (an SMI; under a hypervisor, the host running
 * something else) shows as a wide bound, so another window is tried
 * rather than the figure trusted. *best is the window of the smallest
 * bound, or the last failed one (its error) when none succeeded; *used
 * the windows run. Returns 0, or -1 when every window failed. */
static int clock_best(const struct cal_windows *k, void *best, int *used)
{
	union {
		struct pit_cal pit;
		struct counter_cal counter;
	} w;
	uint32_t ppm, best_ppm = 0;
	int have = 0;
	for (*used = 1;; (*used)++) {
		int err = k->run(k->clock, &w, &ppm);
		if (err) {
			if (!have)
				memcpy(best, &w, k->size);
			if (err == -2)
				break;
		} else {
			if (!have || ppm < best_ppm) {
				memcpy(best, &w, k->size);
				best_ppm = ppm;
			}
			have = 1;
			if (ppm <= TSC_RATE_TARGET_PPM)
				break;
		}
		if (*used == TSC_RATE_TRIES)
			break;
	}
	return have ? 0 : -1;
}

static void print_counter_cal(const struct counter *k, int run, const struct counter_cal *p, int windows)
{
	char mhz[TSCFREQ_MHZ_BUF], per[48];
	if (k->mmio)
		fmt_format(per, sizeof per, "HPET periods of %llu fs", (unsigned long long)k->ref_den);
	else
		fmt_format(per, sizeof per, "PM timer periods of %u Hz", PM_TIMER_HZ);
	if (p->error) {
		kprintf("tsc: %s run %d: FAILED after %d window%s: %s (%llu reads, %llu of %llu %s, %llu TSC ticks)\n",
			k->name, run, windows, windows == 1 ? "" : "s", p->error, (unsigned long long)p->polls,
			(unsigned long long)p->counts, (unsigned long long)k->target, per,
			(unsigned long long)p->ticks);
		return;
	}
	kprintf("tsc: %s run %d: %s +-%u ppm (best of %d window%s: %llu TSC ticks over %llu %s, %u-bit; "
		"%llu reads; reads bracketed by start %llu, end %llu ticks)\n",
		k->name, run, tscfreq_format_mhz(mhz, sizeof mhz, p->hz), p->ppm, windows, windows == 1 ? "" : "s",
		(unsigned long long)p->ticks, (unsigned long long)p->counts, per, k->bits,
		(unsigned long long)p->polls, (unsigned long long)p->start_read, (unsigned long long)p->end_read);
}

/* The HPET as a counter, enabled; NULL, or why there is none. */
static const char *hpet_counter(struct counter *k, uint32_t *conf)
{
	static char above[120];
	if (!acpi.rsdp_found)
		return "no ACPI tables, so no HPET table (QEMU -machine acpi=off)";
	if (!acpi.hpet_ok)
		return "no HPET table (QEMU -machine hpet=off; firmware that hides or disables the HPET)";
	if (acpi.hpet_base >= MAPPED_END - 0x400) {
		fmt_format(above, sizeof above, "its base 0x%llx is above 4 GiB, outside the memory mapped here: "
			   "not read", (unsigned long long)acpi.hpet_base);
		return above;
	}
	if (!acpi_hpet_period_fs)
		return "its counter period is out of range (0 or over 100 ns): not used";
	k->mmio = (volatile const uint8_t *)acpi.hpet_base;
	uint64_t cap = *(volatile const uint64_t *)(k->mmio + HPET_GCAP_ID);
	k->bits = cap & HPET_GCAP_COUNT_SIZE ? 64 : 32;
	k->ref_num = 1000000000000000ull; /* fs per second */
	k->ref_den = acpi_hpet_period_fs;
	k->target = 50000000000000ull / acpi_hpet_period_fs; /* 50 ms in fs, over the period */
	if (k->bits == 32 && k->target >= 1ull << 31)
		return "its 32-bit counter wraps in under 100 ms: not used";
	/* The main counter runs only while ENABLE_CNF is set; firmware may
	 * leave it clear. Set here, restored after. */
	volatile uint32_t *gc = (volatile uint32_t *)(acpi.hpet_base + HPET_GEN_CONF);
	*conf = *gc;
	if (!(*conf & HPET_ENABLE_CNF))
		*gc = *conf | HPET_ENABLE_CNF;
	return 0;
}

static const char *pm_counter(struct counter *k)
{
	if (!acpi.rsdp_found)
		return "no ACPI tables, so no FADT (QEMU -machine acpi=off)";
	if (!acpi.fadt_ok)
		return "no usable FADT";
	if (!acpi.pm_tmr_port)
		return "the FADT gives no PM timer block (PM_TMR_BLK 0; hardware-reduced ACPI)";
	k->port = (uint16_t)acpi.pm_tmr_port;
	k->bits = acpi.pm_tmr_32bit ? 32 : 24;
	k->ref_num = PM_TIMER_HZ;
	k->ref_den = 1;
	k->target = PM_TIMER_HZ / 20; /* 50 ms: 178977 periods */
	return 0;
}

/* Two calibrations against k; the clock's figure in out->clock[id]. */
static void counter_measure(const struct counter *k, enum clock_id id, struct counter_cal cal[2], int windows[2],
			    struct tsc_rate *out)
{
	const struct cal_windows w = { .run = counter_run, .clock = k, .size = sizeof cal[0] };
	clock_best(&w, &cal[0], &windows[0]);
	print_counter_cal(k, 0, &cal[0], windows[0]);
	if (cal[0].error) {
		out->absent[id] = cal[0].error;
		return;
	}
	clock_best(&w, &cal[1], &windows[1]);
	print_counter_cal(k, 1, &cal[1], windows[1]);
	const struct counter_cal *best = &cal[0];
	if (!cal[1].error) {
		uint32_t diff = tscfreq_ppm_diff(cal[1].hz, cal[0].hz);
		kprintf("tsc: %s runs differ by %u ppm (their bounds: %u and %u ppm)\n", k->name, diff, cal[0].ppm,
			cal[1].ppm);
		best = cal[1].ppm <= cal[0].ppm ? &cal[1] : &cal[0];
		out->measured_ppm[id] = best->ppm > diff ? best->ppm : diff;
	} else {
		out->measured_ppm[id] = best->ppm;
	}
	out->clock[id].hz = best->hz;
}

static void measure_cpuid(struct tsc_rate *out)
{
	char mhz[TSCFREQ_MHZ_BUF];
	struct tscfreq_cpuid in;
	tscfreq_cpuid_read(cpuid_into, 0, &in);
	if (tscfreq_from_cpuid(&in, &out->cpuid) == 0) {
		kprintf("tsc: cpuid: %s +-%u ppm (%s; CPUID.15H EAX=%u EBX=%u ECX=%u, CPUID.16H EAX=%u; "
			"crystal %llu Hz)\n",
			tscfreq_format_mhz(mhz, sizeof mhz, out->cpuid.hz), out->cpuid.ppm, out->cpuid.source,
			in.eax15, in.ebx15, in.ecx15, in.eax16, (unsigned long long)out->cpuid.crystal_hz);
		out->clock[CLOCK_CPUID].hz = out->cpuid.hz;
		out->clock[CLOCK_CPUID].ppm = out->cpuid.ppm;
	} else {
		kprintf("tsc: cpuid: %s\n", out->cpuid.source);
		out->absent[CLOCK_CPUID] = out->cpuid.source;
	}
}

static void measure_pit(struct tsc_rate *out)
{
	const struct cal_windows w = { .run = pit_run, .size = sizeof out->pit[0] };
	clock_best(&w, &out->pit[0], &out->pit_windows[0]);
	pit_print_cal(0, &out->pit[0], out->pit_windows[0]);
	if (out->pit[0].error) {
		out->pit[1] = out->pit[0];
		kprintf("tsc: pit run 1: skipped: run 0 failed\n");
		out->absent[CLOCK_PIT] = out->pit[0].error;
		return;
	}
	clock_best(&w, &out->pit[1], &out->pit_windows[1]);
	pit_print_cal(1, &out->pit[1], out->pit_windows[1]);
	const struct pit_cal *best = &out->pit[0];
	out->measured_ppm[CLOCK_PIT] = best->ppm;
	if (!out->pit[1].error) {
		uint32_t diff = tscfreq_ppm_diff(out->pit[1].hz, out->pit[0].hz);
		kprintf("tsc: pit runs differ by %u ppm (their bounds: %u and %u ppm)\n", diff, out->pit[0].ppm,
			out->pit[1].ppm);
		best = out->pit[1].ppm <= out->pit[0].ppm ? &out->pit[1] : &out->pit[0];
		out->measured_ppm[CLOCK_PIT] = best->ppm > diff ? best->ppm : diff;
	}
	out->clock[CLOCK_PIT].hz = best->hz;
}

/* The uncertainty a clock adds to what was measured: its oscillator's. */
static uint32_t tolerance_ppm(enum clock_id id)
{
	return id == CLOCK_HPET ? TSCFREQ_PPM_HPET : id == CLOCK_CPUID ? 0 : TSCFREQ_PPM_CRYSTAL;
}

static const char *tolerance_why(enum clock_id id)
{
	return id == CLOCK_HPET ? "the HPET specification's 0.05 %" : id == CLOCK_PIT
		? "assumed tolerance of the PIT's crystal" : "assumed tolerance of the 14.31818 MHz crystal";
}

/* The clocks: section: one line per clock, the pairs that disagree. */
static void print_clocks(const struct cpu_info *c, const struct tsc_rate *out, const struct tscfreq_choice *ch)
{
	char mhz[TSCFREQ_MHZ_BUF], mhz2[TSCFREQ_MHZ_BUF];
	for (int i = 0; i < CLOCK_COUNT; i++) {
		const struct tscfreq_clock *k = &out->clock[i];
		if (!k->hz)
			kprintf("clocks: %-8s none: %s%s\n", k->name, out->absent[i] ? out->absent[i] : "not measured",
				i == CLOCK_PIT ? " (the 8254 absent, or its clock gated as on some recent chipsets; "
						 "QEMU -machine pit=off)" : "");
		else if (i == CLOCK_CPUID)
			kprintf("clocks: %-8s %s +-%u ppm (nominal: %s)\n", k->name,
				tscfreq_format_mhz(mhz, sizeof mhz, k->hz), k->ppm, tscfreq_kind_name(out->cpuid.kind));
		else
			kprintf("clocks: %-8s %s +-%u ppm (%u ppm measured + %u ppm, %s)\n", k->name,
				tscfreq_format_mhz(mhz, sizeof mhz, k->hz), k->ppm, out->measured_ppm[i],
				tolerance_ppm((enum clock_id)i), tolerance_why((enum clock_id)i));
	}
	for (int i = 0; i < CLOCK_COUNT; i++)
		for (int j = i + 1; j < CLOCK_COUNT; j++) {
			const struct tscfreq_clock *a = &out->clock[i], *b = &out->clock[j];
			if (!a->hz || !b->hz || !tscfreq_disagree(a->hz, a->ppm, b->hz, b->ppm))
				continue;
			kprintf("clocks: %s and %s DISAGREE: %s and %s are %u ppm apart, more than their combined "
				"uncertainty (%u + %u ppm)%s\n", a->name, b->name,
				tscfreq_format_mhz(mhz, sizeof mhz, a->hz), tscfreq_format_mhz(mhz2, sizeof mhz2, b->hz),
				tscfreq_ppm_diff(a->hz, b->hz), a->ppm, b->ppm,
				c->hypervisor ? " (under a hypervisor the TSC may be scaled or a clock emulated from "
						"another)"
					      : " (a crystal off nominal, an SMI at a window's end, or a wrong crystal "
						"table entry)");
		}
	for (int i = 0; i < CLOCK_COUNT; i++) {
		if (!(ch->left_out >> i & 1))
			continue;
		/* The measured clocks present, "pit, hpet and pmtimer". */
		char names[64] = "";
		int n = 0, k = 0, idx = 0;
		for (int j = 0; j < CLOCK_COUNT; j++)
			n += out->clock[j].hz && out->clock[j].measured;
		for (int j = 0; j < CLOCK_COUNT; j++)
			if (out->clock[j].hz && out->clock[j].measured)
				k += fmt_format(names + k, sizeof names - (size_t)k, "%s%s",
						!idx++ ? "" : idx == n ? " and " : ", ", out->clock[j].name);
		kprintf("clocks: %s LEFT OUT of the bound: its nominal %s (%s) is contradicted by %s, measured "
			"clocks that agree with each other%s\n", out->clock[i].name,
			tscfreq_format_mhz(mhz, sizeof mhz, out->clock[i].hz), tscfreq_kind_name(out->cpuid.kind), names,
			c->hypervisor ? " (a hypervisor's figure, or a scaled TSC)"
				      : " (a crystal off nominal or a wrong crystal table entry)");
	}
	if (ch->pairs == 1 && !ch->disagree)
		kprintf("clocks: the two clocks agree within their combined uncertainty\n");
	else if (ch->pairs && !ch->disagree)
		kprintf("clocks: all %d pairs of clocks agree within their combined uncertainties\n", ch->pairs);
	else if (!ch->pairs)
		kprintf("clocks: %s: nothing to compare\n", ch->hz ? "one clock" : "no clock");
}

static void print_records(const struct tsc_rate *out, const struct tscfreq_choice *ch)
{
	struct rec r;
	if (config_json()) {
		rec_begin(&r, "clocks");
		rec_array(&r, "clocks");
		for (int i = 0; i < CLOCK_COUNT; i++) {
			const struct tscfreq_clock *k = &out->clock[i];
			rec_object(&r, 0);
			rec_str(&r, "name", k->name);
			rec_u64(&r, "hz", k->hz);
			rec_u64(&r, "ppm", k->ppm);
			rec_u64(&r, "measured_ppm", out->measured_ppm[i]);
			rec_u64(&r, "tolerance_ppm", i == CLOCK_CPUID ? k->ppm : tolerance_ppm((enum clock_id)i));
			if (k->hz)
				rec_null(&r, "absent");
			else
				rec_str(&r, "absent", out->absent[i] ? out->absent[i] : "");
			rec_object_end(&r);
		}
		rec_array_end(&r);
		rec_str(&r, "used", ch->best < 0 ? "none" : clock_names[ch->best]);
		rec_i64(&r, "disagree", out->disagree);
		rec_end(&r);
	}
	/* Two values of a pair, as an array. */
#define PAIR(key, a, b) (rec_array(&r, key), rec_u64(&r, 0, a), rec_u64(&r, 0, b), rec_array_end(&r))
	rec_begin(&r, "tsc_rate");
	rec_u64(&r, "hz", out->hz);
	rec_u64(&r, "ppm", out->ppm);
	rec_str(&r, "source", out->source);
	rec_bool(&r, "disagree", out->disagree);
	rec_str(&r, "why", out->why);
	rec_u64(&r, "cpuid_hz", out->cpuid.hz);
	rec_u64(&r, "cpuid_ppm", out->cpuid.ppm);
	rec_str(&r, "cpuid_kind", tscfreq_kind_name(out->cpuid.kind));
	PAIR("pit_hz", out->pit[0].hz, out->pit[1].hz);
	PAIR("pit_ppm", out->pit[0].ppm, out->pit[1].ppm);
	PAIR("pit_ticks", out->pit[0].ticks, out->pit[1].ticks);
	PAIR("pit_windows", (uint64_t)out->pit_windows[0], (uint64_t)out->pit_windows[1]);
	rec_u64(&r, "pit_counts", PIT_COUNTS_50MS);
	PAIR("hpet_hz", out->hpet[0].hz, out->hpet[1].hz);
	PAIR("hpet_ppm", out->hpet[0].ppm, out->hpet[1].ppm);
	PAIR("pmtimer_hz", out->pm[0].hz, out->pm[1].hz);
	PAIR("pmtimer_ppm", out->pm[0].ppm, out->pm[1].ppm);
#undef PAIR
	rec_end(&r);
}

/* The rate tsc_rate_measure chose last, for clocks_tsc_rate. */
static const struct tsc_rate *kept;

const struct tsc_rate *clocks_tsc_rate(void)
{
	static const struct tsc_rate none;
	return kept ? kept : &none;
}

void tsc_rate_measure(const struct cpu_info *c, struct tsc_rate *out)
{
	char mhz[TSCFREQ_MHZ_BUF];
	*out = (struct tsc_rate){ .source = "none" };
	for (int i = 0; i < CLOCK_COUNT; i++)
		out->clock[i] = (struct tscfreq_clock){ .name = clock_names[i], .measured = i != CLOCK_CPUID };

	measure_cpuid(out);
	measure_pit(out);

	struct counter hpet = { .name = "hpet" }, pm = { .name = "pmtimer" };
	uint32_t conf = 0;
	out->absent[CLOCK_HPET] = hpet_counter(&hpet, &conf);
	if (!out->absent[CLOCK_HPET]) {
		counter_measure(&hpet, CLOCK_HPET, out->hpet, out->hpet_windows, out);
		*(volatile uint32_t *)(acpi.hpet_base + HPET_GEN_CONF) = conf;
	}
	out->absent[CLOCK_PMTIMER] = pm_counter(&pm);
	if (!out->absent[CLOCK_PMTIMER])
		counter_measure(&pm, CLOCK_PMTIMER, out->pm, out->pm_windows, out);

	for (int i = CLOCK_PIT; i < CLOCK_COUNT; i++) {
		if (!out->clock[i].hz)
			continue;
		uint64_t total = (uint64_t)out->measured_ppm[i] + tolerance_ppm((enum clock_id)i);
		out->clock[i].ppm = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
	}
	struct tscfreq_choice ch;
	tscfreq_choose(out->clock, CLOCK_COUNT, &ch);
	print_clocks(c, out, &ch);
	out->hz = ch.hz;
	out->ppm = ch.ppm;
	out->disagree = ch.disagree;
	out->why = ch.why;
	out->source = ch.best < 0 ? "none" : ch.best == CLOCK_CPUID ? tscfreq_kind_name(out->cpuid.kind)
								   : clock_names[ch.best];
	if (ch.hz)
		kprintf("tsc: rate used: %s +-%u ppm (%s: %s)\n", tscfreq_format_mhz(mhz, sizeof mhz, out->hz), out->ppm,
			clock_names[ch.best], ch.why);
	else
		kprintf("tsc: rate used: none: no clock gave one (see the clocks: lines); times stay in TSC ticks\n");
	print_records(out, &ch);
	kept = out;
}

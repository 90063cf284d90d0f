/* kernel/pit.c - see pit.h. */
#include "pit.h"
#include "console.h"
#include "cpu.h"

#define PIT_CH0 0x40
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define NMI_SC 0x61            /* NMI status and control: gate 2, speaker, OUT2 */
#define NMI_SC_GATE2 0x01
#define NMI_SC_SPEAKER 0x02
#define NMI_SC_OUT2 0x20

/* Give up after this many TSC ticks per PIT period: 4 x 10 GHz / 1193182. */
#define PIT_LIMIT_TICKS_PER_COUNT 33524u
/* ... or after this many polls per PIT period: an iteration is one port
 * read, at least ~0.1 us on hardware and ~10 instructions (10 virtual ns)
 * under QEMU -icount shift=0; a period is 838 ns. */
#define PIT_LIMIT_POLLS_PER_COUNT 1000u

uint8_t pit_stop_channel0(void)
{
	outb(PIT_MODE, 0x30);
	io_delay();
	outb(PIT_CH0, 0);
	io_delay();
	outb(PIT_CH0, 0);
	io_delay();
	outb(PIT_MODE, 0x30);
	io_delay();
	/* Read-back: 11 (read-back) 1 (do not latch count) 0 (latch status)
	 * 001 (channel 0) 0 = 0xE2; the next read of port 0x40 is the status. */
	outb(PIT_MODE, 0xE2);
	io_delay();
	return inb(PIT_CH0);
}

static const char err_range[] = "count out of range: 1000..65535 PIT periods";
static const char err_noport[] =
	"port 0x61 (NMI status and control) reads 0xFF: no such port, so no PIT channel 2 to read";
static const char err_high[] = "OUT2 (port 0x61 bit 5) already high at the first read after the count: "
			       "no 8254 channel 2 behind port 0x61";
static const char err_limit_ticks[] = "OUT2 never went high (gave up after 4x the window at 10 GHz): "
				      "PIT channel 2 is not counting (8254 clock gating?) or absent";
static const char err_limit_polls[] = "OUT2 never went high (gave up after 1000 polls per PIT period): "
				      "PIT channel 2 is not counting, or the TSC is not advancing";
static const char err_tsc[] = "the TSC did not advance over the PIT window";

int pit_calibrate_tsc(uint32_t counts, struct pit_cal *r)
{
	*r = (struct pit_cal){ .counts = counts, .poll_min = UINT64_MAX };
	if (counts < 1000 || counts > 0xFFFF) {
		r->error = err_range;
		return -2;
	}
	uint8_t orig = inb(NMI_SC);
	if (orig == 0xFF) {
		r->error = err_noport;
		return -2;
	}
	/* Gate channel 2 on, speaker off; keep bits 2-3 (the NMI enables).
	 * Bits 4-7 read status and are not written. */
	outb(NMI_SC, (uint8_t)((orig & 0x0C) | NMI_SC_GATE2));
	outb(PIT_MODE, 0xB0); /* channel 2, lobyte/hibyte, mode 0, binary */
	outb(PIT_CH2, (uint8_t)counts);

	/* RDTSC is not ordered with the port accesses; its few tens of cycles
	 * of slack are far below one poll (a port read takes ~1 us on
	 * hardware) and are inside the bound below. */
	uint64_t t_a = rdtsc();
	outb(PIT_CH2, (uint8_t)(counts >> 8)); /* the count loads on the next input clock edge */
	uint64_t t_b = rdtsc();

	uint64_t limit_ticks = (uint64_t)counts * PIT_LIMIT_TICKS_PER_COUNT;
	uint64_t limit_polls = (uint64_t)counts * PIT_LIMIT_POLLS_PER_COUNT;
	uint64_t prevprev = t_a, prev = t_b, now;
	for (;;) {
		uint8_t v = inb(NMI_SC);
		now = rdtsc();
		if (v & NMI_SC_OUT2)
			break;
		uint64_t d = now - prev;
		if (d < r->poll_min)
			r->poll_min = d;
		if (d > r->poll_max)
			r->poll_max = d;
		prevprev = prev;
		prev = now;
		r->polls++;
		if (now - t_b > limit_ticks || r->polls >= limit_polls) {
			outb(NMI_SC, (uint8_t)(orig & 0x0F));
			r->ticks = now - t_b;
			r->error = now - t_b > limit_ticks ? err_limit_ticks : err_limit_polls;
			return -2;
		}
	}
	outb(NMI_SC, (uint8_t)(orig & 0x0F));
	/* A count of >= 1000 periods (838 us) cannot end before the first
	 * read, a few microseconds after it was written: OUT2 must have been
	 * seen low once. (Not checked before the high byte: the 8254 sets OUT2
	 * low at the mode command, but QEMU's model only at the count.) */
	if (r->polls == 0) {
		r->poll_min = 0;
		r->ticks = now - t_b;
		r->error = err_high;
		return -1;
	}

	r->ticks = now - t_b;
	r->start_ticks = t_b - t_a;
	r->end_ticks = now - prevprev;
	if (r->ticks == 0 || tscfreq_ratio_hz(r->ticks, PIT_HZ, counts, &r->hz) || r->hz == 0) {
		r->hz = 0;
		r->error = err_tsc;
		return -1;
	}
	/* The count starts at the first input edge after the high-byte write,
	 * which happened between t_a and t_b: start in [t_a, t_b + 1 period].
	 * OUT2 rose after the read before the last (which saw it low, and
	 * began after prevprev) and before `now`. So the measured
	 * now - t_b is off by at most start_ticks + 1 period + end_ticks. */
	uint64_t period = r->ticks / counts + 1;
	r->ppm = tscfreq_ppm(r->start_ticks + period + r->end_ticks, r->ticks);
	return 0;
}

void pit_print_cal(int run, const struct pit_cal *p, int windows)
{
	char mhz[TSCFREQ_MHZ_BUF];
	if (p->error) {
		kprintf("tsc: pit run %d: FAILED after %d window%s: %s (%llu polls, %llu TSC ticks)\n", run,
			windows, windows == 1 ? "" : "s", p->error, (unsigned long long)p->polls,
			(unsigned long long)p->ticks);
		return;
	}
	kprintf("tsc: pit run %d: %s +-%u ppm (best of %d window%s: %llu TSC ticks over %u PIT periods "
		"of %u Hz; %llu polls of %llu..%llu ticks; bracket: start %llu, end %llu ticks)\n",
		run, tscfreq_format_mhz(mhz, sizeof mhz, p->hz), p->ppm, windows, windows == 1 ? "" : "s",
		(unsigned long long)p->ticks,
		p->counts, PIT_HZ, (unsigned long long)p->polls, (unsigned long long)p->poll_min,
		(unsigned long long)p->poll_max, (unsigned long long)p->start_ticks,
		(unsigned long long)p->end_ticks);
}

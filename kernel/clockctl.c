/* kernel/clockctl.c - see clockctl.h. The decisions, writes and read-backs
 * are lib/clockctl.c's (host-tested) over the real instructions
 * (pmu_kernel_backend: CPUID, rdmsr_safe, wrmsr_safe); this file prints
 * them and measures the core clock. */
#include "clockctl.h"
#include "clocks.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "pmu.h"
#include "trap.h"
#include "../lib/clockctl.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

_Static_assert((int)KNOB_KEEP == (int)CLOCKCTL_KEEP && (int)KNOB_OFF == (int)CLOCKCTL_OFF && (int)KNOB_ON == (int)CLOCKCTL_ON,
	       "enum knob and enum clockctl_knob in the same order");
_Static_assert((int)PSTATE_KEEP == (int)CLOCKCTL_PSTATE_KEEP && (int)PSTATE_BASE == (int)CLOCKCTL_PSTATE_BASE &&
		       (int)PSTATE_MAX == (int)CLOCKCTL_PSTATE_MAX && (int)PSTATE_RATIO == (int)CLOCKCTL_PSTATE_RATIO,
	       "enum pstate_mode and enum clockctl_pstate in the same order");

/* dec/jnz iterations of the calibrated loop: 2^22, about 4 million core
 * cycles (1.4 ms at 3 GHz), so that APERF/MPERF's counts resolve the
 * ratio to better than 1 ppm and the loop outlasts a P-state change. */
#define CLOCK_LOOP_ITERATIONS (1ull << 22)

enum clock_source { SOURCE_NONE, SOURCE_APERF_MPERF, SOURCE_CORE_CYCLES };

static const char *const source_word[] = { "none", "aperf_mperf", "core_cycles" };

/* The calibrated loop: n iterations of dec/jnz, in general registers. */
static void spin(uint64_t n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

/* Which source counts core cycles here, or why none does (why[]). */
static enum clock_source pick_source(char *why, size_t size)
{
	struct cpuid_regs r = cpuid(0, 0);
	uint32_t ecx6 = r.eax >= 6 ? cpuid(6, 0).ecx : 0;
	uint64_t a, m;
	int err = 0;
	if (ecx6 & 1) {
		err = rdmsr_safe(CLK_MSR_APERF, &a);
		if (!err)
			err = rdmsr_safe(CLK_MSR_MPERF, &m);
		if (!err)
			return SOURCE_APERF_MPERF;
	}
	if (pmu_usable(&pmu, PMU_FIXED1) && pmu.ctr[PMU_FIXED1].rdpmc_ok)
		return SOURCE_CORE_CYCLES;
	fmt_format(why, size, "%s; fixed counter 1 (unhalted core cycles): %s",
		   ecx6 & 1 ? (err ? "RDMSR of IA32_APERF/IA32_MPERF faulted although CPUID.06H:ECX[0]=1"
				   : "IA32_APERF/IA32_MPERF unread")
			    : "CPUID.06H:ECX[0]=0 (no IA32_APERF/IA32_MPERF)",
		   pmu.ctr[PMU_FIXED1].why[0] ? pmu.ctr[PMU_FIXED1].why
		   : pmu_usable(&pmu, PMU_FIXED1) ? "not readable by RDPMC" : "not counting");
	return SOURCE_NONE;
}

/* The core clock over the calibrated loop: *num core cycles over *den TSC
 * ticks (APERF over MPERF, which counts at the TSC's rate; or fixed
 * counter 1 over the TSC). One unmeasured loop first, so that a P-state
 * just written has settled. Returns the core clock in Hz, 0 when the
 * counts did not move. */
static uint64_t measure(enum clock_source src, uint64_t tsc_hz, uint64_t *num, uint64_t *den)
{
	spin(CLOCK_LOOP_ITERATIONS);
	if (src == SOURCE_APERF_MPERF) {
		uint64_t a0, m0, a1, m1;
		rdmsr_safe(CLK_MSR_MPERF, &m0);
		rdmsr_safe(CLK_MSR_APERF, &a0);
		spin(CLOCK_LOOP_ITERATIONS);
		rdmsr_safe(CLK_MSR_APERF, &a1);
		rdmsr_safe(CLK_MSR_MPERF, &m1);
		*num = a1 - a0, *den = m1 - m0;
	} else {
		uint64_t c0 = pmu_read_core_cycles(), t0 = rdtsc();
		spin(CLOCK_LOOP_ITERATIONS);
		uint64_t c1 = pmu_read_core_cycles(), t1 = rdtsc();
		*num = pmu_delta(c0, c1, pmu.ctr[PMU_FIXED1].width), *den = t1 - t0;
	}
	return clockctl_hz_of(tsc_hz, *num, *den);
}

static void step_record(const struct clockctl_step *s)
{
	char h[24];
	struct rec r;
	rec_begin(&r, "clock_setting");
	rec_str(&r, "setting", s->setting);
	if (s->msr) {
		fmt_format(h, sizeof h, "0x%x", s->msr);
		rec_str(&r, "msr", h);
	} else {
		rec_null(&r, "msr");
	}
	fmt_format(h, sizeof h, "0x%llx", (unsigned long long)s->before);
	rec_str(&r, "before", s->have_before ? h : 0);
	fmt_format(h, sizeof h, "0x%llx", (unsigned long long)s->written);
	rec_str(&r, "written", s->attempted ? h : 0);
	fmt_format(h, sizeof h, "0x%llx", (unsigned long long)s->read);
	rec_str(&r, "read", s->have_read ? h : 0);
	rec_bool(&r, "taken", s->taken);
	rec_str(&r, "why", s->why[0] ? s->why : 0);
	rec_end(&r);
}

void clockctl_apply(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cpu;
	struct clockctl_want w = { (int)cfg->turbo, cfg->pstate.mode, cfg->pstate.ratio };
	int asked = w.turbo != CLOCKCTL_KEEP || w.pstate != CLOCKCTL_PSTATE_KEEP;
	const struct tsc_rate *rate = clocks_tsc_rate();
	char why[320] = "", a[48], b[48], words[64];
	enum clock_source src = SOURCE_NONE;
	if (!rate->hz)
		fmt_format(why, sizeof why, "the TSC's rate is unknown (tsc: rate used)");
	else
		src = pick_source(why, sizeof why);

	uint64_t before = 0, after = 0, bn = 0, bd = 0, an = 0, ad = 0;
	if (src != SOURCE_NONE)
		before = measure(src, rate->hz, &bn, &bd);

	static struct clockctl_result res;
	int written = 0;
	if (asked) {
		clockctl_write(&pmu_kernel_backend, &w, &res);
		char line[480];
		for (int i = 0; i < res.n; i++) {
			kprintf("%s\n", clockctl_step_text(&res.step[i], line, sizeof line));
			step_record(&res.step[i]);
		}
		written = res.writes > 0;
		if (cfg->cpus[0] && memcmp(cfg->cpus, "boot", 5) != 0)
			kprintf("clock: cpus=%s: the settings above are the boot CPU's MSRs only; the other CPUs keep "
				"the firmware's where the MSR is per logical CPU (IA32_PERF_CTL, IA32_HWP_REQUEST, AMD's "
				"P-state control; IA32_MISC_ENABLE and HWCR per the model's scope)\n", cfg->cpus);
	}
	if (written && src != SOURCE_NONE)
		after = measure(src, rate->hz, &an, &ad);

	fmt_format(words, sizeof words, "turbo=%s pstate=%s", config_knob_word((int)cfg->turbo),
		   config_pstate_text(a, sizeof a, &cfg->pstate));
	const char *fake = "";
#ifdef BENCH_FAKE_PMU
	if (src == SOURCE_CORE_CYCLES)
		fake = "; the fake PMU build: its core cycles are RDTSC, so this is the TSC's rate";
#endif
	if (src == SOURCE_NONE)
		kprintf("clock: core clock: not measured: %s\n", why);
	else if (!before || (written && !after))
		kprintf("clock: core clock: not measured: %s did not move over %llu loop iterations\n",
			src == SOURCE_APERF_MPERF ? "IA32_MPERF" : "the TSC", (unsigned long long)CLOCK_LOOP_ITERATIONS);
	else if (written)
		kprintf("clock: core clock: %s before, %s after %s (%s over %llu dec/jnz iterations)%s\n",
			clockctl_clock_text(a, sizeof a, rate->hz, bn, bd), clockctl_clock_text(b, sizeof b, rate->hz, an, ad),
			words, src == SOURCE_APERF_MPERF ? "IA32_APERF/IA32_MPERF" : "fixed counter 1 against the TSC",
			(unsigned long long)CLOCK_LOOP_ITERATIONS, fake);
	else
		kprintf("clock: core clock: %s with %s%s (%s over %llu dec/jnz iterations)%s\n",
			clockctl_clock_text(a, sizeof a, rate->hz, bn, bd), words, asked ? ", nothing written" : "",
			src == SOURCE_APERF_MPERF ? "IA32_APERF/IA32_MPERF" : "fixed counter 1 against the TSC",
			(unsigned long long)CLOCK_LOOP_ITERATIONS, fake);

	struct rec r;
	rec_begin(&r, "core_clock");
	rec_u64_or_null(&r, "before_hz", src != SOURCE_NONE && before, before);
	rec_u64_or_null(&r, "after_hz", written && src != SOURCE_NONE && after, after);
	rec_u64(&r, "tsc_hz", rate->hz);
	rec_str(&r, "source", source_word[src]);
	rec_str(&r, "why", src == SOURCE_NONE ? why : 0);
	rec_end(&r);
}

/* kernel/main.c - the run, as one sentence:
 * boot -> platform (console, traps, memory) -> probe (CPUID) ->
 * measure (methods x ensembles) -> analyze -> report -> exit. */
#include <stdint.h>
#include "acpi.h"
#include "clocks.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "exit.h"
#include "mem.h"
#include "multiboot.h"
#include "pic.h"
#include "quiet.h"
#include "smp.h"
#include "tscsync.h"
#include "pmu.h"
#include "probe.h"
#include "trap.h"
#include "../bench/report.h"
#include "../bench/code.h"
#include "../bench/run.h"
#include "../bench/percpu.h"
#include "../bench/summary.h"
#include "../bench/workload.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define BENCH_VERSION "0.1"

static struct boot_info bi;
static struct cpu_info cpu;

void kernel_main(uint32_t magic, uint32_t info);

/* Bytes mem_alloc takes for n 8-byte values (it rounds up to 64). */
static uint64_t buffer_bytes(uint64_t n)
{
	return (n * sizeof(uint64_t) + 63) & ~63ull;
}

/* Bytes bench_run takes for the ensembles' minimums and medians (two
 * arrays of cfg.ensembles values per unit, bench/run.c), plus 63 for the
 * alignment of the first allocation. */
static uint64_t ensemble_array_bytes(void)
{
	return 2 * UNIT_COUNT * buffer_bytes(cfg.ensembles) + 63;
}

/* samples_that_fit - the most samples per ensemble whose bufs buffers of
 * 8 bytes each fit in free memory beside the ensembles' arrays; 0 if none. */
static uint64_t samples_that_fit(int bufs)
{
	uint64_t free = mem_free_bytes(), reserve = ensemble_array_bytes();
	if (free <= reserve)
		return 0;
	return ((free - reserve) / (uint64_t)bufs & ~63ull) / sizeof(uint64_t);
}

/* Provoke the exception test.fault= asks for (tests of the diagnostics). */
static void provoke_fault(void)
{
	static const char *const what[] = { "", "ud2 (#UD)", "a non-canonical read (#GP)",
					    "a read of unmapped memory (#PF)", "a division by zero (#DE)" };
	if (cfg.test_fault == FAULT_NONE)
		return;
	kprintf("test: test.fault=%s: executing %s now\n",
		cfg.test_fault == FAULT_UD2 ? "ud2" : cfg.test_fault == FAULT_GP ? "gp" :
		cfg.test_fault == FAULT_PF ? "pf" : "de", what[cfg.test_fault]);
	switch (cfg.test_fault) {
	case FAULT_UD2:
		__asm__ volatile("ud2");
		break;
	case FAULT_GP:
		(void)*(volatile uint64_t *)0x8000000000000000ull;
		break;
	case FAULT_PF:
		(void)*(volatile uint64_t *)0x0000100000000000ull;
		break;
	case FAULT_DE: /* in asm: the compiler turns 1u / x into a compare */
		__asm__ volatile("divl %%ecx" : : "a"(1), "d"(0), "c"(0));
		break;
	}
	kprintf("test: the fault did not happen\n");
}

/* boot_test_hook - called before anything but the IDT is set up; empty.
 * A test links a strong definition through EXTRA_SRC
 * (tests/boot/early_fault_test.c) to prove that a fault this early is
 * still reported. */
__attribute__((weak)) void boot_test_hook(void);
__attribute__((weak)) void boot_test_hook(void)
{
}

void kernel_main(uint32_t magic, uint32_t info)
{
	/* The IDT first: a fault while the boot information is read or the
	 * console set up is reported (console_emergency), not a triple fault. */
	trap_init();
	boot_test_hook();
	multiboot_parse(magic, info, &bi);
	console_init(&bi);
	pic_mask_all();

	kprintf("bench %s: bare-metal code timing (Paoloni 2010 methods), ring 0, interrupts off\n",
		BENCH_VERSION);
	if (bi.protocol == 0)
		kprintf("boot: unknown boot magic 0x%08x (expected multiboot 0x%08x or multiboot2 0x%08x): "
			"no command line or memory map; using defaults\n",
			magic, MB1_BOOT_MAGIC, MB2_BOOT_MAGIC);
	if (bi.mmap_truncated)
		kprintf("boot: the memory map has more than %d entries; the rest are ignored\n",
			BOOT_MMAP_MAX);

	mem_init(&bi);
	const struct cfg_line line = multiboot_cmdline(&bi);
	struct config_choices choices;
	bench_config_choices(&choices);
	config_parse(&line, &choices);
	mem_test_setup();
	probe_cpu(&cpu);

	kprintf("%s\n", RECORDS_BEGIN);
	probe_print(&cpu, &bi);
	acpi_init(&bi, cfg.test_acpi_corrupt);
	quiet_timers(&cpu);
	static struct tsc_rate rate;
	if (cpu.has_tsc)
		tsc_rate_measure(&cpu, &rate);
	/* What the quiet: lfence: line and the machine record say is what the
	 * methods use: serializing only when known to be (1), not when it is
	 * not (0) or unknown (-1, a vendor other than Intel and AMD). */
	cpu.lfence_serializing = quiet_cpu_report(&cpu) > 0;
	bench_set_tsc_hz(rate.hz);
	bench_set_tsc_source(rate.ppm, rate.source);
	/* The other CPUs, parked: smp=on, or cpus= other than boot. */
	int per_cpu = cfg.cpus[0] && memcmp(cfg.cpus, "boot", 5) != 0;
	smp_start(&bi, &cpu, rate.hz, cfg.smp || per_cpu);
	if (cfg.smp || per_cpu) {
		tscsync_check(&cpu);
		smp_test((int)cfg.test_smp);
	}
	int ncpus = percpu_list(&cpu, cfg.cpus, &cfg.problems);
	/* One run's results per CPU measured, before the sample buffers take
	 * the rest of the memory. */
	struct bench_results *per = 0;
	if (percpu_active()) {
		per = mem_alloc((uint64_t)ncpus * sizeof *per);
		if (!per) {
			kprintf("cpus: no memory for %d CPUs' results (%llu bytes): measuring the boot CPU only\n",
				ncpus, (unsigned long long)((uint64_t)ncpus * sizeof *per));
			cfg.problems++;
		}
	}
	pmu_setup(cfg.pmu);
	pmu_print(config_json());
	cfg.problems += code_prepare(); /* its loops' memory before the sample buffers */
	uint64_t want = cfg.samples;
	/* Whether counters are read beside the TSC (bench/run.c choose_counters). */
	int counters = (pmu_usable(&pmu, PMU_FIXED0) || pmu_usable(&pmu, PMU_IRPERF)) &&
		       (pmu_usable(&pmu, PMU_FIXED1) || pmu_usable(&pmu, PMU_APERF));
	if (want > samples_that_fit(1)) {
		/* With counters, their two buffers of the same size must fit as well. */
		cfg.samples = samples_that_fit(counters ? 3 : 1);
		kprintf("config: samples=%llu needs %llu bytes for one ensemble's buffer but %llu bytes are free, "
			"%llu of them needed for the ensembles' minimums and medians; using samples=%llu, "
			"the most that fit%s\n", (unsigned long long)want,
			(unsigned long long)(want * sizeof(uint64_t)),
			(unsigned long long)mem_free_bytes(), (unsigned long long)ensemble_array_bytes(),
			(unsigned long long)cfg.samples,
			counters ? " (with the two counter buffers of the same size read beside the TSC)" : "");
		cfg.problems++;
	}
	uint64_t *ticks = cfg.samples ? mem_alloc(cfg.samples * sizeof(uint64_t)) : 0;
	if (!ticks) {
		config_print();
		kprintf("{\"rec\":\"end\",\"status\":\"no_memory\"}\n%s\n", RECORDS_END);
		kprintf("bench: run aborted: no memory for a sample buffer (exit code 0x%x)\n",
			EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}

	config_print();
	report_serial_estimate(&cpu, counters, per ? ncpus : 1);
	code_print_config();

	if (!cpu.has_tsc) {
		kprintf("bench: no time-stamp counter (CPUID.1:EDX[4]=0): no method can run\n");
		kprintf("{\"rec\":\"end\",\"status\":\"no_tsc\"}\n%s\n", RECORDS_END);
		kprintf("bench: run aborted: no time-stamp counter (exit code 0x%x)\n", EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}

	provoke_fault();

	static struct bench_results results;
	const struct run_totals *t = &results.totals;
	int measured = 0;
	if (per) {
		static struct run_totals sum;
		measured = percpu_run(ticks, cfg.samples, per, &sum);
		t = &sum;
	} else {
		bench_run(&cpu, ticks, cfg.samples, &results);
	}
	mem_test_report();

	char on_cpus[40] = "", cpus_key[32] = "";
	if (per) {
		fmt_format(on_cpus, sizeof on_cpus, ", on %d CPU%s", measured, measured == 1 ? "" : "s");
		fmt_format(cpus_key, sizeof cpus_key, ",\"cpus_measured\":%d", measured);
	}
	kprintf("{\"rec\":\"end\",\"status\":\"complete\",\"methods_run\":%d,\"methods_skipped\":%d,"
		"\"ensemble_errors\":%llu,\"config_problems\":%d,\"nmis\":%llu%s}\n",
		t->methods_run, t->methods_skipped, (unsigned long long)t->ensemble_errors,
		cfg.problems, (unsigned long long)trap_nmi_count(), cpus_key);
	kprintf("%s\n", RECORDS_END);
	char final_line[200];
	fmt_format(final_line, sizeof final_line,
		   "bench: run complete: %d method%s run, %d skipped, %llu ensemble errors, "
		   "%d command-line problem%s%s (exit code 0x%x)",
		   t->methods_run, t->methods_run == 1 ? "" : "s", t->methods_skipped,
		   (unsigned long long)t->ensemble_errors, cfg.problems, cfg.problems == 1 ? "" : "s",
		   on_cpus, EXIT_SUCCESS_CODE);
	kprintf("%s\n", final_line);
	bench_screen_summary(&cpu, per && measured ? per : &results, final_line);
	bench_exit(EXIT_SUCCESS_CODE);
}

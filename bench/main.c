/* bench/main.c - the run's driver, on top of everything, as one sentence:
 * boot -> platform (console, traps, memory) -> probe (CPUID, clocks, PMU)
 * -> measure (methods x workloads x ensembles, bench/run.c, per CPU
 * bench/percpu.c) -> derive (bench/results.c) -> report (bench/report.c
 * as it goes, bench/summary.c at the end) -> exit (kernel/exit.h).
 * boot/entry.asm calls kernel_main in 64-bit mode. docs/ARCHITECTURE.md
 * draws the whole house. */
#include <stdint.h>
#include "code.h"
#include "coderesult.h"
#include "estimate.h"
#include "experiment.h"
#include "finish.h"
#include "percpu.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "run.h"
#include "screen.h"
#include "workload.h"
#include "../kernel/acpi.h"
#include "../kernel/clocks.h"
#include "../kernel/clockctl.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/efi.h"
#include "../kernel/exit.h"
#include "../kernel/mem.h"
#include "../kernel/memarea.h"
#include "../kernel/multiboot.h"
#include "../kernel/pic.h"
#include "../kernel/planfile.h"
#include "../kernel/pmu.h"
#include "../kernel/prefetch.h"
#include "../kernel/probe.h"
#include "../kernel/qr.h"
#include "../kernel/quiet.h"
#include "../kernel/runid.h"
#include "../kernel/smbios.h"
#include "../kernel/smp.h"
#include "../kernel/trap.h"
#include "../kernel/tscsync.h"
#include "../kernel/watchdog.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

#define BENCH_VERSION "0.1"

static struct boot_info bi;
static struct cpu_info cpu;

void kernel_main(uint32_t magic, uint32_t info);

/* Provoke the exception test.fault= asks for (tests of the diagnostics). */
static void provoke_fault(const struct config *cfg)
{
	static const char *const what[] = { "", "ud2 (#UD)", "a non-canonical read (#GP)",
					    "a read of unmapped memory (#PF)", "a division by zero (#DE)" };
	if (cfg->test_fault == FAULT_NONE)
		return;
	kprintf("test: test.fault=%s: executing %s now\n",
		cfg->test_fault == FAULT_UD2 ? "ud2" : cfg->test_fault == FAULT_GP ? "gp" :
		cfg->test_fault == FAULT_PF ? "pf" : "de", what[cfg->test_fault]);
	switch (cfg->test_fault) {
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

/* The configuration, for save_aborted. */
static const struct config *run_cfg;

/* An aborted run's log to the boot device under UEFI, after its "bench:
 * run aborted ..." line (kernel/exit.h exit_set_abort_save, kernel/efi.h
 * efi_save_log): the file's final line says "aborted". */
static void save_aborted(void)
{
	efi_save_log((int)run_cfg->save, runid_text(), run_cfg->test_efi_watchdog);
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
	if (!mem_image_fits(magic, info)) {
		kprintf("bench: run aborted: too little memory for the image (exit code 0x%x)\n", EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}
	multiboot_parse(magic, info, &bi);
	efi_boot_info(&bi); /* under UEFI: the memory efi_early took */
	/* The command line, parsed once, before the console it configures:
	 * its messages are printed once the console is up. */
	const struct cfg_line line = multiboot_cmdline(&bi);
	struct config_choices choices;
	bench_config_choices(&choices);
	const struct config *cfg = config_parse(&line, &choices);
	exit_set_after((int)cfg->after);
	planfile_load(&bi, cfg->plan); /* before mem_init hands a module's memory out */
	plan_load(); /* its lines parsed, its defaults applied to the boot (bench/plan.h) */
	/* SMBIOS read before the banner, which names the machine; its lines
	 * come after the env: lines (kernel/smbios.h). The banner is the log's
	 * first line, and so the results file's (kernel/efi.h efi_save_log):
	 * the console prints it before its own line. */
	smbios_init(&bi, cfg->test_smbios_corrupt);
	static char banner[400];
	fmt_format(banner, sizeof banner, "bench %s: bare-metal code timing (Paoloni 2010 methods), ring 0, "
		   "interrupts off%s", BENCH_VERSION, smbios_banner());
	console_init(&bi, &cfg->console, config_console_problems(), banner);
	pic_mask_all();
	if (bi.protocol == 0)
		kprintf("boot: unknown boot magic 0x%08x (expected multiboot 0x%08x or multiboot2 0x%08x): "
			"no command line or memory map; using defaults\n",
			magic, MB1_BOOT_MAGIC, MB2_BOOT_MAGIC);
	efi_report();
	if (bi.mmap_truncated)
		kprintf("boot: the memory map has more than %d entries; the rest are ignored\n",
			BOOT_MMAP_MAX);

	mem_init(&bi);
	config_print_problems();
	plan_print_problems();
	mem_test_setup(cfg);
	probe_cpu(&cpu);
	runid_make(); /* the run's ID: the run: line, the env record, the screen, the QR code */
	run_cfg = cfg; /* from here an abort leaves its log on the boot device too (UEFI) */
	exit_set_abort_save(save_aborted);

	kprintf("%s\n", RECORDS_BEGIN);
	probe_print(&cpu, &bi);
	planfile_print(); /* plan=: the file, from where, bytes, CRC-32 */
	smbios_print(cfg->identity); /* machine:, memory: (kernel/smbios.h) */
	acpi_init(&bi, cfg->test_acpi_corrupt);
	quiet_timers(&cpu);
	static struct tsc_rate rate;
	if (cpu.has_tsc)
		tsc_rate_measure(&cpu, &rate);
	/* What the quiet: lfence: line and the machine record say is what the
	 * methods use: serializing only when known to be (1), not when it is
	 * not (0) or unknown (-1, a vendor other than Intel and AMD). */
	cpu.lfence_serializing = quiet_cpu_report(&cpu) > 0;
	/* The other CPUs, parked: smp=on, or cpus= other than boot. */
	int per_cpu = cfg->cpus[0] && memcmp(cfg->cpus, "boot", 5) != 0;
	smp_start(&bi, &cpu, rate.hz, cfg->smp || per_cpu, (int)cfg->smp_park, cfg->test_smp == TEST_SMP_SILENT);
	if (cfg->smp || per_cpu) {
		tscsync_check(&cpu);
		smp_test((int)cfg->test_smp);
	}
	int problems = 0; /* found by the keys' users, added to the configuration's */
	int ncpus = percpu_list(&cpu, cfg->cpus, &problems);
	/* One run's results per CPU measured, before the sample buffers take
	 * the rest of the memory. */
	struct bench_results *per = 0;
	if (percpu_active()) {
		per = mem_alloc((uint64_t)ncpus * sizeof *per);
		if (!per) {
			kprintf("cpus: no memory for %d CPUs' results (%llu bytes): measuring the boot CPU only\n",
				ncpus, (unsigned long long)((uint64_t)ncpus * sizeof *per));
			problems++;
		}
	}
	pmu_setup(cfg->pmu);
	pmu_print(config_json());
	clockctl_apply(cfg, &cpu);  /* turbo=, pstate= (kernel/clockctl.h) */
	prefetch_apply(cfg, &cpu);  /* prefetch= (kernel/prefetch.h) */
	int counters = bench_counters_possible();
	if (plan_active()) /* plan=: each experiment in turn, then the end (bench/plan.h) */
		plan_run(cfg, &cpu, counters, per, ncpus, problems);
	problems += experiment_prepare(cfg, &cpu, counters); /* events=, mem=, sweep=, code=, samples= */
	config_add_problems(problems);
	if (cfg->problems && cfg->on_problems == PROBLEMS_STOP) /* before measuring */
		finish_stop_for_problems(cfg);
	uint64_t *ticks = cfg->samples ? mem_alloc(cfg->samples * sizeof(uint64_t)) : 0;
	if (!ticks) {
		config_print();
		finish_end_record(cfg, "no_memory", 0, 0, 0);
		kprintf("bench: run aborted: no memory for a sample buffer (exit code 0x%x)\n",
			EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}

	config_print();
	memarea_print();
	estimate_serial(cfg, &cpu, counters, per ? ncpus : 1);
	/* The serial log's RAM copy (kernel/console.h): twice the estimate
	 * (good to ~25 %) and 64 KiB. */
	uint64_t log_bytes = 2 * estimate_serial_bytes() + 65536;
	console_log_move(mem_alloc(log_bytes), log_bytes);
	code_print_config();
	if (code_configured())
		watchdog_init(); /* the bound of code='s loops (kernel/watchdog.h) */

	if (!cpu.has_tsc) {
		kprintf("bench: no time-stamp counter (CPUID.1:EDX[4]=0): no method can run\n");
		finish_end_record(cfg, "no_tsc", 0, 0, 0);
		kprintf("bench: run aborted: no time-stamp counter (exit code 0x%x)\n", EXIT_FAILURE_CODE);
		bench_exit(EXIT_FAILURE_CODE);
	}

	progress_begin(cfg, &cpu, counters, per ? ncpus : 1);
	provoke_fault(cfg);
	exit_set_stage(EXIT_STAGE_MEASURING); /* an abort from here: "the results above are incomplete" */

	struct experiment_result x;
	experiment_measure(cfg, &cpu, ticks, per, &x);
	finish_run(cfg, &cpu, &x, x.totals, per != 0, 0);
}

/* kernel/config.h - the boot configuration: documented keys of the kernel
 * command line (README "Boot parameters"), parsed by lib/cmdline.c. */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#include <stdint.h>
#include "console.h"
#include "../lib/url.h"

/* output= (README "Boot parameters"): human lines only; records only;
 * both, with compact ensemble records (the default); both, every record in
 * full; both without any per-ensemble line or record (the summaries only:
 * a long run's printing kept to a small part of its measuring time). */
enum output_mode { OUTPUT_HUMAN, OUTPUT_JSON, OUTPUT_BOTH, OUTPUT_FULL, OUTPUT_SUMMARY };
enum test_fault { FAULT_NONE, FAULT_UD2, FAULT_GP, FAULT_PF, FAULT_DE };
enum after_run { AFTER_HALT, AFTER_REBOOT };
enum test_buffers { TEST_BUFFERS_AUTO, TEST_BUFFERS_HIGH };
enum test_fb { TEST_FB_NONE, TEST_FB_HIGH };
/* smp.park= (kernel/smp.h): how a waiting CPU waits. */
enum smp_park { SMP_PARK_AUTO, SMP_PARK_MWAIT, SMP_PARK_HLT };
/* test.smp= (test only): run a test function on each AP, make the last
 * started AP fault, or leave the last AP without its start-up IPIs. */
enum test_smp { TEST_SMP_NONE, TEST_SMP_RUN, TEST_SMP_FAULT, TEST_SMP_SILENT };

/* problems= (README "Boot parameters"): a command-line problem ends the run
 * before it measures (the default), or is said and the run goes on. */
enum problems_policy { PROBLEMS_STOP, PROBLEMS_IGNORE };

/* events= (README "Boot parameters", docs/EVENTS.md): room for 64 items
 * of up to 63 characters and their commas. */
#define CONFIG_EVENTS_MAX 4096

/* Memory, caches and clocks (README "Boot parameters": mem=, mem.pages=,
 * mem.type=, regs=, cache=, prefetch=, turbo=, pstate=, sweep=). */
/* mem.pages=: the page size mapping the code's areas (kernel/memarea.h);
 * auto: the largest of 4 KiB, 2 MiB and 1 GiB (where CPUID.80000001H:
 * EDX[26]) not larger than the area; sweep=latency's area 1 GiB where
 * available. */
enum mem_pages { MEM_PAGES_AUTO, MEM_PAGES_4K, MEM_PAGES_2M, MEM_PAGES_1G };
/* mem.type=: the areas' memory type through the PAT (SDM Vol. 3A 12.12). */
enum mem_type { MEM_TYPE_WB, MEM_TYPE_WT, MEM_TYPE_WC, MEM_TYPE_WP, MEM_TYPE_UC };
/* regs=: the register contract of code= (lib/codegen.h): the README's
 * (R14 -> the area, the others 0), or nanoBench's (R14, RDI, RSI, RBP
 * each into the middle of an area of its own, RSP into its own). */
enum regs_contract { REGS_DEFAULT, REGS_NANOBENCH };
/* cache=: the caches before each sample: as the last sample left them;
 * every line of the areas and of the code flushed (CLFLUSHOPT where
 * CPUID.(7,0):EBX[23], else CLFLUSH), then a fence; or WBINVD. */
enum cache_state { CACHE_WARM, CACHE_FLUSH, CACHE_WBINVD };
/* prefetch=, turbo=: leave the firmware's setting, or set it off or on
 * (each write read back and said). */
enum knob { KNOB_KEEP, KNOB_OFF, KNOB_ON };
/* pstate=: leave it; the base (maximum non-turbo) ratio; the maximum
 * (turbo where enabled); or a ratio of the bus clock, 1..255. */
enum pstate_mode { PSTATE_KEEP, PSTATE_BASE, PSTATE_MAX, PSTATE_RATIO };
struct pstate_choice {
	int mode;        /* enum pstate_mode */
	unsigned ratio;  /* PSTATE_RATIO: 1..255 */
};
/* sweep=: a built-in experiment run after the measurement: latency, the
 * memory hierarchy by a pointer chase (bench/sweep.h). */
enum sweep_kind { SWEEP_OFF, SWEEP_LATENCY };
/* mem= bounds: 4 KiB, a multiple of 4 KiB; at most 2^46 (what free RAM
 * allows is checked when the areas are taken, kernel/memarea.h). */
#define CONFIG_MEM_DEFAULT (1ull << 20)
#define CONFIG_MEM_MIN 4096ull
#define CONFIG_MEM_MAX (1ull << 46)

/* identity=: the machine's identity from SMBIOS (kernel/smbios.h): every
 * field but serial numbers (short), or with them (full). */
enum identity_mode { IDENTITY_SHORT, IDENTITY_FULL };
/* test.smbios_corrupt= (test only): what kernel/smbios.c breaks in its copy
 * of the SMBIOS entry point or table before decoding it. */
enum smbios_corrupt { SMBIOS_CORRUPT_NONE, SMBIOS_CORRUPT_CHECKSUM, SMBIOS_CORRUPT_LENGTH, SMBIOS_CORRUPT_STRING };

struct config {
	uint64_t ensembles;  /* the paper's BOUND_OF_LOOP */
	uint64_t samples;    /* the paper's SIZE_OF_STAT */
	uint64_t warmup;     /* samples measured and discarded before ensemble 0 */
	uint64_t methods;    /* bit mask of enum method_id */
	uint64_t output;     /* enum output_mode */
	uint64_t test_fault; /* enum test_fault: test-only, provoke an exception */
	uint64_t dump;       /* ensemble whose raw samples are printed, or CFG_OFF */
	uint64_t workloads;  /* bit mask over the registered workloads (bench/workload.h) */
	uint64_t resolution; /* 1: run the resolution test (paper 3.3) */
	uint64_t max_var_of_vars; /* verdict threshold, TSC ticks^4 (paper 4 step 2) */
	uint64_t max_var_of_mins; /* verdict threshold, TSC ticks^2 */
	uint64_t after;      /* enum after_run */
	uint64_t pmu;        /* enum pmu_mode (lib/pmu.h): auto, off, force */
	uint64_t unroll;     /* copies of code= in the window (README "Measuring your own code") */
	uint64_t loops;      /* 0, or iterations of a loop around them (R15) */
	char code[4 * 4096 + 1];  /* code= as given: hex bytes, checked by bench/code.c (room
				   * to say how many bytes too many) */
	char init[2 * 4096 + 1];  /* init= as given */
	char code_name[32];  /* code.name= */
	char test_acpi_corrupt[8]; /* test only: a table whose checksum byte is flipped */
	uint64_t save;       /* 1: under UEFI the log is written to the boot device (kernel/efi.h) */
	uint64_t test_efi_watchdog; /* test only: the firmware's watchdog left on for N s at the write (kernel/efi.h) */
	uint64_t walk;       /* 1: single-step one sample of each window first (bench/walk.c) */
	uint64_t test_buffers; /* test only, enum test_buffers: sample buffers above 4 GiB (kernel/mem.c) */
	uint64_t test_fb;    /* test only, enum test_fb: a framebuffer in RAM above 4 GiB */
	uint64_t test_map;   /* test only: a physical address mapped UC and read, or CFG_OFF */
	uint64_t smp;        /* 1: start the application processors (kernel/smp.c) */
	char cpus[256];      /* cpus= as given (bench/percpu.c checks it); "" for boot */
	char events[CONFIG_EVENTS_MAX + 1]; /* events= as given: a comma list of event names,
					     * nanoBench lines and groups (bench/events.c resolves
					     * it); "" for none */
	uint64_t mem_bytes;  /* mem=: the code's area (R14's; each area under regs=nanobench),
			      * bytes, a multiple of 4 KiB, CONFIG_MEM_MIN..CONFIG_MEM_MAX */
	uint64_t mem_pages;  /* enum mem_pages */
	uint64_t mem_type;   /* enum mem_type */
	uint64_t regs;       /* enum regs_contract */
	uint64_t cache;      /* enum cache_state */
	uint64_t prefetch;   /* enum knob */
	uint64_t turbo;      /* enum knob */
	struct pstate_choice pstate; /* pstate= */
	uint64_t sweep;      /* enum sweep_kind */
	uint64_t smp_park;   /* enum smp_park */
	uint64_t test_smp;   /* enum test_smp */
	struct console_choice console; /* console= (kernel/console.h) */
	char plan[64];       /* plan=FILE: the plan file's name on the boot device (under UEFI)
			      * or a module's string (GRUB module2, QEMU -initrd);
			      * "" or "off": no plan (kernel/planfile.h, bench/plan.h) */
	char send[URL_TEXT_MAX + 1]; /* send= as given: "" (not given), "off", or a URL */
	struct url send_url; /* send='s URL, parsed (lib/url.h); valid when send_on */
	int send_on;         /* 1: send= gave a valid URL (kernel/efinet.h sends the log there) */
	uint64_t identity;   /* enum identity_mode: SMBIOS serial numbers left out, or shown */
	uint64_t test_smbios_corrupt; /* test only: enum smbios_corrupt */
	int problems;        /* command-line problems: config_parse's and its users' */
	uint64_t on_problems; /* enum problems_policy */
};

#define DEFAULT_ENSEMBLES 100
#define DEFAULT_SAMPLES 10000
#define DEFAULT_WARMUP 1000
/* Verdict thresholds: the paper's ergodic methods had 0 and 2 (3.2.2, 3.3.1). */
#define DEFAULT_MAX_VAR_OF_VARS 10
#define DEFAULT_MAX_VAR_OF_MINS 1
/* Most raw samples one dump prints (the paper's SIZE_OF_STAT). */
#define DUMP_MAX_SAMPLES 100000


/* Most names methods= and workloads= choose from (a bit each in a
 * CFG_SET mask, lib/cmdline.h). */
#define CONFIG_CHOICES_MAX 63

/* The names methods= and workloads= choose from and their defaults, given
 * by the measurement (bench/workload.h bench_config_choices), so that this
 * layer knows names and bits, not the workload registry: NULL-terminated
 * lists of at most CONFIG_CHOICES_MAX names, bit i of a mask standing for
 * name i. */
struct config_choices {
	const char *const *methods;
	const char *const *workloads;
	uint64_t default_methods, default_workloads;
};

/* config_parse - the configuration from defaults and the command line, in
 * one parse of every key (console= included), before the console is up:
 * its messages (one "config:" line per problem and one listing the keys
 * given more than once) are kept, console='s for console_init
 * (config_console_problems), the others for config_print_problems. The
 * keys are checked against each other: a dump= beyond the last ensemble
 * is a problem (nothing would be dumped), kept as a line, and turned off. methods= and workloads= are checked against ch's names (names past
 * CONFIG_CHOICES_MAX are ignored). */
struct cfg_line;
const struct config *config_parse(const struct cfg_line *line, const struct config_choices *ch);

/* config_plan_room - the room (size bytes: CFG_MAX_LINE + 1) in which
 * config_plan_experiment keeps an experiment's words without its
 * boot-wide keys, given by the plan from the pool (bench/plan.c) before the
 * first experiment; without it (NULL) an experiment's words are all
 * ignored. */
void config_plan_room(char *buf, size_t size);

/* A plan (README "Running a plan", bench/plan.h): an experiment's
 * configuration is the command line's words, then the plan's defaults
 * line's, then the experiment's, parsed by the one parser, a later key
 * winning (no "given more than once" line across these layers).
 *
 * config_boot_wide - 1 when key[0..len-1] applies to the whole boot
 * (console, after, save, plan, identity, problems, output, pmu, smp,
 * smp.park, cpus, turbo, pstate, prefetch, send, every test.* key): on the
 * command line or in the defaults line, never in an experiment's line.
 *
 * config_plan_defaults - at boot, after config_parse and before the
 * console is up: the defaults line's words parsed on top of the command
 * line's (its boot-wide keys apply to the boot); each problem kept as a
 * line for config_print_problems, its "config: " replaced by prefix
 * ("plan: FILE line N (defaults): "), and counted in the configuration's
 * problems. Returns the problems.
 *
 * config_plan_experiment - the configuration of one experiment: every key
 * at its default, then the command line and defaults (their messages
 * were said at boot: not again), then words (the experiment's, from its
 * plan line), whose problems are printed now, each prefixed with prefix
 * ("plan: FILE line N (NAME): "); a boot-wide key among words is a problem
 * (it is left out: the line says to put it in the defaults line or on the
 * command line). The configuration's problems become boot_problems plus
 * this experiment's, which *problems receives (may be NULL). The same one
 * configuration as config_parse's is returned, changed: a caller keeps
 * nothing of a previous experiment's. */
int config_boot_wide(const char *key, int len);
int config_plan_defaults(const char *words, const char *prefix);
const struct config *config_plan_experiment(const char *defaults, const char *words, const char *prefix,
					    int boot_problems, int *problems);

/* config_console_problems - the console= lines of config_parse, for
 * console_init to print after its own line ("" when none). */
const char *config_console_problems(void);

/* config_print_problems - the other lines of config_parse, printed (where
 * the run's log has always had them: after the banner and boot lines). */
void config_print_problems(void);

/* config_screen_problems - config_parse's lines again (console='s and the
 * others), on the screen only (the serial log has them already): where a
 * run that stops for its command line shows them last, scrolled away by
 * then. */
void config_screen_problems(void);

/* config_set_samples - the samples per ensemble the run uses when the
 * parsed samples= does not fit in memory (bench/run.h bench_fit_samples):
 * the one change made after parsing, by this module, before anything is
 * printed from the configuration. */
void config_set_samples(uint64_t samples);

/* config_add_problems - n more command-line problems found by the keys'
 * users (cpus=, code=, samples= beyond memory): counted in the config
 * line and record and in the final line. */
void config_add_problems(int n);

/* config_workload_selected - whether workload i (of config_choices'
 * workloads) runs. */
int config_workload_selected(int i);

/* config_print - the configuration in effect: a human line and a record. */
void config_print(void);

/* The words of the choices above, indexed by their enums (for lines and
 * records): config_mem_pages_word(MEM_PAGES_2M) is "2m". */
const char *config_mem_pages_word(uint64_t v);
const char *config_mem_type_word(uint64_t v);
const char *config_regs_word(uint64_t v);
const char *config_cache_word(uint64_t v);
const char *config_knob_word(uint64_t v);
const char *config_sweep_word(uint64_t v);
/* config_pstate_text - pstate= as given ("keep", "base", "max", "24") into
 * buf[0..size-1]. Returns buf. */
const char *config_pstate_text(char *buf, int size, const struct pstate_choice *p);

/* config_human, config_json - whether that output is on. */
int config_human(void);
int config_json(void);
/* config_per_ensemble - whether per-ensemble lines and records are
 * printed (every level but output=summary). */
int config_per_ensemble(void);
/* config_full - whether ensemble records are printed in full (output=full)
 * rather than compact (bench/report.c report_ensemble). */
int config_full(void);

#endif

/* kernel/config.c - see config.h. */
#include "config.h"
#include "console.h"
#include "../lib/cmdline.h"
#include "../lib/fmt.h"
#include "../lib/memsize.h"
#include "../lib/pmu.h"
#include "../lib/record.h"
#include "../lib/string.h"

/* The one configuration; readers get it as const struct config *. */
static struct config cfg;

static const char *const output_words[] = { "human", "json", "both", "full", "summary", 0 };
static const char *const fault_words[] = { "none", "ud2", "gp", "pf", "de", 0 };
static const char *method_words[CONFIG_CHOICES_MAX + 1];
static const char *const onoff_words[] = { "off", "on", 0 };
static const char *const after_words[] = { "halt", "reboot", 0 };
static const char *const buffers_words[] = { "auto", "high", 0 };
static const char *const test_fb_words[] = { "none", "high", 0 };
/* The registered workloads' names, then "none" (workloads=none: only the
 * empty windows the offsets need, and code= when given): a bit of its own
 * that config_parse clears. */
static const char *workload_words[CONFIG_CHOICES_MAX + 2];
static const char *const park_words[] = { "auto", "mwait", "hlt", 0 };
static const char *const test_smp_words[] = { "none", "run", "fault", "silent", 0 };
static const char *const problems_words[] = { "stop", "ignore", 0 };
static const char *const mem_pages_words[] = { "auto", "4k", "2m", "1g", 0 };
static const char *const mem_type_words[] = { "wb", "wt", "wc", "wp", "uc", 0 };
static const char *const regs_words[] = { "default", "nanobench", 0 };
static const char *const cache_words[] = { "warm", "flush", "wbinvd", 0 };
static const char *const knob_words[] = { "keep", "off", "on", 0 };
static const char *const sweep_words[] = { "off", "latency", 0 };
static const char *const identity_words[] = { "short", "full", 0 };
static const char *const smbios_corrupt_words[] = { "none", "checksum", "length", "string", 0 };

/* mem=SIZE (lib/memsize.h): a multiple of 4 KiB in
 * [CONFIG_MEM_MIN, CONFIG_MEM_MAX]. */
static int parse_mem(const char *v, int len, void *object)
{
	uint64_t b;
	if (memsize_parse(v, len, &b) != 0 || b < CONFIG_MEM_MIN || b > CONFIG_MEM_MAX || (b & 4095))
		return -1;
	*(uint64_t *)object = b;
	return 0;
}

static void show_mem(char *buf, int size, const void *object)
{
	memsize_text(buf, size, *(const uint64_t *)object);
}

/* pstate=keep|base|max|RATIO (1..255, decimal). */
static int parse_pstate(const char *v, int len, void *object)
{
	struct pstate_choice *p = object;
	static const char *const w[] = { "keep", "base", "max" };
	for (int i = 0; i < 3; i++)
		if ((int)strlen(w[i]) == len && !memcmp(v, w[i], (size_t)len)) {
			p->mode = i, p->ratio = 0;
			return 0;
		}
	uint64_t r;
	if (len < 1 || len > 3 || cfg_parse_u64(v, len, &r) != 0 || r < 1 || r > 255 || v[0] == '0')
		return -1;
	p->mode = PSTATE_RATIO, p->ratio = (unsigned)r;
	return 0;
}

const char *config_pstate_text(char *buf, int size, const struct pstate_choice *p)
{
	static const char *const w[] = { "keep", "base", "max" };
	if (p->mode == PSTATE_RATIO)
		fmt_format(buf, (size_t)size, "%u", p->ratio);
	else
		fmt_format(buf, (size_t)size, "%s", w[p->mode >= 0 && p->mode < 3 ? p->mode : 0]);
	return buf;
}

static void show_pstate(char *buf, int size, const void *object)
{
	config_pstate_text(buf, size, object);
}

static const char *word_of(const char *const *words, int n, uint64_t v)
{
	return v < (uint64_t)n ? words[v] : "?";
}
#define WORD_OF(words, v) word_of(words, (int)(sizeof words / sizeof words[0]) - 1, v)
const char *config_mem_pages_word(uint64_t v) { return WORD_OF(mem_pages_words, v); }
const char *config_mem_type_word(uint64_t v) { return WORD_OF(mem_type_words, v); }
const char *config_regs_word(uint64_t v) { return WORD_OF(regs_words, v); }
const char *config_cache_word(uint64_t v) { return WORD_OF(cache_words, v); }
const char *config_knob_word(uint64_t v) { return WORD_OF(knob_words, v); }
const char *config_sweep_word(uint64_t v) { return WORD_OF(sweep_words, v); }

/* The messages of the one parse, kept until they can be printed (the
 * parse runs before the console is up): console='s, printed by
 * console_init after its own line, and the others, printed by
 * config_print_problems. Lines of at most a few hundred bytes; a command
 * line of thousands of bad words would fill a buffer: what does not fit is
 * counted and said in one line. */
struct kept_msgs {
	char text[16384];
	size_t used;
	int dropped;
};
static struct kept_msgs console_msgs, config_msgs;

static void keep(void *ctx, const char *msg)
{
	struct kept_msgs *k = ctx;
	size_t n = strlen(msg);
	if (k->used + n + 2 > sizeof k->text) {
		k->dropped++;
		return;
	}
	memcpy(k->text + k->used, msg, n);
	k->used += n;
	k->text[k->used++] = '\n';
	k->text[k->used] = '\0';
}

static const struct cfg_key keys[] = {
	{ .name = "ensembles", .type = CFG_U64, .min = 1, .max = 1000000, .value = &cfg.ensembles },
	{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &cfg.samples },
	{ .name = "warmup", .type = CFG_U64, .min = 0, .max = 10000000, .value = &cfg.warmup },
	{ .name = "methods", .type = CFG_SET, .choices = method_words, .value = &cfg.methods },
	{ .name = "output", .type = CFG_CHOICE, .choices = output_words, .value = &cfg.output },
	{ .name = "workloads", .type = CFG_SET, .choices = workload_words, .value = &cfg.workloads },
	{ .name = "resolution", .type = CFG_CHOICE, .choices = onoff_words, .value = &cfg.resolution },
	{ .name = "verdict.var_of_vars", .type = CFG_U64, .min = 0, .max = UINT64_MAX - 1,
	  .value = &cfg.max_var_of_vars },
	{ .name = "verdict.var_of_mins", .type = CFG_U64, .min = 0, .max = UINT64_MAX - 1,
	  .value = &cfg.max_var_of_mins },
	/* the serial console (kernel/console.h): its problems are printed with
	 * the console's own line, once the console is up */
	{ .name = "console", .type = CFG_CUSTOM, .parse = console_parse_choice, .show = console_show_choice,
	  .accepted = CONSOLE_VALUES, .object = &cfg.console, .report = keep, .report_ctx = &console_msgs },
	{ .name = "pmu", .type = CFG_CHOICE, .choices = pmu_mode_words, .value = &cfg.pmu },
	{ .name = "code", .type = CFG_TEXT, .max = sizeof cfg.code - 1, .value = (uint64_t *)cfg.code },
	{ .name = "init", .type = CFG_TEXT, .max = sizeof cfg.init - 1, .value = (uint64_t *)cfg.init },
	{ .name = "unroll", .type = CFG_U64, .min = 1, .max = 100000, .value = &cfg.unroll },
	{ .name = "loops", .type = CFG_U64, .min = 0, .max = 0x7FFFFFFF, .value = &cfg.loops },
	{ .name = "code.name", .type = CFG_TEXT, .max = sizeof cfg.code_name - 1,
	  .value = (uint64_t *)cfg.code_name },
	{ .name = "test.acpi_corrupt", .type = CFG_TEXT, .max = 4, .value = (uint64_t *)cfg.test_acpi_corrupt,
	  .internal = 1 },
	{ .name = "walk", .type = CFG_CHOICE, .choices = onoff_words, .value = &cfg.walk },
	{ .name = "save", .type = CFG_CHOICE, .choices = onoff_words, .value = &cfg.save },
	{ .name = "test.efi_watchdog", .type = CFG_U64, .min = 0, .max = 3600, .value = &cfg.test_efi_watchdog,
	  .internal = 1 },
	{ .name = "after", .type = CFG_CHOICE, .choices = after_words, .value = &cfg.after },
	{ .name = "dump", .type = CFG_U64, .min = 0, .max = 999999, .value = &cfg.dump,
	  .allow_off = 1 },
	{ .name = "test.fault", .type = CFG_CHOICE, .choices = fault_words,
	  .value = &cfg.test_fault, .internal = 1 },
	{ .name = "test.buffers", .type = CFG_CHOICE, .choices = buffers_words, .value = &cfg.test_buffers,
	  .internal = 1 },
	{ .name = "test.fb", .type = CFG_CHOICE, .choices = test_fb_words, .value = &cfg.test_fb, .internal = 1 },
	{ .name = "test.map", .type = CFG_U64, .min = 0, .max = UINT64_MAX - 1, .value = &cfg.test_map,
	  .allow_off = 1, .internal = 1 },
	{ .name = "smp", .type = CFG_CHOICE, .choices = onoff_words, .value = &cfg.smp },
	{ .name = "events", .type = CFG_TEXT, .max = sizeof cfg.events - 1, .value = (uint64_t *)cfg.events },
	{ .name = "cpus", .type = CFG_TEXT, .max = sizeof cfg.cpus - 1, .value = (uint64_t *)cfg.cpus },
	{ .name = "smp.park", .type = CFG_CHOICE, .choices = park_words, .value = &cfg.smp_park },
	{ .name = "problems", .type = CFG_CHOICE, .choices = problems_words, .value = &cfg.on_problems },
	{ .name = "mem", .type = CFG_CUSTOM, .parse = parse_mem, .show = show_mem,
	  .accepted = "a size of 4K to 64T, a multiple of 4 KiB (K, M, G suffixes: mem=64M)",
	  .object = &cfg.mem_bytes },
	{ .name = "mem.pages", .type = CFG_CHOICE, .choices = mem_pages_words, .value = &cfg.mem_pages },
	{ .name = "mem.type", .type = CFG_CHOICE, .choices = mem_type_words, .value = &cfg.mem_type },
	{ .name = "regs", .type = CFG_CHOICE, .choices = regs_words, .value = &cfg.regs },
	{ .name = "cache", .type = CFG_CHOICE, .choices = cache_words, .value = &cfg.cache },
	{ .name = "prefetch", .type = CFG_CHOICE, .choices = knob_words, .value = &cfg.prefetch },
	{ .name = "turbo", .type = CFG_CHOICE, .choices = knob_words, .value = &cfg.turbo },
	{ .name = "pstate", .type = CFG_CUSTOM, .parse = parse_pstate, .show = show_pstate,
	  .accepted = "keep, base, max or a ratio 1..255 (pstate=24)", .object = &cfg.pstate },
	{ .name = "sweep", .type = CFG_CHOICE, .choices = sweep_words, .value = &cfg.sweep },
	{ .name = "plan", .type = CFG_TEXT, .max = sizeof cfg.plan - 1, .value = (uint64_t *)cfg.plan },
	{ .name = "send", .type = CFG_TEXT, .max = sizeof cfg.send - 1, .value = (uint64_t *)cfg.send },
	{ .name = "identity", .type = CFG_CHOICE, .choices = identity_words, .value = &cfg.identity },
	{ .name = "test.smbios_corrupt", .type = CFG_CHOICE, .choices = smbios_corrupt_words,
	  .value = &cfg.test_smbios_corrupt, .internal = 1 },
	{ .name = "test.smp", .type = CFG_CHOICE, .choices = test_smp_words, .value = &cfg.test_smp, .internal = 1 },
};


/* words[] = names[] cut at CONFIG_CHOICES_MAX, NULL-terminated; the mask
 * of all of them. */
static uint64_t take_words(const char **words, const char *const *names)
{
	int n = 0;
	for (; names && names[n] && n < CONFIG_CHOICES_MAX; n++)
		words[n] = names[n];
	words[n] = 0;
	return n ? ~0ull >> (64 - n) : 0;
}


/* The choices config_parse was given and the boot's command line, from
 * which a plan's experiment (config_plan_experiment) starts again. */
static const struct config_choices *choices;
static struct cfg_line boot_line;
static uint64_t all_workloads_mask; /* the registered workloads' bits ("none"'s not among them) */

static int strcmp_eq(const char *a, const char *b);

/* send= read as a URL (lib/url.h): send_on and send_url; a value that is
 * not one is a problem, said (when say) with what is wrong, and send is
 * off. Returns the problems (0 or 1). */
static int check_send(cfg_report_fn report, void *ctx, int say)
{
	cfg.send_on = 0;
	if (!cfg.send[0] || strcmp_eq(cfg.send, "off"))
		return 0;
	enum url_error e = url_parse(cfg.send, strlen(cfg.send), &cfg.send_url);
	if (e == URL_OK) {
		cfg.send_on = 1;
		return 0;
	}
	if (say) {
		char msg[320];
		fmt_format(msg, sizeof msg, "config: send=%.120s is not a URL the run can send to: %s "
			   "(http://HOST[:PORT][/PATH][?token=T], or off); nothing is sent", cfg.send,
			   url_error_text(e));
		report(ctx, msg);
	}
	return say; /* counted once, at boot */
}

/* The keys checked against each other after a parse: a dump= beyond the
 * last ensemble (ensembles are numbered 0..ensembles-1) is turned off, one
 * message to report. "none" among workloads= selects nothing. send= read
 * (check_send; said only when say: the boot's layers, not again for each
 * experiment). Returns the problems. */
static int check_together(cfg_report_fn report, void *ctx, int say)
{
	int problems = check_send(report, ctx, say);
	cfg.workloads &= all_workloads_mask; /* "none" selects nothing */
	if (cfg.dump != CFG_OFF && cfg.dump >= cfg.ensembles) {
		char msg[160];
		fmt_format(msg, sizeof msg, "config: dump=%llu is beyond the last ensemble (ensembles=%llu: 0..%llu); "
			   "no samples are dumped", (unsigned long long)cfg.dump,
			   (unsigned long long)cfg.ensembles, (unsigned long long)(cfg.ensembles - 1));
		report(ctx, msg);
		cfg.dump = CFG_OFF;
		problems++;
	}
	return problems;
}

/* Every key at its default (README "Boot parameters"). */
static void set_defaults(const struct config_choices *ch)
{
	uint64_t all_methods = take_words(method_words, ch->methods);
	uint64_t all_workloads = take_words(workload_words, ch->workloads);
	int none = 0;
	while (workload_words[none])
		none++;
	if (none < CONFIG_CHOICES_MAX)
		workload_words[none] = "none", workload_words[none + 1] = 0;
	all_workloads_mask = all_workloads;
	cfg.workloads = ch->default_workloads & all_workloads;
	cfg.resolution = 0;
	cfg.walk = 0;
	cfg.save = 1;
	cfg.test_efi_watchdog = 0;
	cfg.test_acpi_corrupt[0] = '\0';
	cfg.code[0] = cfg.init[0] = cfg.cpus[0] = cfg.events[0] = cfg.plan[0] = cfg.send[0] = '\0';
	cfg.send_on = 0;
	cfg.identity = IDENTITY_SHORT;
	cfg.test_smbios_corrupt = SMBIOS_CORRUPT_NONE;
	cfg.unroll = 1;
	cfg.loops = 0;
	fmt_format(cfg.code_name, sizeof cfg.code_name, "code");
	cfg.after = AFTER_HALT;
	cfg.pmu = PMU_MODE_AUTO;
	cfg.max_var_of_vars = DEFAULT_MAX_VAR_OF_VARS;
	cfg.max_var_of_mins = DEFAULT_MAX_VAR_OF_MINS;
	cfg.ensembles = DEFAULT_ENSEMBLES;
	cfg.samples = DEFAULT_SAMPLES;
	cfg.warmup = DEFAULT_WARMUP;
	cfg.methods = ch->default_methods & all_methods;
	cfg.output = OUTPUT_BOTH;
	cfg.test_fault = FAULT_NONE;
	cfg.test_buffers = TEST_BUFFERS_AUTO;
	cfg.test_fb = TEST_FB_NONE;
	cfg.test_map = CFG_OFF;
	cfg.smp = 0;
	cfg.smp_park = SMP_PARK_AUTO;
	cfg.test_smp = TEST_SMP_NONE;
	cfg.dump = CFG_OFF;
	cfg.mem_bytes = CONFIG_MEM_DEFAULT;
	cfg.mem_pages = MEM_PAGES_AUTO;
	cfg.mem_type = MEM_TYPE_WB;
	cfg.regs = REGS_DEFAULT;
	cfg.cache = CACHE_WARM;
	cfg.prefetch = KNOB_KEEP;
	cfg.turbo = KNOB_KEEP;
	cfg.pstate = (struct pstate_choice){ PSTATE_KEEP, 0 };
	cfg.sweep = SWEEP_OFF;
	cfg.on_problems = PROBLEMS_STOP;
	cfg.console = (struct console_choice){ .port = 0, .baud = CONSOLE_DEFAULT_BAUD };
}

const struct config *config_parse(const struct cfg_line *line, const struct config_choices *ch)
{
	choices = ch;
	boot_line = *line;
	set_defaults(ch);
	console_msgs.used = config_msgs.used = 0;
	console_msgs.dropped = config_msgs.dropped = 0;
	cfg.problems = cfg_parse_line(line, keys, (int)(sizeof keys / sizeof keys[0]), 0, keep, &config_msgs);
	cfg.problems += check_together(keep, &config_msgs, 1);
	return &cfg;
}

/* A plan's messages: each config: message of lib/cmdline.c with its
 * "config: " replaced by the plan's prefix ("plan: FILE line N (NAME): "),
 * to sink (kept for later, or printed now). */
struct plan_report {
	const char *prefix;
	cfg_report_fn sink;
	void *sink_ctx;
};

static void plan_report(void *ctx, const char *msg)
{
	const struct plan_report *p = ctx;
	char line[1024];
	if (!memcmp(msg, "config: ", strlen(msg) < 8 ? strlen(msg) + 1 : 8))
		msg += 8;
	fmt_format(line, sizeof line, "%s%s", p->prefix, msg);
	p->sink(p->sink_ctx, line);
}

static void print_now(void *ctx, const char *msg)
{
	(void)ctx;
	kprintf("%s\n", msg);
}

static void drop(void *ctx, const char *msg)
{
	(void)ctx, (void)msg;
}

/* The keys that apply to the whole boot (README "Running a plan"): on the
 * command line or in a plan's defaults line, never in an experiment's. */
static const char *const boot_wide[] = { "console", "after", "save", "plan", "identity", "problems", "output",
					 "pmu", "smp", "smp.park", "cpus", "turbo", "pstate", "prefetch", "send", 0 };

int config_boot_wide(const char *key, int len)
{
	if (len >= 5 && !memcmp(key, "test.", 5))
		return 1;
	for (int i = 0; boot_wide[i]; i++)
		if ((int)strlen(boot_wide[i]) == len && !memcmp(boot_wide[i], key, (size_t)len))
			return 1;
	return 0;
}

int config_plan_defaults(const char *words, const char *prefix)
{
	if (!words || !words[0])
		return 0;
	struct plan_report pr = { prefix, keep, &config_msgs };
	int n = cfg_parse(words, keys, (int)(sizeof keys / sizeof keys[0]), plan_report, &pr);
	n += check_together(plan_report, &pr, 1);
	cfg.problems += n;
	return n;
}

/* An experiment's words without its boot-wide keys (each one message):
 * room the plan gives from the pool (config_plan_room), so that a run
 * without a plan keeps its memory for its sample buffers. */
static char *exp_words;
static size_t exp_room;

void config_plan_room(char *buf, size_t size)
{
	exp_words = buf;
	exp_room = buf ? size : 0;
}

const struct config *config_plan_experiment(const char *defaults, const char *words, const char *prefix,
					    int boot_problems, int *problems)
{
	struct plan_report pr = { prefix, print_now, 0 };
	int n = 0;
	size_t o = 0;
	for (const char *w = words ? words : ""; *w;) {
		while (*w == ' ')
			w++;
		const char *e = w;
		while (*e && *e != ' ')
			e++;
		if (e == w)
			break;
		int klen = 0;
		while (w + klen < e && w[klen] != '=')
			klen++;
		if (config_boot_wide(w, klen)) {
			char msg[256];
			fmt_format(msg, sizeof msg, "%.*s= applies to the whole boot: put it in the defaults line or on "
				   "the command line; ignored here", klen > 64 ? 64 : klen, w);
			plan_report(&pr, msg);
			n++;
		} else if (o + (size_t)(e - w) + 2 <= exp_room) {
			if (o)
				exp_words[o++] = ' ';
			memcpy(exp_words + o, w, (size_t)(e - w));
			o += (size_t)(e - w);
		}
		w = e;
	}
	if (exp_room)
		exp_words[o] = '\0';
	/* The boot's own layers again, silently: their messages were said at
	 * boot (console='s kept ones left as they were). */
	size_t console_used = console_msgs.used;
	set_defaults(choices);
	cfg_parse_line(&boot_line, keys, (int)(sizeof keys / sizeof keys[0]), 0, drop, 0);
	if (defaults && defaults[0])
		cfg_parse(defaults, keys, (int)(sizeof keys / sizeof keys[0]), drop, 0);
	console_msgs.used = console_used;
	if (console_msgs.used < sizeof console_msgs.text)
		console_msgs.text[console_msgs.used] = '\0';
	n += cfg_parse(exp_room ? exp_words : "", keys, (int)(sizeof keys / sizeof keys[0]), plan_report, &pr);
	n += check_together(plan_report, &pr, 0);
	cfg.problems = boot_problems + n;
	if (problems)
		*problems = n;
	return &cfg;
}

/* 1 when the strings are equal. */
static int strcmp_eq(const char *a, const char *b)
{
	return strlen(a) == strlen(b) && !memcmp(a, b, strlen(a));
}

/* What did not fit in a kept_msgs, said in one line. */
static void say_dropped(const struct kept_msgs *k)
{
	if (k->dropped)
		kprintf("config: %d more message%s not shown (the kernel keeps %llu bytes of them)\n", k->dropped,
			k->dropped == 1 ? "" : "s", (unsigned long long)sizeof k->text);
}

const char *config_console_problems(void)
{
	if (console_msgs.dropped) {
		static char more[96];
		fmt_format(more, sizeof more, "config: %d more console= messages not shown\n", console_msgs.dropped);
		if (console_msgs.used + strlen(more) + 1 <= sizeof console_msgs.text) {
			memcpy(console_msgs.text + console_msgs.used, more, strlen(more) + 1);
			console_msgs.used += strlen(more);
			console_msgs.dropped = 0;
		}
	}
	return console_msgs.used ? console_msgs.text : "";
}

void config_print_problems(void)
{
	if (config_msgs.used)
		console_write(config_msgs.text, config_msgs.used);
	say_dropped(&config_msgs);
}

void config_screen_problems(void)
{
	console_set_serial(0);
	console_write(console_msgs.text, console_msgs.used);
	config_print_problems();
	console_set_serial(1);
}

void config_set_samples(uint64_t samples)
{
	cfg.samples = samples;
}

void config_add_problems(int n)
{
	cfg.problems += n;
}

int config_workload_selected(int i)
{
	return i >= 0 && i < CONFIG_CHOICES_MAX && ((cfg.workloads >> i) & 1);
}

int config_human(void)
{
	return cfg.output != OUTPUT_JSON;
}

int config_json(void)
{
	return cfg.output != OUTPUT_HUMAN;
}

int config_per_ensemble(void)
{
	return cfg.output != OUTPUT_SUMMARY;
}

int config_full(void)
{
	return cfg.output == OUTPUT_FULL;
}

void config_print(void)
{
	char list[160];
	int n = 0;
	list[0] = '\0';
	for (int m = 0; method_words[m]; m++)
		if ((cfg.methods >> m) & 1)
			n += fmt_format(list + n, sizeof list - (size_t)n, "%s%s", n ? "," : "",
					method_words[m]);
	/* Up to CONFIG_CHOICES_MAX names: cut, never written past, when longer. */
	char wl[2048];
	int wn = 0;
	wl[0] = '\0';
	for (int i = 0; workload_words[i] && wn < (int)sizeof wl - 1; i++)
		if (config_workload_selected(i))
			wn += fmt_format(wl + wn, sizeof wl - (size_t)wn, "%s%s", wn ? "," : "",
					 workload_words[i]);
	if (!wn)
		fmt_format(wl, sizeof wl, "none");
	char dump[24] = "off";
	if (cfg.dump != CFG_OFF)
		fmt_format(dump, sizeof dump, "%llu", (unsigned long long)cfg.dump);
	kprintf("config: ensembles=%llu samples=%llu warmup=%llu methods=%s workloads=%s resolution=%s "
		"output=%s dump=%s pmu=%s walk=%s verdict.var_of_vars=%llu verdict.var_of_mins=%llu (%d command-line problem%s)\n",
		(unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
		(unsigned long long)cfg.warmup, list, wl, onoff_words[cfg.resolution],
		output_words[cfg.output], dump, pmu_mode_words[cfg.pmu], onoff_words[cfg.walk],
		(unsigned long long)cfg.max_var_of_vars,
		(unsigned long long)cfg.max_var_of_mins, cfg.problems, cfg.problems == 1 ? "" : "s");
	char mem[24], pstate[8];
	memsize_word(mem, sizeof mem, cfg.mem_bytes);
	config_pstate_text(pstate, sizeof pstate, &cfg.pstate);
	kprintf("config: memory and clocks: mem=%s mem.pages=%s mem.type=%s regs=%s cache=%s prefetch=%s turbo=%s "
		"pstate=%s sweep=%s\n", mem, config_mem_pages_word(cfg.mem_pages), config_mem_type_word(cfg.mem_type),
		config_regs_word(cfg.regs), config_cache_word(cfg.cache), config_knob_word(cfg.prefetch),
		config_knob_word(cfg.turbo), pstate, config_sweep_word(cfg.sweep));
	int plan = cfg.plan[0] && strcmp_eq(cfg.plan, "off") == 0;
	if (plan) /* only with plan= (README "Running a plan"): a run without one prints what it always did */
		kprintf("config: plan=%s\n", cfg.plan);
	char send[URL_TEXT_MAX];
	url_text(&cfg.send_url, 0, send, sizeof send);
	if (cfg.send_on) /* only with send= (README "Sending the results"); the token never printed */
		kprintf("config: send=%s%s\n", send, cfg.send_url.token[0] ? " (with its token)" : "");
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "config");
		rec_u64(&r, "ensembles", cfg.ensembles);
		rec_u64(&r, "samples", cfg.samples);
		rec_u64(&r, "warmup", cfg.warmup);
		rec_str(&r, "methods", list);
		rec_str(&r, "workloads", wl);
		rec_bool(&r, "resolution", (int)cfg.resolution);
		rec_str(&r, "output", output_words[cfg.output]);
		rec_u64_or_null(&r, "dump", cfg.dump != CFG_OFF, cfg.dump);
		rec_bool(&r, "walk", (int)cfg.walk);
		rec_u64(&r, "max_var_of_vars", cfg.max_var_of_vars);
		rec_u64(&r, "max_var_of_mins", cfg.max_var_of_mins);
		rec_i64(&r, "problems", cfg.problems);
		rec_u64(&r, "mem_bytes", cfg.mem_bytes);
		rec_str(&r, "mem_pages", config_mem_pages_word(cfg.mem_pages));
		rec_str(&r, "mem_type", config_mem_type_word(cfg.mem_type));
		rec_str(&r, "regs", config_regs_word(cfg.regs));
		rec_str(&r, "cache", config_cache_word(cfg.cache));
		rec_str(&r, "prefetch", config_knob_word(cfg.prefetch));
		rec_str(&r, "turbo", config_knob_word(cfg.turbo));
		rec_str(&r, "pstate", pstate);
		rec_str(&r, "sweep", config_sweep_word(cfg.sweep));
		if (plan)
			rec_str(&r, "plan", cfg.plan);
		if (cfg.send_on)
			rec_str(&r, "send", send);
		rec_str(&r, "identity", identity_words[cfg.identity]);
		rec_end(&r);
	}
}

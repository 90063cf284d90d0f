/* kernel/config.c - see config.h. */
#include "config.h"
#include "console.h"
#include "../bench/methods.h"
#include "../lib/cmdline.h"
#include "../lib/fmt.h"

struct config cfg;

static const char *const output_words[] = { "human", "json", "both", 0 };
static const char *const fault_words[] = { "none", "ud2", "gp", "pf", "de", 0 };
static const char *method_words[METHOD_COUNT + 1];

static const struct cfg_key keys[] = {
	{ .name = "ensembles", .type = CFG_U64, .min = 1, .max = 1000000, .value = &cfg.ensembles },
	{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &cfg.samples },
	{ .name = "warmup", .type = CFG_U64, .min = 0, .max = 10000000, .value = &cfg.warmup },
	{ .name = "methods", .type = CFG_SET, .choices = method_words, .value = &cfg.methods },
	{ .name = "output", .type = CFG_CHOICE, .choices = output_words, .value = &cfg.output },
	{ .name = "dump", .type = CFG_U64, .min = 0, .max = 999999, .value = &cfg.dump,
	  .allow_off = 1 },
	{ .name = "test.fault", .type = CFG_CHOICE, .choices = fault_words,
	  .value = &cfg.test_fault },
};

static void report(void *ctx, const char *msg)
{
	(void)ctx;
	kprintf("%s\n", msg);
}

void config_parse(const char *cmdline)
{
	for (int m = 0; m < METHOD_COUNT; m++)
		method_words[m] = methods[m].name;
	method_words[METHOD_COUNT] = 0;
	cfg.ensembles = DEFAULT_ENSEMBLES;
	cfg.samples = DEFAULT_SAMPLES;
	cfg.warmup = DEFAULT_WARMUP;
	cfg.methods = (1ull << METHOD_COUNT) - 1;
	cfg.output = OUTPUT_BOTH;
	cfg.test_fault = FAULT_NONE;
	cfg.dump = CFG_OFF;
	cfg.problems = cfg_parse(cmdline, keys, (int)(sizeof keys / sizeof keys[0]), report, 0);
}

int config_human(void)
{
	return cfg.output != OUTPUT_JSON;
}

int config_json(void)
{
	return cfg.output != OUTPUT_HUMAN;
}

void config_print(void)
{
	char list[64];
	int n = 0;
	list[0] = '\0';
	for (int m = 0; m < METHOD_COUNT; m++)
		if ((cfg.methods >> m) & 1)
			n += fmt_format(list + n, sizeof list - (size_t)n, "%s%s", n ? "," : "",
					methods[m].name);
	char dump[24] = "off", jdump[24] = "null";
	if (cfg.dump != CFG_OFF) {
		fmt_format(dump, sizeof dump, "%llu", (unsigned long long)cfg.dump);
		fmt_format(jdump, sizeof jdump, "%llu", (unsigned long long)cfg.dump);
	}
	kprintf("config: ensembles=%llu samples=%llu warmup=%llu methods=%s output=%s dump=%s "
		"(%d command-line problem%s)\n",
		(unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
		(unsigned long long)cfg.warmup, list, output_words[cfg.output], dump, cfg.problems,
		cfg.problems == 1 ? "" : "s");
	if (config_json())
		kprintf("{\"rec\":\"config\",\"ensembles\":%llu,\"samples\":%llu,\"warmup\":%llu,"
			"\"methods\":\"%s\",\"output\":\"%s\",\"dump\":%s,\"problems\":%d}\n",
			(unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
			(unsigned long long)cfg.warmup, list, output_words[cfg.output], jdump,
			cfg.problems);
}

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
	{ "ensembles", CFG_U64, 1, 1000000, 0, &cfg.ensembles },
	{ "samples", CFG_U64, 1, 10000000, 0, &cfg.samples },
	{ "warmup", CFG_U64, 0, 10000000, 0, &cfg.warmup },
	{ "methods", CFG_SET, 0, 0, method_words, &cfg.methods },
	{ "output", CFG_CHOICE, 0, 0, output_words, &cfg.output },
	{ "test.fault", CFG_CHOICE, 0, 0, fault_words, &cfg.test_fault },
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
	kprintf("config: ensembles=%llu samples=%llu warmup=%llu methods=%s output=%s "
		"(%d command-line problem%s)\n",
		(unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
		(unsigned long long)cfg.warmup, list, output_words[cfg.output], cfg.problems,
		cfg.problems == 1 ? "" : "s");
	if (config_json())
		kprintf("{\"rec\":\"config\",\"ensembles\":%llu,\"samples\":%llu,\"warmup\":%llu,"
			"\"methods\":\"%s\",\"output\":\"%s\",\"problems\":%d}\n",
			(unsigned long long)cfg.ensembles, (unsigned long long)cfg.samples,
			(unsigned long long)cfg.warmup, list, output_words[cfg.output],
			cfg.problems);
}

/* tests/unit/fuzz_cmdline.c - libFuzzer target for lib/cmdline.c: any bytes
 * as a command line, against the kernel's kind of key table. ASan and UBSan
 * report any out-of-bounds access or overflow; the checks below report a
 * value set outside its declared range, and a message longer than its
 * bound or holding a byte that is not printable ASCII (user bytes are
 * escaped). Run by `make fuzz` (bounded time). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/cmdline.h"

static uint64_t ensembles, samples, methods, output, dump;
static const char *const method_words[] = { "cpuid", "rdtscp", "cr0", 0 };
static const char *const output_words[] = { "human", "json", "both", 0 };
static const struct cfg_key keys[] = {
	{ .name = "ensembles", .type = CFG_U64, .min = 1, .max = 1000000, .value = &ensembles },
	{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &samples },
	{ .name = "methods", .type = CFG_SET, .choices = method_words, .value = &methods },
	{ .name = "output", .type = CFG_CHOICE, .choices = output_words, .value = &output },
	{ .name = "dump", .type = CFG_U64, .min = 0, .max = 999999, .value = &dump, .allow_off = 1 },
};

static void report(void *ctx, const char *msg)
{
	(void)ctx;
	if (strlen(msg) >= 320)
		abort(); /* messages are bounded */
	for (const char *c = msg; *c; c++)
		if (*c < 0x20 || *c > 0x7E)
			abort(); /* user bytes are escaped: one printable line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	ensembles = 100;
	samples = 1000;
	methods = 7;
	output = 2;
	dump = CFG_OFF;
	/* the first byte chooses whether the loader put a path first (QEMU) */
	const struct cfg_line ln = { .text = line, .length = size ? (uint64_t)data[0] << 4 : 0,
				     .path_first = size && (data[0] & 1) };
	cfg_parse_line(&ln, keys, (int)(sizeof keys / sizeof keys[0]), 0, report, 0);
	if (ensembles < 1 || ensembles > 1000000 || samples < 1 || samples > 10000000 ||
	    methods == 0 || methods > 7 || output > 2 || (dump > 999999 && dump != CFG_OFF))
		abort();
	free(line);
	return 0;
}

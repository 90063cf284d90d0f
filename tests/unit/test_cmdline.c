/* tests/unit/test_cmdline.c - lib/cmdline.c with a key table like the
 * kernel's: valid lines, whitespace, the image path loaders prepend (QEMU's,
 * whatever it looks like, and a guessed one), unknown keys, every kind of
 * bad number, hex, empty values, repeated keys (one note, no problem), sets
 * ("all", lists, unknown items), choices, "off", text values, custom and
 * elsewhere-checked keys, a pass for some keys only, an over-long line (its
 * true length), over-long words (ASan checks the message buffers), user
 * bytes escaped in every message, the content of every message, and
 * cfg_parse_u64 on its own. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/cmdline.h"

#define MAX_MSGS 32

static struct {
	int n;
	char msg[MAX_MSGS][512];
} got;

static void collect(void *ctx, const char *msg)
{
	CHECK(ctx == &got, "report gets its context");
	CHECK(strlen(msg) < 320, "a message is one line of bounded size");
	CHECK(strchr(msg, '\n') == NULL, "a message holds no newline");
	if (got.n < MAX_MSGS)
		snprintf(got.msg[got.n], sizeof got.msg[0], "%s", msg);
	got.n++;
}

static uint64_t samples, ensembles, methods, output, fault, dump;

static const char *const method_words[] = { "cpuid", "rdtscp", "cr0", NULL };
static const char *const output_words[] = { "human", "json", "both", NULL };
static const char *const fault_words[] = { "none", "ud2", "gp", "pf", "de", NULL };

static const struct cfg_key keys[] = {
	{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &samples },
	{ .name = "ensembles", .type = CFG_U64, .min = 1, .max = 1000000, .value = &ensembles },
	{ .name = "methods", .type = CFG_SET, .choices = method_words, .value = &methods },
	{ .name = "output", .type = CFG_CHOICE, .choices = output_words, .value = &output },
	{ .name = "test.fault", .type = CFG_CHOICE, .choices = fault_words, .value = &fault },
	{ .name = "dump", .type = CFG_U64, .min = 0, .max = 999999, .value = &dump,
	  .allow_off = 1 },
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

static void defaults(void)
{
	samples = 10000;
	ensembles = 100;
	methods = 7;
	output = 2; /* both */
	fault = 0;  /* none */
	dump = CFG_OFF;
}

/* Parse line against keys, collecting its messages afresh. */
static int parse(const char *line)
{
	got.n = 0;
	return cfg_parse(line, keys, NKEYS, collect, &got);
}

static int unchanged(void)
{
	return samples == 10000 && ensembles == 100 && methods == 7 && output == 2 && fault == 0 &&
	       dump == CFG_OFF;
}

static int has(int i, const char *needle)
{
	if (i >= got.n || i >= MAX_MSGS) {
		printf("  no message %d (only %d)\n", i, got.n);
		return 0;
	}
	if (strstr(got.msg[i], needle))
		return 1;
	printf("  message %d \"%s\" lacks \"%s\"\n", i, got.msg[i], needle);
	return 0;
}

static void test_valid(void)
{
	defaults();
	CHECK_EQ_U64(parse("samples=500 ensembles=20 methods=cpuid,rdtscp output=json "
			   "test.fault=gp dump=3"),
		     0, "every key valid: no problem");
	CHECK_EQ_U64(got.n, 0, "every key valid: no message");
	CHECK_EQ_U64(samples, 500, "samples=500 taken");
	CHECK_EQ_U64(ensembles, 20, "ensembles=20 taken");
	CHECK_EQ_U64(methods, 3, "methods=cpuid,rdtscp: bits 0 and 1");
	CHECK_EQ_U64(output, 1, "output=json: choice 1");
	CHECK_EQ_U64(fault, 2, "test.fault=gp: choice 2");
	CHECK_EQ_U64(dump, 3, "dump=3 taken");

	/* range limits are inclusive */
	defaults();
	CHECK_EQ_U64(parse("samples=1 ensembles=1000000 dump=0"), 0,
	             "lower limits and the largest ensembles: valid");
	CHECK_EQ_U64(samples, 1, "samples=1, the lower limit");
	CHECK_EQ_U64(ensembles, 1000000, "ensembles=1000000, the upper limit");
	CHECK_EQ_U64(dump, 0, "dump=0, the lower limit");
	CHECK_EQ_U64(parse("samples=10000000 dump=999999"), 0, "upper limits: valid");
	CHECK_EQ_U64(samples, 10000000, "samples=10000000, the upper limit");
	CHECK_EQ_U64(dump, 999999, "dump=999999, the upper limit");
	CHECK_EQ_U64(parse("dump=off"), 0, "dump=off: valid");
	CHECK_EQ_U64(dump, CFG_OFF, "dump=off sets CFG_OFF");

	/* every choice by its index */
	for (uint64_t i = 0; fault_words[i]; i++) {
		char line[64];
		snprintf(line, sizeof line, "test.fault=%s", fault_words[i]);
		CHECK_EQ_U64(parse(line), 0, "test.fault=%s: valid", fault_words[i]);
		CHECK_EQ_U64(fault, i, "test.fault=%s: choice %d", fault_words[i], (int)i);
	}

	/* no report function: problems are still counted */
	defaults();
	CHECK_EQ_U64(cfg_parse("samples=x bogus=1 ensembles=7", keys, NKEYS, NULL, NULL), 2,
	             "no report function: problems still counted");
	CHECK_EQ_U64(ensembles, 7, "no report function: the valid word still taken");
	CHECK_EQ_U64(samples, 10000, "no report function: the bad value not taken");
}

static void test_empty_and_spaces(void)
{
	defaults();
	CHECK_EQ_U64(parse(NULL), 0, "no line: no problem");
	CHECK_EQ_U64(got.n, 0, "no line: no message");
	CHECK_EQ_U64(parse(""), 0, "empty line: no problem");
	CHECK_EQ_U64(parse("    "), 0, "spaces only: no problem");
	CHECK_EQ_U64(parse(" \t \t\r\n "), 0, "tabs, return, newline: whitespace, no problem");
	CHECK_EQ_U64(got.n, 0, "whitespace only: no message");
	CHECK(unchanged(), "whitespace only: nothing changed");

	CHECK_EQ_U64(parse("   samples=7\t\tensembles=9   "), 0,
	             "spaces and tabs around words: no problem");
	CHECK_EQ_U64(got.n, 0, "spaces and tabs around words: no message");
	CHECK_EQ_U64(samples, 7, "samples=7 between tabs taken");
	CHECK_EQ_U64(ensembles, 9, "ensembles=9 before trailing spaces taken");
	CHECK_EQ_U64(parse("\tsamples=8\n"), 0, "tab before, newline after: no problem");
	CHECK_EQ_U64(samples, 8, "samples=8 between tab and newline taken");
	CHECK_EQ_U64(parse("output=json     methods=cr0"), 0,
	             "several spaces between words: no problem");
	CHECK_EQ_U64(output, 1, "output=json taken");
	CHECK_EQ_U64(methods, 4, "methods=cr0: bit 2");
}

static void test_image_path(void)
{
	defaults();
	CHECK_EQ_U64(parse("/boot/bench32.elf samples=5"), 0, "image path first: skipped");
	CHECK_EQ_U64(got.n, 0, "image path first: no message");
	CHECK_EQ_U64(samples, 5, "samples=5 after the image path taken");
	CHECK_EQ_U64(parse("  build/bench32.elf"), 0,
	             "leading space, relative image path: skipped");
	CHECK_EQ_U64(got.n, 0, "relative image path: no message");

	/* only the first word may be a path */
	CHECK_EQ_U64(parse("samples=6 /boot/x"), 1, "a path after the first word: one problem");
	CHECK_EQ_U64(got.n, 1, "a path after the first word: one message");
	CHECK(has(0, "/boot/x"), "the message echoes the path");
	CHECK(has(0, "key=value"), "the message says key=value");
	CHECK_EQ_U64(samples, 6, "samples=6 before the path still taken");
	CHECK_EQ_U64(parse("/a/b /c/d"), 1, "two paths: the second a problem");
	CHECK(has(0, "/c/d"), "the message echoes the second path");

	/* a first word without '/' and without '=' is a mistake */
	CHECK_EQ_U64(parse("hello samples=9"), 1, "a first word without '/' or '=': a problem");
	CHECK(has(0, "hello"), "the message echoes the word");
	CHECK_EQ_U64(samples, 9, "samples=9 after it still taken");
	/* a first word with '/' and '=' is a key=value word */
	CHECK_EQ_U64(parse("a/b=1"), 1, "a first word with '/' and '=': a key=value word, unknown");
	CHECK(has(0, "unknown key"), "a/b=1: unknown key");
	CHECK(has(0, "a/b"), "a/b=1: the message echoes the key");
}

static void test_unknown_key(void)
{
	defaults();
	CHECK_EQ_U64(parse("colour=red"), 1, "colour=red: one problem");
	CHECK_EQ_U64(got.n, 1, "colour=red: one message");
	CHECK(has(0, "unknown key"), "colour=red: unknown key");
	CHECK(has(0, "colour"), "colour=red: the message echoes the key");
	for (int k = 0; k < NKEYS; k++)
		CHECK(has(0, keys[k].name), "unknown key's message lists key %s", keys[k].name);
	CHECK(unchanged(), "unknown key: nothing changed");

	/* the other words still count */
	CHECK_EQ_U64(parse("colour=red samples=3"), 1, "unknown key before samples=3: one problem");
	CHECK_EQ_U64(samples, 3, "samples=3 after an unknown key taken");

	/* keys are matched whole and case-sensitively */
	defaults();
	CHECK_EQ_U64(parse("sample=3 samplesx=3 Samples=3 test=ud2"), 4,
	             "near misses of key names: four unknown keys");
	CHECK(has(0, "'sample'"), "sample: not samples");
	CHECK(has(1, "'samplesx'"), "samplesx: not samples");
	CHECK(has(2, "'Samples'"), "Samples: keys are case-sensitive");
	CHECK(has(3, "'test'"), "test: not test.fault");
	CHECK(unchanged(), "near misses: nothing changed");

	/* empty key */
	CHECK_EQ_U64(parse("=5"), 1, "=5: one problem");
	CHECK(has(0, "unknown key ''"), "=5: unknown key ''");
	CHECK(unchanged(), "=5: nothing changed");
}

static void test_bad_numbers(void)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "samples=abc", "not a number" },
		{ "samples=-5", "not a number" },
		{ "samples=+5", "not a number" },
		{ "samples=5x", "not a number" },
		{ "samples=1.5", "not a number" },
		{ "samples=0x", "not a number" },
		{ "samples=0xg", "not a number" },
		{ "samples=0", "out of range" },
		{ "samples=10000001", "out of range" },
		{ "samples=0x989681", "out of range" }, /* 10000001 */
		{ "samples=18446744073709551615", "out of range" },
		{ "samples=99999999999999999999999", "99999999999999999999999 is out of range" },
		{ "samples=18446744073709551616", "18446744073709551616 is out of range" }, /* 2^64 */
		{ "samples=", "empty value" },
		{ "samples=off", "not a number" }, /* no allow_off */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		defaults();
		CHECK_EQ_U64(parse(bad[i].line), 1, "%s: one problem", bad[i].line);
		CHECK_EQ_U64(got.n, 1, "%s: one message", bad[i].line);
		CHECK(has(0, "samples"), "%s: the message names the key", bad[i].line);
		CHECK(has(0, bad[i].why), "%s: the message says %s", bad[i].line, bad[i].why);
		CHECK(has(0, "1..10000000"), "%s: the message gives the range", bad[i].line);
		CHECK(has(0, "keeping 10000"), "%s: the message gives the value kept", bad[i].line);
		CHECK(unchanged(), "%s: nothing changed", bad[i].line);
	}

	/* hex */
	defaults();
	CHECK_EQ_U64(parse("samples=0x10"), 0, "hex 0x10: valid");
	CHECK_EQ_U64(samples, 16, "hex 0x10 is 16");
	CHECK_EQ_U64(parse("samples=0X1f"), 0, "hex with 0X and mixed case: valid");
	CHECK_EQ_U64(samples, 31, "hex 0X1f is 31");
	CHECK_EQ_U64(parse("samples=0x989680"), 0, "hex upper limit: valid");
	CHECK_EQ_U64(samples, 10000000, "hex 0x989680 is 10000000");
	/* leading zeros are decimal */
	CHECK_EQ_U64(parse("samples=0010"), 0, "leading zeros: valid");
	CHECK_EQ_U64(samples, 10, "leading zeros are decimal");

	/* what is kept is the current value, not the default */
	CHECK_EQ_U64(parse("samples=42"), 0, "samples=42: valid");
	CHECK_EQ_U64(parse("samples=0"), 1, "samples=0 out of range: a problem");
	CHECK(has(0, "keeping 42"), "the current value is kept, not the default");
	CHECK_EQ_U64(samples, 42, "samples stays 42");

	/* a key with "off" */
	defaults();
	CHECK_EQ_U64(parse("dump=1000000"), 1, "dump=1000000 out of range: a problem");
	CHECK(has(0, "dump"), "dump's message names the key");
	CHECK(has(0, "0..999999 or off"), "dump's message gives the range with off");
	CHECK(has(0, "keeping off"), "dump's message keeps off");
	CHECK_EQ_U64(dump, CFG_OFF, "dump stays off");
	CHECK_EQ_U64(parse("dump=5 dump=of"), 1, "dump=5 dump=of: one problem");
	CHECK(has(0, "keeping 5"), "dump=of keeps 5");
	CHECK(has(1, "more than once"), "dump given twice: noted");
	CHECK_EQ_U64(dump, 5, "dump stays 5");
}

/* A key given again overrides the earlier value: normal use (GRUB's editor
 * appends words), not a problem; one line at the end lists the keys. */
static void test_duplicates(void)
{
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=6"), 0, "samples twice: no problem");
	CHECK_EQ_U64(got.n, 1, "samples twice: one note");
	CHECK(has(0, "config: given more than once (the last valid value is used): samples"),
	      "samples twice: the note names it");
	CHECK_EQ_U64(samples, 6, "samples twice: the last value");

	/* the last *valid* value is used; the bad one is the only problem */
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=abc"), 1, "samples=5 then a bad value: one problem");
	CHECK_EQ_U64(got.n, 2, "samples=5 then a bad value: the problem and the note");
	CHECK_EQ_U64(samples, 5, "samples=5 then a bad value: the last valid value");
	CHECK(has(0, "not a number"), "bad value: not a number");
	CHECK(has(0, "keeping 5"), "bad value: keeps 5");
	CHECK(has(1, "more than once"), "bad value after a good one: noted as repeated");

	/* one note for every repeated key, in table order, each named once */
	defaults();
	CHECK_EQ_U64(parse("output=json samples=1 output=human samples=2 output=both ensembles=4"), 0,
	             "output and samples repeated: no problem");
	CHECK_EQ_U64(got.n, 1, "output and samples repeated: one note");
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): samples, output",
	          "output and samples repeated: each named once, in table order");
	CHECK_EQ_U64(output, 2, "output=both, the last");
	CHECK_EQ_U64(samples, 2, "samples=2, the last");
	CHECK_EQ_U64(ensembles, 4, "ensembles=4 among repeats taken");

	/* GRUB's entry ensembles=100, then ensembles=3 appended, 80 times over:
	 * still one line and no problem (the fuzzer's 415 repeats printed 81) */
	static char line[1100];
	strcpy(line, "ensembles=100");
	for (int i = 0; i < 80; i++)
		strcat(line, " ensembles=3");
	CHECK(strlen(line) <= CFG_MAX_LINE, "81 ensembles= words fit the line");
	defaults();
	CHECK_EQ_U64(parse(line), 0, "GRUB's entry and 80 appended: no problem");
	CHECK_EQ_U64(got.n, 1, "GRUB's entry and 80 appended: one note");
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): ensembles",
	          "GRUB's entry and 80 appended: the note names ensembles once");
	CHECK_EQ_U64(ensembles, 3, "ensembles=3, the last");

	/* not repeated: no note */
	defaults();
	CHECK_EQ_U64(parse("samples=5 ensembles=6"), 0, "no key repeated: no problem");
	CHECK_EQ_U64(got.n, 0, "no key repeated: no note");
}

static void test_sets(void)
{
	defaults();
	methods = 1;
	CHECK_EQ_U64(parse("methods=all"), 0, "methods=all: valid");
	CHECK_EQ_U64(methods, 7, "methods=all: every bit");
	CHECK_EQ_U64(parse("methods=cpuid,cr0"), 0, "methods=cpuid,cr0: valid");
	CHECK_EQ_U64(methods, 5, "methods=cpuid,cr0: bits 0 and 2");
	CHECK_EQ_U64(parse("methods=rdtscp"), 0, "methods=rdtscp: valid");
	CHECK_EQ_U64(methods, 2, "methods=rdtscp: bit 1");
	CHECK_EQ_U64(parse("methods=cr0,cpuid,rdtscp"), 0, "methods in any order: valid");
	CHECK_EQ_U64(methods, 7, "methods in any order: every bit");
	CHECK_EQ_U64(parse("methods=cr0,cr0"), 0, "methods=cr0,cr0: valid");
	CHECK_EQ_U64(methods, 4, "methods=cr0,cr0: bit 2 once");
	CHECK_EQ_U64(got.n, 0, "valid sets: no message");

	static const char *const bad[] = {
		"methods=cpuid,bogus", "methods=bogus",  "methods=cpuid,",    "methods=,cpuid",
		"methods=cpuid,,cr0",  "methods=CPUID",  "methods=all,cpuid", "methods=cpu",
		"methods=",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		methods = 2;
		CHECK_EQ_U64(parse(bad[i]), 1, "%s: one problem", bad[i]);
		CHECK_EQ_U64(got.n, 1, "%s: one message", bad[i]);
		CHECK_EQ_U64(methods, 2, "%s: the previous value kept", bad[i]);
		CHECK(has(0, "methods"), "%s: the message names the key", bad[i]);
		CHECK(has(0, "cpuid rdtscp cr0"),
		      "%s: the message lists the accepted items", bad[i]);
		CHECK(has(0, "keeping"), "%s: the message gives the value kept", bad[i]);
	}
	methods = 2;
	parse("methods=cpuid,bogus");
	CHECK(has(0, "methods=cpuid,bogus"), "methods=cpuid,bogus: the message echoes the word");
	parse("methods=");
	CHECK(has(0, "empty value"), "methods=: empty value");
}

static void test_choices(void)
{
	defaults();
	CHECK_EQ_U64(parse("output=xml"), 1, "output=xml: one problem");
	CHECK_EQ_U64(got.n, 1, "output=xml: one message");
	CHECK(has(0, "output=xml"), "output=xml: the message echoes the word");
	CHECK(has(0, "human json both"), "output=xml: the message lists the choices");
	CHECK(has(0, "keeping both"), "output=xml: keeps both");
	CHECK_EQ_U64(output, 2, "output stays both");

	CHECK_EQ_U64(parse("output=json"), 0, "output=json: valid");
	CHECK_EQ_U64(parse("output=JSON"), 1, "output=JSON: choices are case-sensitive");
	CHECK(has(0, "keeping json"), "output=JSON: keeps json");
	CHECK_EQ_U64(output, 1, "output stays json");
	CHECK_EQ_U64(parse("output=jso"), 1, "output=jso: a prefix is not a choice");
	CHECK_EQ_U64(parse("output=jsonx"), 1, "output=jsonx: not a choice");
	CHECK_EQ_U64(parse("output="), 1, "output=: a problem");
	CHECK(has(0, "empty value"), "output=: empty value");
	CHECK(has(0, "keeping json"), "output=: keeps json");
	CHECK_EQ_U64(output, 1, "output still json");

	CHECK_EQ_U64(parse("test.fault=boom"), 1, "test.fault=boom: a problem");
	CHECK(has(0, "test.fault"), "test.fault=boom: the message names the key");
	CHECK(has(0, "none ud2 gp pf de"), "test.fault=boom: the message lists the choices");
	CHECK(has(0, "keeping none"), "test.fault=boom: keeps none");
	CHECK_EQ_U64(fault, 0, "test.fault stays none");
}

/* The numbers the over-long line messages give, for the limit built in. */
#define L CFG_MAX_LINE
#define TOTAL (L + 976)
static char lim_s[16], lim1_s[16], total_s[16];

static void test_long_line(void)
{
	static char line[TOTAL + 1];
	snprintf(lim_s, sizeof lim_s, "%d", L);
	snprintf(lim1_s, sizeof lim1_s, "%d", L + 1);
	snprintf(total_s, sizeof total_s, "%d", TOTAL);

	/* TOTAL characters: samples=5 near the start, ensembles=77 after L */
	memset(line, ' ', TOTAL);
	line[TOTAL] = '\0';
	memcpy(line, "samples=5", 9);
	memcpy(line + L + 476, "ensembles=77", 12);
	defaults();
	CHECK_EQ_U64(parse(line), 1, "line longer than the limit: one problem");
	CHECK_EQ_U64(got.n, 1, "line longer than the limit: one message");
	CHECK(has(0, lim_s), "over-long line: the message gives the limit");
	CHECK(has(0, total_s), "over-long line: the message gives the line's length");
	CHECK_EQ_U64(samples, 5, "samples=5 before the limit taken");
	CHECK_EQ_U64(ensembles, 100, "ensembles=77 after the limit not parsed");

	/* words after L are not parsed even when they are bad */
	memset(line, ' ', TOTAL);
	memcpy(line + L + 6, "bogus=1", 7);
	memcpy(line + L + 966, "samples=x", 9);
	defaults();
	CHECK_EQ_U64(parse(line), 1, "bad words after the limit: only the length a problem");
	CHECK_EQ_U64(got.n, 1, "bad words after the limit: one message");
	CHECK(has(0, lim_s), "bad words after the limit: the message gives the limit");
	CHECK(unchanged(), "bad words after the limit: nothing changed");

	/* exactly L characters is fine, L + 1 is not */
	memset(line, ' ', TOTAL);
	memcpy(line + L - 9, "samples=6", 9);
	line[L] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 0, "exactly the limit: no problem");
	CHECK_EQ_U64(got.n, 0, "exactly the limit: no message");
	CHECK_EQ_U64(samples, 6, "samples=6 ending at the limit taken");
	line[L] = ' ';
	line[L + 1] = '\0';
	CHECK_EQ_U64(parse(line), 1, "one character over the limit: a problem");
	CHECK(has(0, lim1_s), "one character over: the message gives the length");

	/* TOTAL characters in one word: the limit cuts it, so it is dropped:
	 * one message, naming the cut word (its first 40 characters) */
	memset(line, 'k', TOTAL);
	line[TOTAL] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1, "one word longer than the limit: one problem");
	CHECK(has(0, lim_s), "one word longer than the limit: the message gives the limit");
	CHECK(has(0, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...') is ignored"),
	      "the cut word: its first 40 characters and ...");
	CHECK(unchanged(), "the cut word: nothing changed");

	/* a key=value word cut by the limit is not read short */
	memset(line, ' ', TOTAL);
	memcpy(line + L - 10, "samples=1000000", 15);
	line[TOTAL] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1, "key=value cut by the limit: a problem");
	CHECK(has(0, "samples=10"), "key=value cut by the limit: the message echoes it");
	CHECK(unchanged(), "key=value cut by the limit: not read short");
}

static void test_long_words(void)
{
	static char line[1100];
	char forty[41];
	memset(forty, 'k', 40);
	forty[40] = '\0';

	/* a 600-character unknown key */
	memset(line, 'k', 600);
	strcpy(line + 600, "=1");
	defaults();
	CHECK_EQ_U64(parse(line), 1, "600-character unknown key: one problem");
	CHECK_EQ_U64(got.n, 1, "600-character unknown key: one message");
	CHECK(has(0, "unknown key"), "600-character unknown key: unknown key");
	CHECK(has(0, forty), "600-character unknown key: its first 40 characters echoed");
	CHECK(strstr(got.msg[0], "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk") == NULL,
	      "600-character unknown key: not 41");
	CHECK(has(0, "..."), "600-character unknown key: cut with ...");
	CHECK(unchanged(), "600-character unknown key: nothing changed");

	/* a 900-digit value */
	strcpy(line, "samples=");
	memset(line + 8, '1', 900);
	line[908] = '\0';
	CHECK_EQ_U64(parse(line), 1, "900-digit value: a problem");
	CHECK(has(0, "samples=1111111111111111111111111111111111111111..."),
	      "900-digit value: its first 40 digits and ...");
	CHECK(has(0, "keeping 10000"), "900-digit value: keeps 10000");
	CHECK(unchanged(), "900-digit value: nothing changed");

	/* a 900-character choice and set item */
	strcpy(line, "output=");
	memset(line + 7, 'x', 900);
	line[907] = '\0';
	CHECK_EQ_U64(parse(line), 1, "900-character choice: a problem");
	CHECK(has(0, "human json both"), "900-character choice: the choices listed");
	strcpy(line, "methods=cpuid,");
	memset(line + 14, 'y', 900);
	line[914] = '\0';
	CHECK_EQ_U64(parse(line), 1, "900-character set item: a problem");
	CHECK(has(0, "cpuid rdtscp cr0"), "900-character set item: the items listed");
	CHECK(unchanged(), "900-character words: nothing changed");

	/* a long word without '=' after the first */
	strcpy(line, "samples=2 ");
	memset(line + 10, 'w', 900);
	line[910] = '\0';
	CHECK_EQ_U64(parse(line), 1, "900-character word without '=': a problem");
	CHECK(has(0, "key=value"), "900-character word without '=': the message says key=value");
	CHECK_EQ_U64(samples, 2, "samples=2 before it taken");

	/* many problems in one line: one message each, every one naming its key */
	defaults();
	CHECK_EQ_U64(parse("samples=0 ensembles=x methods=foo output=xml test.fault=bad "
			   "dump=-1 nokey=1 samples=3"),
		     7, "one problem per bad word: 7");
	CHECK_EQ_U64(got.n, 8, "7 problems and the repeated-key note");
	static const char *const named[] = { "samples=0", "ensembles=x", "methods=foo",
					      "output=xml", "test.fault=bad", "dump=-1",
					      "'nokey'", "more than once (the last valid value is used): samples" };
	for (int i = 0; i < 8; i++)
		CHECK(has(i, named[i]), "message %d names %s", i, named[i]);
	CHECK_EQ_U64(samples, 3, "samples=3, the last valid");
}

/* CFG_TEXT: 1..max characters copied NUL-terminated; longer is rejected. */
static void test_text(void)
{
	static uint64_t store[4]; /* 32 bytes, holds max + 1 = 9 */
	char *text = (char *)store;
	const struct cfg_key tk[] = {
		{ .name = "console", .type = CFG_TEXT, .max = 8, .value = store },
	};
	strcpy(text, "serial");
	memset(text + 7, 'Z', sizeof store - 7);

	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console=vga", tk, 1, collect, &got), 0, "console=vga: valid");
	CHECK_EQ_U64(got.n, 0, "console=vga: no message");
	CHECK_STR(text, "vga", "console=vga copied");
	CHECK_EQ_U64(cfg_parse("console=12345678", tk, 1, collect, &got), 0,
	             "console= of exactly max characters: valid");
	CHECK_STR(text, "12345678", "max characters copied");
	CHECK(text[9] == 'Z', "nothing written beyond max + 1 bytes");
	CHECK_EQ_U64(cfg_parse("console=a=b,c", tk, 1, collect, &got), 0,
	             "text value with '=' and ',': valid");
	CHECK_STR(text, "a=b,c", "text value with '=' and ',' copied");

	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console=123456789", tk, 1, collect, &got), 1,
	             "console= longer than max: a problem");
	CHECK_STR(text, "a=b,c", "longer than max: the text kept");
	CHECK(has(0, "console=123456789"), "longer than max: the message echoes the word");
	CHECK(has(0, "8"), "longer than max: the message gives max");
	CHECK(has(0, "keeping \"a=b,c\""), "longer than max: the message quotes the text kept");
	CHECK(text[9] == 'Z', "longer than max: nothing written beyond max + 1 bytes");

	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console=", tk, 1, collect, &got), 1, "console=: a problem");
	CHECK(has(0, "empty value"), "console=: empty value");
	CHECK_STR(text, "a=b,c", "console=: the text kept");

	static char line[700];
	strcpy(line, "console=");
	memset(line + 8, 't', 600);
	line[608] = '\0';
	got.n = 0;
	CHECK_EQ_U64(cfg_parse(line, tk, 1, collect, &got), 1, "600-character text: a problem");
	CHECK(has(0, "tttttttttttttttttttttttttttttttttttttttt..."),
	      "600-character text: its first 40 characters and ...");
	CHECK_STR(text, "a=b,c", "600-character text: the text kept");
	CHECK(text[9] == 'Z', "600-character text: nothing written beyond max + 1 bytes");
}

/* Parse line as the kernel does: a copy of the loader's line, its true
 * length, whether the loader put the image's path first. */
static int parse_boot(const char *line, uint64_t length, int path_first)
{
	const struct cfg_line ln = { .text = line, .length = length, .path_first = path_first };
	got.n = 0;
	return cfg_parse_line(&ln, keys, NKEYS, 0, collect, &got);
}

/* QEMU -kernel writes "PATH APPEND": the first word is the path whatever it
 * looks like; GRUB 2 writes APPEND only (checked under QEMU: multiboot and
 * multiboot2 both give "samples=..." with no path). */
static void test_path_first(void)
{
	defaults();
	CHECK_EQ_U64(parse_boot("bench32.elf samples=5", 0, 1), 0,
	             "QEMU path without a slash first: skipped");
	CHECK_EQ_U64(got.n, 0, "QEMU path first: no message");
	CHECK_EQ_U64(samples, 5, "samples=5 after the QEMU path taken");
	CHECK_EQ_U64(parse_boot("build/bench32.elf ", 0, 1), 0,
	             "QEMU path and an empty -append: no problem");
	CHECK_EQ_U64(parse_boot("bench32.elf", 0, 1), 0, "QEMU path alone: no problem");
	CHECK_EQ_U64(parse_boot("a=b.elf samples=6", 0, 1), 0,
	             "QEMU path with '=': still the path");
	CHECK_EQ_U64(got.n, 0, "QEMU path with '=': no message");
	CHECK_EQ_U64(samples, 6, "samples=6 after it taken");
	CHECK_EQ_U64(parse_boot("  /x/y   samples=7", 0, 1), 0,
	             "QEMU absolute path after spaces: skipped");
	CHECK_EQ_U64(samples, 7, "samples=7 after it taken");
	/* only the first word */
	CHECK_EQ_U64(parse_boot("bench32.elf hello samples=8", 0, 1), 1,
	             "QEMU path then a word without '=': a problem");
	CHECK(has(0, "'hello' is not of the form key=value"),
	      "the word after the path is not key=value");
	CHECK_EQ_U64(samples, 8, "samples=8 after it taken");
	/* without path_first (GRUB): the first key=value word counts, and a
	 * word without '=' or '/' is a mistake */
	CHECK_EQ_U64(parse_boot("samples=9", 0, 0), 0, "GRUB: the first key=value counts");
	CHECK_EQ_U64(samples, 9, "GRUB: samples=9 taken");
	CHECK_EQ_U64(parse_boot("bench32.elf samples=10", 0, 0), 1,
	             "GRUB: a first word without '=' is a mistake");
	CHECK(has(0, "'bench32.elf'"), "GRUB: the message echoes the word");
	CHECK_EQ_U64(samples, 10, "GRUB: samples=10 after it taken");
	CHECK_EQ_U64(parse_boot("", 0, 1), 0, "QEMU, empty line: no problem");
	CHECK_EQ_U64(parse_boot(NULL, 0, 1), 0, "QEMU, no line: no problem");
}

/* The over-long line message gives the loader's length, not the copy's. */
static void test_true_length(void)
{
	static char line[CFG_MAX_LINE + 2];
	char want[128];
	memset(line, ' ', sizeof line);
	memcpy(line, "samples=5", 9);
	line[CFG_MAX_LINE + 1] = '\0'; /* the kernel's copy: L + 1 characters */
	defaults();
	CHECK_EQ_U64(parse_boot(line, L + 4000, 0), 1,
	             "loader's line longer than the copy: a problem");
	snprintf(want, sizeof want, "the command line has %d characters; only the first %d are read", L + 4000, L);
	CHECK(has(0, want), "over-long: the message gives the loader's length");
	CHECK(strstr(got.msg[0], lim1_s) == NULL, "over-long: not the copy's length");
	CHECK_EQ_U64(samples, 5, "samples=5 taken");
	/* a length not given (0) or shorter than the text: the text's */
	snprintf(want, sizeof want, "has %d characters", L + 1);
	CHECK_EQ_U64(parse_boot(line, 0, 0), 1, "no length given: a problem");
	CHECK(has(0, want), "no length given: the text's length");
	CHECK_EQ_U64(parse_boot(line, 3, 0), 1, "length shorter than the text: a problem");
	CHECK(has(0, want), "length shorter than the text: the text's length");
	/* counted up to CFG_LINE_COUNT_MAX only */
	CHECK_EQ_U64(parse_boot(line, CFG_LINE_COUNT_MAX, 0), 1,
	             "length at CFG_LINE_COUNT_MAX: a problem");
	CHECK(has(0, "has at least 1048576 characters"), "length at CFG_LINE_COUNT_MAX: at least");
	/* not over-long: the length plays no part */
	CHECK_EQ_U64(parse_boot("samples=6", 9, 0), 0, "short line with its length: no problem");
	CHECK_EQ_U64(got.n, 0, "short line with its length: no message");
}

static int printable(const char *m)
{
	for (; *m; m++)
		if (*m < 0x20 || *m > 0x7E)
			return 0;
	return 1;
}

/* User bytes in messages are escaped: each message is one printable line,
 * and a '"' cannot start a record's text. */
static void test_escaped_echo(void)
{
	defaults();
	CHECK_EQ_U64(parse("\x1b[2J=1 samples=\x1b[31m output=\xc3\xa9 w\x7f\x01rd "
			   "{\"rec\":\"end\"}=x"),
		     5, "five bad words with control and high bytes: five problems");
	CHECK_EQ_U64(got.n, 5, "five bad words: five messages");
	CHECK(has(0, "unknown key '\\x1b[2J'"), "ESC in a key escaped");
	CHECK(has(1, "config: samples=\\x1b[31m is not a number"), "ESC in a number escaped");
	CHECK(has(2, "config: output=\\xc3\\xa9 is not an accepted value"),
	      "UTF-8 in a choice escaped");
	CHECK(has(3, "'w\\x7f\\x01rd' is not of the form key=value"),
	      "DEL and control bytes in a word escaped");
	CHECK(has(4, "unknown key '{\\\"rec\\\":\\\"end\\\"}'"), "quotes in a key escaped");
	for (int i = 0; i < got.n && i < MAX_MSGS; i++)
		CHECK(printable(got.msg[i]), "message %d printable", i);
	CHECK(unchanged(), "bad words: nothing changed");
	/* a quote in a word is escaped, so no record can start in a message */
	CHECK_EQ_U64(parse("{\"rec\":\"end\",\"status\":\"complete\"}"), 1,
	             "a JSON record as a word: a problem");
	CHECK(has(0, "{\\\"rec\\\":\\\"end\\\""), "the record's quotes escaped");
	CHECK(strstr(got.msg[0], "{\"rec\"") == NULL, "no raw record start in the message");
	/* the word cut by the line limit, escaped too */
	static char line[L + 200];
	memset(line, ' ', sizeof line);
	memcpy(line + L - 4, "x\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 10);
	line[L + 76] = '\0';
	CHECK_EQ_U64(parse(line), 1, "ESCs in the word cut by the limit: a problem");
	CHECK(has(0, "('x\\x1b\\x1b\\x1b') is ignored"),
	      "the cut word's 4 bytes before the limit, escaped");
	CHECK(printable(got.msg[0]), "the cut word's message printable");
	/* the long value is cut after 40 characters of escapes, whole */
	strcpy(line, "samples=");
	memset(line + 8, '\x1b', 100);
	line[108] = '\0';
	CHECK_EQ_U64(parse(line), 1, "100 ESCs as a value: a problem");
	CHECK(has(0, "samples=\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b... is not a number"),
	      "the value cut after 40 characters of whole escapes");
}

/* CFG_CUSTOM: a value checked by its own function, one message on refusal
 * naming what is accepted and the value kept (console= in kernel/console.c). */
struct colour {
	int r;
};

static int parse_colour(const char *v, int len, void *object)
{
	struct colour *c = object;
	if (len == 3 && !memcmp(v, "red", 3))
		c->r = 255;
	else if (len == 4 && !memcmp(v, "dark", 4))
		c->r = 0;
	else
		return -1;
	return 0;
}

static void show_colour(char *buf, int size, const void *object)
{
	const struct colour *c = object;
	snprintf(buf, (size_t)size, "r=%d", c->r);
}

static struct colour colour;
static const struct cfg_key custom_keys[] = {
	{ .name = "colour", .type = CFG_CUSTOM, .parse = parse_colour, .show = show_colour,
	  .accepted = "red or dark", .object = &colour },
	{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &samples },
};

static int parse_custom(const char *line, int flags)
{
	const struct cfg_line ln = { .text = line };
	got.n = 0;
	return cfg_parse_line(&ln, custom_keys, 2, flags, collect, &got);
}

/* A key with a report of its own (console= in the kernel): its problems go
 * there, in order; every other message to the line's report; the count
 * returned is of both. */
static struct {
	int n;
	char msg[4][512];
} own;

static void own_collect(void *ctx, const char *msg)
{
	CHECK(ctx == &own, "the key's report gets the key's context");
	if (own.n < 4)
		snprintf(own.msg[own.n], sizeof own.msg[0], "%s", msg);
	own.n++;
}

static void test_own_report(void)
{
	static const struct cfg_key k2[] = {
		{ .name = "samples", .type = CFG_U64, .min = 1, .max = 100, .value = &samples },
		{ .name = "output", .type = CFG_CHOICE, .choices = output_words, .value = &output,
		  .report = own_collect, .report_ctx = &own },
	};
	got.n = own.n = 0;
	int n = cfg_parse("output=x samples=0 output= bogus output=json", k2, 2, collect, &got);
	CHECK_EQ_U64(n, 4, "two bad output= values, a bad samples= and a word: four problems");
	CHECK_EQ_U64(own.n, 2, "the key's own report: its two problems");
	CHECK(strstr(own.msg[0], "output=x is not an accepted value") != NULL,
	      "own report, first: output=x (%s)", own.msg[0]);
	CHECK(strstr(own.msg[1], "output= has an empty value") != NULL,
	      "own report, second: output= (%s)", own.msg[1]);
	CHECK_EQ_U64(got.n, 3, "the line's report: samples=0, the word and the repeat note");
	CHECK(strstr(got.msg[0], "samples=0 is out of range") != NULL, "line's report: samples=0 (%s)", got.msg[0]);
	CHECK(strstr(got.msg[2], "more than once") != NULL && strstr(got.msg[2], "output") != NULL,
	      "the repeat note names output, in the line's report (%s)", got.msg[2]);
	CHECK_EQ_U64(output, 1, "output=json, the last valid value, is taken");
}

static void test_custom(void)
{
	colour.r = 7;
	CHECK_EQ_U64(parse_custom("colour=red", 0), 0, "colour=red: valid");
	CHECK_EQ_U64(colour.r, 255, "colour=red parsed by its function");
	CHECK_EQ_U64(got.n, 0, "colour=red: no message");
	/* the last valid value: a bad one after a good one keeps the good one */
	CHECK_EQ_U64(parse_custom("colour=dark colour=blue", 0), 1,
	             "colour=dark then blue: one problem");
	CHECK_EQ_U64(colour.r, 0, "colour=blue refused: dark kept");
	CHECK_EQ_U64(got.n, 2, "colour=blue refused: the problem and the repeat note");
	CHECK_STR(got.msg[0], "config: colour=blue is not an accepted value; accepted: red or dark; keeping r=0",
	          "colour=blue: the message gives the accepted values and the kept value");
	CHECK(has(1, "more than once"), "colour given twice: noted");
	/* an empty or a long value: one line */
	CHECK_EQ_U64(parse_custom("colour=", 0), 1, "colour=: a problem");
	CHECK_EQ_U64(got.n, 1, "colour=: one message");
	CHECK_STR(got.msg[0], "config: colour= has an empty value; accepted: red or dark; keeping r=0",
	          "colour=: empty value, accepted values, the kept value");
	static char line[300];
	strcpy(line, "colour=");
	memset(line + 7, 'q', 200);
	line[207] = '\0';
	CHECK_EQ_U64(parse_custom(line, 0), 1, "200-character colour: a problem");
	CHECK_EQ_U64(got.n, 1, "200-character colour: one message");
	CHECK(has(0, "colour=qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq... is not an accepted value"),
	      "200-character colour: its first 40 characters and ...");

	/* CFG_ONLY_KEYS: a pass for these keys only; nothing else reported */
	colour.r = 7;
	samples = 10000;
	CHECK_EQ_U64(parse_custom("/boot/x bogus=1 hello colour=red colour=red samples=x", CFG_ONLY_KEYS), 1,
	             "CFG_ONLY_KEYS: only this table's bad value a problem");
	CHECK_EQ_U64(got.n, 1, "CFG_ONLY_KEYS: one message");
	CHECK(has(0, "samples=x is not a number"), "CFG_ONLY_KEYS: samples=x not a number");
	CHECK_EQ_U64(colour.r, 255, "CFG_ONLY_KEYS: colour=red taken");
	memset(line, ' ', sizeof line);
	line[299] = '\0';
	static char longl[L + 476];
	memset(longl, ' ', sizeof longl);
	memcpy(longl + L - 4, "colour=dark", 11); /* cut by the limit: dropped, silently */
	longl[L + 475] = '\0';
	CHECK_EQ_U64(parse_custom(longl, CFG_ONLY_KEYS), 0,
	             "CFG_ONLY_KEYS: a key cut by the limit dropped silently");
	CHECK_EQ_U64(got.n, 0, "CFG_ONLY_KEYS, over-long line: no message");
	CHECK_EQ_U64(colour.r, 255, "CFG_ONLY_KEYS: the cut colour=dark not taken");
}

/* CFG_ELSEWHERE: taken silently whatever its value (another pass checks
 * it), but listed when repeated. */
static void test_elsewhere(void)
{
	const struct cfg_key ek[] = {
		{ .name = "console", .type = CFG_ELSEWHERE },
		{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10000000, .value = &samples },
	};
	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console= console=\x1b console=ttyS9 samples=3", ek, 2, collect, &got), 0,
	             "CFG_ELSEWHERE: any value taken silently");
	CHECK_EQ_U64(got.n, 1, "CFG_ELSEWHERE repeated: one note");
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): console",
	          "CFG_ELSEWHERE repeated: the note names it");
	CHECK_EQ_U64(samples, 3, "samples=3 beside it taken");
}

static void test_parse_u64(void)
{
	static const struct {
		const char *s;
		int ok;
		uint64_t v;
	} cases[] = {
		{ "0", 1, 0 },
		{ "7", 1, 7 },
		{ "123456789", 1, 123456789 },
		{ "007", 1, 7 },
		{ "18446744073709551615", 1, UINT64_MAX },
		{ "18446744073709551616", 0, 0 }, /* 2^64: -2 */
		{ "99999999999999999999", 0, 0 }, /* -2 */
		{ "184467440737095516150", 0, 0 },
		{ "0x0", 1, 0 },
		{ "0x10", 1, 16 },
		{ "0XaBcDeF", 1, 0xabcdef },
		{ "0xffffffffffffffff", 1, UINT64_MAX },
		{ "0x0000000000000000ffffffffffffffff", 1, UINT64_MAX },
		{ "0x10000000000000000", 0, 0 },
		{ "", 0, 0 },
		{ "0x", 0, 0 },
		{ "x10", 0, 0 },
		{ "0xg", 0, 0 },
		{ "1f", 0, 0 },
		{ "-1", 0, 0 },
		{ "+1", 0, 0 },
		{ " 1", 0, 0 },
		{ "1 ", 0, 0 },
		{ "1,2", 0, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t v = 0xabababab;
		int r = cfg_parse_u64(cases[i].s, (int)strlen(cases[i].s), &v);
		CHECK((r == 0) == cases[i].ok,
		      "cfg_parse_u64(\"%s\") accepted or refused (returned %d)", cases[i].s, r);
		CHECK(r == 0 || r == -1 || r == -2,
		      "cfg_parse_u64(\"%s\") returns 0, -1 or -2", cases[i].s);
		if (cases[i].ok)
			CHECK_EQ_U64(v, cases[i].v, "cfg_parse_u64(\"%s\")'s value", cases[i].s);
	}
	/* only len characters are read */
	uint64_t v = 0;
	CHECK(cfg_parse_u64("12345", 3, &v) == 0, "only 3 of \"12345\" read: valid");
	CHECK_EQ_U64(v, 123, "only 3 of \"12345\" read: 123");
	CHECK(cfg_parse_u64("0x1fz", 4, &v) == 0, "only 4 of \"0x1fz\" read: valid");
	CHECK_EQ_U64(v, 31, "only 4 of \"0x1fz\" read: 31");
	CHECK(cfg_parse_u64("5", 0, &v) == -1, "no characters: refused");
	CHECK(cfg_parse_u64("0x5", 2, &v) == -1, "\"0x\" alone: refused");

	/* every decimal value printed back parses to itself */
	uint64_t x = 0x123456789abcdefull;
	for (int i = 0; i < 1000; i++) {
		char buf[32];
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t want = x >> (i % 64);
		int n = snprintf(buf, sizeof buf, i & 1 ? "%llu" : "0x%llx", (unsigned long long)want);
		CHECK(cfg_parse_u64(buf, n, &v) == 0 && v == want,
		      "\"%s\" parses back to itself", buf);
	}
}

/* Did you mean: a mistyped key, choice, set item or "off" is answered
 * with the nearest known word; nothing unrelated is suggested; an internal
 * key is read but neither listed nor suggested. */
static void test_did_you_mean(void)
{
	defaults();
	CHECK_EQ_U64(parse("ensemble=5 sampels=9"), 2, "two mistyped keys: two problems");
	CHECK(has(0, "config: unknown key 'ensemble' (did you mean ensembles?); known keys:"),
	      "ensemble: did you mean ensembles");
	CHECK(has(1, "unknown key 'sampels' (did you mean samples?)"), "sampels: did you mean samples");
	CHECK(unchanged(), "mistyped keys: nothing changed");
	parse("colour=red");
	CHECK(!strstr(got.msg[0], "did you mean"), "colour: nothing near, no suggestion: %s", got.msg[0]);

	CHECK_EQ_U64(parse("output=jsno"), 1, "output=jsno: a problem");
	CHECK(has(0, "config: output=jsno is not an accepted value (did you mean json?); accepted: "),
	      "output=jsno: did you mean json");
	parse("output=xml");
	CHECK(!strstr(got.msg[0], "did you mean"), "output=xml: no suggestion: %s", got.msg[0]);

	CHECK_EQ_U64(parse("methods=cpuid,rdtsc,cr"), 1, "methods=cpuid,rdtsc,cr: one problem");
	CHECK(has(0, "config: methods=cpuid,rdtsc,cr names an unknown item (rdtsc: did you mean rdtscp?); "),
	      "methods: the first unknown item's suggestion");
	CHECK_EQ_U64(methods, 7, "methods: kept");
	parse("methods=bogus");
	CHECK(!strstr(got.msg[0], "did you mean"), "methods=bogus: no suggestion: %s", got.msg[0]);

	CHECK_EQ_U64(parse("dump=of"), 1, "dump=of: a problem");
	CHECK(has(0, "config: dump=of is not a number (did you mean off?); "), "dump=of: did you mean off");
	parse("samples=of");
	CHECK(!strstr(got.msg[0], "did you mean"), "samples=of: no off without allow_off: %s", got.msg[0]);

	static uint64_t secret;
	static const struct cfg_key hidden[] = {
		{ .name = "samples", .type = CFG_U64, .min = 1, .max = 10, .value = &samples },
		{ .name = "test.secret", .type = CFG_U64, .min = 0, .max = 9, .value = &secret, .internal = 1 },
	};
	got.n = 0;
	CHECK_EQ_U64(cfg_parse("test.secret=4", hidden, 2, collect, &got), 0, "an internal key is read");
	CHECK_EQ_U64(secret, 4, "test.secret=4 taken");
	got.n = 0;
	CHECK_EQ_U64(cfg_parse("test.secrets=4 bogus=1", hidden, 2, collect, &got), 2, "two unknown keys");
	CHECK(!strstr(got.msg[0], "did you mean"), "test.secrets: the internal key not suggested: %s", got.msg[0]);
	CHECK(strstr(got.msg[1], "known keys: samples; ignored") != NULL,
	      "known keys: the internal one not listed: %s", got.msg[1]);
}

int main(void)
{
	test_valid();
	test_empty_and_spaces();
	test_image_path();
	test_unknown_key();
	test_bad_numbers();
	test_duplicates();
	test_sets();
	test_choices();
	test_long_line();
	test_long_words();
	test_text();
	test_path_first();
	test_true_length();
	test_escaped_echo();
	test_custom();
	test_elsewhere();
	test_own_report();
	test_parse_u64();
	test_did_you_mean();
	return check_summary("test_cmdline");
}

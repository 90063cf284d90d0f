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
	CHECK(ctx == &got);
	CHECK(strlen(msg) < 320); /* one line of bounded size */
	CHECK(strchr(msg, '\n') == NULL);
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
		     0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 500);
	CHECK_EQ_U64(ensembles, 20);
	CHECK_EQ_U64(methods, 3);
	CHECK_EQ_U64(output, 1);
	CHECK_EQ_U64(fault, 2);
	CHECK_EQ_U64(dump, 3);

	/* range limits are inclusive */
	defaults();
	CHECK_EQ_U64(parse("samples=1 ensembles=1000000 dump=0"), 0);
	CHECK_EQ_U64(samples, 1);
	CHECK_EQ_U64(ensembles, 1000000);
	CHECK_EQ_U64(dump, 0);
	CHECK_EQ_U64(parse("samples=10000000 dump=999999"), 0);
	CHECK_EQ_U64(samples, 10000000);
	CHECK_EQ_U64(dump, 999999);
	CHECK_EQ_U64(parse("dump=off"), 0);
	CHECK_EQ_U64(dump, CFG_OFF);

	/* every choice by its index */
	for (uint64_t i = 0; fault_words[i]; i++) {
		char line[64];
		snprintf(line, sizeof line, "test.fault=%s", fault_words[i]);
		CHECK_EQ_U64(parse(line), 0);
		CHECK_EQ_U64(fault, i);
	}

	/* no report function: problems are still counted */
	defaults();
	CHECK_EQ_U64(cfg_parse("samples=x bogus=1 ensembles=7", keys, NKEYS, NULL, NULL), 2);
	CHECK_EQ_U64(ensembles, 7);
	CHECK_EQ_U64(samples, 10000);
}

static void test_empty_and_spaces(void)
{
	defaults();
	CHECK_EQ_U64(parse(NULL), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(parse(""), 0);
	CHECK_EQ_U64(parse("    "), 0);
	CHECK_EQ_U64(parse(" \t \t\r\n "), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK(unchanged());

	CHECK_EQ_U64(parse("   samples=7\t\tensembles=9   "), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 7);
	CHECK_EQ_U64(ensembles, 9);
	CHECK_EQ_U64(parse("\tsamples=8\n"), 0);
	CHECK_EQ_U64(samples, 8);
	CHECK_EQ_U64(parse("output=json     methods=cr0"), 0);
	CHECK_EQ_U64(output, 1);
	CHECK_EQ_U64(methods, 4);
}

static void test_image_path(void)
{
	defaults();
	CHECK_EQ_U64(parse("/boot/bench32.elf samples=5"), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 5);
	CHECK_EQ_U64(parse("  build/bench32.elf"), 0); /* leading space, relative */
	CHECK_EQ_U64(got.n, 0);

	/* only the first word may be a path */
	CHECK_EQ_U64(parse("samples=6 /boot/x"), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "/boot/x"));
	CHECK(has(0, "key=value"));
	CHECK_EQ_U64(samples, 6);
	CHECK_EQ_U64(parse("/a/b /c/d"), 1);
	CHECK(has(0, "/c/d"));

	/* a first word without '/' and without '=' is a mistake */
	CHECK_EQ_U64(parse("hello samples=9"), 1);
	CHECK(has(0, "hello"));
	CHECK_EQ_U64(samples, 9);
	/* a first word with '/' and '=' is a key=value word */
	CHECK_EQ_U64(parse("a/b=1"), 1);
	CHECK(has(0, "unknown key"));
	CHECK(has(0, "a/b"));
}

static void test_unknown_key(void)
{
	defaults();
	CHECK_EQ_U64(parse("colour=red"), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "unknown key"));
	CHECK(has(0, "colour"));
	for (int k = 0; k < NKEYS; k++)
		CHECK(has(0, keys[k].name));
	CHECK(unchanged());

	/* the other words still count */
	CHECK_EQ_U64(parse("colour=red samples=3"), 1);
	CHECK_EQ_U64(samples, 3);

	/* keys are matched whole and case-sensitively */
	defaults();
	CHECK_EQ_U64(parse("sample=3 samplesx=3 Samples=3 test=ud2"), 4);
	CHECK(has(0, "'sample'"));
	CHECK(has(1, "'samplesx'"));
	CHECK(has(2, "'Samples'"));
	CHECK(has(3, "'test'"));
	CHECK(unchanged());

	/* empty key */
	CHECK_EQ_U64(parse("=5"), 1);
	CHECK(has(0, "unknown key ''"));
	CHECK(unchanged());
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
		CHECK_EQ_U64(parse(bad[i].line), 1);
		CHECK_EQ_U64(got.n, 1);
		CHECK(has(0, "samples"));
		CHECK(has(0, bad[i].why));
		CHECK(has(0, "1..10000000"));
		CHECK(has(0, "keeping 10000"));
		CHECK(unchanged());
	}

	/* hex */
	defaults();
	CHECK_EQ_U64(parse("samples=0x10"), 0);
	CHECK_EQ_U64(samples, 16);
	CHECK_EQ_U64(parse("samples=0X1f"), 0);
	CHECK_EQ_U64(samples, 31);
	CHECK_EQ_U64(parse("samples=0x989680"), 0);
	CHECK_EQ_U64(samples, 10000000);
	/* leading zeros are decimal */
	CHECK_EQ_U64(parse("samples=0010"), 0);
	CHECK_EQ_U64(samples, 10);

	/* what is kept is the current value, not the default */
	CHECK_EQ_U64(parse("samples=42"), 0);
	CHECK_EQ_U64(parse("samples=0"), 1);
	CHECK(has(0, "keeping 42"));
	CHECK_EQ_U64(samples, 42);

	/* a key with "off" */
	defaults();
	CHECK_EQ_U64(parse("dump=1000000"), 1);
	CHECK(has(0, "dump"));
	CHECK(has(0, "0..999999 or off"));
	CHECK(has(0, "keeping off"));
	CHECK_EQ_U64(dump, CFG_OFF);
	CHECK_EQ_U64(parse("dump=5 dump=of"), 1);
	CHECK(has(0, "keeping 5"));
	CHECK(has(1, "more than once"));
	CHECK_EQ_U64(dump, 5);
}

/* A key given again overrides the earlier value: normal use (GRUB's editor
 * appends words), not a problem; one line at the end lists the keys. */
static void test_duplicates(void)
{
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=6"), 0);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "config: given more than once (the last valid value is used): samples"));
	CHECK_EQ_U64(samples, 6);

	/* the last *valid* value is used; the bad one is the only problem */
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=abc"), 1);
	CHECK_EQ_U64(got.n, 2);
	CHECK_EQ_U64(samples, 5);
	CHECK(has(0, "not a number"));
	CHECK(has(0, "keeping 5"));
	CHECK(has(1, "more than once"));

	/* one note for every repeated key, in table order, each named once */
	defaults();
	CHECK_EQ_U64(parse("output=json samples=1 output=human samples=2 output=both ensembles=4"), 0);
	CHECK_EQ_U64(got.n, 1);
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): samples, output");
	CHECK_EQ_U64(output, 2);
	CHECK_EQ_U64(samples, 2);
	CHECK_EQ_U64(ensembles, 4);

	/* GRUB's entry ensembles=100, then ensembles=3 appended, 80 times over:
	 * still one line and no problem (the fuzzer's 415 repeats printed 81) */
	static char line[1100];
	strcpy(line, "ensembles=100");
	for (int i = 0; i < 80; i++)
		strcat(line, " ensembles=3");
	CHECK(strlen(line) <= CFG_MAX_LINE);
	defaults();
	CHECK_EQ_U64(parse(line), 0);
	CHECK_EQ_U64(got.n, 1);
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): ensembles");
	CHECK_EQ_U64(ensembles, 3);

	/* not repeated: no note */
	defaults();
	CHECK_EQ_U64(parse("samples=5 ensembles=6"), 0);
	CHECK_EQ_U64(got.n, 0);
}

static void test_sets(void)
{
	defaults();
	methods = 1;
	CHECK_EQ_U64(parse("methods=all"), 0);
	CHECK_EQ_U64(methods, 7);
	CHECK_EQ_U64(parse("methods=cpuid,cr0"), 0);
	CHECK_EQ_U64(methods, 5); /* 0b101 */
	CHECK_EQ_U64(parse("methods=rdtscp"), 0);
	CHECK_EQ_U64(methods, 2);
	CHECK_EQ_U64(parse("methods=cr0,cpuid,rdtscp"), 0);
	CHECK_EQ_U64(methods, 7);
	CHECK_EQ_U64(parse("methods=cr0,cr0"), 0);
	CHECK_EQ_U64(methods, 4);
	CHECK_EQ_U64(got.n, 0);

	static const char *const bad[] = {
		"methods=cpuid,bogus", "methods=bogus",  "methods=cpuid,",    "methods=,cpuid",
		"methods=cpuid,,cr0",  "methods=CPUID",  "methods=all,cpuid", "methods=cpu",
		"methods=",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		methods = 2;
		CHECK_EQ_U64(parse(bad[i]), 1);
		CHECK_EQ_U64(got.n, 1);
		CHECK_EQ_U64(methods, 2); /* previous value kept */
		CHECK(has(0, "methods"));
		CHECK(has(0, "cpuid rdtscp cr0"));
		CHECK(has(0, "keeping"));
	}
	methods = 2;
	parse("methods=cpuid,bogus");
	CHECK(has(0, "methods=cpuid,bogus"));
	parse("methods=");
	CHECK(has(0, "empty value"));
}

static void test_choices(void)
{
	defaults();
	CHECK_EQ_U64(parse("output=xml"), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "output=xml"));
	CHECK(has(0, "human json both"));
	CHECK(has(0, "keeping both"));
	CHECK_EQ_U64(output, 2);

	CHECK_EQ_U64(parse("output=json"), 0);
	CHECK_EQ_U64(parse("output=JSON"), 1);
	CHECK(has(0, "keeping json"));
	CHECK_EQ_U64(output, 1);
	CHECK_EQ_U64(parse("output=jso"), 1);
	CHECK_EQ_U64(parse("output=jsonx"), 1);
	CHECK_EQ_U64(parse("output="), 1);
	CHECK(has(0, "empty value"));
	CHECK(has(0, "keeping json"));
	CHECK_EQ_U64(output, 1);

	CHECK_EQ_U64(parse("test.fault=boom"), 1);
	CHECK(has(0, "test.fault"));
	CHECK(has(0, "none ud2 gp pf de"));
	CHECK(has(0, "keeping none"));
	CHECK_EQ_U64(fault, 0);
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
	CHECK_EQ_U64(parse(line), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, lim_s));
	CHECK(has(0, total_s));
	CHECK_EQ_U64(samples, 5);
	CHECK_EQ_U64(ensembles, 100); /* not parsed */

	/* words after L are not parsed even when they are bad */
	memset(line, ' ', TOTAL);
	memcpy(line + L + 6, "bogus=1", 7);
	memcpy(line + L + 966, "samples=x", 9);
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, lim_s));
	CHECK(unchanged());

	/* exactly L characters is fine, L + 1 is not */
	memset(line, ' ', TOTAL);
	memcpy(line + L - 9, "samples=6", 9);
	line[L] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 6);
	line[L] = ' ';
	line[L + 1] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, lim1_s));

	/* TOTAL characters in one word: the limit cuts it, so it is dropped:
	 * one message, naming the cut word (its first 40 characters) */
	memset(line, 'k', TOTAL);
	line[TOTAL] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, lim_s));
	CHECK(has(0, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...') is ignored")); /* 40 + "..." */
	CHECK(unchanged());

	/* a key=value word cut by the limit is not read short */
	memset(line, ' ', TOTAL);
	memcpy(line + L - 10, "samples=1000000", 15);
	line[TOTAL] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "samples=10"));
	CHECK(unchanged());
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
	CHECK_EQ_U64(parse(line), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "unknown key"));
	CHECK(has(0, forty));
	CHECK(strstr(got.msg[0], "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk") == NULL); /* 41 */
	CHECK(has(0, "..."));
	CHECK(unchanged());

	/* a 900-digit value */
	strcpy(line, "samples=");
	memset(line + 8, '1', 900);
	line[908] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "samples=1111111111111111111111111111111111111111..."));
	CHECK(has(0, "keeping 10000"));
	CHECK(unchanged());

	/* a 900-character choice and set item */
	strcpy(line, "output=");
	memset(line + 7, 'x', 900);
	line[907] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "human json both"));
	strcpy(line, "methods=cpuid,");
	memset(line + 14, 'y', 900);
	line[914] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "cpuid rdtscp cr0"));
	CHECK(unchanged());

	/* a long word without '=' after the first */
	strcpy(line, "samples=2 ");
	memset(line + 10, 'w', 900);
	line[910] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "key=value"));
	CHECK_EQ_U64(samples, 2);

	/* many problems in one line: one message each, every one naming its key */
	defaults();
	CHECK_EQ_U64(parse("samples=0 ensembles=x methods=foo output=xml test.fault=bad "
			   "dump=-1 nokey=1 samples=3"),
		     7);
	CHECK_EQ_U64(got.n, 8);
	static const char *const named[] = { "samples=0", "ensembles=x", "methods=foo",
					      "output=xml", "test.fault=bad", "dump=-1",
					      "'nokey'", "more than once (the last valid value is used): samples" };
	for (int i = 0; i < 8; i++)
		CHECK(has(i, named[i]));
	CHECK_EQ_U64(samples, 3);
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
	CHECK_EQ_U64(cfg_parse("console=vga", tk, 1, collect, &got), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_STR(text, "vga");
	CHECK_EQ_U64(cfg_parse("console=12345678", tk, 1, collect, &got), 0); /* exactly max */
	CHECK_STR(text, "12345678");
	CHECK(text[9] == 'Z'); /* nothing beyond max + 1 bytes */
	CHECK_EQ_U64(cfg_parse("console=a=b,c", tk, 1, collect, &got), 0);
	CHECK_STR(text, "a=b,c");

	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console=123456789", tk, 1, collect, &got), 1);
	CHECK_STR(text, "a=b,c");
	CHECK(has(0, "console=123456789"));
	CHECK(has(0, "8"));
	CHECK(has(0, "keeping \"a=b,c\""));
	CHECK(text[9] == 'Z');

	got.n = 0;
	CHECK_EQ_U64(cfg_parse("console=", tk, 1, collect, &got), 1);
	CHECK(has(0, "empty value"));
	CHECK_STR(text, "a=b,c");

	static char line[700];
	strcpy(line, "console=");
	memset(line + 8, 't', 600);
	line[608] = '\0';
	got.n = 0;
	CHECK_EQ_U64(cfg_parse(line, tk, 1, collect, &got), 1);
	CHECK(has(0, "tttttttttttttttttttttttttttttttttttttttt..."));
	CHECK_STR(text, "a=b,c");
	CHECK(text[9] == 'Z');
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
	CHECK_EQ_U64(parse_boot("bench32.elf samples=5", 0, 1), 0); /* no slash */
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 5);
	CHECK_EQ_U64(parse_boot("build/bench32.elf ", 0, 1), 0);   /* empty -append */
	CHECK_EQ_U64(parse_boot("bench32.elf", 0, 1), 0);
	CHECK_EQ_U64(parse_boot("a=b.elf samples=6", 0, 1), 0);    /* even with '=' */
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 6);
	CHECK_EQ_U64(parse_boot("  /x/y   samples=7", 0, 1), 0);
	CHECK_EQ_U64(samples, 7);
	/* only the first word */
	CHECK_EQ_U64(parse_boot("bench32.elf hello samples=8", 0, 1), 1);
	CHECK(has(0, "'hello' is not of the form key=value"));
	CHECK_EQ_U64(samples, 8);
	/* without path_first (GRUB): the first key=value word counts, and a
	 * word without '=' or '/' is a mistake */
	CHECK_EQ_U64(parse_boot("samples=9", 0, 0), 0);
	CHECK_EQ_U64(samples, 9);
	CHECK_EQ_U64(parse_boot("bench32.elf samples=10", 0, 0), 1);
	CHECK(has(0, "'bench32.elf'"));
	CHECK_EQ_U64(samples, 10);
	CHECK_EQ_U64(parse_boot("", 0, 1), 0);
	CHECK_EQ_U64(parse_boot(NULL, 0, 1), 0);
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
	CHECK_EQ_U64(parse_boot(line, L + 4000, 0), 1);
	snprintf(want, sizeof want, "the command line has %d characters; only the first %d are read", L + 4000, L);
	CHECK(has(0, want));
	CHECK(strstr(got.msg[0], lim1_s) == NULL);
	CHECK_EQ_U64(samples, 5);
	/* a length not given (0) or shorter than the text: the text's */
	snprintf(want, sizeof want, "has %d characters", L + 1);
	CHECK_EQ_U64(parse_boot(line, 0, 0), 1);
	CHECK(has(0, want));
	CHECK_EQ_U64(parse_boot(line, 3, 0), 1);
	CHECK(has(0, want));
	/* counted up to CFG_LINE_COUNT_MAX only */
	CHECK_EQ_U64(parse_boot(line, CFG_LINE_COUNT_MAX, 0), 1);
	CHECK(has(0, "has at least 1048576 characters"));
	/* not over-long: the length plays no part */
	CHECK_EQ_U64(parse_boot("samples=6", 9, 0), 0);
	CHECK_EQ_U64(got.n, 0);
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
		     5);
	CHECK_EQ_U64(got.n, 5);
	CHECK(has(0, "unknown key '\\x1b[2J'"));
	CHECK(has(1, "config: samples=\\x1b[31m is not a number"));
	CHECK(has(2, "config: output=\\xc3\\xa9 is not an accepted value"));
	CHECK(has(3, "'w\\x7f\\x01rd' is not of the form key=value"));
	CHECK(has(4, "unknown key '{\\\"rec\\\":\\\"end\\\"}'"));
	for (int i = 0; i < got.n && i < MAX_MSGS; i++)
		CHECK(printable(got.msg[i]));
	CHECK(unchanged());
	/* a quote in a word is escaped, so no record can start in a message */
	CHECK_EQ_U64(parse("{\"rec\":\"end\",\"status\":\"complete\"}"), 1);
	CHECK(has(0, "{\\\"rec\\\":\\\"end\\\""));
	CHECK(strstr(got.msg[0], "{\"rec\"") == NULL);
	/* the word cut by the line limit, escaped too */
	static char line[L + 200];
	memset(line, ' ', sizeof line);
	memcpy(line + L - 4, "x\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 10);
	line[L + 76] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "('x\\x1b\\x1b\\x1b') is ignored")); /* 4 bytes before the limit */
	CHECK(printable(got.msg[0]));
	/* the long value is cut after 40 characters of escapes, whole */
	strcpy(line, "samples=");
	memset(line + 8, '\x1b', 100);
	line[108] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "samples=\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b... is not a number"));
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

static void test_custom(void)
{
	colour.r = 7;
	CHECK_EQ_U64(parse_custom("colour=red", 0), 0);
	CHECK_EQ_U64(colour.r, 255);
	CHECK_EQ_U64(got.n, 0);
	/* the last valid value: a bad one after a good one keeps the good one */
	CHECK_EQ_U64(parse_custom("colour=dark colour=blue", 0), 1);
	CHECK_EQ_U64(colour.r, 0);
	CHECK_EQ_U64(got.n, 2);
	CHECK_STR(got.msg[0], "config: colour=blue is not an accepted value; accepted: red or dark; keeping r=0");
	CHECK(has(1, "more than once"));
	/* an empty or a long value: one line */
	CHECK_EQ_U64(parse_custom("colour=", 0), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK_STR(got.msg[0], "config: colour= has an empty value; accepted: red or dark; keeping r=0");
	static char line[300];
	strcpy(line, "colour=");
	memset(line + 7, 'q', 200);
	line[207] = '\0';
	CHECK_EQ_U64(parse_custom(line, 0), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "colour=qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq... is not an accepted value"));

	/* CFG_ONLY_KEYS: a pass for these keys only; nothing else reported */
	colour.r = 7;
	samples = 10000;
	CHECK_EQ_U64(parse_custom("/boot/x bogus=1 hello colour=red colour=red samples=x", CFG_ONLY_KEYS), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "samples=x is not a number"));
	CHECK_EQ_U64(colour.r, 255);
	memset(line, ' ', sizeof line);
	line[299] = '\0';
	static char longl[L + 476];
	memset(longl, ' ', sizeof longl);
	memcpy(longl + L - 4, "colour=dark", 11); /* cut by the limit: dropped, silently */
	longl[L + 475] = '\0';
	CHECK_EQ_U64(parse_custom(longl, CFG_ONLY_KEYS), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(colour.r, 255);
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
	CHECK_EQ_U64(cfg_parse("console= console=\x1b console=ttyS9 samples=3", ek, 2, collect, &got), 0);
	CHECK_EQ_U64(got.n, 1);
	CHECK_STR(got.msg[0], "config: given more than once (the last valid value is used): console");
	CHECK_EQ_U64(samples, 3);
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
		if ((r == 0) != cases[i].ok)
			printf("  cfg_parse_u64(\"%s\") returned %d\n", cases[i].s, r);
		CHECK((r == 0) == cases[i].ok);
		CHECK(r == 0 || r == -1 || r == -2);
		if (cases[i].ok)
			CHECK_EQ_U64(v, cases[i].v);
	}
	/* only len characters are read */
	uint64_t v = 0;
	CHECK(cfg_parse_u64("12345", 3, &v) == 0);
	CHECK_EQ_U64(v, 123);
	CHECK(cfg_parse_u64("0x1fz", 4, &v) == 0);
	CHECK_EQ_U64(v, 31);
	CHECK(cfg_parse_u64("5", 0, &v) == -1);
	CHECK(cfg_parse_u64("0x5", 2, &v) == -1); /* "0x" */

	/* every decimal value printed back parses to itself */
	uint64_t x = 0x123456789abcdefull;
	for (int i = 0; i < 1000; i++) {
		char buf[32];
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t want = x >> (i % 64);
		int n = snprintf(buf, sizeof buf, i & 1 ? "%llu" : "0x%llx", (unsigned long long)want);
		CHECK(cfg_parse_u64(buf, n, &v) == 0 && v == want);
	}
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
	test_parse_u64();
	return check_summary("test_cmdline");
}

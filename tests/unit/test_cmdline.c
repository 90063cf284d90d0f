/* tests/unit/test_cmdline.c - lib/cmdline.c with a key table like the
 * kernel's: valid lines, whitespace, the image path loaders prepend, unknown
 * keys, every kind of bad number, hex, empty values, duplicates, sets
 * ("all", lists, unknown items), choices, "off", text values, an over-long
 * line, over-long words (ASan checks the message buffers), the content of
 * every message, and cfg_parse_u64 on its own. */
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
	CHECK_EQ_U64(parse("dump=5 dump=of"), 2);
	CHECK(has(0, "more than once"));
	CHECK(has(1, "keeping 5"));
	CHECK_EQ_U64(dump, 5);
}

static void test_duplicates(void)
{
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=6"), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "samples"));
	CHECK(has(0, "more than once"));
	CHECK_EQ_U64(samples, 6);

	/* the last *valid* value is used */
	defaults();
	CHECK_EQ_U64(parse("samples=5 samples=abc"), 2);
	CHECK_EQ_U64(samples, 5);
	CHECK(has(0, "more than once"));
	CHECK(has(1, "not a number"));
	CHECK(has(1, "keeping 5"));

	/* reported once per repetition, and only for the repeated key */
	defaults();
	CHECK_EQ_U64(parse("output=json samples=1 output=human samples=2 output=both"), 3);
	CHECK(has(0, "'output'"));
	CHECK(has(1, "'samples'"));
	CHECK(has(2, "'output'"));
	CHECK_EQ_U64(output, 2);
	CHECK_EQ_U64(samples, 2);
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

static void test_long_line(void)
{
	static char line[2001];

	/* 2000 characters: samples=5 near the start, ensembles=77 after 1024 */
	memset(line, ' ', 2000);
	line[2000] = '\0';
	memcpy(line, "samples=5", 9);
	memcpy(line + 1500, "ensembles=77", 12);
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "1024"));
	CHECK(has(0, "2000"));
	CHECK_EQ_U64(samples, 5);
	CHECK_EQ_U64(ensembles, 100); /* not parsed */

	/* words after 1024 are not parsed even when they are bad */
	memset(line, ' ', 2000);
	memcpy(line + 1030, "bogus=1", 7);
	memcpy(line + 1990, "samples=x", 9);
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK_EQ_U64(got.n, 1);
	CHECK(has(0, "1024"));
	CHECK(unchanged());

	/* exactly 1024 characters is fine, 1025 is not */
	memset(line, ' ', 2000);
	memcpy(line + 1024 - 9, "samples=6", 9);
	line[1024] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 0);
	CHECK_EQ_U64(got.n, 0);
	CHECK_EQ_U64(samples, 6);
	line[1024] = ' ';
	line[1025] = '\0';
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "1025"));

	/* 2000 characters in one word: the limit cuts it, so it is dropped:
	 * one message, naming the cut word (its first 40 characters) */
	memset(line, 'k', 2000);
	line[2000] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "1024"));
	CHECK(has(0, "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...') is ignored")); /* 40 + "..." */
	CHECK(unchanged());

	/* a key=value word cut by the limit is not read short */
	memset(line, ' ', 2000);
	memcpy(line + 1014, "samples=1000000", 15);
	line[2000] = '\0';
	defaults();
	CHECK_EQ_U64(parse(line), 1);
	CHECK(has(0, "samples=10"));
	CHECK(unchanged());
}

/* Words and values longer than a message can quote are cut, never
 * overflowing (ASan checks cmdline.c's message buffers). */
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
		     8);
	CHECK_EQ_U64(got.n, 8);
	static const char *const named[] = { "samples=0", "ensembles=x", "methods=foo",
					      "output=xml", "test.fault=bad", "dump=-1",
					      "'nokey'", "'samples'" };
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
	test_parse_u64();
	return check_summary("test_cmdline");
}

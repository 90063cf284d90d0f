/* tests/unit/test_record.c - lib/record.c: the one writer of the records
 * (field order, JSON escaping, the CPU tag, nesting, no length limit). */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "record_capture.h"

static int pieces;
#define out record_captured
#define used record_captured_n

/* The capture sink, counting the pieces a record comes in. */
static void sink(const char *s, size_t n)
{
	record_capture_sink(s, n);
	pieces++;
}

static void reset(void)
{
	record_capture_start();
	record_set_sink(sink);
	pieces = 0;
}

static void test_fields(void)
{
	struct rec r;
	reset();
	rec_begin(&r, "summary");
	rec_str(&r, "method", "cpuid");
	rec_u64(&r, "samples", 18446744073709551615ull);
	rec_i64(&r, "net", -5);
	rec_bool(&r, "primary", 1);
	rec_bool(&r, "ergodic", 0);
	rec_null(&r, "smis");
	rec_str(&r, "why", 0);
	rec_u64_or_null(&r, "var", 0, 7);
	rec_u64_or_null(&r, "var2", 1, 7);
	rec_raw(&r, "mean", "1.250");
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"summary\",\"method\":\"cpuid\",\"samples\":18446744073709551615,\"net\":-5,"
		       "\"primary\":true,\"ergodic\":false,\"smis\":null,\"why\":null,\"var\":null,\"var2\":7,"
		       "\"mean\":1.250}\n",
		  "fields in the order written, each value in its JSON form");
	reset();
	rec_begin(&r, "end");
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"end\"}\n", "a record of its kind alone");
}

static void test_escaping(void)
{
	struct rec r;
	reset();
	rec_begin(&r, "env");
	rec_str(&r, "brand", "a\"b\\c\n\x1b\xff~");
	rec_strn(&r, "cut", "abcdef", 3);
	rec_strn(&r, "nul", "ab\0cd", 5);
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"env\",\"brand\":\"a\\\"b\\\\c\\u000a\\u001b\\u00ff~\",\"cut\":\"abc\","
		       "\"nul\":\"ab\"}\n",
		  "quote, backslash, control and non-ASCII bytes escaped; strn stops at n or NUL");
}

static void test_nesting(void)
{
	struct rec r;
	reset();
	rec_begin(&r, "cpus");
	rec_u64(&r, "count", 2);
	rec_array(&r, "list");
	for (int i = 0; i < 2; i++) {
		rec_object(&r, 0);
		rec_i64(&r, "cpu", i);
		rec_array(&r, "pair");
		rec_u64(&r, 0, (uint64_t)i);
		rec_null(&r, 0);
		rec_array_end(&r);
		rec_object_end(&r);
	}
	rec_array_end(&r);
	rec_array(&r, "empty");
	rec_array_end(&r);
	rec_u64(&r, "after", 1);
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"cpus\",\"count\":2,\"list\":[{\"cpu\":0,\"pair\":[0,null]},"
		       "{\"cpu\":1,\"pair\":[1,null]}],\"empty\":[],\"after\":1}\n",
		  "arrays of objects of arrays: one comma between neighbours at each level");
}

static void test_cpu_tag(void)
{
	struct rec r;
	record_set_cpu(3, 6);
	reset();
	rec_begin(&r, "verdict");
	rec_str(&r, "method", "rdtscp");
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"verdict\",\"cpu\":3,\"apic_id\":6,\"method\":\"rdtscp\"}\n",
		  "while a CPU's run is measured: cpu and apic_id right after the kind");
	reset();
	rec_begin(&r, "end");
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"end\",\"cpu\":3,\"apic_id\":6}\n", "the tag on a record of one key");
	record_set_cpu(-1, 0);
	reset();
	rec_begin(&r, "end");
	rec_end(&r);
	CHECK_STR(out, "{\"rec\":\"end\"}\n", "record_set_cpu(-1): no tag any more");
}

static void test_long(void)
{
	/* 6,000 bytes of escaped text (the capture holds 8 KiB): written
	 * whole, in pieces. */
	static char big[3001];
	memset(big, '"', sizeof big - 1);
	struct rec r;
	reset();
	rec_begin(&r, "code");
	rec_str(&r, "code", big);
	rec_end(&r);
	size_t want = strlen("{\"rec\":\"code\",\"code\":\"") + 2 * 3000 + strlen("\"}\n");
	CHECK_EQ_U64(used, want, "a record of %zu bytes is written whole (no line buffer cuts it)", want);
	CHECK(strcmp(out + used - 3, "\"}\n") == 0, "the long record ends with its closing quote, brace, newline");
	CHECK(pieces > 10, "written in pieces (%d), never built in one buffer", pieces);
}

static void test_no_sink(void)
{
	struct rec r;
	reset();
	record_set_sink(0);
	rec_begin(&r, "end");
	rec_end(&r);
	CHECK_EQ_U64(used, 0, "no sink set: the record is dropped, nothing crashes");
	record_set_sink(sink);
}

/* A secret: the digits after each '#'. */
static size_t digits_after_hash(const char *s, size_t n, size_t i)
{
	if (i == 0 || s[i - 1] != '#')
		return 0;
	size_t len = 0;
	while (i + len < n && s[i + len] >= '0' && s[i + len] <= '9')
		len++;
	return len;
}

static void test_masked(void)
{
	struct rec r;
	reset();
	rec_begin(&r, "env");
	rec_strn_masked(&r, "cmdline", "a #123 \"b\" #4#56789012345678901234 #x #", (size_t)-1, digits_after_hash);
	rec_strn_masked(&r, "cut", "#12345", 4, digits_after_hash);
	rec_strn_masked(&r, "none", 0, 3, digits_after_hash);
	rec_strn_masked(&r, "empty", "", 3, digits_after_hash);
	rec_end(&r);
	CHECK_STR(out,
		  "{\"rec\":\"env\",\"cmdline\":\"a #*** \\\"b\\\" #*#******************** #x #\","
		  "\"cut\":\"#***\",\"none\":null,\"empty\":\"\"}\n",
		  "each secret character a '*', 20 of them across the 16-star pieces; the rest escaped; cut at n");
}

int main(void)
{
	test_masked();
	test_fields();
	test_escaping();
	test_nesting();
	test_cpu_tag();
	test_long();
	test_no_sink();
	return check_summary("test_record");
}

/* tests/unit/test_json.c - the records' JSON escaping (lib/record.c, the
 * one writer that owns it): plain text unchanged, '"' and '\\' escaped,
 * control bytes and bytes >= 0x7f as \u00XX (all 256 byte values), NULL
 * written as null. The writer streams, so nothing is ever cut. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "record_capture.h"

/* The text the writer puts between the quotes of a string value. */
static const char *esc(const char *src)
{
	static const char head[] = "{\"rec\":\"t\",\"s\":\"";
	static char out[8192];
	const char *written = record_captured;
	record_capture_start();
	struct rec r;
	rec_begin(&r, "t");
	rec_str(&r, "s", src);
	rec_end(&r);
	size_t n = strlen(written), h = sizeof head - 1;
	CHECK(n >= h + 3 && strncmp(written, head, h) == 0 && strcmp(written + n - 3, "\"}\n") == 0,
	      "the string value of a record: between its quotes");
	snprintf(out, sizeof out, "%.*s", (int)(n - h - 3), written + h);
	return out;
}

static void test_plain(void)
{
	CHECK_STR(esc(""), "", "empty string stays empty");
	CHECK_STR(esc("hello world"), "hello world", "plain text unchanged");
	CHECK_STR(esc("cpuid rdtscp cr0 0123456789 ~!@#$%^&*()_+-={}[]|:;'<>,.?/`"),
		  "cpuid rdtscp cr0 0123456789 ~!@#$%^&*()_+-={}[]|:;'<>,.?/`",
		  "printable ASCII punctuation unchanged");
	CHECK_STR(esc("\""), "\\\"", "'\"' escaped as \\\"");
	CHECK_STR(esc("\\"), "\\\\", "'\\' escaped as \\\\");
	CHECK_STR(esc("say \"hi\" \\ bye"), "say \\\"hi\\\" \\\\ bye",
	          "quotes and backslashes inside text");
	CHECK_STR(esc("/"), "/", "'/' may stay as it is (RFC 8259)");
	CHECK_STR(esc("\n"), "\\u000a", "newline as \\u000a");
	CHECK_STR(esc("\t"), "\\u0009", "tab as \\u0009");
	CHECK_STR(esc("\r"), "\\u000d", "carriage return as \\u000d");
	CHECK_STR(esc("\x01"), "\\u0001", "control byte 01h as \\u0001");
	CHECK_STR(esc("\x1f"), "\\u001f", "control byte 1Fh, the last below space");
	CHECK_STR(esc(" "), " ", "space, the first printable byte, unchanged");
	CHECK_STR(esc("~"), "~", "'~', the last printable byte, unchanged");
	CHECK_STR(esc("\x7f"), "\\u007f", "DEL (7Fh) as \\u007f");
	CHECK_STR(esc("\x80"), "\\u0080", "byte 80h as \\u0080");
	CHECK_STR(esc("\xff"), "\\u00ff", "byte FFh as \\u00ff");
	CHECK_STR(esc("caf\xc3\xa9"), "caf\\u00c3\\u00a9", "UTF-8 bytes escaped one by one");
	CHECK_STR(esc("a\nb\tc\x01" "d"), "a\\u000ab\\u0009c\\u0001d", "control bytes among text");
	/* NUL ends the input */
	CHECK_STR(esc("ab\0cd"), "ab", "NUL ends the input");
}

/* Every byte value against an independent table of its escape. */
static void expected_escape(unsigned c, char *out)
{
	if (c == '"')
		strcpy(out, "\\\"");
	else if (c == '\\')
		strcpy(out, "\\\\");
	else if (c >= 0x20 && c <= 0x7e)
		out[0] = (char)c, out[1] = '\0';
	else
		sprintf(out, "\\u%04x", c);
}

static void test_all_bytes(void)
{
	int bad = 0;
	for (unsigned c = 1; c < 256; c++) {
		char src[2] = { (char)c, '\0' }, want[8];
		expected_escape(c, want);
		if (strcmp(esc(src), want) != 0 && bad++ < 5)
			printf("  byte 0x%02x: \"%s\", want \"%s\"\n", c, esc(src), want);
	}
	CHECK_EQ_U64(bad, 0, "every byte 01h-FFh alone escapes as the table says");

	/* all of them in one string, compared with the concatenation */
	char src[256], want[256 * 6 + 1] = "";
	for (unsigned c = 1; c < 256; c++) {
		char one[8];
		src[c - 1] = (char)c;
		expected_escape(c, one);
		strcat(want, one);
	}
	src[255] = '\0';
	CHECK_STR(esc(src), want, "all bytes 01h-FFh in one string");
}


static void test_null(void)
{
	record_capture_start();
	struct rec r;
	rec_begin(&r, "t");
	rec_str(&r, "s", 0);
	rec_end(&r);
	CHECK_STR(record_captured, "{\"rec\":\"t\",\"s\":null}\n", "a NULL string is written as null");
}

int main(void)
{
	test_plain();
	test_all_bytes();
	test_null();
	return check_summary("test_json");
}

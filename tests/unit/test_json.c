/* tests/unit/test_json.c - lib/json.c json_escape: plain text unchanged,
 * '"' and '\\' escaped, control bytes and bytes >= 0x7f as \u00XX (all 256
 * byte values), truncation at every size (never inside an escape, always
 * NUL-terminated, nothing written past size: each buffer is malloc'd to the
 * exact size so ASan sees any overrun), NULL src. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../lib/json.h"

/* json_escape into a buffer of exactly size bytes; the result in out. */
static void escape_exact(char *out, size_t outsize, size_t size, const char *src)
{
	char *dst = malloc(size);
	memset(dst, 'X', size);
	CHECK(json_escape(dst, size, src) == dst, "json_escape into %zu bytes returns dst", size);
	size_t n = strnlen(dst, size);
	CHECK(n < size, "json_escape into %zu bytes: NUL-terminated within them", size);
	snprintf(out, outsize, "%s", n < size ? dst : "");
	free(dst);
}

static const char *esc(const char *src)
{
	static char out[1024];
	escape_exact(out, sizeof out, 1000, src);
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
	static char got[2048];
	escape_exact(got, sizeof got, sizeof got, src);
	CHECK_STR(got, want, "all bytes 01h-FFh in one string");
}

/* At every size the output is the longest run of whole escapes that fits
 * with its NUL. */
static void test_truncation(void)
{
	const char *src = "ab\"c\n\\d\x01" "e\xff";
	/* the escape of each input byte, in order */
	static const char *const tokens[] = { "a", "b", "\\\"", "c", "\\u000a", "\\\\",
					      "d", "\\u0001", "e", "\\u00ff" };
	const size_t ntok = sizeof tokens / sizeof tokens[0];
	size_t full = 0;
	for (size_t t = 0; t < ntok; t++)
		full += strlen(tokens[t]);

	for (size_t size = 1; size <= full + 3; size++) {
		char want[128] = "";
		size_t len = 0;
		for (size_t t = 0; t < ntok && len + strlen(tokens[t]) < size; t++) {
			strcat(want, tokens[t]);
			len += strlen(tokens[t]);
		}
		char got[128];
		escape_exact(got, sizeof got, size, src);
		CHECK_STR(got, want, "truncated to %zu bytes: the whole escapes that fit", size);
	}

	/* size 1: always the empty string */
	char one = 'X';
	json_escape(&one, 1, "abc");
	CHECK(one == '\0', "size 1: the empty string");
	/* an escape that does not fit is not started, and what follows is not
	 * used instead: "\n" needs 6 + 1, "x" would fit */
	char buf[8];
	memset(buf, 'X', sizeof buf);
	json_escape(buf, 6, "\nx");
	CHECK_STR(buf, "", "\\u000a does not fit in 6 bytes: not started");
	CHECK(buf[1] == 'X', "nothing written after the NUL: the \"x\" that would fit is not used");
	json_escape(buf, 7, "\nx");
	CHECK_STR(buf, "\\u000a", "\\u000a fits in 7 bytes, \"x\" does not");
	json_escape(buf, 8, "\nx");
	CHECK_STR(buf, "\\u000ax", "\\u000ax fits in 8 bytes");
}

static void test_null(void)
{
	char buf[4] = "abc";
	CHECK(json_escape(buf, sizeof buf, NULL) == buf, "NULL src: returns dst");
	CHECK_STR(buf, "", "NULL src: the empty string");
	char one = 'X';
	json_escape(&one, 1, NULL);
	CHECK(one == '\0', "NULL src, size 1: the empty string");
}

int main(void)
{
	test_plain();
	test_all_bytes();
	test_truncation();
	test_null();
	return check_summary("test_json");
}

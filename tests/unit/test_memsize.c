/* tests/unit/test_memsize.c - lib/memsize.c: every suffix and case, hex,
 * the bounds of 2^64, bad input, and the text of sizes in each unit. */
#include "check.h"
#include "../../lib/memsize.h"

static int parse(const char *s, uint64_t *b)
{
	return memsize_parse(s, (int)strlen(s), b);
}

int main(void)
{
	uint64_t b = 0;
	CHECK(parse("4096", &b) == 0 && b == 4096, "plain bytes");
	CHECK(parse("4k", &b) == 0 && b == 4096, "k");
	CHECK(parse("4K", &b) == 0 && b == 4096, "K");
	CHECK(parse("512M", &b) == 0 && b == 512ull << 20, "M");
	CHECK(parse("1g", &b) == 0 && b == 1ull << 30, "g");
	CHECK(parse("0x1000", &b) == 0 && b == 4096, "hex");
	CHECK(parse("16777215G", &b) == 0 && b == 16777215ull << 30, "large G");
	CHECK(parse("17179869184G", &b) == -1, "2^64 bytes in G overflows");
	CHECK(parse("0x10k", &b) == -1, "hex takes no suffix");
	CHECK(parse("", &b) == -1, "empty");
	CHECK(parse("k", &b) == -1, "suffix alone");
	CHECK(parse("12T", &b) == -1, "T is not a suffix");
	CHECK(parse("1.5M", &b) == -1, "no fractions");
	CHECK(parse("-4k", &b) == -1, "no sign");
	CHECK(memsize_parse(NULL, 0, &b) == -1, "NULL");
	char buf[32];
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 4096), "4 KiB"), "4 KiB: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 1ull << 20), "1 MiB"), "1 MiB: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 3ull << 30), "3 GiB"), "3 GiB: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 4097), "4097 bytes"), "bytes: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 1536ull << 10), "1536 KiB"), "1536 KiB: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 0), "0 bytes"), "0: %s", buf);
	CHECK(!strcmp(memsize_text(buf, sizeof buf, 1ull << 63), "8 EiB"), "2^63: %s", buf);
	CHECK(!strcmp(memsize_word(buf, sizeof buf, 1ull << 20), "1M"), "1M: %s", buf);
	CHECK(!strcmp(memsize_word(buf, sizeof buf, 4096), "4K"), "4K: %s", buf);
	CHECK(!strcmp(memsize_word(buf, sizeof buf, 5ull << 30), "5G"), "5G: %s", buf);
	CHECK(!strcmp(memsize_word(buf, sizeof buf, 1ull << 40), "1024G"), "1024G: %s", buf);
	CHECK(!strcmp(memsize_word(buf, sizeof buf, 5000), "5000"), "5000: %s", buf);
	CHECK(parse(memsize_word(buf, sizeof buf, 12288), &b) == 0 && b == 12288, "a word parses back");
	return check_summary("memsize");
}

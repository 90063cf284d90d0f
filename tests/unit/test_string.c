/* tests/unit/test_string.c - lib/string.c, built with its functions renamed
 * lk_memcpy, lk_memmove, lk_memset, lk_memcmp, lk_strlen, lk_strchr (see the Makefile):
 * copies of every length and alignment, memmove with overlap in both
 * directions, memset of every byte value, the sign of memcmp (bytes compared
 * as unsigned char), strlen, strchr. Results are checked with plain loops, since this
 * file's own memcpy/memcmp/... are renamed to the functions under test. */
#undef _FORTIFY_SOURCE /* keep string.h from inlining the C library's copies */
#include <stddef.h>
#include "check.h"

void *lk_memcpy(void *dst, const void *src, size_t n);
void *lk_memmove(void *dst, const void *src, size_t n);
void *lk_memset(void *dst, int c, size_t n);
int lk_memcmp(const void *a, const void *b, size_t n);
size_t lk_strlen(const char *s);
char *lk_strchr(const char *s, int c);

#define SZ 96

/* A buffer with a recognisable pattern: b[i] = seed + 7·i (mod 256). */
static void fill(unsigned char *b, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed + 7 * i);
}

static void test_memcpy(void)
{
	int bad = 0;
	for (size_t off = 0; off < 8; off++)
		for (size_t soff = 0; soff < 8; soff++)
			for (size_t n = 0; n + off < SZ && n + soff < SZ; n += 1 + n / 8) {
				unsigned char src[SZ], dst[SZ];
				fill(src, SZ, 3);
				fill(dst, SZ, 100);
				void *r = lk_memcpy(dst + off, src + soff, n);
				int ok = r == dst + off;
				for (size_t i = 0; i < SZ; i++) {
					unsigned char want = i >= off && i < off + n
								     ? (unsigned char)(3 + 7 * (i - off + soff))
								     : (unsigned char)(100 + 7 * i);
					ok &= dst[i] == want;
					ok &= src[i] == (unsigned char)(3 + 7 * i); /* src untouched */
				}
				if (!ok && bad++ < 5)
					printf("  memcpy off %zu soff %zu n %zu\n", off, soff, n);
			}
	CHECK_EQ_U64(bad, 0, "memcpy at every alignment and length: copied, src untouched");
}

/* memmove within one buffer: dst after src (copy must go backwards), dst
 * before src (forwards), and dst == src. */
static void test_memmove(void)
{
	int bad = 0;
	for (size_t s = 0; s < 24; s++)
		for (size_t d = 0; d < 24; d++)
			for (size_t n = 0; n + s < SZ && n + d < SZ; n += 1 + n / 5) {
				unsigned char buf[SZ], orig[SZ];
				fill(buf, SZ, 11);
				fill(orig, SZ, 11);
				void *r = lk_memmove(buf + d, buf + s, n);
				int ok = r == buf + d;
				for (size_t i = 0; i < SZ; i++) {
					unsigned char want = i >= d && i < d + n ? orig[i - d + s] : orig[i];
					ok &= buf[i] == want;
				}
				if (!ok && bad++ < 5)
					printf("  memmove src %zu dst %zu n %zu\n", s, d, n);
			}
	CHECK_EQ_U64(bad, 0, "memmove within one buffer, every src/dst offset and length");

	/* the two directions spelled out */
	unsigned char a[] = "abcdefgh";
	lk_memmove(a + 2, a, 5); /* forward overlap: dst > src */
	CHECK_STR((char *)a, "ababcdeh", "memmove forward overlap (dst > src)");
	unsigned char b[] = "abcdefgh";
	lk_memmove(b, b + 2, 5); /* backward overlap: dst < src */
	CHECK_STR((char *)b, "cdefgfgh", "memmove backward overlap (dst < src)");
	unsigned char c[] = "abcdefgh";
	lk_memmove(c + 1, c, 7);
	CHECK_STR((char *)c, "aabcdefg", "memmove by one byte up");
	unsigned char e[] = "abcdefgh";
	lk_memmove(e, e + 1, 7);
	CHECK_STR((char *)e, "bcdefghh", "memmove by one byte down");
	unsigned char f[] = "abcdefgh";
	lk_memmove(f, f, 8);
	CHECK_STR((char *)f, "abcdefgh", "memmove onto itself");
}

static void test_memset(void)
{
	unsigned char buf[SZ];
	int bad = 0;
	for (int c = -300; c < 600; c += 7)
		for (size_t off = 0; off < 8; off++)
			for (size_t n = 0; n + off < SZ; n += 1 + n / 4) {
				fill(buf, SZ, 5);
				void *r = lk_memset(buf + off, c, n);
				int ok = r == buf + off;
				for (size_t i = 0; i < SZ; i++)
					ok &= buf[i] == (i >= off && i < off + n ? (unsigned char)c
										 : (unsigned char)(5 + 7 * i));
				if (!ok && bad++ < 5)
					printf("  memset c %d off %zu n %zu\n", c, off, n);
			}
	CHECK_EQ_U64(bad, 0, "memset of every byte value at every alignment and length");

	/* only the low byte of c is used */
	unsigned char x[4] = { 1, 2, 3, 4 };
	lk_memset(x, 0x1ff, 3);
	CHECK(x[0] == 0xff && x[1] == 0xff && x[2] == 0xff && x[3] == 4,
	      "memset uses only the low byte of c (0x1ff)");
	lk_memset(x, -1, 4);
	CHECK(x[0] == 0xff && x[3] == 0xff, "memset with c = -1 is 0xff");
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void test_memcmp(void)
{
	CHECK(lk_memcmp("abc", "abc", 3) == 0, "memcmp of equal bytes: 0");
	CHECK(lk_memcmp("abc", "abd", 3) < 0, "memcmp \"abc\" < \"abd\"");
	CHECK(lk_memcmp("abd", "abc", 3) > 0, "memcmp \"abd\" > \"abc\"");
	CHECK(lk_memcmp("abc", "abd", 2) == 0, "memcmp compares only n bytes");
	CHECK(lk_memcmp("a", "b", 0) == 0, "memcmp of 0 bytes: 0");
	CHECK(lk_memcmp("b\0x", "b\0y", 3) < 0, "memcmp: NUL is not an end");
	/* bytes are unsigned: 0x80 > 0x7f, 0xff > 0x00 */
	CHECK(lk_memcmp("\x80", "\x7f", 1) > 0, "memcmp: bytes unsigned, 80h > 7Fh");
	CHECK(lk_memcmp("\x7f", "\x80", 1) < 0, "memcmp: bytes unsigned, 7Fh < 80h");
	CHECK(lk_memcmp("\xff", "\x00", 1) > 0, "memcmp: FFh > 00h");
	CHECK(lk_memcmp("a\xff", "a\x01", 2) > 0, "memcmp: FFh > 01h after an equal byte");
	/* the first difference decides */
	CHECK(lk_memcmp("az", "ba", 2) < 0, "memcmp: the first difference decides (a < b)");
	CHECK(lk_memcmp("ba", "az", 2) > 0, "memcmp: the first difference decides (b > a)");

	/* exhaustive: one differing byte at each position, every value pair */
	unsigned char p[16], q[16];
	int bad = 0;
	for (int pos = 0; pos < 16; pos += 5)
		for (int x = 0; x < 256; x += 3)
			for (int y = 0; y < 256; y += 5) {
				fill(p, 16, 9);
				fill(q, 16, 9);
				p[pos] = (unsigned char)x;
				q[pos] = (unsigned char)y;
				if (pos + 1 < 16)
					q[pos + 1] = (unsigned char)(p[pos + 1] + 1); /* later diff ignored */
				int want = sign(x - y);
				if (x == y && pos + 1 < 16)
					want = sign((int)p[pos + 1] - (int)q[pos + 1]);
				if (sign(lk_memcmp(p, q, 16)) != want && bad++ < 5)
					printf("  memcmp pos %d 0x%02x vs 0x%02x\n", pos, x, y);
			}
	CHECK_EQ_U64(bad, 0,
	             "memcmp sign for one differing byte at each position, every value pair");
}

static void test_strlen(void)
{
	CHECK_EQ_U64(lk_strlen(""), 0, "strlen of the empty string");
	CHECK_EQ_U64(lk_strlen("a"), 1, "strlen of one byte");
	CHECK_EQ_U64(lk_strlen("hello, world"), 12, "strlen of \"hello, world\"");
	CHECK_EQ_U64(lk_strlen("ab\0cd"), 2, "strlen stops at the first NUL");
	CHECK_EQ_U64(lk_strlen("\xff\x80"), 2, "strlen: high bytes are not NUL");
	char buf[SZ];
	for (size_t n = 0; n < SZ; n++) {
		for (size_t i = 0; i < n; i++)
			buf[i] = (char)('a' + i % 26);
		buf[n] = '\0';
		CHECK_EQ_U64(lk_strlen(buf), n, "strlen of %zu bytes", n);
	}
}

static void test_strchr(void)
{
	static const char s[] = "ab=cd=";
	CHECK(lk_strchr(s, '=') == s + 2, "strchr: the first of two");
	CHECK(lk_strchr(s, 'a') == s, "strchr: at the start");
	CHECK(lk_strchr(s, 'x') == NULL, "strchr: absent, NULL");
	CHECK(lk_strchr(s, 0) == s + 6, "strchr of 0: the NUL itself");
	CHECK(lk_strchr(s, 'c' + 256) == s + 3, "strchr: c converted to char");
}

int main(void)
{
	test_memcpy();
	test_memmove();
	test_memset();
	test_memcmp();
	test_strlen();
	test_strchr();
	return check_summary("test_string");
}

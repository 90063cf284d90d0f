/* tests/unit/test_fmt.c - lib/fmt.c against the host C library's snprintf:
 * every supported conversion (%d %i %u %x %X %s %c %p %%), the flags '-' and
 * '0', widths (digits, '*', negative '*'), %s precision (".N", ".*"), the
 * length modifiers hh h l ll z and their extreme values; a randomized
 * comparison; truncation (full length returned, always NUL-terminated, no
 * write past size, size 0 and 1); unknown conversions copied verbatim;
 * fmt_milli; fmt_fit_u64 and fmt_fit_i64. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "../../lib/fmt.h"

/* Format with fmt_vformat and with vsnprintf; 1 if return values and texts
 * agree, else print both and return 0. */
static int vsame(const char *fmt, va_list ap)
{
	char got[512], want[512];
	va_list aq;
	va_copy(aq, ap);
	int gn = fmt_vformat(got, sizeof got, fmt, ap);
	int wn = vsnprintf(want, sizeof want, fmt, aq);
	va_end(aq);
	if (gn == wn && strcmp(got, want) == 0)
		return 1;
	printf("  format \"%s\": fmt gave %d \"%s\", libc gave %d \"%s\"\n", fmt, gn, got,
	       wn, want);
	return 0;
}

/* vsame, with the compiler checking the arguments against the format. */
static int same(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int same(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsame(fmt, ap);
	va_end(ap);
	return r;
}

/* vsame for valid formats the compiler would warn about ("", "%-05d"). */
static int same_nc(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsame(fmt, ap);
	va_end(ap);
	return r;
}

/* fmt_vformat without the compiler's format checking, for formats that are
 * deliberately not printf formats. */
static int raw(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_conversions(void)
{
	/* plain text and %% */
	CHECK(same("hello, world"), "plain text as libc");
	CHECK(same_nc(""), "empty format as libc");
	CHECK(same("100%% sure %%%%"), "%%%% as a percent sign, as libc");

	/* %d %i */
	CHECK(same("%d", 0), "%%d of 0 as libc");
	CHECK(same("%d", 42), "%%d of 42 as libc");
	CHECK(same("%d", -42), "%%d of -42 as libc");
	CHECK(same("%i", 12345), "%%i of 12345 as libc");
	CHECK(same("%i", -7), "%%i of -7 as libc");
	CHECK(same("%d", INT_MAX), "%%d of INT_MAX as libc");
	CHECK(same("%d", INT_MIN), "%%d of INT_MIN as libc");
	CHECK(same("[%d|%i]", INT_MIN, INT_MAX), "%%d and %%i of INT_MIN, INT_MAX in text as libc");

	/* %u %x %X */
	CHECK(same("%u", 0u), "%%u of 0 as libc");
	CHECK(same("%u", 4000000000u), "%%u above INT_MAX as libc");
	CHECK(same("%u", UINT_MAX), "%%u of UINT_MAX as libc");
	CHECK(same("%x", 0u), "%%x of 0 as libc");
	CHECK(same("%x", 0xdeadbeefu), "%%x lower-case hex as libc");
	CHECK(same("%X", 0xdeadbeefu), "%%X upper-case hex as libc");
	CHECK(same("%x %X", UINT_MAX, 0xabcu), "%%x of UINT_MAX and %%X as libc");

	/* %s %c */
	CHECK(same("%s", "text"), "%%s as libc");
	CHECK(same("%s", ""), "%%s of the empty string as libc");
	CHECK(same("<%s><%s>", "a", "bc"), "two %%s in text as libc");
	CHECK(same("%c", 'x'), "%%c as libc");
	CHECK(same("%c%c%c", 'a', 'b', 'c'), "three %%c as libc");

	/* %p (non-NULL; libc writes NULL as "(nil)", which fmt need not copy) */
	int obj;
	CHECK(same("%p", (void *)&obj), "%%p of a stack address as libc");
	CHECK(same("%p", (void *)0x1), "%%p of 1 as libc");
	CHECK(same("%p", (void *)0xdeadbeefcafeull), "%%p of a 48-bit address as libc");
	CHECK(same("%p", (void *)UINTPTR_MAX), "%%p of UINTPTR_MAX as libc");

	/* flags and widths */
	CHECK(same("[%5d]", 42), "%%5d right-aligned as libc");
	CHECK(same("[%-5d]", 42), "%%-5d left-aligned as libc");
	CHECK(same("[%05d]", 42), "%%05d zero-padded as libc");
	CHECK(same("[%05d]", -42), "%%05d of a negative: sign before the zeros, as libc");
	CHECK(same("[%5d]", -42), "%%5d of a negative as libc");
	CHECK(same("[%-5d]", -42), "%%-5d of a negative as libc");
	CHECK(same_nc("[%-05d]", 42), "'-' overrides '0', as libc");
	CHECK(same_nc("[%0-5d]", -42), "'-' overrides '0' in either order, as libc");
	CHECK(same("[%2d]", 12345), "width smaller than the number, as libc");
	CHECK(same("[%1d]", 0), "%%1d of 0 as libc");
	CHECK(same("[%20d]", INT_MIN), "%%20d of INT_MIN as libc");
	CHECK(same("[%020d]", INT_MIN), "%%020d of INT_MIN as libc");
	CHECK(same("[%8x]", 0xbeefu), "%%8x as libc");
	CHECK(same("[%08X]", 0xbeefu), "%%08X as libc");
	CHECK(same("[%-8x]", 0xbeefu), "%%-8x as libc");
	CHECK(same("[%10u]", 123u), "%%10u as libc");
	CHECK(same("[%010u]", 123u), "%%010u as libc");
	CHECK(same("[%8s]", "abc"), "%%8s right-aligned as libc");
	CHECK(same("[%-8s]", "abc"), "%%-8s left-aligned as libc");
	CHECK(same("[%2s]", "abcdef"), "%%2s of a longer string: not cut, as libc");
	CHECK(same("[%4c]", 'z'), "%%4c as libc");
	CHECK(same("[%-4c]", 'z'), "%%-4c as libc");
	CHECK(same("[%-20p]", (void *)0x1234), "%%-20p as libc");

	/* '*' widths, negative '*' means '-' */
	CHECK(same("[%*d]", 6, 42), "'*' width 6 as libc");
	CHECK(same("[%*d]", -6, 42), "negative '*' width: left-aligned, as libc");
	CHECK(same("[%-*d]", 6, -42), "%%-*d as libc");
	CHECK(same("[%0*d]", 6, -42), "%%0*d of a negative as libc");
	CHECK(same("[%0*d]", -6, -42), "%%0*d with a negative width: '-' wins, as libc");
	CHECK(same("[%*s]", 7, "ab"), "%%*s as libc");
	CHECK(same("[%*s]", -7, "ab"), "%%*s with a negative width as libc");
	CHECK(same("[%*c]", 3, 'q'), "%%*c as libc");
	CHECK(same("[%*c]", -3, 'q'), "%%*c with a negative width as libc");
	CHECK(same("[%*x]", 0, 0xffu), "'*' width 0 as libc");
	CHECK(same("[%*u|%*u]", 4, 1u, -4, 2u), "two '*' widths, one negative, as libc");

	/* precision for %s */
	CHECK(same("[%.3s]", "abcdef"), "%%.3s cuts the string, as libc");
	CHECK(same("[%.0s]", "abcdef"), "%%.0s prints nothing, as libc");
	CHECK(same("[%.10s]", "abc"), "%%.10s of a shorter string as libc");
	CHECK(same("[%.*s]", 2, "abcdef"), "%%.*s of 2 as libc");
	CHECK(same("[%.*s]", 0, "abcdef"), "%%.*s of 0 as libc");
	CHECK(same("[%.*s]", -1, "abcdef"), "negative '*' precision: as if omitted, as libc");
	CHECK(same("[%8.3s]", "abcdef"), "%%8.3s as libc");
	CHECK(same("[%-8.3s]", "abcdef"), "%%-8.3s as libc");
	CHECK(same("[%*.*s]", 6, 2, "abcdef"), "%%*.*s as libc");
	CHECK(same("[%*.*s]", -6, 2, "abcdef"), "%%*.*s with a negative width as libc");

	/* length modifiers */
	CHECK(same("%hhd", 200), "%%hhd of 200 wraps to signed char -56, as libc");
	CHECK(same("%hhd", -128), "%%hhd of -128 as libc");
	CHECK(same("%hhu", 300), "%%hhu of 300 wraps to 44, as libc");
	CHECK(same("%hhx", 0x1ff), "%%hhx of 1FFh as libc");
	CHECK(same("%hd", 40000), "%%hd of 40000 wraps to short, as libc");
	CHECK(same("%hd", -32768), "%%hd of -32768 as libc");
	CHECK(same("%hu", 70000), "%%hu of 70000 as libc");
	CHECK(same("%hX", 0x12345), "%%hX of 12345h as libc");
	CHECK(same("%ld", LONG_MIN), "%%ld of LONG_MIN as libc");
	CHECK(same("%ld", LONG_MAX), "%%ld of LONG_MAX as libc");
	CHECK(same("%li", -1L), "%%li of -1 as libc");
	CHECK(same("%lu", ULONG_MAX), "%%lu of ULONG_MAX as libc");
	CHECK(same("%lx", ULONG_MAX), "%%lx of ULONG_MAX as libc");
	CHECK(same("%lld", LLONG_MIN), "%%lld of LLONG_MIN as libc");
	CHECK(same("%lld", LLONG_MAX), "%%lld of LLONG_MAX as libc");
	CHECK(same("%lli", 0LL), "%%lli of 0 as libc");
	CHECK(same("%llu", ULLONG_MAX), "%%llu of ULLONG_MAX as libc");
	CHECK(same("%llu", 0ULL), "%%llu of 0 as libc");
	CHECK(same("%llx", ULLONG_MAX), "%%llx of ULLONG_MAX as libc");
	CHECK(same("%llX", 0x0123456789ABCDEFULL), "%%llX as libc");
	CHECK(same("%zu", (size_t)SIZE_MAX), "%%zu of SIZE_MAX as libc");
	CHECK(same("%zx", (size_t)0x1234), "%%zx as libc");
	CHECK(same("%zd", (ssize_t)-5), "%%zd of -5 as libc");
	CHECK(same("[%25lld]", LLONG_MIN), "%%25lld of LLONG_MIN as libc");
	CHECK(same("[%025lld]", LLONG_MIN), "%%025lld of LLONG_MIN as libc");
	CHECK(same("[%-25llu]", ULLONG_MAX), "%%-25llu of ULLONG_MAX as libc");
	CHECK(same("[%022llx]", ULLONG_MAX), "%%022llx of ULLONG_MAX as libc");

	/* everything at once */
	CHECK(same("%s=%d (%u, 0x%08x) %c %-6s|%5.2s|%lld%%", "key", -3, 3u, 0xabu, '!',
		   "left", "right", LLONG_MIN), "every conversion in one format as libc");
}

/* C11 7.21.6.1p8: with a precision, %s reads at most that many bytes, so the
 * array need not hold a NUL. The three bytes sit at the very end of a page
 * followed by an inaccessible one; the formatting runs in a child process so
 * that a fault is reported as one failed check, not the end of the test. */
static void unterminated_child(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + page, (size_t)page, PROT_NONE))
		_exit(3);
	char *s = map + page - 3;
	s[0] = 'x', s[1] = 'y', s[2] = 'z';
	char buf[16];
	int n = fmt_format(buf, sizeof buf, "[%.3s|%.2s]", s, s);
	_exit(n == 8 && strcmp(buf, "[xyz|xy]") == 0 ? 0 : 2);
}

static void test_unterminated_precision(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		unterminated_child();
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid,
	      "%%.3s of an unterminated array: child process ran");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%%.3s reads no byte past the precision (no fault in the child)");
}

/* Right-aligned %p: the "0x" belongs with the digits, after the padding. */
static void test_pointer_width(void)
{
	CHECK(same("[%20p]", (void *)0x1234), "%%20p right-aligned as libc");
	char buf[64];
	fmt_format(buf, sizeof buf, "[%10p]", (void *)0x1234);
	CHECK_STR(buf, "[    0x1234]", "%%10p: the 0x after the padding");
}

/* Random values, flags and widths against snprintf. */
static void test_random(void)
{
	static const char *const flags[] = { "", "-", "0", "-0" };
	static const char *const convs[] = { "d", "i", "u", "x", "X", "lld", "llu", "llx",
					     "hd", "hhu", "ld", "lX", "zu" };
	int bad = 0;
	for (int i = 0; i < 5000; i++) {
		char f[32], got[128], want[128];
		const char *conv = convs[next() % (sizeof convs / sizeof convs[0])];
		int width = (int)(next() % 30);
		snprintf(f, sizeof f, "<%%%s%d%s>", flags[next() % 4], width, conv);
		uint64_t v = next() >> (next() % 64); /* all magnitudes */
		if (next() & 1)
			v = 0 - v;
		int gn, wn;
		if (conv[0] == 'l' && conv[1] == 'l') {
			gn = raw(got, sizeof got, f, (long long)v);
			wn = snprintf(want, sizeof want, f, (long long)v);
		} else if (conv[0] == 'l' || conv[0] == 'z') {
			gn = raw(got, sizeof got, f, (long)v);
			wn = snprintf(want, sizeof want, f, (long)v);
		} else {
			gn = raw(got, sizeof got, f, (int)v);
			wn = snprintf(want, sizeof want, f, (int)v);
		}
		if (gn != wn || strcmp(got, want) != 0) {
			if (bad++ < 5)
				printf("  random: format \"%s\" value %llu: fmt \"%s\" libc \"%s\"\n", f,
				       (unsigned long long)v, got, want);
		}
	}
	CHECK_EQ_U64(bad, 0, "5000 random integer conversions, flags and widths as libc");

	/* random %s with width and precision */
	bad = 0;
	for (int i = 0; i < 2000; i++) {
		char s[20], f[32], got[128], want[128];
		int len = (int)(next() % 19);
		for (int j = 0; j < len; j++)
			s[j] = (char)('a' + next() % 26);
		s[len] = '\0';
		int width = (int)(next() % 25) - 12, prec = (int)(next() % 25) - 4;
		snprintf(f, sizeof f, "<%%*.*s>"); /* built at run time: unchecked */
		int gn = raw(got, sizeof got, f, width, prec, s);
		int wn = snprintf(want, sizeof want, f, width, prec, s);
		if (gn != wn || strcmp(got, want) != 0) {
			if (bad++ < 5)
				printf("  random: %%*.*s %d %d \"%s\": fmt \"%s\" libc \"%s\"\n", width,
				       prec, s, got, want);
		}
	}
	CHECK_EQ_U64(bad, 0, "2000 random %%*.*s as libc");
}

/* A return of the full length, a NUL within size and nothing written at or
 * beyond buf[size]. */
static void test_truncation(void)
{
	char buf[64];

	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(fmt_format(buf, 5, "hello world"), 11, "size 5: the full length returned");
	CHECK_STR(buf, "hell", "size 5: the first 4 bytes and a NUL");
	CHECK(buf[5] == 'X', "size 5: nothing written past it");

	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(fmt_format(buf, 1, "hello"), 5, "size 1: the full length returned");
	CHECK(buf[0] == '\0', "size 1: the empty string");
	CHECK(buf[1] == 'X', "size 1: nothing written past it");

	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(fmt_format(buf, 0, "hello %d", 12345), 11, "size 0: the full length returned");
	CHECK(buf[0] == 'X', "size 0: nothing written at all");

	CHECK_EQ_U64(fmt_format(NULL, 0, "%s-%llu", "abc", ULLONG_MAX), 24,
	             "NULL buffer of size 0: the length alone");

	/* exactly fitting, and one short */
	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(fmt_format(buf, 6, "%05d", 7), 5, "exactly fitting: the length");
	CHECK_STR(buf, "00007", "exactly fitting: whole");
	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(fmt_format(buf, 5, "%05d", 7), 5, "one byte short: the full length");
	CHECK_STR(buf, "0000", "one byte short: cut");

	/* every size for a format with padding, numbers and strings */
	const char *f = "%-6s|%08x|%*d|%.3s|%c|%lld";
	char want_full[128];
	int full = snprintf(want_full, sizeof want_full, f, "ab", 0xbeefu, 7, -12, "truncate",
			    'c', LLONG_MIN);
	for (size_t size = 0; size <= (size_t)full + 2; size++) {
		char want[128];
		memset(buf, 'X', sizeof buf);
		memset(want, 'X', sizeof want);
		int n = fmt_format(buf, size, f, "ab", 0xbeefu, 7, -12, "truncate", 'c',
				   LLONG_MIN);
		CHECK_EQ_U64(n, full, "size %zu: the full length returned", size);
		snprintf(want, size, f, "ab", 0xbeefu, 7, -12, "truncate", 'c', LLONG_MIN);
		if (size) {
			CHECK_STR(buf, want, "size %zu: the text libc gives", size);
			CHECK_EQ_U64(strlen(buf), size - 1 < (size_t)full ? size - 1 : (size_t)full,
			             "size %zu: NUL-terminated within size", size);
		}
		int untouched = 1;
		for (size_t i = size; i < sizeof buf; i++)
			untouched &= buf[i] == 'X';
		CHECK(untouched, "size %zu: nothing written past it", size);
	}

	/* the va_list entry point directly (via raw) */
	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(raw(buf, 4, "%d", -123456), 7, "fmt_vformat cut to 4 bytes: the full length");
	CHECK_STR(buf, "-12", "fmt_vformat cut to 4 bytes: the text");
}

/* Unknown conversions are copied through, flags and width included. */
static void test_unknown(void)
{
	char buf[64];
	CHECK_EQ_U64(raw(buf, sizeof buf, "a%qb"), 4, "unknown %%q: copied, its length");
	CHECK_STR(buf, "a%qb", "unknown %%q: copied");
	CHECK_EQ_U64(raw(buf, sizeof buf, "[%-5q]"), 6,
	             "unknown %%q with flags and width: its length");
	CHECK_STR(buf, "[%-5q]", "unknown %%q with flags and width: copied");
	/* the next conversion still works */
	raw(buf, sizeof buf, "%q %d", 5);
	CHECK_STR(buf, "%q 5", "after an unknown conversion, %%d still works");
	raw(buf, sizeof buf, "%y%d%w", 9);
	CHECK_STR(buf, "%y9%w", "unknown conversions either side of %%d");
	/* a lone '%' (or unfinished spec) at the end */
	CHECK_EQ_U64(raw(buf, sizeof buf, "50%"), 3, "lone '%%' at the end: its length");
	CHECK_STR(buf, "50%", "lone '%%' at the end: copied");
	raw(buf, sizeof buf, "x%08");
	CHECK_STR(buf, "x%08", "unfinished %%08 at the end: copied");
	raw(buf, sizeof buf, "x%ll");
	CHECK_STR(buf, "x%ll", "unfinished %%ll at the end: copied");
	/* truncated in the middle of a copied spec */
	memset(buf, 'X', sizeof buf);
	CHECK_EQ_U64(raw(buf, 3, "a%qb"), 4, "cut inside a copied spec: the full length");
	CHECK_STR(buf, "a%", "cut inside a copied spec: the bytes that fit");
	CHECK(buf[3] == 'X', "cut inside a copied spec: nothing written past size");
}

static void test_milli(void)
{
	char buf[32];
	CHECK_STR(fmt_milli(buf, sizeof buf, 0), "0.000", "0 as 0.000");
	CHECK_STR(fmt_milli(buf, sizeof buf, 1), "0.001", "1 as 0.001");
	CHECK_STR(fmt_milli(buf, sizeof buf, 10), "0.010", "10 as 0.010");
	CHECK_STR(fmt_milli(buf, sizeof buf, 999), "0.999", "999 as 0.999");
	CHECK_STR(fmt_milli(buf, sizeof buf, 1000), "1.000", "1000 as 1.000");
	CHECK_STR(fmt_milli(buf, sizeof buf, 12345), "12.345", "12345 as 12.345");
	CHECK_STR(fmt_milli(buf, sizeof buf, 1000001), "1000.001", "1000001 as 1000.001");
	/* 18446744073709551615 = 18446744073709551 * 1000 + 615 */
	CHECK_STR(fmt_milli(buf, sizeof buf, UINT64_MAX), "18446744073709551.615",
	          "UINT64_MAX in thousandths");
	CHECK(fmt_milli(buf, sizeof buf, 5) == buf, "fmt_milli returns buf");
	/* the documented minimum size holds the longest value */
	char small[24];
	CHECK_STR(fmt_milli(small, sizeof small, UINT64_MAX), "18446744073709551.615",
	          "the documented minimum size holds UINT64_MAX");
}

static void test_fit(void)
{
	char buf[32];
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 0, 7), "0", "0 fits 7 columns");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 9999999, 7), "9999999", "9999999 fits 7 columns");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 10000000, 7), "1.00e7",
	          "10000000 in 7 columns: 1.00e7");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 112285480386ull, 11), "1.12e11",
	          "112285480386 in 11 columns: 1.12e11");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 112285480386ull, 12), "112285480386",
	          "112285480386 in 12 columns: as it is");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 19999999999ull, 9), "1.99e10",
	          "19999999999 in 9 columns: mantissa floored, 1.99e10");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, UINT64_MAX, 7), "1.84e19",
	          "UINT64_MAX in 7 columns");
	CHECK_STR(fmt_fit_u64(buf, sizeof buf, 12, 1), "1.20e1", "12 in 1 column: 1.20e1");
	CHECK(fmt_fit_u64(buf, sizeof buf, 5, 7) == buf, "fmt_fit_u64 returns buf");
	CHECK_STR(fmt_fit_i64(buf, sizeof buf, -42, 10), "-42", "-42 fits 10 columns");
	CHECK_STR(fmt_fit_i64(buf, sizeof buf, -123456789, 8), "-1.23e8",
	          "-123456789 in 8 columns: -1.23e8");
	CHECK_STR(fmt_fit_i64(buf, sizeof buf, INT64_MIN, 12), "-9.22e18",
	          "INT64_MIN in 12 columns");
	CHECK_STR(fmt_fit_i64(buf, sizeof buf, 77, 2), "77", "77 fits 2 columns");
	char small[24];
	CHECK_STR(fmt_fit_u64(small, sizeof small, UINT64_MAX, 20), "18446744073709551615",
	          "UINT64_MAX in 20 columns into the minimum size");
}

/* fmt_escape: what an echo of user bytes may contain (issue 11 section 4). */
static void test_escape(void)
{
	char buf[64];
	CHECK_STR(fmt_escape(buf, sizeof buf, "samples=5", 100), "samples=5",
	          "printable text unchanged");
	CHECK_STR(fmt_escape(buf, sizeof buf, "a\nb\rc\td", 100), "a\\nb\\rc\\td",
	          "newline, return, tab as \\n \\r \\t");
	CHECK_STR(fmt_escape(buf, sizeof buf, "\x1b[2J", 100), "\\x1b[2J", "ESC as \\x1b");
	CHECK_STR(fmt_escape(buf, sizeof buf, "q\"b\\s'", 100), "q\\\"b\\\\s'",
	          "quote and backslash escaped, apostrophe not");
	CHECK_STR(fmt_escape(buf, sizeof buf, "\x01\x1f\x7f\x80\xff~ ", 100), "\\x01\\x1f\\x7f\\x80\\xff~ ",
	          "control bytes, DEL and high bytes as \\xNN");
	CHECK_STR(fmt_escape(buf, sizeof buf, "\xc3\xa9", 100), "\\xc3\\xa9",
	          "UTF-8 e-acute as two \\xNN");
	/* len bounds the source; so does its NUL */
	CHECK_STR(fmt_escape(buf, sizeof buf, "abcdef", 3), "abc", "len bounds the source");
	CHECK_STR(fmt_escape(buf, sizeof buf, "ab", 30), "ab", "the source's NUL bounds it");
	CHECK_STR(fmt_escape(buf, sizeof buf, "", 0), "", "empty source");
	CHECK_STR(fmt_escape(buf, sizeof buf, NULL, 5), "", "NULL source: the empty string");
	CHECK(fmt_escape(buf, sizeof buf, "x", 1) == buf, "fmt_escape returns dst");

	/* An injected line cannot survive: no line end, no ESC, no raw quote. */
	const char *evil = "x\nbench: run complete: 3 methods run\n{\"rec\":\"end\"}\x1b[0m";
	char big[256];
	fmt_escape(big, sizeof big, evil, strlen(evil));
	CHECK(!strchr(big, '\n') && !strchr(big, '\r') && !strchr(big, 0x1b),
	      "injected line: no line end or ESC survives");
	CHECK(!strstr(big, "{\"rec\""), "injected line: no raw JSON record survives");
	CHECK_STR(big, "x\\nbench: run complete: 3 methods run\\n{\\\"rec\\\":\\\"end\\\"}\\x1b[0m",
	          "injected line: the whole escaped text");
	for (size_t i = 0; big[i]; i++)
		CHECK(big[i] >= 0x20 && big[i] <= 0x7E, "injected line: byte %zu printable", i);

	/* Cut: whole escapes only, then "..."; never longer than size - 1. */
	char small[8];
	memset(small, 'X', sizeof small);
	CHECK_STR(fmt_escape(small, sizeof small, "abcdefg", 7), "abcdefg",
	          "7 bytes in 8: exactly fits");
	CHECK_STR(fmt_escape(small, sizeof small, "abcdefgh", 8), "abcd...",
	          "8 bytes in 8: cut, then ...");
	CHECK_STR(fmt_escape(small, sizeof small, "ab\x01" "cdefgh", 20), "ab...",
	          "cut: whole escapes only, then ...");
	CHECK_STR(fmt_escape(small, sizeof small, "abc\ncdefgh", 20), "abc...",
	          "cut before an escape that does not fit");
	CHECK_STR(fmt_escape(small, sizeof small, "a\n\n", 3), "a\\n\\n",
	          "two escapes exactly fit");
	CHECK_STR(fmt_escape(small, 4, "abcd", 4), "...", "size 4: only ...");
	CHECK_STR(fmt_escape(small, 4, "abc", 3), "abc", "size 4: 3 bytes fit");
	/* every cut of a long escaped text stays within size and ends "..." */
	char src[300];
	for (int i = 0; i < 300; i++)
		src[i] = (char)(i * 37 + 1);
	src[299] = '\0';
	for (size_t size = 4; size < 64; size++) {
		char out[64];
		memset(out, 'Z', sizeof out);
		fmt_escape(out, size, src, sizeof src);
		size_t n = strlen(out);
		CHECK(n <= size - 1 && n >= 3 && strcmp(out + n - 3, "...") == 0,
		      "escape into %zu bytes: within size, ends ...", size);
		CHECK(size == sizeof out || out[size] == 'Z',
		      "escape into %zu bytes: nothing written past it", size);
	}
}

int main(void)
{
	test_escape();
	test_conversions();
	test_unterminated_precision();
	test_pointer_width();
	test_random();
	test_truncation();
	test_unknown();
	test_milli();
	test_fit();
	return check_summary("test_fmt");
}

/* tests/unit/test_planpath.c - lib/planpath.c: plan=FILE found in a
 * command line as kernel/config.c reads it (the last valid word wins,
 * other words and bad values ignored silently, plan=off is none), and
 * FILE as the UCS-2 path EFI_FILE_PROTOCOL.Open takes. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/planpath.h"

/* w[] as ASCII, for CHECK_STR. */
static const char *ascii(const uint16_t *w)
{
	static char s[128];
	size_t i = 0;
	for (; w[i] && i + 1 < sizeof s; i++)
		s[i] = w[i] < 0x80 ? (char)w[i] : '?';
	s[i] = '\0';
	return s;
}

int main(void)
{
	char f[64];
	uint16_t w[80];

	CHECK(planpath_find("ensembles=2 plan=plan.txt samples=20", f, sizeof f) == 1, "plan= among other words");
	CHECK_STR(f, "plan.txt", "its value");
	CHECK(planpath_find("plan=a.txt bogus planet=x plan=b.txt", f, sizeof f) == 1,
	      "plan= given twice, an unknown key and a word without '=' between");
	CHECK_STR(f, "b.txt", "the last plan= wins, as in kernel/config.c");
	CHECK(planpath_find("plan=a.txt plan=", f, sizeof f) == 1, "an empty plan= after a valid one");
	CHECK_STR(f, "a.txt", "an empty value is refused: the earlier one kept");
	CHECK(planpath_find("ensembles=2 samples=20", f, sizeof f) == 0, "no plan=: none");
	CHECK_STR(f, "", "no plan=: out is empty");
	CHECK(planpath_find(0, f, sizeof f) == 0, "no command line at all (NULL): none");
	CHECK(planpath_find("plan=plan.txt plan=off", f, sizeof f) == 0, "plan=off last: none");
	CHECK(planpath_find("plan=offx", f, sizeof f) == 1, "plan=offx names a file");
	CHECK(planpath_find("plan=boot/plan.txt\tunroll=3\n", f, sizeof f) == 1, "tab and newline separate words");
	CHECK_STR(f, "boot/plan.txt", "a path with '/'");

	char longline[200];
	memset(longline, 0, sizeof longline);
	strcpy(longline, "plan=short.txt plan=");
	memset(longline + strlen(longline), 'x', 64);
	CHECK(planpath_find(longline, f, sizeof f) == 1, "a value of 64 characters after a valid one");
	CHECK_STR(f, "short.txt", "64 characters do not fit kernel/config.h's plan[64]: the earlier value kept");
	char small[4];
	CHECK(planpath_find("plan=abc", small, sizeof small) == 1 && !strcmp(small, "abc"),
	      "3 characters fit 4 bytes");
	CHECK(planpath_find("plan=abcd", small, sizeof small) == 0 && !strcmp(small, ""),
	      "4 characters do not fit 4 bytes: none");
	CHECK(planpath_find("plan=x", f, 1) == 0, "size 1 holds no name");

	CHECK_EQ_U64(planpath_ucs2(w, 80, "plan.txt"), 9, "\\plan.txt: 9 characters");
	CHECK_STR(ascii(w), "\\plan.txt", "the root's \\ first");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "boot/plan.txt"), 14, "\\boot\\plan.txt: 14 characters");
	CHECK_STR(ascii(w), "\\boot\\plan.txt", "'/' read as '\\'");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "/boot/plan.txt"), 14, "a leading '/' is not doubled");
	CHECK_STR(ascii(w), "\\boot\\plan.txt", "a leading '/'");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "\\x\\y"), 4, "a leading '\\' is not doubled");
	CHECK_STR(ascii(w), "\\x\\y", "backslashes kept");
	CHECK_EQ_U64(w[4], 0, "NUL-terminated");
	CHECK_EQ_U64(planpath_ucs2(w, 80, ""), 0, "an empty name");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "/"), 0, "the root itself");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "pl\xc3\xa4n.txt"), 0, "a byte above 0x7E");
	CHECK_EQ_U64(planpath_ucs2(w, 80, "a\x01"), 0, "a control byte");
	CHECK_EQ_U64(planpath_ucs2(w, 4, "abc"), 0, "\\abc and its NUL need 5 characters, 4 given");
	CHECK_EQ_U64(planpath_ucs2(w, 5, "abc"), 4, "5 characters hold \\abc and its NUL");
	CHECK_EQ_U64(planpath_ucs2(w, 0, "abc"), 0, "no room at all");
	return check_summary("test_planpath");
}

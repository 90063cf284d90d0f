/* tests/unit/test_resultname.c - lib/resultname.c: the results file's
 * names from the run ID (final, temporary, later attempts), every one a
 * valid FAT long name and none equal to another, the bad IDs, and the
 * UCS-2 path EFI_FILE_PROTOCOL.Open takes. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/resultname.h"

int main(void)
{
	const char *id = "0123456789abcdef";
	char out[RESULTNAME_MAX], names[2 * RESULTNAME_ATTEMPTS][RESULTNAME_MAX];
	uint16_t w[64];

	CHECK_EQ_U64(resultname_make(out, sizeof out, id, 0, RESULTNAME_FINAL), 20, "\"<id>.log\" is 20 characters");
	CHECK_STR(out, "0123456789abcdef.log", "attempt 0, final");
	CHECK_EQ_U64(resultname_make(out, sizeof out, id, 0, RESULTNAME_TEMPORARY), 21, "\"<id>.part\": 21");
	CHECK_STR(out, "0123456789abcdef.part", "attempt 0, temporary");
	resultname_make(out, sizeof out, id, 9, RESULTNAME_TEMPORARY);
	CHECK_STR(out, "0123456789abcdef-9.part", "attempt 9, temporary: the longest name");
	CHECK_EQ_U64(strlen(out) + 1, RESULTNAME_MAX, "the longest name and its NUL fill RESULTNAME_MAX");

	/* Every name of every attempt: FAT-safe, not 8.3, all different,
	 * final and temporary never the same. */
	int n = 0, fat = 1, distinct = 1;
	for (unsigned a = 0; a < RESULTNAME_ATTEMPTS; a++)
		for (int k = 0; k < 2; k++, n++) {
			resultname_make(names[n], RESULTNAME_MAX, id, a, k ? RESULTNAME_TEMPORARY : RESULTNAME_FINAL);
			fat &= resultname_fat_ok(names[n]);
			for (int j = 0; j < n; j++)
				distinct &= strcmp(names[j], names[n]) != 0;
		}
	CHECK(fat, "all 20 names are valid FAT long names");
	CHECK(distinct, "all 20 names differ (FAT compares names without case: all lower-case)");

	strcpy(out, "unchanged");
	CHECK(resultname_make(out, sizeof out, id, RESULTNAME_ATTEMPTS, RESULTNAME_FINAL) == 0,
	      "attempt 10 is out of range");
	CHECK(resultname_make(out, sizeof out, "0123456789ABCDEF", 0, RESULTNAME_FINAL) == 0,
	      "upper-case digits are not a run ID (runid_text prints lower case)");
	CHECK(resultname_make(out, sizeof out, "0123456789abcde", 0, RESULTNAME_FINAL) == 0, "15 digits");
	CHECK(resultname_make(out, sizeof out, "0123456789abcdef0", 0, RESULTNAME_FINAL) == 0, "17 digits");
	CHECK(resultname_make(out, sizeof out, "", 0, RESULTNAME_FINAL) == 0,
	      "the empty ID (runid_text before runid_make)");
	CHECK(resultname_make(out, sizeof out, "01234567/9abcdef", 0, RESULTNAME_FINAL) == 0, "a slash");
	CHECK(resultname_make(out, 20, id, 0, RESULTNAME_FINAL) == 0, "20 bytes cannot hold 20 characters and the NUL");
	CHECK_STR(out, "unchanged", "a refused name leaves out as it was");
	CHECK_EQ_U64(resultname_make(out, 21, id, 0, RESULTNAME_FINAL), 20, "21 bytes can");

	CHECK(!resultname_fat_ok("") && !resultname_fat_ok(".") && !resultname_fat_ok(".."),
	      "empty, \".\" and \"..\" are not names");
	CHECK(!resultname_fat_ok("a:b") && !resultname_fat_ok("a\\b") && !resultname_fat_ok("a?") &&
	      !resultname_fat_ok("a\"b") && !resultname_fat_ok("a|b") && !resultname_fat_ok("a\tb"),
	      "reserved and control characters are refused");
	CHECK(!resultname_fat_ok("run.") && !resultname_fat_ok("run "), "a trailing dot or space is refused");
	char long_name[300];
	memset(long_name, 'a', sizeof long_name);
	long_name[255] = '\0';
	CHECK(resultname_fat_ok(long_name), "255 characters are allowed");
	long_name[255] = 'a';
	long_name[256] = '\0';
	CHECK(!resultname_fat_ok(long_name), "256 are not");
	CHECK(resultname_fat_ok("results"), "the folder's name");

	resultname_make(out, sizeof out, id, 0, RESULTNAME_TEMPORARY);
	CHECK_EQ_U64(resultname_ucs2(w, 64, RESULTNAME_DIR, out), 29, "\"results\\\\<id>.part\": 29 UCS-2 characters");
	CHECK(w[0] == 'r' && w[7] == '\\' && w[8] == '0' && w[28] == 't' && w[29] == 0,
	      "folder, backslash, leaf, NUL");
	CHECK_EQ_U64(resultname_ucs2(w, 64, 0, out), 21, "no folder: the leaf alone (SetInfo's rename)");
	CHECK(w[21] == 0 && w[0] == '0', "the leaf and its NUL");
	CHECK_EQ_U64(resultname_ucs2(w, 30, RESULTNAME_DIR, out), 29, "30 units hold 29 characters and the NUL");
	CHECK_EQ_U64(resultname_ucs2(w, 29, RESULTNAME_DIR, out), 0, "29 units do not");
	CHECK_EQ_U64(resultname_ucs2(w, 64, 0, "caf\xc3\xa9"), 0, "non-ASCII bytes are refused");
	CHECK_EQ_U64(resultname_ucs2(w, 0, 0, "x"), 0, "no room at all");
	return check_summary("resultname");
}

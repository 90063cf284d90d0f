/* tests/unit/check.h - the host unit tests' tiny harness.
 *
 *   CHECK(cond)            one check; a failure prints file:line and the condition
 *   CHECK_EQ_U64(a, b)     equality of two unsigned 64-bit values, both printed
 *   CHECK_STR(a, b)        string equality, both printed
 *   return check_summary("name");   prints "name: N passed, N failed", returns the exit code
 *
 * tests/run_unit.py runs every test binary and adds the counts up.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (cond) {                                                      \
			check_passed++;                                          \
		} else {                                                         \
			check_failed++;                                          \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);   \
		}                                                                \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                       \
	do {                                                                     \
		unsigned long long check_a = (unsigned long long)(a);            \
		unsigned long long check_b = (unsigned long long)(b);            \
		if (check_a == check_b) {                                        \
			check_passed++;                                          \
		} else {                                                         \
			check_failed++;                                          \
			printf("FAIL %s:%d: %s == %s: %llu != %llu\n", __FILE__, \
			       __LINE__, #a, #b, check_a, check_b);              \
		}                                                                \
	} while (0)

#define CHECK_STR(a, b)                                                          \
	do {                                                                     \
		const char *check_a = (a), *check_b = (b);                       \
		if (check_a && check_b && strcmp(check_a, check_b) == 0) {       \
			check_passed++;                                          \
		} else {                                                         \
			check_failed++;                                          \
			printf("FAIL %s:%d: %s == %s: \"%s\" != \"%s\"\n",       \
			       __FILE__, __LINE__, #a, #b,                       \
			       check_a ? check_a : "(null)",                     \
			       check_b ? check_b : "(null)");                    \
		}                                                                \
	} while (0)

static inline int check_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif

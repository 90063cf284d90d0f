/* tests/unit/check.h - the host unit tests' tiny harness.
 *
 *   CHECK(cond, fmt, ...)          one check
 *   CHECK_EQ_U64(a, b, fmt, ...)   equality of two unsigned 64-bit values
 *   CHECK_STR(a, b, fmt, ...)      string equality (a null pointer fails)
 *   return check_summary("name");   prints "name: N passed, N failed", returns the exit code
 *
 * Every check carries a message, a printf format (a string literal) and its
 * arguments, that says what is checked in the domain's terms, as
 * kvm-unit-tests' report(cond, fmt, ...) does. The message is mandatory: a
 * call without one does not compile (the macros have a named fmt parameter,
 * and it is pasted after "" so it must be a literal), and tests/run_unit.py
 * proves that by compiling such calls and expecting them to fail. The
 * arguments are evaluated only when the check fails. A failure prints
 *
 *   FAIL file:line: MESSAGE (cond)
 *   FAIL file:line: MESSAGE (a == b): 3 != 4
 *   FAIL file:line: MESSAGE (a == b): "x" != "y"
 *
 * tests/run_unit.py runs every test binary and adds the counts up.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

/* Counts one failure and prints "FAIL file:line: MESSAGE" (no newline). */
static inline __attribute__((format(printf, 3, 4))) void check_fail(const char *file, int line,
								    const char *fmt, ...)
{
	va_list ap;
	check_failed++;
	printf("FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

#define CHECK(cond, fmt, ...)                                                    \
	do {                                                                     \
		if (cond) {                                                      \
			check_passed++;                                          \
		} else {                                                         \
			check_fail(__FILE__, __LINE__, "" fmt, ##__VA_ARGS__);   \
			printf(" (%s)\n", #cond);                                \
		}                                                                \
	} while (0)

#define CHECK_EQ_U64(a, b, fmt, ...)                                             \
	do {                                                                     \
		unsigned long long check_a = (unsigned long long)(a);            \
		unsigned long long check_b = (unsigned long long)(b);            \
		if (check_a == check_b) {                                        \
			check_passed++;                                          \
		} else {                                                         \
			check_fail(__FILE__, __LINE__, "" fmt, ##__VA_ARGS__);   \
			printf(" (%s == %s): %llu != %llu\n", #a, #b, check_a,   \
			       check_b);                                         \
		}                                                                \
	} while (0)

#define CHECK_STR(a, b, fmt, ...)                                                \
	do {                                                                     \
		const char *check_a = (a), *check_b = (b);                       \
		if (check_a && check_b && strcmp(check_a, check_b) == 0) {       \
			check_passed++;                                          \
		} else {                                                         \
			check_fail(__FILE__, __LINE__, "" fmt, ##__VA_ARGS__);   \
			printf(" (%s == %s): \"%s\" != \"%s\"\n", #a, #b,        \
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

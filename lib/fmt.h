/* lib/fmt.h - freestanding formatted printing (a vsnprintf subset).
 *
 * Conversions: %d %i %u %x %X %s %c %p %%, with flags '-' '0', a width
 * (digits or '*'), a precision for %s (".N" or ".*") and the length
 * modifiers h, hh, l, ll, z. Anything else is copied through verbatim so that
 * a bad format is visible in the output rather than silently dropped.
 * Host-tested against the C library's snprintf (tests/unit/test_fmt.c).
 */
#ifndef LIB_FMT_H
#define LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* fmt_vformat - format into buf[0..size-1], always NUL-terminated when
 * size > 0. Returns the length the full output would have (like
 * vsnprintf), so a return >= size means truncation. Never fails. */
int fmt_vformat(char *buf, size_t size, const char *fmt, va_list ap);

/* fmt_format - fmt_vformat with a variable argument list. */
int fmt_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* fmt_milli - write value/1000 as a decimal with exactly three fraction
 * digits ("12.345") into buf; returns buf. value is in thousandths of the
 * unit. size must be >= 24. */
char *fmt_milli(char *buf, size_t size, uint64_t value);

/* fmt_escape - src[0..len-1] (or up to its NUL, if sooner) as printable
 * ASCII for one log line, into dst[0..size-1], NUL-terminated: '\\' and '"'
 * get a backslash before them; newline, carriage return and tab become \n,
 * \r and \t; every other byte below 0x20 or above 0x7E becomes \xHH (two
 * lower-case hex digits). So echoed user bytes (the command line) can
 * neither end the line nor send escape sequences to a terminal, and a '"'
 * inside a quoted echo cannot end the quotes nor start a record's text.
 * When the escaped text does not fit, as many whole escapes as fit in
 * size - 4 characters are written followed by "...". size must be >= 4.
 * Returns dst. (C11 6.4.4.4 spells these escapes the same way.) */
char *fmt_escape(char *dst, size_t size, const char *src, size_t len);

/* fmt_fit_u64 - value in at most width characters, for fixed-width
 * columns (the one-screen summary): the exact decimal when it fits, else
 * "d.dde+N" (e.g. 112285480386 in 9 -> "1.12e11"), its digits floored,
 * not rounded. Widths below 7 may be exceeded by that form (at most
 * "1.84e19", 7 characters). size must be >= 24. Returns buf. */
char *fmt_fit_u64(char *buf, size_t size, uint64_t value, int width);

/* fmt_fit_i64 - fmt_fit_u64 for a signed value: a '-' and the magnitude in
 * width - 1 characters. size must be >= 24. Returns buf. */
char *fmt_fit_i64(char *buf, size_t size, int64_t value, int width);

#endif

/* tests/unit/record_capture.h - the records that lib/record.c writes,
 * captured into one buffer for the host tests (the kernel's sink is the
 * console). record_capture_start() empties it and makes it the sink;
 * record_captured is the text so far, NUL-terminated (at most 8 KiB: more
 * is dropped, which the tests' expected strings then show). */
#ifndef TESTS_RECORD_CAPTURE_H
#define TESTS_RECORD_CAPTURE_H

#include <string.h>
#include "../../lib/record.h"

static char record_captured[8192];
static size_t record_captured_n;

static void record_capture_sink(const char *s, size_t n)
{
	if (record_captured_n + n < sizeof record_captured) {
		memcpy(record_captured + record_captured_n, s, n);
		record_captured_n += n;
		record_captured[record_captured_n] = '\0';
	}
}

static inline void record_capture_start(void)
{
	record_captured_n = 0;
	record_captured[0] = '\0';
	record_set_sink(record_capture_sink);
}

#endif

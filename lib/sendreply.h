/* lib/sendreply.h - the collector's answer to a sent log (README "Sending
 * the results"): the JSON object of its body,
 *   {"stored":"new"|"duplicate","run_id":"...","bytes":N,"crc32":"0x%08x",...}
 * or, refused, {"error":"...",...}, read for the members the kernel checks
 * (RFC 8259's object, strings without escapes but \" and \\ kept as the
 * character, numbers as decimal integers); and Content-Length's value
 * (RFC 9110 8.6). Freestanding; host-tested (tests/unit/test_sendreply.c). */
#ifndef LIB_SENDREPLY_H
#define LIB_SENDREPLY_H

#include <stddef.h>
#include <stdint.h>

#define SENDREPLY_TEXT_MAX 119 /* characters kept of "stored" and "error" */

struct sendreply {
	int has_stored;  /* 1: "stored" was a string */
	char stored[SENDREPLY_TEXT_MAX + 1];
	int has_bytes;   /* 1: "bytes" was a decimal integer below 2^63 */
	uint64_t bytes;  /* the collector's count of the body's bytes */
	int has_crc32;   /* 1: "crc32" was "0x" and 1..8 hex digits */
	uint32_t crc32;  /* the collector's CRC-32 (zlib) of the body */
	int has_error;   /* 1: "error" was a string */
	char error[SENDREPLY_TEXT_MAX + 1]; /* cut at SENDREPLY_TEXT_MAX, printable ASCII only
					     * (any other byte as '?') */
};

/* sendreply_parse - the members above of the JSON object body[0..len-1]
 * (no NUL needed): each found at the object's top level (a nested
 * object's or array's members are skipped), a later one of a name
 * winning; a member of another type leaves its has_ 0. Returns 1 when
 * body is one JSON object (white space around it allowed), 0 when not
 * (*r then holds what was read before the fault). */
int sendreply_parse(const char *body, size_t len, struct sendreply *r);

/* sendreply_content_length - a Content-Length value (NUL-terminated,
 * white space around it allowed) as a decimal count of bytes below 2^40;
 * returns 1 and *out, or 0 when it is not one. */
int sendreply_content_length(const char *value, uint64_t *out);

#endif

/* lib/cmdline.h - the one parser of the kernel command line.
 *
 * The line is whitespace-separated key=value words. Each key is described
 * by a struct cfg_key (its type, accepted range or choices and where the
 * value goes). Every problem produces one message naming the key and what
 * is accepted, and the key keeps its previous (default) value; parsing goes
 * on with the next word. Host-tested in tests/unit/test_cmdline.c and fuzzed
 * by tests/unit/fuzz_cmdline.c.
 */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include <stdint.h>

/* Longest command line read; anything beyond is reported and ignored.
 * Room for code= and init= at their largest (2 x 4096 bytes as hex). */
#define CFG_MAX_LINE 24576

enum cfg_type {
	CFG_U64,    /* decimal or 0x-hex number in [min, max] */
	CFG_CHOICE, /* one of choices[]; *value = its index */
	CFG_SET,    /* comma-separated subset of choices[] or "all"; *value = bit mask */
	CFG_TEXT,   /* any text of 1..max characters, copied NUL-terminated to
		     * (char *)value, which holds max + 1 bytes; checked by its user */
};

struct cfg_key {
	const char *name;
	enum cfg_type type;
	uint64_t min, max;          /* CFG_U64 */
	const char *const *choices; /* CFG_CHOICE, CFG_SET: NULL-terminated, at most 63 */
	uint64_t *value;
	int allow_off;              /* CFG_U64: the word "off" sets CFG_OFF */
};

/* The value of a CFG_U64 key set to "off". */
#define CFG_OFF UINT64_MAX

/* cfg_report_fn - receives one complete message line (no newline). */
typedef void (*cfg_report_fn)(void *ctx, const char *msg);

/* cfg_parse - parse line (NUL-terminated; NULL means empty) against
 * keys[0..nkeys-1]. A first word without '=' that contains '/' is taken
 * as the image path some loaders prepend and skipped. Returns the number
 * of problems reported (0: all words accepted). Never fails otherwise. */
int cfg_parse(const char *line, const struct cfg_key *keys, int nkeys,
	      cfg_report_fn report, void *ctx);

/* cfg_parse_u64 - parse s[0..len-1] as a decimal or 0x-hex number without
 * sign; returns 0 and *out on success, -1 on empty or a bad digit, -2 when
 * the number exceeds 2^64 - 1. */
int cfg_parse_u64(const char *s, int len, uint64_t *out);

#endif

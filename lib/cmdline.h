/* lib/cmdline.h - the one parser of the kernel command line.
 *
 * The line is whitespace-separated key=value words. Each key is described
 * by a struct cfg_key (its type, accepted range or choices and where the
 * value goes). Every problem produces one message naming the key and what
 * is accepted, and the key keeps its previous (default) value; parsing goes
 * on with the next word. A mistyped key or choice gets a "did you mean"
 * (the nearest known one, lib/nearest.h). A key given again overrides its earlier value:
 * normal use (GRUB's editor appends words), so it is not a problem; one
 * line at the end lists the keys given more than once. User bytes quoted in
 * a message are escaped (lib/fmt.h fmt_escape): a message is one line of
 * printable ASCII whatever the line holds. Host-tested in
 * tests/unit/test_cmdline.c and fuzzed by tests/unit/fuzz_cmdline.c.
 */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include <stdint.h>

/* Longest command line read; anything beyond is reported and ignored.
 * Room for code= and init= at their largest (2 x 4096 bytes as hex). */
#define CFG_MAX_LINE 24576
/* A line's length is counted up to this many characters (kernel/multiboot.c);
 * a longer one is reported as "at least" this long. */
#define CFG_LINE_COUNT_MAX (1u << 20)

enum cfg_type {
	CFG_U64,    /* decimal or 0x-hex number in [min, max] */
	CFG_CHOICE, /* one of choices[]; *value = its index */
	CFG_SET,    /* comma-separated subset of choices[] or "all"; *value = bit mask */
	CFG_TEXT,   /* any text of 1..max characters, copied NUL-terminated to
		     * (char *)value, which holds max + 1 bytes; checked by its user */
	CFG_CUSTOM, /* checked and stored by parse(v, len, object); on refusal the
		     * message names accepted and show(object), the value kept */
	CFG_ELSEWHERE, /* read and checked by another pass over the line (console=,
			* by kernel/console.c): taken here silently, whatever its
			* value, but listed when given more than once */
};

struct cfg_key {
	const char *name;
	enum cfg_type type;
	uint64_t min, max;          /* CFG_U64 */
	const char *const *choices; /* CFG_CHOICE, CFG_SET: NULL-terminated, at most 63 */
	uint64_t *value;
	int allow_off;              /* CFG_U64: the word "off" sets CFG_OFF */
	/* CFG_CUSTOM: parse returns 0 when v[0..len-1] is accepted (and stored
	 * in object), -1 when not; show writes the value in object, NUL-terminated,
	 * into buf[0..size-1]; accepted says what is accepted. */
	int (*parse)(const char *v, int len, void *object);
	void (*show)(char *buf, int size, const void *object);
	const char *accepted;
	void *object;
	/* Where this key's problems go instead of the line's report (NULL: the
	 * line's): console= in the kernel, whose problems are printed with the
	 * console's own line, after the console is up. */
	void (*report)(void *ctx, const char *msg);
	void *report_ctx;
	int internal;               /* 1: a test-only key, read like the others but
				     * neither listed among the known keys nor
				     * suggested for a mistyped one */
};

/* The value of a CFG_U64 key set to "off". */
#define CFG_OFF UINT64_MAX

/* The command line as the loader gave it. */
struct cfg_line {
	const char *text;   /* NUL-terminated; NULL means empty */
	uint64_t length;    /* the loader's length when text is a copy cut short
			     * (kernel/multiboot.c), else 0: text is the whole line */
	int path_first;     /* 1: the loader put the image's path first, whatever
			     * it looks like (QEMU -kernel: "PATH APPEND") */
};

/* cfg_parse_line flags. */
#define CFG_ONLY_KEYS 1 /* a pass for keys[] only: other words, an over-long
			 * line and repeated keys are not reported (the full
			 * pass does that) */

/* cfg_report_fn - receives one complete message line (no newline). */
typedef void (*cfg_report_fn)(void *ctx, const char *msg);

/* cfg_parse_line - parse line against keys[0..nkeys-1]. The first word is
 * skipped as the image's path when line->path_first, and otherwise when it
 * has no '=' but a '/' (loaders that prepend a path: iPXE, GRUB legacy;
 * GRUB 2 prepends none). Only the first CFG_MAX_LINE characters are read;
 * a word the limit cuts is dropped. Returns the number of problems
 * reported (0: all words accepted; repeated keys are not problems). Never
 * fails otherwise. */
int cfg_parse_line(const struct cfg_line *line, const struct cfg_key *keys, int nkeys, int flags,
		   cfg_report_fn report, void *ctx);

/* cfg_parse - cfg_parse_line of a whole NUL-terminated line (NULL: empty),
 * path_first 0, flags 0. */
int cfg_parse(const char *line, const struct cfg_key *keys, int nkeys,
	      cfg_report_fn report, void *ctx);

/* cfg_parse_u64 - parse s[0..len-1] as a decimal or 0x-hex number without
 * sign; returns 0 and *out on success, -1 on empty or a bad digit, -2 when
 * the number exceeds 2^64 - 1. */
int cfg_parse_u64(const char *s, int len, uint64_t *out);

#endif

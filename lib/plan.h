/* lib/plan.h - the plan file's format (README "A plan: many experiments in
 * one boot"; issue 32): plain text, one experiment a line.
 *
 *     # a comment (from '#' at the start of a line, after blanks)
 *     defaults methods=rdtscp ensembles=20 samples=1000
 *     imul_lat code=480fafc0 unroll=100
 *     chase    init=... code=... \
 *              loops=10 mem=64M
 *
 * A line is `NAME WORD...`: NAME is 1..PLAN_NAME_MAX characters of
 * [A-Za-z0-9_.-], starting with a letter or digit, never "defaults" nor,
 * in any case, "default" or "Defaults" (a misspelt defaults line); the WORDs are boot
 * parameters as on the command line (checked by the configuration,
 * kernel/config.h, not here). `defaults WORD...` (at most once, anywhere)
 * gives what every experiment shares. A line ending in '\' (after blanks
 * are stripped) continues on the next, as if the two were one line with a
 * blank between them; comment lines between continued lines are skipped,
 * a blank line ends the continuation. Blank lines and comment lines are
 * skipped; a comment line may hold any byte ('#' elsewhere is part of a
 * word). Tabs are blanks; CR before LF is dropped; a UTF-8 byte order mark
 * (EF BB BF) as the file's first bytes is skipped; any other byte below
 * 0x20 or above 0x7E is a problem (named by its line, column and value).
 * The same format in Python: tools/benchplan.py, which must agree with
 * this file message for message (tests/tools/t_plan_asm.py).
 * Host-tested in tests/unit/test_plan.c.
 */
#ifndef LIB_PLAN_H
#define LIB_PLAN_H

#include <stdint.h>
#include "cmdline.h"

#define PLAN_NAME_MAX 31
#define PLAN_EXPERIMENTS_MAX 64
/* The longest logical line (continuations joined), in characters: a
 * command line's (lib/cmdline.h CFG_MAX_LINE). */
#define PLAN_LINE_MAX CFG_MAX_LINE

struct plan_experiment {
	char name[PLAN_NAME_MAX + 1];
	int line;           /* the line number (1-based) where it starts */
	const char *words;  /* its words, single-spaced, NUL-terminated (in the
			     * text given to plan_parse); "" when none */
};

struct plan {
	int n;                       /* experiments, 0..PLAN_EXPERIMENTS_MAX */
	struct plan_experiment exp[PLAN_EXPERIMENTS_MAX];
	const char *defaults;        /* the defaults line's words, "" when none */
	int defaults_line;           /* its line number, 0 when none */
	int problems;                /* problems reported */
};

/* plan_parse - parse text[0..len-1] (modified in place: continuations
 * joined, words single-spaced; text[len] must be writable and is set to
 * NUL) into *p. Each problem is one message to report(ctx, msg), naming
 * the file (file, e.g. "plan.txt"), the line number and, where known, the
 * experiment ("plan: FILE line N: ..." or "plan: FILE line N (NAME): ...",
 * one line of printable ASCII, user bytes escaped as lib/fmt.h
 * fmt_escape does, under 320 characters): a bad name (which character, or
 * a misspelt defaults), a name given twice (and the
 * line of the first), a second defaults line, a line longer than
 * PLAN_LINE_MAX, a continuation at the end of the file, a byte that is not
 * printable ASCII, more than PLAN_EXPERIMENTS_MAX experiments, and a plan
 * with no experiment at all. Returns the number of problems (p->problems);
 * experiments with a problem are left out of p->exp. Never fails
 * otherwise; never reads beyond len. */
int plan_parse(char *text, uint64_t len, const char *file, struct plan *p, cfg_report_fn report, void *ctx);

#endif

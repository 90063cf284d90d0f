/* lib/plan.c - see plan.h. One pass over the physical lines; each logical
 * line (continuations joined) is written single-spaced back into the text
 * at or before where it was read, so the parse needs no memory of its own
 * and never writes past text[len]. */
#include "plan.h"
#include "fmt.h"

#define MSG_MAX 320
/* Characters of a user's name or file name quoted in a message. */
#define QUOTE_MAX 48

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* s[0..len-1] equals word, ignoring case (exact: case too). */
static int same(const char *s, uint64_t len, const char *word, int exact)
{
	uint64_t i = 0;
	for (; i < len && word[i]; i++)
		if (exact ? s[i] != word[i] : lower(s[i]) != lower(word[i]))
			return 0;
	return i == len && word[i] == '\0';
}

struct parser {
	const char *file;    /* escaped */
	struct plan *p;
	cfg_report_fn report;
	void *ctx;
	int seen;            /* experiment lines, with a problem or not */
	int extra;           /* experiments beyond PLAN_EXPERIMENTS_MAX */
	int extra_line;      /* the first of those: its line and name */
	char extra_name[PLAN_NAME_MAX + 1];
};

/* Report one problem: "plan: FILE line N (NAME): what" (line 0: no line;
 * name NULL: none). */
static void problem(struct parser *ps, int line, const char *name, const char *what)
{
	char msg[MSG_MAX];
	if (line && name)
		fmt_format(msg, sizeof msg, "plan: %s line %d (%s): %s", ps->file, line, name, what);
	else if (line)
		fmt_format(msg, sizeof msg, "plan: %s line %d: %s", ps->file, line, what);
	else
		fmt_format(msg, sizeof msg, "plan: %s: %s", ps->file, what);
	ps->p->problems++;
	if (ps->report)
		ps->report(ps->ctx, msg);
}

/* The logical line text[0..n-1] (single-spaced, NUL at text[n]) that began
 * on line `line`; bad: a problem was already reported for it. */
static void logical_line(struct parser *ps, char *text, uint64_t n, int line, int bad)
{
	struct plan *p = ps->p;
	char what[MSG_MAX - 64], quoted[QUOTE_MAX + 4];
	uint64_t nl = 0;
	if (n == 0)
		return;  /* a lone '\' continued onto a blank line */
	while (nl < n && text[nl] != ' ')
		nl++;
	const char *words = text + nl + (nl < n ? 1 : 0);
	int is_defaults = same(text, nl, "defaults", 1);
	fmt_escape(quoted, sizeof quoted, text, (size_t)nl);

	/* A good name is quoted in the line's later messages. */
	enum { NAME_OK, NAME_DEFAULTS, NAME_CHAR, NAME_FIRST, NAME_LONG } bad_name = NAME_OK;
	uint64_t at = 0;
	if (!is_defaults) {
		for (at = 0; at < nl && name_char(text[at]); at++)
			;
		if (same(text, nl, "defaults", 0) || same(text, nl, "default", 0))
			bad_name = NAME_DEFAULTS;
		else if (at < nl)
			bad_name = NAME_CHAR;
		else if (text[0] == '_' || text[0] == '.' || text[0] == '-')
			bad_name = NAME_FIRST;
		else if (nl > PLAN_NAME_MAX)
			bad_name = NAME_LONG;
	}
	if (bad) {  /* its bytes were reported: say nothing more of it */
		if (!is_defaults)
			ps->seen++;
		else if (!p->defaults_line)
			p->defaults_line = line;
		return;
	}
	const char *shown = (is_defaults || bad_name != NAME_OK) ? 0 : quoted;
	if (n > PLAN_LINE_MAX) {
		fmt_format(what, sizeof what,
			   "%llu characters with its continuations joined, longer than the %d a line may hold",
			   (unsigned long long)n, PLAN_LINE_MAX);
		problem(ps, line, shown, what);
		bad = 1;
	}
	if (is_defaults) {
		if (p->defaults_line) {
			fmt_format(what, sizeof what,
				   "a second defaults line (the first is line %d); a plan has at most one",
				   p->defaults_line);
			problem(ps, line, 0, what);
			return;
		}
		p->defaults_line = line;
		if (!bad)
			p->defaults = words;
		return;
	}
	ps->seen++;
	if (bad_name != NAME_OK) {
		char ch[8];
		if (bad_name == NAME_DEFAULTS)
			fmt_format(what, sizeof what,
				   "'%s' is not an experiment's name: the words every experiment shares go on one line 'defaults WORD...' (in lower case)",
				   quoted);
		else if (bad_name == NAME_CHAR && text[at] == '=')
			fmt_format(what, sizeof what,
				   "'%s' is not a name: a line is NAME WORD..., the experiment's name first (e.g. imul_lat code=480fafc0)",
				   quoted);
		else if (bad_name == NAME_CHAR)
			fmt_format(what, sizeof what,
				   "the name '%s' has '%s' at character %llu; a name is 1..%d of A-Z a-z 0-9 _ . - starting with a letter or digit",
				   quoted, fmt_escape(ch, sizeof ch, text + at, 1),
				   (unsigned long long)at + 1, PLAN_NAME_MAX);
		else if (bad_name == NAME_FIRST)
			fmt_format(what, sizeof what,
				   "the name '%s' starts with '%c'; a name is 1..%d of A-Z a-z 0-9 _ . - starting with a letter or digit",
				   quoted, text[0], PLAN_NAME_MAX);
		else
			fmt_format(what, sizeof what,
				   "the name '%s' is %llu characters, longer than the %d a name may have",
				   quoted, (unsigned long long)nl, PLAN_NAME_MAX);
		problem(ps, line, 0, what);
		return;
	}
	if (bad)
		return;
	for (int i = 0; i < p->n; i++) {
		if (same(text, nl, p->exp[i].name, 1)) {
			fmt_format(what, sizeof what,
				   "the name is given twice: line %d's experiment has it already",
				   p->exp[i].line);
			problem(ps, line, quoted, what);
			return;
		}
	}
	if (p->n == PLAN_EXPERIMENTS_MAX) {
		if (!ps->extra++) {
			ps->extra_line = line;
			for (uint64_t i = 0; i <= nl; i++)
				ps->extra_name[i] = i < nl ? text[i] : '\0';
		}
		return;
	}
	struct plan_experiment *e = &p->exp[p->n++];
	for (uint64_t i = 0; i <= nl; i++)
		e->name[i] = i < nl ? text[i] : '\0';
	e->line = line;
	e->words = words;
}

int plan_parse(char *text, uint64_t len, const char *file, struct plan *p, cfg_report_fn report,
	       void *ctx)
{
	char file_q[QUOTE_MAX + 4], what[MSG_MAX - 64];
	uint64_t flen = 0;
	while (file && file[flen] && flen < 256)
		flen++;
	fmt_escape(file_q, sizeof file_q, file ? file : "", (size_t)flen);
	struct parser ps = { .file = file_q, .p = p, .report = report, .ctx = ctx };
	p->n = 0;
	p->defaults = "";
	p->defaults_line = 0;
	p->problems = 0;

	uint64_t i = 0, w = 0;  /* read and write positions; w <= i */
	/* A UTF-8 byte order mark some editors put first is not text. */
	if (len >= 3 && (uint8_t)text[0] == 0xEF && (uint8_t)text[1] == 0xBB &&
	    (uint8_t)text[2] == 0xBF)
		i = 3;
	int ln = 0;             /* the physical line's number */
	int open = 0;           /* a logical line is open (the last part ended in '\') */
	int open_line = 0, cont_line = 0, bad = 0;
	uint64_t start = 0;     /* the open logical line's first byte (write side) */

	while (i < len) {
		ln++;
		uint64_t s = i, e;
		while (i < len && text[i] != '\n')
			i++;
		e = i;
		if (i < len)
			i++;
		if (e > s && text[e - 1] == '\r')
			e--;
		uint64_t f = s;
		while (f < e && is_blank(text[f]))
			f++;
		if (f < e && text[f] == '#')
			continue;  /* a comment, also between continued lines */
		if (f == e) {
			if (open) {  /* a blank line ends a continuation */
				text[w] = '\0';
				logical_line(&ps, text + start, w - start, open_line, bad);
				w++;
				open = 0;
			}
			continue;
		}
		int line_bad = 0;
		for (uint64_t k = f; k < e; k++) {
			uint8_t c = (uint8_t)text[k];
			if ((c < 0x20 && c != '\t') || c > 0x7E) {
				fmt_format(what, sizeof what,
					   "byte 0x%02x at column %llu is not printable ASCII (a plan is plain ASCII text)",
					   c, (unsigned long long)(k - s + 1));
				problem(&ps, ln, 0, what);
				line_bad = 1;
				break;
			}
		}
		uint64_t t = e;
		while (t > f && is_blank(text[t - 1]))
			t--;
		int cont = text[t - 1] == '\\';
		if (cont)
			t--;
		if (!open) {
			open = 1;
			open_line = ln;
			start = w;
			bad = 0;
		}
		bad |= line_bad;
		int space = w > start;
		for (uint64_t k = f; k < t; k++) {
			if (is_blank(text[k])) {
				space = 1;
				continue;
			}
			if (space && w > start)
				text[w++] = ' ';
			space = 0;
			text[w++] = text[k];
		}
		if (cont) {
			cont_line = ln;
			continue;
		}
		text[w] = '\0';
		logical_line(&ps, text + start, w - start, open_line, bad);
		w++;
		open = 0;
	}
	if (open) {
		problem(&ps, cont_line, 0,
			"the line ends in '\\' (continued) but the file ends there; remove the '\\' or add the line it continues on");
		text[w] = '\0';
		logical_line(&ps, text + start, w - start, open_line, 1);
	}
	if (ps.extra) {
		fmt_format(what, sizeof what,
			   "more than %d experiments: this one and the %d after it are left out; split the plan in two",
			   PLAN_EXPERIMENTS_MAX, ps.extra - 1);
		problem(&ps, ps.extra_line, ps.extra_name, what);
	}
	if (!ps.seen) {
		problem(&ps, 0, 0,
			"no experiment (a plan needs at least one line 'NAME WORD...'; it has only comments, blank lines or defaults)");
	}
	text[len] = '\0';
	return p->problems;
}

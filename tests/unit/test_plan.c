/* tests/unit/test_plan.c - lib/plan.c, the plan file's format: a good plan
 * (comments, blank lines, CR LF, tabs, continuations, a defaults line in
 * the middle, a byte order mark), then every class of problem with its
 * message: a bad name character ('=' when the name was forgotten, a bad
 * first character), a name too long, "defaults" misused, a name given
 * twice (naming the first line), a second defaults line, a line too long,
 * a continuation at the end of the file, a control byte and a non-ASCII
 * byte (with their columns), too many experiments, an empty plan; every
 * text given in a buffer of exactly len + 1 bytes (ASan sees a read past
 * it), and random plans whose every message must be one printable line. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "xorshift.h"
#include "../../lib/plan.h"

#define MAX_MSGS 16

static struct {
	int n;
	char msg[MAX_MSGS][400];
} got;

static void collect(void *ctx, const char *msg)
{
	CHECK(ctx == &got, "report gets its context");
	CHECK(strlen(msg) < 320, "a message is one line of bounded size (%zu)", strlen(msg));
	int printable = 1;
	for (const char *c = msg; *c; c++)
		if (*c < 0x20 || *c > 0x7E)
			printable = 0;
	CHECK(printable, "a message is printable ASCII: %s", msg);
	if (got.n < MAX_MSGS)
		snprintf(got.msg[got.n], sizeof got.msg[0], "%s", msg);
	got.n++;
}

static struct plan plan;
static char *buf;

/* Parse text[0..len-1] from a fresh buffer of exactly len + 1 bytes (the
 * last one poisoned, to see it set to NUL). */
static int parse_n(const char *text, size_t len)
{
	free(buf);
	buf = malloc(len + 1);
	memcpy(buf, text, len);
	buf[len] = 'Z';
	got.n = 0;
	int r = plan_parse(buf, len, "plan.txt", &plan, collect, &got);
	CHECK(buf[len] == '\0', "text[len] is set to NUL");
	CHECK_EQ_U64(r, plan.problems, "the return value is the problem count");
	CHECK_EQ_U64(got.n, plan.problems, "one message per problem");
	return r;
}

static int parse(const char *text)
{
	return parse_n(text, strlen(text));
}

static int msg_is(int i, const char *want)
{
	if (i >= got.n) {
		printf("  no message %d (only %d)\n", i, got.n);
		return 0;
	}
	if (strcmp(got.msg[i], want) == 0)
		return 1;
	printf("  message %d:\n    got  \"%s\"\n    want \"%s\"\n", i, got.msg[i], want);
	return 0;
}

static int msg_has(int i, const char *needle)
{
	if (i >= got.n) {
		printf("  no message %d (only %d)\n", i, got.n);
		return 0;
	}
	if (strstr(got.msg[i], needle))
		return 1;
	printf("  message %d \"%s\" lacks \"%s\"\n", i, got.msg[i], needle);
	return 0;
}

static void test_good(void)
{
	const char *text =
		"# a plan\r\n"
		"\r\n"
		"imul_lat code=480fafc0   unroll=100\r\n"
		"   # an indented comment with bytes \x01 and \xc3\xa9 in it\n"
		"\tadd.tp\tcode=4801c0 \\\n"
		"   # a comment between continued lines\n"
		"\t  unroll=50 \\  \n"
		"  loops=2\n"
		"defaults methods=rdtscp ensembles=2\n"
		"\n"
		"bare\n"
		"chase init=41 code=42 \\\n"
		"\n"
		"x-1 # not a comment: words\n"
		"9lives code=90";
	CHECK_EQ_U64(parse(text), 0, "a good plan: no problem");
	CHECK_EQ_U64(plan.n, 6, "six experiments");
	CHECK_STR(plan.exp[0].name, "imul_lat", "first experiment's name");
	CHECK_STR(plan.exp[0].words, "code=480fafc0 unroll=100", "blanks single-spaced, CR dropped");
	CHECK_EQ_U64(plan.exp[0].line, 3, "imul_lat is on line 3");
	CHECK_STR(plan.exp[1].name, "add.tp", "a tab before and after the name");
	CHECK_STR(plan.exp[1].words, "code=4801c0 unroll=50 loops=2",
		  "three lines joined over a comment, blanks after '\\' dropped");
	CHECK_EQ_U64(plan.exp[1].line, 5, "a continued line's number is its first");
	CHECK_STR(plan.exp[2].name, "bare", "a name without words");
	CHECK_STR(plan.exp[2].words, "", "no words: \"\"");
	CHECK_STR(plan.exp[3].words, "init=41 code=42", "a continuation onto a blank line ends there");
	CHECK_STR(plan.exp[4].words, "# not a comment: words", "'#' after a name is a word");
	CHECK_STR(plan.exp[5].name, "9lives", "a name may start with a digit");
	CHECK_STR(plan.exp[5].words, "code=90", "the last line without a newline");
	CHECK_STR(plan.defaults, "methods=rdtscp ensembles=2", "the defaults line's words");
	CHECK_EQ_U64(plan.defaults_line, 9, "defaults on line 9");

	CHECK_EQ_U64(parse("\xef\xbb\xbfone code=90\n"), 0, "a UTF-8 byte order mark first is skipped");
	CHECK_STR(plan.exp[0].name, "one", "the name after the byte order mark");

	CHECK_EQ_U64(parse("a\nb\n"), 0, "no defaults line");
	CHECK_STR(plan.defaults, "", "no defaults: \"\"");
	CHECK_EQ_U64(plan.defaults_line, 0, "no defaults: line 0");

	char name[PLAN_NAME_MAX + 8];
	memset(name, 'n', PLAN_NAME_MAX);
	name[PLAN_NAME_MAX] = '\0';
	CHECK_EQ_U64(parse(name), 0, "a name of exactly %d characters", PLAN_NAME_MAX);
	CHECK_STR(plan.exp[0].name, name, "the longest name kept whole");
}

static void test_names(void)
{
	CHECK_EQ_U64(parse("ok code=90\nbad!name code=90\n"), 1, "a '!' in a name");
	CHECK(msg_is(0, "plan: plan.txt line 2: the name 'bad!name' has '!' at character 4; "
			"a name is 1..31 of A-Z a-z 0-9 _ . - starting with a letter or digit"),
	      "the bad character and its place are named");
	CHECK_EQ_U64(plan.n, 1, "the line with a bad name is left out");

	CHECK_EQ_U64(parse("code=480fafc0 unroll=100\n"), 1, "a line without a name");
	CHECK(msg_is(0, "plan: plan.txt line 1: 'code=480fafc0' is not a name: a line is NAME WORD..., "
			"the experiment's name first (e.g. imul_lat code=480fafc0)"),
	      "a boot parameter where the name goes is said so");

	CHECK_EQ_U64(parse("_x code=90\n"), 1, "a name starting with '_'");
	CHECK(msg_has(0, "line 1: the name '_x' starts with '_'"), "the first character named");

	CHECK_EQ_U64(parse("a\"b\\c code=90\n"), 1, "quotes and backslashes in a name");
	CHECK(msg_has(0, "the name 'a\\\"b\\\\c' has '\\\"' at character 2"),
	      "user bytes escaped in the message");

	char line[128];
	memset(line, 'x', PLAN_NAME_MAX + 1);
	strcpy(line + PLAN_NAME_MAX + 1, " code=90\n");
	CHECK_EQ_U64(parse(line), 1, "a name of %d characters", PLAN_NAME_MAX + 1);
	CHECK(msg_has(0, "line 1: the name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is 32 characters, "
			 "longer than the 31 a name may have"),
	      "a name too long: its length and the limit");
	CHECK_EQ_U64(plan.n, 0, "the line with a long name is left out");

	CHECK_EQ_U64(parse("Defaults methods=rdtscp\nx\n"), 1, "'Defaults' in capitals");
	CHECK(msg_is(0, "plan: plan.txt line 1: 'Defaults' is not an experiment's name: the words "
			"every experiment shares go on one line 'defaults WORD...' (in lower case)"),
	      "defaults misused: what the line is for");
	CHECK_EQ_U64(parse("default methods=rdtscp\nx\n"), 1, "'default' (no s)");
	CHECK(msg_has(0, "'default' is not an experiment's name"), "the near-miss is refused");
	CHECK_EQ_U64(plan.defaults_line, 0, "a misused defaults line is not the defaults");
}

static void test_twice(void)
{
	CHECK_EQ_U64(parse("a code=90\nb\n\n\na code=91\n"), 1, "a name given twice");
	CHECK(msg_is(0, "plan: plan.txt line 5 (a): the name is given twice: line 1's experiment has it already"),
	      "the second line and the first's line are named");
	CHECK_EQ_U64(plan.n, 2, "the second one is left out");
	CHECK_STR(plan.exp[0].words, "code=90", "the first one kept");
	CHECK_EQ_U64(parse("a\nA\n"), 0, "names differing in case are two names");

	CHECK_EQ_U64(parse("defaults samples=20\nx\ndefaults samples=30\n"), 1, "a second defaults line");
	CHECK(msg_is(0, "plan: plan.txt line 3: a second defaults line (the first is line 1); a plan has at most one"),
	      "the second defaults line names the first");
	CHECK_STR(plan.defaults, "samples=20", "the first defaults line kept");
	CHECK_EQ_U64(parse("defaults\nx\n"), 0, "a defaults line without words");
	CHECK_EQ_U64(plan.defaults_line, 1, "its line");
}

static void test_long(void)
{
	size_t n = PLAN_LINE_MAX + 64;
	char *t = malloc(n + 1);
	/* "long code=" then hex to exactly PLAN_LINE_MAX characters */
	strcpy(t, "long code=");
	memset(t + 10, 'a', PLAN_LINE_MAX - 10);
	t[PLAN_LINE_MAX] = '\0';
	CHECK_EQ_U64(parse(t), 0, "a line of exactly %d characters", PLAN_LINE_MAX);
	CHECK_EQ_U64(strlen(plan.exp[0].words), PLAN_LINE_MAX - 5, "its words whole");
	t[PLAN_LINE_MAX] = 'a';
	t[PLAN_LINE_MAX + 1] = '\0';
	CHECK_EQ_U64(parse(t), 1, "a line of %d characters", PLAN_LINE_MAX + 1);
	CHECK(msg_is(0, "plan: plan.txt line 1 (long): 24577 characters with its continuations joined, "
			"longer than the 24576 a line may hold"),
	      "a line too long: its length and the limit");
	CHECK_EQ_U64(plan.n, 0, "the long line is left out");
	/* the same length reached by continuations: blanks collapse first */
	size_t k = 0;
	k += (size_t)sprintf(t + k, "x\ncont code=");
	for (int i = 0; i < 12000; i++)
		t[k++] = 'b';
	k += (size_t)sprintf(t + k, "    \\\n     init=");
	for (int i = 0; i < 12561; i++)
		t[k++] = 'c';
	t[k] = '\0';
	CHECK(k < n, "the test's text fits its buffer");
	CHECK_EQ_U64(parse(t), 1, "continued lines longer together than %d", PLAN_LINE_MAX);
	CHECK(msg_has(0, "line 2 (cont): 24577 characters"), "the joined length, counted single-spaced");
	free(t);
}

static void test_eof(void)
{
	CHECK_EQ_U64(parse("a code=90\nb code=91 \\\n"), 1, "a continuation at the end of the file");
	CHECK(msg_is(0, "plan: plan.txt line 2: the line ends in '\\' (continued) but the file ends there; "
			"remove the '\\' or add the line it continues on"),
	      "the continued line is named");
	CHECK_EQ_U64(plan.n, 1, "the unfinished experiment is left out");
	CHECK_EQ_U64(parse("a code=90 \\\n# only a comment follows\n"), 1,
		     "a continuation over a last comment line");
	CHECK(msg_has(0, "line 1: the line ends in '\\'"), "the line with the '\\'");
	CHECK_EQ_U64(parse("a \\"), 1, "a '\\' as the very last byte");
	CHECK_EQ_U64(parse("x\n\\\n\n"), 0, "a lone '\\' continued onto a blank line");
	CHECK_EQ_U64(plan.n, 1, "is no experiment");
}

static void test_bytes(void)
{
	CHECK_EQ_U64(parse("a code=90\nb code=9\a0\n"), 1, "a control byte");
	CHECK(msg_is(0, "plan: plan.txt line 2: byte 0x07 at column 9 is not printable ASCII (a plan is plain ASCII text)"),
	      "the byte's value and column");
	CHECK_EQ_U64(plan.n, 1, "the line with the byte is left out");
	CHECK_EQ_U64(parse("caf\xc3\xa9 code=90\n"), 1, "a non-ASCII byte in a name");
	CHECK(msg_has(0, "line 1: byte 0xc3 at column 4"), "only the byte is reported, not the name too");
	CHECK_EQ_U64(parse("a code=90\rb\n"), 1, "a CR not before LF");
	CHECK(msg_has(0, "byte 0x0d at column 10"), "a lone CR is a control byte");
	CHECK_EQ_U64(parse_n("a co\0de=90\n", 11), 1, "a NUL byte");
	CHECK(msg_has(0, "byte 0x00 at column 5"), "NUL named by its column");
	CHECK_EQ_U64(parse("a \x7f\n\t\x80\x81 \n"), 2, "one problem per line");
	CHECK(msg_has(0, "line 1: byte 0x7f at column 3") && msg_has(1, "line 2: byte 0x80 at column 2"),
	      "each line's first bad byte, columns counting a tab as one");
	CHECK_EQ_U64(parse("\xef\xbb" "a\n"), 1, "half a byte order mark");
	CHECK(msg_has(0, "byte 0xef at column 1"), "is a non-ASCII byte");
}

static void test_many(void)
{
	char *t = malloc(PLAN_EXPERIMENTS_MAX * 16 + 256);
	size_t n = 0;
	n += (size_t)sprintf(t + n, "defaults samples=20\n");
	for (int i = 0; i < PLAN_EXPERIMENTS_MAX; i++)
		n += (size_t)sprintf(t + n, "e%d code=90\n", i);
	CHECK_EQ_U64(parse(t), 0, "exactly %d experiments", PLAN_EXPERIMENTS_MAX);
	CHECK_EQ_U64(plan.n, PLAN_EXPERIMENTS_MAX, "all kept");
	CHECK_STR(plan.exp[PLAN_EXPERIMENTS_MAX - 1].name, "e63", "the last one's name");
	for (int i = PLAN_EXPERIMENTS_MAX; i < PLAN_EXPERIMENTS_MAX + 3; i++)
		n += (size_t)sprintf(t + n, "e%d code=90\n", i);
	CHECK_EQ_U64(parse(t), 1, "%d experiments", PLAN_EXPERIMENTS_MAX + 3);
	CHECK(msg_is(0, "plan: plan.txt line 66 (e64): more than 64 experiments: this one and the 2 after it "
			"are left out; split the plan in two"),
	      "one message naming the first left out and how many follow");
	CHECK_EQ_U64(plan.n, PLAN_EXPERIMENTS_MAX, "the first %d kept", PLAN_EXPERIMENTS_MAX);
	free(t);
}

static void test_empty(void)
{
	const char *empty = "plan: plan.txt: no experiment (a plan needs at least one line 'NAME WORD...'; "
			    "it has only comments, blank lines or defaults)";
	CHECK_EQ_U64(parse(""), 1, "an empty file");
	CHECK(msg_is(0, empty), "an empty plan is said so");
	CHECK_EQ_U64(parse("# nothing\n\n   \n\t\r\n"), 1, "only comments and blank lines");
	CHECK(msg_is(0, empty), "no experiment");
	CHECK_EQ_U64(parse("defaults samples=20\n"), 1, "only a defaults line");
	CHECK(msg_is(0, empty), "defaults alone are no experiment");
	CHECK_EQ_U64(parse("bad! x\n"), 1, "an experiment with a problem is still an experiment line");
	CHECK(msg_has(0, "'bad!'"), "only the bad name is reported, not an empty plan");

	got.n = 0;
	char one[1] = { 'Z' };
	CHECK_EQ_U64(plan_parse(one, 0, "p", &plan, 0, 0), 1, "no report function: still counted");
	CHECK(one[0] == '\0', "text[0] set to NUL for len 0");

	char file[200];
	memset(file, 'f', sizeof file - 1);
	file[sizeof file - 1] = '\0';
	file[3] = '\n';
	parse_n("", 0);
	free(buf);
	buf = malloc(1);
	got.n = 0;
	plan_parse(buf, 0, file, &plan, collect, &got);
	CHECK(got.n == 1 && strstr(got.msg[0], "fff\\nfff") && strstr(got.msg[0], "...:"),
	      "a file name escaped and cut short: %s", got.n ? got.msg[0] : "");
}

/* Random plans: bytes from a small alphabet heavy in the format's own
 * characters; every message one printable line, every experiment's name
 * valid and its words single-spaced printable ASCII. */
static void test_random(void)
{
	static const char alphabet[] = "ab=_.-# \t\\\r\n\n\n\x01\x80 defaults";
	int bad = 0;
	for (int round = 0; round < 20000; round++) {
		size_t n = next() % 200;
		char t[256];
		for (size_t i = 0; i < n; i++)
			t[i] = (next() % 97 == 0) ? (char)next() : alphabet[next() % (sizeof alphabet - 1)];
		parse_n(t, n);
		for (int i = 0; i < plan.n; i++) {
			const char *w = plan.exp[i].words;
			if (!plan.exp[i].name[0] || strlen(plan.exp[i].name) > PLAN_NAME_MAX ||
			    w[0] == ' ' || (w[0] && w[strlen(w) - 1] == ' ') || strstr(w, "  "))
				bad++;
			for (const char *c = w; *c; c++)
				if (*c < 0x21 && *c != ' ')
					bad++;
			if (w < buf || w > buf + n)
				bad++;
		}
	}
	CHECK_EQ_U64(bad, 0, "random plans: names valid, words single-spaced inside the text");
}

int main(void)
{
	test_good();
	test_names();
	test_twice();
	test_long();
	test_eof();
	test_bytes();
	test_many();
	test_empty();
	test_random();
	free(buf);
	return check_summary("test_plan");
}

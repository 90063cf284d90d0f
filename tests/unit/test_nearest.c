/* tests/unit/test_nearest.c - lib/nearest.c: the distance (insertions,
 * deletions, substitutions, adjacent swaps; symmetric; bounded length) and
 * the nearest word: the typos find their word, unrelated words find
 * none, exact matches, prefixes, ties, NULL entries and counted lists. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/nearest.h"

static int dist(const char *a, const char *b)
{
	return nearest_distance(a, (int)strlen(a), b, (int)strlen(b));
}

static int near(const char *s, const char *const *words)
{
	return nearest_word(s, (int)strlen(s), words, -1);
}

static void test_distance(void)
{
	static const struct { const char *a, *b; int d; } cases[] = {
		{ "", "", 0 },           { "abc", "abc", 0 },      { "", "abc", 3 },
		{ "ensemble", "ensembles", 1 }, /* an insertion */
		{ "samples", "sample", 1 },     /* a deletion */
		{ "sumary", "summary", 1 },     { "rdtsc", "rdtscp", 1 },
		{ "sampels", "samples", 1 },    /* a swap of two neighbours: one step */
		{ "ab", "ba", 1 },              { "abc", "cba", 2 },
		{ "kitten", "sitting", 3 },     /* Levenshtein's classic */
		{ "xml", "full", 3 },           { "al", "all", 1 },
		{ "ca", "abc", 3 },             /* the restricted swap: no edit after it */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_EQ_U64(dist(cases[i].a, cases[i].b), cases[i].d, "distance %s - %s", cases[i].a, cases[i].b);
		CHECK_EQ_U64(dist(cases[i].b, cases[i].a), cases[i].d, "distance %s - %s (symmetric)",
			     cases[i].b, cases[i].a);
	}
	char longw[NEAREST_MAX + 2];
	memset(longw, 'a', sizeof longw);
	CHECK_EQ_U64(nearest_distance(longw, NEAREST_MAX, longw, NEAREST_MAX), 0,
		     "the longest word compared: equal to itself");
	CHECK_EQ_U64(nearest_distance(longw, NEAREST_MAX + 1, longw, NEAREST_MAX + 1), NEAREST_MAX + 1,
		     "a word longer than NEAREST_MAX: never near");
	CHECK_EQ_U64(nearest_distance("a", -1, "a", 1), NEAREST_MAX + 1, "a negative length: never near");
}

static void test_words(void)
{
	static const char *const keys[] = { "ensembles", "samples", "warmup", "methods", "output",
					    "workloads", "cpus", "resolution", 0 };
	static const char *const methods[] = { "cpuid", "rdtscp", "cr0", "lfence_rdtscp", "lfence", 0 };
	static const char *const outputs[] = { "human", "json", "both", "full", "summary", 0 };
	static const char *const cpus[] = { "boot", "all", "p", "e", "one-per-core", 0 };
	CHECK_EQ_U64(near("ensemble", keys), 0, "ensemble -> ensembles");
	CHECK_EQ_U64(near("sampels", keys), 1, "sampels -> samples");
	CHECK_EQ_U64(near("wrkloads", keys), 5, "wrkloads -> workloads");
	CHECK_EQ_U64(near("cpu", keys), 6, "cpu -> cpus");
	CHECK_EQ_U64(near("resol", keys), 7, "resol -> resolution (a prefix of 5)");
	CHECK_EQ_U64(near("rdtsc", methods), 1, "rdtsc -> rdtscp");
	CHECK_EQ_U64(near("lfence_rdtsc", methods), 3, "lfence_rdtsc -> lfence_rdtscp");
	CHECK_EQ_U64(near("sumary", outputs), 4, "sumary -> summary");
	CHECK_EQ_U64(near("sum", outputs), 4, "sum -> summary (a prefix of 3)");
	CHECK_EQ_U64(near("al", cpus), 1, "al -> all");
	CHECK_EQ_U64(near("one-per-cor", cpus), 4, "one-per-cor -> one-per-core");
	CHECK_EQ_U64(near("output", keys), 4, "an exact match: its index");
	CHECK_EQ_U64(near("xml", outputs), (uint64_t)-1, "xml: nothing near");
	CHECK_EQ_U64(near("bogus", keys), (uint64_t)-1, "bogus: nothing near");
	CHECK_EQ_U64(near("x", cpus), (uint64_t)-1, "x: not p or e (one letter of one is too far)");
	CHECK_EQ_U64(near("", cpus), (uint64_t)-1, "the empty word: nothing near");
	CHECK_EQ_U64(near("bo", cpus), (uint64_t)-1, "bo: a prefix of 2 is not enough, and 2 steps from boot");
	static const char *const tie[] = { "cat", "car", 0 };
	CHECK_EQ_U64(near("caq", tie), 0, "a tie: the first word");
	static const char *const holes[] = { 0, "samples", 0, "ensembles" };
	CHECK_EQ_U64(nearest_word("ensemble", 8, holes, 4), 3, "a counted list: NULL entries skipped");
	CHECK_EQ_U64(nearest_word("sampels", 7, holes, 1), (uint64_t)-1, "a counted list: only the first n");
}

int main(void)
{
	test_distance();
	test_words();
	return check_summary("test_nearest");
}

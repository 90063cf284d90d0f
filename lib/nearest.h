/* lib/nearest.h - "did you mean": the known word nearest a mistyped one,
 * for the command line's messages (lib/cmdline.c keys and values, lib/cpus.c
 * cpus= words). The distance is the optimal string alignment distance
 * (Levenshtein's insertions, deletions and substitutions, plus the swap of
 * two adjacent characters: "sampels" is one step from "samples"; Damerau,
 * "A technique for computer detection and correction of spelling errors",
 * CACM 7(3), 1964). Freestanding, no allocation; host-tested
 * (tests/unit/test_nearest.c). */
#ifndef LIB_NEAREST_H
#define LIB_NEAREST_H

/* Longest word compared; longer ones are never near anything. */
#define NEAREST_MAX 48

/* nearest_distance - the distance between a[0..alen-1] and b[0..blen-1]:
 * 0..NEAREST_MAX, or NEAREST_MAX + 1 when either is longer than
 * NEAREST_MAX characters. Case counts ('A' is not 'a'). */
int nearest_distance(const char *a, int alen, const char *b, int blen);

/* nearest_word - the index in words[0..] (NULL-terminated; or the first n
 * when n >= 0) of the word nearest s[0..len-1], or -1 when none is near
 * enough to be a likely typo: a distance d with 3 d <= the longer word's
 * length + 1 and d <= 3 (so "al" suggests "all", "e" does not suggest "p",
 * "xml" not "full"), or s a prefix of the word of at least 3 characters
 * ("sum" -> "summary"). An exact match is distance 0 (its index). Ties go to
 * the first word; NULL entries are skipped when n >= 0. */
int nearest_word(const char *s, int len, const char *const *words, int n);

#endif

/* lib/nearest.c - see nearest.h. */
#include "nearest.h"

static int length(const char *s)
{
	int n = 0;
	while (s[n])
		n++;
	return n;
}

static int min2(int a, int b)
{
	return a < b ? a : b;
}

int nearest_distance(const char *a, int alen, const char *b, int blen)
{
	/* Three rows of the dynamic-programming table: the one two back is
	 * what a swap of two adjacent characters needs. */
	int back[NEAREST_MAX + 1], prev[NEAREST_MAX + 1], cur[NEAREST_MAX + 1];
	if (alen > NEAREST_MAX || blen > NEAREST_MAX || alen < 0 || blen < 0)
		return NEAREST_MAX + 1;
	for (int j = 0; j <= blen; j++)
		prev[j] = back[j] = j;
	for (int i = 1; i <= alen; i++) {
		cur[0] = i;
		for (int j = 1; j <= blen; j++) {
			int cost = a[i - 1] != b[j - 1];
			int d = min2(min2(prev[j] + 1, cur[j - 1] + 1), prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				d = min2(d, back[j - 2] + 1);
			cur[j] = d;
		}
		for (int j = 0; j <= blen; j++) {
			back[j] = prev[j];
			prev[j] = cur[j];
		}
	}
	return prev[blen];
}

/* Whether s[0..len-1] (at least 3 characters) begins word. */
static int is_prefix(const char *s, int len, const char *word, int wlen)
{
	if (len < 3 || len >= wlen)
		return 0;
	for (int i = 0; i < len; i++)
		if (s[i] != word[i])
			return 0;
	return 1;
}

int nearest_word(const char *s, int len, const char *const *words, int n)
{
	int best = -1, best_d = NEAREST_MAX + 2;
	for (int i = 0; n >= 0 ? i < n : words[i] != 0; i++) {
		if (!words[i])
			continue;
		int wlen = length(words[i]);
		int d = nearest_distance(s, len, words[i], wlen);
		int longer = len > wlen ? len : wlen;
		int near = 3 * d <= longer + 1 && d <= 3;
		if (is_prefix(s, len, words[i], wlen))
			near = 1; /* d is then wlen - len */
		if (near && d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return best;
}

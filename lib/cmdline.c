/* lib/cmdline.c - see cmdline.h. */
#include "cmdline.h"
#include "fmt.h"
#include "nearest.h"

#define MSG_MAX 320

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int word_eq(const char *s, int len, const char *word)
{
	int i = 0;
	for (; i < len; i++)
		if (word[i] != s[i])
			return 0;
	return word[i] == '\0';
}

int cfg_parse_u64(const char *s, int len, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	int i = 0;
	if (len >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= len)
		return -1;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -2;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

static int length(const char *s)
{
	int n = 0;
	while (s[n])
		n++;
	return n;
}

/* Append choices[] to msg as "a b c". */
static void list_choices(char *msg, int size, const char *const *choices)
{
	int len = length(msg);
	for (int i = 0; choices[i] && len < size - 1; i++)
		len += fmt_format(msg + len, (size_t)(size - len), "%s%s",
				  i ? " " : "", choices[i]);
}

static void say(cfg_report_fn report, void *ctx, const char *msg)
{
	if (report)
		report(ctx, msg);
}

static int find_choice(const char *const *choices, const char *s, int len)
{
	for (int i = 0; choices[i]; i++)
		if (word_eq(s, len, choices[i]))
			return i;
	return -1;
}

/* " (did you mean WORD?)" when choices[] has a word near s[0..len-1]
 * (lib/nearest.h), else "": into buf[0..size-1]. */
static const char *suggest(char *buf, int size, const char *s, int len, const char *const *choices)
{
	int c = nearest_word(s, len, choices, -1);
	buf[0] = '\0';
	if (c >= 0)
		fmt_format(buf, (size_t)size, " (did you mean %s?)", choices[c]);
	return buf;
}

/* The first 40 bytes of s[0..len-1], escaped, with "..." when cut. */
#define SHOWN 44
static const char *shown(char *buf, const char *s, int len)
{
	return fmt_escape(buf, SHOWN, s, (size_t)len);
}

/* Parse one value for key k; 0 on success, -1 after reporting. */
static int parse_value(const struct cfg_key *k, const char *v, int vlen,
		       cfg_report_fn report, void *ctx)
{
	char msg[MSG_MAX], sv[SHOWN], dym[80];
	uint64_t x;

	if (k->type == CFG_ELSEWHERE)
		return 0;
	shown(sv, v, vlen);
	if (vlen == 0) {
		fmt_format(msg, sizeof msg, "config: %s= has an empty value; ", k->name);
	} else if (k->type == CFG_TEXT) {
		if ((uint64_t)vlen <= k->max) {
			char *dst = (char *)k->value;
			for (int i = 0; i < vlen; i++)
				dst[i] = v[i];
			dst[vlen] = '\0';
			return 0;
		}
		fmt_format(msg, sizeof msg, "config: %s=%s is longer than %llu characters; ",
			   k->name, sv, (unsigned long long)k->max);
	} else if (k->type == CFG_CUSTOM) {
		if (k->parse(v, vlen, k->object) == 0)
			return 0;
		fmt_format(msg, sizeof msg, "config: %s=%s is not an accepted value; ", k->name, sv);
	} else if (k->type == CFG_U64) {
		if (k->allow_off && word_eq(v, vlen, "off")) {
			*k->value = CFG_OFF;
			return 0;
		}
		if (cfg_parse_u64(v, vlen, &x) == 0 && x >= k->min && x <= k->max) {
			*k->value = x;
			return 0;
		}
		static const char *const off[] = { "off", 0 };
		fmt_format(msg, sizeof msg, "config: %s=%s is %s%s; ", k->name, sv,
			   cfg_parse_u64(v, vlen, &x) == -1 ? "not a number" : "out of range",
			   k->allow_off ? suggest(dym, sizeof dym, v, vlen, off) : "");
	} else if (k->type == CFG_CHOICE) {
		int c = find_choice(k->choices, v, vlen);
		if (c >= 0) {
			*k->value = (uint64_t)c;
			return 0;
		}
		fmt_format(msg, sizeof msg, "config: %s=%s is not an accepted value%s; ", k->name, sv,
			   suggest(dym, sizeof dym, v, vlen, k->choices));
	} else {
		uint64_t mask = 0;
		int bad = 0, i = 0;
		dym[0] = '\0';
		if (word_eq(v, vlen, "all")) {
			for (int c = 0; k->choices[c]; c++)
				mask |= 1ull << c;
		} else {
			while (i <= vlen) {
				int j = i;
				while (j < vlen && v[j] != ',')
					j++;
				int c = find_choice(k->choices, v + i, j - i);
				int near = c < 0 && !bad ? nearest_word(v + i, j - i, k->choices, -1) : -1;
				if (near >= 0) { /* the first unknown item's suggestion */
					char item[SHOWN];
					fmt_format(dym, sizeof dym, " (%s: did you mean %s?)",
						   shown(item, v + i, j - i), k->choices[near]);
				}
				if (c < 0)
					bad = 1;
				else
					mask |= 1ull << c;
				i = j + 1;
			}
		}
		if (!bad && mask) {
			*k->value = mask;
			return 0;
		}
		fmt_format(msg, sizeof msg, "config: %s=%s names an unknown item%s; ", k->name, sv, dym);
	}

	/* What is accepted, and what is kept. */
	int len = length(msg);
	if (k->type == CFG_TEXT) {
		const char *kept = (const char *)k->value;
		char ek[SHOWN];
		fmt_format(msg + len, sizeof msg - (size_t)len, "keeping \"%s\"",
			   fmt_escape(ek, sizeof ek, kept, (size_t)length(kept)));
	} else if (k->type == CFG_CUSTOM) {
		char kept[48];
		k->show(kept, sizeof kept, k->object);
		fmt_format(msg + len, sizeof msg - (size_t)len, "accepted: %s; keeping %s",
			   k->accepted, kept);
	} else if (k->type == CFG_U64 && *k->value == CFG_OFF && k->allow_off) {
		fmt_format(msg + len, sizeof msg - (size_t)len, "accepted: %llu..%llu or off; keeping off",
			   (unsigned long long)k->min, (unsigned long long)k->max);
	} else if (k->type == CFG_U64) {
		fmt_format(msg + len, sizeof msg - (size_t)len,
			   "accepted: %llu..%llu%s; keeping %llu", (unsigned long long)k->min,
			   (unsigned long long)k->max, k->allow_off ? " or off" : "",
			   (unsigned long long)*k->value);
	} else if (k->type == CFG_CHOICE) {
		fmt_format(msg + len, sizeof msg - (size_t)len, "accepted: ");
		list_choices(msg, sizeof msg, k->choices);
		len = length(msg);
		fmt_format(msg + len, sizeof msg - (size_t)len, "; keeping %s",
			   k->choices[*k->value]);
	} else {
		fmt_format(msg + len, sizeof msg - (size_t)len,
			   "accepted: all, or a comma-separated list of: ");
		list_choices(msg, sizeof msg, k->choices);
		len = length(msg);
		fmt_format(msg + len, sizeof msg - (size_t)len, "; keeping the previous set");
	}
	if (k->report)
		say(k->report, k->report_ctx, msg);
	else
		say(report, ctx, msg);
	return -1;
}

/* How much of line is read: the first CFG_MAX_LINE characters, less a word
 * the limit cuts. Reports an over-long line (its true length: the larger
 * of what line holds and the loader's length) unless quiet. */
static int extent(const struct cfg_line *ln, int quiet, cfg_report_fn report, void *ctx,
		  int *problems)
{
	const char *line = ln->text;
	char msg[MSG_MAX], sv[SHOWN];
	int len = 0;
	while (line[len] && len < CFG_MAX_LINE)
		len++;
	if (!line[len])
		return len;
	uint64_t total = (uint64_t)len;
	while (line[total])
		total++;
	if (ln->length > total)
		total = ln->length;
	/* A word the limit cuts in two is dropped, not read short. */
	int cut = len;
	if (!is_space(line[len]))
		while (cut > 0 && !is_space(line[cut - 1]))
			cut--;
	if (!quiet) {
		fmt_format(msg, sizeof msg,
			   "config: the command line has %s%llu characters; only the first %d are read%s%s%s",
			   total >= CFG_LINE_COUNT_MAX ? "at least " : "", (unsigned long long)total,
			   CFG_MAX_LINE, cut < len ? ", and the word cut there ('" : "",
			   cut < len ? shown(sv, line + cut, len - cut) : "",
			   cut < len ? "') is ignored" : "");
		say(report, ctx, msg);
		(*problems)++;
	}
	return cut;
}

/* suggest() among the keys a user is told of (not the internal ones). */
static const char *suggest_key(char *buf, int size, const char *s, int len, const struct cfg_key *keys,
			       int nkeys)
{
	const char *names[128 + 1];
	int n = 0;
	for (int k = 0; k < nkeys && n < 128; k++)
		if (!keys[k].internal)
			names[n++] = keys[k].name;
	names[n] = 0;
	return suggest(buf, size, s, len, names);
}

int cfg_parse_line(const struct cfg_line *ln, const struct cfg_key *keys, int nkeys, int flags,
		   cfg_report_fn report, void *ctx)
{
	char msg[MSG_MAX], sv[SHOWN], dym[80];
	const int quiet = flags & CFG_ONLY_KEYS;
	int problems = 0, first = 1;
	uint64_t seen = 0, again = 0; /* bit i: keys[i] given, given again (first 64 keys) */

	if (!ln || !ln->text)
		return 0;
	const char *line = ln->text;
	const int len = extent(ln, quiet, report, ctx, &problems);

	int i = 0;
	while (i < len) {
		while (i < len && is_space(line[i]))
			i++;
		if (i >= len)
			break;
		const char *w = line + i;
		int wlen = 0;
		while (i < len && !is_space(line[i])) {
			i++;
			wlen++;
		}
		int eq = 0;
		while (eq < wlen && w[eq] != '=')
			eq++;
		const int was_first = first;
		first = 0;

		if (was_first && ln->path_first)
			continue; /* the image's path, as the loader put it */
		if (eq == wlen) {
			int has_slash = 0;
			for (int c = 0; c < wlen; c++)
				has_slash |= w[c] == '/';
			if (was_first && has_slash)
				continue; /* the image path some multiboot1 loaders prepend */
			if (quiet)
				continue;
			fmt_format(msg, sizeof msg,
				   "config: '%s' is not of the form key=value; ignored", shown(sv, w, wlen));
			say(report, ctx, msg);
			problems++;
			continue;
		}

		int k;
		for (k = 0; k < nkeys; k++)
			if (word_eq(w, eq, keys[k].name))
				break;
		if (k == nkeys) {
			if (quiet)
				continue;
			fmt_format(msg, sizeof msg, "config: unknown key '%s'%s; known keys:",
				   shown(sv, w, eq), suggest_key(dym, sizeof dym, w, eq, keys, nkeys));
			int ml = length(msg);
			for (int c = 0; c < nkeys && ml < MSG_MAX - 1; c++)
				if (!keys[c].internal)
					ml += fmt_format(msg + ml, sizeof msg - (size_t)ml, " %s",
							 keys[c].name);
			if (ml < MSG_MAX - 1)
				fmt_format(msg + ml, sizeof msg - (size_t)ml, "; ignored");
			say(report, ctx, msg);
			problems++;
			continue;
		}
		if (k < 64) {
			again |= seen & (1ull << k);
			seen |= 1ull << k;
		}
		if (parse_value(&keys[k], w + eq + 1, wlen - eq - 1, report, ctx))
			problems++;
	}

	/* Repeated keys: one note, not a problem. */
	if (again && !quiet) {
		int ml = fmt_format(msg, sizeof msg,
				    "config: given more than once (the last valid value is used):");
		for (int k = 0, n = 0; k < nkeys && k < 64 && ml < MSG_MAX - 1; k++)
			if ((again >> k) & 1)
				ml += fmt_format(msg + ml, sizeof msg - (size_t)ml, "%s %s",
						 n++ ? "," : "", keys[k].name);
		say(report, ctx, msg);
	}
	return problems;
}

int cfg_parse(const char *line, const struct cfg_key *keys, int nkeys,
	      cfg_report_fn report, void *ctx)
{
	const struct cfg_line ln = { .text = line, .length = 0, .path_first = 0 };
	return cfg_parse_line(&ln, keys, nkeys, 0, report, ctx);
}

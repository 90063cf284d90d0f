/* lib/cmdline.c - see cmdline.h. */
#include "cmdline.h"
#include "fmt.h"

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

/* Append choices[] to msg as "a b c". */
static void list_choices(char *msg, int size, const char *const *choices)
{
	int len = 0;
	while (msg[len])
		len++;
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

/* Parse one value for key k; 0 on success, -1 after reporting. */
static int parse_value(const struct cfg_key *k, const char *v, int vlen,
		       cfg_report_fn report, void *ctx)
{
	char msg[MSG_MAX];
	const int shown = vlen > 40 ? 40 : vlen;
	const char *more = vlen > 40 ? "..." : "";
	uint64_t x;

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
		fmt_format(msg, sizeof msg, "config: %s=%.*s%s is longer than %llu characters; ",
			   k->name, shown, v, more, (unsigned long long)k->max);
	} else if (k->type == CFG_U64) {
		if (k->allow_off && word_eq(v, vlen, "off")) {
			*k->value = CFG_OFF;
			return 0;
		}
		if (cfg_parse_u64(v, vlen, &x) == 0 && x >= k->min && x <= k->max) {
			*k->value = x;
			return 0;
		}
		fmt_format(msg, sizeof msg, "config: %s=%.*s%s is %s; ", k->name, shown, v,
			   more, cfg_parse_u64(v, vlen, &x) == -1 ? "not a number" : "out of range");
	} else if (k->type == CFG_CHOICE) {
		int c = find_choice(k->choices, v, vlen);
		if (c >= 0) {
			*k->value = (uint64_t)c;
			return 0;
		}
		fmt_format(msg, sizeof msg, "config: %s=%.*s%s is not an accepted value; ",
			   k->name, shown, v, more);
	} else {
		uint64_t mask = 0;
		int bad = 0, i = 0;
		if (word_eq(v, vlen, "all")) {
			for (int c = 0; k->choices[c]; c++)
				mask |= 1ull << c;
		} else {
			while (i <= vlen) {
				int j = i;
				while (j < vlen && v[j] != ',')
					j++;
				int c = find_choice(k->choices, v + i, j - i);
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
		fmt_format(msg, sizeof msg, "config: %s=%.*s%s names an unknown item; ",
			   k->name, shown, v, more);
	}

	/* What is accepted, and what is kept. */
	int len = 0;
	while (msg[len])
		len++;
	if (k->type == CFG_TEXT) {
		fmt_format(msg + len, sizeof msg - (size_t)len, "keeping \"%s\"", (const char *)k->value);
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
		len = 0;
		while (msg[len])
			len++;
		fmt_format(msg + len, sizeof msg - (size_t)len, "; keeping %s",
			   k->choices[*k->value]);
	} else {
		fmt_format(msg + len, sizeof msg - (size_t)len,
			   "accepted: all, or a comma-separated list of: ");
		list_choices(msg, sizeof msg, k->choices);
		len = 0;
		while (msg[len])
			len++;
		fmt_format(msg + len, sizeof msg - (size_t)len, "; keeping the previous set");
	}
	say(report, ctx, msg);
	return -1;
}

int cfg_parse(const char *line, const struct cfg_key *keys, int nkeys,
	      cfg_report_fn report, void *ctx)
{
	char msg[MSG_MAX];
	int problems = 0, len = 0, first = 1;
	uint64_t seen = 0; /* bit i: keys[i] already given (first 64 keys) */

	if (!line)
		return 0;
	while (line[len] && len < CFG_MAX_LINE)
		len++;
	if (line[len]) {
		int total = len;
		while (line[total])
			total++;
		/* A word the limit cuts in two is dropped, not read short. */
		int cut = len;
		if (!is_space(line[len]))
			while (cut > 0 && !is_space(line[cut - 1]))
				cut--;
		fmt_format(msg, sizeof msg,
			   "config: the command line has %d characters; only the first %d are read%s%.*s%s",
			   total, CFG_MAX_LINE, cut < len ? ", and the word cut there ('" : "",
			   cut < len ? (len - cut > 40 ? 40 : len - cut) : 0, line + cut,
			   cut < len ? "...') is ignored" : "");
		say(report, ctx, msg);
		problems++;
		len = cut;
	}

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
		const int shown = wlen > 40 ? 40 : wlen;
		const char *more = wlen > 40 ? "..." : "";

		if (eq == wlen) {
			int has_slash = 0;
			for (int c = 0; c < wlen; c++)
				has_slash |= w[c] == '/';
			if (first && has_slash) {
				first = 0;
				continue; /* the image path a multiboot1 loader prepends */
			}
			first = 0;
			fmt_format(msg, sizeof msg,
				   "config: '%.*s%s' is not of the form key=value; ignored",
				   shown, w, more);
			say(report, ctx, msg);
			problems++;
			continue;
		}
		first = 0;

		int k;
		for (k = 0; k < nkeys; k++)
			if (word_eq(w, eq, keys[k].name))
				break;
		if (k == nkeys) {
			fmt_format(msg, sizeof msg, "config: unknown key '%.*s%s'; known keys:",
				   eq > 40 ? 40 : eq, w, eq > 40 ? "..." : "");
			int ml = 0;
			while (msg[ml])
				ml++;
			for (int c = 0; c < nkeys && ml < MSG_MAX - 1; c++)
				ml += fmt_format(msg + ml, sizeof msg - (size_t)ml, " %s",
						 keys[c].name);
			if (ml < MSG_MAX - 1)
				fmt_format(msg + ml, sizeof msg - (size_t)ml, "; ignored");
			say(report, ctx, msg);
			problems++;
			continue;
		}
		if (k < 64 && (seen >> k) & 1) {
			fmt_format(msg, sizeof msg,
				   "config: key '%s' given more than once; the last valid value is used",
				   keys[k].name);
			say(report, ctx, msg);
			problems++;
		}
		if (k < 64)
			seen |= 1ull << k;
		if (parse_value(&keys[k], w + eq + 1, wlen - eq - 1, report, ctx))
			problems++;
		(void)shown;
		(void)more;
	}
	return problems;
}

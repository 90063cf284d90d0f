/* lib/sendreply.c - see sendreply.h. */
#include "sendreply.h"
#include "hex.h"

struct cursor {
	const char *s;
	size_t n, i;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void skip_space(struct cursor *c)
{
	while (c->i < c->n && is_space(c->s[c->i]))
		c->i++;
}

/* A string at c (its '"'): its characters into out[0..size-1] (NULL: only
 * skipped), cut, non-printable bytes as '?'. Returns 1, or 0 at a fault. */
static int read_string(struct cursor *c, char *out, size_t size)
{
	size_t o = 0;
	if (c->i >= c->n || c->s[c->i] != '"')
		return 0;
	for (c->i++; c->i < c->n; c->i++) {
		char ch = c->s[c->i];
		if (ch == '"') {
			c->i++;
			if (out)
				out[o] = '\0';
			return 1;
		}
		if (ch == '\\') {
			if (++c->i >= c->n)
				return 0;
			ch = c->s[c->i];
			if (ch != '"' && ch != '\\')
				ch = '?';
		}
		if (out && o + 1 < size)
			out[o++] = (ch >= 0x20 && ch < 0x7F) ? ch : '?';
	}
	return 0;
}

/* Any JSON value at c, skipped (strings, numbers, literals, nested
 * objects and arrays by their brackets). Returns 1, or 0 at a fault. */
static int skip_value(struct cursor *c)
{
	int depth = 0;
	do {
		skip_space(c);
		if (c->i >= c->n)
			return 0;
		char ch = c->s[c->i];
		if (ch == '"') {
			if (!read_string(c, 0, 0))
				return 0;
		} else if (ch == '{' || ch == '[') {
			depth++, c->i++;
		} else if (ch == '}' || ch == ']') {
			if (!depth)
				return 0;
			depth--, c->i++;
		} else if (ch == ',' || ch == ':') {
			if (!depth)
				return 0;
			c->i++;
		} else {
			size_t start = c->i;
			while (c->i < c->n && !is_space(c->s[c->i]) && c->s[c->i] != ',' && c->s[c->i] != '}' &&
			       c->s[c->i] != ']' && c->s[c->i] != ':' && c->s[c->i] != '"')
				c->i++;
			if (c->i == start)
				return 0;
		}
	} while (depth);
	return 1;
}

static int name_is(const char *name, const char *w)
{
	size_t i = 0;
	for (; w[i]; i++)
		if (name[i] != w[i])
			return 0;
	return name[i] == '\0';
}

/* A decimal integer below 2^63 at c. Returns 1 and *out, 0 when the value
 * is no such number (c then past it, or at a fault). */
static int read_u64(struct cursor *c, uint64_t *out, int *fault)
{
	size_t start = c->i;
	uint64_t v = 0;
	int ok = 1;
	while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9') {
		if (v > (UINT64_MAX >> 1) / 10)
			ok = 0;
		v = v * 10 + (uint64_t)(c->s[c->i++] - '0');
	}
	if (c->i == start || (c->i - start > 1 && c->s[start] == '0'))
		ok = 0;
	if (c->i < c->n && (c->s[c->i] == '.' || c->s[c->i] == 'e' || c->s[c->i] == 'E' || c->s[c->i] == '-'))
		ok = 0;
	c->i = start;
	if (!skip_value(c))
		*fault = 1;
	*out = v;
	return ok && !*fault;
}

int sendreply_parse(const char *body, size_t len, struct sendreply *r)
{
	struct cursor c = { body, len, 0 };
	*r = (struct sendreply){ 0 };
	skip_space(&c);
	if (c.i >= c.n || c.s[c.i] != '{')
		return 0;
	c.i++;
	skip_space(&c);
	if (c.i < c.n && c.s[c.i] == '}') {
		c.i++;
		goto end;
	}
	for (;;) {
		char name[16];
		skip_space(&c);
		if (!read_string(&c, name, sizeof name))
			return 0;
		skip_space(&c);
		if (c.i >= c.n || c.s[c.i] != ':')
			return 0;
		c.i++;
		skip_space(&c);
		int fault = 0, is_str = c.i < c.n && c.s[c.i] == '"';
		if (name_is(name, "stored") && is_str) {
			if (!(r->has_stored = read_string(&c, r->stored, sizeof r->stored)))
				return 0;
		} else if (name_is(name, "error") && is_str) {
			if (!(r->has_error = read_string(&c, r->error, sizeof r->error)))
				return 0;
		} else if (name_is(name, "crc32") && is_str) {
			char t[16];
			if (!read_string(&c, t, sizeof t))
				return 0;
			uint32_t v = 0;
			size_t k = 2;
			int ok = t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && t[2];
			for (; ok && t[k]; k++) {
				int d = hex_digit(t[k]);
				if (d < 0 || k > 9)
					ok = 0;
				else
					v = v << 4 | (uint32_t)d;
			}
			r->has_crc32 = ok;
			r->crc32 = ok ? v : 0;
		} else if (name_is(name, "bytes") && !is_str) {
			r->has_bytes = read_u64(&c, &r->bytes, &fault);
			if (fault)
				return 0;
		} else if (!skip_value(&c)) {
			return 0;
		}
		skip_space(&c);
		if (c.i < c.n && c.s[c.i] == ',') {
			c.i++;
			continue;
		}
		if (c.i < c.n && c.s[c.i] == '}') {
			c.i++;
			break;
		}
		return 0;
	}
end:
	skip_space(&c);
	return c.i == c.n;
}

int sendreply_content_length(const char *value, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;
	while (value[i] == ' ' || value[i] == '\t')
		i++;
	size_t start = i;
	while (value[i] >= '0' && value[i] <= '9') {
		v = v * 10 + (uint64_t)(value[i++] - '0');
		if (v >= (1ull << 40))
			return 0;
	}
	if (i == start)
		return 0;
	while (value[i] == ' ' || value[i] == '\t')
		i++;
	if (value[i])
		return 0;
	*out = v;
	return 1;
}

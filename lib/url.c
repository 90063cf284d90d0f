/* lib/url.c - see url.h. */
#include "url.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* 1 when s[0..len-1] starts with the lower-case word w, in any case. */
static int starts_with(const char *s, size_t len, const char *w)
{
	size_t i = 0;
	for (; w[i]; i++)
		if (i >= len || lower(s[i]) != w[i])
			return 0;
	return 1;
}

/* HOST of n characters: a dotted IPv4 address or a name. */
static enum url_error parse_host(const char *h, size_t n, struct url *u)
{
	if (!n)
		return URL_NO_HOST;
	if (n > URL_HOST_MAX)
		return URL_HOST_TOO_LONG;
	int all_numeric = 1;
	for (size_t i = 0; i < n; i++) {
		char c = h[i];
		if (!is_digit(c) && !is_alpha(c) && c != '-' && c != '.')
			return c == '[' ? URL_IPV6 : URL_HOST_CHAR;
		if (!is_digit(c) && c != '.')
			all_numeric = 0;
	}
	for (size_t i = 0; i < n; i++)
		u->host[i] = h[i];
	u->host[n] = '\0';
	if (all_numeric) {
		unsigned part = 0, parts = 0, digits = 0;
		for (size_t i = 0; i <= n; i++) {
			if (i == n || h[i] == '.') {
				if (!digits || parts == 4)
					return URL_IPV4;
				u->ipv4[parts++] = (uint8_t)part;
				part = digits = 0;
				continue;
			}
			if (digits && part == 0) /* a leading zero */
				return URL_IPV4;
			part = part * 10 + (unsigned)(h[i] - '0');
			if (++digits > 3 || part > 255)
				return URL_IPV4;
		}
		if (parts != 4)
			return URL_IPV4;
		u->host_is_ipv4 = 1;
		return URL_OK;
	}
	size_t start = 0;
	for (size_t i = 0; i <= n; i++)
		if (i == n || h[i] == '.') {
			if (i == start || h[start] == '-' || h[i - 1] == '-')
				return URL_HOST_LABEL;
			start = i + 1;
		}
	return URL_OK;
}

static enum url_error parse_port(const char *p, size_t n, struct url *u)
{
	if (!n)
		return URL_PORT_EMPTY;
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return URL_PORT_CHAR;
		if (v <= 65535)
			v = v * 10 + (unsigned long)(p[i] - '0');
	}
	if (v == 0 || v > 65535)
		return URL_PORT_RANGE;
	u->port = (uint16_t)v;
	return URL_OK;
}

static int path_char_ok(char c)
{
	return c > 0x20 && c < 0x7F && c != '"' && c != '<' && c != '>' && c != '\\' && c != '%';
}

static int token_char_ok(char c)
{
	return is_digit(c) || is_alpha(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

enum url_error url_parse(const char *s, size_t len, struct url *u)
{
	static const char token_key[] = "token=";
	*u = (struct url){ .port = URL_DEFAULT_PORT, .path = "/" };
	if (!len)
		return URL_EMPTY;
	if (starts_with(s, len, "https://"))
		return URL_HTTPS;
	if (!starts_with(s, len, "http://"))
		return URL_NOT_HTTP;
	size_t i = 7, host = i;
	for (size_t j = i; j < len; j++)
		if (s[j] == '#')
			return URL_FRAGMENT;
	while (i < len && s[i] != ':' && s[i] != '/' && s[i] != '?') {
		if (s[i] == '@')
			return URL_USERINFO;
		i++;
	}
	enum url_error e = parse_host(s + host, i - host, u);
	if (e)
		return e;
	if (i < len && s[i] == ':') {
		size_t port = ++i;
		while (i < len && s[i] != '/' && s[i] != '?') {
			if (s[i] == '@')
				return URL_USERINFO;
			i++;
		}
		if ((e = parse_port(s + port, i - port, u)) != URL_OK)
			return e;
	}
	if (i < len && s[i] == '/') {
		size_t path = i;
		while (i < len && s[i] != '?') {
			if (!path_char_ok(s[i]))
				return URL_PATH_CHAR;
			i++;
		}
		if (i - path > URL_PATH_MAX)
			return URL_PATH_TOO_LONG;
		for (size_t k = path; k < i; k++)
			u->path[k - path] = s[k];
		u->path[i - path] = '\0';
	}
	if (i < len) { /* s[i] == '?' */
		i++;
		size_t klen = sizeof token_key - 1;
		if (len - i < klen || !starts_with(s + i, len - i, token_key))
			return URL_QUERY;
		for (size_t k = 0; k < klen; k++)
			if (s[i + k] != token_key[k]) /* the key in lower case only */
				return URL_QUERY;
		i += klen;
		size_t tok = i;
		for (; i < len; i++) {
			if (s[i] == '&' || s[i] == '=')
				return URL_QUERY;
			if (!token_char_ok(s[i]))
				return URL_TOKEN_CHAR;
		}
		if (i == tok)
			return URL_TOKEN_EMPTY;
		if (i - tok > URL_TOKEN_MAX)
			return URL_TOKEN_TOO_LONG;
		for (size_t k = tok; k < i; k++)
			u->token[k - tok] = s[k];
		u->token[i - tok] = '\0';
	}
	return URL_OK;
}

const char *url_error_text(enum url_error e)
{
	static const char *const text[URL_ERROR_COUNT] = {
		[URL_OK] = "no error",
		[URL_EMPTY] = "it is empty (send=off sends nothing)",
		[URL_NOT_HTTP] = "it does not start with http://",
		[URL_HTTPS] = "https:// is not supported (the run sends plain HTTP)",
		[URL_USERINFO] = "a user name before '@' is not supported",
		[URL_NO_HOST] = "there is no host after http://",
		[URL_HOST_TOO_LONG] = "the host is longer than 63 characters",
		[URL_HOST_CHAR] = "the host has a character other than a letter, digit, '-' or '.'",
		[URL_HOST_LABEL] = "the host has an empty part or one beginning or ending with '-'",
		[URL_IPV4] = "the host is not an IPv4 address: four numbers 0..255 without leading zeros",
		[URL_IPV6] = "an IPv6 address is not supported (IPv4 only)",
		[URL_PORT_EMPTY] = "there is no port after ':'",
		[URL_PORT_CHAR] = "the port is not a decimal number",
		[URL_PORT_RANGE] = "the port is 0 or above 65535",
		[URL_PATH_TOO_LONG] = "the path is longer than 127 characters",
		[URL_PATH_CHAR] = "the path has a space, a control or non-ASCII byte, or one of \" < > \\ %",
		[URL_FRAGMENT] = "a fragment ('#') is not supported",
		[URL_QUERY] = "the only query accepted is ?token=T",
		[URL_TOKEN_EMPTY] = "the token is empty",
		[URL_TOKEN_TOO_LONG] = "the token is longer than 63 characters",
		[URL_TOKEN_CHAR] = "the token has a character other than a letter, digit, '-', '.', '_' or '~'",
	};
	return (unsigned)e < URL_ERROR_COUNT ? text[e] : "?";
}

/* s appended at out[*n], kept within size - 1. */
static void put(char *out, size_t size, size_t *n, const char *s)
{
	for (; *s && *n + 1 < size; s++)
		out[(*n)++] = *s;
}

size_t url_text(const struct url *u, int with_token, char *out, size_t size)
{
	size_t n = 0;
	char port[8];
	int p = 0;
	char digits[6];
	unsigned v = u->port;
	do
		digits[p++] = (char)('0' + v % 10);
	while ((v /= 10) && p < 5);
	port[0] = ':';
	for (int k = 0; k < p; k++)
		port[1 + k] = digits[p - 1 - k];
	port[1 + p] = '\0';
	if (!size)
		return 0;
	put(out, size, &n, "http://");
	put(out, size, &n, u->host);
	put(out, size, &n, port);
	put(out, size, &n, u->path);
	if (with_token && u->token[0]) {
		put(out, size, &n, "?token=");
		put(out, size, &n, u->token);
	}
	out[n] = '\0';
	return n;
}

size_t url_secret_at(const char *s, size_t n, size_t i)
{
	static const char key[] = "?token=";
	const size_t k = sizeof key - 1;
	if (i < k || i > n)
		return 0;
	for (size_t j = 0; j < k; j++)
		if (s[i - k + j] != key[j])
			return 0;
	size_t len = 0;
	while (i + len < n && s[i + len] && token_char_ok(s[i + len]))
		len++;
	return len;
}

size_t url_mask_secrets(char *s, size_t n)
{
	size_t masked = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		size_t len = url_secret_at(s, n, i);
		for (size_t j = 0; j < len; j++)
			s[i + j] = '*';
		masked += len;
		i += len ? len - 1 : 0;
	}
	return masked;
}

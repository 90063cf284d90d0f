/* lib/url.h - send=URL (README "Sending the results"): the collector's
 * address, http://HOST[:PORT][/PATH][?token=T] (RFC 3986 3.2.2 host,
 * 3.2.3 port, 3.3 path, 3.4 query, read as a subset: no user
 * information, no fragment, no percent-encoding, no IPv6 literal), parsed
 * for kernel/config.c and kernel/efinet.c. Freestanding; host-tested
 * (tests/unit/test_url.c). */
#ifndef LIB_URL_H
#define LIB_URL_H

#include <stddef.h>
#include <stdint.h>

#define URL_DEFAULT_PORT 8080 /* the collector's (tools/bench.py serve) */
#define URL_HOST_MAX 63       /* characters of a host name or address */
#define URL_PATH_MAX 127      /* characters of the path, its leading '/' included */
#define URL_TOKEN_MAX 63      /* characters of the token */
/* The longest URL url_text writes, its NUL included:
 * "http://" HOST ":" 65535 PATH "?token=" TOKEN. */
#define URL_TEXT_MAX (7 + URL_HOST_MAX + 6 + URL_PATH_MAX + 7 + URL_TOKEN_MAX + 1)

struct url {
	char host[URL_HOST_MAX + 1];   /* as given: a dotted IPv4 address or a name */
	int host_is_ipv4;              /* 1: host is a dotted IPv4 address, ipv4 holds it */
	uint8_t ipv4[4];               /* its bytes, in the order written */
	uint16_t port;                 /* 1..65535; URL_DEFAULT_PORT when not given */
	char path[URL_PATH_MAX + 1];   /* "/" when not given */
	char token[URL_TOKEN_MAX + 1]; /* ?token=T's T, or "" */
};

/* What is wrong with a URL (url_error_text says it in words). */
enum url_error {
	URL_OK,
	URL_EMPTY,          /* nothing after send= */
	URL_NOT_HTTP,       /* not http:// at the start */
	URL_HTTPS,          /* https:// (TLS is not used) */
	URL_USERINFO,       /* user@host */
	URL_NO_HOST,        /* nothing between http:// and the port or path */
	URL_HOST_TOO_LONG,  /* more than URL_HOST_MAX characters */
	URL_HOST_CHAR,      /* a character neither a letter, digit, '-' nor '.' */
	URL_HOST_LABEL,     /* an empty label (two dots, a leading or trailing dot) or one that starts or
			     * ends with '-' */
	URL_IPV4,           /* all digits and dots but not four numbers 0..255 without leading zeros */
	URL_IPV6,           /* a '[' IPv6 literal */
	URL_PORT_EMPTY,     /* ':' with no digits after it */
	URL_PORT_CHAR,      /* a port that is not all digits */
	URL_PORT_RANGE,     /* a port 0 or above 65535 */
	URL_PATH_TOO_LONG,  /* more than URL_PATH_MAX characters */
	URL_PATH_CHAR,      /* a path byte outside printable ASCII, or a space, '"', '<', '>', '\\', '%' */
	URL_FRAGMENT,       /* '#' */
	URL_QUERY,          /* a query other than token=T */
	URL_TOKEN_EMPTY,    /* ?token= with nothing after it */
	URL_TOKEN_TOO_LONG, /* more than URL_TOKEN_MAX characters */
	URL_TOKEN_CHAR,     /* a token character other than a letter, digit, '-', '.', '_' or '~' */
	URL_ERROR_COUNT
};

/* url_parse - s[0..len-1] (no NUL needed) as http://HOST[:PORT][/PATH]
 * [?token=T] into *u: HOST a dotted IPv4 address (four decimal numbers
 * 0..255, no leading zeros) or a name (letters, digits, '-' and '.',
 * labels not empty, not beginning or ending with '-'; "http" in any
 * case); PORT 1..65535 (default URL_DEFAULT_PORT); PATH from its '/' up
 * to '?' (default "/"; printable ASCII but space, '"', '<', '>', '\\',
 * '%'); the one query token=T, T of RFC 3986's unreserved characters.
 * Returns URL_OK, or the first thing wrong (u then undefined). */
enum url_error url_parse(const char *s, size_t len, struct url *u);

/* url_error_text - what e means, in a few words for a config: line
 * ("the port is 0 or above 65535"); "?" for a value out of range. */
const char *url_error_text(enum url_error e);

/* url_text - u as http://HOST:PORT/PATH, with ?token=T when with_token,
 * NUL-terminated into out[0..size-1] (size URL_TEXT_MAX is always
 * enough; cut when smaller). Returns the characters written before the
 * NUL. The token is left out of every printed line and record (a
 * password of the lab's collector); the request carries it. */
size_t url_text(const struct url *u, int with_token, char *out, size_t size);

/* url_secret_at - how many characters of s[0..n-1] from index i are a
 * token (the secret of ?token=T: its unreserved characters up to the
 * first other one), when s[i-7..i-1] is "?token=" (case as written); 0
 * elsewhere. For lines and records that show what was typed (the
 * command line, a plan's words): each character of a token there is
 * printed as '*' (rec_strn_masked, url_mask_secrets), so the lab's
 * password never reaches a log, a stick or a collector. */
size_t url_secret_at(const char *s, size_t n, size_t i);

/* url_mask_secrets - every token in s[0..n-1] (up to a NUL) overwritten
 * with '*', in place, its length kept. Returns the characters masked. */
size_t url_mask_secrets(char *s, size_t n);

#endif

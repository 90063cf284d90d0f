/* tests/unit/test_url.c - lib/url.c: send=URL's hosts (dotted IPv4
 * addresses and names), ports, paths and tokens, and every malformed form
 * named by its own error; url_text's form for lines and requests. */
#include <string.h>
#include "check.h"
#include "../../lib/url.h"

static enum url_error parse(const char *s, struct url *u)
{
	return url_parse(s, strlen(s), u);
}

struct bad {
	const char *url;
	enum url_error e;
};

int main(void)
{
	struct url u;
	char t[URL_TEXT_MAX];

	CHECK(parse("http://10.0.2.2:8080/", &u) == URL_OK, "the test's collector");
	CHECK(u.host_is_ipv4 && u.ipv4[0] == 10 && u.ipv4[1] == 0 && u.ipv4[2] == 2 && u.ipv4[3] == 2,
	      "10.0.2.2 read as an IPv4 address, bytes in order");
	CHECK_EQ_U64(u.port, 8080, "the port given");
	CHECK_STR(u.path, "/", "the path given");
	CHECK_STR(u.token, "", "no token");

	CHECK(parse("http://collector.lab", &u) == URL_OK, "a name, no port, no path");
	CHECK(!u.host_is_ipv4, "a name is not an IPv4 address");
	CHECK_STR(u.host, "collector.lab", "the name kept as given");
	CHECK_EQ_U64(u.port, URL_DEFAULT_PORT, "the default port (the collector's, 8080)");
	CHECK_STR(u.path, "/", "the default path");

	CHECK(parse("HTTP://192.168.1.254:80/runs/new?token=s3cr.t_-~", &u) == URL_OK, "every part, scheme in capitals");
	CHECK(u.ipv4[3] == 254, "the last byte of the address");
	CHECK_EQ_U64(u.port, 80, "port 80");
	CHECK_STR(u.path, "/runs/new", "a path of two segments");
	CHECK_STR(u.token, "s3cr.t_-~", "the token: unreserved characters");
	url_text(&u, 0, t, sizeof t);
	CHECK_STR(t, "http://192.168.1.254:80/runs/new", "url_text leaves the token out of lines");
	url_text(&u, 1, t, sizeof t);
	CHECK_STR(t, "http://192.168.1.254:80/runs/new?token=s3cr.t_-~", "url_text with the token, for the request");
	CHECK(parse("http://h?token=x", &u) == URL_OK && !strcmp(u.path, "/") && !strcmp(u.token, "x"),
	      "a token without a path: path /");
	url_text(&u, 0, t, 12);
	CHECK_STR(t, "http://h:80", "url_text cut at its size, NUL-terminated");
	CHECK(parse("http://0.0.0.0:65535/", &u) == URL_OK && u.port == 65535, "the highest port, address 0.0.0.0");
	CHECK(parse("http://a-b.c1/", &u) == URL_OK, "a '-' inside a label");
	CHECK(parse("http://1.2.3.4x/", &u) == URL_OK && !u.host_is_ipv4, "digits and a letter: a name");
	CHECK(url_parse("http://10.0.2.2:81 trailing", 18, &u) == URL_OK && u.port == 81,
	      "only len bytes read (no NUL needed)");

	static const struct bad bad[] = {
		{ "", URL_EMPTY },
		{ "ftp://10.0.2.2/", URL_NOT_HTTP },
		{ "10.0.2.2:8080", URL_NOT_HTTP },
		{ "http:/10.0.2.2", URL_NOT_HTTP },
		{ "https://10.0.2.2/", URL_HTTPS },
		{ "http://user@10.0.2.2/", URL_USERINFO },
		{ "http://10.0.2.2:80@x/", URL_USERINFO },
		{ "http://", URL_NO_HOST },
		{ "http://:8080/", URL_NO_HOST },
		{ "http:///path", URL_NO_HOST },
		{ "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/", URL_HOST_TOO_LONG },
		{ "http://host_name/", URL_HOST_CHAR },
		{ "http://a..b/", URL_HOST_LABEL },
		{ "http://.a/", URL_HOST_LABEL },
		{ "http://a./", URL_HOST_LABEL },
		{ "http://-a.b/", URL_HOST_LABEL },
		{ "http://a-.b/", URL_HOST_LABEL },
		{ "http://10.0.2/", URL_IPV4 },
		{ "http://10.0.2.2.1/", URL_IPV4 },
		{ "http://10.0.2.256/", URL_IPV4 },
		{ "http://10.0.02.2/", URL_IPV4 },
		{ "http://10.0..2/", URL_IPV4 },
		{ "http://1000.0.0.1/", URL_IPV4 },
		{ "http://[::1]:8080/", URL_IPV6 },
		{ "http://10.0.2.2:/", URL_PORT_EMPTY },
		{ "http://10.0.2.2:80a/", URL_PORT_CHAR },
		{ "http://10.0.2.2:-1/", URL_PORT_CHAR },
		{ "http://10.0.2.2:0/", URL_PORT_RANGE },
		{ "http://10.0.2.2:65536/", URL_PORT_RANGE },
		{ "http://10.0.2.2:99999999999999999999/", URL_PORT_RANGE },
		{ "http://h/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", URL_PATH_TOO_LONG },
		{ "http://h/a b", URL_PATH_CHAR },
		{ "http://h/a%20b", URL_PATH_CHAR },
		{ "http://h/a\\b", URL_PATH_CHAR },
		{ "http://h/\x80", URL_PATH_CHAR },
		{ "http://h/#top", URL_FRAGMENT },
		{ "http://h/?id=3", URL_QUERY },
		{ "http://h/?", URL_QUERY },
		{ "http://h/?TOKEN=x", URL_QUERY },
		{ "http://h/?token=a&b=c", URL_QUERY },
		{ "http://h/?token=a=b", URL_QUERY },
		{ "http://h/?token=", URL_TOKEN_EMPTY },
		{ "http://h/?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", URL_TOKEN_TOO_LONG },
		{ "http://h/?token=a/b", URL_TOKEN_CHAR },
		{ "http://h/?token=a+b", URL_TOKEN_CHAR },
	};
	int seen[URL_ERROR_COUNT] = { 0 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		enum url_error e = parse(bad[i].url, &u);
		CHECK(e == bad[i].e, "%s: error %d (%s), expected %d (%s)", bad[i].url, (int)e, url_error_text(e),
		      (int)bad[i].e, url_error_text(bad[i].e));
		seen[bad[i].e] = 1;
	}
	for (int e = 1; e < URL_ERROR_COUNT; e++) {
		CHECK(seen[e], "error %d (%s) has a case above", e, url_error_text((enum url_error)e));
		CHECK(strcmp(url_error_text((enum url_error)e), "?") != 0, "error %d has words", e);
	}
	CHECK_STR(url_error_text(URL_ERROR_COUNT), "?", "a value out of range");
	/* The token shown as '*' in lines and records of what was typed. */
	char line[] = "send=http://10.0.2.2/?token=s3cr.t_-~ a?token= b ?token=x&y ?TOKEN=up ?token=rack-7e57";
	CHECK_EQ_U64(url_secret_at(line, sizeof line, 28), 9, "the token after ?token=, up to the space");
	CHECK_EQ_U64(url_secret_at(line, sizeof line, 27), 0, "not at the '='");
	CHECK_EQ_U64(url_secret_at(line, 30, 28), 2, "cut at n");
	CHECK_EQ_U64(url_secret_at(line, sizeof line, 3), 0, "before 7 characters, nothing");
	CHECK_EQ_U64(url_mask_secrets(line, sizeof line), 9 + 1 + 9, "three tokens masked, 19 characters");
	CHECK_STR(line, "send=http://10.0.2.2/?token=********* a?token= b ?token=*&y ?TOKEN=up ?token=*********",
		  "each token's characters '*', its length kept; an empty one and ?TOKEN= left");
	char none[] = "ensembles=2 token=abc";
	CHECK_EQ_U64(url_mask_secrets(none, sizeof none), 0, "token= without '?' is no send= token");

	return check_summary("url");
}

/* tests/unit/test_sendreply.c - lib/sendreply.c: the collector's JSON
 * answers as the shared design gives them (stored new or duplicate, with
 * bytes and crc32; refusals with error), members in any order, nested
 * values skipped, malformed bodies refused; Content-Length's value. */
#include <string.h>
#include "check.h"
#include "../../lib/sendreply.h"

static int parse(const char *s, struct sendreply *r)
{
	return sendreply_parse(s, strlen(s), r);
}

int main(void)
{
	struct sendreply r;
	CHECK(parse("{\"stored\":\"new\",\"run_id\":\"0123456789abcdef\",\"bytes\":61234,\"crc32\":\"0x1234abcd\","
		    "\"runs\":[\"0123456789abcdef\",\"fedcba9876543210\"]}", &r), "a 201's body");
	CHECK(r.has_stored && !strcmp(r.stored, "new"), "stored: new");
	CHECK(r.has_bytes && r.bytes == 61234, "bytes: 61234");
	CHECK(r.has_crc32 && r.crc32 == 0x1234abcdu, "crc32: 0x1234abcd");
	CHECK(!r.has_error, "no error member");

	CHECK(parse(" { \"runs\" : [ { \"a\" : [1, {\"bytes\": 5}] } ], \"crc32\" : \"0xFFFFFFFF\" , \"bytes\" : 0 ,"
		    " \"stored\" : \"duplicate\" }\r\n", &r), "white space everywhere, a nested object first");
	CHECK(r.has_bytes && r.bytes == 0, "bytes: 0, the nested bytes not taken");
	CHECK(r.has_crc32 && r.crc32 == 0xFFFFFFFFu, "crc32 in capitals");
	CHECK(!strcmp(r.stored, "duplicate"), "stored: duplicate");

	CHECK(parse("{\"error\":\"token missing or wrong \\\"x\\\"\\n\"}", &r), "a 401's body");
	CHECK(r.has_error && !strcmp(r.error, "token missing or wrong \"x\"?"), "error, escapes kept or '?': %s",
	      r.error);
	CHECK(!r.has_stored && !r.has_bytes && !r.has_crc32, "nothing else");

	CHECK(parse("{\"bytes\":\"12\",\"crc32\":12,\"stored\":null}", &r), "members of other types: an object still");
	CHECK(!r.has_bytes && !r.has_crc32 && !r.has_stored, "none of them taken");
	CHECK(parse("{\"bytes\":1.5}", &r) && !r.has_bytes, "a fraction is no byte count");
	CHECK(parse("{\"bytes\":-1}", &r) && !r.has_bytes, "a negative number is no byte count");
	CHECK(parse("{\"bytes\":012}", &r) && !r.has_bytes, "a leading zero is no JSON number");
	CHECK(parse("{\"bytes\":99999999999999999999}", &r) && !r.has_bytes, "above 2^63");
	CHECK(parse("{\"crc32\":\"0x123456789\"}", &r) && !r.has_crc32, "nine hex digits");
	CHECK(parse("{\"crc32\":\"1234\"}", &r) && !r.has_crc32, "no 0x");
	CHECK(parse("{\"crc32\":\"0x12g4\"}", &r) && !r.has_crc32, "not hex");
	CHECK(parse("{}", &r), "an empty object");

	char longer[400] = "{\"error\":\"";
	for (int i = 0; i < 200; i++)
		strcat(longer, "e");
	strcat(longer, "\"}");
	CHECK(parse(longer, &r) && strlen(r.error) == SENDREPLY_TEXT_MAX, "a long error cut at %d characters",
	      SENDREPLY_TEXT_MAX);

	static const char *const bad[] = {
		"", "   ", "[]", "\"stored\"", "{", "{\"stored\":\"new\"", "{\"stored\" \"new\"}", "{stored:\"new\"}",
		"{\"stored\":\"new\",}", "{\"stored\":\"new\"} x", "{\"bytes\":}", "{\"a\":[1,2}", "{\"a\":]}",
		"{\"error\":\"unterminated}", "<html>500</html>",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(!parse(bad[i], &r), "not one JSON object: %s", bad[i]);
	CHECK(!sendreply_parse("{\"a\":1}", 5, &r), "only len bytes read: a cut object");

	uint64_t n;
	CHECK(sendreply_content_length("61234", &n) && n == 61234, "Content-Length: 61234");
	CHECK(sendreply_content_length(" 0 ", &n) && n == 0, "white space around 0");
	CHECK(!sendreply_content_length("", &n), "empty");
	CHECK(!sendreply_content_length("12a", &n), "not decimal");
	CHECK(!sendreply_content_length("-1", &n), "negative");
	CHECK(!sendreply_content_length("1 2", &n), "two numbers");
	CHECK(!sendreply_content_length("1099511627776", &n), "2^40 or more");
	return check_summary("sendreply");
}

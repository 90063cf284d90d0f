/* tests/unit/test_hex.c - lib/hex.c: bytes from hex digits and every error. */
#include <stdint.h>
#include "check.h"
#include "../../lib/hex.h"

int main(void)
{
	uint8_t out[8];
	size_t n;
	CHECK(hex_decode("4801d8", 6, out, sizeof out, &n) == HEX_OK,
	      "\"4801d8\" (add rax,rbx) decodes");
	CHECK_EQ_U64(n, 3, "\"4801d8\" is 3 bytes");
	CHECK(out[0] == 0x48 && out[1] == 0x01 && out[2] == 0xD8, "\"4801d8\" is 48 01 D8");
	CHECK(hex_decode("0F0b", 4, out, sizeof out, &n) == HEX_OK && out[0] == 0x0F && out[1] == 0x0B,
	      "upper- and lower-case digits both decode");
	CHECK(hex_decode("", 0, out, sizeof out, &n) == HEX_EMPTY, "no digits is HEX_EMPTY");
	CHECK(hex_decode("480", 3, out, sizeof out, &n) == HEX_ODD, "3 digits is HEX_ODD");
	CHECK_EQ_U64(n, 3, "HEX_ODD: n is the digit count");
	CHECK(hex_decode("48g1", 4, out, sizeof out, &n) == HEX_DIGIT, "'g' is not a hex digit");
	CHECK_EQ_U64(n, 2, "HEX_DIGIT: n is the index of 'g'");
	CHECK(hex_decode("48 1", 4, out, sizeof out, &n) == HEX_DIGIT,
	      "a space is not a hex digit");
	CHECK_EQ_U64(n, 2, "HEX_DIGIT: n is the index of the space");
	CHECK(hex_decode("0x90", 4, out, sizeof out, &n) == HEX_DIGIT,
	      "no 0x prefix: 'x' is not a hex digit");
	CHECK_EQ_U64(n, 1, "HEX_DIGIT: n is the index of 'x'");
	out[0] = 0x55;
	CHECK(hex_decode("000000000000000000", 18, out, sizeof out, &n) == HEX_TOO_LONG,
	      "9 bytes do not fit in 8");
	CHECK_EQ_U64(n, 9, "HEX_TOO_LONG: n is the bytes the digits would make");
	CHECK(out[0] == 0x55, "HEX_TOO_LONG writes nothing");
	CHECK(hex_decode("0000000000000000", 16, out, sizeof out, &n) == HEX_OK && n == 8,
	      "8 bytes fill 8 exactly");
	CHECK_STR(hex_error_text(HEX_ODD), "an odd number of hex digits (two per byte)",
	          "HEX_ODD's text");
	return check_summary("hex");
}

/* tests/unit/test_hex.c - lib/hex.c: bytes from hex digits and every error. */
#include <stdint.h>
#include "check.h"
#include "../../lib/hex.h"

int main(void)
{
	uint8_t out[8];
	size_t n;
	CHECK(hex_decode("4801d8", 6, out, sizeof out, &n) == HEX_OK);
	CHECK_EQ_U64(n, 3);
	CHECK(out[0] == 0x48 && out[1] == 0x01 && out[2] == 0xD8);
	CHECK(hex_decode("0F0b", 4, out, sizeof out, &n) == HEX_OK && out[0] == 0x0F && out[1] == 0x0B);
	CHECK(hex_decode("", 0, out, sizeof out, &n) == HEX_EMPTY);
	CHECK(hex_decode("480", 3, out, sizeof out, &n) == HEX_ODD);
	CHECK_EQ_U64(n, 3);
	CHECK(hex_decode("48g1", 4, out, sizeof out, &n) == HEX_DIGIT);
	CHECK_EQ_U64(n, 2);
	CHECK(hex_decode("48 1", 4, out, sizeof out, &n) == HEX_DIGIT);
	CHECK_EQ_U64(n, 2);
	CHECK(hex_decode("0x90", 4, out, sizeof out, &n) == HEX_DIGIT); /* no 0x prefix */
	CHECK_EQ_U64(n, 1);
	out[0] = 0x55;
	CHECK(hex_decode("000000000000000000", 18, out, sizeof out, &n) == HEX_TOO_LONG);
	CHECK_EQ_U64(n, 9);
	CHECK(out[0] == 0x55); /* nothing written */
	CHECK(hex_decode("0000000000000000", 16, out, sizeof out, &n) == HEX_OK && n == 8);
	CHECK_STR(hex_error_text(HEX_ODD), "an odd number of hex digits (two per byte)");
	return check_summary("hex");
}

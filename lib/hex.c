/* lib/hex.c - see hex.h. */
#include "hex.h"

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

enum hex_error hex_decode(const char *s, size_t len, uint8_t *out, size_t cap, size_t *n)
{
	*n = 0;
	if (len == 0)
		return HEX_EMPTY;
	for (size_t i = 0; i < len; i++)
		if (hex_digit(s[i]) < 0) {
			*n = i;
			return HEX_DIGIT;
		}
	if (len % 2) {
		*n = len;
		return HEX_ODD;
	}
	if (len / 2 > cap) {
		*n = len / 2;
		return HEX_TOO_LONG;
	}
	for (size_t i = 0; i < len / 2; i++)
		out[i] = (uint8_t)(hex_digit(s[2 * i]) << 4 | hex_digit(s[2 * i + 1]));
	*n = len / 2;
	return HEX_OK;
}

const char *hex_error_text(enum hex_error e)
{
	switch (e) {
	case HEX_OK:
		return "valid";
	case HEX_EMPTY:
		return "no digits";
	case HEX_ODD:
		return "an odd number of hex digits (two per byte)";
	case HEX_DIGIT:
		return "a character that is not a hex digit";
	case HEX_TOO_LONG:
		return "more bytes than fit";
	}
	return "?";
}

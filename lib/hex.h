/* lib/hex.h - hexadecimal bytes, as code= and init= give machine code
 * ("4801d8" is 48 01 D8, add rax,rbx). Host-tested (tests/unit/test_hex.c). */
#ifndef LIB_HEX_H
#define LIB_HEX_H

#include <stddef.h>
#include <stdint.h>

enum hex_error { HEX_OK, HEX_EMPTY, HEX_ODD, HEX_DIGIT, HEX_TOO_LONG };

/* hex_decode - s[0..len-1], two hex digits (either case) per byte, into
 * out[0..cap-1]; *n = the bytes written. On HEX_DIGIT, *n is the index in s
 * of the first bad character; on HEX_TOO_LONG, the bytes s would make. */
enum hex_error hex_decode(const char *s, size_t len, uint8_t *out, size_t cap, size_t *n);

/* hex_digit - the value 0..15 of a hex digit (either case), -1 for any
 * other character. */
int hex_digit(char c);

/* hex_error_text - what is wrong, in words ("an odd number of digits"). */
const char *hex_error_text(enum hex_error e);

#endif

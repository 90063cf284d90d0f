/* lib/string.h - the few C library functions a freestanding kernel needs
 * (lib/string.c), with the C standard's names and meanings (C11 7.24).
 *
 * GCC may emit calls to memcpy, memmove, memset and memcmp even with
 * -ffreestanding (GCC manual, "Standards"), and the QR code encoder's
 * archive calls memcpy, memmove, memset, strlen and strchr (kernel/qr.c). Byte at
 * a time: none of them is used inside a measured window. The host test
 * (tests/unit/test_string.c) builds them renamed lk_* (the Makefile), so
 * they do not clash with the host's C library.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

/* memcpy - copy n bytes from src to dst, which must not overlap. Returns
 * dst. */
void *memcpy(void *dst, const void *src, size_t n);

/* memmove - copy n bytes from src to dst, which may overlap. Returns dst. */
void *memmove(void *dst, const void *src, size_t n);

/* memset - set n bytes at dst to (unsigned char)c. Returns dst. */
void *memset(void *dst, int c, size_t n);

/* memcmp - compare n bytes as unsigned char: -1, 0 or 1 as a's first
 * differing byte is below, equal to (none differs) or above b's. */
int memcmp(const void *a, const void *b, size_t n);

/* strlen - the bytes of s before its NUL. */
size_t strlen(const char *s);

/* strchr - the first (char)c in s, its NUL included when c is 0; NULL
 * when there is none. */
char *strchr(const char *s, int c);

#endif

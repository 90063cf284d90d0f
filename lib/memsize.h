/* lib/memsize.h - sizes of memory as the command line gives them and as
 * lines print them (mem=SIZE, README "Boot parameters"): a decimal or
 * 0x-hex number of bytes with an optional binary suffix K (2^10), M (2^20)
 * or G (2^30), either case ("512M", "0x1000", "4k"). Pure, host-tested
 * (tests/unit/test_memsize.c). */
#ifndef LIB_MEMSIZE_H
#define LIB_MEMSIZE_H

#include <stdint.h>

/* memsize_parse - s[0..len-1] as above into *bytes. Returns 0, or -1: empty,
 * a bad digit or suffix, or a size at or above 2^64. */
int memsize_parse(const char *s, int len, uint64_t *bytes);

/* memsize_text - bytes in the largest binary unit that divides it exactly
 * ("512 MiB", "4 KiB", "1 GiB", "4097 bytes") into buf[0..size-1]
 * (size >= 24). Returns buf. */
const char *memsize_text(char *buf, int size, uint64_t bytes);

/* memsize_word - bytes as mem= takes it back, in the largest of K, M, G
 * that divides it ("1M", "4K", "512M", "5000") into buf[0..size-1]
 * (size >= 24). Returns buf. */
const char *memsize_word(char *buf, int size, uint64_t bytes);

#endif

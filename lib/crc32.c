/* lib/crc32.c - see crc32.h. */
#include "crc32.h"

uint32_t crc32_update(uint32_t crc, const void *p, size_t len)
{
	const unsigned char *b = p;
	uint32_t c = crc ^ 0xFFFFFFFFu;
	for (size_t i = 0; i < len; i++) {
		c ^= b[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xEDB88320u & (0u - (c & 1)));
	}
	return c ^ 0xFFFFFFFFu;
}

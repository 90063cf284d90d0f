/* lib/json.c - see json.h (RFC 8259 section 7). */
#include "json.h"

char *json_escape(char *dst, size_t size, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	for (; src && *src; src++) {
		unsigned char c = (unsigned char)*src;
		char tmp[7];
		size_t n = 0;
		if (c == '"' || c == '\\') {
			tmp[n++] = '\\';
			tmp[n++] = (char)c;
		} else if (c < 0x20 || c >= 0x7F) {
			tmp[n++] = '\\';
			tmp[n++] = 'u';
			tmp[n++] = '0';
			tmp[n++] = '0';
			tmp[n++] = hex[c >> 4];
			tmp[n++] = hex[c & 15];
		} else {
			tmp[n++] = (char)c;
		}
		if (o + n >= size)
			break;
		for (size_t i = 0; i < n; i++)
			dst[o++] = tmp[i];
	}
	dst[o] = '\0';
	return dst;
}

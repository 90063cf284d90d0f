/* lib/json.h - JSON string escaping for the machine-readable records. */
#ifndef LIB_JSON_H
#define LIB_JSON_H

#include <stddef.h>

/* json_escape - write src as the inside of a JSON string (no quotes) into
 * dst[0..size-1], NUL-terminated: '"' and '\\' are escaped, control and
 * non-ASCII bytes become \u00XX. Output that does not fit is cut at a whole
 * escape. Returns dst. size must be >= 1. */
char *json_escape(char *dst, size_t size, const char *src);

#endif

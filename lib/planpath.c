/* lib/planpath.c - see planpath.h. */
#include "planpath.h"
#include "cmdline.h"

int planpath_find(const char *line, char *out, size_t size)
{
	if (!out || size < 2)
		return 0;
	out[0] = '\0';
	const struct cfg_key key = { .name = "plan", .type = CFG_TEXT, .max = size - 1, .value = (uint64_t *)out };
	const struct cfg_line ln = { .text = line, .length = 0, .path_first = 0 };
	cfg_parse_line(&ln, &key, 1, CFG_ONLY_KEYS, 0, 0);
	return out[0] && !(out[0] == 'o' && out[1] == 'f' && out[2] == 'f' && !out[3]);
}

size_t planpath_ucs2(uint16_t *out, size_t cap, const char *file)
{
	size_t at = 0;
	if (!out || !cap || !file || !file[0])
		return 0;
	if (file[0] == '/' || file[0] == '\\')
		file++;
	if (!file[0])
		return 0; /* the root itself is not a file */
	out[at++] = '\\';
	for (; *file; file++) {
		unsigned char c = (unsigned char)*file;
		if (c < 0x20 || c > 0x7E || at + 1 >= cap)
			return 0;
		out[at++] = c == '/' ? '\\' : c;
	}
	if (at >= cap)
		return 0;
	out[at] = 0;
	return at;
}

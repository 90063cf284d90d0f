/* lib/resultname.c - see resultname.h. */
#include "resultname.h"

static int is_id(const char *id)
{
	size_t i = 0;
	for (; id[i] && i < 17; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return 0;
	return i == 16;
}

size_t resultname_make(char *out, size_t cap, const char *id, unsigned n, enum resultname_kind kind)
{
	const char *ext = kind == RESULTNAME_TEMPORARY ? ".part" : ".log";
	char name[RESULTNAME_MAX];
	size_t len = 0;
	if (!id || !is_id(id) || n >= RESULTNAME_ATTEMPTS)
		return 0;
	for (size_t i = 0; i < 16; i++)
		name[len++] = id[i];
	if (n) {
		name[len++] = '-';
		name[len++] = (char)('0' + n);
	}
	for (size_t i = 0; ext[i]; i++)
		name[len++] = ext[i];
	if (len + 1 > cap)
		return 0;
	for (size_t i = 0; i < len; i++)
		out[i] = name[i];
	out[len] = '\0';
	return len;
}

int resultname_fat_ok(const char *name)
{
	static const char bad[] = "\"*/:<>?\\|";
	size_t len = 0;
	for (; name[len]; len++) {
		char c = name[len];
		if (c < 0x20 || c > 0x7E)
			return 0;
		for (size_t j = 0; bad[j]; j++)
			if (c == bad[j])
				return 0;
	}
	if (len == 0 || len > 255 || name[len - 1] == ' ' || name[len - 1] == '.')
		return 0;
	return 1;
}

/* s's characters into out from *at; 0 when one is not 7-bit ASCII or
 * there is no room left for them and the NUL. */
static int put_ucs2(uint16_t *out, size_t cap, size_t *at, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		if ((unsigned char)s[i] > 0x7F || *at + 1 >= cap)
			return 0;
		out[(*at)++] = (unsigned char)s[i];
	}
	return 1;
}

size_t resultname_ucs2(uint16_t *out, size_t cap, const char *dir, const char *name)
{
	size_t at = 0;
	if (!cap || (dir && (!put_ucs2(out, cap, &at, dir) || !put_ucs2(out, cap, &at, "\\"))) ||
	    !put_ucs2(out, cap, &at, name))
		return 0;
	out[at] = 0;
	return at;
}

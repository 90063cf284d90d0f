/* lib/memsize.c - see memsize.h. */
#include "memsize.h"
#include "cmdline.h"
#include "fmt.h"

int memsize_parse(const char *s, int len, uint64_t *bytes)
{
	if (!s || len <= 0)
		return -1;
	int shift = 0;
	char last = s[len - 1];
	if (last == 'k' || last == 'K')
		shift = 10;
	else if (last == 'm' || last == 'M')
		shift = 20;
	else if (last == 'g' || last == 'G')
		shift = 30;
	/* "0x1g" is not a suffix case worth guessing at: hex takes no suffix */
	int digits = shift ? len - 1 : len;
	if (shift && digits >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	uint64_t n;
	if (cfg_parse_u64(s, digits, &n) != 0)
		return -1;
	if (shift && n > (UINT64_MAX >> shift))
		return -1;
	*bytes = n << shift;
	return 0;
}

const char *memsize_text(char *buf, int size, uint64_t bytes)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;
	uint64_t v = bytes;
	while (v && !(v & 1023) && u < 6)
		v >>= 10, u++;
	fmt_format(buf, (size_t)size, "%llu %s", (unsigned long long)v, units[u]);
	return buf;
}

const char *memsize_word(char *buf, int size, uint64_t bytes)
{
	static const char units[] = { 0, 'K', 'M', 'G' };
	int u = 0;
	uint64_t v = bytes;
	while (v && !(v & 1023) && u < 3)
		v >>= 10, u++;
	if (u)
		fmt_format(buf, (size_t)size, "%llu%c", (unsigned long long)v, units[u]);
	else
		fmt_format(buf, (size_t)size, "%llu", (unsigned long long)v);
	return buf;
}

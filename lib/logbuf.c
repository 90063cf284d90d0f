/* lib/logbuf.c - see logbuf.h. */
#include "logbuf.h"
#include "crc32.h"

void logbuf_init(struct logbuf *lb, char *buf, uint64_t cap)
{
	lb->buf = buf;
	lb->cap = cap;
	lb->kept = lb->total = 0;
	lb->crc = 0;
}

void logbuf_add(struct logbuf *lb, const char *s, size_t n)
{
	lb->crc = crc32_update(lb->crc, s, n);
	/* Kept only while nothing was lost: the buffer holds a prefix of the log. */
	if (lb->kept == lb->total)
		for (size_t i = 0; i < n && lb->kept < lb->cap; i++)
			lb->buf[lb->kept++] = s[i];
	lb->total += n;
}

int logbuf_move(struct logbuf *lb, char *buf, uint64_t cap)
{
	if (cap <= lb->cap)
		return 0;
	for (uint64_t i = 0; i < lb->kept; i++)
		buf[i] = lb->buf[i];
	lb->buf = buf;
	lb->cap = cap;
	return 1;
}

uint64_t logbuf_lost(const struct logbuf *lb)
{
	return lb->total - lb->kept;
}

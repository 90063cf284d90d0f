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

void logbuf_add_crlf(struct logbuf *lb, const char *s, size_t n)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n') {
			logbuf_add(lb, s + start, i - start);
			logbuf_add(lb, "\r\n", 2);
			start = i + 1;
		}
	logbuf_add(lb, s + start, n - start);
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

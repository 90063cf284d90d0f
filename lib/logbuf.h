/* lib/logbuf.h - the serial log kept in RAM as it is printed, so that it
 * can be written whole to the boot medium after the run (issue 23): the
 * first cap bytes are kept, the rest counted, and a CRC-32 (lib/crc32.h)
 * covers every byte given, kept or not, so that the serial log a host
 * captured can be checked against it. Freestanding; host-tested
 * (tests/unit/test_logbuf.c); kernel/console.c feeds it. */
#ifndef LIB_LOGBUF_H
#define LIB_LOGBUF_H

#include <stddef.h>
#include <stdint.h>

struct logbuf {
	char *buf;      /* cap bytes */
	uint64_t cap;   /* bytes */
	uint64_t kept;  /* bytes in buf: the log's first min(total, cap) bytes */
	uint64_t total; /* bytes given since logbuf_init */
	uint32_t crc;   /* CRC-32 of all total bytes */
};

/* logbuf_init - an empty log in buf[0..cap-1] (cap may be 0). */
void logbuf_init(struct logbuf *lb, char *buf, uint64_t cap);

/* logbuf_add - n more bytes of the log: counted and CRC'd, kept while
 * there is room. */
void logbuf_add(struct logbuf *lb, const char *s, size_t n);

/* logbuf_add_crlf - the same with every '\n' given as "\r\n": the bytes
 * kernel/uart.c's uart_write puts on the wire, so that the copy equals
 * the serial log a host captures byte for byte. */
void logbuf_add_crlf(struct logbuf *lb, const char *s, size_t n);

/* logbuf_move - go on in buf[0..cap-1], a larger buffer (the one sized
 * from the serial estimate, once memory can be allocated), with the bytes
 * kept so far copied to it. Returns 1, or 0 (nothing changes) when cap is
 * not larger than the present one. The buffer only ever holds a prefix of
 * the log: once a byte was lost, none after it is kept, moved or not. */
int logbuf_move(struct logbuf *lb, char *buf, uint64_t cap);

/* logbuf_lost - bytes given but not kept (total - kept). */
uint64_t logbuf_lost(const struct logbuf *lb);

#endif

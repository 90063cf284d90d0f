/* tests/unit/test_logbuf.c - lib/logbuf.c and lib/crc32.c: the serial log
 * kept in RAM (a prefix, its overflow counted), moved to a larger buffer,
 * and the CRC-32 over every byte given, in pieces as in one go. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/crc32.h"
#include "../../lib/logbuf.h"

int main(void)
{
	CHECK_EQ_U64(crc32_update(0, "123456789", 9), 0xCBF43926u, "CRC-32 check value (zlib.crc32(b'123456789'))");
	CHECK_EQ_U64(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u,
		     "the same in two pieces");
	CHECK_EQ_U64(crc32_update(0, "", 0), 0, "CRC-32 of nothing is 0");
	CHECK_EQ_U64(crc32_update(0x1234, "", 0), 0x1234, "no bytes leave a CRC as it is");

	char small[8], big[32];
	struct logbuf lb;
	logbuf_init(&lb, small, sizeof small);
	logbuf_add(&lb, "run: ", 5);
	CHECK(lb.kept == 5 && lb.total == 5 && logbuf_lost(&lb) == 0, "5 bytes kept of 5");
	CHECK(logbuf_move(&lb, big, sizeof big), "moved to a 32-byte buffer");
	CHECK(lb.buf == big && memcmp(big, "run: ", 5) == 0, "the kept bytes moved with it");
	CHECK(!logbuf_move(&lb, small, sizeof small), "not back to a smaller one");
	logbuf_add(&lb, "ID 0123456789abcdef\n", 20);
	CHECK(lb.kept == 25 && memcmp(big, "run: ID 0123456789abcdef\n", 25) == 0, "25 bytes kept in order");
	logbuf_add(&lb, "bench: run complete\n", 20);
	CHECK_EQ_U64(lb.total, 45, "45 bytes given");
	CHECK_EQ_U64(lb.kept, 32, "32 kept: the buffer is full");
	CHECK_EQ_U64(logbuf_lost(&lb), 13, "13 lost");
	CHECK(memcmp(big, "run: ID 0123456789abcdef\nbench: ", 32) == 0, "the buffer holds the log's first 32 bytes");
	CHECK_EQ_U64(lb.crc, crc32_update(0, "run: ID 0123456789abcdef\nbench: run complete\n", 45),
		     "the CRC covers all 45 bytes, the lost ones too");

	/* Lost before a move: nothing after the gap is kept. */
	char a[4], b[16];
	logbuf_init(&lb, a, sizeof a);
	logbuf_add(&lb, "abcdef", 6);
	CHECK(lb.kept == 4 && logbuf_lost(&lb) == 2, "4 kept, 2 lost");
	logbuf_move(&lb, b, sizeof b);
	logbuf_add(&lb, "gh", 2);
	CHECK(lb.kept == 4 && lb.total == 8 && memcmp(b, "abcd", 4) == 0,
	      "after a loss the buffer stays the log's prefix: \"gh\" is not kept after the gap");

	/* The wire's line ends. */
	char w[32];
	logbuf_init(&lb, w, sizeof w);
	logbuf_add_crlf(&lb, "a\nbc\n\nd", 7);
	CHECK(lb.kept == 10 && memcmp(w, "a\r\nbc\r\n\r\nd", 10) == 0,
	      "each \\n kept as \\r\\n, as uart_write sends it");
	CHECK_EQ_U64(lb.crc, crc32_update(0, "a\r\nbc\r\n\r\nd", 10), "the CRC is the wire bytes'");
	logbuf_add_crlf(&lb, "", 0);
	CHECK_EQ_U64(lb.total, 10, "nothing adds nothing");

	logbuf_init(&lb, 0, 0);
	logbuf_add(&lb, "x", 1);
	CHECK(lb.kept == 0 && lb.total == 1 && lb.crc == crc32_update(0, "x", 1), "a 0-byte buffer counts and CRCs");
	return check_summary("logbuf");
}

/* lib/crc32.h - CRC-32 as IEEE 802.3 and zlib compute it (reflected
 * polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF; RFC 1952
 * section 8 gives the same algorithm), in pieces, so that a stream can be
 * checked as it passes: the serial log kept in RAM (lib/logbuf.h), the QR
 * code's body (lib/qrtext.h). Bit at a time, no table: a few ns a byte,
 * never on a sampling path. Host-tested (tests/unit/test_logbuf.c,
 * tests/unit/test_qrtext.c). */
#ifndef LIB_CRC32_H
#define LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc32_update - the CRC-32 of the bytes crc covered followed by
 * p[0..len-1]; start with crc = 0 (the CRC of nothing). As zlib's
 * crc32(crc, p, len) and Python's zlib.crc32(data, crc). */
uint32_t crc32_update(uint32_t crc, const void *p, size_t len);

#endif

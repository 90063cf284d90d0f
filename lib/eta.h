/* lib/eta.h - how long a run has left, from what it has done so far and
 * from what it has still to print, and a duration as a person reads it:
 * the figures of the screen's progress area during the run
 * (bench/progress.h). Pure C; host-tested in tests/unit/test_eta.c. */
#ifndef LIB_ETA_H
#define LIB_ETA_H

#include <stddef.h>
#include <stdint.h>

#define ETA_UNKNOWN UINT64_MAX

/* eta_by_work - the time left [ms] when done of total equal units of work
 * (ensembles) took elapsed_ms: elapsed_ms / done x (total - done), from
 * the mean per unit, rounded down. 0 when done >= total; ETA_UNKNOWN when
 * done is 0 or the product exceeds 2^64 - 1 ms. */
uint64_t eta_by_work(uint64_t elapsed_ms, uint64_t done, uint64_t total);

/* eta_by_bytes - the time [ms] the bytes_left bytes still to print take on
 * a serial line at baud (8N1: 10 bits a byte), rounded down; ETA_UNKNOWN
 * when baud is 0 (nothing goes to a serial port). */
uint64_t eta_by_bytes(uint64_t bytes_left, uint32_t baud);

/* eta_format - ms as a duration in buf[0..size-1]: "0.4 s" and "59.9 s"
 * (tenths, floored) below a minute, "12 min 05 s" below an hour, "3 h 07
 * min" from an hour on; "unknown" for ETA_UNKNOWN. Returns buf. A buf of
 * 24 bytes holds any. */
char *eta_format(char *buf, size_t size, uint64_t ms);

#endif

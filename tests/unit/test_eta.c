/* tests/unit/test_eta.c - lib/eta.c: the time a run has left, by the work
 * done so far and by the bytes still to print, and durations as the
 * screen's progress area shows them. */
#include <stdint.h>
#include "check.h"
#include "../../lib/eta.h"

int main(void)
{
	char b[24];
	CHECK_EQ_U64(eta_by_work(10000, 10, 40), 30000, "10 of 40 ensembles in 10 s: 30 s left");
	CHECK_EQ_U64(eta_by_work(1000, 3, 4), 333, "3 of 4 in 1 s: a third of a second left, floored");
	CHECK_EQ_U64(eta_by_work(5, 0, 4), ETA_UNKNOWN, "nothing done yet: unknown");
	CHECK_EQ_U64(eta_by_work(5, 4, 4), 0, "all done: nothing left");
	CHECK_EQ_U64(eta_by_work(5, 9, 4), 0, "more done than planned (a plan that was short): nothing left");
	CHECK_EQ_U64(eta_by_work(UINT64_MAX - 1, 1, 3), ETA_UNKNOWN, "a product beyond 64 bits: unknown");
	CHECK_EQ_U64(eta_by_work(7, 1000000, UINT64_MAX), 7 * ((UINT64_MAX - 1000000) / 1000000) +
		     7 * ((UINT64_MAX - 1000000) % 1000000) / 1000000, "less than a ms per unit, many left");

	CHECK_EQ_U64(eta_by_bytes(11520, 115200), 1000, "11520 bytes at 115200 baud (8N1): 1 s");
	CHECK_EQ_U64(eta_by_bytes(1, 9600), 1, "one byte at 9600 baud: 1.04 ms, floored");
	CHECK_EQ_U64(eta_by_bytes(1000, 0), ETA_UNKNOWN, "no serial port: unknown");
	CHECK_EQ_U64(eta_by_bytes(UINT64_MAX, 115200), ETA_UNKNOWN, "beyond 64 bits: unknown");

	CHECK_STR(eta_format(b, sizeof b, 0), "0.0 s", "no time");
	CHECK_STR(eta_format(b, sizeof b, 12499), "12.4 s", "tenths, floored");
	CHECK_STR(eta_format(b, sizeof b, 59999), "59.9 s", "just below a minute");
	CHECK_STR(eta_format(b, sizeof b, 60000), "1 min 00 s", "a minute");
	CHECK_STR(eta_format(b, sizeof b, 3599999), "59 min 59 s", "just below an hour");
	CHECK_STR(eta_format(b, sizeof b, 3600000 + 7 * 60000 + 59000), "1 h 07 min", "hours and minutes");
	CHECK_STR(eta_format(b, sizeof b, UINT64_MAX - 1), "5124095576030 h 25 min", "the longest fits 24 bytes");
	CHECK_STR(eta_format(b, sizeof b, ETA_UNKNOWN), "unknown", "unknown");
	return check_summary("test_eta");
}

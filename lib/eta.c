/* lib/eta.c - see eta.h. */
#include "eta.h"
#include "fmt.h"

uint64_t eta_by_work(uint64_t elapsed_ms, uint64_t done, uint64_t total)
{
	if (done >= total)
		return 0;
	if (!done)
		return ETA_UNKNOWN;
	/* The mean per unit first: elapsed_ms x (total - done) could exceed
	 * 64 bits for a long run of many ensembles. */
	uint64_t left = total - done, per = elapsed_ms / done, rest = elapsed_ms % done;
	if (per && left > (ETA_UNKNOWN - 1) / per)
		return ETA_UNKNOWN;
	uint64_t ms = per * left;
	/* rest / done of a ms per unit still to come, in two parts that cannot
	 * overflow: rest x (left / done) <= left, and rest x (left % done) <
	 * done^2 (done below 2^32: the ensembles of any run). */
	uint64_t more = rest * (left / done);
	if (done <= UINT32_MAX)
		more += rest * (left % done) / done;
	return ms > ETA_UNKNOWN - 1 - more ? ETA_UNKNOWN : ms + more;
}

uint64_t eta_by_bytes(uint64_t bytes_left, uint32_t baud)
{
	if (!baud)
		return ETA_UNKNOWN;
	/* 10 bits a byte: 10000 ms per baud bit; 2^64 / 10^4 bytes is beyond any log. */
	if (bytes_left > (ETA_UNKNOWN - 1) / 10000)
		return ETA_UNKNOWN;
	return bytes_left * 10000 / baud;
}

char *eta_format(char *buf, size_t size, uint64_t ms)
{
	unsigned long long s = ms / 1000;
	if (ms == ETA_UNKNOWN)
		fmt_format(buf, size, "unknown");
	else if (s < 60)
		fmt_format(buf, size, "%llu.%llu s", s, (unsigned long long)(ms % 1000 / 100));
	else if (s < 3600)
		fmt_format(buf, size, "%llu min %02llu s", s / 60, s % 60);
	else
		fmt_format(buf, size, "%llu h %02llu min", s / 3600, s % 3600 / 60);
	return buf;
}

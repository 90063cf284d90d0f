/* tests/unit/xorshift.h - the unit tests' pseudo-random numbers: Marsaglia's
 * xorshift64 (13, 7, 17; "Xorshift RNGs", J. Stat. Software 8(14), 2003),
 * a fixed seed, so a failing check fails the same way every run. next()
 * returns the next 64-bit value (never 0). */
#ifndef TESTS_XORSHIFT_H
#define TESTS_XORSHIFT_H

#include <stdint.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#endif

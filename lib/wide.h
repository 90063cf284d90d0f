/* lib/wide.h - unsigned integers of 320 bits, wide enough that none of the
 * paper's statistics (lib/stats.h) ever overflows.
 *
 * Why 320 bits: an accumulator (lib/stats.h) takes n < 2^32 values x <
 * 2^128 (a sample < 2^64, or an ensemble's variance < 2^126). Then Σx <
 * 2^160, Σx² < 2^288, and var_calc's n·Σx² and (Σx)² are both below 2^320
 * (Paoloni 2010, appendix lines 73-97). So every figure is exact; nothing
 * is ever reported as an overflow.
 *
 * Integer only, no compiler runtime: the one division, by a 64-bit
 * divisor, is a bitwise long division (no __udivti3 in the kernel, which
 * links without libgcc). Host-tested against Python's integers
 * (tests/unit/test_wide.c).
 */
#ifndef LIB_WIDE_H
#define LIB_WIDE_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 u128;

#define WIDE_LIMBS 5
#define WIDE_BITS (64 * WIDE_LIMBS)
/* Bytes wide_dec needs: 2^320 - 1 has 97 decimal digits, and the NUL. */
#define WIDE_DEC_SIZE 98

/* value = Σ w[i]·2^(64·i): limb 0 is the least significant. */
struct wide {
	uint64_t w[WIDE_LIMBS];
};

/* wide_from_u128 - x as a wide integer. */
static inline struct wide wide_from_u128(u128 x)
{
	return (struct wide){ { (uint64_t)x, (uint64_t)(x >> 64) } };
}

/* wide_add_u128 - *a += x, modulo 2^320. The accumulators' per-sample step
 * (lib/stats.c), so inline: two limbs and, rarely, a carry. */
static inline void wide_add_u128(struct wide *a, u128 x)
{
	u128 lo = ((u128)a->w[1] << 64 | a->w[0]) + x;
	a->w[0] = (uint64_t)lo;
	a->w[1] = (uint64_t)(lo >> 64);
	if (lo < x)
		for (int i = 2; i < WIDE_LIMBS && ++a->w[i] == 0; i++)
			;
}

/* wide_add - *a += *b. Returns the carry: 1 when the sum needs more than
 * 320 bits (*a then holds it modulo 2^320), else 0. */
int wide_add(struct wide *a, const struct wide *b);

/* wide_sub - *a -= *b. Returns the borrow: 1 when b > a (then *a holds the
 * difference modulo 2^320), else 0. */
int wide_sub(struct wide *a, const struct wide *b);

/* wide_mul - *out = a·b. Returns 0, or -1 when the product needs more than
 * 320 bits (*out then holds it modulo 2^320). out may be a or b. */
int wide_mul(struct wide *out, const struct wide *a, const struct wide *b);

/* wide_div_u64 - *q = floor(a / d); returns a mod d. d != 0 (d == 0
 * returns a's lowest limb with *q = 0, never faults). q may be a. */
uint64_t wide_div_u64(struct wide *q, const struct wide *a, uint64_t d);

/* wide_cmp - -1, 0 or 1 as a <, == or > b. */
int wide_cmp(const struct wide *a, const struct wide *b);

/* wide_cmp_u64 - -1, 0 or 1 as a <, == or > b. */
int wide_cmp_u64(const struct wide *a, uint64_t b);

/* wide_bits - the number of bits of a: 0 for 0, else floor(log2 a) + 1
 * (at most 320). A value fits n bits when wide_bits(a) <= n. */
int wide_bits(const struct wide *a);

/* wide_dec - a in decimal, no leading zeros ("0" for 0), into buf.
 * size >= WIDE_DEC_SIZE; a smaller size gets the leading digits that fit,
 * NUL-terminated (size 0: nothing written). Returns buf. */
char *wide_dec(char *buf, size_t size, const struct wide *a);

/* wide_dec_u128 - wide_dec of a 128-bit value (at most 39 digits). */
char *wide_dec_u128(char *buf, size_t size, u128 x);

/* wide_fit - a in at most width characters, for fixed-width columns: the
 * exact decimal when it fits, else "d.ddeN" as lib/fmt.h fmt_fit_u64
 * writes it (e.g. 112285480386 in 9 -> "1.12e11"; digits floored, not
 * rounded; at most 7 characters, "2.13e96", for any 320-bit value, so a
 * width below 7 may be exceeded). size >= WIDE_DEC_SIZE. Returns buf. */
char *wide_fit(char *buf, size_t size, const struct wide *a, int width);

#endif

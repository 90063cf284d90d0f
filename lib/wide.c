/* lib/wide.c - see wide.h. */
#include "wide.h"

int wide_add(struct wide *a, const struct wide *b)
{
	uint64_t carry = 0;
	for (int i = 0; i < WIDE_LIMBS; i++) {
		u128 t = (u128)a->w[i] + b->w[i] + carry;
		a->w[i] = (uint64_t)t;
		carry = (uint64_t)(t >> 64);
	}
	return (int)carry;
}

int wide_sub(struct wide *a, const struct wide *b)
{
	uint64_t borrow = 0;
	for (int i = 0; i < WIDE_LIMBS; i++) {
		u128 d = (u128)a->w[i] - b->w[i] - borrow;
		a->w[i] = (uint64_t)d;
		borrow = (uint64_t)(d >> 64) & 1; /* the top half is all ones on a borrow */
	}
	return (int)borrow;
}

int wide_mul(struct wide *out, const struct wide *a, const struct wide *b)
{
	/* Schoolbook, into 2·WIDE_LIMBS limbs; each step's sum fits 128 bits:
	 * (2^64-1)² + 2·(2^64-1) = 2^128 - 1. */
	uint64_t p[2 * WIDE_LIMBS] = { 0 };
	for (int i = 0; i < WIDE_LIMBS; i++) {
		uint64_t carry = 0;
		for (int j = 0; j < WIDE_LIMBS; j++) {
			u128 t = (u128)a->w[i] * b->w[j] + p[i + j] + carry;
			p[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		p[i + WIDE_LIMBS] = carry;
	}
	int over = 0;
	for (int i = 0; i < WIDE_LIMBS; i++) {
		out->w[i] = p[i];
		over |= p[i + WIDE_LIMBS] != 0;
	}
	return over ? -1 : 0;
}

uint64_t wide_div_u64(struct wide *q, const struct wide *a, uint64_t d)
{
	struct wide n = *a;
	if (d == 0) {
		*q = (struct wide){ { 0 } };
		return n.w[0];
	}
	/* Bit by bit from the top: r < d < 2^64 before each step, so 2r + 1
	 * fits 65 bits of a u128. */
	u128 r = 0;
	*q = (struct wide){ { 0 } };
	for (int i = WIDE_BITS - 1; i >= 0; i--) {
		r = r << 1 | ((n.w[i / 64] >> (i % 64)) & 1);
		if (r >= d) {
			r -= d;
			q->w[i / 64] |= 1ull << (i % 64);
		}
	}
	return (uint64_t)r;
}

int wide_cmp(const struct wide *a, const struct wide *b)
{
	for (int i = WIDE_LIMBS - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

int wide_cmp_u64(const struct wide *a, uint64_t b)
{
	struct wide w = wide_from_u128(b);
	return wide_cmp(a, &w);
}

int wide_bits(const struct wide *a)
{
	for (int i = WIDE_LIMBS - 1; i >= 0; i--)
		if (a->w[i])
			return 64 * i + 64 - __builtin_clzll(a->w[i]);
	return 0;
}

char *wide_dec(char *buf, size_t size, const struct wide *a)
{
	/* Digits from the last, by division by 10^19 (the largest power of
	 * ten below 2^64): 19 digits per step. */
	char rev[WIDE_DEC_SIZE];
	int n = 0;
	struct wide v = *a;
	do {
		uint64_t chunk = wide_div_u64(&v, &v, 10000000000000000000ull);
		int zero = wide_bits(&v) == 0;
		for (int k = 0; k < 19 && (!zero || chunk); k++) {
			rev[n++] = (char)('0' + chunk % 10);
			chunk /= 10;
		}
	} while (wide_bits(&v));
	if (n == 0)
		rev[n++] = '0';
	if (size == 0)
		return buf;
	size_t len = 0;
	while (n > 0 && len + 1 < size)
		buf[len++] = rev[--n];
	buf[len] = 0;
	return buf;
}

char *wide_dec_u128(char *buf, size_t size, u128 x)
{
	struct wide w = wide_from_u128(x);
	return wide_dec(buf, size, &w);
}

char *wide_fit(char *buf, size_t size, const struct wide *a, int width)
{
	char d[WIDE_DEC_SIZE];
	int len = 0;
	wide_dec(d, sizeof d, a);
	while (d[len])
		len++;
	if (len <= width) {
		wide_dec(buf, size, a);
		return buf;
	}
	/* d.dd and the exponent, from the decimal digits (floored); a missing
	 * digit is 0 ("10" in 1 -> "1.00e1"). */
	int e = len - 1, i = 0;
	char out[16];
	out[i++] = d[0];
	out[i++] = '.';
	out[i++] = len > 1 ? d[1] : '0';
	out[i++] = len > 2 ? d[2] : '0';
	out[i++] = 'e';
	if (e >= 10)
		out[i++] = (char)('0' + e / 10);
	out[i++] = (char)('0' + e % 10);
	out[i] = 0;
	for (int k = 0; k <= i && (size_t)k < size; k++)
		buf[k] = out[k];
	if (size && (size_t)i >= size)
		buf[size - 1] = 0;
	return buf;
}

/* tests/unit/test_wide.c - lib/wide.c, the 320-bit integers the paper's
 * statistics are computed in: each operation on values beyond 128 bits
 * against figures from Python's integers (quoted beside each), carries and
 * borrows across every limb, the decimal text (every length, a short
 * buffer), the fitted text against lib/fmt.h fmt_fit_u64, and 20000 random
 * operations on 128-bit values against the compiler's own arithmetic. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/fmt.h"
#include "../../lib/wide.h"

#include "xorshift.h"

static const char *dec(const struct wide *w)
{
	static char buf[4][WIDE_DEC_SIZE];
	static int slot;
	slot = (slot + 1) % 4;
	return wide_dec(buf[slot], sizeof buf[slot], w);
}

/* Values built from their limbs; their decimals are Python's. */
static const struct wide all_ones = { { ~0ull, ~0ull, ~0ull, ~0ull, ~0ull } };    /* 2^320 - 1 */
static const struct wide third = { { 0x5555555555555555ull, 0x5555555555555555ull, 0x5555555555555555ull,
				     0x5555555555555555ull, 0x5555555555555555ull } }; /* (2^320-1)/3 */
static const struct wide c = { { 12345, 0, 1ull << 31 } };                           /* 2^159 + 12345 */
static const struct wide d = { { 987654321, 0, 0, 1ull << 8, 1ull << 63 } };         /* 2^319 + 2^200 + 987654321 */

static void test_dec(void)
{
	struct wide zero = { { 0 } };
	CHECK_STR(dec(&zero), "0", "0 in decimal");
	struct wide ten19 = wide_from_u128(10000000000000000000ull);
	CHECK_STR(dec(&ten19), "10000000000000000000", "10^19 (one chunk of 19 digits and a 1)");
	struct wide t = wide_from_u128(~(u128)0);
	CHECK_STR(dec(&t), "340282366920938463463374607431768211455", "2^128 - 1 in decimal");
	CHECK_STR(dec(&all_ones),
		  "2135987035920910082395021706169552114602704522356652769947041607822219725780640550022962086936575",
		  "2^320 - 1 in decimal: 97 digits");
	CHECK_EQ_U64(strlen(dec(&all_ones)) + 1, WIDE_DEC_SIZE, "2^320 - 1: WIDE_DEC_SIZE bytes with its NUL");
	CHECK_STR(dec(&d),
		  "1067993517960455041197510853084776058908290305437316660515482896252272465412523268794274866423985",
		  "2^319 + 2^200 + 987654321 in decimal");
	/* zeros inside a 19-digit chunk are kept: 10^38 */
	struct wide e38 = wide_from_u128((u128)10000000000000000000ull * 10000000000000000000ull);
	CHECK_STR(dec(&e38), "100000000000000000000000000000000000000", "10^38: the zeros of its chunks");
	char small[6];
	CHECK_STR(wide_dec(small, sizeof small, &d), "10679", "a 6-byte buffer: the 5 leading digits");
	CHECK_STR(wide_dec_u128(small, sizeof small, 42), "42", "wide_dec_u128 of 42");
}

static void test_arith(void)
{
	struct wide w;
	/* (2^320-1)/3 * 12345678901234567890123456789 needs more than 320
	 * bits: reported, and the low 320 bits kept (Python: (a*b) % 2**320). */
	struct wide b = wide_from_u128((u128)1234567890123456789ull * 10000000000ull + 123456789u);
	CHECK_STR(dec(&b), "12345678901234567890123456789", "b built");
	CHECK(wide_mul(&w, &third, &b) == -1, "(2^320-1)/3 * b: beyond 320 bits, reported");
	CHECK_STR(dec(&w),
		  "2135987035920910082395021706169552114602704522356652769947041607822215610554340138500332045784313",
		  "(2^320-1)/3 * b modulo 2^320");
	CHECK(wide_mul(&w, &c, &c) == 0, "(2^159 + 12345)^2: fits 320 bits");
	CHECK_STR(dec(&w),
		  "533996758980227520598755426542388028650676148631400905336756927180044191327674015158227917171889",
		  "(2^159 + 12345)^2");
	/* division by a 64-bit divisor (Python: divmod(d, 2**64 - 1)) */
	uint64_t r = wide_div_u64(&w, &d, UINT64_MAX);
	CHECK_STR(dec(&w), "57896044618658097714924043372037294395835314159644831110867146387343628304640",
		  "d / (2^64 - 1)");
	CHECK_EQ_U64(r, 9223372037842430385ull, "d mod (2^64 - 1)");
	w = d;
	r = wide_div_u64(&w, &w, 10); /* in place */
	CHECK_STR(dec(&w),
		  "106799351796045504119751085308477605890829030543731666051548289625227246541252326879427486642398",
		  "d / 10 in place");
	CHECK_EQ_U64(r, 5, "d mod 10");
	r = wide_div_u64(&w, &d, 0);
	CHECK_EQ_U64(r, 987654321, "division by 0: the lowest limb, no fault");
	CHECK_EQ_U64(wide_bits(&w), 0, "division by 0: quotient 0");
	/* carries and borrows across every limb */
	w = all_ones;
	struct wide one = wide_from_u128(1);
	CHECK_EQ_U64(wide_add(&w, &one), 1, "2^320 - 1 + 1: carry out");
	CHECK_EQ_U64(wide_bits(&w), 0, "2^320 - 1 + 1: 0 modulo 2^320");
	CHECK_EQ_U64(wide_sub(&w, &one), 1, "0 - 1: borrow out");
	CHECK_EQ_U64(wide_cmp(&w, &all_ones), 0, "0 - 1: 2^320 - 1 modulo 2^320");
	w = (struct wide){ { ~0ull, ~0ull, ~0ull } };
	wide_add_u128(&w, 1);
	CHECK(w.w[0] == 0 && w.w[1] == 0 && w.w[2] == 0 && w.w[3] == 1 && w.w[4] == 0,
	      "2^192 - 1 + 1 by wide_add_u128: the carry reaches limb 3");
	w = d;
	CHECK_EQ_U64(wide_sub(&w, &d), 0, "d - d: no borrow");
	CHECK_EQ_U64(wide_bits(&w), 0, "d - d = 0");
	/* bits and comparisons */
	CHECK_EQ_U64(wide_bits(&one), 1, "bits of 1");
	CHECK_EQ_U64(wide_bits(&c), 160, "bits of 2^159 + 12345");
	CHECK_EQ_U64(wide_bits(&d), 320, "bits of 2^319 + ...");
	CHECK(wide_cmp(&c, &d) < 0 && wide_cmp(&d, &c) > 0 && wide_cmp(&c, &c) == 0, "c < d, d > c, c == c");
	struct wide two64 = wide_from_u128((u128)1 << 64);
	CHECK(wide_cmp_u64(&two64, UINT64_MAX) > 0, "2^64 > 2^64 - 1: no wrap");
	CHECK(wide_cmp_u64(&one, 1) == 0 && wide_cmp_u64(&one, 2) < 0, "1 == 1 and 1 < 2");
}

static void test_fit(void)
{
	char a[WIDE_DEC_SIZE], b[32];
	CHECK_STR(wide_fit(a, sizeof a, &all_ones, 11), "2.13e96", "2^320 - 1 in 11 columns");
	CHECK_STR(wide_fit(a, sizeof a, &d, 200), dec(&d), "d in 200 columns: exact");
	struct wide w = wide_from_u128(112285480386ull);
	CHECK_STR(wide_fit(a, sizeof a, &w, 9), "1.12e11", "112285480386 in 9: 1.12e11");
	CHECK_STR(wide_fit(a, sizeof a, &w, 12), "112285480386", "112285480386 in 12: exact");
	/* as lib/fmt.h fmt_fit_u64 for every 64-bit magnitude and width */
	int bad = 0;
	for (int i = 0; i < 4000; i++) {
		uint64_t v = next() >> (next() % 64);
		int width = 1 + (int)(next() % 21);
		w = wide_from_u128(v);
		if (strcmp(wide_fit(a, sizeof a, &w, width), fmt_fit_u64(b, sizeof b, v, width)) && bad++ < 5)
			printf("  fit %llu in %d: %s, fmt_fit_u64 %s\n", (unsigned long long)v, width, a, b);
	}
	CHECK_EQ_U64(bad, 0, "4000 random 64-bit values: wide_fit as fmt_fit_u64");
}

/* 128-bit operands against the compiler's arithmetic. */
static void test_random(void)
{
	int bad = 0;
	char want[64];
	for (int i = 0; i < 20000; i++) {
		u128 x = ((u128)next() << 64 | next()) >> (next() % 128);
		u128 y = ((u128)next() << 64 | next()) >> (next() % 128);
		uint64_t den = next() >> (next() % 64);
		struct wide wx = wide_from_u128(x), wy = wide_from_u128(y), w;
		/* x·y when it fits 128 bits; x + y; x - y when x >= y; x / den */
		u128 p;
		if (!__builtin_mul_overflow(x, y, &p)) {
			wide_mul(&w, &wx, &wy);
			bad += wide_cmp(&w, &(struct wide){ { (uint64_t)p, (uint64_t)(p >> 64) } }) != 0;
		}
		w = wx;
		wide_add(&w, &wy);
		u128 s = x + y;
		bad += w.w[0] != (uint64_t)s || w.w[1] != (uint64_t)(s >> 64) || w.w[2] != (s < x);
		if (x >= y) {
			w = wx;
			bad += wide_sub(&w, &wy) != 0 || w.w[0] != (uint64_t)(x - y) || w.w[1] != (uint64_t)((x - y) >> 64);
		}
		bad += wide_cmp(&wx, &wy) != (x < y ? -1 : x > y);
		if (den) {
			uint64_t r = wide_div_u64(&w, &wx, den);
			u128 q = x / den;
			bad += r != (uint64_t)(x % den) || w.w[0] != (uint64_t)q || w.w[1] != (uint64_t)(q >> 64);
		}
		/* decimal against printf's when x < 2^64 */
		if (x >> 64 == 0) {
			snprintf(want, sizeof want, "%llu", (unsigned long long)x);
			bad += strcmp(dec(&wx), want) != 0;
		}
	}
	CHECK_EQ_U64(bad, 0, "20000 random 128-bit operands: as the compiler's arithmetic");
}

int main(void)
{
	test_dec();
	test_arith();
	test_fit();
	test_random();
	return check_summary("test_wide");
}

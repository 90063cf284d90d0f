/* lib/percopy.c - see percopy.h. */
#include "percopy.h"
#include "fmt.h"
#include "robust.h"

#define WRAPPED (1ull << 63)

static uint64_t one_spread(const struct percopy_window *w)
{
	if (!w->var_ok)
		return w->max_of_mins >= w->min_of_mins ? w->max_of_mins - w->min_of_mins : UINT64_MAX;
	uint64_t s = isqrt_u128(w->var_of_mins);
	return (u128)s * s < w->var_of_mins ? s + 1 : s;
}

uint64_t percopy_spread(const struct percopy_window *w, const struct percopy_window *empty)
{
	uint64_t s = one_spread(w), e = empty ? one_spread(empty) : 0;
	return s > e ? s : e;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* x / den in thousandths, rounded half away from zero (up: rounded up);
 * UINT64_MAX when it does not fit. */
static uint64_t milli_of(u128 x, uint64_t den, int up)
{
	uint64_t rem;
	u128 m = u128_div_u64(x * 1000 + (up ? den - 1 : den / 2), den, &rem);
	return m > UINT64_MAX ? UINT64_MAX : (uint64_t)m;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void percopy_compute(uint64_t least_n, uint64_t least_2n, uint64_t copies, uint64_t spread_n,
		     uint64_t spread_2n, uint64_t step, struct percopy *p)
{
	*p = (struct percopy){ .copies = copies ? copies : 1, .den = 1, .step = step ? step : 1 };
	uint64_t den = p->copies;
	p->spread = add_sat(spread_n, spread_2n);
	/* Each least minimum within step - 1 of a counter of single ticks' (percopy.h). */
	uint64_t q = p->step - 1;
	p->bound = add_sat(p->spread, add_sat(q, q));
	if (least_n >= WRAPPED || least_2n >= WRAPPED) {
		p->kind = PERCOPY_WRAPPED;
		return;
	}
	p->neg = least_2n < least_n;
	p->diff = p->neg ? least_n - least_2n : least_2n - least_n;
	uint64_t g = gcd(p->diff, den);
	p->num = g ? p->diff / g : 0;
	p->den = g ? den / g : 1;
	p->milli = milli_of(p->diff, den, 0);
	if (!p->bound) {
		p->kind = PERCOPY_EXACT;
		return;
	}
	if (p->diff > p->bound) {
		p->kind = p->neg ? PERCOPY_BELOW_ZERO : PERCOPY_FIGURE;
		p->bound_milli = milli_of(p->bound, den, 1);
		return;
	}
	/* Within the bound: the per-copy time lies in [0, 2N-N + bound]. */
	p->kind = PERCOPY_BELOW_RESOLUTION;
	p->bound_milli = milli_of(p->neg ? (u128)p->bound - p->diff : (u128)p->bound + p->diff, den, 1);
}

/* The interval of p in the unit over its copies: 2N-N -+ bound. */
static void interval(const struct percopy *p, __int128 *lo, __int128 *hi)
{
	__int128 d = p->neg ? -(__int128)p->diff : (__int128)p->diff;
	*lo = d - (__int128)p->bound;
	*hi = d + (__int128)p->bound;
}

int percopy_overlap(const struct percopy *a, const struct percopy *b, int *low, uint64_t *gap_milli)
{
	__int128 alo, ahi, blo, bhi, gap;
	*low = 0;
	*gap_milli = 0;
	if (a->kind == PERCOPY_WRAPPED || b->kind == PERCOPY_WRAPPED || a->copies != b->copies)
		return -1;
	interval(a, &alo, &ahi);
	interval(b, &blo, &bhi);
	if (ahi < blo)
		gap = blo - ahi;
	else if (bhi < alo) {
		gap = alo - bhi;
		*low = 1;
	} else
		return 1;
	*gap_milli = milli_of((u128)gap, a->copies, 1);
	return 0;
}

const char *percopy_kind_key(enum percopy_kind k)
{
	static const char *const keys[] = { "exact", "figure", "below_resolution", "below_zero", "wrapped" };
	return (unsigned)k < sizeof keys / sizeof keys[0] ? keys[k] : "?";
}

const char *percopy_milli_text(char *buf, int size, int neg, uint64_t m)
{
	fmt_format(buf, (size_t)size, "%s%llu.%03llu", neg ? "-" : "", (unsigned long long)(m / 1000),
		   (unsigned long long)(m % 1000));
	return buf;
}

/* lib/stats.c - see stats.h. */
#include "stats.h"

void acc_init(struct acc *a)
{
	a->n = 0;
	a->min = UINT64_MAX;
	a->max = 0;
	a->sum = 0;
	a->sumsq = 0;
	a->overflow = 0;
}

void acc_add(struct acc *a, uint64_t x)
{
	if (a->n >= STATS_MAX_N) {
		a->overflow = 1;
		return;
	}
	/* n, Σx, min and max stay exact whatever happens to Σx². */
	a->n++;
	a->sum += x; /* n < 2^32 and x < 2^64: cannot overflow 128 bits */
	if (x < a->min)
		a->min = x;
	if (x > a->max)
		a->max = x;
	u128 sq = (u128)x * x;
	if (a->sumsq + sq < a->sumsq)
		a->overflow = 1;
	else
		a->sumsq += sq;
}

u128 u128_div_u64(u128 num, uint64_t den, uint64_t *rem)
{
	u128 q = 0, r = 0;
	for (int i = 127; i >= 0; i--) {
		/* r < den <= 2^64 - 1, so r << 1 | bit fits in 65 bits */
		r = (r << 1) | ((num >> i) & 1);
		if (r >= den) {
			r -= den;
			q |= (u128)1 << i;
		}
	}
	if (rem)
		*rem = (uint64_t)r;
	return q;
}

static int mul_u128(u128 a, u128 b, u128 *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

int acc_variance(const struct acc *a, uint64_t *var)
{
	u128 n_sumsq, sum2;
	if (a->n == 0 || a->overflow)
		return -1;
	if (mul_u128(a->n, a->sumsq, &n_sumsq) || mul_u128(a->sum, a->sum, &sum2))
		return -1;
	/* Cauchy-Schwarz: n·Σx² >= (Σx)², so the difference is >= 0. */
	u128 q = u128_div_u64(n_sumsq - sum2, a->n * a->n, 0);
	if (q >> 64)
		return -1;
	*var = (uint64_t)q;
	return 0;
}

int acc_mean_milli(const struct acc *a, uint64_t *mean_milli)
{
	u128 s;
	if (a->n == 0 || a->overflow || mul_u128(a->sum, 1000, &s))
		return -1;
	u128 q = u128_div_u64(s, a->n, 0);
	if (q >> 64)
		return -1;
	*mean_milli = (uint64_t)q;
	return 0;
}

void ensemble_compute(const uint64_t *x, uint64_t n, struct ensemble_stats *s)
{
	struct acc a;
	acc_init(&a);
	for (uint64_t i = 0; i < n; i++)
		acc_add(&a, x[i]);
	s->n = a.n;
	s->min = a.min;
	s->max = a.max;
	s->max_dev = a.n ? a.max - a.min : 0;
	s->sum = a.sum;
	s->var = 0;
	s->mean_milli = 0;
	s->error = a.n == 0 || acc_variance(&a, &s->var) || acc_mean_milli(&a, &s->mean_milli);
}

void summary_init(struct paper_summary *s)
{
	acc_init(&s->variances);
	acc_init(&s->minimums);
	s->spurious = 0;
	s->max_dev_all = 0;
	s->prev_min = 0;
	s->errors = 0;
}

void summary_add(struct paper_summary *s, const struct ensemble_stats *e)
{
	if (e->n == 0) {
		s->errors++;
		return;
	}
	if (s->minimums.n && s->prev_min > e->min)
		s->spurious++;
	s->prev_min = e->min;
	if (e->max_dev > s->max_dev_all)
		s->max_dev_all = e->max_dev;
	acc_add(&s->minimums, e->min);
	if (e->error)
		s->errors++;
	else
		acc_add(&s->variances, e->var);
}

void summary_finish(const struct paper_summary *s, struct summary_result *r)
{
	r->ensembles = s->minimums.n;
	r->spurious = s->spurious;
	r->max_dev_all = s->max_dev_all;
	r->errors = s->errors;
	r->min_of_mins = s->minimums.min;
	r->max_of_mins = s->minimums.max;
	/* total variance = tot_var / BOUND_OF_LOOP (paper line 172), floored */
	r->total_variance_ok = 0;
	r->total_variance = 0;
	if (s->variances.n && !s->variances.overflow) {
		u128 q = u128_div_u64(s->variances.sum, s->variances.n, 0);
		r->total_variance_ok = (q >> 64) == 0;
		r->total_variance = r->total_variance_ok ? (uint64_t)q : 0;
	}
	r->var_of_vars_ok = acc_variance(&s->variances, &r->var_of_vars) == 0;
	r->var_of_mins_ok = acc_variance(&s->minimums, &r->var_of_mins) == 0;
	if (!r->var_of_vars_ok)
		r->var_of_vars = 0;
	if (!r->var_of_mins_ok)
		r->var_of_mins = 0;
}

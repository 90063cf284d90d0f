/* lib/stats.c - see stats.h. */
#include "stats.h"

void acc_init(struct acc *a)
{
	*a = (struct acc){ .min = ~(u128)0 };
}

void acc_add(struct acc *a, u128 x)
{
	if (a->n >= STATS_MAX_N) {
		a->full = 1;
		return;
	}
	a->n++;
	if (x < a->min)
		a->min = x;
	if (x > a->max)
		a->max = x;
	/* n < 2^32 values below 2^128: Σx < 2^160, Σx² < 2^288 (wide.h). */
	wide_add_u128(&a->sum, x);
	if (x >> 64 == 0) {
		wide_add_u128(&a->sumsq, (u128)(uint64_t)x * (uint64_t)x);
	} else {
		struct wide w = wide_from_u128(x);
		wide_mul(&w, &w, &w); /* < 2^256: fits */
		wide_add(&a->sumsq, &w);
	}
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

int acc_variance(const struct acc *a, struct wide *var, int *paper64)
{
	*var = (struct wide){ { 0 } };
	if (paper64)
		*paper64 = 0;
	if (a->n == 0 || a->full)
		return -1;
	/* n < 2^32: n·Σx² < 2^320 and (Σx)² < 2^320 (wide.h), so neither
	 * product can fail. */
	struct wide n = wide_from_u128(a->n), n_sumsq, sum2;
	wide_mul(&n_sumsq, &n, &a->sumsq);
	wide_mul(&sum2, &a->sum, &a->sum);
	if (paper64)
		*paper64 = wide_bits(&n_sumsq) > 64 || wide_bits(&sum2) > 64;
	/* Cauchy-Schwarz: n·Σx² >= (Σx)², so the difference is >= 0. */
	wide_sub(&n_sumsq, &sum2);
	wide_div_u64(var, &n_sumsq, a->n * a->n);
	return 0;
}

int acc_mean_milli(const struct acc *a, struct wide *mean_milli)
{
	*mean_milli = (struct wide){ { 0 } };
	if (a->n == 0 || a->full)
		return -1;
	struct wide thousand = wide_from_u128(1000), s;
	wide_mul(&s, &a->sum, &thousand); /* < 2^170 */
	wide_div_u64(mean_milli, &s, a->n);
	return 0;
}

/* The low 128 bits of w, whose value the caller knows to fit them. */
static u128 low_u128(const struct wide *w)
{
	return (u128)w->w[1] << 64 | w->w[0];
}

void ensemble_compute(const uint64_t *x, uint64_t n, struct ensemble_stats *s)
{
	struct acc a;
	struct wide var, mean;
	acc_init(&a);
	for (uint64_t i = 0; i < n; i++)
		acc_add(&a, x[i]);
	s->n = a.n;
	s->min = (uint64_t)a.min;
	s->max = (uint64_t)a.max;
	s->max_dev = a.n ? s->max - s->min : 0;
	s->sum = low_u128(&a.sum); /* n < 2^32 samples below 2^64 */
	s->error = acc_variance(&a, &var, &s->paper64) || acc_mean_milli(&a, &mean);
	/* var <= (max - min)²/4 < 2^126; mean·1000 < 2^74 */
	s->var = s->error ? 0 : low_u128(&var);
	s->mean_milli = s->error ? 0 : low_u128(&mean);
}

void summary_init(struct paper_summary *s)
{
	*s = (struct paper_summary){ 0 };
	acc_init(&s->variances);
	acc_init(&s->minimums);
}

void summary_add(struct paper_summary *s, const struct ensemble_stats *e)
{
	if (e->n == 0 || e->error) {
		s->errors++;
		return;
	}
	if (s->minimums.n && s->prev_min > e->min)
		s->spurious++;
	s->prev_min = e->min;
	if (e->max_dev > s->max_dev_all)
		s->max_dev_all = e->max_dev;
	acc_add(&s->minimums, e->min);
	acc_add(&s->variances, e->var);
}

void summary_finish(const struct paper_summary *s, struct summary_result *r)
{
	int vv64, vm64;
	*r = (struct summary_result){ .ensembles = s->minimums.n, .spurious = s->spurious,
				      .max_dev_all = s->max_dev_all, .errors = s->errors,
				      .min_of_mins = (uint64_t)s->minimums.min,
				      .max_of_mins = (uint64_t)s->minimums.max };
	/* total variance = tot_var / BOUND_OF_LOOP (paper line 172), floored;
	 * the paper's tot_var is a uint64_t sum of uint64_t variances. */
	r->total_variance_ok = s->variances.n && !s->variances.full;
	if (r->total_variance_ok)
		wide_div_u64(&r->total_variance, &s->variances.sum, s->variances.n);
	r->var_of_vars_ok = acc_variance(&s->variances, &r->var_of_vars, &vv64) == 0;
	r->var_of_mins_ok = acc_variance(&s->minimums, &r->var_of_mins, &vm64) == 0;
	r->paper64 = (wide_bits(&s->variances.sum) > 64 ? PAPER64_TOTAL_VARIANCE : 0) |
		     (vv64 ? PAPER64_VAR_OF_VARS : 0) |
		     (vm64 ? PAPER64_VAR_OF_MINS : 0);
}

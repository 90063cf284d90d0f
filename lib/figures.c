/* lib/figures.c - see figures.h. */
#include "figures.h"
#include "robust.h"
#include "stats.h"

int verdict_ergodic(const struct summary_result *s, uint64_t max_var_of_vars, uint64_t max_var_of_mins,
		    int *valid)
{
	int vv_fails = s->var_of_vars_ok && wide_cmp_u64(&s->var_of_vars, max_var_of_vars) > 0;
	int vm_fails = s->var_of_mins_ok && wide_cmp_u64(&s->var_of_mins, max_var_of_mins) > 0;
	*valid = (s->var_of_vars_ok && s->var_of_mins_ok) || vv_fails || vm_fails;
	return s->var_of_vars_ok && s->var_of_mins_ok && !vv_fails && !vm_fails;
}

/* The most common value of a[0..n-1], the smallest of equally common ones;
 * sorts a. n >= 1. */
static uint64_t mode_u64(uint64_t *a, uint64_t n)
{
	sort_u64(a, n);
	uint64_t best = a[0], best_count = 0;
	for (uint64_t i = 0; i < n;) {
		uint64_t j = i;
		while (j < n && a[j] == a[i])
			j++;
		if (j - i > best_count) {
			best = a[i];
			best_count = j - i;
		}
		i = j;
	}
	return best;
}

void resolution_analyze(const uint64_t *mins, uint64_t n, uint64_t *scratch,
			struct resolution_figures *r)
{
	uint64_t gaps = 0, last_change = 0, flat_from = 0;
	*r = (struct resolution_figures){ .loop_sizes = n, .strictly_increasing = n > 1,
					  .flat_until = n ? n - 1 : 0 };
	for (uint64_t j = 1; j < n; j++) {
		if (mins[j] <= mins[j - 1])
			r->strictly_increasing = 0;
		if (mins[j] == mins[j - 1])
			continue;
		if (j - 1 - flat_from > r->longest_flat)
			r->longest_flat = j - 1 - flat_from;
		flat_from = j;
		if (r->changes == 0)
			r->flat_until = j - 1;
		else
			scratch[gaps++] = j - last_change;
		last_change = j;
		r->changes++;
	}
	if (n && n - 1 - flat_from > r->longest_flat)
		r->longest_flat = n - 1 - flat_from;
	if (gaps) {
		r->found = 1;
		r->common_gap = mode_u64(scratch, gaps);
		r->smallest_gap = scratch[0]; /* sorted by mode_u64 */
	}
	uint64_t rises = 0;
	for (uint64_t j = 1; j < n; j++)
		if (mins[j] > mins[j - 1])
			scratch[rises++] = mins[j] - mins[j - 1];
	r->common_step = rises ? mode_u64(scratch, rises) : 0;
}

const char *clock_ratio_milli(uint64_t cyc, uint64_t cyc_empty, uint64_t tsc, uint64_t tsc_empty,
			      uint64_t *milli)
{
	*milli = 0;
	if (tsc < tsc_empty || tsc - tsc_empty < CLOCK_RATIO_MIN_TICKS)
		return "the body's net median is below 100 TSC ticks: too short to compare the clocks";
	if (cyc <= cyc_empty)
		return "the body's net median is 0 core cycles or less";
	uint64_t den = tsc - tsc_empty, rem;
	/* (cyc - cyc_empty) x 1000 < 2^74: 128 bits */
	u128 q = u128_div_u64((u128)(cyc - cyc_empty) * 1000u, den, &rem);
	if (rem >= den - rem)
		q++;
	if (q >> 64)
		return "the ratio does not fit in 64 bits";
	*milli = (uint64_t)q;
	return 0;
}

int smi_delta(int ok_before, uint64_t before, int ok_after, uint64_t after, uint64_t *smis)
{
	*smis = 0;
	if (!ok_before || !ok_after)
		return -1;
	*smis = (after - before) & 0xFFFFFFFFull;
	return 0;
}

/* bench/results.c - see results.h. */
#include "results.h"

const char *const unit_key[UNIT_COUNT] = { "tsc_ticks", "core_cycles", "instructions" };
const char *const unit_name[UNIT_COUNT] = { "TSC ticks", "core cycles", "instructions" };

void results_init(struct bench_results *r)
{
	*r = (struct bench_results){ .totals = { .recommended = -1, .recommend_why = "" } };
}

unsigned results_units(int ctr_method, int counters_beside)
{
	if (ctr_method)
		return 1u << UNIT_CYC | 1u << UNIT_INS;
	return counters_beside ? 1u << UNIT_TSC | 1u << UNIT_CYC | 1u << UNIT_INS : 1u << UNIT_TSC;
}

void results_judge(const struct workload_result *empty, uint64_t max_var_of_vars,
		   uint64_t max_var_of_mins, struct verdict *v)
{
	v->ergodic = verdict_ergodic(&empty->s, max_var_of_vars, max_var_of_mins, &v->valid);
	v->var_of_vars = empty->s.var_of_vars;
	v->var_of_mins = empty->s.var_of_mins;
	v->var_of_vars_ok = empty->s.var_of_vars_ok;
	v->var_of_mins_ok = empty->s.var_of_mins_ok;
	v->offset = empty->s.min_of_mins;
	v->unit = empty->unit;
}

void results_keep_method(struct bench_results *r, enum method_id m, enum unit primary, unsigned units,
			 const struct workload_result *empty, const struct verdict *v)
{
	struct method_row *row = &r->rows[m];
	row->ran = 1;
	row->r = empty[primary];
	row->v = *v;
	for (int u = 0; u < UNIT_COUNT; u++)
		if ((units >> u) & 1) {
			row->offset_in[u] = empty[u].s.min_of_mins;
			row->offset_units |= (uint8_t)(1u << u);
		}
}

void results_keep_nets(struct bench_results *r, enum method_id m, int i, unsigned units,
		       const struct workload_result *wr)
{
	for (int u = 0; u < UNIT_COUNT; u++) {
		if (!((units >> u) & 1))
			continue;
		r->net_in[m][i][u] = (int64_t)(wr[u].s.min_of_mins - wr[u].offset);
		r->net_units[m][i] |= (uint8_t)(1u << u);
	}
}

void results_keep_code_fault(struct bench_results *r, enum method_id m, const struct code_fault_at *at)
{
	struct code_row *c = &r->code[m];
	if (!c->faulted)
		r->totals.code_faults++;
	c->faulted = 1;
	c->fault = *at;
}

/* A window's minimums for lib/percopy: the variance of minimum values
 * (exact, lib/wide) when it fits 64 bits, else the range of the minimums
 * (percopy_spread's rule for a variance it cannot take). */
static struct percopy_window window_of(const struct workload_result *w)
{
	int fits = w->s.var_of_mins_ok && wide_bits(&w->s.var_of_mins) <= 64;
	return (struct percopy_window){ .var_of_mins = fits ? w->s.var_of_mins.w[0] : 0, .var_ok = fits,
					.min_of_mins = w->s.min_of_mins, .max_of_mins = w->s.max_of_mins };
}

void results_keep_code_windows(struct bench_results *r, enum method_id m, enum unit u, uint64_t copies,
			       const struct workload_result *empty, const struct workload_result *n,
			       const struct workload_result *n2)
{
	struct code_row *c = &r->code[m];
	c->copies = copies;
	c->windows[u][0] = window_of(empty);
	c->windows[u][1] = window_of(n);
	c->windows[u][2] = window_of(n2);
	c->units |= (uint8_t)(1u << u);
}

const struct percopy *results_per_copy(struct bench_results *r, enum method_id m, enum unit u, uint64_t step)
{
	struct code_row *c = &r->code[m];
	const struct percopy_window *w = c->windows[u];
	percopy_compute(w[1].min_of_mins, w[2].min_of_mins, c->copies, percopy_spread(&w[1], &w[0]),
			percopy_spread(&w[2], &w[0]), step, &c->per_copy[u]);
	return &c->per_copy[u];
}

int results_agreement(const struct bench_results *r, enum unit u, struct agreement *a)
{
	*a = (struct agreement){ .unit = u, .agree = 1, .trusted = -1 };
	for (int m = 0; m < METHOD_COUNT; m++) {
		const struct code_row *c = &r->code[m];
		if (c->faulted || !(c->units >> u & 1) || c->per_copy[u].kind == PERCOPY_WRAPPED)
			continue;
		for (int o = 0; o < m; o++) {
			int low;
			uint64_t gap;
			if (!(a->methods >> o & 1) || percopy_overlap(&r->code[o].per_copy[u], &c->per_copy[u], &low, &gap))
				continue; /* overlapping, or not comparable */
			a->agree = 0;
			a->pair[a->npairs++] = (struct results_pair){ low ? m : o, low ? o : m, gap };
		}
		a->methods |= 1u << m;
		a->count++;
	}
	int rec = r->totals.recommended;
	if (rec >= 0 && (a->methods >> rec & 1)) {
		a->trusted = rec;
		a->why = r->totals.recommend_why;
	} else
		a->why = rec >= 0 ? "the recommended method has no figure per copy in this unit"
				  : r->totals.recommend_why[0] ? r->totals.recommend_why : "no method is recommended";
	return a->count;
}

int results_code_ran(const struct bench_results *r)
{
	for (int m = 0; m < METHOD_COUNT; m++)
		if (r->code[m].faulted || r->code[m].units)
			return 1;
	return 0;
}

void results_recommend(struct bench_results *r)
{
	struct run_totals *t = &r->totals;
	static const enum method_id preference[] = { METHOD_rdtscp, METHOD_cr0, METHOD_cpuid };
	t->recommended = -1;
	for (unsigned i = 0; i < sizeof preference / sizeof preference[0]; i++) {
		enum method_id m = preference[i];
		if (r->rows[m].ran && r->rows[m].v.ergodic) {
			t->recommended = m;
			t->recommend_why = m == METHOD_rdtscp ? "RDTSCP is supported and the method is ergodic here (paper 4)"
					 : m == METHOD_cr0 ? "the CR0 alternative is ergodic here (paper 3.2.3, 4)"
							   : "only the CPUID method is ergodic here; expect a coarser resolution (paper 3.1.2)";
			return;
		}
	}
	t->recommend_why = t->methods_run ? "no method of the paper's is ergodic on this machine: change the BIOS "
					    "settings (turbo, C-states, Hyper-Threading, frequency scaling) or the BIOS (paper 4 step 2)"
					  : "no method ran";
}

int results_has_net(const struct bench_results *r, int m, int i)
{
	if (m >= 0)
		return r->net_units[m][i] != 0;
	for (m = 0; m < METHOD_COUNT; m++)
		if (r->net_units[m][i])
			return 1;
	return 0;
}

int results_net_by(const struct bench_results *r)
{
	int by = r->totals.recommended;
	for (int m = 0; by < 0 && m < METHOD_COUNT; m++)
		if (r->rows[m].ran && !method_is_ctr(m))
			by = m;
	for (int m = 0; by < 0 && m < METHOD_COUNT; m++)
		if (r->rows[m].ran)
			by = m;
	return by;
}

int results_counters_by(const struct bench_results *r, int by, int nworkloads)
{
	int cnt = -1;
	for (int i = 0; by >= 0 && i < nworkloads; i++)
		if (r->net_units[by][i] & (1u << UNIT_CYC))
			cnt = by;
	for (int m = METHOD_FIRST_CTR; cnt < 0 && m < METHOD_COUNT; m++)
		if (r->rows[m].ran)
			cnt = m;
	return cnt;
}

void results_disturbances(const struct bench_results *r, uint64_t *smis, uint64_t *nmis, int *unread)
{
	*smis = *nmis = 0;
	*unread = 0;
	for (int m = 0; m < METHOD_COUNT; m++) {
		*smis += r->rows[m].smis;
		*nmis += r->rows[m].nmis;
		*unread |= r->rows[m].smi_unread;
	}
}

uint64_t results_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void results_step_add(struct tsc_step *s, uint64_t ticks)
{
	if (!ticks)
		return;
	s->gcd = results_gcd(ticks, s->gcd);
	for (int i = 0; i < s->distinct; i++)
		if (s->seen[i] == ticks)
			return;
	if (s->distinct < RESULTS_STEP_FIGURES)
		s->seen[s->distinct++] = ticks;
}

uint64_t results_step(const struct tsc_step *s, int *sure)
{
	*sure = 0;
	if (s->gcd < 2 || s->distinct < 2)
		return 0;
	*sure = s->distinct >= RESULTS_STEP_FIGURES;
	return s->gcd;
}

uint64_t results_step_bound(const struct tsc_step *s, enum unit u)
{
	return u == UNIT_TSC && s->gcd ? s->gcd : 1;
}

uint64_t results_resolution(const struct tsc_step *s, enum unit u)
{
	int sure;
	uint64_t step = u == UNIT_TSC ? results_step(s, &sure) : 0;
	return step && sure ? step : 1;
}

enum net_flag results_net_flag(int64_t net, uint64_t res)
{
	if (net < 0)
		return NET_BELOW_ZERO;
	return (uint64_t)net < res ? NET_BELOW_RESOLUTION : NET_OK;
}

const char *results_net_flag_key(enum net_flag f)
{
	return f == NET_BELOW_ZERO ? "below_zero" : f == NET_BELOW_RESOLUTION ? "below_resolution" : 0;
}

/* tests/unit/test_results.c - bench/results.c: what a run keeps per
 * method and workload, the verdict, the net figures (negative ones too),
 * the SMI and NMI counts, the recommendation (paper 4) and the choices the
 * screen summary makes, on made-up results whose answer is known. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../bench/results.h"

static struct bench_results r;

/* A workload result in unit u whose least minimum is min, offset offset. */
static struct workload_result wres(enum unit u, uint64_t min, uint64_t offset)
{
	struct workload_result w = { .unit = u, .offset = offset };
	w.s.min_of_mins = min;
	w.s.var_of_vars_ok = w.s.var_of_mins_ok = 1;
	return w;
}

/* Method m ran with an empty window of the given variances in its own
 * unit (so its verdict is ergodic when they are within 10 and 1). */
static void ran(enum method_id m, uint64_t var_of_vars, uint64_t var_of_mins)
{
	enum unit own = method_is_ctr(m) ? UNIT_CYC : UNIT_TSC;
	struct workload_result e[UNIT_COUNT] = { wres(UNIT_TSC, 30, 30), wres(UNIT_CYC, 40, 40),
						 wres(UNIT_INS, 7, 7) };
	struct verdict v;
	e[own].s.var_of_vars = var_of_vars;
	e[own].s.var_of_mins = var_of_mins;
	results_judge(&e[own], 10, 1, &v);
	results_keep_method(&r, m, own, results_units(method_is_ctr(m), 0), e, &v);
	r.totals.methods_run++;
}

static void test_units(void)
{
	CHECK_EQ_U64(results_units(0, 0), 1u << UNIT_TSC);
	CHECK_EQ_U64(results_units(0, 1), 7u);
	CHECK_EQ_U64(results_units(1, 0), 1u << UNIT_CYC | 1u << UNIT_INS);
	CHECK_EQ_U64(results_units(1, 1), 1u << UNIT_CYC | 1u << UNIT_INS);
	CHECK_STR(unit_key[UNIT_INS], "instructions");
	CHECK_STR(unit_name[UNIT_TSC], "TSC ticks");
}

static void test_keep(void)
{
	results_init(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1);
	CHECK_STR(r.totals.recommend_why, "");
	struct workload_result e[UNIT_COUNT] = { wres(UNIT_TSC, 5, 5), wres(UNIT_CYC, 90, 90),
						 wres(UNIT_INS, 12, 12) };
	e[UNIT_TSC].s.var_of_vars = 3;
	struct verdict v;
	results_judge(&e[UNIT_TSC], 10, 1, &v);
	CHECK_EQ_U64(v.ergodic, 1);
	CHECK_EQ_U64(v.valid, 1);
	CHECK_EQ_U64(v.offset, 5);
	CHECK_EQ_U64(v.var_of_vars, 3);
	CHECK_EQ_U64(v.unit, UNIT_TSC);
	/* Beside the counters: an offset in each unit. */
	results_keep_method(&r, METHOD_cr0, UNIT_TSC, results_units(0, 1), e, &v);
	const struct method_row *row = &r.rows[METHOD_cr0];
	CHECK_EQ_U64(row->ran, 1);
	CHECK_EQ_U64(row->r.s.min_of_mins, 5);
	CHECK_EQ_U64(row->v.var_of_vars, 3);
	CHECK_EQ_U64(row->offset_units, 7);
	CHECK_EQ_U64(row->offset_in[UNIT_CYC], 90);
	CHECK_EQ_U64(row->offset_in[UNIT_INS], 12);
	/* Without them: the TSC's only; other rows untouched. */
	results_keep_method(&r, METHOD_cpuid, UNIT_TSC, results_units(0, 0), e, &v);
	CHECK_EQ_U64(r.rows[METHOD_cpuid].offset_units, 1u << UNIT_TSC);
	CHECK_EQ_U64(r.rows[METHOD_cpuid].offset_in[UNIT_CYC], 0);
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].ran, 0);

	/* Nets: least minimum - offset, negative below the offset, in the
	 * units given only; the code= row after the registered ones. */
	struct workload_result w[UNIT_COUNT] = { wres(UNIT_TSC, 69, 5), wres(UNIT_CYC, 80, 90),
						 wres(UNIT_INS, 76, 12) };
	CHECK_EQ_U64(results_has_net(&r, -1, 3), 0);
	results_keep_nets(&r, METHOD_cr0, 3, results_units(0, 1), w);
	CHECK_EQ_U64(r.net_in[METHOD_cr0][3][UNIT_TSC], 64);
	CHECK(r.net_in[METHOD_cr0][3][UNIT_CYC] == -10);
	CHECK_EQ_U64(r.net_in[METHOD_cr0][3][UNIT_INS], 64);
	CHECK_EQ_U64(r.net_units[METHOD_cr0][3], 7);
	results_keep_nets(&r, METHOD_cpuid, RESULTS_CODE_ROW, results_units(0, 0), w);
	CHECK_EQ_U64(r.net_units[METHOD_cpuid][RESULTS_CODE_ROW], 1u << UNIT_TSC);
	CHECK_EQ_U64(r.net_in[METHOD_cpuid][RESULTS_CODE_ROW][UNIT_CYC], 0);
	CHECK_EQ_U64(results_has_net(&r, -1, 3), 1);
	CHECK_EQ_U64(results_has_net(&r, METHOD_cr0, 3), 1);
	CHECK_EQ_U64(results_has_net(&r, METHOD_cpuid, 3), 0);
	CHECK_EQ_U64(results_has_net(&r, -1, 4), 0);
	/* cr0 read the counters beside the TSC for row 3: its own. */
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cr0, 4), METHOD_cr0);
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cr0, 3), (uint64_t)-1); /* row 3 not among them */
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cpuid, 4), (uint64_t)-1);
}

static void test_disturbances(void)
{
	uint64_t smis, nmis;
	int unread;
	results_init(&r);
	struct disturbance quiet = { .smi_ok = 1 }, nmi = { .smi_ok = 1, .nmis = 2 },
			   smi = { .smi_ok = 1, .smis = 3 }, lost = { .smi_ok = 0 };
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cpuid, &quiet), 0);
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cpuid, &nmi), 1);
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_rdtscp, &smi), 1);
	/* Not counted on this machine: a failed read is not "unreadable". */
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_rdtscp, &lost), 0);
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].smi_unread, 0);
	CHECK_EQ_U64(r.rows[METHOD_cpuid].disturbed, 1);
	CHECK_EQ_U64(r.rows[METHOD_cpuid].nmis, 2);
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].smis, 3);
	results_disturbances(&r, &smis, &nmis, &unread);
	CHECK_EQ_U64(smis, 3);
	CHECK_EQ_U64(nmis, 2);
	CHECK_EQ_U64(unread, 0);
	r.smi_counted = 1;
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cr0, &lost), 0);
	CHECK_EQ_U64(r.rows[METHOD_cr0].smi_unread, 1);
	results_disturbances(&r, &smis, &nmis, &unread);
	CHECK_EQ_U64(unread, 1);
}

static void test_recommend(void)
{
	results_init(&r);
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1);
	CHECK_STR(r.totals.recommend_why, "no method ran");
	CHECK_EQ_U64(results_net_by(&r), (uint64_t)-1);

	/* Ergodic LFENCE and counter methods are not the paper's: none. */
	ran(METHOD_ctr_rdmsr, 0, 0);
	CHECK_EQ_U64(results_net_by(&r), METHOD_ctr_rdmsr);
	CHECK_EQ_U64(results_counters_by(&r, METHOD_ctr_rdmsr, 0), METHOD_ctr_rdmsr);
	ran(METHOD_lfence, 0, 0);
	ran(METHOD_cpuid, 11, 0); /* var of vars above 10 */
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1);
	CHECK(strstr(r.totals.recommend_why, "no method of the paper's is ergodic") != NULL);
	/* No recommendation: the first TSC method that ran. */
	CHECK_EQ_U64(results_net_by(&r), METHOD_cpuid);
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cpuid, 4), METHOD_ctr_rdmsr);

	/* CPUID alone, then CR0 before it, then RDTSCP before both. */
	ran(METHOD_rdtscp, 0, 2); /* var of mins above 1 */
	r.rows[METHOD_cpuid].v.ergodic = 1;
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_cpuid);
	CHECK(strstr(r.totals.recommend_why, "only the CPUID method") != NULL);
	ran(METHOD_cr0, 10, 1);
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_cr0);
	CHECK_EQ_U64(results_net_by(&r), METHOD_cr0);
	r.rows[METHOD_rdtscp].v.ergodic = 1;
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_rdtscp);
	CHECK(strstr(r.totals.recommend_why, "RDTSCP is supported") != NULL);
	/* A verdict on overflowed figures is never ergodic. */
	results_init(&r);
	struct workload_result e = wres(UNIT_TSC, 5, 5);
	struct verdict v;
	e.s.var_of_mins_ok = 0;
	results_judge(&e, 10, 1, &v);
	CHECK_EQ_U64(v.valid, 0);
	CHECK_EQ_U64(v.ergodic, 0);
}

int main(void)
{
	test_units();
	test_keep();
	test_disturbances();
	test_recommend();
	return check_summary("test_results");
}

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
	e[own].s.var_of_vars = wide_from_u128(var_of_vars);
	e[own].s.var_of_mins = wide_from_u128(var_of_mins);
	results_judge(&e[own], 10, 1, &v);
	results_keep_method(&r, m, own, results_units(method_is_ctr(m), 0), e, &v);
	r.totals.methods_run++;
}

static void test_units(void)
{
	CHECK_EQ_U64(results_units(0, 0), 1u << UNIT_TSC, "TSC method: TSC ticks only");
	CHECK_EQ_U64(results_units(0, 1), 7u, "TSC method with counters beside: all three units");
	CHECK_EQ_U64(results_units(1, 0), 1u << UNIT_CYC | 1u << UNIT_INS,
	             "counter method: core cycles and instructions");
	CHECK_EQ_U64(results_units(1, 1), 1u << UNIT_CYC | 1u << UNIT_INS,
	             "counter method: counters beside change nothing");
	CHECK_STR(unit_key[UNIT_INS], "instructions", "instructions unit's JSON key");
	CHECK_STR(unit_name[UNIT_TSC], "TSC ticks", "TSC unit's name");
}

static void test_keep(void)
{
	results_init(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1, "a new run recommends nothing");
	CHECK_STR(r.totals.recommend_why, "", "a new run gives no reason");
	struct workload_result e[UNIT_COUNT] = { wres(UNIT_TSC, 5, 5), wres(UNIT_CYC, 90, 90),
						 wres(UNIT_INS, 12, 12) };
	e[UNIT_TSC].s.var_of_vars = wide_from_u128(3);
	struct verdict v;
	results_judge(&e[UNIT_TSC], 10, 1, &v);
	CHECK_EQ_U64(v.ergodic, 1, "variances within 10 and 1: ergodic");
	CHECK_EQ_U64(v.valid, 1, "both figures there: valid");
	CHECK_EQ_U64(v.offset, 5, "offset is the empty window's least minimum");
	CHECK_EQ_U64(v.var_of_vars.w[0], 3, "verdict keeps the variance of variances");
	CHECK_EQ_U64(v.unit, UNIT_TSC, "verdict in the method's own unit");
	/* Beside the counters: an offset in each unit. */
	results_keep_method(&r, METHOD_cr0, UNIT_TSC, results_units(0, 1), e, &v);
	const struct method_row *row = &r.rows[METHOD_cr0];
	CHECK_EQ_U64(row->ran, 1, "CR0 row marked as run");
	CHECK_EQ_U64(row->r.s.min_of_mins, 5, "CR0 row keeps the empty window's result");
	CHECK_EQ_U64(row->v.var_of_vars.w[0], 3, "CR0 row keeps the verdict");
	CHECK_EQ_U64(row->offset_units, 7, "counters beside the TSC: an offset in each unit");
	CHECK_EQ_U64(row->offset_in[UNIT_CYC], 90, "CR0's offset in core cycles");
	CHECK_EQ_U64(row->offset_in[UNIT_INS], 12, "CR0's offset in instructions");
	/* Without them: the TSC's only; other rows untouched. */
	results_keep_method(&r, METHOD_cpuid, UNIT_TSC, results_units(0, 0), e, &v);
	CHECK_EQ_U64(r.rows[METHOD_cpuid].offset_units, 1u << UNIT_TSC,
	             "without counters: the offset in TSC ticks only");
	CHECK_EQ_U64(r.rows[METHOD_cpuid].offset_in[UNIT_CYC], 0,
	             "without counters: no offset in core cycles");
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].ran, 0, "RDTSCP's row untouched");

	/* Nets: least minimum - offset, negative below the offset, in the
	 * units given only; the code= row after the registered ones. */
	struct workload_result w[UNIT_COUNT] = { wres(UNIT_TSC, 69, 5), wres(UNIT_CYC, 80, 90),
						 wres(UNIT_INS, 76, 12) };
	CHECK_EQ_U64(results_has_net(&r, -1, 3), 0, "no nets kept yet: workload 3 has none");
	results_keep_nets(&r, METHOD_cr0, 3, results_units(0, 1), w);
	CHECK_EQ_U64(r.net_in[METHOD_cr0][3][UNIT_TSC], 64,
	             "net TSC ticks: least minimum 69 - offset 5");
	CHECK(r.net_in[METHOD_cr0][3][UNIT_CYC] == -10,
	      "net core cycles below the offset: 80 - 90 = -10");
	CHECK_EQ_U64(r.net_in[METHOD_cr0][3][UNIT_INS], 64, "net instructions: 76 - 12");
	CHECK_EQ_U64(r.net_units[METHOD_cr0][3], 7,
	             "CR0 with counters beside: nets in all three units");
	results_keep_nets(&r, METHOD_cpuid, RESULTS_CODE_ROW, results_units(0, 0), w);
	CHECK_EQ_U64(r.net_units[METHOD_cpuid][RESULTS_CODE_ROW], 1u << UNIT_TSC,
	             "code= row by CPUID: nets in TSC ticks only");
	CHECK_EQ_U64(r.net_in[METHOD_cpuid][RESULTS_CODE_ROW][UNIT_CYC], 0,
	             "code= row by CPUID: no net core cycles");
	CHECK_EQ_U64(results_has_net(&r, -1, 3), 1, "workload 3 has a net by some method");
	CHECK_EQ_U64(results_has_net(&r, METHOD_cr0, 3), 1, "workload 3 has a net by CR0");
	CHECK_EQ_U64(results_has_net(&r, METHOD_cpuid, 3), 0, "workload 3 has no net by CPUID");
	CHECK_EQ_U64(results_has_net(&r, -1, 4), 0, "workload 4 has no net");
	/* cr0 read the counters beside the TSC for row 3: its own. */
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cr0, 4), METHOD_cr0,
	             "4 workloads: CR0 read the counters for workload 3 itself");
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cr0, 3), (uint64_t)-1,
	             "3 workloads: workload 3 not among them, no counter method ran");
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cpuid, 4), (uint64_t)-1,
	             "CPUID read no counters, no counter method ran");
}

static void test_disturbances(void)
{
	uint64_t smis, nmis;
	int unread;
	results_init(&r);
	struct disturbance quiet = { .smi_ok = 1 }, nmi = { .smi_ok = 1, .nmis = 2 },
			   smi = { .smi_ok = 1, .smis = 3 }, lost = { .smi_ok = 0 };
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cpuid, &quiet), 0,
	             "no SMI or NMI: not disturbed");
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cpuid, &nmi), 1, "2 NMIs: disturbed");
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_rdtscp, &smi), 1, "3 SMIs: disturbed");
	/* Not counted on this machine: a failed read is not "unreadable". */
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_rdtscp, &lost), 0,
	             "SMI count not read where SMIs are not counted: not disturbed");
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].smi_unread, 0,
	             "SMIs not counted on this machine: not unreadable");
	CHECK_EQ_U64(r.rows[METHOD_cpuid].disturbed, 1, "CPUID's row marked disturbed");
	CHECK_EQ_U64(r.rows[METHOD_cpuid].nmis, 2, "CPUID's NMIs added up");
	CHECK_EQ_U64(r.rows[METHOD_rdtscp].smis, 3, "RDTSCP's SMIs added up");
	results_disturbances(&r, &smis, &nmis, &unread);
	CHECK_EQ_U64(smis, 3, "run's SMIs");
	CHECK_EQ_U64(nmis, 2, "run's NMIs");
	CHECK_EQ_U64(unread, 0, "no method's SMIs unreadable");
	r.smi_counted = 1;
	CHECK_EQ_U64(results_add_disturbance(&r, METHOD_cr0, &lost), 0,
	             "failed SMI read where SMIs are counted: not disturbed");
	CHECK_EQ_U64(r.rows[METHOD_cr0].smi_unread, 1,
	             "failed SMI read where SMIs are counted: CR0's SMIs unreadable");
	results_disturbances(&r, &smis, &nmis, &unread);
	CHECK_EQ_U64(unread, 1, "one method's SMIs unreadable");
}

static void test_recommend(void)
{
	results_init(&r);
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1, "no method ran: no recommendation");
	CHECK_STR(r.totals.recommend_why, "no method ran", "no method ran: the reason");
	CHECK_EQ_U64(results_net_by(&r), (uint64_t)-1, "no method ran: no method's nets shown");

	/* Ergodic LFENCE and counter methods are not the paper's: none. */
	ran(METHOD_ctr_rdmsr, 0, 0);
	CHECK_EQ_U64(results_net_by(&r), METHOD_ctr_rdmsr,
	             "only a counter method ran: its nets shown");
	CHECK_EQ_U64(results_counters_by(&r, METHOD_ctr_rdmsr, 0), METHOD_ctr_rdmsr,
	             "counter method's own counters shown");
	ran(METHOD_lfence, 0, 0);
	ran(METHOD_cpuid, 11, 0); /* var of vars above 10 */
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, (uint64_t)-1,
	             "only LFENCE, counter methods and a non-ergodic CPUID: no recommendation");
	CHECK(strstr(r.totals.recommend_why, "no method of the paper's is ergodic") != NULL,
	      "no recommendation: the reason");
	/* No recommendation: the first TSC method that ran. */
	CHECK_EQ_U64(results_net_by(&r), METHOD_cpuid,
	             "no recommendation: nets of the first TSC method that ran");
	CHECK_EQ_U64(results_counters_by(&r, METHOD_cpuid, 4), METHOD_ctr_rdmsr,
	             "CPUID read no counters: the counter method's shown");

	/* CPUID alone, then CR0 before it, then RDTSCP before both. */
	ran(METHOD_rdtscp, 0, 2); /* var of mins above 1 */
	r.rows[METHOD_cpuid].v.ergodic = 1;
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_cpuid,
	             "CPUID ergodic alone: recommended (paper 3.1.2)");
	CHECK(strstr(r.totals.recommend_why, "only the CPUID method") != NULL,
	      "CPUID recommended: the reason");
	ran(METHOD_cr0, 10, 1);
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_cr0,
	             "CR0 ergodic: recommended before CPUID (paper 3.2.3)");
	CHECK_EQ_U64(results_net_by(&r), METHOD_cr0, "CR0 recommended: its nets shown");
	r.rows[METHOD_rdtscp].v.ergodic = 1;
	results_recommend(&r);
	CHECK_EQ_U64(r.totals.recommended, METHOD_rdtscp,
	             "RDTSCP ergodic: recommended before both");
	CHECK(strstr(r.totals.recommend_why, "RDTSCP is supported") != NULL,
	      "RDTSCP recommended: the reason");
	/* A verdict on a missing figure is never ergodic. */
	results_init(&r);
	struct workload_result e = wres(UNIT_TSC, 5, 5);
	struct verdict v;
	e.s.var_of_mins_ok = 0;
	results_judge(&e, 10, 1, &v);
	CHECK_EQ_U64(v.valid, 0, "verdict on a missing figure: not valid");
	CHECK_EQ_U64(v.ergodic, 0, "verdict on a missing figure: never ergodic");
	CHECK_EQ_U64(v.var_of_mins_ok, 0, "verdict on a missing figure: says which");
	/* NOT ergodic as soon as one figure fails, the other missing. */
	e.s.var_of_vars = wide_from_u128((u128)1 << 100);
	results_judge(&e, 10, 1, &v);
	CHECK_EQ_U64(v.valid, 1, "variance of variances 2^100 > 10, of minimums missing: known");
	CHECK_EQ_U64(v.ergodic, 0, "variance of variances 2^100 > 10: NOT ergodic");
	CHECK_EQ_U64(v.var_of_vars.w[1], 1ull << 36, "verdict keeps 2^100 exactly");
}

/* An ensemble's figures as bench/report.c adds them: minimum, the
 * nearest-rank quantiles (p1, q1, median, q3, p99; sample values) and
 * maximum, in TSC ticks. */
static void add_ensemble(struct tsc_step *s, const uint64_t f[7])
{
	for (int i = 0; i < 7; i++)
		results_step_add(s, f[i]);
}

/* The TSC's step from the ensembles' figures, the resolution it gives and
 * the flags of net figures: Bochs with 4 CPUs (steps of 5), QEMU -icount
 * (steps of 1: nothing said) and too little data. */
static void test_step(void)
{
	struct tsc_step s = { 0 };
	int sure = -1;

	/* Bochs, 4 CPUs: the empty window reads 0 or 5 ticks, add_chain_64
	 * 60..75: every figure a multiple of 5, 8 distinct nonzero ones. */
	static const uint64_t bochs[][7] = {
		{ 0, 0, 0, 5, 5, 5, 10 }, { 0, 0, 5, 5, 5, 10, 15 }, { 0, 0, 0, 0, 5, 5, 20 },
		{ 60, 60, 65, 65, 65, 70, 120 }, { 55, 60, 60, 65, 70, 75, 95 },
	};
	CHECK_EQ_U64(results_step(&s, &sure), 0, "no figures: no step");
	CHECK_EQ_U64(sure, 0, "no figures: not sure");
	add_ensemble(&s, bochs[0]);
	CHECK_EQ_U64(results_step(&s, &sure), 5, "Bochs empty window 0/5/10: may move in steps of 5");
	CHECK_EQ_U64(sure, 0, "Bochs empty window: 2 distinct figures: not sure");
	CHECK_EQ_U64(results_resolution(&s, UNIT_TSC), 1, "a step not sure: resolution 1 tick");
	for (int i = 1; i < 5; i++)
		add_ensemble(&s, bochs[i]);
	CHECK_EQ_U64(results_step(&s, &sure), 5, "Bochs, 4 CPUs: steps of 5 ticks");
	CHECK_EQ_U64(sure, 1, "Bochs, 4 CPUs: 8 or more distinct figures: sure");
	CHECK_EQ_U64(s.distinct, RESULTS_STEP_FIGURES, "distinct figures saturate");
	CHECK_EQ_U64(results_resolution(&s, UNIT_TSC), 5, "Bochs: resolution 5 TSC ticks");
	CHECK_EQ_U64(results_resolution(&s, UNIT_CYC), 1, "core cycles: resolution 1 whatever the TSC");
	CHECK_EQ_U64(results_resolution(&s, UNIT_INS), 1, "instructions: resolution 1 whatever the TSC");
	/* One figure off the step: the gcd falls to 1, nothing to say. */
	results_step_add(&s, 63);
	CHECK_EQ_U64(results_step(&s, &sure), 0, "a figure of 63 among multiples of 5: no step");
	CHECK_EQ_U64(results_resolution(&s, UNIT_TSC), 1, "no step: resolution 1 tick");

	/* QEMU -icount: offsets 3 and 5, nets 64: figures 3, 5, 67, 69, 261.
	 * The step is 1: nothing is said (not even "steps of 1"). */
	s = (struct tsc_step){ 0 };
	static const uint64_t icount[] = { 3, 3, 3, 67, 67, 5, 69, 261 };
	for (unsigned i = 0; i < sizeof icount / sizeof icount[0]; i++)
		results_step_add(&s, icount[i]);
	CHECK_EQ_U64(results_step(&s, &sure), 0, "QEMU -icount: a step of 1 is not said");
	/* One distinct figure (an empty window of zero variance): its own
	 * value is no step. */
	s = (struct tsc_step){ 0 };
	results_step_add(&s, 5);
	results_step_add(&s, 5);
	results_step_add(&s, 0);
	CHECK_EQ_U64(results_step(&s, &sure), 0, "one distinct figure: no step");

	/* The flags: Bochs's net of -5 and offsets of 0. */
	CHECK_EQ_U64(results_net_flag(-5, 5), NET_BELOW_ZERO, "net -5: below zero");
	CHECK_EQ_U64(results_net_flag(-1, 1), NET_BELOW_ZERO, "net -1: below zero");
	CHECK_EQ_U64(results_net_flag(0, 5), NET_BELOW_RESOLUTION, "net 0 in steps of 5: below the resolution");
	CHECK_EQ_U64(results_net_flag(0, 1), NET_BELOW_RESOLUTION, "net 0 at 1 tick: below the resolution");
	CHECK_EQ_U64(results_net_flag(4, 5), NET_BELOW_RESOLUTION, "net 4 at 5: below the resolution");
	CHECK_EQ_U64(results_net_flag(5, 5), NET_OK, "net 5 at 5: a figure");
	CHECK_EQ_U64(results_net_flag(64, 1), NET_OK, "net 64 at 1: a figure");
	CHECK_STR(results_net_flag_key(NET_BELOW_ZERO), "below_zero", "below zero's record value");
	CHECK_STR(results_net_flag_key(NET_BELOW_RESOLUTION), "below_resolution",
		  "below the resolution's record value");
	CHECK(results_net_flag_key(NET_OK) == NULL, "no record value for a figure not flagged");
}

/* The step a per-copy figure allows for (results_step_bound): the gcd so
 * far even before it is sure; 1 for the counters and with no figure. */
static void test_step_bound(void)
{
	struct tsc_step s = { 0 };
	CHECK_EQ_U64(results_step_bound(&s, UNIT_TSC), 1, "no figure: step 1");
	results_step_add(&s, 42);
	results_step_add(&s, 63);
	CHECK_EQ_U64(results_step_bound(&s, UNIT_TSC), 21, "42 and 63: steps of 21 may be: 21");
	CHECK_EQ_U64(results_step_bound(&s, UNIT_CYC), 1, "core cycles: 1 whatever the TSC");
	CHECK_EQ_U64(results_step_bound(&s, UNIT_INS), 1, "instructions: 1 whatever the TSC");
	results_step_add(&s, 100);
	CHECK_EQ_U64(results_step_bound(&s, UNIT_TSC), 1, "a figure of 100 beside 21's multiples: 1");
}

/* Method m's per-copy figure in unit u from least minimums n and n2 over
 * 100 copies, every window's variance of minimums var, the clock's step. */
static void per_copy(enum method_id m, enum unit u, uint64_t n, uint64_t n2, uint64_t var, uint64_t step)
{
	struct workload_result e = wres(u, 30, 30), wn = wres(u, n, 30), w2 = wres(u, n2, 30);
	e.s.var_of_mins = wn.s.var_of_mins = w2.s.var_of_mins = wide_from_u128(var);
	results_keep_code_windows(&r, m, u, 100, &e, &wn, &w2);
	results_per_copy(&r, m, u, step);
}

/* Methods compared (issue 29): under a TSC moving in steps of 21, cpuid's
 * equal minimums against rdtscp's 1.890 and cr0's 1.890 with their spreads. */
static void test_agreement(void)
{
	struct agreement a;
	results_init(&r);
	ran(METHOD_cpuid, 1, 0);
	ran(METHOD_cr0, 1, 0);
	ran(METHOD_rdtscp, 1, 0);
	results_recommend(&r);
	per_copy(METHOD_cpuid, UNIT_TSC, 4200, 4200, 0, 21);   /* [-40, 40] */
	per_copy(METHOD_cr0, UNIT_TSC, 4200, 4389, 2025, 21);  /* 189 +- (45 + 45 + 40): [59, 319] */
	per_copy(METHOD_rdtscp, UNIT_TSC, 4200, 4389, 1, 21);  /* 189 +- 42: [147, 231] */
	CHECK(r.code[METHOD_cpuid].per_copy[UNIT_TSC].kind != PERCOPY_EXACT, "step 21: cpuid not exact");
	CHECK_EQ_U64(results_agreement(&r, UNIT_TSC, &a), 3, "three methods with a figure");
	CHECK(!a.agree, "cpuid's interval below rdtscp's: no agreement");
	CHECK_EQ_U64(a.npairs, 2, "cpuid-cr0 and cpuid-rdtscp do not overlap; cr0-rdtscp do");
	/* In method order: cpuid, rdtscp, ..., cr0 (bench/methods.h). */
	int cr0 = a.pair[0].high == METHOD_cr0 ? 0 : 1, rdtscp = 1 - cr0;
	CHECK(a.pair[cr0].low == METHOD_cpuid && a.pair[cr0].high == METHOD_cr0 && a.pair[cr0].gap_milli == 190,
	      "cpuid below cr0 by (59 - 40)/100 = 0.190 (%d %d %llu)", a.pair[cr0].low, a.pair[cr0].high,
	      (unsigned long long)a.pair[cr0].gap_milli);
	CHECK(a.pair[rdtscp].low == METHOD_cpuid && a.pair[rdtscp].high == METHOD_rdtscp &&
	      a.pair[rdtscp].gap_milli == 1070, "cpuid below rdtscp by (147 - 40)/100 = 1.070");
	CHECK_EQ_U64(a.trusted, METHOD_rdtscp, "the recommendation trusts rdtscp");
	CHECK(strstr(a.why, "RDTSCP is supported") != NULL, "why: the recommendation's reason");
	CHECK_EQ_U64(results_agreement(&r, UNIT_CYC, &a), 0, "no figure in core cycles");
	CHECK(a.agree && a.trusted == -1 && strstr(a.why, "no figure") != NULL, "core cycles: nothing trusted: %s",
	      a.why);
	/* Step 1: the same minimums under -icount-like windows agree when equal. */
	results_init(&r);
	ran(METHOD_cpuid, 1, 0);
	ran(METHOD_rdtscp, 1, 0);
	results_recommend(&r);
	per_copy(METHOD_cpuid, UNIT_TSC, 4200, 4300, 0, 1);
	per_copy(METHOD_rdtscp, UNIT_TSC, 4200, 4300, 0, 1);
	CHECK(r.code[METHOD_cpuid].per_copy[UNIT_TSC].kind == PERCOPY_EXACT, "step 1, no spread: exact");
	results_agreement(&r, UNIT_TSC, &a);
	CHECK(a.agree && a.npairs == 0 && a.count == 2, "equal exact figures agree");
	/* A faulted method and a wrapped figure are not compared; no
	 * recommendation: nothing trusted, the reason said. */
	results_init(&r);
	ran(METHOD_cpuid, 1000, 1000);
	results_recommend(&r);
	per_copy(METHOD_cpuid, UNIT_TSC, 1ull << 63, 4300, 0, 1);
	per_copy(METHOD_rdtscp, UNIT_TSC, 4200, 4300, 0, 1);
	r.code[METHOD_rdtscp].faulted = 1;
	CHECK_EQ_U64(results_agreement(&r, UNIT_TSC, &a), 0, "wrapped and faulted: no figure");
	CHECK(a.trusted == -1 && strstr(a.why, "no method of the paper's is ergodic") != NULL, "none trusted: %s",
	      a.why);
}

int main(void)
{
	test_step_bound();
	test_agreement();
	test_step();
	test_units();
	test_keep();
	test_disturbances();
	test_recommend();
	return check_summary("test_results");
}

/* tests/unit/test_topdown.c - lib/topdown.c: TMA level 1 by intel/perfmon's
 * formulas per set (TMA_Metrics-full.csv, E-core_TMA_Metrics.csv), in
 * thousandths rounded half away from zero, nothing clamped (issue 30:
 * "retiring, bad speculation, front-end bound, back-end bound per slot"). */
#include <stdint.h>
#include "check.h"
#include "../../lib/topdown.h"

static const int all[TD_MAX_INPUTS] = {1, 1, 1, 1, 1};

static void expect(const struct td_result *r, int64_t ret, int64_t bad, int64_t fe, int64_t be, const char *what)
{
	CHECK(r->milli[TD_RETIRING] == ret, "%s: retiring %lld, wanted %lld", what, (long long)r->milli[TD_RETIRING],
	      (long long)ret);
	CHECK(r->milli[TD_BAD_SPECULATION] == bad, "%s: bad speculation %lld, wanted %lld", what,
	      (long long)r->milli[TD_BAD_SPECULATION], (long long)bad);
	CHECK(r->milli[TD_FRONTEND_BOUND] == fe, "%s: front-end bound %lld, wanted %lld", what,
	      (long long)r->milli[TD_FRONTEND_BOUND], (long long)fe);
	CHECK(r->milli[TD_BACKEND_BOUND] == be, "%s: back-end bound %lld, wanted %lld", what,
	      (long long)r->milli[TD_BACKEND_BOUND], (long long)be);
}

static void test_core(void)
{
	struct td_result r;
	/* every input X (the fake PMU build): SLOTS 4X, FE X, RET X, BAD (X - X + 4X) = 4X, BE 4X - 6X */
	uint64_t same[5] = {7, 7, 7, 7, 7};
	CHECK(td_level1(TD_SET_CORE, same, all, &r) == TD_OUT_OF_RANGE, "SKL all X: bad speculation 100%%, back-end -50%%");
	expect(&r, 250, 1000, 250, -500, "SKL all X");
	CHECK(r.out_of_range == (1 << TD_BACKEND_BOUND), "SKL all X: back-end bound the one out of range (%d)",
	      r.out_of_range);
	/* 100 cycles = 400 slots: FE 80, issued 220, retired 200, recovery 5 -> bad 40, BE 80 */
	uint64_t skl[5] = {100, 80, 220, 200, 5};
	CHECK(td_level1(TD_SET_CORE, skl, all, &r) == TD_OK, "SKL: within range");
	expect(&r, 500, 100, 200, 200, "SKL 400 slots");
	uint64_t third[5] = {3, 4, 4, 4, 0}; /* 12 slots: FE 4/12, RET 4/12, BAD 0, BE 4/12 */
	td_level1(TD_SET_CORE, third, all, &r);
	expect(&r, 333, 0, 333, 333, "SKL thirds (not adding to 1000)");
	uint64_t eighth[5] = {2, 1, 0, 0, 0}; /* FE 1/8 = 125, BE 7/8 = 875 */
	td_level1(TD_SET_CORE, eighth, all, &r);
	expect(&r, 0, 0, 125, 875, "SKL eighths");
	uint64_t odd[5] = {1999, 1, 0, 0, 0}; /* FE 1/7996 = 0.125 per mille -> 0 */
	td_level1(TD_SET_CORE, odd, all, &r);
	CHECK(r.milli[TD_FRONTEND_BOUND] == 0 && r.milli[TD_BACKEND_BOUND] == 1000, "SKL 1/7996: 0 and 1000 (%lld %lld)",
	      (long long)r.milli[TD_FRONTEND_BOUND], (long long)r.milli[TD_BACKEND_BOUND]);
	uint64_t halfup[5] = {500, 1, 0, 0, 0}; /* 2000 slots; FE 1 = 0.5 per mille -> 1 (half away from zero) */
	td_level1(TD_SET_CORE, halfup, all, &r);
	CHECK(r.milli[TD_FRONTEND_BOUND] == 1, "half a thousandth rounds up (%lld)", (long long)r.milli[TD_FRONTEND_BOUND]);
}

static void test_icl_spr(void)
{
	struct td_result r;
	uint64_t in[4] = {1000, 250, 300, 400}; /* SLOTS, FE, BE, RET: bad = 50 */
	CHECK(td_level1(TD_SET_ICL, in, all, &r) == TD_OK, "ICL: within range");
	expect(&r, 400, 50, 250, 300, "ICL");
	CHECK(td_level1(TD_SET_SPR, in, all, &r) == TD_OK, "SPR: within range");
	expect(&r, 400, 50, 250, 300, "SPR");
	uint64_t same[4] = {9, 9, 9, 9}; /* each 100%, bad = 1 - 3 = -200% */
	CHECK(td_level1(TD_SET_SPR, same, all, &r) == TD_OUT_OF_RANGE, "SPR all X: bad speculation below 0");
	expect(&r, 1000, -2000, 1000, 1000, "SPR all X");
	CHECK(r.out_of_range == (1 << TD_BAD_SPECULATION), "SPR all X: only bad speculation out of range (%d)",
	      r.out_of_range);
}

static void test_atom(void)
{
	struct td_result r;
	uint64_t in[5] = {123, 10, 20, 30, 40}; /* CLK unused; SLOTS = 100 */
	CHECK(td_level1(TD_SET_ATOM, in, all, &r) == TD_OK, "E-core: within range");
	expect(&r, 100, 200, 300, 400, "E-core");
	uint64_t same[5] = {5, 5, 5, 5, 5};
	td_level1(TD_SET_ATOM, same, all, &r);
	expect(&r, 250, 250, 250, 250, "E-core all X");
	uint64_t big[5] = {0, UINT64_MAX, UINT64_MAX, 0, 0};
	CHECK(td_level1(TD_SET_ATOM, big, all, &r) == TD_OVERFLOW, "E-core: SLOTS beyond 64 bits is said");
}

static void test_status(void)
{
	struct td_result r;
	uint64_t zero[5] = {0, 0, 0, 0, 0};
	CHECK(td_level1(TD_SET_CORE, zero, all, &r) == TD_ZERO_SLOTS, "SKL: zero cycles, zero slots");
	CHECK(td_level1(TD_SET_ICL, zero, all, &r) == TD_ZERO_SLOTS, "ICL: zero slots");
	CHECK(td_level1(TD_SET_ATOM, zero, all, &r) == TD_ZERO_SLOTS, "E-core: zero slots");
	int some[5] = {1, 1, 0, 1, 1};
	uint64_t in[5] = {1, 1, 1, 1, 1};
	CHECK(td_level1(TD_SET_CORE, in, some, &r) == TD_MISSING, "an input not measured: missing");
	CHECK(td_inputs(TD_SET_CORE) == 5 && td_inputs(TD_SET_SPR) == 4 && td_inputs(TD_SET_ATOM) == 5,
	      "inputs per set as lib/events.c's sets");
	CHECK_STR(td_set_name(TD_SET_CORE), "SKL", "the core set's name");
	CHECK_STR(td_part_key(TD_BACKEND_BOUND), "backend_bound", "record key");
	CHECK_STR(td_status_text(TD_ZERO_SLOTS), "zero slots", "status phrase");
}

int main(void)
{
	test_core();
	test_icl_spr();
	test_atom();
	test_status();
	return check_summary("test_topdown");
}

/* tests/unit/test_pmucheck.c - lib/pmucheck.c: the on-machine check's
 * judgement (issue 30 item 5, "Checked on the machine before it is
 * trusted"): which events it predicts, by their encoding on each vendor
 * (Intel's architectural events and fixed counters, AMD's and Hygon's
 * PMCx0C0, PMCx0C2, PMCx076), and each kind's bounds at their edges:
 * instructions retired exactly 2N, branch instructions retired exactly N
 * (the fake PMU's 2N is caught), core cycles within TSC / 8 .. TSC x 8,
 * reference cycles within TSC / 2 .. TSC x 2; an event it does not predict
 * is ok as counted. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/pmucheck.h"

/* One encoding and what the check predicts of it. */
struct kind_case {
	enum ev_vendor vendor;
	const char *name;
	uint16_t sel;
	uint8_t umask, cmask, inv, edge, anyt;
	int fixed;
	enum pmucheck_kind want;
	const char *why;
};

#define I EV_VENDOR_INTEL
#define A EV_VENDOR_AMD
#define H EV_VENDOR_HYGON
static const struct kind_case kinds[] = {
	{ I, "INST_RETIRED.ANY_P", 0xC0, 0, 0, 0, 0, 0, -1, PMUCHECK_INSTRUCTIONS, "Intel C0H/00H: instructions retired" },
	{ I, "BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0, 0, 0, 0, 0, -1, PMUCHECK_BRANCHES, "Intel C4H/00H: branches" },
	{ I, "CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0, 0, 0, 0, 0, -1, PMUCHECK_CORE_CYCLES, "Intel 3CH/00H: core cycles" },
	{ EV_VENDOR_OTHER, "3C.00", 0x3C, 0, 0, 0, 0, 0, -1, PMUCHECK_CORE_CYCLES,
	  "another vendor with leaf 0AH: the SDM's architectural 3CH/00H" },
	{ I, "CPU_CLK_UNHALTED.REF_XCLK", 0x3C, 1, 0, 0, 0, 0, -1, PMUCHECK_NONE, "3CH/01H counts the bus clock: none" },
	{ I, "BR_INST_RETIRED.CONDITIONAL", 0xC4, 1, 0, 0, 0, 0, -1, PMUCHECK_NONE, "C4H/01H: not predicted" },
	{ I, "C0.00.CMSK=1", 0xC0, 0, 1, 0, 0, 0, -1, PMUCHECK_NONE, "C0H/00H with CMSK=1 counts cycles: none" },
	{ I, "C0.00.INV", 0xC0, 0, 0, 1, 0, 0, -1, PMUCHECK_NONE, "C0H/00H with INV: none" },
	{ I, "C0.00.EDG", 0xC0, 0, 0, 0, 1, 0, -1, PMUCHECK_NONE, "C0H/00H with EDG: none" },
	{ I, "C0.00.AnyT", 0xC0, 0, 0, 0, 0, 1, -1, PMUCHECK_NONE, "C0H/00H with AnyThread counts both threads: none" },
	{ I, "L1D.REPLACEMENT", 0x51, 1, 0, 0, 0, 0, -1, PMUCHECK_NONE, "L1D.REPLACEMENT: not predicted" },
	{ I, "076.00", 0x076, 0, 0, 0, 0, 0, -1, PMUCHECK_NONE, "AMD's PMCx076 predicts nothing on Intel" },
	{ I, "INST_RETIRED.ANY", 0, 0, 0, 0, 0, 0, 0, PMUCHECK_INSTRUCTIONS, "fixed counter 0: instructions retired" },
	{ I, "CPU_CLK_UNHALTED.THREAD", 0x3C, 0, 0, 0, 0, 0, 1, PMUCHECK_CORE_CYCLES, "fixed counter 1: core cycles" },
	{ I, "CPU_CLK_UNHALTED.REF_TSC", 0, 0, 0, 0, 0, 0, 2, PMUCHECK_REF_CYCLES, "fixed counter 2: reference cycles" },
	{ I, "TOPDOWN.SLOTS", 0, 0, 0, 0, 0, 0, 3, PMUCHECK_NONE, "fixed counter 3 (TOPDOWN.SLOTS): none" },
	{ A, "ex_ret_instr", 0x0C0, 0, 0, 0, 0, 0, -1, PMUCHECK_INSTRUCTIONS, "AMD PMCx0C0: Retired Instructions" },
	{ A, "ex_ret_brn", 0x0C2, 0, 0, 0, 0, 0, -1, PMUCHECK_BRANCHES, "AMD PMCx0C2: Retired Branch Instructions" },
	{ A, "ls_not_halted_cyc", 0x076, 0, 0, 0, 0, 0, -1, PMUCHECK_CORE_CYCLES, "AMD PMCx076: Cycles not in Halt" },
	{ H, "ex_ret_instr", 0x0C0, 0, 0, 0, 0, 0, -1, PMUCHECK_INSTRUCTIONS, "Hygon PMCx0C0: Retired Instructions" },
	{ H, "ex_ret_brn", 0x0C2, 0, 0, 0, 0, 0, -1, PMUCHECK_BRANCHES, "Hygon PMCx0C2: Retired Branch Instructions" },
	{ H, "ls_not_halted_cyc", 0x076, 0, 0, 0, 0, 0, -1, PMUCHECK_CORE_CYCLES, "Hygon PMCx076: Cycles not in Halt" },
	{ A, "ex_ret_brn_tkn", 0x0C4, 0, 0, 0, 0, 0, -1, PMUCHECK_NONE, "AMD PMCx0C4 is Retired Taken Branches: none" },
	{ A, "3C.00", 0x03C, 0, 0, 0, 0, 0, -1, PMUCHECK_NONE, "Intel's 3CH is not AMD's cycles" },
	{ H, "3C.00", 0x03C, 0, 0, 0, 0, 0, -1, PMUCHECK_NONE, "Intel's 3CH is not Hygon's cycles" },
	{ A, "1C0.00", 0x1C0, 0, 0, 0, 0, 0, -1, PMUCHECK_NONE, "PMCx1C0 (a 12-bit select) is not PMCx0C0" },
	{ A, "076.01", 0x076, 1, 0, 0, 0, 0, -1, PMUCHECK_NONE, "PMCx076 with a unit mask: none" },
	{ A, "0C0.00.CMSK=2", 0x0C0, 0, 2, 0, 0, 0, -1, PMUCHECK_NONE, "PMCx0C0 with CntMask: none" },
	{ H, "0C2.00.INV", 0x0C2, 0, 0, 1, 0, 0, -1, PMUCHECK_NONE, "PMCx0C2 with Inv: none" },
};
#undef I
#undef A
#undef H

static void test_kinds(void)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		const struct kind_case *k = &kinds[i];
		struct ev_def d = { .event_select = k->sel, .umask = k->umask, .cmask = k->cmask, .inv = k->inv,
				    .edge = k->edge, .anyt = k->anyt, .counters = EV_COUNTERS_ANY, .fixed = k->fixed };
		strncpy(d.name, k->name, sizeof d.name - 1);
		enum pmucheck_kind got = pmucheck_kind_of(k->vendor, &d, k->fixed);
		CHECK(got == k->want, "%s (%s): kind %d, %d expected", k->why, k->name, got, k->want);
	}
	CHECK(pmucheck_kind_of(EV_VENDOR_INTEL, NULL, -1) == PMUCHECK_NONE, "no definition on a GP counter: none");
	CHECK(pmucheck_kind_of(EV_VENDOR_INTEL, NULL, 0) == PMUCHECK_INSTRUCTIONS, "fixed counter 0 without a definition");
	struct ev_def d = { .event_select = 0x3C, .fixed = 1 };
	CHECK(pmucheck_kind_of(EV_VENDOR_INTEL, &d, -1) == PMUCHECK_CORE_CYCLES,
	      "CPU_CLK_UNHALTED.THREAD placed on a GP counter: judged by 3CH/00H");
	d.msr_index = 0x1A6;
	CHECK(pmucheck_kind_of(EV_VENDOR_INTEL, &d, -1) == PMUCHECK_NONE, "an event with an extra MSR: none");
	d = (struct ev_def){ .event_select = 0xC4, .umask_ext = 0x01 };
	CHECK(pmucheck_kind_of(EV_VENDOR_INTEL, &d, -1) == PMUCHECK_NONE,
	      "C4H/00H with a UMASK2 (IA32_PERFEVTSELx[47:40]) counts a subset: none");
}

static void test_exact_kinds(void)
{
	struct pmucheck_result r;
	pmucheck_judge(PMUCHECK_INSTRUCTIONS, "INST_RETIRED.ANY", 1000000, 3000000, 2000000, &r);
	CHECK(r.ok && r.lo == 2000000 && r.hi == 2000000 && r.counted == 2000000, "2N instructions retired exactly: ok");
	CHECK_STR(r.text, "INST_RETIRED.ANY: 2000000 instructions retired expected, 2000000 counted: ok",
		  "the text names the event, the expectation in its unit, the count and the verdict");
	pmucheck_judge(PMUCHECK_INSTRUCTIONS, "INST_RETIRED.ANY", 1000000, 3000000, 2000001, &r);
	CHECK(!r.ok, "one instruction more than 2N: wrong");
	CHECK(strstr(r.text, "2000001 counted: wrong, unverified") != NULL, "said unverified: '%s'", r.text);
	pmucheck_judge(PMUCHECK_INSTRUCTIONS, "INST_RETIRED.ANY", 1000000, 3000000, 1999999, &r);
	CHECK(!r.ok, "one instruction fewer than 2N: wrong");
	pmucheck_judge(PMUCHECK_INSTRUCTIONS, "INST_RETIRED.ANY", 1000000, 3000000, 0, &r);
	CHECK(!r.ok && strstr(r.text, "does not count, unverified"), "a counter that does not count: '%s'", r.text);

	pmucheck_judge(PMUCHECK_BRANCHES, "BR_INST_RETIRED.ALL_BRANCHES", 1000000, 3000000, 1000000, &r);
	CHECK(r.ok && r.lo == 1000000 && r.hi == 1000000, "N branch instructions retired: ok");
	CHECK_STR(r.text, "BR_INST_RETIRED.ALL_BRANCHES: 1000000 branch instructions retired expected, 1000000 counted: ok",
		  "branches in their unit");
	pmucheck_judge(PMUCHECK_BRANCHES, "BR_INST_RETIRED.ALL_BRANCHES", 1000000, 3000000, 2000000, &r);
	CHECK(!r.ok, "the fake PMU's 2N where N was expected: caught");
	CHECK(strstr(r.text, "1000000 branch instructions retired expected, 2000000 counted: wrong, unverified"),
	      "both figures said: '%s'", r.text);
	pmucheck_judge(PMUCHECK_BRANCHES, "b", 1000000, 3000000, 1000001, &r);
	CHECK(!r.ok, "one branch more than N: wrong");
	pmucheck_judge(PMUCHECK_BRANCHES, "b", 1000000, 3000000, 999999, &r);
	CHECK(!r.ok, "one branch fewer than N: wrong");
	pmucheck_judge(PMUCHECK_INSTRUCTIONS, "i", UINT64_MAX / 2 + 1, 1, UINT64_MAX, &r);
	CHECK_EQ_U64(r.lo, UINT64_MAX, "2N saturates");
}

static void test_cycles(void)
{
	struct pmucheck_result r;
	/* TSC 1000000 ticks: core cycles within 125000 .. 8000000. */
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "CPU_CLK_UNHALTED.THREAD", 500000, 1000000, 1000000, &r);
	CHECK(r.ok && r.lo == 125000 && r.hi == 8000000, "core cycles equal to the TSC: ok, bounds %llu..%llu",
	      (unsigned long long)r.lo, (unsigned long long)r.hi);
	CHECK_STR(r.text, "CPU_CLK_UNHALTED.THREAD: 125000..8000000 core cycles expected (TSC 1000000 /8..x8), 1000000 counted: ok",
		  "cycles' text names their bounds and the TSC");
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000000, 125000, &r);
	CHECK(r.ok, "exactly TSC / 8: ok");
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000000, 124999, &r);
	CHECK(!r.ok, "one below TSC / 8: wrong");
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000000, 8000000, &r);
	CHECK(r.ok, "exactly TSC x 8: ok");
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000000, 8000001, &r);
	CHECK(!r.ok, "one above TSC x 8: wrong");
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000001, 125000, &r);
	CHECK(!r.ok && r.lo == 125001, "TSC / 8 rounded up: 125000 x 8 < 1000001 (lo %llu)", (unsigned long long)r.lo);
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 1000000, 3000000, &r);
	CHECK(r.ok, "3 core cycles a TSC tick (turbo, within the ratio): ok");

	/* Reference cycles: within 500000 .. 2000000. */
	pmucheck_judge(PMUCHECK_REF_CYCLES, "CPU_CLK_UNHALTED.REF_TSC", 500000, 1000000, 1000000, &r);
	CHECK(r.ok && r.lo == 500000 && r.hi == 2000000, "reference cycles equal to the TSC: ok");
	pmucheck_judge(PMUCHECK_REF_CYCLES, "r", 500000, 1000000, 499999, &r);
	CHECK(!r.ok, "one below TSC / 2: wrong");
	pmucheck_judge(PMUCHECK_REF_CYCLES, "r", 500000, 1000000, 500000, &r);
	CHECK(r.ok, "exactly TSC / 2: ok");
	pmucheck_judge(PMUCHECK_REF_CYCLES, "r", 500000, 1000000, 2000000, &r);
	CHECK(r.ok, "exactly TSC x 2: ok");
	pmucheck_judge(PMUCHECK_REF_CYCLES, "r", 500000, 1000000, 2000001, &r);
	CHECK(!r.ok, "one above TSC x 2: wrong");
	pmucheck_judge(PMUCHECK_REF_CYCLES, "r", 500000, 1000000, 3000000, &r);
	CHECK(!r.ok, "3 reference cycles a TSC tick: beyond the reference ratio, though within the core-cycle one");
	CHECK(strstr(r.text, "reference cycles expected") && strstr(r.text, "wrong, unverified"), "in its unit: '%s'", r.text);

	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, 0, 0, &r);
	CHECK(!r.ok && strstr(r.text, "TSC did not advance"), "no TSC advance: nothing to judge cycles by: '%s'", r.text);
	pmucheck_judge(PMUCHECK_CORE_CYCLES, "c", 500000, UINT64_MAX / 4, UINT64_MAX, &r);
	CHECK(r.ok && r.hi == UINT64_MAX, "TSC x 8 saturates");
}

static void test_none(void)
{
	struct pmucheck_result r;
	pmucheck_judge(PMUCHECK_NONE, "L1D.REPLACEMENT", 1000000, 3000000, 12345, &r);
	CHECK(r.ok && r.kind == PMUCHECK_NONE, "an event the check does not predict: ok, kind none");
	CHECK_STR(r.text, "L1D.REPLACEMENT: not predicted, 12345 counted", "said not predicted with its count");
	CHECK_EQ_U64(r.counted, 12345, "its count kept");
	pmucheck_judge((enum pmucheck_kind)42, NULL, 1, 1, 7, &r);
	CHECK(r.ok && r.kind == PMUCHECK_NONE && strstr(r.text, "event: not predicted"),
	      "an unknown kind is none, a NULL name 'event': '%s'", r.text);
	char longname[200];
	memset(longname, 'X', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	pmucheck_judge(PMUCHECK_BRANCHES, longname, 1000000, 3000000, 2000000, &r);
	CHECK(strlen(r.text) < sizeof r.text && strstr(r.text, "counted: wrong, unverified"),
	      "a long name is cut so the verdict fits: '%s'", r.text);
}

int main(void)
{
	test_kinds();
	test_exact_kinds();
	test_cycles();
	test_none();
	return check_summary("test_pmucheck");
}

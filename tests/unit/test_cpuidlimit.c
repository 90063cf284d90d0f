/* tests/unit/test_cpuidlimit.c - lib/cpuidlimit.c against a fake CPU whose
 * CPUID.00H:EAX is 2 while IA32_MISC_ENABLE[22] is set, as SDM Vol. 4
 * table 2-2 says, and its real maximum otherwise. The real maxima and
 * signatures are copied from libcpuid's dumps (tests/ folder, BSD-2-Clause,
 * github:anrieff/libcpuid; each file named). */
#include <stdint.h>
#include <stdio.h>
#include "check.h"
#include "../../lib/cpuidlimit.h"

#define GP_FAULT 0x10d

struct fake {
	uint32_t real_max;   /* CPUID.00H:EAX without the limit */
	uint64_t misc;       /* IA32_MISC_ENABLE */
	int rd_fault, wr_fault, sticky; /* sticky: the write leaves bit 22 set */
	int writes;
};

static uint32_t fmaxleaf(void *ctx)
{
	struct fake *f = ctx;
	return f->misc & CPUID_LIMIT_BIT ? 2 : f->real_max;
}

static int frd(void *ctx, uint32_t msr, uint64_t *v)
{
	struct fake *f = ctx;
	*v = 0;
	if (msr != CPUID_LIMIT_MSR || f->rd_fault)
		return GP_FAULT;
	*v = f->misc;
	return 0;
}

static int fwr(void *ctx, uint32_t msr, uint64_t v)
{
	struct fake *f = ctx;
	f->writes++;
	if (msr != CPUID_LIMIT_MSR || f->wr_fault)
		return GP_FAULT;
	f->misc = f->sticky ? v | CPUID_LIMIT_BIT : v;
	return 0;
}

static const char *fname(void *ctx, int fault)
{
	(void)ctx;
	return fault == GP_FAULT ? "#GP" : "?";
}

static struct cpuid_limit lift(struct fake *f, int intel, uint32_t family, uint32_t model)
{
	struct cpuid_limit_ops ops = { f, fmaxleaf, frd, fwr, fname };
	struct cpuid_limit out;
	cpuid_limit_lift(&ops, intel, family, model, &out);
	return out;
}

static void test_applies(void)
{
	/* Linux's early_init_intel: family > 6, or family 6 from model 0DH. */
	CHECK(cpuid_limit_applies(1, 6, 0xF), "Core 2 6300 (6/0FH): applies");
	CHECK(cpuid_limit_applies(1, 6, 0xD), "Pentium M Dothan (6/0DH): applies");
	CHECK(!cpuid_limit_applies(1, 6, 0x9), "Pentium M Banias (6/09H): does not");
	CHECK(cpuid_limit_applies(1, 0xF, 0x3), "Pentium 4 (0FH/03H): applies");
	CHECK(cpuid_limit_applies(1, 0xF, 0x0), "Pentium 4 (0FH/00H): applies, as Linux");
	CHECK(!cpuid_limit_applies(0, 0xF, 0x6B), "AuthenticAMD family 0FH: never");
	CHECK(!cpuid_limit_applies(1, 5, 0x4), "Pentium MMX (5/04H): does not");
}

static void test_cleared(void)
{
	/* tests/intel/x86-64/core/intel-core2-cpu-6300.test: max basic leaf
	 * 0AH (000006F2: family 6 model 0FH); the BIOS set the limit. */
	struct fake f = { .real_max = 0xA, .misc = 0x0000000000850089ull | CPUID_LIMIT_BIT };
	struct cpuid_limit r = lift(&f, 1, 6, 0xF);
	CHECK(r.was_set && r.cleared, "Core 2 6300 limited: the bit found and cleared");
	CHECK_EQ_U64(r.max_before, 2, "Core 2 6300 limited: CPUID.00H:EAX was 2");
	CHECK_EQ_U64(r.max_after, 0xA, "Core 2 6300: max basic leaf 0AH once cleared");
	CHECK_EQ_U64(f.misc, 0x0000000000850089ull, "only bit 22 was cleared");
	CHECK_STR(r.line,
		  "env: cpuid: the BIOS limited CPUID to leaf 0x2 (IA32_MISC_ENABLE[22] Limit CPUID "
		  "Maxval, MSR 1A0H): cleared, as Linux does; max basic leaf now 0xa",
		  "Core 2 6300 limited: the one line");

	/* tests/intel/x86-64/nehalem/intel-core-i5-cpu-650.test: max 0BH, not
	 * limited: nothing written, nothing said. */
	f = (struct fake){ .real_max = 0xB, .misc = 0x0000000000850089ull };
	r = lift(&f, 1, 6, 0x25);
	CHECK(!r.was_set && !r.cleared, "i5-650 not limited: nothing to clear");
	CHECK_EQ_U64(f.writes, 0, "i5-650 not limited: no WRMSR");
	CHECK_STR(r.line, "", "i5-650 not limited: no line");
	CHECK_EQ_U64(r.max_after, 0xB, "i5-650: max basic leaf 0BH");

	/* AuthenticAMD: the MSR is not touched. */
	f = (struct fake){ .real_max = 0xD, .rd_fault = 1 };
	r = lift(&f, 0, 0x17, 0x1);
	CHECK_EQ_U64(f.writes, 0, "AMD: no WRMSR");
	CHECK_STR(r.line, "", "AMD: no line");
}

static void test_failures(void)
{
	struct fake f = { .real_max = 0xA, .misc = CPUID_LIMIT_BIT, .wr_fault = 1 };
	struct cpuid_limit r = lift(&f, 1, 6, 0xF);
	CHECK(r.was_set && !r.cleared, "the write faults: found, not cleared");
	CHECK_EQ_U64(r.max_after, 2, "the write faults: the max basic leaf stays 2");
	CHECK(strstr(r.line, "clearing it faulted (#GP); leaves above it") != NULL,
	      "the write faults: the line says so and what is lost: %s", r.line);

	f = (struct fake){ .real_max = 0xA, .misc = CPUID_LIMIT_BIT, .sticky = 1 };
	r = lift(&f, 1, 6, 0xF);
	CHECK(r.was_set && !r.cleared, "the bit sticks: not cleared");
	CHECK(strstr(r.line, "clearing it did not take (MSR 1A0H still has bit 22; max basic leaf 0x2)")
		      != NULL, "the bit sticks: the line says so: %s", r.line);

	/* The read faults (a hypervisor): said only where the max basic leaf
	 * is low enough to be the limit's. */
	f = (struct fake){ .real_max = 3, .rd_fault = 1 };
	r = lift(&f, 1, 0xF, 0x3);
	CHECK(strstr(r.line, "max basic leaf 0x3 and IA32_MISC_ENABLE (MSR 1A0H) unreadable (#GP)") != NULL,
	      "unreadable, max 3: the line says the limit cannot be ruled out: %s", r.line);
	CHECK_EQ_U64(f.writes, 0, "unreadable: no WRMSR");
	f = (struct fake){ .real_max = 0x16, .rd_fault = 1 };
	r = lift(&f, 1, 6, 0x9E);
	CHECK_STR(r.line, "", "unreadable, max 16H: nothing to say");
}

int main(void)
{
	test_applies();
	test_cleared();
	test_failures();
	return check_summary("test_cpuidlimit");
}

/* tests/unit/test_cpus.c - lib/cpus.c: topology from CPUID leaves 1FH,
 * 0BH, legacy 1H/4H and AMD's, the cpus= values and the selection, with
 * made-up CPUID values of the machines the boot tests emulate and of
 * hybrid parts QEMU cannot. */
#include <stdint.h>
#include "check.h"
#include "../../lib/cpus.h"

static struct cpus_topo topo_ext(int leaf, int n, const uint32_t *type, const uint32_t *shift)
{
	struct cpus_topo_cpuid in = { .leaf = leaf, .nlevels = n };
	for (int i = 0; i < n; i++) {
		in.level_type[i] = type[i];
		in.level_shift[i] = shift[i];
	}
	struct cpus_topo t;
	cpus_topo_from_cpuid(&in, &t);
	return t;
}

static void split_is(const struct cpus_topo *t, uint32_t id, uint32_t pkg, uint32_t core, uint32_t thread)
{
	uint32_t p, c, th;
	cpus_topo_split(t, id, &p, &c, &th);
	CHECK_EQ_U64(p, pkg, "%s topology, APIC ID %#x: package", t->source, id);
	CHECK_EQ_U64(c, core, "%s topology, APIC ID %#x: core", t->source, id);
	CHECK_EQ_U64(th, thread, "%s topology, APIC ID %#x: thread", t->source, id);
}

static void test_topology(void)
{
	/* QEMU -smp 4,threads=2: leaf 0BH SMT shift 1, core shift 2. */
	struct cpus_topo t = topo_ext(0x0B, 2, (const uint32_t[]){ 1, 2 }, (const uint32_t[]){ 1, 2 });
	CHECK(t.known, "QEMU -smp 4,threads=2, leaf 0BH: topology known");
	CHECK_STR(t.source, "CPUID 0BH", "leaf 0BH named as the source");
	split_is(&t, 0, 0, 0, 0);
	split_is(&t, 1, 0, 0, 1);
	split_is(&t, 2, 0, 1, 0);
	split_is(&t, 3, 0, 1, 1);
	split_is(&t, 5, 1, 0, 1);
	/* -smp 2,sockets=2: no SMT, one core a package: shifts 0 and 0. */
	t = topo_ext(0x0B, 2, (const uint32_t[]){ 1, 2 }, (const uint32_t[]){ 0, 0 });
	split_is(&t, 1, 1, 0, 0);
	/* Leaf 1FH with module and die levels: SMT 1, core 4, module 5, die 7. */
	t = topo_ext(0x1F, 4, (const uint32_t[]){ 1, 2, 3, 5 }, (const uint32_t[]){ 1, 4, 5, 7 });
	CHECK_STR(t.source, "CPUID 1FH", "leaf 1FH named as the source");
	CHECK_EQ_U64(t.smt_shift, 1, "leaf 1FH: SMT shift from the SMT level");
	CHECK_EQ_U64(t.pkg_shift, 7, "leaf 1FH: package shift from the last level (die)");
	split_is(&t, 0x93, 1, 0x09, 1);
	/* No SMT level (a part without hyper-threading lists the core level only). */
	t = topo_ext(0x1F, 1, (const uint32_t[]){ 2 }, (const uint32_t[]){ 3 });
	CHECK(t.known && t.smt_shift == 0 && t.pkg_shift == 3,
	      "no SMT level: SMT shift 0, package shift from the core level");
	split_is(&t, 9, 1, 1, 0);
	/* Nonsense is refused: an SMT shift above the package's, a shift above 32. */
	t = topo_ext(0x0B, 2, (const uint32_t[]){ 1, 2 }, (const uint32_t[]){ 4, 2 });
	CHECK(!t.known && t.smt_shift == 0 && t.pkg_shift == 0,
	      "SMT shift above the package's: refused");
	CHECK_STR(t.source, "none", "refused topology: no source");
	t = topo_ext(0x0B, 1, (const uint32_t[]){ 2 }, (const uint32_t[]){ 33 });
	CHECK(!t.known, "shift above 32: refused");
	split_is(&t, 7, 7, 0, 0); /* unknown: every APIC ID its own package */
	/* A 32-bit shift: everything below the package. */
	t = topo_ext(0x1F, 2, (const uint32_t[]){ 1, 2 }, (const uint32_t[]){ 1, 32 });
	CHECK(t.known, "32-bit shift: known");
	split_is(&t, 0xFFFFFFFFu, 0, 0x7FFFFFFF, 1);

	/* Legacy Intel: HTT, 16 logical IDs, 8 core IDs: 1 thread bit, 4 package bits. */
	struct cpus_topo_cpuid in = { .htt = 1, .logical_ids = 16, .core_ids = 8 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 1 && t.pkg_shift == 4,
	      "legacy Intel, 16 logical and 8 core IDs: 1 thread bit, 4 package bits");
	CHECK_STR(t.source, "CPUID 1H/4H", "legacy leaves 1H/4H named as the source");
	split_is(&t, 0x13, 1, 1, 1);
	/* 6 logical IDs, 3 cores (rounded up to powers of two). */
	in = (struct cpus_topo_cpuid){ .htt = 1, .logical_ids = 6, .core_ids = 3 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.smt_shift == 1 && t.pkg_shift == 3,
	      "6 logical IDs, 3 cores: rounded up to 2 and 4, 1 and 3 bits");
	/* No leaf 4: cores unknown, counted as one: every logical ID a thread. */
	in = (struct cpus_topo_cpuid){ .htt = 1, .logical_ids = 2 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.smt_shift == 1 && t.pkg_shift == 1,
	      "no leaf 4: one core, every logical ID a thread");
	/* Not HTT: nothing to go by. */
	in = (struct cpus_topo_cpuid){ .htt = 0, .logical_ids = 8, .core_ids = 4 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(!t.known, "legacy without HTT: unknown");
	/* AMD: ApicIdSize 4, 2 threads a core. */
	in = (struct cpus_topo_cpuid){ .amd = 1, .amd_apic_id_size = 4, .amd_threads = 2 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 1 && t.pkg_shift == 4,
	      "AMD ApicIdSize 4, 2 threads a core: 1 thread bit, 4 package bits");
	CHECK_STR(t.source, "CPUID 8000001EH", "AMD with 8000001EH named as the source");
	in = (struct cpus_topo_cpuid){ .amd = 1, .amd_apic_id_size = 3 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 0 && t.pkg_shift == 3,
	      "AMD without threads: no SMT bits, ApicIdSize 3");
	CHECK_STR(t.source, "CPUID 80000008H", "AMD with 80000008H only named as the source");
	/* The extended leaf wins over the legacy fields. */
	in = (struct cpus_topo_cpuid){ .leaf = 0x0B, .nlevels = 2, .level_type = { 1, 2 }, .level_shift = { 0, 3 },
				       .htt = 1, .logical_ids = 16, .core_ids = 8 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.smt_shift == 0 && t.pkg_shift == 3,
	      "extended leaf 0BH wins over the legacy fields");
	/* AMD family 15h (FX-8150: ApicIdSize 4, NC 7, 8000001EH:EBX[15:8] = 1):
	 * the two cores of a compute unit are two cores, no SMT (issue 20 item 1). */
	in = (struct cpus_topo_cpuid){ .amd = 1, .amd_family = 0x15, .amd_apic_id_size = 4, .amd_nc = 8,
				       .amd_threads = 2 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 0 && t.pkg_shift == 4 && t.has_cu && t.cu_shift == 1,
	      "family 15h: no SMT, compute units of 2 cores");
	CHECK(t.grouping[0] != 0, "family 15h: the cpus: line says how its cores are counted");
	split_is(&t, 5, 0, 5, 0);
	CHECK_EQ_U64(cpus_topo_unit(&t, 5), 2, "family 15h: core 5 is in compute unit 2");
	/* The same on family 17h: threads. */
	in.amd_family = 0x17;
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.smt_shift == 1 && !t.has_cu && !t.grouping[0], "family 17h: 8000001EH gives threads per core");
	/* K8 dual-core (Athlon 64 X2: CmpLegacy, NC 1, ApicIdCoreIdSize 0):
	 * 2 cores, no SMT (issue 20 item 2). */
	in = (struct cpus_topo_cpuid){ .amd = 1, .amd_family = 0xF, .amd_nc = 2, .htt = 1, .logical_ids = 2 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 0 && t.pkg_shift == 1, "K8 dual-core: NC + 1 = 2 cores, no SMT");
	CHECK_STR(t.source, "CPUID 80000008H", "K8 dual-core: from 80000008H");
	split_is(&t, 1, 0, 1, 0);
	/* AMD without 80000008H but HTT: the logical processors are cores. */
	in = (struct cpus_topo_cpuid){ .amd = 1, .htt = 1, .logical_ids = 2 };
	cpus_topo_from_cpuid(&in, &t);
	CHECK(t.known && t.smt_shift == 0 && t.pkg_shift == 1, "AMD legacy HTT: cores, no SMT");

	CHECK_STR(cpus_core_type_name(0x40), "P-core (Intel Core)",
	          "core type 40h (leaf 1AH) is a P-core");
	CHECK_STR(cpus_core_type_name(0x20), "E-core (Intel Atom)", "core type 20h is an E-core");
	CHECK_STR(cpus_core_type_name(0), "not hybrid", "core type 0: not hybrid");
	CHECK_STR(cpus_core_type_name(0x10), "unknown core type", "core type 10h: unknown");
	CHECK_STR(cpus_core_type_name(CPU_TYPE_AMD(0)), "performance core (AMD)", "AMD CoreType 0: performance");
	CHECK_STR(cpus_core_type_name(CPU_TYPE_AMD(1)), "efficiency core (AMD)", "AMD CoreType 1: efficiency");
	CHECK(cpus_core_is_p(CPU_TYPE_AMD(0)) && cpus_core_is_e(CPU_TYPE_AMD(1)) && !cpus_core_is_p(CPU_TYPE_AMD(1)),
	      "AMD's performance cores are cpus=p's, its efficiency cores cpus=e's");
}

static int parse(const char *v, struct cpus_sel *s, char *err)
{
	return cpus_parse(v, strlen(v), s, err, 200);
}

static void test_parse(void)
{
	struct cpus_sel s;
	char err[200];
	CHECK(parse("boot", &s, err) == 0 && s.mode == CPUS_BOOT && err[0] == 0,
	      "cpus=boot: the boot CPU, no error");
	CHECK(parse("all", &s, err) == 0 && s.mode == CPUS_ALL, "cpus=all");
	CHECK(parse("p", &s, err) == 0 && s.mode == CPUS_P, "cpus=p: P-cores");
	CHECK(parse("e", &s, err) == 0 && s.mode == CPUS_E, "cpus=e: E-cores");
	CHECK(parse("one-per-core", &s, err) == 0 && s.mode == CPUS_ONE_PER_CORE,
	      "cpus=one-per-core");
	CHECK_STR(cpus_mode_name(CPUS_ONE_PER_CORE), "one-per-core", "one-per-core's name");
	CHECK(parse("0,2,4-7", &s, err) == 0 && s.mode == CPUS_LIST && s.n == 6,
	      "cpus=0,2,4-7: a list of 6 CPUs");
	CHECK(s.list[0] == 0 && s.list[1] == 2 && s.list[2] == 4 && s.list[5] == 7,
	      "cpus=0,2,4-7: in order, the range expanded");
	CHECK(parse("3,1,3", &s, err) == 0 && s.n == 2 && s.list[0] == 3 && s.list[1] == 1,
	      "cpus=3,1,3: duplicate dropped, order kept");
	CHECK(parse("7", &s, err) == 0 && s.n == 1 && s.list[0] == 7, "cpus=7: one CPU");
	CHECK(parse("65535", &s, err) == 0 && s.list[0] == 65535,
	      "cpus=65535: the largest CPU number");
	CHECK(parse("0-63", &s, err) == 0 && s.n == 64, "cpus=0-63: 64 CPUs, the most");
	static const char *const bad[] = { "x", "", "1,,2", "1,", ",1", "3-1", "65536", "0-64", "1-", "-1",
					   "Boot", "all,1", "1 2", "0x1", "0000001" };
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		s.mode = CPUS_ALL;
		CHECK(parse(bad[k], &s, err) == -1 && s.mode == CPUS_BOOT && s.n == 0,
		      "cpus=%s refused: the boot CPU, no list", bad[k]);
		CHECK(strncmp(err, "cpus=", 5) == 0 && strstr(err, "accepted: boot, all, p, e, one-per-core"),
		      "cpus=%s: the error names the key and the accepted values", bad[k]);
	}
	parse("x", &s, err);
	CHECK_STR(err, "cpus=x: not a word or a list of CPU numbers 0..65535 (accepted: boot, all, p, e, "
		       "one-per-core, or CPU numbers in MADT order such as 0,2,4-7)",
		       "cpus=x: the whole error text");
	parse("al", &s, err);
	CHECK(strstr(err, "cpus=al: not a word or a list of CPU numbers 0..65535 (did you mean all?) (accepted: ") == err,
	      "cpus=al: did you mean all: %s", err);
	parse("one-per-cores", &s, err);
	CHECK(strstr(err, "(did you mean one-per-core?)") != NULL, "cpus=one-per-cores: did you mean one-per-core");
	parse("3-1", &s, err);
	CHECK(strstr(err, "cpus=3-1: a range A-B needs A <= B") != NULL,
	      "cpus=3-1: a backwards range, said");
	parse("0-64", &s, err);
	CHECK(strstr(err, "more than 64 CPU numbers") != NULL,
	      "cpus=0-64: 65 CPU numbers, too many");
	parse("\x1b[2J", &s, err); /* echoed escaped */
	CHECK(strchr(err, 0x1b) == NULL, "an escape byte in the value is echoed escaped");
}

/* 4 CPUs of -smp 4,threads=2 (pkg 0; cores 0,0,1,1; threads 0,1,0,1). */
static struct cpus_desc smp4[4] = {
	{ .apic_id = 0, .online = 1, .is_boot = 1, .core = 0, .thread = 0 },
	{ .apic_id = 1, .online = 1, .core = 0, .thread = 1 },
	{ .apic_id = 2, .online = 1, .core = 1, .thread = 0 },
	{ .apic_id = 3, .online = 1, .core = 1, .thread = 1 },
};

static int sel(const char *v, const struct cpus_desc *c, int n, uint8_t *chosen, struct cpus_choice *out)
{
	struct cpus_sel s;
	char err[200];
	CHECK(parse(v, &s, err) == 0, "cpus=%s parses", v);
	cpus_select(&s, c, n, chosen, out);
	int mask = 0;
	for (int i = 0; i < n; i++)
		mask |= chosen[i] << i;
	CHECK_EQ_U64(out->count, __builtin_popcount(mask),
	             "cpus=%s: the count is the CPUs chosen", v);
	return mask;
}

static void test_select(void)
{
	uint8_t ch[8];
	struct cpus_choice out;
	CHECK_EQ_U64(sel("boot", smp4, 4, ch, &out), 0x1, "cpus=boot on -smp 4: CPU 0");
	CHECK(out.nmsgs == 0 && !out.fell_back, "cpus=boot: no message, no fallback");
	CHECK_EQ_U64(sel("all", smp4, 4, ch, &out), 0xF, "cpus=all on -smp 4: all four");
	CHECK_EQ_U64(sel("one-per-core", smp4, 4, ch, &out), 0x5,
	             "cpus=one-per-core on -smp 4: thread 0 of each core");
	CHECK_EQ_U64(sel("3,1", smp4, 4, ch, &out), 0xA, "cpus=3,1: CPUs 1 and 3");
	/* A CPU that does not exist: a line; the rest measured. */
	CHECK_EQ_U64(sel("1,7", smp4, 4, ch, &out), 0x2,
	             "cpus=1,7: CPU 7 does not exist, CPU 1 measured");
	CHECK(out.nmsgs == 1 && !out.fell_back, "cpus=1,7: one message, no fallback");
	CHECK_STR(out.msg[0], "cpus=: CPU 7 does not exist: this machine has 4 CPUs in its MADT (numbers 0 up)",
	          "cpus=1,7: message for CPU 7");
	/* Nothing left: the boot CPU, said. */
	CHECK_EQ_U64(sel("7", smp4, 4, ch, &out), 0x1, "cpus=7: nothing left, the boot CPU");
	CHECK(out.nmsgs == 2 && out.fell_back, "cpus=7: two messages, fell back");
	CHECK_STR(out.msg[1], "cpus=: no CPU selected is online: measuring the boot CPU (number 0, APIC ID 0) "
			      "instead", "cpus=7: fallback message names the boot CPU");
	/* Not hybrid: p and e say why and fall back. */
	CHECK_EQ_U64(sel("p", smp4, 4, ch, &out), 0x1, "cpus=p, not hybrid: the boot CPU");
	CHECK(out.fell_back && out.nmsgs == 2, "cpus=p, not hybrid: fell back, two messages");
	CHECK_STR(out.msg[0], "cpus=p: no CPU reports a hybrid core type (CPUID.07H:EDX[15] Hybrid is 0, or leaf "
			      "1AH is absent; AMD: CPUID 80000026H:EAX[30] is 0, or the leaf is absent)",
		  "cpus=p, not hybrid: message says why");
	CHECK_EQ_U64(sel("e", smp4, 4, ch, &out), 0x1, "cpus=e, not hybrid: the boot CPU");
	CHECK(strncmp(out.msg[0], "cpus=e: ", 8) == 0, "cpus=e, not hybrid: message for cpus=e");

	/* An offline CPU: left out of all, said in a list. */
	struct cpus_desc c[4];
	memcpy(c, smp4, sizeof c);
	c[2].online = 0;
	CHECK_EQ_U64(sel("all", c, 4, ch, &out), 0xB,
	             "cpus=all with CPU 2 offline: the other three");
	CHECK_EQ_U64(sel("2", c, 4, ch, &out), 0x1, "cpus=2, offline: the boot CPU");
	CHECK_STR(out.msg[0], "cpus=: CPU 2 (APIC ID 2) is not online: left out",
	          "cpus=2, offline: said");
	/* one-per-core takes the next thread of a core whose first is offline
	 * (CPU 2 is still offline: core 1 is measured on CPU 3). */
	CHECK_EQ_U64(sel("one-per-core", c, 4, ch, &out), 0x9,
	             "cpus=one-per-core, CPU 2 offline: core 1 on CPU 3");

	/* A hybrid machine: 2 P-cores with 2 threads, 4 E-cores; the boot CPU is a P-core thread. */
	struct cpus_desc h[8] = {
		{ .apic_id = 0, .online = 1, .is_boot = 1, .core_type = 0x40, .core = 0, .thread = 0 },
		{ .apic_id = 1, .online = 1, .core_type = 0x40, .core = 0, .thread = 1 },
		{ .apic_id = 8, .online = 1, .core_type = 0x40, .core = 4, .thread = 0 },
		{ .apic_id = 9, .online = 1, .core_type = 0x40, .core = 4, .thread = 1 },
		{ .apic_id = 16, .online = 1, .core_type = 0x20, .core = 8 },
		{ .apic_id = 18, .online = 1, .core_type = 0x20, .core = 9 },
		{ .apic_id = 20, .online = 1, .core_type = 0x20, .core = 10 },
		{ .apic_id = 22, .online = 0, .core_type = 0x20, .core = 11 },
	};
	CHECK_EQ_U64(sel("p", h, 8, ch, &out), 0x0F, "hybrid cpus=p: the 4 P-core threads");
	CHECK(out.nmsgs == 0, "hybrid cpus=p: no message");
	CHECK_EQ_U64(sel("e", h, 8, ch, &out), 0x70, "hybrid cpus=e: the 3 online E-cores");
	CHECK_EQ_U64(sel("one-per-core", h, 8, ch, &out), 0x75,
	             "hybrid cpus=one-per-core: a thread per P-core, every online E-core");
	CHECK_EQ_U64(sel("all", h, 8, ch, &out), 0x7F, "hybrid cpus=all: every online CPU");
	/* The boot CPU need not be CPU 0. */
	h[0].is_boot = 0;
	h[4].is_boot = 1;
	CHECK_EQ_U64(sel("boot", h, 8, ch, &out), 0x10, "cpus=boot: the boot CPU is CPU 4");
	CHECK_EQ_U64(sel("99", h, 8, ch, &out), 0x10, "cpus=99: falls back to the boot CPU, CPU 4");
	CHECK(out.fell_back, "cpus=99: fell back");
	/* More than CPUS_MSG_MAX lines: the rest are not written past the array. */
	CHECK_EQ_U64(sel("20-40", h, 8, ch, &out), 0x10, "cpus=20-40: falls back to the boot CPU");
	CHECK_EQ_U64(out.nmsgs, CPUS_MSG_MAX, "cpus=20-40: messages stop at CPUS_MSG_MAX");
	CHECK(out.fell_back && strncmp(out.msg[CPUS_MSG_MAX - 1], "cpus=: no CPU selected is online", 32) == 0,
	      "cpus=20-40: the last message slot says it fell back");
}

int main(void)
{
	test_topology();
	test_parse();
	test_select();
	return check_summary("cpus");
}

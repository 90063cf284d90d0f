/* tests/unit/test_events.c - lib/events.h: every event of every table
 * encodes as the upstream data says (tools/mkevents.py --expect computes
 * each IA32_PERFEVTSELx / PERF_CTL value from the extract in tools/events/
 * on its own: build/host/events_expect.txt); nanoBench's notation, good
 * and bad lines; names in any case; did-you-mean; groups; the table of
 * the QEMU CPU models and of every real CPU's CPUID dump
 * (tests/corpus/cpuid). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/events.h"
#include "../../lib/evnotation.h"
#include "../../lib/evtables.h"

static const char *build_dir(void)
{
	const char *b = getenv("BENCH_BUILD");
	return b ? b : "build";
}

/* A CPU that selects table t (its first selection row). */
static int cpu_for_table(int t, struct ev_cpu *c)
{
	for (int i = 0; i < ev_tab_nselects; i++) {
		const struct ev_tab_select *s = &ev_tab_selects[i];
		if (s->table != t)
			continue;
		memset(c, 0, sizeof *c);
		c->vendor = (enum ev_vendor)s->vendor;
		c->family = s->family;
		c->model = s->model_lo;
		c->stepping = 0;
		while (c->stepping < 15 && !(s->steppings >> c->stepping & 1))
			c->stepping++;
		c->core_type = s->core_type;
		c->native_model = s->native_model;
		return 0;
	}
	return -1;
}

/* Every event of every table against the expectations. */
static void check_tables(void)
{
	char path[512], line[512];
	snprintf(path, sizeof path, "%s/host/events_expect.txt", build_dir());
	FILE *f = fopen(path, "r");
	CHECK(f != 0, "%s exists (make builds it with tools/mkevents.py --expect)", path);
	if (!f)
		return;
	int t = -1, tables = 0, events = 0, dups = 0, bad = 0, seen_n = 0;
	static char seen[4096][260];
	struct ev_cpu c;
	while (fgets(line, sizeof line, f)) {
		char name[256], src[200];
		unsigned long long sel, ctr, msr, val;
		int fixed, alone, count;
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "table\t", 6)) {
			char *p = line + 6, *q = strchr(p, '\t');
			*q = 0;
			t = -1;
			for (int i = 0; i < ev_tab_ntables; i++)
				if (!strcmp(ev_tab_tables[i].name, p))
					t = i;
			CHECK(t >= 0, "table %s of the extract is in the C tables", p);
			count = atoi(q + 1);
			snprintf(src, sizeof src, "%s", strchr(q + 1, '\t') + 1);
			if (t < 0)
				continue;
			CHECK_EQ_U64(ev_tab_tables[t].count, count, "table %s: events", p);
			CHECK(cpu_for_table(t, &c) == 0, "table %s is selected by some CPU", p);
			CHECK_STR(ev_table_name(&c, 0, 0), p, "the CPU of table %s's first selection row selects it", p);
			CHECK_STR(ev_tab_tables[t].source, src, "table %s: its source", p);
			tables++;
			seen_n = 0;
			continue;
		}
		if (t < 0)
			continue;
		if (sscanf(line, "%255s %llx %d %llx %llx %llx %d", name, &sel, &fixed, &ctr, &msr, &val, &alone) != 7) {
			CHECK(0, "expectation line '%s' reads", line);
			continue;
		}
		events++;
		/* A name twice in one table: the first one is what a name gives. */
		int dup = 0;
		for (int i = 0; i < seen_n; i++)
			if (!strcmp(seen[i], name))
				dup = 1;
		if (dup) {
			dups++;
			continue;
		}
		if (seen_n < 4096)
			snprintf(seen[seen_n++], sizeof seen[0], "%s", name);
		struct ev_def d[8];
		char err[200];
		int n = ev_resolve(&c, name, strlen(name), d, 8, err, sizeof err);
		if (n != 1 || strcasecmp(d[0].name, name) || d[0].perfevtsel != sel || d[0].fixed != fixed ||
		    d[0].counters != ctr || d[0].msr_index != msr || d[0].msr_value != val ||
		    d[0].taken_alone != alone || d[0].origin != EV_ORIGIN_TABLE ||
		    strcmp(d[0].source, ev_tab_tables[t].source)) {
			if (bad++ < 10)
				CHECK(0, "%s %s: the C table gives %d event(s) %s perfevtsel 0x%llx fixed %d counters 0x%x "
				      "MSR 0x%x=0x%llx alone %d (%s); upstream 0x%llx fixed %d counters 0x%llx MSR 0x%llx=0x%llx "
				      "alone %d", ev_tab_tables[t].name, name, n, n == 1 ? d[0].name : "-",
				      (unsigned long long)d[0].perfevtsel, d[0].fixed, d[0].counters, d[0].msr_index,
				      (unsigned long long)d[0].msr_value, d[0].taken_alone, err, sel, fixed, ctr, msr, val,
				      alone);
		}
	}
	fclose(f);
	CHECK_EQ_U64(bad, 0, "every event of every table encodes as the upstream data says (%d events)", events);
	CHECK_EQ_U64(tables, ev_tab_ntables, "every C table is in the expectations");
	CHECK_EQ_U64(tables, 52, "52 tables: 47 intel/perfmon core files, 5 libpfm4 Zen tables");
	CHECK(events > 19000, "the tables hold every core event of the extract (%d)", events);
	printf("events: %d tables, %d events, %d names a second time in their table\n", tables, events, dups);
}

static struct ev_cpu intel(uint32_t model, uint32_t stepping)
{
	struct ev_cpu c = {.vendor = EV_VENDOR_INTEL, .family = 6, .model = model, .stepping = stepping};
	return c;
}

static struct ev_cpu amd(enum ev_vendor v, uint32_t family, uint32_t model)
{
	struct ev_cpu c = {.vendor = v, .family = family, .model = model};
	return c;
}

static void check_selection(void)
{
	char why[200];
	struct ev_cpu c;
	c = intel(0x5E, 3);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "SKL core V59", "QEMU Skylake-Client (6, 5EH) gets perfmon SKL");
	c = intel(0x6A, 6);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ICX core V1.30", "QEMU Icelake-Server (6, 6AH) gets ICX");
	c = intel(0x86, 7);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "SNR core V1.23", "QEMU Snowridge (6, 86H) gets SNR");
	c = amd(EV_VENDOR_AMD, 0x17, 0x31);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "zen2 91970fe", "QEMU EPYC-Rome (17H, 31H) gets Zen 2");
	c = amd(EV_VENDOR_AMD, 0x17, 0x01);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "zen1 91970fe", "EPYC (17H, 01H) gets Zen 1");
	c = amd(EV_VENDOR_AMD, 0x19, 0x11);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "zen4 91970fe", "Genoa (19H, 11H) gets Zen 4");
	c = amd(EV_VENDOR_AMD, 0x19, 0x21);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "zen3 91970fe", "Vermeer (19H, 21H) gets Zen 3");
	c = amd(EV_VENDOR_HYGON, 0x18, 0x00);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "zen1 91970fe", "Hygon Dhyana (18H) gets Zen 1");
	c = amd(EV_VENDOR_AMD, 0x18, 0x00);
	CHECK(ev_table_name(&c, why, sizeof why) == 0, "AMD family 18H has no table");
	CHECK_STR(why, "no libpfm4 (AMD PPR) table for AuthenticAMD family 0x18 model 0x00 stepping 0",
		  "why names vendor, family, model");
	/* Stepping regex: SKX steppings 0-4, CLX 5-F. */
	c = intel(0x55, 4);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "SKX core V1.37", "6-55 stepping 4 is Skylake-SP");
	c = intel(0x55, 7);
	CHECK_STR(ev_table_name(&c, why, sizeof why), "CLX core V1.25", "6-55 stepping 7 is Cascade Lake");
	/* Hybrid: the core type picks. */
	c = intel(0x97, 2);
	c.core_type = 0x40;
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ADL goldencove core V1.40", "Alder Lake P-core");
	c.core_type = 0x20;
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ADL gracemont core V1.40", "Alder Lake E-core");
	c.core_type = 0;
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ADL goldencove core V1.40",
		  "Alder Lake without a core type (P-cores only) gets the P-core table");
	c.core_type = 0x10;
	CHECK(ev_table_name(&c, why, sizeof why) == 0, "Alder Lake with core type 10H has no table");
	CHECK(strstr(why, "is hybrid and CPUID.1AH:EAX[31:24] gives core type 0x10") != 0, "why says hybrid: %s",
	      why);
	/* Arrow Lake 6-C5: two E-core tables, told apart by the native model ID */
	c = intel(0xC5, 2);
	c.core_type = 0x20;
	c.native_model = 2;
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ARL crestmont core V1.20", "Arrow Lake's Crestmont LP E-cores");
	c.native_model = 3;
	CHECK_STR(ev_table_name(&c, why, sizeof why), "ARL skymont core V1.20", "Arrow Lake's Skymont E-cores");
	c = intel(0x0F, 6);
	CHECK(ev_table_name(&c, why, sizeof why) == 0, "Core 2 (6, 0FH) has no perfmon table");
	CHECK_STR(why, "no intel/perfmon table for GenuineIntel family 6 model 0x0F stepping 6", "why none");
}

static void check_names(void)
{
	struct ev_cpu skl = intel(0x5E, 3), rome = amd(EV_VENDOR_AMD, 0x17, 0x31);
	struct ev_def d[16];
	char err[300];
	int n;

	n = ev_resolve(&skl, "l1d.replacement", 15, d, 16, err, sizeof err);
	CHECK(n == 1, "l1d.replacement resolves in lower case (%s)", err);
	CHECK_STR(d[0].name, "L1D.REPLACEMENT", "the name as the data spells it");
	CHECK_EQ_U64(d[0].perfevtsel, 0x420151, "L1D.REPLACEMENT: 51H umask 01H, OS, EN");
	CHECK_STR(d[0].source, "intel/perfmon SKL core V59 (BSD-3-Clause)", "source with version and licence");
	CHECK_EQ_U64(d[0].counters, 0xF, "Counter 0,1,2,3");
	n = ev_resolve(&skl, "Inst_Retired.Any", 16, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].fixed == 0 && d[0].fixed_only, "INST_RETIRED.ANY is fixed counter 0 only");
	n = ev_resolve(&skl, "CPU_CLK_UNHALTED.THREAD_ANY", 27, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].anyt && (d[0].perfevtsel >> 21 & 1), "AnyThread in bit 21 (%s)", err);
	n = ev_resolve(&skl, "ICACHE_64B.IFTAG_STALL", 22, d, 16, err, sizeof err);
	CHECK(n == 1, "a name with digits resolves (%s)", err);
	/* CMSK, INV, EDG in their bits: perfmon SKL's */
	n = ev_resolve(&skl, "UOPS_ISSUED.STALL_CYCLES", 24, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].cmask == 1 && d[0].inv, "UOPS_ISSUED.STALL_CYCLES is CMSK=1 INV (%s)", err);
	CHECK_EQ_U64(d[0].perfevtsel, 0x01C2010E, "UOPS_ISSUED.STALL_CYCLES: 0EH 01H INV CMSK 1");
	/* AMD's 12-bit event select over bits 7:0 and 35:32 */
	n = ev_resolve(&rome, "retired_instructions", 20, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].perfevtsel == 0x4200C0, "Zen 2 RETIRED_INSTRUCTIONS is C0H (%s)", err);
	n = ev_resolve(&rome, "RETIRED_FUSED_INSTRUCTIONS", 26, d, 16, err, sizeof err);
	CHECK(n == 1, "Zen 2 RETIRED_FUSED_INSTRUCTIONS (%s)", err);
	CHECK_EQ_U64(d[0].perfevtsel, 0x1004200D0ull, "1D0H: D0H in bits 7:0, 1 in 35:32");
	CHECK(strstr(d[0].source, "libpfm4") && strstr(d[0].source, "MIT") && strstr(d[0].source, "PPR"),
	      "AMD source names libpfm4, MIT and the PPR: %s", d[0].source);
	n = ev_resolve(&rome, "L1_ITLB_MISS_L2_ITLB_MISS.IF4K", 30, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].event_select == 0x85 && d[0].umask == 1, "a unit mask by name (%s)", err);

	/* did-you-mean */
	n = ev_resolve(&skl, "L1D.REPLACMENT", 14, d, 16, err, sizeof err);
	CHECK(n == -1, "a misspelt name does not resolve");
	CHECK_STR(err, "unknown event L1D.REPLACMENT on SKL core V59; did you mean L1D.REPLACEMENT?", "did-you-mean");
	n = ev_resolve(&skl, "br_misp_retired.all_branchs", 27, d, 16, err, sizeof err);
	CHECK(strstr(err, "did you mean BR_MISP_RETIRED.ALL_BRANCHES?") != 0, "any case: %s", err);
	n = ev_resolve(&skl, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.SNOOP_MIS", 49, d, 16, err, sizeof err);
	CHECK(n == -1 && strstr(err, "did you mean OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.SNOOP_MISS?"),
	      "a long name's did-you-mean (parts compared): %s", err);
	n = ev_resolve(&skl, "NOTHING_LIKE_IT", 15, d, 16, err, sizeof err);
	CHECK(n == -1 && !strstr(err, "did you mean") && strstr(err, "SKL core V59"), "no near name: %s", err);
	n = ev_resolve(&rome, "RETIRED_INSTRUCTION", 19, d, 16, err, sizeof err);
	CHECK(strstr(err, "on zen2 91970fe; did you mean RETIRED_INSTRUCTIONS?") != 0, "AMD did-you-mean: %s", err);

	/* architectural events: the table first, else the SDM's */
	struct ev_cpu core2 = intel(0x0F, 6);
	core2.arch_version = 2;
	core2.arch_ebx_len = 7;
	core2.arch_ebx = 1u << 4; /* LLC misses not available */
	n = ev_resolve(&core2, "BR_INST_RETIRED.ALL_BRANCHES", 28, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].origin == EV_ORIGIN_ARCH && d[0].perfevtsel == 0x4200C4, "architectural 5 (%s)", err);
	CHECK_STR(d[0].source, "SDM Vol. 3B architectural event", "its source");
	n = ev_resolve(&core2, "LONGEST_LAT_CACHE.MISS", 22, d, 16, err, sizeof err);
	CHECK(n == -1 && strstr(err, "CPUID.0AH:EBX[4] = 1"), "EBX bit 4 says no: %s", err);
	n = ev_resolve(&core2, "TOPDOWN.SLOTS", 13, d, 16, err, sizeof err);
	CHECK(n == -1 && strstr(err, "beyond the 7"), "event 7 beyond EAX[31:24]: %s", err);
	core2.arch_version = 0;
	n = ev_resolve(&core2, "LONGEST_LAT_CACHE.MISS", 22, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].perfevtsel == 0x42412E, "without a PMU the encoding is still given (%s)", err);
	n = ev_resolve(&core2, "L1D.REPLACEMENT", 15, d, 16, err, sizeof err);
	CHECK(n == -1 && strstr(err, "no intel/perfmon table"), "no table: %s", err);
	n = ev_resolve(&skl, "INST_RETIRED.ANY", 16, d, 16, err, sizeof err);
	CHECK(n == 1 && d[0].origin == EV_ORIGIN_TABLE, "the model's table entry first");
	n = ev_resolve(&rome, "INST_RETIRED.ANY", 16, d, 16, err, sizeof err);
	CHECK(n == -1, "no Intel architectural names on AMD");
}

static void check_notation(void)
{
	struct ev_cpu skl = intel(0x5E, 3), rome = amd(EV_VENDOR_AMD, 0x17, 0x31);
	struct ev_def d[4];
	char err[300];
	static const struct {
		int amd;
		const char *s;
		uint64_t sel;
		const char *name;
		uint32_t counters, msr;
		uint64_t msr_value;
	} good[] = {
		{0, "D1.01", 0x4201D1, "D1.01", EV_COUNTERS_ANY, 0, 0},
		{0, "A1.01 UOPS_DISPATCHED_PORT.PORT_0", 0x4201A1, "UOPS_DISPATCHED_PORT.PORT_0", EV_COUNTERS_ANY, 0, 0},
		{0, "0E.01.CMSK=1.INV:UOPS_ISSUED.STALL", 0x01C2010E, "UOPS_ISSUED.STALL", EV_COUNTERS_ANY, 0, 0},
		{0, "3C.00.AnyT", 0x62003C, "3C.00.AnyT", EV_COUNTERS_ANY, 0, 0},
		{0, "C2.02.CMSK=0x10.EDG.CTR=2", 0x104602C2, "C2.02.CMSK=0x10.EDG.CTR=2", 1u << 2, 0, 0},
		{0, "B7.01.MSR_RSP0=0x10001.TakenAlone OFFCORE", 0x4201B7, "OFFCORE", EV_COUNTERS_ANY, 0x1A6, 0x10001},
		{0, "CD.01.MSR_3F6H=4.TakenAlone:LD_LAT", 0x4201CD, "LD_LAT", EV_COUNTERS_ANY, 0x3F6, 4},
		{1, "076.00", 0x420076, "076.00", EV_COUNTERS_ANY, 0, 0},
		{1, "1D0.00:FUSED", 0x1004200D0ull, "FUSED", EV_COUNTERS_ANY, 0, 0},
		{1, "000.01 FpuPipeAssignment.Total0", 0x420100, "FpuPipeAssignment.Total0", EV_COUNTERS_ANY, 0, 0},
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		int n = ev_resolve(good[i].amd ? &rome : &skl, good[i].s, strlen(good[i].s), d, 4, err, sizeof err);
		CHECK(n == 1, "'%s' parses (%s)", good[i].s, err);
		CHECK_EQ_U64(d[0].perfevtsel, good[i].sel, "'%s': perfevtsel", good[i].s);
		CHECK_STR(d[0].name, good[i].name, "'%s': its name", good[i].s);
		CHECK(d[0].origin == EV_ORIGIN_NANOBENCH, "'%s': origin nanobench", good[i].s);
		CHECK_EQ_U64(d[0].counters, good[i].counters, "'%s': counters", good[i].s);
		CHECK_EQ_U64(d[0].msr_index, good[i].msr, "'%s': extra MSR", good[i].s);
		CHECK_EQ_U64(d[0].msr_value, good[i].msr_value, "'%s': extra MSR's value", good[i].s);
	}
	CHECK(ev_resolve(&skl, "B7.01.TakenAlone", 16, d, 4, err, sizeof err) == 1 && d[0].taken_alone,
	      "TakenAlone");
	static const struct {
		int amd;
		const char *s, *err;
	} bad[] = {
		{0, "1D0.00", "nanoBench notation 1D0.00: EvtSel is 1 or 2 hex digits, 00..FF (Intel)"},
		{1, "1000.00", "nanoBench notation 1000.00: EvtSel is 1 to 3 hex digits, 000..FFF (AMD)"},
		{0, "D1.100", "nanoBench notation D1.100: UMASK is 1 or 2 hex digits, 00..FF"},
		{0, "D1.0G", "nanoBench notation D1.0G: UMASK is 1 or 2 hex digits, 00..FF"},
		{0, "D1.01.CMSK=256", "nanoBench notation D1.01.CMSK=256: CMSK=n is 0..255 (decimal or 0x-hex)"},
		{0, "D1.01.CMSK=", "nanoBench notation D1.01.CMSK=: unknown option (CMSK=n, AnyT, EDG, INV, TakenAlone, "
				   "CTR=n, MSR_RSP0=v, MSR_RSP1=v, MSR_3F6H=v, MSR_PF=v)"},
		{0, "D1.01.CTR=32", "nanoBench notation D1.01.CTR=32: CTR=n is a general-purpose counter 0..31"},
		{0, "D1.01.EDGE", "nanoBench notation D1.01.EDGE: unknown option (CMSK=n, AnyT, EDG, INV, TakenAlone, "
				  "CTR=n, MSR_RSP0=v, MSR_RSP1=v, MSR_3F6H=v, MSR_PF=v)"},
		{1, "076.00.AnyT", "nanoBench notation 076.00.AnyT: AnyT: AMD's PERF_CTL has no AnyThread bit"},
		{0, "B7.01.MSR_RSP0=1.MSR_RSP1=2", "nanoBench notation B7.01.MSR_RSP0=1.MSR_RSP1=2: two extra MSRs: one per "
						   "event here"},
		{0, "B7.01.MSR_PF=x", "nanoBench notation B7.01.MSR_PF=x: an MSR value is decimal or 0x-hex"},
		{0, "D1.01:", "nanoBench notation D1.01:: the name after the encoding is empty"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int n = ev_resolve(bad[i].amd ? &rome : &skl, bad[i].s, strlen(bad[i].s), d, 4, err, sizeof err);
		CHECK(n == -1, "'%s' is refused", bad[i].s);
		CHECK_STR(err, bad[i].err, "'%s': the message", bad[i].s);
	}
	CHECK(ev_notation_like("C0.00", 5) && !ev_notation_like("CACHES", 6) && !ev_notation_like("C0.", 3),
	      "what looks like the notation");
}

static void check_groups(void)
{
	struct ev_def d[16];
	char err[300];
	struct ev_cpu skl = intel(0x5E, 3), icx = intel(0x6A, 6), snr = intel(0x86, 7),
		      rome = amd(EV_VENDOR_AMD, 0x17, 0x31), spr = intel(0x8F, 8);
	int n = ev_resolve(&skl, "branches", 8, d, 16, err, sizeof err);
	CHECK(n == 2 && !strcmp(d[0].name, "BR_INST_RETIRED.ALL_BRANCHES") &&
	      !strcmp(d[1].name, "BR_MISP_RETIRED.ALL_BRANCHES"), "branches on SKL (%d: %s)", n, err);
	n = ev_resolve(&rome, "Branches", 8, d, 16, err, sizeof err);
	CHECK(n == 2 && !strcmp(d[1].name, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED"), "branches on Zen 2 (%s)", err);
	n = ev_resolve(&skl, "caches", 6, d, 16, err, sizeof err);
	CHECK(n == 4 && !strcmp(d[0].name, "L1D.REPLACEMENT") && !strcmp(d[3].name, "LONGEST_LAT_CACHE.MISS"),
	      "caches on SKL (%d)", n);
	n = ev_resolve(&rome, "caches", 6, d, 16, err, sizeof err);
	CHECK(n >= 2, "caches on Zen 2 (%d: %s)", n, err);
	n = ev_resolve(&skl, "topdown", 7, d, 16, err, sizeof err);
	CHECK(n == 5 && !strcmp(d[0].name, "CPU_CLK_UNHALTED.THREAD") && !strcmp(d[3].name, "UOPS_RETIRED.RETIRE_SLOTS"),
	      "topdown on SKL: the TMA level-1 events (%d: %s)", n, err);
	n = ev_resolve(&icx, "topdown", 7, d, 16, err, sizeof err);
	CHECK(n == 4 && !strcmp(d[0].name, "TOPDOWN.SLOTS") && d[0].fixed == 3 &&
	      !strcmp(d[1].name, "IDQ_UOPS_NOT_DELIVERED.CORE"), "topdown on ICX: TOPDOWN.SLOTS on fixed 3 (%d: %s)",
	      n, err);
	n = ev_resolve(&spr, "topdown", 7, d, 16, err, sizeof err);
	CHECK(n == 4 && !strcmp(d[1].name, "IDQ_BUBBLES.CORE"), "topdown on SPR (%d: %s)", n, err);
	n = ev_resolve(&snr, "topdown", 7, d, 16, err, sizeof err);
	CHECK(n == 5 && !strcmp(d[1].name, "TOPDOWN_RETIRING.ALL"), "topdown on Snowridge: E-core events (%d: %s)", n,
	      err);
	n = ev_resolve(&rome, "topdown", 7, d, 16, err, sizeof err);
	CHECK(n == -1 && strstr(err, "group topdown: zen2"), "no topdown on AMD: %s", err);
	n = ev_resolve(&skl, "topdown", 7, d, 3, err, sizeof err);
	CHECK(n == -1 && strstr(err, "more than 3"), "a group larger than max: %s", err);
}

/* The dumps (their first CPU) that select the table named t. */
static int by_name(struct dump *dumps, int n, const char *t)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		struct ev_cpu c;
		ev_cpu_from_cpuid(dump_cpuid, &dumps[i].cpus[0], &c);
		const char *x = ev_table_name(&c, 0, 0);
		k += x && !strcmp(x, t);
	}
	return k;
}

/* Every real CPU's CPUID: the table it gets or why none; no crash. */
static void check_corpus(void)
{
	char path[512];
	struct dump *dumps = 0;
	int n = dump_load_corpus(&dumps, path, sizeof path), with = 0, without = 0, intel_n = 0, amd_n = 0, hybrid = 0;
	CHECK(n >= 490, "the corpus %s holds the ~490 dumps (%d)", path, n);
	for (int i = 0; i < n; i++) {
		struct ev_cpu c;
		char why[200] = "";
		ev_cpu_from_cpuid(dump_cpuid, &dumps[i].cpus[0], &c);
		const char *t = ev_table_name(&c, why, sizeof why);
		CHECK(t || why[0], "%s: a table or why none", dumps[i].name);
		if (t)
			with++;
		else
			without++;
		intel_n += c.vendor == EV_VENDOR_INTEL;
		amd_n += c.vendor == EV_VENDOR_AMD || c.vendor == EV_VENDOR_HYGON;
		hybrid += c.core_type != 0;
		struct ev_def d[8];
		char err[300];
		int r = ev_resolve(&c, "branches", 8, d, 8, err, sizeof err);
		CHECK(r == -1 ? err[0] != 0 : r >= 1, "%s: branches resolves or says why", dumps[i].name);
	}
	printf("events: corpus: %d dumps, %d with a table, %d without (%d Intel, %d AMD/Hygon, %d with a core type)\n",
	       n, with, without, intel_n, amd_n, hybrid);
	CHECK_EQ_U64(with, 297, "dumps with a table (intel/perfmon core files, libpfm4 Zen 1-5)");
	CHECK_EQ_U64(without, 196, "dumps without one (before Nehalem, AMD before Zen, other vendors)");
	CHECK_EQ_U64(by_name(dumps, n, "SKL core V59"), 43, "dumps with perfmon's Skylake table");
	CHECK_EQ_U64(by_name(dumps, n, "ADL goldencove core V1.40"), 21, "dumps of Alder Lake P-cores");
	CHECK_EQ_U64(by_name(dumps, n, "zen1 91970fe"), 17, "dumps with the Zen 1 table (16 AMD, 1 Hygon)");
	CHECK_EQ_U64(by_name(dumps, n, "zen2 91970fe"), 26, "dumps with the Zen 2 table");
	CHECK_EQ_U64(by_name(dumps, n, "zen5 91970fe"), 10, "dumps with the Zen 5 table");
	if (n > 0)
		dump_free(dumps, n);
}

int main(void)
{
	check_selection();
	check_names();
	check_notation();
	check_groups();
	check_corpus();
	check_tables();
	return check_summary("events");
}

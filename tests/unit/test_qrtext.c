/* tests/unit/test_qrtext.c - lib/qrtext.c, the QR code's compact text: the
 * exact body of a run (every line kind, groups with units missing,
 * a missing figure, figures beyond 64 bits, unreadable SMIs, text sanitised, a plan's
 * experiments), the buffer limit
 * at every size, the CRC-32 against its check value, the split into parts
 * (whole lines, each part within its limit, the parts joining back to the
 * body, headers numbered with the body's CRC) and its refusals. Linked
 * with the host's libqrcodegen (Debian libqrcodegen-dev, the encoder the
 * kernel links): QRTEXT_PART_MAX bytes fit one version 40 code at error
 * correction level M in byte mode and one byte more does not. */
#include <stdint.h>
#include <stdlib.h>
#include <qrcodegen/qrcodegen.h>
#include "check.h"
#include "../../lib/qrtext.h"

/* A constant struct wide (lib/wide.h) of a 128-bit value. */
#define W(x) { { (uint64_t)(x), (uint64_t)((u128)(x) >> 64) } }

static struct qrtext_method methods[3] = {
	{ .name = "cpuid", .unit = 0, .units = 1, .offset = { 36 }, .total_variance = W(2),
	  .var_of_vars = W(10), .var_of_mins = W(0), .ok = 7, .verdict = QRTEXT_ERGODIC,
	  .smi = QRTEXT_SMI_COUNTED, .smis = 3, .nmis = 0 },
	{ .name = "rdtscp", .unit = 0, .units = 7, .offset = { 20, 55, 4 }, .total_variance = W(0),
	  .var_of_vars = W(0), .var_of_mins = W(1), .ok = 5, .verdict = QRTEXT_UNKNOWN,
	  .smi = QRTEXT_SMI_UNREAD, .smis = 0, .nmis = 2 },
	{ .name = "ctr_rdpmc", .unit = 1, .units = 6, .offset = { 0, 30, 2 },
	  .total_variance = W(7), .var_of_vars = W((u128)1 << 64),
	  .var_of_mins = W(6), .ok = 7,
	  .verdict = QRTEXT_NOT_ERGODIC, .smi = QRTEXT_SMI_NA, .nmis = 1 },
};

static struct qrtext_workload workloads[2] = {
	{ .name = "add_chain_64", .units = { 1, 7, 6 }, .net = { { 64 }, { 63, 70, 64 }, { 0, 65, 64 } } },
	{ .name = "my code", .units = { 1, 0, 2 }, .net = { { -3 }, { 0 }, { 0, -1 } } },
};

static const char *const skipped[2] = { "serialize", "lfence" };

static struct qrtext_run run = {
	.vendor = "GenuineIntel", .brand = "  Intel(R) Core(TM) i7\x01", .hypervisor = 0,
	.family = 6, .model = 85, .stepping = 4, .has_microcode = 1, .microcode = 0x2006906,
	.tsc_hz = 2095074000, .tsc_ppm = 12, .tsc_source = "cpuid_15h",
	.ensembles = 100, .samples = 10000, .warmup = 1000, .max_var_of_vars = 10, .max_var_of_mins = 1,
	.methods = methods, .nmethods = 3, .skipped = skipped, .nskipped = 2,
	.workloads = workloads, .nworkloads = 2, .recommended = "rdtscp",
	.final_line = "bench: run complete: 3 methods run, 2 skipped (exit code 0x10)",
};

static const char want[] =
	"vendor GenuineIntel\n"
	"cpu 6 85 4 0x2006906\n"
	"brand   Intel(R) Core(TM) i7?\n"
	"hv none\n"
	"tsc 2095074000 12 cpuid_15h\n"
	"size 100 10000 1000\n"
	"limits 10 1\n"
	"m cpuid t 36 2 10 0 ergodic 3 0\n"
	"m rdtscp t 20/55/4 0 ovf 1 unknown unread 2\n"
	"m ctr_rdpmc c -/30/2 7 18446744073709551616 6 not-ergodic na 1\n"
	"skip serialize lfence\n"
	"w add_chain_64 64 63/70/64 -/65/64\n"
	"w my_code -3 - -/-1\n"
	"rec rdtscp\n"
	"final bench: run complete: 3 methods run, 2 skipped (exit code 0x10)\n";

static void test_body(void)
{
	char buf[2048];
	int n = qrtext_body(&run, buf, sizeof buf);
	CHECK_STR(buf, want, "compact text of the sample run, every line kind");
	CHECK_EQ_U64(n, sizeof want - 1, "qrtext_body returns the body's length");

	/* Every buffer size: -1 until it all fits with its NUL, never an overrun. */
	for (size_t size = 1; size <= sizeof want; size++) {
		char *b = malloc(size);
		int k = qrtext_body(&run, b, size);
		if (size < sizeof want)
			CHECK(k == -1, "body does not fit %zu bytes: -1", size);
		else
			CHECK(k == (int)sizeof want - 1 && strcmp(b, want) == 0,
			      "body fits %zu bytes with its NUL", size);
		free(b);
	}
	CHECK(qrtext_body(&run, buf, 0) == -1, "size 0: -1");

	/* No CPU brand, a hypervisor, unknown rate and microcode, nothing
	 * recommended, no method run. */
	struct qrtext_run r = run;
	r.brand = "";
	r.hypervisor = "Microsoft Hv";
	r.tsc_hz = 0;
	r.tsc_ppm = 0;
	r.tsc_source = 0;
	r.has_microcode = 0;
	r.recommended = 0;
	r.nmethods = 0;
	r.nskipped = 0;
	r.nworkloads = 1;
	n = qrtext_body(&r, buf, sizeof buf);
	CHECK_STR(buf, "vendor GenuineIntel\ncpu 6 85 4 -\nbrand -\nhv Microsoft Hv\ntsc 0 0 none\n"
		       "size 100 10000 1000\nlimits 10 1\nw add_chain_64\nrec none\n"
		       "final bench: run complete: 3 methods run, 2 skipped (exit code 0x10)\n",
		       "no brand, a hypervisor, unknown rate and microcode, no method run");
	r.nmethods = QRTEXT_METHODS + 1;
	CHECK(qrtext_body(&r, buf, sizeof buf) == -1, "more methods than QRTEXT_METHODS: -1");
}

/* Flagged nets (issue 20 item 17: Bochs with 4 CPUs, a TSC moving in
 * steps of 5, offsets of 0 and a net of -5): a "tstep" line after the
 * "tsc" line and a "low" line after the w line with flagged figures;
 * nothing new when nothing is flagged and the step is 1 (test_body). */
static void test_flags(void)
{
	struct qrtext_workload w[2] = { workloads[0], workloads[1] };
	w[1].net[0][0] = -5;
	w[1].units[1] = 1; /* rdtscp: 0 TSC ticks */
	w[1].low[2][2] = QRTEXT_LOW_ZERO;       /* not measured: no low line */
	w[1].low[0][0] = QRTEXT_LOW_ZERO;       /* cpuid: -5 TSC ticks */
	w[1].low[1][0] = QRTEXT_LOW_RESOLUTION; /* rdtscp: 0 TSC ticks */
	w[1].low[2][1] = QRTEXT_LOW_ZERO;       /* ctr_rdpmc: -1 core cycles */
	struct qrtext_run r = run;
	r.workloads = w;
	r.tsc_step = 5;
	r.tsc_step_sure = 1;
	char buf[2048];
	int n = qrtext_body(&r, buf, sizeof buf);
	static const char flagged[] =
		"vendor GenuineIntel\n"
		"cpu 6 85 4 0x2006906\n"
		"brand   Intel(R) Core(TM) i7?\n"
		"hv none\n"
		"tsc 2095074000 12 cpuid_15h\n"
		"tstep 5 sure\n"
		"size 100 10000 1000\n"
		"limits 10 1\n"
		"m cpuid t 36 2 10 0 ergodic 3 0\n"
		"m rdtscp t 20/55/4 0 ovf 1 unknown unread 2\n"
		"m ctr_rdpmc c -/30/2 7 18446744073709551616 6 not-ergodic na 1\n"
		"skip serialize lfence\n"
		"w add_chain_64 64 63/70/64 -/65/64\n"
		"w my_code -5 0 -/-1\n"
		"low my_code z r -/z\n"
		"rec rdtscp\n"
		"final bench: run complete: 3 methods run, 2 skipped (exit code 0x10)\n";
	CHECK_STR(buf, flagged, "flagged nets and the TSC's step in the compact text");
	CHECK_EQ_U64(n, sizeof flagged - 1, "flagged: the body's length");
	r.tsc_step_sure = 0;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "\ntstep 5 may\n") != NULL, "a step not sure: 'may'");
	r.tsc_step = 1;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "tstep") == NULL, "a step of 1: no tstep line");
}

/* code= (issue 21 items 1-3): a code line, a pc line per method and unit
 * (a figure +- its bound, below resolution with its bound, exact, wrapped)
 * and a cf line per method where the code faulted, after the w lines. */
static void test_code(void)
{
	static const struct qrtext_code code = { "imul latency", 100, 100, 0 };
	static const struct qrtext_percopy pc[] = {
		{ "cpuid", 't', "below_resolution", "0.000", "0.500", 0, 1 },
		{ "rdtscp", 't', "figure", "2.210", "0.070", 221, 100 },
		{ "cr0", 't', "exact", "-1.500", 0, -3, 2 },
		{ "ctr_rdpmc", 'i', "wrapped", 0, 0, 0, 1 },
	};
	static const struct qrtext_codefault cf[] = { { "lfence", "#UD", "code", 0, 1 },
						      { "serialize", "#GP", "init", 3, 0 } };
	struct qrtext_run r = run;
	r.code = &code;
	r.per_copy = pc;
	r.nper_copy = 4;
	r.code_faults = cf;
	r.ncode_faults = 2;
	char buf[2048];
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "\nw my_code -3 - -/-1\n"
			  "code imul_latency 100 100 0\n"
			  "pc cpuid t below_resolution 0.000 0.500 0/1\n"
			  "pc rdtscp t figure 2.210 0.070 221/100\n"
			  "pc cr0 t exact -1.500 - -3/2\n"
			  "pc ctr_rdpmc i wrapped - - -\n"
			  "cf lfence #UD code 0 1\n"
			  "cf serialize #GP init 3 0\n"
			  "rec rdtscp\n") != NULL, "the code, pc and cf lines after the w lines:\n%s", buf);
	/* The methods compared (issue 29): a pa line per unit after the pc lines. */
	static const struct qrtext_pair pairs[] = { { "cpuid", "rdtscp", "1.700" }, { "cpuid", "cr0", "0.190" } };
	static const struct qrtext_agreement pa[] = { { 't', 0, "rdtscp", pairs, 2 }, { 'i', 1, 0, 0, 0 } };
	r.agreements = pa;
	r.nagreements = 2;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "pc ctr_rdpmc i wrapped - - -\n"
			  "pa t no rdtscp cpuid:rdtscp:1.700 cpuid:cr0:0.190\n"
			  "pa i yes -\n"
			  "cf lfence #UD code 0 1\n") != NULL, "the pa lines after the pc lines:\n%s", buf);
	/* Performance events (issue 30): a pe line per event after the pa
	 * lines, '!' after the kind of an unverified figure. */
	static const struct qrtext_event pe[] = {
		{ "rdtscp", "L1D.REPLACEMENT", "exact", "1.000", 0, 1 },
		{ "rdtscp", "BR_INST_RETIRED.ALL_BRANCHES", "figure", "2.210", "0.070", 0 },
		{ "rdtscp", "MY EVENT", "wrapped", 0, 0, 1 },
	};
	r.events = pe;
	r.nevents = 3;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "pa i yes -\n"
			  "pe rdtscp L1D.REPLACEMENT exact 1.000 -\n"
			  "pe rdtscp BR_INST_RETIRED.ALL_BRANCHES figure! 2.210 0.070\n"
			  "pe rdtscp MY_EVENT wrapped - -\n"
			  "cf lfence #UD code 0 1\n") != NULL, "the pe lines after the pa lines:\n%s", buf);
	/* sweep=latency (issue 31): a lat line per unit after code='s lines. */
	static const struct qrtext_latlevel lv[] = {
		{ "L1d", 49152, 49152, "5.000" }, { "L2", 1310720, 1101824, "15.060" }, { "DRAM", 0, 0, "210.400" },
	};
	static const struct qrtext_latency lat[] = { { 'c', lv, 3 }, { 't', 0, 0 } };
	r.latency = lat;
	r.nlatency = 2;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "cf serialize #GP init 3 0\n"
			  "lat c L1d:49152:49152:5.000 L2:1310720:1101824:15.060 DRAM:-:-:210.400\n"
			  "lat t none\n"
			  "rec rdtscp\n") != NULL, "the lat lines after code='s, before rec:\n%s", buf);
	r.nlatency = 0;
	r.code = 0;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "\ncode ") == NULL && strstr(buf, "\npc ") == NULL && strstr(buf, "\npa ") == NULL &&
	      strstr(buf, "\npe ") == NULL, "no code=: no code, pc, pa or pe line");
}

/* A plan's experiments (issue 32): an x line each, in the plan's order,
 * before rec; an xa line (a pc line's fields) right after one with an
 * answer, none after a skipped one. */
static void test_experiments(void)
{
	static const struct qrtext_percopy a1 = { "rdtscp", 't', "exact", "1.000", 0, 1, 1 };
	static const struct qrtext_percopy a3 = { "cpuid", 't', "figure", "2.210", "0.070", 221, 100 };
	static const struct qrtext_experiment xs[] = {
		{ "imul_lat", "complete", &a1 }, { "ud 2", "faulted", 0 }, { "chase", "complete", &a3 },
		{ "big", "skipped", 0 },
	};
	struct qrtext_run r = run;
	char buf[2048];
	r.experiments = xs, r.nexperiments = 4, qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "\nw my_code -3 - -/-1\n"
			  "x imul_lat complete\n"
			  "xa rdtscp t exact 1.000 - 1/1\n"
			  "x ud_2 faulted\n"
			  "x chase complete\n"
			  "xa cpuid t figure 2.210 0.070 221/100\n"
			  "x big skipped\n"
			  "rec rdtscp\n") != NULL, "the x and xa lines after the w lines, before rec:\n%s", buf);
	r.nexperiments = 0, qrtext_body(&r, buf, sizeof buf);
	CHECK(strstr(buf, "\nx ") == NULL && strstr(buf, "\nxa ") == NULL, "no plan: no x or xa line:\n%s", buf);
}

static void test_crc(void)
{
	CHECK_EQ_U64(qrtext_crc32("123456789", 9), 0xCBF43926u,
	             "CRC-32 check value of \"123456789\"");
	CHECK_EQ_U64(qrtext_crc32("", 0), 0, "CRC-32 of nothing");
	CHECK_EQ_U64(qrtext_crc32("a", 1), 0xE8B7BE43u, "CRC-32 of \"a\"");
}

/* The parts of body joined without their headers are the body; each is
 * at most max bytes, starts with its header and ends at a line's end. */
static void check_parts(const char *body, size_t len, size_t max, int want_n)
{
	struct qrtext_split s;
	CHECK(qrtext_split(body, len, max, &s) == 0, "split into parts of %zu bytes", max);
	CHECK_EQ_U64(s.n, want_n, "%zu-byte parts: part count", max);
	CHECK_EQ_U64(s.crc, qrtext_crc32(body, len), "%zu-byte parts: the body's CRC", max);
	char joined[8192], part[4096], head[32];
	size_t at = 0;
	for (int i = 0; i < s.n; i++) {
		int n = qrtext_part(body, &s, i, part, sizeof part);
		CHECK(n > 0 && (size_t)n <= max,
		      "%zu-byte parts: part %d within its limit", max, i);
		snprintf(head, sizeof head, "bench1 %d/%d %08x\n", i + 1, s.n, s.crc);
		CHECK(n >= (int)strlen(head) && memcmp(part, head, strlen(head)) == 0,
		      "%zu-byte parts: part %d starts with its header", max, i);
		CHECK(part[n - 1] == '\n' || (len == 0 && n == (int)strlen(head)),
		      "%zu-byte parts: part %d ends at a line's end", max, i);
		memcpy(joined + at, part + strlen(head), (size_t)n - strlen(head));
		at += (size_t)n - strlen(head);
	}
	CHECK_EQ_U64(at, len, "%zu-byte parts: the parts hold the whole body", max);
	CHECK(memcmp(joined, body, len) == 0,
	      "%zu-byte parts: the parts join back to the body", max);
	CHECK(qrtext_part(body, &s, s.n, part, sizeof part) == -1,
	      "%zu-byte parts: no part past the last", max);
	CHECK(qrtext_part(body, &s, -1, part, sizeof part) == -1,
	      "%zu-byte parts: no part -1", max);
}

static void test_split(void)
{
	size_t len = strlen(want);
	check_parts(want, len, QRTEXT_PART_MAX, 1);
	check_parts(want, len, len + QRTEXT_HEADER_MAX, 1);
	check_parts(want, len, len + QRTEXT_HEADER_MAX - 1, 2);
	check_parts("", 0, QRTEXT_PART_MAX, 1);
	/* The longest line is the final one (69 bytes): 90-byte parts (70
	 * bytes of body) hold one to four lines. */
	check_parts(want, len, 90, 8);

	struct qrtext_split s;
	CHECK(qrtext_split(want, len, 88, &s) == -1, "88-byte parts: the final line does not fit");
	CHECK(qrtext_split(want, len, 20, &s) == -1, "20-byte parts: no room beside the header");
	char big[4000];
	for (int i = 0; i < 100; i++)
		memcpy(big + 40 * i, "w a_workload 1 2 3 4 5 6 7 8 9 10 11 12\n", 40);
	CHECK(qrtext_split(big, 4000, 100, &s) == -1, "100-byte parts: 50 parts needed, too many");
	check_parts(big, 4000, QRTEXT_PART_MAX, 2);
	char part[64];
	CHECK(qrtext_split(big, 4000, QRTEXT_PART_MAX, &s) == 0,
	      "4000 bytes split into full-size parts");
	CHECK(qrtext_part(big, &s, 0, part, sizeof part) == -1,
	      "part larger than the output buffer: -1");
}

/* QRTEXT_PART_MAX is version 40-M's byte-mode capacity, and
 * qrtext_capacity(v) every version's: that many bytes fit version v at
 * level M (without a raised level), one more does not. */
static void test_capacity(void)
{
	static uint8_t data[qrcodegen_BUFFER_LEN_MAX], code[qrcodegen_BUFFER_LEN_MAX];
	for (int v = 1; v <= 40; v++) {
		int n = qrtext_capacity(v);
		memset(data, 'x', (size_t)n);
		CHECK(qrcodegen_encodeBinary(data, (size_t)n, code, qrcodegen_Ecc_MEDIUM, v, v,
					     qrcodegen_Mask_AUTO, 0),
					     "version %d-M holds qrtext_capacity bytes", v);
		CHECK(qrcodegen_getSize(code) == 17 + 4 * v,
		      "version %d is %d modules wide", v, 17 + 4 * v);
		memset(data, 'x', (size_t)n + 1);
		CHECK(!qrcodegen_encodeBinary(data, (size_t)n + 1, code, qrcodegen_Ecc_MEDIUM, v, v,
					      qrcodegen_Mask_AUTO, 0),
					      "version %d-M does not hold one byte more", v);
	}
	CHECK(qrtext_capacity(0) == 0 && qrtext_capacity(41) == 0, "no version 0 or 41");
	CHECK(qrtext_capacity(40) == QRTEXT_PART_MAX, "QRTEXT_PART_MAX is version 40's capacity");
	memset(data, 'x', QRTEXT_PART_MAX);
	CHECK(qrcodegen_encodeBinary(data, QRTEXT_PART_MAX, code, qrcodegen_Ecc_MEDIUM, 40, 40,
				     qrcodegen_Mask_AUTO, 0),
				     "QRTEXT_PART_MAX bytes fit version 40-M");
	CHECK(qrcodegen_getSize(code) == 177, "version 40 is 177 modules wide");
	memset(data, 'x', QRTEXT_PART_MAX + 1);
	CHECK(!qrcodegen_encodeBinary(data, QRTEXT_PART_MAX + 1, code, qrcodegen_Ecc_MEDIUM, 40, 40,
				      qrcodegen_Mask_AUTO, 0),
				      "one byte more than QRTEXT_PART_MAX does not fit version 40-M");
}

/* The run's ID (kernel/runid.h, issue 22): a "run" line first; none when
 * the run has no ID (test_body). */
static void test_run_id(void)
{
	struct qrtext_run r = run;
	char buf[2048];
	r.run_id = "5fa8d84403b9994a";
	int n = qrtext_body(&r, buf, sizeof buf);
	CHECK(n > 0 && strncmp(buf, "run 5fa8d84403b9994a\nvendor GenuineIntel\n", 41) == 0,
	      "the run line first, then the vendor line");
	r.run_id = "";
	qrtext_body(&r, buf, sizeof buf);
	CHECK(strncmp(buf, "vendor ", 7) == 0, "an empty run ID: no run line");
}

/* No serial port (issue 22 item 5): a "why" line per method skipped,
 * after the skip line, with the reason as the skip record gives it. */
static void test_why(void)
{
	static const char *const why[2] = { "SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)",
					    "LFENCE\tnot known" };
	struct qrtext_run r = run;
	char buf[2048];
	r.skip_why = why;
	int n = qrtext_body(&r, buf, sizeof buf);
	static const char lines[] = "skip serialize lfence\n"
				    "why serialize SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)\n"
				    "why lfence LFENCE?not known\nw add_chain_64 ";
	const char *at = strstr(buf, "skip serialize lfence\n");
	CHECK(n > 0 && at, "the skip line is there (%d)", n);
	CHECK(at && !strncmp(at, lines, sizeof lines - 1),
	      "a why line per method skipped, in the skip line's order, control bytes as '?': %s", at ? at : "");
	r.nskipped = 0;
	qrtext_body(&r, buf, sizeof buf);
	CHECK(!strstr(buf, "why "), "no method skipped: no why line");
}

int main(void)
{
	test_body();
	test_why();
	test_flags();
	test_code();
	test_experiments();
	test_run_id();
	test_crc();
	test_split();
	test_capacity();
	return check_summary("test_qrtext");
}

/* tests/unit/test_prefetch.c - lib/prefetch.c: the prefetcher controls of
 * named models against their documents (Intel's MSR 1A4H disclosure, SDM
 * Vol. 4 as Linux and edk2 quote it, Intel's pepc model lists; AMD's PPRs
 * for families 19h and 1Ah), the decisions of prefetch=keep|off|on over
 * every outcome of RDMSR/WRMSR/read-back, the lines; then every real CPU
 * of tests/corpus/cpuid: which machines get which control, each decision
 * consistent (a documented model: its controls on one MSR, distinct bits,
 * a source; any other: none and a reason). */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/prefetch.h"

static struct cpu_info cpu(const char *vendor, uint32_t family, uint32_t model)
{
	struct cpu_info c;
	memset(&c, 0, sizeof c);
	memcpy(c.vendor, vendor, 12);
	c.family = family;
	c.model = model;
	return c;
}

static struct prefetch_doc look(const char *vendor, uint32_t family, uint32_t model)
{
	struct cpu_info c = cpu(vendor, family, model);
	struct prefetch_doc d;
	prefetch_lookup(&c, &d);
	return d;
}

/* "key:bit,key:bit,..." of d's controls. */
static const char *layout(const struct prefetch_doc *d)
{
	static char buf[200];
	size_t at = 0;
	buf[0] = 0;
	for (int i = 0; i < d->n; i++)
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s:%u", i ? "," : "", d->ctl[i].key, d->ctl[i].bit);
	return buf;
}

static void test_models(void)
{
	struct prefetch_doc d = look("GenuineIntel", 6, 0x3C);
	CHECK_STR(layout(&d), "l2_hw:0,l2_adjacent:1,dcu:2,dcu_ip:3",
		  "06-3C Haswell: the disclosure's four bits of MSR 1A4H");
	CHECK(d.ctl[0].msr == 0x1A4 && d.ctl[0].set_disables, "06-3C: MSR 1A4H, 1 = disabled");
	CHECK(d.source && strstr(d.source, "Disclosure of Hardware Prefetcher Control") && strstr(d.source, "Haswell"),
	      "06-3C: its source is the disclosure's Haswell row (%s)", d.source);
	CHECK_STR(d.why, "", "06-3C: no reason when documented");

	/* Each model's controls against its document: "key:bit" in the document's order. */
	static const struct { uint32_t model; const char *want, *source, *what; } intel[] = {
		{ 0x1A, "l2_hw:0,l2_adjacent:1,dcu:2,dcu_ip:3", "Disclosure", "Nehalem-EP, the disclosure's first" },
		{ 0x55, "l2_hw:0,l2_adjacent:1,dcu:2,dcu_ip:3", "pepc", "Skylake-SP: all four (pepc's list)" },
		{ 0x5E, "l2_hw:0,l2_adjacent:1,dcu:2,dcu_ip:3", "pepc", "Skylake client (QEMU Skylake-Client)" },
		{ 0x8F, "l2_hw:0,l2_adjacent:1,dcu:2,dcu_ip:3", "pepc", "Sapphire Rapids: all four" },
		{ 0x5C, "l2_hw:0,dcu:2", "Goldmont: bits 0, 2", "Goldmont: L2 bit 0, DCU bit 2 (SDM Vol. 4, Linux resctrl)" },
		{ 0x7A, "l2_hw:0,dcu:2", "Goldmont: bits 0, 2", "Goldmont Plus: L2 bit 0, DCU bit 2" },
		{ 0x4D, "l2_hw:0,dcu:2", "pepc", "Silvermont-D: L2 bit 0, DCU bit 2 (pepc)" },
		{ 0x57, "dcu:0,l2_hw:1", "Xeon Phi", "Knights Landing: DCU bit 0, L2 bit 1 (Xeon Phi's own bits)" },
		{ 0x85, "dcu:0,l2_hw:1", "Xeon Phi", "Knights Mill: DCU bit 0, L2 bit 1" },
	};
	for (size_t i = 0; i < sizeof intel / sizeof intel[0]; i++) {
		d = look("GenuineIntel", 6, intel[i].model);
		CHECK_STR(layout(&d), intel[i].want, "06-%02X %s", intel[i].model, intel[i].what);
		CHECK(d.source && strstr(d.source, intel[i].source), "06-%02X: source %s (%s)", intel[i].model,
		      intel[i].source, d.source);
	}

	d = look("GenuineIntel", 6, 0x0F);
	CHECK(d.n == 0 && strstr(d.why, "family 06H model 0FH") && strstr(d.why, "no prefetcher control documented"),
	      "06-0F Core 2 (1A4H not this model's): none, and why (%s)", d.why);
	d = look("GenuineIntel", 6, 0x37);
	CHECK(d.n == 0 && d.source == 0, "06-37 Silvermont (Bay Trail), listed by no document: none");
	d = look("GenuineIntel", 0xF, 0x04);
	CHECK(d.n == 0, "0F-04 NetBurst: none");
	d = look("GenuineIntel", 6, 0xC6);
	CHECK(d.n == 0 && strstr(d.why, "model C6H"), "06-C6 Arrow Lake (no list names it): none (%s)", d.why);

	d = look("AuthenticAMD", 0x19, 0x61);
	CHECK_STR(layout(&d), "l1_stream:0,l1_stride:1,l1_region:2,l2_stream:3,l2_updown:5",
		  "19h-61h Zen 4: PrefetchControl bits 0-3 and 5 (PPR #56713)");
	CHECK(d.ctl[4].msr == 0xC0000108u && d.ctl[4].set_disables, "19h-61h: MSR C000_0108H, 1 = disabled");
	CHECK(strstr(d.source, "56713") != 0, "19h-61h: source the model 61h PPR (%s)", d.source);
	d = look("AuthenticAMD", 0x19, 0x11);
	CHECK(d.n == 5 && strstr(d.source, "55901"), "19h-11h Genoa: PPR #55901");
	d = look("AuthenticAMD", 0x1A, 0x02);
	CHECK(d.n == 5 && strstr(d.source, "57238"), "1Ah-02h Turin: PPR #57238");
	d = look("AuthenticAMD", 0x19, 0x21);
	CHECK(d.n == 0 && strstr(d.why, "family 19h model 21h"), "19h-21h Zen 3: no PPR control (%s)", d.why);
	d = look("AuthenticAMD", 0x17, 0x31);
	CHECK(d.n == 0 && strstr(d.why, "family 17h model 31h"), "17h-31h Zen 2: none (%s)", d.why);
	d = look("HygonGenuine", 0x18, 0x00);
	CHECK(d.n == 0 && strstr(d.why, "HygonGenuine"), "Hygon 18h: none, not AMD's rows (%s)", d.why);
	d = look("CentaurHauls", 6, 0x0F);
	CHECK(d.n == 0 && strstr(d.why, "CentaurHauls"), "Centaur: none (%s)", d.why);
	d = look("AuthenticAMD", 6, 0x3C);
	CHECK(d.n == 0, "AMD with Intel's family and model: none (the vendor decides)");
}

static void test_decisions(void)
{
	struct prefetch_doc d = look("GenuineIntel", 6, 0x3C);
	const struct prefetch_control *l2 = &d.ctl[0], *ip = &d.ctl[3];
	CHECK_EQ_U64(prefetch_value(l2, 0x40, 0), 0x41, "off: bit 0 set, bit 6 kept");
	CHECK_EQ_U64(prefetch_value(l2, 0x4F, 1), 0x4E, "on: bit 0 cleared, the others kept");
	CHECK_EQ_U64(prefetch_value(ip, 0, 0), 0x8, "DCU IP off: bit 3");
	CHECK(prefetch_is_on(l2, 0xE) && !prefetch_is_on(l2, 0x1), "bit 0 = 0: on; = 1: off");

	struct prefetch_try t = { .want = PREFETCH_KEEP, .before = 0x1 };
	CHECK(!prefetch_should_write(&t), "keep: nothing written");
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_OFF, "keep: bit 0 = 1 read: off");
	t.before = 0;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_ON, "keep: bit 0 = 0 read: on");
	t.read_fault = 13;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_UNKNOWN, "keep, the read faults: unknown");

	t = (struct prefetch_try){ .want = PREFETCH_OFF, .read_fault = 13 };
	CHECK(!prefetch_should_write(&t), "off, the read faults: nothing written");
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_NOT_TAKEN, "off, the read faults: not taken");

	t = (struct prefetch_try){ .want = PREFETCH_OFF };
	CHECK(prefetch_should_write(&t), "off, the read worked: written");
	t.wrote = 1, t.written = 1, t.read = 1;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_OFF, "off, read back bit 0 = 1: off");
	t.read = 0;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_NOT_TAKEN, "off, read back 0 (QEMU TCG): not taken");
	t.read = 1, t.write_fault = 13;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_NOT_TAKEN,
		     "off, the write faults: not taken, whatever is read");
	t.write_fault = 0, t.readback_fault = 13;
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_NOT_TAKEN, "off, the read back faults: not taken");
	t = (struct prefetch_try){ .want = PREFETCH_ON, .wrote = 1, .written = 0, .read = 0 };
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_ON, "on, read back 0: on");
	t = (struct prefetch_try){ .want = PREFETCH_OFF };
	CHECK_EQ_U64(prefetch_outcome(l2, &t), PREFETCH_STATE_NOT_TAKEN, "off, never written: not taken");
}

static void test_lines(void)
{
	struct prefetch_doc d = look("GenuineIntel", 6, 0x3C), a = look("AuthenticAMD", 0x19, 0x61);
	char b[400], w[240];
	struct prefetch_try t = { .want = PREFETCH_OFF, .wrote = 1, .written = 1, .read = 1 };
	CHECK_STR(prefetch_line(b, sizeof b, &d.ctl[0], &t), "prefetch: L2 hardware prefetcher: off (MSR 1A4H bit 0 = 1, read back)",
		  "off, taken");
	CHECK(prefetch_why(w, sizeof w, &d.ctl[0], &t) == 0, "off, taken: no why");
	t = (struct prefetch_try){ .want = PREFETCH_ON, .before = 0x8, .wrote = 1, .written = 0x8, .read = 0x8 };
	CHECK_STR(prefetch_line(b, sizeof b, &d.ctl[0], &t),
		  "prefetch: L2 hardware prefetcher: on (MSR 1A4H bit 0 = 0, read back; so before the write too)",
		  "on where it was on already: the write is not claimed to have done it");
	t = (struct prefetch_try){ .want = PREFETCH_KEEP, .before = 0 };
	CHECK_STR(prefetch_line(b, sizeof b, &d.ctl[0], &t),
		  "prefetch: L2 hardware prefetcher: on (MSR 1A4H bit 0 = 0, as the firmware left it)", "keep");
	t = (struct prefetch_try){ .want = PREFETCH_OFF, .hypervisor = 1, .wrote = 1, .written = 0x8, .read = 0 };
	CHECK_STR(prefetch_line(b, sizeof b, &d.ctl[3], &t),
		  "prefetch: DCU IP prefetcher: not taken (wrote 0x8 to MSR 1A4H, read back 0x0: bit 3 = 0, on; "
		  "under a hypervisor (CPUID.1:ECX[31]), which may ignore or refuse it)", "off under TCG: not taken");
	t = (struct prefetch_try){ .want = PREFETCH_OFF, .read_fault = 13 };
	CHECK_STR(prefetch_line(b, sizeof b, &a.ctl[4], &t),
		  "prefetch: L2 up/down prefetcher (UpDown): not taken (RDMSR of MSR C000_0108H faulted (#GP): "
		  "nothing written)", "a read #GP");
	t = (struct prefetch_try){ .want = PREFETCH_ON, .wrote = 1, .write_fault = 13, .read = 0x20 };
	CHECK_STR(prefetch_line(b, sizeof b, &a.ctl[4], &t),
		  "prefetch: L2 up/down prefetcher (UpDown): not taken (WRMSR of 0x0 to MSR C000_0108H faulted (#GP))",
		  "a write #GP");
	t = (struct prefetch_try){ .want = PREFETCH_KEEP, .read_fault = 13 };
	CHECK_STR(prefetch_line(b, sizeof b, &a.ctl[0], &t),
		  "prefetch: L1 stream prefetcher (L1Stream): unknown (RDMSR of MSR C000_0108H faulted (#GP): "
		  "nothing written)", "keep, a read #GP: unknown");
	CHECK_STR(prefetch_state_word(PREFETCH_STATE_NOT_TAKEN), "not_taken", "the record's word");
}

static void test_corpus(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path);
	int four = 0, atom = 0, phi = 0, amd = 0, none = 0, intel_none = 0, amd_none = 0;
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	for (int i = 0; i < n; i++) {
		const char *name = dumps[i].name;
		struct cpu_info c;
		struct prefetch_doc d;
		cpuinfo_read(dump_cpuid, &dumps[i].cpus[0], &c);
		prefetch_lookup(&c, &d);
		if (!d.n) {
			none++;
			intel_none += cpu_vendor_is(&c, "GenuineIntel");
			amd_none += cpu_vendor_is(&c, "AuthenticAMD");
			CHECK(d.why[0] && !d.source && !d.ctl, "%s: no control: a reason, no source", name);
			continue;
		}
		int is_intel = cpu_vendor_is(&c, "GenuineIntel"), is_amd = cpu_vendor_is(&c, "AuthenticAMD");
		CHECK(d.why[0] == 0 && d.source && d.msr_name, "%s: documented: a source, no reason", name);
		CHECK((is_intel && c.family == 6) || (is_amd && (c.family == 0x19 || c.family == 0x1A)),
		      "%s: controls only for Intel family 06H and AMD 19h/1Ah (%s %02X-%02X)", name, c.vendor, c.family,
		      c.model);
		uint64_t bits = 0;
		for (int k = 0; k < d.n; k++) {
			CHECK(d.ctl[k].msr == d.ctl[0].msr && d.ctl[k].bit < 64 && !(bits & (1ull << d.ctl[k].bit)),
			      "%s: control %s on the one MSR, its own bit", name, d.ctl[k].key);
			bits |= 1ull << d.ctl[k].bit;
		}
		CHECK(d.ctl[0].msr == (is_intel ? MSR_MISC_FEATURE_CONTROL : MSR_AMD_PREFETCH_CONTROL),
		      "%s: Intel's MSR 1A4H, AMD's C000_0108H", name);
		if (is_amd) {
			amd++;
			CHECK(bits == 0x2F, "%s: PrefetchControl bits 0-3, 5", name);
		} else if (d.ctl[0].key[0] == 'd') {
			phi++;
			CHECK(bits == 0x3, "%s: Xeon Phi bits 0, 1", name);
		} else if (d.n == 2) {
			atom++;
			CHECK(bits == 0x5 && !strncmp(name, "intel/x86-atom", 14), "%s: an Atom core: bits 0, 2", name);
		} else {
			four++;
			CHECK(bits == 0xF, "%s: bits 0-3", name);
		}
		CHECK(strncmp(name, "amd/zen2", 8) && strncmp(name, "amd/zen3", 8) && strncmp(name, "hygon", 5),
		      "%s: Zen 2, Zen 3 and Hygon document none", name);
	}
	printf("prefetch: corpus %d dumps: MSR 1A4H four bits %d, Atom bits 0,2 %d, Xeon Phi %d, AMD PrefetchControl %d, "
	       "none %d (Intel %d, AMD %d)\n", n, four, atom, phi, amd, none, intel_none, amd_none);
	/* The corpus's spread, so a change of the table or of the corpus shows. */
	CHECK(four >= 100, "Intel cores Nehalem onward with the four bits: %d", four);
	CHECK(atom >= 5, "Goldmont and Goldmont Plus dumps get bits 0, 2: %d", atom);
	CHECK(amd >= 20, "Zen 4 and Zen 5 dumps get PrefetchControl: %d", amd);
	CHECK(intel_none >= 50 && amd_none >= 100, "older and undocumented models get none: Intel %d, AMD %d",
	      intel_none, amd_none);
	if (n > 0)
		dump_free(dumps, n);
}

int main(void)
{
	test_models();
	test_decisions();
	test_lines();
	test_corpus();
	return check_summary("prefetch");
}

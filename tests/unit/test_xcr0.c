/* tests/unit/test_xcr0.c - lib/xcr0.c: the XCR0 the kernel writes, from
 * CPUID, and its environment line; then every real CPU of the corpus
 * (tests/corpus/cpuid/, as tests/unit/test_cpuid_corpus.c reads it): the
 * choice obeys XSETBV's rules (SDM Vol. 3A 2.6), enables AVX and AVX-512
 * wherever CPUID enumerates them, and its standard-format save area (the
 * largest offset + size of CPUID.(EAX=0DH,ECX=i) among the components
 * chosen; SDM Vol. 1 13.4.3) fits the 16 KiB bench/code.c reserves. */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/xcr0.h"

#define AREA_RESERVED 16384u /* kernel/xsave.h XSAVE_AREA_MAX */

static uint64_t choose(uint32_t max_basic, uint32_t ecx1, uint64_t supported)
{
	struct xcr0_cpuid in = { max_basic, ecx1, supported, 0 };
	return xcr0_choose(&in);
}

/* The same with CPUID.(EAX=0DH,ECX=1):EAX = ext. */
static uint64_t choose_ext(uint32_t max_basic, uint32_t ecx1, uint64_t supported, uint32_t ext)
{
	struct xcr0_cpuid in = { max_basic, ecx1, supported, ext };
	return xcr0_choose(&in);
}

static const char *line(uint32_t max_basic, uint32_t ecx1, uint64_t supported, uint32_t area)
{
	static char buf[300];
	struct xcr0_cpuid in = { max_basic, ecx1, supported, 0 };
	return xcr0_line(buf, sizeof buf, &in, xcr0_choose(&in), area);
}

#define XSAVE (1u << 26)
#define AVX (1u << 28)
#define HYPERVISOR (1u << 31)

static void test_choice(void)
{
	CHECK_EQ_U64(choose(0xD, 0, 0x7), 0, "no XSAVE (CPUID.1:ECX[26]=0): XCR0 left alone");
	CHECK_EQ_U64(choose(0xB, XSAVE, 0x7), 0, "leaf 0DH beyond the maximum: XSAVE not used");
	CHECK_EQ_U64(choose(0xD, XSAVE, 0x1), 0, "x87 without SSE enumerated: XSAVE not used");
	CHECK_EQ_U64(choose(0xD, XSAVE, 0x3), 0x3, "XSAVE without AVX (Penryn): x87 | SSE");
	CHECK_EQ_U64(choose(0xD, XSAVE | AVX, 0x7), 0x7, "Sandy Bridge: x87 | SSE | AVX");
	CHECK_EQ_U64(choose(0xD, XSAVE | AVX, 0x1F), 0x7, "Skylake client (MPX 4:3): no MPX");
	CHECK_EQ_U64(choose(0xD, XSAVE | AVX, 0x2FF), 0xE7, "Skylake-X (MPX, AVX-512, PKRU): AVX-512, no MPX, no PKRU");
	CHECK_EQ_U64(choose(0xD, XSAVE | AVX, 0x602E7), 0xE7, "Sapphire Rapids (AMX 18:17): no AMX");
	CHECK_EQ_U64(choose(0xD, XSAVE | AVX, 0x67), 0x7, "opmask and ZMM_Hi256 without Hi16_ZMM: no AVX-512 "
		     "(the three only together)");
	CHECK_EQ_U64(choose(0xD, XSAVE, 0xE3), 0x3, "AVX-512 state without AVX state: neither");
	CHECK_EQ_U64(choose(0xD, XSAVE, 0x7), 0x7, "AVX state without CPUID.1:ECX.AVX: the state enabled");
	/* QEMU's TCG hangs on CR4.OSXSAVE where CPUID.(0DH,1):EAX is 0 (lib/xcr0.h). */
	CHECK_EQ_U64(choose_ext(0xD, XSAVE | AVX | HYPERVISOR, 0x7, 0), 0,
		     "QEMU Opteron_G4 (a hypervisor, CPUID.(0DH,1):EAX=0): XSAVE not used");
	CHECK_EQ_U64(choose_ext(0xD, XSAVE | AVX | HYPERVISOR, 0x7, 0x1), 0x7,
		     "a hypervisor with XSAVEOPT (CPUID.(0DH,1):EAX[0]): XSAVE used");
	CHECK_EQ_U64(choose_ext(0xD, XSAVE | AVX | HYPERVISOR, 0x7, 0x8), 0x7,
		     "a hypervisor with XSAVES alone (CPUID.(0DH,1):EAX[3]): XSAVE used");
	CHECK_EQ_U64(choose_ext(0xD, XSAVE | AVX, 0x7, 0), 0x7,
		     "no hypervisor, CPUID.(0DH,1):EAX=0 (Bulldozer): XSAVE used, as the SDM says");
}

static void test_lines(void)
{
	CHECK_STR(line(0xD, 0, 0, 0),
		  "env: xsave: XSAVE not supported (CPUID.1:ECX[26]=0): vector state beyond SSE unavailable",
		  "qemu64: no XSAVE");
	CHECK_STR(line(0xB, XSAVE, 0, 0),
		  "env: xsave: XSAVE not used: CPUID leaf 0DH is beyond the maximum basic leaf 0xb: vector "
		  "state beyond SSE unavailable", "leaf 0DH out of reach");
	CHECK_STR(line(0xD, XSAVE, 1, 0),
		  "env: xsave: XSAVE not used: CPUID.(EAX=0DH,ECX=0):EAX=0x1 does not enumerate both x87 and "
		  "SSE (bits 1:0): vector state beyond SSE unavailable", "x87 alone");
	static char buf[400];
	struct xcr0_cpuid g4 = { 0xD, XSAVE | AVX | HYPERVISOR, 0x7, 0 };
	CHECK_STR(xcr0_line(buf, sizeof buf, &g4, xcr0_choose(&g4), 0),
		  "env: xsave: XSAVE not used: a hypervisor (CPUID.1:ECX[31]=1) with CPUID.(EAX=0DH,ECX=1):EAX=0 "
		  "(no XSAVEOPT, XSAVEC, XGETBV1, XSAVES): QEMU's TCG takes CR4.OSXSAVE as reserved there and "
		  "hangs on the MOV to CR4 that sets it: vector state beyond SSE unavailable",
		  "QEMU Opteron_G4: the CPUID bit and leaf that made the kernel decline XSAVE");
	CHECK_STR(line(0xD, XSAVE, 0x3, 576),
		  "env: xsave: XCR0=0x3 (x87, SSE; CPUID.(EAX=0DH,ECX=0):EDX:EAX=0x3), save area 576 bytes "
		  "(CPUID.(EAX=0DH,ECX=0):EBX); AVX: not available (CPUID.1:ECX.AVX[28]=0)", "no AVX");
	CHECK_STR(line(0xD, XSAVE | AVX, 0x3, 576),
		  "env: xsave: XCR0=0x3 (x87, SSE; CPUID.(EAX=0DH,ECX=0):EDX:EAX=0x3), save area 576 bytes "
		  "(CPUID.(EAX=0DH,ECX=0):EBX); AVX: not available (CPUID.(EAX=0DH,ECX=0):EAX[2]=0)",
		  "AVX without its state");
	CHECK_STR(line(0xD, XSAVE | AVX, 0x207, 832),
		  "env: xsave: XCR0=0x7 (x87, SSE, AVX; CPUID.(EAX=0DH,ECX=0):EDX:EAX=0x207), save area 832 "
		  "bytes (CPUID.(EAX=0DH,ECX=0):EBX); AVX-512: not available (CPUID.(EAX=0DH,ECX=0):EAX[7:5]=0x0)",
		  "AVX, no AVX-512");
	CHECK_STR(line(0xD, XSAVE | AVX, 0x2FF, 2688),
		  "env: xsave: XCR0=0xe7 (x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM; "
		  "CPUID.(EAX=0DH,ECX=0):EDX:EAX=0x2ff), save area 2688 bytes (CPUID.(EAX=0DH,ECX=0):EBX)",
		  "AVX-512");
	char small[20];
	struct xcr0_cpuid in = { 0xD, XSAVE | AVX, 0x2FF, 0 };
	xcr0_line(small, sizeof small, &in, 0xE7, 2688);
	CHECK_STR(small, "env: xsave: XCR0=0x", "a small buffer: cut, NUL-terminated");
}

static void test_read(void)
{
	struct dump_leaf v[] = { { 0, 0, { 0xD, 0x756e6547, 0x6c65746e, 0x49656e69 } },
				 { 1, 0, { 0x506E3, 0, XSAVE | AVX, 0 } },
				 { 0xD, 0, { 0x1F, 0x340, 0x440, 0x1 } },
				 { 0xD, 1, { 0xF, 0, 0, 0 } } };
	struct dump_cpu c = { 4, v, 0, 0xD, 0, 0 };
	struct xcr0_cpuid in;
	xcr0_cpuid_read(dump_cpuid, &c, &in);
	CHECK(in.max_basic == 0xD && in.ecx1 == (XSAVE | AVX), "leaves 0 and 1 read: %#x %#x", in.max_basic, in.ecx1);
	CHECK_EQ_U64(in.supported, 0x10000001Full, "CPUID.(0DH,0): EDX:EAX, EDX the high half");
	CHECK_EQ_U64(in.ext, 0xF, "CPUID.(0DH,1):EAX read");
	c.max_basic = 0xB;
	v[0].r[0] = 0xB;
	xcr0_cpuid_read(dump_cpuid, &c, &in);
	CHECK_EQ_U64(in.supported, 0, "leaf 0DH beyond the maximum: not read");
	CHECK_EQ_U64(in.ext, 0, "leaf 0DH beyond the maximum: sub-leaf 1 not read");
}

/* The standard-format area of xcr0 on dump CPU c: 576 bytes (legacy
 * region and header), or the end of the furthest component i >= 2. */
static uint32_t area_of(struct dump_cpu *c, uint64_t xcr0)
{
	uint32_t end = 576, r[4];
	for (uint32_t i = 2; i < 64; i++)
		if ((xcr0 >> i) & 1) {
			dump_cpuid(c, 0xD, i, r);
			if (r[1] + r[0] > end)
				end = r[1] + r[0];
		}
	return end;
}

/* Named dumps: CPUID.(0DH,0):EDX:EAX as the dump has it, and the XCR0 chosen. */
static const struct {
	const char *name;
	uint64_t xcr0;
} named[] = {
	{ "intel/x86-64/skylake/intel-core-i9-7980xe-cpu.test", 0xE7 },         /* 0xFF: MPX, AVX-512 */
	{ "intel/x86-64/skylake/intel-core-i7-6700k-cpu.test", 0x7 },           /* 0x1F: MPX, no AVX-512 */
	{ "amd/zen4/amd-ryzen-7-7700x-8-core-processor.test", 0xE7 },          /* 0x2E7: AVX-512, PKRU */
	{ "amd/zen3/amd-ryzen-9-5950x-16-core-processor.test", 0x7 },          /* 0x207: PKRU */
	{ "amd/k8/amd-athlon-64-x2-dual-core-processor-3800+.test", 0 },       /* no XSAVE, no leaf 0DH */
};

static void test_corpus(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path), xsave = 0, avx = 0, avx512 = 0, largest = 0, found = 0, zero_ext = 0;
	const char *largest_name = "";
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	for (int i = 0; i < n; i++) {
		struct dump_cpu *c = &dumps[i].cpus[0];
		const char *name = dumps[i].name;
		struct xcr0_cpuid in;
		xcr0_cpuid_read(dump_cpuid, c, &in);
		uint64_t x = xcr0_choose(&in);
		int can = (in.ecx1 & XSAVE) && in.max_basic >= 0xD && (in.supported & 3) == 3;
		CHECK(!!x == can, "%s: XSAVE used (XCR0 %#llx) exactly when CPUID.1:ECX[26], leaf 0DH and x87|SSE "
		      "say so (QEMU's exception, a hypervisor with CPUID.(0DH,1):EAX=0, is no real CPU)", name,
		      (unsigned long long)x);
		if (can && !in.ext)
			zero_ext++;
		for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
			if (!strcmp(name, named[k].name)) {
				found++;
				CHECK_EQ_U64(x, named[k].xcr0, "%s: XCR0", name);
			}
		if (!x)
			continue;
		xsave++;
		CHECK((x & 3) == 3 && (x & ~in.supported) == 0 && (x & ~0xE7ull) == 0,
		      "%s: XCR0 %#llx: x87 and SSE, only supported bits (%#llx), only 0,1,2,5,6,7", name,
		      (unsigned long long)x, (unsigned long long)in.supported);
		CHECK((x & XCR0_AVX512) == 0 || ((x & XCR0_AVX512) == XCR0_AVX512 && (x & XCR0_AVX)),
		      "%s: XCR0 %#llx: AVX-512 all together and with AVX (XSETBV's rules)", name,
		      (unsigned long long)x);
		CHECK(!!(x & XCR0_AVX) == !!(in.supported & XCR0_AVX), "%s: AVX state enabled where enumerated", name);
		if ((in.ecx1 & AVX) && (in.supported & XCR0_AVX))
			avx++;
		CHECK(!!(x & XCR0_OPMASK) == ((in.supported & XCR0_AVX512) == XCR0_AVX512),
		      "%s: AVX-512 enabled where enumerated (%#llx)", name, (unsigned long long)in.supported);
		avx512 += !!(x & XCR0_OPMASK);
		uint32_t area = area_of(c, x), r[4];
		dump_cpuid(c, 0xD, 0, r);
		CHECK(area <= r[2] && area <= AREA_RESERVED, "%s: the save area of XCR0 %#llx, %u bytes, within "
		      "CPUID.(0DH,0):ECX (%u) and the %u reserved", name, (unsigned long long)x, area, r[2],
		      AREA_RESERVED);
		if ((int)area > largest)
			largest = (int)area, largest_name = name;
	}
	CHECK_EQ_U64(found, sizeof named / sizeof named[0], "every named dump is in the corpus");
	/* The corpus's spread, so a change of the rule or of the corpus shows. */
	CHECK(xsave > 300 && avx > 250 && avx512 > 20, "dumps with XSAVE %d, AVX %d, AVX-512 %d", xsave, avx, avx512);
	CHECK(zero_ext >= 30, "real CPUs with XSAVE and CPUID.(0DH,1):EAX=0 keep XSAVE (%d dumps): the SDM's rule, "
	      "not QEMU's", zero_ext);
	CHECK_EQ_U64(largest, 2688, "the largest save area (%s): AVX-512's standard format ends at 2688 bytes",
		     largest_name);
	if (n > 0)
		dump_free(dumps, n);
}

int main(void)
{
	test_choice();
	test_lines();
	test_read();
	test_corpus();
	return check_summary("xcr0");
}

/* tests/unit/test_codegen.c - lib/codegen.c: the generated sampling loop is
 * run here, on the host, in memory below 2 GiB (MAP_32BIT), with stand-in
 * start and stop sequences that are legal in user mode: the samples it
 * stores prove that the copies, the loop, init, the private stack, the
 * scratch area and the three result layouts work, and that it returns with
 * the caller's registers intact; the layout offsets are checked against the
 * bytes. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdint.h>
#include <sys/mman.h>
#include "check.h"
#include "../../lib/codegen.h"

struct samples_abi {
	uint64_t *tsc, *ins, *cyc;
};
typedef void (*loop_fn)(struct samples_abi *s, uint64_t n, void *c);

static uint8_t *low;      /* 4 MiB below 2 GiB, read/write/execute */
static uint64_t *scratch; /* low + 1 MiB, 1 MiB */

static struct codegen_spec base(void)
{
	struct codegen_spec s = { 0 };
	s.state = (uint32_t)(uintptr_t)low;
	s.save_area = (uint32_t)(uintptr_t)(low + 512); /* 64-aligned, up to low + 4 KiB */
	s.stack_top = (uint64_t)(uintptr_t)(low + 1024 * 1024);
	s.scratch = (uint64_t)(uintptr_t)scratch;
	s.scratch_qwords = 1024 * 1024 / 8;
	return s;
}

static uint8_t *code_at(void)
{
	return low + 2 * 1024 * 1024;
}

static int run(const struct codegen_spec *s, struct codegen_layout *l, uint64_t *tsc, uint64_t *ins,
	       uint64_t *cyc, uint64_t n)
{
	if (codegen_emit(code_at(), 2 * 1024 * 1024, s, l))
		return -1;
	struct samples_abi sm = { tsc, ins, cyc };
	((loop_fn)(void *)code_at())(&sm, n, 0);
	return 0;
}

/* TSC layout: start xor edx,edx; the copies add to RDX; the stop nothing. */
static void test_copies_and_loop(void)
{
	static const uint8_t start[] = { 0x31, 0xD2 }, inc_rdx[] = { 0x48, 0xFF, 0xC2 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[5] = { 0 };
	s.start = start, s.start_len = sizeof start;
	s.code = inc_rdx, s.code_len = sizeof inc_rdx;
	s.copies = 37, s.loops = 3, s.results = CG_TSC;
	CHECK(run(&s, &l, tsc, 0, 0, 5) == 0, "37 copies x 3 loops of inc rdx: emitted and run");
	for (int i = 0; i < 5; i++)
		CHECK_EQ_U64(tsc[i], 111, "sample %d: 37 copies x 3 loops = 111 increments", i);
	CHECK_EQ_U64(l.code_end - l.code, 37 * 3, "copies: 37 x 3 bytes of inc rdx");
	CHECK_EQ_U64(l.window_end - l.code_end, 3 + 6, "loop tail: dec r15 (3 bytes), jnz rel32 (6)");
	CHECK(memcmp(code_at() + l.window - sizeof start, start, sizeof start) == 0,
	      "start sequence just before the window");
	CHECK(memcmp(code_at() + l.code + 36 * 3, inc_rdx, 3) == 0, "last copy is inc rdx");
	CHECK_EQ_U64(l.len, codegen_size(&s), "codegen_size matches the emitted length");
	s.loops = 0, s.copies = 100;
	CHECK(run(&s, &l, tsc, 0, 0, 2) == 0, "100 copies, no loop: emitted and run");
	CHECK_EQ_U64(tsc[0], 100, "no loop: sample 0 is 100 increments");
	CHECK_EQ_U64(tsc[1], 100, "no loop: sample 1 is 100 increments");
	CHECK_EQ_U64(l.window_end, l.code_end, "no loop: no loop tail after the copies");
	s.copies = 0; /* the empty window */
	CHECK(run(&s, &l, tsc, 0, 0, 1) == 0, "empty window: emitted and run");
	CHECK_EQ_U64(tsc[0], 0, "empty window: nothing counted");
	tsc[0] = 99; /* n = 0: nothing stored */
	CHECK(run(&s, &l, tsc, 0, 0, 0) == 0, "n = 0: runs");
	CHECK_EQ_U64(tsc[0], 99, "n = 0: no sample stored");
}

/* init runs before the start each sample; R14 is the scratch area, zeroed
 * once per call; RSP a private stack the code may push on. */
static void test_init_scratch_stack(void)
{
	/* init: mov rax, [r14]; inc rax; mov [r14], rax (counts samples) */
	static const uint8_t init[] = { 0x49, 0x8B, 0x06, 0x48, 0xFF, 0xC0, 0x49, 0x89, 0x06 };
	/* start: mov rdx, [r14] */
	static const uint8_t start[] = { 0x49, 0x8B, 0x16 };
	/* code: push rdx; pop rdx; mov rbx, rsp; clobber r8..r13, rbp */
	static const uint8_t code[] = { 0x52, 0x5A, 0x48, 0x89, 0xE3, 0x4D, 0x31, 0xC0, 0x4D, 0x31, 0xED,
					0x48, 0x31, 0xED, 0x4D, 0x31, 0xE4 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[4] = { 0 };
	scratch[0] = 1000; /* zeroed by the loop first */
	s.init = init, s.init_len = sizeof init;
	s.start = start, s.start_len = sizeof start;
	s.code = code, s.code_len = sizeof code, s.copies = 2;
	CHECK(run(&s, &l, tsc, 0, 0, 4) == 0, "init, scratch, private stack: emitted and run");
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(tsc[i], (uint64_t)i + 1,
		             "sample %d: init counted %d samples in the scratch area", i, i + 1);
	CHECK_EQ_U64(l.init_end - l.init, sizeof init, "init copied whole");
	CHECK(memcmp(code_at() + l.init, init, sizeof init) == 0, "init's bytes in place");
	/* A second call zeroes the scratch again. */
	CHECK(run(&s, &l, tsc, 0, 0, 1) == 0, "second call: emitted and run");
	CHECK_EQ_U64(tsc[0], 1, "second call zeroes the scratch again");
}

/* The counter and beside layouts store RDX, RDI (and RBX) where the
 * compiled loops store them. */
static void test_result_layouts(void)
{
	/* start: mov edx, 11; mov edi, 22; mov ebx, 33 */
	static const uint8_t start[] = { 0xBA, 11, 0, 0, 0, 0xBF, 22, 0, 0, 0, 0xBB, 33, 0, 0, 0 };
	static const uint8_t nop[] = { 0x90 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[2] = { 0 }, ins[2] = { 0 }, cyc[2] = { 0 };
	s.start = start, s.start_len = sizeof start;
	s.code = nop, s.code_len = 1, s.copies = 1;
	s.results = CG_CTR;
	CHECK(run(&s, &l, tsc, ins, cyc, 2) == 0, "counter layout: emitted and run");
	CHECK_EQ_U64(tsc[1], 0, "counter layout: no TSC stored");
	CHECK_EQ_U64(ins[1], 11, "counter layout: RDX into the instructions array");
	CHECK_EQ_U64(cyc[1], 22, "counter layout: RDI into the cycles array");
	s.results = CG_BESIDE;
	CHECK(run(&s, &l, tsc, ins, cyc, 2) == 0, "beside layout: emitted and run");
	CHECK_EQ_U64(tsc[1], 33, "beside layout: RBX into the TSC array");
	CHECK_EQ_U64(ins[1], 11, "beside layout: RDX into the instructions array");
	CHECK_EQ_U64(cyc[1], 22, "beside layout: RDI into the cycles array");
}

/* Out of range: no bytes, -1. */
static void test_limits(void)
{
	static const uint8_t nop[] = { 0x90 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint8_t small[16];
	s.code = nop, s.code_len = 1, s.copies = 10;
	CHECK(codegen_emit(small, sizeof small, &s, &l) == -1, "buffer too small: -1");
	s.loops = 0x80000000ull;
	CHECK_EQ_U64(codegen_size(&s), 0, "loops of 2^31: out of range, size 0");
	s.loops = 0, s.code_len = 0;
	CHECK_EQ_U64(codegen_size(&s), 0, "no code: size 0");
	s.code_len = 4096, s.copies = 1000000;
	CHECK_EQ_U64(codegen_size(&s), 0, "4 GB of copies: out of range, size 0");
}

/* The vector state: FXSAVE64/FXRSTOR64 without a mask, XSAVE64/XRSTOR64
 * with EDX:EAX = the mask otherwise (SDM Vol. 2B, 2D; bytes checked). On a
 * host with AVX (and AVX-512) enabled by its OS, code that overwrites
 * YMM8 (ZMM24, k1) leaves them as the caller had them with XSAVE64 and
 * XCR0's mask; FXRSTOR64 restores XMM8 but not YMM8's upper half (it
 * restores the legacy region only: SDM Vol. 2A FXRSTOR), which is why. */
static void test_vector_state(void)
{
	static const uint8_t nop[] = { 0x90 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint8_t *p = code_at();
	s.code = nop, s.code_len = 1, s.copies = 1;
	CHECK(codegen_emit(p, 4096, &s, &l) == 0, "FXSAVE64 loop emitted");
	uint8_t fx[] = { 0x48, 0x0F, 0xAE, 0x04, 0x25 }, fxr[] = { 0x48, 0x0F, 0xAE, 0x0C, 0x25 };
	CHECK(memmem(p, l.init, fx, 5) && memmem(p + l.exit, l.len - l.exit, fxr, 5),
	      "no mask: FXSAVE64 [area] in the prologue, FXRSTOR64 [area] in the epilogue");
	size_t fx_len = l.len;
	s.xsave_mask = 0x2000000E7ull;
	CHECK(codegen_emit(p, 4096, &s, &l) == 0, "XSAVE64 loop emitted");
	uint32_t area = s.save_area;
	uint8_t xs[15] = { 0xB8, 0xE7, 0, 0, 0, 0xBA, 2, 0, 0, 0, 0x48, 0x0F, 0xAE, 0x24, 0x25 };
	uint8_t xr[15] = { 0xB8, 0xE7, 0, 0, 0, 0xBA, 2, 0, 0, 0, 0x48, 0x0F, 0xAE, 0x2C, 0x25 };
	uint8_t *at = memmem(p, l.init, xs, 15), *rt = memmem(p + l.exit, l.len - l.exit, xr, 15);
	CHECK(at && !memcmp(at + 15, &area, 4), "mask 2000000E7H: mov eax, 0E7H; mov edx, 2; XSAVE64 [area]");
	CHECK(rt && !memcmp(rt + 15, &area, 4), "mask 2000000E7H: mov eax, 0E7H; mov edx, 2; XRSTOR64 [area]");
	CHECK_EQ_U64(l.len, fx_len + 20, "XSAVE: two mov r32, imm32 more, on each side");

	unsigned a, b, c, d;
	uint32_t lo = 0, hi = 0;
	if (__get_cpuid(1, &a, &b, &c, &d) && (c >> 27 & 1))
		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	uint64_t mask = (((uint64_t)hi << 32) | lo) & 0xE7;
	if (!(mask & 4)) {
		printf("codegen: the host's OS enables no AVX state (XCR0 %#x): XSAVE64 not run\n", lo);
		return;
	}
	int avx512 = (mask & 0xE0) == 0xE0;
	/* vpcmpeqd ymm8, ymm8, ymm8; and with AVX-512 vpternlogd zmm24,
	 * zmm24, zmm24, 0FFH; kxnorw k1, k1, k1: all ones. */
	static const uint8_t avx[] = { 0xC4, 0x41, 0x3D, 0x76, 0xC0 };
	static const uint8_t avx512_code[] = { 0xC4, 0x41, 0x3D, 0x76, 0xC0, 0x62, 0x03, 0x3D, 0x40, 0x25,
					       0xC0, 0xFF, 0xC5, 0xF4, 0x46, 0xC9 };
	s.code = avx512 ? avx512_code : avx, s.code_len = avx512 ? sizeof avx512_code : sizeof avx;
	for (int xsave = 0; xsave < 2; xsave++) {
		s.xsave_mask = xsave ? mask : 0;
		CHECK(codegen_emit(p, 4096, &s, &l) == 0, "AVX code emitted");
		uint8_t pat[64], out[64], zout[64];
		uint64_t tsc[1], rdi, rsi = 1, rdx = 0;
		uint32_t k = 0x1234;
		uint16_t kout = 0;
		struct samples_abi sm = { tsc, 0, 0 };
		void *fn = p;
		for (int i = 0; i < 64; i++)
			pat[i] = (uint8_t)i;
		rdi = (uint64_t)(uintptr_t)&sm;
		if (avx512)
			__asm__ volatile("vmovdqu32 (%0), %%zmm24\n\tkmovw %1, %%k1" : : "r"(pat), "r"(k) : "memory");
		/* The call below the red zone; YMM8 set and read around it. */
		__asm__ volatile("vmovdqu (%[pat]), %%ymm8\n\tsub $128, %%rsp\n\tcall *%[fn]\n\t"
				 "add $128, %%rsp\n\tvmovdqu %%ymm8, (%[out])"
				 : "+D"(rdi), "+S"(rsi), "+d"(rdx), [fn] "+a"(fn)
				 : [pat] "r"(pat), [out] "r"(out)
				 : "rcx", "r8", "r9", "r10", "r11", "memory", "cc", "xmm8");
		if (avx512)
			__asm__ volatile("vmovdqu32 %%zmm24, (%1)\n\tkmovw %%k1, %0" : "=m"(kout) : "r"(zout) : "memory");
		if (xsave) {
			CHECK(!memcmp(out, pat, 32), "XSAVE64 with XCR0's mask %#llx: YMM8 as the caller left it",
			      (unsigned long long)mask);
			if (avx512)
				CHECK(!memcmp(zout, pat, 64) && kout == 0x1234,
				      "XSAVE64: ZMM24 and k1 (AVX-512 state) as the caller left them");
		} else {
			CHECK(!memcmp(out, pat, 16) && out[16] == 0xFF,
			      "FXRSTOR64: XMM8 restored, YMM8's upper half left as the code set it");
		}
	}
}

int main(void)
{
	low = mmap(0, 4 * 1024 * 1024, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED) {
		printf("codegen: SKIP: no executable memory below 2 GiB (mmap MAP_32BIT)\n");
		return check_summary("codegen");
	}
	scratch = (uint64_t *)(low + 1024 * 1024);
	test_copies_and_loop();
	test_init_scratch_stack();
	test_result_layouts();
	test_limits();
	test_vector_state();
	return check_summary("codegen");
}

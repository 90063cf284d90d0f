/* tests/unit/test_codegen.c - lib/codegen.c: the generated sampling loop is
 * run here, on the host, in memory below 2 GiB (MAP_32BIT), with stand-in
 * start and stop sequences that are legal in user mode: the samples it
 * stores prove that the copies, the loop, init, the private stack, the
 * scratch area and the three result layouts work, and that it returns with
 * the caller's registers intact; the layout offsets are checked against the
 * bytes. The ring 0 parts (descriptor tables, CR0, CR4), which user mode
 * cannot run, are checked byte by byte against their SDM encodings. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdint.h>
#include <sys/mman.h>
#include "check.h"
#include "../../lib/codegen.h"

struct samples_abi {
	uint64_t *tsc, *ins, *cyc;
	uint64_t *ev[CG_EV_SLOTS_MAX];
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
	s.user_mode = 1; /* the host runs the loop in user mode */
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
	struct samples_abi sm = { tsc, ins, cyc, { 0 } };
	((loop_fn)(void *)code_at())(&sm, n, 0);
	return 0;
}

/* The events layout (CG_EVENTS): the TSC from RBX, each slot's difference
 * from ev_delta[k] into s->ev[k][i], for the spec's ev_slots only; the
 * other layouts' bytes do not change (no store of the samples pointer). */
static void test_events_layout(void)
{
	/* start: mov ebx, 33; stop: inc qword [ev_delta]; add qword [ev_delta+8], 2 */
	static const uint8_t start[] = { 0xBB, 33, 0, 0, 0 };
	uint8_t stop[17];
	static const uint8_t nop[] = { 0x90 };
	uint64_t *delta = (uint64_t *)(void *)(low + 3 * 1024 * 1024 + 1024 * 1024 - 4096);
	uint32_t d = (uint32_t)(uintptr_t)delta;
	uint8_t inc[] = { 0x48, 0xFF, 0x04, 0x25, 0, 0, 0, 0 }, add[] = { 0x48, 0x83, 0x04, 0x25, 0, 0, 0, 0, 2 };
	memcpy(inc + 4, &d, 4), d += 8, memcpy(add + 4, &d, 4);
	memcpy(stop, inc, sizeof inc), memcpy(stop + sizeof inc, add, sizeof add);
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[3] = { 0 }, e0[3] = { 0 }, e1[3] = { 0 }, e2[3] = { 7, 7, 7 };
	s.start = start, s.start_len = sizeof start;
	s.stop = stop, s.stop_len = sizeof stop;
	s.code = nop, s.code_len = 1, s.copies = 1;
	s.results = CG_EVENTS;
	s.ev_delta = (uint32_t)(uintptr_t)delta;
	s.ev_slots = 2;
	delta[0] = 100, delta[1] = 200, delta[2] = 300;
	CHECK(codegen_emit(code_at(), 2 * 1024 * 1024, &s, &l) == 0, "events layout: emitted");
	struct samples_abi sm = { tsc, 0, 0, { e0, e1, e2 } };
	((loop_fn)(void *)code_at())(&sm, 3, 0);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_U64(tsc[i], 33, "events layout: sample %d: RBX into the TSC array", i);
		CHECK_EQ_U64(e0[i], 101 + (uint64_t)i, "events layout: sample %d: slot 0 from ev_delta[0]", i);
		CHECK_EQ_U64(e1[i], 202 + 2 * (uint64_t)i, "events layout: sample %d: slot 1 from ev_delta[1]", i);
		CHECK_EQ_U64(e2[i], 7, "events layout: sample %d: slot 2 beyond ev_slots not stored", i);
	}
	s.ev_slots = CG_EV_SLOTS_MAX + 1;
	CHECK_EQ_U64(codegen_size(&s), 0, "events layout: more slots than CG_EV_SLOTS_MAX refused");
	s.ev_slots = 0;
	size_t none = codegen_size(&s);
	s.ev_slots = 3;
	CHECK_EQ_U64(codegen_size(&s) - none, 3 * (8 + 7 + 8 + 4), "events layout: 27 bytes of stores per slot");
	s.results = CG_TSC;
	CHECK_EQ_U64(none - codegen_size(&s), 8,
		     "events layout, no slot: the TSC layout and the samples pointer's store in the prologue");
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

/* regs=nanobench (codegen.h, nanoBench's kernel module): R14, RDI, RSI
 * and RBP as the spec gives them (the middle of an area each), RSP =
 * stack_top (the middle of a fifth), every other register 0; the area
 * zeroed per call is still scratch, whatever R14 is. */
static void test_registers_nanobench(void)
{
	uint32_t at = (uint32_t)(uintptr_t)(low + 3 * 1024 * 1024); /* where init stores them */
	static const uint8_t ops[][3] = { { 0x48, 0x89, 0x3C }, { 0x48, 0x89, 0x34 }, { 0x48, 0x89, 0x2C },
					  { 0x4C, 0x89, 0x34 }, { 0x48, 0x89, 0x24 }, { 0x48, 0x89, 0x04 } };
	uint8_t init[64];
	size_t n = 0;
	for (uint32_t k = 0; k < 6; k++) { /* mov [at + 8k], rdi / rsi / rbp / r14 / rsp / rax */
		memcpy(init + n, ops[k], 3), n += 3;
		init[n++] = 0x25;
		uint32_t a = at + 8 * k;
		memcpy(init + n, &a, 4), n += 4;
	}
	static const uint8_t stop[] = { 0x31, 0xD2 }; /* xor edx, edx */
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[2];
	s.r14 = s.scratch + 512 * 1024;
	s.rdi = (uint64_t)(uintptr_t)(low + 3 * 1024 * 1024 + 4096);
	s.rsi = s.rdi + 8192, s.rbp = s.rdi + 16384;
	s.stack_top = s.rdi + 32768;
	s.init = init, s.init_len = (uint32_t)n;
	s.stop = stop, s.stop_len = sizeof stop;
	scratch[5] = 99;
	CHECK(run(&s, &l, tsc, 0, 0, 2) == 0, "nanobench registers: emitted and run");
	const uint64_t *got = (const uint64_t *)(uintptr_t)at;
	CHECK_EQ_U64(got[0], s.rdi, "regs=nanobench: RDI at init is the middle of its area");
	CHECK_EQ_U64(got[1], s.rsi, "regs=nanobench: RSI at init is the middle of its area");
	CHECK_EQ_U64(got[2], s.rbp, "regs=nanobench: RBP at init is the middle of its area");
	CHECK_EQ_U64(got[3], s.r14, "regs=nanobench: R14 at init is r14 (the middle of its area), not scratch");
	CHECK_EQ_U64(got[4], s.stack_top, "regs=nanobench: RSP at init is stack_top (the middle of its area)");
	CHECK_EQ_U64(got[5], 0, "regs=nanobench: RAX still 0 at init");
	CHECK_EQ_U64(scratch[5], 0, "regs=nanobench: the scratch area (R14's area's start) still zeroed per call");
}

/* Every sample starts with the documented registers (codegen.h): init
 * sees RSP = stack_top, R14 = scratch and 0 in every other register, even
 * after a previous sample's code set them all; state.active holds the
 * loop's address while it runs, 0 after it returns. */
static void test_registers_documented(void)
{
	/* init: rax |= rbx|rcx|rdx|rsi|rdi|rbp|r8..r13|r15 (or rax, reg);
	 * [r14] = rax; [r14+8] = rsp; [r14+16] = r14; [r14+24] = [state.active] */
	uint8_t init[128];
	size_t n = 0;
	static const uint8_t ors[][3] = { { 0x48, 0x09, 0xD8 }, { 0x48, 0x09, 0xC8 }, { 0x48, 0x09, 0xD0 },
					  { 0x48, 0x09, 0xF0 }, { 0x48, 0x09, 0xF8 }, { 0x48, 0x09, 0xE8 },
					  { 0x4C, 0x09, 0xC0 }, { 0x4C, 0x09, 0xC8 }, { 0x4C, 0x09, 0xD0 },
					  { 0x4C, 0x09, 0xD8 }, { 0x4C, 0x09, 0xE0 }, { 0x4C, 0x09, 0xE8 },
					  { 0x4C, 0x09, 0xF8 } };
	for (size_t k = 0; k < sizeof ors / sizeof ors[0]; k++)
		memcpy(init + n, ors[k], 3), n += 3;
	static const uint8_t tail[] = { 0x49, 0x89, 0x06,             /* mov [r14], rax */
					0x49, 0x89, 0x66, 0x08,       /* mov [r14+8], rsp */
					0x4D, 0x89, 0x76, 0x10,       /* mov [r14+16], r14 */
					0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0, /* mov rax, [active] */
					0x49, 0x89, 0x46, 0x18 };     /* mov [r14+24], rax */
	memcpy(init + n, tail, sizeof tail);
	uint32_t active = (uint32_t)(uintptr_t)low + CG_STATE_ACTIVE;
	memcpy(init + n + 15, &active, 4);
	n += sizeof tail;
	/* code: every register but RSP, R14 to -1 (mov r32, -1 would leave the
	 * upper half 0: or r64, -1, REX.W 83 /1 ib), and std */
	uint8_t code[64];
	size_t c = 0;
	static const int regs[] = { 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15 };
	for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++) {
		code[c++] = (uint8_t)(0x48 | (regs[k] >= 8));
		code[c++] = 0x83;
		code[c++] = (uint8_t)(0xC8 | (regs[k] & 7));
		code[c++] = 0xFF;
	}
	code[c++] = 0xFD; /* std */
	/* stop: mov rdx, [r14] (the OR of the registers at init) */
	static const uint8_t stop[] = { 0x49, 0x8B, 0x16 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[3] = { 7, 7, 7 };
	s.init = init, s.init_len = (uint32_t)n;
	s.stop = stop, s.stop_len = sizeof stop;
	s.code = code, s.code_len = (uint32_t)c, s.copies = 1;
	CHECK(run(&s, &l, tsc, 0, 0, 3) == 0, "registers: emitted and run");
	for (int i = 0; i < 3; i++)
		CHECK_EQ_U64(tsc[i], 0, "sample %d: every register but RSP, R14 is 0 at init", i);
	CHECK_EQ_U64(scratch[1], s.stack_top, "RSP at init is the private stack's top");
	CHECK_EQ_U64(scratch[2], s.scratch, "R14 at init is the scratch area");
	CHECK_EQ_U64(scratch[3], (uint64_t)(uintptr_t)code_at(), "state.active: the loop's address while it runs");
	CHECK_EQ_U64(*(uint64_t *)(low + CG_STATE_ACTIVE), 0, "state.active: 0 after the loop returned");
	uint64_t flags;
	__asm__ volatile("pushfq; popq %0" : "=r"(flags));
	CHECK_EQ_U64(flags & 0x400, 0, "DF clear after the loop (the code set it)");
	static const uint8_t zero[] = { 0x31, 0xC0, 0x31, 0xC9, 0x31, 0xD2, 0x31, 0xDB, 0x31, 0xED, 0x31, 0xF6,
					0x31, 0xFF, 0x45, 0x31, 0xC0, 0x45, 0x31, 0xC9, 0x45, 0x31, 0xD2, 0x45,
					0x31, 0xDB, 0x45, 0x31, 0xE4, 0x45, 0x31, 0xED, 0x45, 0x31, 0xFF };
	CHECK(memcmp(code_at() + l.init - sizeof zero, zero, sizeof zero) == 0,
	      "xor r32, r32 of RAX..RDI, RBP, R8-R13, R15 just before init");
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The ring 0 prologue and epilogue, byte by byte (SDM Vol. 2B: SGDT 0F 01
 * /0, SIDT /1, LGDT /2, LIDT /3; MOV from CR 0F 20 /r, to CR 0F 22 /r;
 * ModR/M 04 + SIB 25: an absolute disp32). Emitted, not run. */
static void test_ring0_bytes(void)
{
	static const uint8_t nop[] = { 0x90 };
	struct codegen_spec s = base();
	struct codegen_layout l, lu;
	uint8_t *p = code_at();
	uint32_t st = s.state;
	s.code = nop, s.code_len = 1, s.copies = 4;
	CHECK(codegen_emit(p, 2 * 1024 * 1024, &s, &lu) == 0, "user mode: emitted");
	size_t user_len = lu.len;
	s.user_mode = 0;
	CHECK(codegen_emit(p, 2 * 1024 * 1024, &s, &l) == 0, "ring 0: emitted");
	CHECK_EQ_U64(l.len, codegen_size(&s), "ring 0: codegen_size matches the emitted length");
	CHECK_EQ_U64(l.len - user_len, 2 * 8 + 2 * (3 + 8) + 2 * 8 + 2 * (8 + 3),
		     "ring 0 adds SGDT, SIDT, two CR saves, LGDT, LIDT, two CR restores");
	/* Prologue, after push x6, pushfq (11), mov [state.rsp], rsp (8), fxsave64 (9). */
	uint8_t pro[] = { 0x0F, 0x01, 0x04, 0x25, 0, 0, 0, 0,       /* sgdt [gdtr] */
			  0x0F, 0x01, 0x0C, 0x25, 0, 0, 0, 0,       /* sidt [idtr] */
			  0x0F, 0x20, 0xC0,                         /* mov rax, cr0 */
			  0x48, 0x89, 0x04, 0x25, 0, 0, 0, 0,       /* mov [cr0], rax */
			  0x0F, 0x20, 0xE0,                         /* mov rax, cr4 */
			  0x48, 0x89, 0x04, 0x25, 0, 0, 0, 0,       /* mov [cr4], rax */
			  0x48, 0x8D, 0x05, 0, 0, 0, 0,             /* lea rax, [rip - 81]: byte 0 */
			  0x48, 0x89, 0x04, 0x25, 0, 0, 0, 0 };     /* mov [active], rax */
	put32(pro + 4, st + CG_STATE_GDTR), put32(pro + 12, st + CG_STATE_IDTR);
	put32(pro + 23, st + CG_STATE_CR0), put32(pro + 34, st + CG_STATE_CR4);
	put32(pro + 41, (uint32_t)-(28 + 45)), put32(pro + 49, st + CG_STATE_ACTIVE);
	CHECK(memcmp(p + 28, pro, sizeof pro) == 0, "prologue: SGDT, SIDT, CR0, CR4 saved, state.active set");
	static const uint8_t fxsave[] = { 0x48, 0x0F, 0xAE, 0x04, 0x25 };
	CHECK(memcmp(p + 19, fxsave, sizeof fxsave) == 0, "prologue: fxsave64 just before");
	/* Epilogue: tables, RFLAGS, CR0, CR4, then FXRSTOR64. */
	uint8_t epi[] = { 0x0F, 0x01, 0x14, 0x25, 0, 0, 0, 0,       /* lgdt [gdtr] */
			  0x0F, 0x01, 0x1C, 0x25, 0, 0, 0, 0,       /* lidt [idtr] */
			  0x48, 0x8B, 0x24, 0x25, 0, 0, 0, 0,       /* mov rsp, [state.rsp] */
			  0xFF, 0x34, 0x24, 0x9D,                   /* push qword [rsp]; popfq */
			  0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0,       /* mov rax, [cr0] */
			  0x0F, 0x22, 0xC0,                         /* mov cr0, rax */
			  0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0,       /* mov rax, [cr4] */
			  0x0F, 0x22, 0xE0,                         /* mov cr4, rax */
			  0x48, 0x0F, 0xAE, 0x0C, 0x25, 0, 0, 0, 0, /* fxrstor64 [fxsave] */
			  0x48, 0xC7, 0x04, 0x25, 0, 0, 0, 0, 0, 0, 0, 0 }; /* mov qword [active], 0 */
	put32(epi + 4, st + CG_STATE_GDTR), put32(epi + 12, st + CG_STATE_IDTR);
	put32(epi + 20, st + CG_STATE_RSP), put32(epi + 32, st + CG_STATE_CR0);
	put32(epi + 43, st + CG_STATE_CR4), put32(epi + 55, s.save_area), put32(epi + 63, st + CG_STATE_ACTIVE);
	CHECK(memcmp(p + l.exit, epi, sizeof epi) == 0, "epilogue: LGDT, LIDT, RSP, RFLAGS, CR0, CR4, FXRSTOR64");
	CHECK_EQ_U64(l.restored - l.exit, 50, "layout.restored: after the CR4 restore");
	CHECK_EQ_U64(l.len - l.exit, sizeof epi + 13, "epilogue ends with popfq, 6 pops, cld, ret");
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
		struct samples_abi sm = { tsc, 0, 0, { 0 } };
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

/* enter_recording_rsp(s, n, c, loop, at) - *at = RSP at the loop's first
 * byte (it points to this call's return address), then the loop: as
 * bench/code.c enters it. */
void enter_recording_rsp(struct samples_abi *s, uint64_t n, void *c, void *loop, uint64_t *at);
__asm__(".text\n"
	".globl enter_recording_rsp\n"
	"enter_recording_rsp:\n"
	"\tmov %rsp, (%r8)\n"
	"\tjmp *%rcx\n");

/* The prologue keeps in state.rsp the RSP at the loop's first byte less
 * CG_PUSHED_BYTES (bench/code.c puts that value back after a jump into the
 * prologue); top and stop_end bound a sample's setup and the stop
 * sequence. */
static void test_pushed_bytes_and_bounds(void)
{
	static const uint8_t start[] = { 0x31, 0xD2 }, stop[] = { 0x48, 0xFF, 0xC2 }, nop[] = { 0x90 };
	struct codegen_spec s = base();
	struct codegen_layout l;
	uint64_t tsc[2] = { 0 }, at = 0;
	const uint64_t *state = (const uint64_t *)(void *)low;
	s.start = start, s.start_len = sizeof start;
	s.stop = stop, s.stop_len = sizeof stop;
	s.code = nop, s.code_len = 1, s.copies = 4;
	CHECK(codegen_emit(code_at(), 2 * 1024 * 1024, &s, &l) == 0, "4 NOPs: emitted");
	struct samples_abi sm = { tsc, 0, 0, { 0 } };
	enter_recording_rsp(&sm, 2, 0, code_at(), &at);
	CHECK_EQ_U64(tsc[1], 1, "4 NOPs, stop inc rdx: the sample is the stop's 1");
	CHECK_EQ_U64(state[CG_STATE_RSP / 8], at - CG_PUSHED_BYTES,
		     "state.rsp: the RSP at the loop's first byte less CG_PUSHED_BYTES");
	CHECK(l.top > 0 && l.top < l.init && l.init == l.init_end, "top: after the prologue, before init (%zu)",
	      l.top);
	CHECK_EQ_U64(l.window, l.code, "no loop: the window starts with the copies");
	CHECK_EQ_U64(l.stop_end - l.window_end, sizeof stop, "stop_end - window_end: the stop sequence's bytes");
	CHECK(memcmp(code_at() + l.window_end, stop, sizeof stop) == 0, "the stop sequence at window_end");
	CHECK(l.stop_end < l.exit && l.exit < l.restored && l.restored < l.len,
	      "the sample's store, then the epilogue: stop_end %zu < exit %zu < restored %zu < len %zu", l.stop_end,
	      l.exit, l.restored, l.len);
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
	test_events_layout();
	test_registers_documented();
	test_registers_nanobench();
	test_pushed_bytes_and_bounds();
	test_ring0_bytes();
	test_limits();
	test_vector_state();
	return check_summary("codegen");
}

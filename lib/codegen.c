/* lib/codegen.c - see codegen.h. Encodings: SDM Vol. 2 (REX prefixes 2.2.1,
 * ModR/M and SIB 2.1.5; an absolute disp32 is ModR/M mod=00 r/m=100 with
 * SIB base=101 index=100). */
#include "codegen.h"

struct out {
	uint8_t *p;
	size_t n, cap;
};

static void b(struct out *o, uint8_t v)
{
	if (o->p && o->n < o->cap)
		o->p[o->n] = v;
	o->n++;
}

static void bytes(struct out *o, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b(o, s[i]);
}

static void u32(struct out *o, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b(o, (uint8_t)(v >> (8 * i)));
}

static void u64(struct out *o, uint64_t v)
{
	u32(o, (uint32_t)v);
	u32(o, (uint32_t)(v >> 32));
}

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* op r64, [disp32] or op [disp32], r64 (op 8B load, 89 store, 3B cmp). */
static void abs_op(struct out *o, uint8_t op, int reg, uint32_t addr)
{
	b(o, (uint8_t)(0x48 | (reg >= 8 ? 4 : 0)));
	b(o, op);
	b(o, (uint8_t)(((reg & 7) << 3) | 4));
	b(o, 0x25);
	u32(o, addr);
}

/* mov r64, imm64 (REX.W B8+r). */
static void mov_imm64(struct out *o, int reg, uint64_t v)
{
	b(o, (uint8_t)(0x48 | (reg >= 8 ? 1 : 0)));
	b(o, (uint8_t)(0xB8 + (reg & 7)));
	u64(o, v);
}

/* mov [rcx + rax*8], reg */
static void store_sample(struct out *o, int reg)
{
	b(o, 0x48);
	b(o, 0x89);
	b(o, (uint8_t)(((reg & 7) << 3) | 4));
	b(o, 0xC1);
}

/* Jcc/JMP rel32 to target, from the current position. */
static void jump(struct out *o, const uint8_t *op, size_t oplen, size_t target)
{
	bytes(o, op, oplen);
	u32(o, (uint32_t)(int32_t)((int64_t)target - (int64_t)(o->n + 4)));
}

/* REX.W 0F AE /ext [disp32]: FXSAVE64 /0, FXRSTOR64 /1, XSAVE64 /4,
 * XRSTOR64 /5 (SDM Vol. 2B, 2D); XSAVE64 and XRSTOR64 first set EDX:EAX
 * to the requested-feature bitmap, XCR0's mask (SDM Vol. 1 13.7, 13.8). */
static void vector_state_op(struct out *o, const struct codegen_spec *s, int fx_ext)
{
	if (s->xsave_mask) {
		b(o, 0xB8), u32(o, (uint32_t)s->xsave_mask);         /* mov eax, mask[31:0] */
		b(o, 0xBA), u32(o, (uint32_t)(s->xsave_mask >> 32)); /* mov edx, mask[63:32] */
	}
	int ext = s->xsave_mask ? fx_ext + 4 : fx_ext;
	b(o, 0x48), b(o, 0x0F), b(o, 0xAE), b(o, (uint8_t)(ext << 3 | 4)), b(o, 0x25), u32(o, s->save_area);
}

/* The prologue's save: XSAVE64 [save_area] (with EDX:EAX), or FXSAVE64. */
static void save_vector_state(struct out *o, const struct codegen_spec *s)
{
	vector_state_op(o, s, 0);
}

/* The epilogue's restore: XRSTOR64 [save_area] (with EDX:EAX), or FXRSTOR64. */
static void restore_vector_state(struct out *o, const struct codegen_spec *s)
{
	vector_state_op(o, s, 1);
}

/* mov rax, crN (0F 20 /r) or mov crN, rax (0F 22 /r); SDM Vol. 2B MOV--Move
 * to/from Control Registers. */
static void cr_rax(struct out *o, uint8_t op, int cr)
{
	b(o, 0x0F), b(o, op), b(o, (uint8_t)(0xC0 | (cr << 3)));
}

/* 0F 01 /digit with an absolute disp32: SGDT /0, SIDT /1, LGDT /2, LIDT /3
 * (SDM Vol. 2B; a 10-byte limit and base in 64-bit mode). */
static void table_op(struct out *o, int digit, uint32_t addr)
{
	b(o, 0x0F), b(o, 0x01), b(o, (uint8_t)((digit << 3) | 4)), b(o, 0x25), u32(o, addr);
}

/* mov qword [disp32], imm32 (REX.W C7 /0, sign-extended). */
static void store_imm(struct out *o, uint32_t addr, uint32_t v)
{
	b(o, 0x48), b(o, 0xC7), b(o, 0x04), b(o, 0x25), u32(o, addr), u32(o, v);
}

/* Every general register but RSP, R14 (and R15, set after init with loops)
 * to 0: xor r32, r32 (a 32-bit result is zero-extended, SDM Vol. 1 3.4.1.1). */
static void zero_registers(struct out *o)
{
	static const int regs[] = { RAX, RCX, RDX, RBX, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R15 };
	for (size_t k = 0; k < sizeof regs / sizeof regs[0]; k++) {
		int r = regs[k] & 7;
		if (regs[k] >= 8)
			b(o, 0x45);
		b(o, 0x31), b(o, (uint8_t)(0xC0 | (r << 3) | r));
	}
}

static size_t emit(struct out *o, const struct codegen_spec *s, struct codegen_layout *l)
{
	static const uint8_t push[] = { 0x53, 0x55, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57, 0x9C };
	static const uint8_t pop[] = { 0x9D, 0x41, 0x5F, 0x41, 0x5E, 0x41, 0x5D, 0x41, 0x5C, 0x5D, 0x5B, 0xFC, 0xC3 };
	static const uint8_t jz[] = { 0x0F, 0x84 }, jb[] = { 0x0F, 0x82 }, jnz[] = { 0x0F, 0x85 };
	uint32_t st = s->state;
	int ring0 = !s->user_mode;

	/* Prologue: save what the caller needs, the vector state, the
	 * machine state the code may change (descriptor tables, CR0, CR4),
	 * the loop's own address (state.active: a loop is running), the
	 * arguments (RDI = s: tsc, ins, cyc at +0, +8, +16; RSI = n). */
	bytes(o, push, sizeof push);                  /* push rbx..r15; pushfq: CG_PUSHED_BYTES */
	abs_op(o, 0x89, RSP, st + CG_STATE_RSP);      /* mov [state.rsp], rsp */
	save_vector_state(o, s);
	if (ring0) {
		table_op(o, 0, st + CG_STATE_GDTR);   /* sgdt [state.gdtr] */
		table_op(o, 1, st + CG_STATE_IDTR);   /* sidt [state.idtr] */
		cr_rax(o, 0x20, 0);                   /* mov rax, cr0 */
		abs_op(o, 0x89, RAX, st + CG_STATE_CR0);
		cr_rax(o, 0x20, 4);                   /* mov rax, cr4 */
		abs_op(o, 0x89, RAX, st + CG_STATE_CR4);
	}
	b(o, 0x48), b(o, 0x8D), b(o, 0x05);           /* lea rax, [rip - here]: the loop */
	u32(o, (uint32_t)-(int32_t)(o->n + 4));
	abs_op(o, 0x89, RAX, st + CG_STATE_ACTIVE);
	abs_op(o, 0x89, RSI, st + CG_STATE_N);        /* mov [state.n], rsi */
	if (s->results == CG_EVENTS)
		abs_op(o, 0x89, RDI, st + CG_STATE_SAMPLES); /* mov [state.samples], rdi */
	for (int k = 0; k < 3; k++) {
		static const uint8_t ld[3][4] = { { 0x48, 0x8B, 0x07, 0 }, { 0x48, 0x8B, 0x47, 0x08 },
						  { 0x48, 0x8B, 0x47, 0x10 } };
		bytes(o, ld[k], k ? 4 : 3);           /* mov rax, [rdi + 8k] */
		abs_op(o, 0x89, RAX, st + CG_STATE_TSC + 8 * (uint32_t)k);
	}
	/* Zero the scratch area: rep stosq with RDI, RCX, RAX. */
	mov_imm64(o, RDI, s->scratch);
	mov_imm64(o, RCX, s->scratch_qwords);
	b(o, 0x31), b(o, 0xC0);                       /* xor eax, eax */
	b(o, 0xF3), b(o, 0x48), b(o, 0xAB);           /* rep stosq */
	abs_op(o, 0x89, RAX, st + CG_STATE_I);        /* i = 0 */
	b(o, 0x48), b(o, 0x85), b(o, 0xF6);           /* test rsi, rsi */
	size_t jz_at = o->n;
	jump(o, jz, 2, 0);                            /* patched below */

	/* One sample: the registers of the contract (codegen.h), then init. */
	size_t top = o->n;
	l->top = top;
	mov_imm64(o, RSP, s->stack_top);
	mov_imm64(o, R14, s->r14 ? s->r14 : s->scratch);
	zero_registers(o);
	if (s->rdi)
		mov_imm64(o, RDI, s->rdi);
	if (s->rsi)
		mov_imm64(o, RSI, s->rsi);
	if (s->rbp)
		mov_imm64(o, RBP, s->rbp);
	l->init = o->n;
	bytes(o, s->init, s->init_len);
	l->init_end = o->n;
	if (s->loops) {
		b(o, 0x49), b(o, 0xC7), b(o, 0xC7), u32(o, (uint32_t)s->loops); /* mov r15, loops */
	}
	bytes(o, s->start, s->start_len);
	l->window = l->code = o->n;
	if (o->p) {
		for (uint64_t k = 0; k < s->copies; k++)
			bytes(o, s->code, s->code_len);
	} else { /* sizing only: spec_ok bounds the product below 2^31 */
		o->n += (size_t)(s->copies * s->code_len);
	}
	l->code_end = o->n;
	if (s->loops) {
		b(o, 0x49), b(o, 0xFF), b(o, 0xCF);   /* dec r15 */
		jump(o, jnz, 2, l->code);
	}
	l->window_end = o->n;
	bytes(o, s->stop, s->stop_len);
	l->stop_end = o->n;
	abs_op(o, 0x8B, RAX, st + CG_STATE_I);        /* rax = i */
	if (s->results != CG_CTR) {
		abs_op(o, 0x8B, RCX, st + CG_STATE_TSC);
		store_sample(o, s->results == CG_BESIDE || s->results == CG_EVENTS ? RBX : RDX);
	}
	for (uint32_t k = 0; s->results == CG_EVENTS && k < s->ev_slots; k++) {
		abs_op(o, 0x8B, RCX, st + CG_STATE_SAMPLES); /* rcx = s */
		b(o, 0x48), b(o, 0x8B), b(o, 0x89);   /* mov rcx, [rcx + disp32]: s->ev[k] */
		u32(o, CG_SAMPLES_EV + 8 * k);
		abs_op(o, 0x8B, RDX, s->ev_delta + 8 * k); /* rdx = ev_delta[k] */
		store_sample(o, RDX);
	}
	if (s->results == CG_CTR || s->results == CG_BESIDE) {
		abs_op(o, 0x8B, RCX, st + CG_STATE_INS);
		store_sample(o, RDX);
		abs_op(o, 0x8B, RCX, st + CG_STATE_CYC);
		store_sample(o, RDI);
	}
	b(o, 0x48), b(o, 0xFF), b(o, 0xC0);           /* inc rax */
	abs_op(o, 0x89, RAX, st + CG_STATE_I);
	abs_op(o, 0x3B, RAX, st + CG_STATE_N);        /* cmp rax, [state.n] */
	jump(o, jb, 2, top);

	/* Epilogue, also where a fault in the user's code resumes: first the
	 * descriptor tables (an exception needs them), then RFLAGS (TF would
	 * single-step the rest, SDM Vol. 3B 18.3.1.4), then CR0 (TS or EM set
	 * make FXRSTOR raise #NM, SDM Vol. 2A FXRSTOR) and CR4, as the
	 * prologue found them; only then the rest. */
	l->exit = o->n;
	if (o->p && jz_at + 6 <= o->cap) {
		struct out patch = { o->p, jz_at, o->cap };
		jump(&patch, jz, 2, l->exit);
	}
	if (ring0) {
		table_op(o, 2, st + CG_STATE_GDTR);   /* lgdt [state.gdtr] */
		table_op(o, 3, st + CG_STATE_IDTR);   /* lidt [state.idtr] */
	}
	abs_op(o, 0x8B, RSP, st + CG_STATE_RSP);      /* mov rsp, [state.rsp] */
	b(o, 0xFF), b(o, 0x34), b(o, 0x24);           /* push qword [rsp]: the caller's RFLAGS */
	b(o, 0x9D);                                   /* popfq */
	if (ring0) {
		abs_op(o, 0x8B, RAX, st + CG_STATE_CR0);
		cr_rax(o, 0x22, 0);                   /* mov cr0, rax */
		abs_op(o, 0x8B, RAX, st + CG_STATE_CR4);
		cr_rax(o, 0x22, 4);                   /* mov cr4, rax */
	}
	l->restored = o->n;
	restore_vector_state(o, s);
	store_imm(o, st + CG_STATE_ACTIVE, 0);        /* no loop running */
	bytes(o, pop, sizeof pop);                    /* popfq; pop r15..rbx; cld; ret */
	l->len = o->n;
	return o->n;
}

static int spec_ok(const struct codegen_spec *s)
{
	if (s->loops >= 0x80000000ull || (s->copies && !s->code_len) ||
	    (s->results == CG_EVENTS && s->ev_slots > CG_EV_SLOTS_MAX))
		return 0;
	/* The copies, the rest well under 2^20 bytes: all within a rel32. */
	uint64_t body = s->code_len ? s->copies : 0;
	if (body && (uint64_t)s->code_len > (0x7FF00000ull - s->init_len) / body)
		return 0;
	return 1;
}

size_t codegen_size(const struct codegen_spec *spec)
{
	struct out o = { 0, 0, 0 };
	struct codegen_layout l;
	return spec_ok(spec) ? emit(&o, spec, &l) : 0;
}

int codegen_emit(uint8_t *buf, size_t cap, const struct codegen_spec *spec, struct codegen_layout *lay)
{
	size_t need = codegen_size(spec);
	if (!need || need > cap)
		return -1;
	struct out o = { buf, 0, cap };
	emit(&o, spec, lay);
	return 0;
}

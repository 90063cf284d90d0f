/* lib/codegen.h - generate, at run time, a sampling loop around the user's
 * machine code (boot parameters code=, init=, unroll=, loops=; README
 * "Measuring your own code"), as nanoBench does on Linux (Abel and Reineke,
 * "nanoBench", 2020: the code unrolled N times, an optional loop around it).
 *
 * The loop has the signature and the effect of a compiled sampling loop
 * (bench/workload.h fill_fn: void f(struct samples *s, uint64_t n, struct
 * wl_ctx *c), System V calling convention): for each of n samples it
 * resets the user's registers, runs init, the method's start sequence,
 * the copies, the method's stop sequence, and stores the differences in
 * s->tsc[i] (and s->ins[i], s->cyc[i]) exactly as the compiled loops do.
 * The start and stop sequences are not written here: the caller passes the
 * bytes the assembler made of bench/methods.h's text (bench/code.c), so each
 * method has one definition. Pure computation on bytes, host-tested
 * (tests/unit/test_codegen.c).
 *
 * Register and memory contract of the user's code (what the loop sets
 * before init, every sample): RSP = stack_top (the top of a private stack,
 * at least 4 KiB below it), R14 = r14 (0: scratch), the start of R14's
 * area (kernel/memarea.h, mem= bytes), whose first scratch_qwords * 8
 * bytes (bench/code.c: min(mem=, 1 MiB)) are zeroed once per call, i.e.
 * per ensemble; RDI, RSI, RBP = rdi, rsi, rbp (0 by default); every other
 * general register 0 (RAX, RBX, RCX, RDX, R8-R13, R15: none points into
 * the kernel). Under regs=nanobench (nanoBench's kernel module) R14, RDI,
 * RSI and RBP point into the middle of an area each and RSP = stack_top
 * into the middle of a fifth (bench/code.c sets the fields); with loops, R15 = the
 * iteration count down to 1 (dec; jnz), set after init. RFLAGS is the
 * previous sample's (the first sample's: the caller's). The code may
 * change every other general register, RSP included, and the flags: the
 * loop keeps nothing in registers across the window and restores RSP,
 * RFLAGS, RBX, RBP, R12-R15 and the vector state when it returns (x87
 * and SSE with FXSAVE64, or every component XCR0 enables, AVX and AVX-512
 * included, with XSAVE64), and before them, in this order, GDTR and IDTR (LGDT, LIDT),
 * RFLAGS (TF, AC, DF, IF as the caller had them) and CR0 and CR4 (TS, EM
 * clear again), each as the prologue found them (SGDT, SIDT, MOV from CR0,
 * CR4), so code that loaded a descriptor table or set TF, TS or EM leaves
 * no trace in the kernel. A fault in the code resumes at the epilogue
 * (layout.exit), which does the same.
  */
#ifndef LIB_CODEGEN_H
#define LIB_CODEGEN_H

#include <stddef.h>
#include <stdint.h>

/* Where the start and stop sequences leave their results (bench/methods.h):
 * a TSC stop leaves the TSC difference in RDX; a counter stop the
 * instructions in RDX and the core cycles in RDI; a TSC stop with the
 * counters beside it the TSC difference in RBX, the counters in RDX, RDI;
 * a TSC stop with the events of a pass beside it (SEQ_EV_STOP) the TSC
 * difference in RBX and each event's in ev_delta[k] (memory): the loop
 * stores s->tsc[i] and s->ev[k][i] for k < ev_slots. */
enum codegen_results { CG_TSC, CG_CTR, CG_BESIDE, CG_EVENTS };

/* The offset of struct samples' ev[] (bench/workload.h: tsc, ins, cyc,
 * then one pointer per slot), which CG_EVENTS loops read. */
#define CG_SAMPLES_EV 24
#define CG_EV_SLOTS_MAX 16

struct codegen_spec {
	const uint8_t *start, *stop; /* the method's sequences */
	uint32_t start_len, stop_len;
	enum codegen_results results;
	const uint8_t *init, *code;  /* the user's bytes; init may be empty */
	uint32_t init_len, code_len;
	uint64_t copies;             /* copies of code per iteration, >= 0 */
	uint64_t loops;              /* 0: no loop; else iterations, 1..2^31-1 */
	uint64_t stack_top;          /* RSP for the user's code */
	uint64_t scratch;            /* zeroed per call (scratch_qwords), R14's area */
	uint64_t scratch_qwords;
	uint64_t r14;                /* R14 (0: scratch) */
	uint64_t rdi, rsi, rbp;      /* RDI, RSI, RBP (0: zero, the default contract) */
	uint32_t state;              /* address (< 2 GiB) of 8 qwords the loop keeps
				      * its state in: saved RSP, n, i, tsc, ins, cyc */
	uint32_t save_area;          /* address (< 2 GiB, 64-aligned) where the vector
				      * state is saved: 512 bytes for FXSAVE64; for
				      * XSAVE64 CPUID.(EAX=0DH,ECX=0):EBX bytes, its
				      * XSAVE header (bytes 512-575) zero before the
				      * first save (SDM Vol. 1 13.4.2, 13.8.1) */
	uint64_t xsave_mask;         /* 0: FXSAVE64/FXRSTOR64 (x87 and SSE state);
				      * else XSAVE64/XRSTOR64 with EDX:EAX = this
				      * mask, XCR0 (kernel/xsave.h xsave_mask) */
	uint32_t ev_delta;           /* CG_EVENTS: address (< 2 GiB) of the stop's
				      * differences, 8 bytes per slot */
	uint32_t ev_slots;           /* CG_EVENTS: slots stored, 0..CG_EV_SLOTS_MAX */
	int user_mode;               /* 1: leave out what needs ring 0 (SGDT, SIDT,
				      * LGDT, LIDT, MOV to and from CR0 and CR4):
				      * the host tests run the loop in user mode */
};

/* Offsets in the generated bytes, for the fault handler and the walk. */
struct codegen_layout {
	size_t top;              /* a sample's first byte (the prologue ends):
				  * the registers of the contract are set */
	size_t init, init_end;   /* the user's init */
	size_t window;           /* after the start sequence: the body begins */
	size_t code, code_end;   /* the copies (the loop's dec;jnz follow them) */
	size_t window_end;       /* the stop sequence begins */
	size_t stop_end;         /* the stop sequence ends: the sample is stored,
				  * i counted, and the loop jumps back to top */
	size_t exit;             /* the epilogue: restores and returns; the
				  * resumption point after a fault */
	size_t restored;         /* descriptor tables, RFLAGS, CR0, CR4 restored:
				  * the FXRSTOR64 and the pops follow */
	size_t len;              /* bytes written */
};

/* codegen_size - the bytes codegen_emit writes for spec; 0 when the sizes
 * overflow (more than 2^31 bytes, the reach of a rel32 jump). */
size_t codegen_size(const struct codegen_spec *spec);

/* codegen_emit - write the loop into buf[0..cap-1]; returns 0 and *lay,
 * or -1 when it does not fit (cap < codegen_size) or the spec is out of
 * range (loops >= 2^31, code_len 0 with copies > 0, CG_EVENTS with
 * ev_slots > CG_EV_SLOTS_MAX). */
int codegen_emit(uint8_t *buf, size_t cap, const struct codegen_spec *spec,
		 struct codegen_layout *lay);

/* The state (offsets in bytes from spec->state): the caller's RSP, n, the
 * sample index i, the three sample arrays, CR0, CR4, GDTR and IDTR (10
 * bytes each: limit, base), ACTIVE: the running loop's first byte
 * from the prologue to the end of the epilogue, else 0, and SAMPLES: the
 * struct samples pointer (CG_EVENTS loops read ev[] through it). All of it lies
 * where the code's bytes reach (a jump into the prologue writes the
 * code's RSP there): bench/code.c keeps its own record of the running
 * loop and of the caller's state for its fault handler. */
#define CG_STATE_RSP 0
#define CG_STATE_N 8
#define CG_STATE_I 16
#define CG_STATE_TSC 24
#define CG_STATE_INS 32
#define CG_STATE_CYC 40
#define CG_STATE_CR0 48
#define CG_STATE_CR4 56
#define CG_STATE_GDTR 64
#define CG_STATE_IDTR 80
#define CG_STATE_ACTIVE 96
#define CG_STATE_SAMPLES 104
#define CG_STATE_BYTES 128

/* The bytes the prologue pushes (RBX, RBP, R12-R15, RFLAGS) before it
 * keeps RSP in the state: the state's RSP is the RSP at the loop's first
 * byte (pointing to the caller's return address) less these. bench/code.c
 * puts that value back after the code jumped into the prologue, which
 * keeps the code's RSP there instead. */
#define CG_PUSHED_BYTES 56

#endif

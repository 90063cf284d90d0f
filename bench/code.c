/* bench/code.c - see code.h. */
#include "code.h"
#include "results.h"
#include "walk.h"
#include "../kernel/cacheflush.h"
#include "../kernel/clocks.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/memarea.h"
#include "../kernel/paging.h"
#include "../kernel/trap.h"
#include "../kernel/watchdog.h"
#include "../kernel/xsave.h"
#include "../lib/codefault.h"
#include "../lib/codegen.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/hex.h"
#include "../lib/string.h"

/* Each method's sequences, assembled once from bench/methods.h's text into
 * .rodata between labels: seq_NAME_start, seq_NAME_stop, and for the TSC
 * methods the same with the counters beside (seq_NAME_bstart, _bstop) and
 * with the events of a pass beside (seq_NAME_estart, _estop). The
 * compiled loops inline the same text, so a method has one definition. */
#define CODE__TPL(label, text) \
	".globl " label "\n" label ":\n\t" text "\n.globl " label "_end\n" label "_end:\n\t"
#define CODE__TPL_TSC(arg, name, start, stop)                                  \
	CODE__TPL("seq_" #name "_start", start) CODE__TPL("seq_" #name "_stop", stop) \
	CODE__TPL("seq_" #name "_bstart", SEQ_BESIDE_START start)               \
	CODE__TPL("seq_" #name "_bstop", stop SEQ_BESIDE_STOP)                  \
	CODE__TPL("seq_" #name "_estart", SEQ_EV_START start)                   \
	CODE__TPL("seq_" #name "_estop", stop SEQ_EV_STOP)
#define CODE__TPL_CTR(arg, name, start, stop) \
	CODE__TPL("seq_" #name "_start", start) CODE__TPL("seq_" #name "_stop", stop)

__attribute__((used)) static void code_templates(void)
{
	__asm__ volatile(".pushsection .rodata.seq_templates, \"a\"\n\t"
			 FOR_EACH_TSC_METHOD(CODE__TPL_TSC, _) FOR_EACH_CTR_METHOD(CODE__TPL_CTR, _)
			 ".popsection" ::: "memory");
}

#define CODE__DECL(arg, name, start, stop)                                             \
	extern const uint8_t seq_##name##_start[], seq_##name##_start_end[],           \
		seq_##name##_stop[], seq_##name##_stop_end[], seq_##name##_bstart[],   \
		seq_##name##_bstart_end[], seq_##name##_bstop[], seq_##name##_bstop_end[], \
		seq_##name##_estart[], seq_##name##_estart_end[], seq_##name##_estop[],  \
		seq_##name##_estop_end[];
FOR_EACH_TSC_METHOD(CODE__DECL, _)
FOR_EACH_CTR_METHOD(CODE__DECL, _)

_Static_assert(__builtin_offsetof(struct samples, ev) == CG_SAMPLES_EV, "lib/codegen.h CG_SAMPLES_EV");
_Static_assert(BENCH_EV_SLOTS <= CG_EV_SLOTS_MAX, "lib/codegen.h CG_EV_SLOTS_MAX");

struct tpl {
	const uint8_t *start, *start_end, *stop, *stop_end, *bstart, *bstart_end, *bstop, *bstop_end;
	const uint8_t *estart, *estart_end, *estop, *estop_end;
};
#define CODE__ROW_TSC(arg, name, start, stop)                                                   \
	[METHOD_##name] = { seq_##name##_start, seq_##name##_start_end, seq_##name##_stop,      \
			    seq_##name##_stop_end, seq_##name##_bstart, seq_##name##_bstart_end, \
			    seq_##name##_bstop, seq_##name##_bstop_end, seq_##name##_estart,     \
			    seq_##name##_estart_end, seq_##name##_estop, seq_##name##_estop_end },
#define CODE__ROW_CTR(arg, name, start, stop)                                              \
	[METHOD_##name] = { seq_##name##_start, seq_##name##_start_end, seq_##name##_stop, \
			    seq_##name##_stop_end, 0, 0, 0, 0, 0, 0, 0, 0 },
static const struct tpl tpls[METHOD_COUNT] = { FOR_EACH_TSC_METHOD(CODE__ROW_TSC, _)
						       FOR_EACH_CTR_METHOD(CODE__ROW_CTR, _) };

/* The user's bytes and what the loops address with an absolute disp32
 * (sign-extended: below 2 GiB), all in the kernel's .bss. The loops
 * themselves lie where mem_alloc puts them, above 4 GiB too: they jump
 * within themselves (rel32). */
static uint8_t code_bytes[CODE_MAX_BYTES], init_bytes[CODE_MAX_BYTES];
static size_t code_len, init_len;
static int configured;
static int ev_done; /* code_ev_prepare: 0 not yet, 1 ready, -1 no memory (said once) */
static uint64_t longest_sample[6]; /* TSC ticks per sample, per gens[]: the watchdog's bound */
static const struct config *cfg; /* code_prepare's */
/* R14's area is kernel/memarea.c's (mem= bytes, from free RAM); its first
 * MiB at most is zeroed per call, as the 1 MiB scratch area always was. */
#define ZEROED_MAX_BYTES (1024 * 1024)
#define STACK_BYTES (16 * 1024)
#define GUARD_BYTES 4096
/* The private stack between two guard pages code_prepare unmaps: pushes
 * past its 16 KiB, or a RET/POP above its top, fault (#PF, on an IST
 * stack: kernel/trap.c) before they reach anything else. */
static uint8_t stack_area[GUARD_BYTES + STACK_BYTES + GUARD_BYTES] __attribute__((aligned(4096)));
static uint8_t *const stack = stack_area + GUARD_BYTES;
/* The loop's state (lib/codegen.h), at 0x30 within a 256-byte block. The
 * epilogue reads it through absolute addresses, and a jump of the code into
 * the middle of one decodes the address's bytes as instructions: code=eb60
 * from copy 1 under cpuid lands on state.cr0's (state + 0x30), whose low
 * byte is now always 0x60: PUSHA, invalid in 64-bit mode (SDM Vol. 2B
 * PUSHA: #UD in 64-bit mode), a #UD at the first byte whatever the higher
 * bytes are. Before: 0xF0 (LOCK), which left the next byte, the address's
 * second, to the image's layout: after issue 32 it was 0x8C (MOV r/m,
 * Sreg), which QEMU ran under LOCK, and the bytes went on to the
 * epilogue's MOV to CR0 with the code's RAX: the machine stopped (CI:
 * t_code_reach jump_into_epilogue, as with the state at a 64-byte
 * boundary before). */
static uint64_t state_block[(0x30 + CG_STATE_BYTES) / 8] __attribute__((aligned(256)));
static uint64_t *const state = state_block + 0x30 / 8;
/* The vector state's save area (lib/codegen.h save_area): 64-aligned for
 * XSAVE64, its header zero as .bss leaves it (SDM Vol. 1 13.4.2). */
static uint8_t vector_area[XSAVE_AREA_MAX] __attribute__((aligned(64)));

/* One generated loop per copies (0, N, 2N), gens[0..2]; and, set aside
 * only when an events pass is measured (code_ev_prepare), one per copies
 * with the events beside the TSC (SEQ_EV_*), gens[3..5] (egens). */
static struct gen {
	uint8_t *buf;
	size_t cap;
	struct codegen_layout lay;
	struct workload wl;
	char name[48];
	uint64_t copies;
} gens[6];
#define egens (gens + 3)
/* Each loop's window markers for the walk (walk_extra_marks), beside
 * gens[] so that a gen keeps its size (the index arithmetic of the fill,
 * which walk=on counts, as it was). */
static struct bench_mark gen_marks[6][4];

/* Where the last fault code_fault_take reported was, and how many it took. */
static struct {
	struct code_fault_at at;
	uint64_t taken;
} last_fault;

/* The last fault in the user's code: rip is the byte of the instruction
 * that caused it (code_trap), or with after, the last byte of the
 * instruction it followed, or with halt the halting instruction the
 * watchdog's NMI ended; with outside, rip is outside the loop; with
 * left, the loop returned early (fill_bounded) and rip is unknown. */
static struct {
	int pending, after, outside, left;
	uint64_t vector, error_code, cr2, rip, samples, n;
	const char *halt;
	const struct gen *g;
} fault;

/* The fill under way (fill_bounded), kept where no byte of the code
 * reaches it: the loop keeps its own in `state`, which a jump of the code
 * into the prologue overwrites with the code's RSP (and descriptor tables
 * and control registers). The loop, its samples, the RSP at its first
 * byte, and the caller's GDTR, IDTR (10 bytes each), CR0 and CR4. */
static struct {
	const struct gen *g;
	uint64_t n, entry_rsp, cr0, cr4;
	uint8_t gdtr[10], idtr[10];
} running;

/* code_enter - *rsp_at = RSP at the loop's first byte (it points to this
 * call's return address), then the loop, which returns to the caller. */
void code_enter(struct samples *s, uint64_t n, struct wl_ctx *c, const void *loop, uint64_t *rsp_at);
__asm__(".text\n"
	".globl code_enter\n"
	".type code_enter, @function\n"
	"code_enter:\n"
	"\tmov %rsp, (%r8)\n"
	"\tjmp *%rcx\n"
	".size code_enter, . - code_enter\n");

/* beside: 0 the method alone, 1 the counters beside, CODE_EVENTS the
 * events of a pass beside (ev_slots of them stored). */
#define CODE_EVENTS 2
static void spec_for(struct codegen_spec *s, enum method_id m, int beside, uint64_t copies)
{
	const struct tpl *t = &tpls[m];
	*s = (struct codegen_spec){ 0 };
	beside = t->bstart ? beside : 0;
	if (beside == CODE_EVENTS) {
		s->start = t->estart, s->start_len = (uint32_t)(t->estart_end - t->estart);
		s->stop = t->estop, s->stop_len = (uint32_t)(t->estop_end - t->estop);
		s->results = CG_EVENTS;
		s->ev_delta = (uint32_t)(uint64_t)bench_ev_delta;
		s->ev_slots = BENCH_EV_SLOTS;
	} else {
		s->start = beside ? t->bstart : t->start;
		s->start_len = (uint32_t)((beside ? t->bstart_end : t->start_end) - s->start);
		s->stop = beside ? t->bstop : t->stop;
		s->stop_len = (uint32_t)((beside ? t->bstop_end : t->stop_end) - s->stop);
		s->results = method_is_ctr(m) ? CG_CTR : beside ? CG_BESIDE : CG_TSC;
	}
	s->init = init_bytes, s->init_len = (uint32_t)init_len;
	s->code = code_bytes, s->code_len = (uint32_t)code_len;
	s->copies = copies;
	s->loops = cfg->loops;
	s->stack_top = (uint64_t)(stack + STACK_BYTES);
	const struct mem_area *r14 = memarea_find("R14"), *rsp = memarea_find("RSP");
	const struct mem_area *rdi = memarea_find("RDI"), *rsi = memarea_find("RSI"), *rbp = memarea_find("RBP");
	s->scratch = r14->phys;
	s->scratch_qwords = (r14->bytes < ZEROED_MAX_BYTES ? r14->bytes : ZEROED_MAX_BYTES) / 8;
	s->r14 = r14->pointer;
	if (cfg->regs == REGS_NANOBENCH && rdi && rsi && rbp && rsp) { /* memarea_prepare took all five */
		s->rdi = rdi->pointer, s->rsi = rsi->pointer, s->rbp = rbp->pointer;
		s->stack_top = rsp->pointer;
	}
	s->state = (uint32_t)(uint64_t)state;
	s->save_area = (uint32_t)(uint64_t)vector_area;
	s->xsave_mask = xsave_mask();
	s->hook = cacheflush_hook(); /* cache=flush|wbinvd: before each sample's start */
	s->hook_stack = cacheflush_hook_stack();
	s->user_mode = 0;
}

/* The most bytes any method's loop with `copies` copies takes: alone and
 * with the counters beside (events 0), or with the events of a pass
 * beside (events 1; BENCH_EV_SLOTS stored). */
static size_t most_bytes(uint64_t copies, int events)
{
	size_t most = 0;
	for (int m = 0; m < METHOD_COUNT; m++)
		for (int beside = events ? CODE_EVENTS : 0; beside < (events ? CODE_EVENTS + 1 : 2); beside++) {
			struct codegen_spec s;
			spec_for(&s, (enum method_id)m, beside, copies);
			size_t n = codegen_size(&s);
			if (!n)
				return 0;
			if (n > most)
				most = n;
		}
	return most;
}

static int bad_hex(const char *key, const char *text, uint8_t *out, size_t *len)
{
	size_t n;
	enum hex_error e = hex_decode(text, strlen(text), out, CODE_MAX_BYTES, &n);
	if (e == HEX_OK) {
		*len = n;
		return 0;
	}
	if (e == HEX_DIGIT)
		kprintf("config: %s= has %s at position %llu (0x%02x): machine code as hex bytes, e.g. %s=4801d8 "
			"(add rax,rbx); the code workload is left out\n", key, hex_error_text(e),
			(unsigned long long)n + 1, (unsigned)(unsigned char)text[n], key);
	else if (e == HEX_TOO_LONG)
		kprintf("config: %s= has %llu bytes, more than %u; the code workload is left out\n", key,
			(unsigned long long)n, CODE_MAX_BYTES);
	else
		kprintf("config: %s= has %s (%llu digits); the code workload is left out\n", key,
			hex_error_text(e), (unsigned long long)strlen(text));
	return 1;
}

static int name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return 0;
	return 1;
}

int code_prepare(const struct config *c)
{
	cfg = c;
	int problems = 0;
	configured = 0;
	ev_done = 0; /* the events' loops taken again (a plan's next experiment: bench/plan.h) */
	code_len = init_len = 0;
	for (int k = 0; k < 6; k++) /* a plan's experiment: its own samples bound its watchdog */
		longest_sample[k] = 0;
	if (!cfg->code[0]) {
		if (cfg->init[0] || cfg->unroll != 1 || cfg->loops)
			kprintf("config: init=, unroll= and loops= apply to code=, which is not given; ignored\n");
		if (cfg->cache != CACHE_WARM)
			kprintf("config: cache=%s applies to code=, which is not given; ignored\n",
				config_cache_word(cfg->cache));
		return 0;
	}
	if (!memarea_find("R14")) /* memarea_prepare said why and counted the problem */
		return 0;
	problems += bad_hex("code", cfg->code, code_bytes, &code_len);
	if (cfg->init[0])
		problems += bad_hex("init", cfg->init, init_bytes, &init_len);
	if (!name_ok(cfg->code_name)) {
		kprintf("config: code.name=%s: letters, digits, '_', '-' and '.' only; the code workload is left out\n",
			cfg->code_name);
		problems++;
	} else if (workload_find(cfg->code_name)) {
		kprintf("config: code.name=%s is the name of a built-in workload; the code workload is left out\n",
			cfg->code_name);
		problems++;
	}
	if (problems)
		return problems;
	cacheflush_prepare(cfg); /* before spec_for: its hook */
	size_t sizes[3] = { most_bytes(0, 0), most_bytes(cfg->unroll, 0), most_bytes(2 * cfg->unroll, 0) };
	if (!sizes[0] || !sizes[1] || !sizes[2]) {
		kprintf("config: code= (%llu bytes) x unroll=%llu x 2 is more than the 2 GiB a generated loop may "
			"span; the code workload is left out\n", (unsigned long long)code_len,
			(unsigned long long)cfg->unroll);
		return 1;
	}
	uint64_t free_bytes = mem_free_bytes();
	for (int k = 0; k < 3; k++) {
		gens[k].cap = sizes[k];
		gens[k].buf = mem_alloc(sizes[k]);
		if (!gens[k].buf) {
			kprintf("config: the generated loops of code= x unroll=%llu need %llu bytes, more than the "
				"%llu bytes of free memory; the code workload is left out\n",
				(unsigned long long)cfg->unroll,
				(unsigned long long)(sizes[0] + sizes[1] + sizes[2]),
				(unsigned long long)free_bytes);
			return 1;
		}
	}
	if (paging_unmap((uint64_t)stack_area, GUARD_BYTES, "code= stack guard") ||
	    paging_unmap((uint64_t)(stack + STACK_BYTES), GUARD_BYTES, "code= stack guard"))
		kprintf("%s; code= runs without a guard page\n", paging_refusal());
	configured = 1;
	return 0;
}

int code_configured(void)
{
	return configured;
}

uint64_t code_copies_executed(void)
{
	return cfg->unroll * (cfg->loops ? cfg->loops : 1);
}

#define VEC_BP 3                  /* SDM Vol. 3A table 7-1 */
#define RFLAGS_TF (1ull << 8)     /* SDM Vol. 1 3.4.3 */
#define RFLAGS_AC (1ull << 18)

/* The byte of the instruction that raised vector v with RIP rip, inside
 * the loop [lo, hi): a fault leaves RIP at the instruction, a trap after it
 * (SDM Vol. 3A 7.5 "Exception Classifications"). Traps: INT3 (CC) and INT1
 * (F1) one byte back, INT n (CD n) two, whichever vector n (#BP and #OF
 * come from nothing else in 64-bit mode: INTO raises #UD); a single-step
 * (DR6.BS) or data-breakpoint #DB follows the instruction (*after = 1,
 * the byte returned is its last). DR6 is cleared for the next #DB (SDM
 * Vol. 3B 18.2.3: the processor never clears it). A hardware fault right
 * after an instruction whose last bytes are CD n (an immediate) would be
 * taken for that INT n: no other instruction ends so, in practice. */
static uint64_t insn_of(uint64_t v, uint64_t rip, uint64_t lo, int *after)
{
	const uint8_t *p = (const uint8_t *)rip;
	*after = 0;
	if (v == VEC_DB) {
		uint64_t dr6, dr7;
		__asm__ volatile("mov %%dr6, %0\n\tmov %%dr7, %1" : "=r"(dr6), "=r"(dr7));
		__asm__ volatile("mov %0, %%dr6" : : "r"(0xFFFF0FF0ull));
		int hit = -1;
		for (int k = 0; k < 4; k++)
			if ((dr6 >> k) & 1)
				hit = k;
		/* DR6.BS (bit 14), or B0-B3 of a data breakpoint (DR7 R/Wn != 00) */
		if (((dr6 >> 14) & 1) || (hit >= 0 && ((dr7 >> (16 + 4 * hit)) & 3))) {
			*after = 1;
			return rip > lo ? rip - 1 : rip;
		}
	}
	if (rip >= lo + 1 && ((v == VEC_BP && p[-1] == 0xCC) || (v == VEC_DB && p[-1] == 0xF1)))
		return rip - 1;
	if (rip >= lo + 2 && p[-2] == 0xCD && p[-1] == v)
		return rip - 2;
	return rip;
}

/* Faults of the user's code, wherever its bytes reached while its loop
 * runs (fill_bounded: running.g): its copies, init=, every part of the
 * loop (a jump into the prologue or the epilogue included), and outside
 * the loop but not in the kernel's image. Each resumes at the loop's
 * epilogue, which restores the caller's state and returns; the run then
 * reports it (code_fault_take). First the state the epilogue restores is
 * put back as the kernel had it (a jump into the prologue kept the
 * code's there). Not the code's: NMI, #DF, #MC; a fault in the kernel's
 * image (the kernel's own bug, or the code jumped into the kernel); a
 * fault in the prologue on the kernel's stack (between the RSP at the
 * loop's first byte and CG_PUSHED_BYTES below it: the prologue's own);
 * a fault in the epilogue after its last sample (state.i = n: entered
 * as it should be) or after a resumption there (it cannot restore the
 * kernel's state): the handler after this one reports them. */
extern char _start_of_image[], _end[];
static int (*prev_hook)(struct trap_frame *f);
static int code_trap(struct trap_frame *f)
{
	const struct gen *g = running.g;
	if (!g || (!f->soft && (f->vector == VEC_NMI || f->vector == VEC_DF || f->vector == VEC_MC)))
		return prev_hook ? prev_hook(f) : 0;
	uint64_t base = (uint64_t)g->buf;
	int inside = f->rip >= base && f->rip - base < g->lay.len;
	int kernel = f->rip >= (uint64_t)_start_of_image && f->rip < (uint64_t)_end;
	enum codefault_part part = inside ? codefault_part(&g->lay, f->rip - base) : CF_OUTSIDE;
	int own_prologue = part == CF_PROLOGUE && f->rsp <= running.entry_rsp &&
			   f->rsp >= running.entry_rsp - CG_PUSHED_BYTES;
	int own_epilogue = part == CF_EPILOGUE && (fault.pending || state[CG_STATE_I / 8] >= running.n);
	if ((!inside && kernel) || own_prologue || own_epilogue)
		return prev_hook ? prev_hook(f) : 0;
	if (!fault.pending) {
		fault.pending = 1;
		fault.left = 0;
		fault.vector = f->vector;
		fault.error_code = f->error_code;
		fault.cr2 = f->vector == VEC_PF && !f->soft ? read_cr2() : 0; /* INT 14 sets no CR2 */
		fault.outside = !inside;
		fault.rip = inside ? insn_of(f->vector, f->rip, base, &fault.after) : f->rip;
		fault.after = inside && fault.after;
		fault.halt = 0;
		if (inside && f->vector == WATCHDOG_VECTOR) {
			unsigned back;
			fault.halt = codefault_halt(g->buf, (const uint8_t *)f->rip, g->buf + g->lay.len, &back);
			fault.rip -= back;
		}
		fault.g = g;
	}
	state[CG_STATE_RSP / 8] = running.entry_rsp - CG_PUSHED_BYTES;
	state[CG_STATE_CR0 / 8] = running.cr0;
	state[CG_STATE_CR4 / 8] = running.cr4;
	memcpy((uint8_t *)state + CG_STATE_GDTR, running.gdtr, sizeof running.gdtr);
	memcpy((uint8_t *)state + CG_STATE_IDTR, running.idtr, sizeof running.idtr);
	f->rip = base + g->lay.exit;
	f->rflags &= ~(RFLAGS_TF | RFLAGS_AC); /* no single step into the epilogue */
	return 1;
}

/* Each generated loop runs under the watchdog (kernel/watchdog.h), armed
 * before it and disarmed after it, outside every measured window: the
 * bound of a fill of n samples is 100 times n times the most TSC ticks a
 * sample of the same loop took so far (watchdog_arm keeps it within 1 to
 * 3 s), the least before one fill has finished (1 s: 1 ms a sample of the
 * default warm-up, 1000 samples; 3 s is 300 us a sample of the default
 * ensemble, 10000). A single-stepped fill (walk=on, RFLAGS.TF) is no
 * measure of a sample. A fault not yet reported (code_fault_take) runs no
 * loop: the run reports it first. */
static void fill_bounded(int k, struct samples *s, uint64_t n, struct wl_ctx *c)
{
	if (fault.pending)
		return;
	uint64_t khz = clocks_tsc_rate()->hz / 1000, per = longest_sample[k], ms = WATCHDOG_MIN_MS;
	if (!per) /* before the first fill: at least each sample's flush (cache=) */
		per = cacheflush_cost();
	if (per && khz)
		ms = n && per <= ~0ull / 100 / n ? per * n * 100 / khz : WATCHDOG_MAX_MS;
	int stepping = (read_rflags() & 0x100) != 0;
	watchdog_arm(ms < WATCHDOG_MAX_MS ? (uint32_t)ms : WATCHDOG_MAX_MS);
	running.n = n;
	running.cr0 = read_cr0();
	running.cr4 = read_cr4();
	__asm__ volatile("sgdt %0\n\tsidt %1" : "=m"(running.gdtr), "=m"(running.idtr));
	running.g = &gens[k];
	cacheflush_set_loop((uint64_t)gens[k].buf, gens[k].cap); /* cache=flush: this loop's lines too */
	uint64_t t0 = rdtsc();
	code_enter(s, n, c, gens[k].buf, &running.entry_rsp);
	uint64_t t = rdtsc() - t0;
	running.g = 0;
	watchdog_disarm();
	if (!fault.pending && state[CG_STATE_I / 8] < n) /* it returned early, without a fault */
		fault = (typeof(fault)){ .pending = 1, .left = 1, .vector = CODE_LEFT_VECTOR,
					 .samples = state[CG_STATE_I / 8], .n = n, .g = &gens[k] };
	if (!fault.pending && !stepping && n && t / n > longest_sample[k])
		longest_sample[k] = t / n;
}

static void fill_empty(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(0, s, n, c); }
static void fill_n(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(1, s, n, c); }
static void fill_2n(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(2, s, n, c); }
static const fill_fn fills[3] = { fill_empty, fill_n, fill_2n };
static void efill_empty(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(3, s, n, c); }
static void efill_n(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(4, s, n, c); }
static void efill_2n(struct samples *s, uint64_t n, struct wl_ctx *c) { fill_bounded(5, s, n, c); }
static const fill_fn efills[3] = { efill_empty, efill_n, efill_2n };

int code_ev_prepare(void)
{
	if (!configured)
		return 0;
	if (ev_done)
		return ev_done;
	size_t sizes[3] = { most_bytes(0, 1), most_bytes(cfg->unroll, 1), most_bytes(2 * cfg->unroll, 1) };
	uint64_t free_bytes = mem_free_bytes();
	for (int k = 0; k < 3; k++) {
		egens[k].cap = sizes[k];
		egens[k].buf = sizes[k] ? mem_alloc(sizes[k]) : 0;
		if (!egens[k].buf) {
			kprintf("code: the generated loops of code= with the events beside need %llu bytes, more than "
				"the %llu bytes of free memory: code= is left out of the events passes\n",
				(unsigned long long)(sizes[0] + sizes[1] + sizes[2]), (unsigned long long)free_bytes);
			ev_done = -1;
			return -1;
		}
	}
	ev_done = 1;
	return 1;
}

static const struct workload *gen_workload(enum method_id m, int beside, int copies, int nev)
{
	int events = beside == CODE_EVENTS;
	struct gen *g = events ? &egens[copies] : &gens[copies];
	struct codegen_spec s;
	if (!configured || (events && (method_is_ctr(m) || !g->buf)))
		return 0;
	spec_for(&s, m, beside, (uint64_t)copies * cfg->unroll);
	if (events)
		s.ev_slots = (uint32_t)(nev < 0 ? 0 : nev > BENCH_EV_SLOTS ? BENCH_EV_SLOTS : nev);
	if (codegen_emit(g->buf, g->cap, &s, &g->lay)) {
		kprintf("code %s: the generated loop does not fit in its %llu bytes (a bug)\n", methods[m].name,
			(unsigned long long)g->cap);
		return 0;
	}
	g->copies = s.copies;
	if (copies == 2)
		fmt_format(g->name, sizeof g->name, "%s.2n", cfg->code_name);
	else if (copies == 0)
		fmt_format(g->name, sizeof g->name, "%s.empty", cfg->code_name);
	else
		fmt_format(g->name, sizeof g->name, "%s", cfg->code_name);
	g->wl = (struct workload){ .name = g->name, .flags = WL_CODE,
				   .desc = copies ? "the code= bytes, unrolled (boot parameters)" : "the generated empty window" };
	g->wl.fill[m] = g->wl.fill_ctr[m] = events ? 0 : fills[copies];
	g->wl.fill_ev[m] = events ? efills[copies] : 0;
	uint64_t base = (uint64_t)g->buf;
	struct bench_mark *mk = gen_marks[g - gens];
	mk[0] = (struct bench_mark){ base + g->lay.window, MARK_START_END };
	mk[1] = (struct bench_mark){ base + g->lay.window, MARK_BODY_BEGIN };
	mk[2] = (struct bench_mark){ base + g->lay.window_end, MARK_BODY_END };
	mk[3] = (struct bench_mark){ base + g->lay.window_end, MARK_STOP_BEGIN };
	walk_extra_marks(mk, 4);
	if (trap_hook != code_trap) {
		prev_hook = trap_hook;
		trap_hook = code_trap;
	}
	return &g->wl;
}

const struct workload *code_workload(enum method_id m, int beside, int copies)
{
	return gen_workload(m, beside ? 1 : 0, copies, 0);
}

const struct workload *code_workload_ev(enum method_id m, int copies, int nev)
{
	return gen_workload(m, CODE_EVENTS, copies, nev);
}

const char *code_fault_name(uint64_t vector)
{
	return vector == WATCHDOG_VECTOR ? "watchdog" : vector == CODE_LEFT_VECTOR ? "left the loop"
										 : trap_fault_string((int)vector);
}

/* The relative jumps of the code that land at byte `at` of g's loop, or
 * before it in its part (from byte lo), in words into buf: ", where the
 * jump at byte 0 of copy 1 lands", or "..., 12 bytes before it"; *j the
 * nearest one (j->copy 0: none). */
static void jump_words(char *buf, size_t size, const struct gen *g, uint64_t lo, uint64_t at,
		       enum codefault_part part, struct codefault_jump *j)
{
	uint64_t n = codefault_jump_to(code_bytes, (uint32_t)code_len, g->copies, g->lay.code, lo, at, j);
	char before[40] = "", more[48] = "";
	buf[0] = '\0';
	if (n && j->landing < at)
		fmt_format(before, sizeof before, ", %llu bytes before it", (unsigned long long)(at - j->landing));
	if (n > 1)
		fmt_format(more, sizeof more, " (the nearest of %llu jumps of the code that land there)",
			   (unsigned long long)n);
	if (n)
		fmt_format(buf, size, ", where the jump at byte %llu of copy %llu lands%s%s", (unsigned long long)j->byte,
			   (unsigned long long)j->copy, before, more);
	else if (codefault_reached_by_jump(part))
		fmt_format(buf, size, ", reached by a jump or return of the code (from which copy: not known)");
}

int code_fault_take(enum method_id m, const struct workload *w)
{
	if (!fault.pending)
		return 0;
	const struct gen *g = fault.g;
	const struct codegen_layout *l = &g->lay;
	uint64_t at = fault.rip - (uint64_t)g->buf, off = at, copy = 0;
	struct codefault_jump j = { 0, 0, 0 };
	enum codefault_part part = CF_OUTSIDE;
	char where[256], jumped[160] = "", cr2[40] = "";
	if (fault.left) {
		part = CF_EPILOGUE, off = 0;
		uint64_t n = codefault_jump_to(code_bytes, (uint32_t)code_len, g->copies, l->code, l->exit,
					       l->len - 1, &j);
		if (n)
			fmt_format(jumped, sizeof jumped, " (the jump at byte %llu of copy %llu lands at its byte %llu)",
				   (unsigned long long)j.byte, (unsigned long long)j.copy,
				   (unsigned long long)(j.landing - l->exit));
		fmt_format(where, sizeof where, "after %llu of %llu samples: a jump of the code into the loop's "
			   "epilogue%s, which returned", (unsigned long long)fault.samples, (unsigned long long)fault.n,
			   n ? jumped : " (from which copy: not known)");
	} else if (fault.outside && fault.rip < 4096) {
		part = CF_PAGE0, off = fault.rip;
		fmt_format(where, sizeof where, "address 0x%llx in page 0, where the code jumped",
			   (unsigned long long)fault.rip);
	} else if (fault.outside) {
		part = CF_OUTSIDE, off = fault.rip;
		fmt_format(where, sizeof where, "RIP=0x%llx, outside the generated loop (the code jumped or returned "
			   "there)", (unsigned long long)fault.rip);
	} else {
		part = codefault_part(l, at);
		off = at - codefault_part_start(l, part);
		if (part == CF_CODE) {
			off = (at - l->code) % code_len, copy = (at - l->code) / code_len + 1;
			fmt_format(where, sizeof where, "byte %llu of code= (copy %llu of %llu)", (unsigned long long)off,
				   (unsigned long long)copy, (unsigned long long)g->copies);
		} else if (part == CF_INIT) {
			fmt_format(where, sizeof where, "byte %llu of init=", (unsigned long long)off);
		} else {
			jump_words(jumped, sizeof jumped, g, codefault_part_start(l, part), at, part, &j);
			fmt_format(where, sizeof where, "byte %llu of %s (byte %llu of the generated loop)%s",
				   (unsigned long long)off, codefault_part_text(part), (unsigned long long)at, jumped);
		}
	}
	if (fault.vector == VEC_PF)
		fmt_format(cr2, sizeof cr2, ", CR2=0x%llx", (unsigned long long)fault.cr2);
	char what[128], how[40];
	int dog = fault.vector == WATCHDOG_VECTOR; /* the NMI of the watchdog (kernel/watchdog.h) */
	if (dog)
		fmt_format(what, sizeof what, "watchdog: the code did not finish within %u ms (an NMI from %s, "
			   "vector 2)", watchdog_bound_ms(), watchdog_timer());
	else if (fault.left)
		fmt_format(what, sizeof what, "the code left its loop, without an exception,");
	else
		fmt_format(what, sizeof what, "%s (vector %llu, error code 0x%llx%s)", trap_vector_name(fault.vector),
			   (unsigned long long)fault.vector, (unsigned long long)fault.error_code, cr2);
	if (fault.after)
		fmt_format(how, sizeof how, "after the instruction ending at");
	else if (fault.halt)
		fmt_format(how, sizeof how, "in the %s at", fault.halt);
	else
		fmt_format(how, sizeof how, "%s", fault.left ? "" : "at");
	if (config_human())
		kprintf("code %s/%s: FAULT %s %s%s%s; this workload is skipped for method %s, the run goes on\n",
			methods[m].name, w->name, what, how, how[0] ? " " : "", where, methods[m].name);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "code_fault");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		if (fault.left)
			rec_null(&r, "vector");
		else
			rec_u64(&r, "vector", dog ? VEC_NMI : fault.vector);
		rec_str(&r, "name", code_fault_name(fault.vector));
		if (dog)
			rec_u64(&r, "bound_ms", watchdog_bound_ms());
		rec_u64(&r, "error_code", fault.error_code);
		rec_u64(&r, "cr2", fault.cr2);
		rec_str(&r, "part", codefault_part_key(part));
		rec_u64(&r, "offset", off);
		rec_u64(&r, "copy", copy);
		rec_bool(&r, "after", fault.after);
		if (fault.outside || fault.left)
			rec_null(&r, "loop_offset");
		else
			rec_u64(&r, "loop_offset", at);
		if (j.copy) {
			rec_u64(&r, "jump_copy", j.copy);
			rec_u64(&r, "jump_byte", j.byte);
			rec_u64(&r, "jump_lands", j.landing);
		} else {
			rec_null(&r, "jump_copy");
			rec_null(&r, "jump_byte");
			rec_null(&r, "jump_lands");
		}
		if (fault.halt)
			rec_str(&r, "halt", fault.halt);
		else
			rec_null(&r, "halt");
		if (fault.left)
			rec_u64(&r, "samples", fault.samples);
		rec_end(&r);
	}
	last_fault.at = (struct code_fault_at){ fault.vector, part, off, copy, j.copy, j.byte, fault.halt };
	last_fault.taken++;
	fault.pending = 0;
	return 1;
}

void code_cache_print(void)
{
	struct cacheflush_range loops[3];
	if (!configured)
		return;
	for (int k = 0; k < 3; k++)
		loops[k] = (struct cacheflush_range){ (uint64_t)gens[k].buf, gens[k].cap };
	cacheflush_print(loops);
}

void code_sizes(struct code_sizes *s)
{
	*s = (struct code_sizes){ .configured = configured, .cfg = cfg, .code_len = code_len, .init_len = init_len,
				  .loop_bytes = { gens[0].cap, gens[1].cap, gens[2].cap } };
}

uint64_t code_fault_last(struct code_fault_at *at)
{
	*at = last_fault.at;
	return last_fault.taken;
}

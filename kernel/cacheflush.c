/* kernel/cacheflush.c - see cacheflush.h. */
#include "cacheflush.h"
#include "clocks.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "memarea.h"
#include "watchdog.h"
#include "../lib/record.h"
#include "../lib/string.h"

#define CPUID1_EDX_CLFLUSH (1u << 19)      /* CPUID.1:EDX[19] (SDM Vol. 2A CPUID) */
#define CPUID7_EBX_CLFLUSHOPT (1u << 23)   /* CPUID.(EAX=7,ECX=0):EBX[23] */
#define HOOK_STACK_BYTES 8192

static enum cacheflush_insn insn;
static const struct config *cfg;
static uint64_t line_bytes;            /* CPUID.1:EBX[15:8] x 8 */
static struct cacheflush_range areas[MEMAREA_MAX];
static int nareas;
static struct cacheflush_range loop;   /* the running generated loop */
static uint64_t cost;                  /* TSC ticks of one flush, measured once */
static const char *why;                /* why nothing is flushed (cache=flush) */
static uint8_t hook_stack[HOOK_STACK_BYTES] __attribute__((aligned(16)));

static int is_register(const char *who)
{
	static const char *const regs[] = { "R14", "RDI", "RSI", "RBP", "RSP" };
	for (unsigned k = 0; k < sizeof regs / sizeof regs[0]; k++)
		if (strlen(who) == 3 && !memcmp(who, regs[k], 4))
			return 1;
	return 0;
}

enum cacheflush_insn cacheflush_prepare(const struct config *c)
{
	cfg = c;
	insn = CACHEFLUSH_NONE;
	why = 0;
	nareas = 0;
	cost = 0; /* measured again by cacheflush_print (a plan's next experiment: bench/plan.h) */
	for (int i = 0; i < memarea_count(); i++) {
		const struct mem_area *a = memarea_get(i);
		if (a && is_register(a->who) && nareas < MEMAREA_MAX)
			areas[nareas++] = (struct cacheflush_range){ a->phys, a->bytes };
	}
	struct cpuid_regs r1 = cpuid(1, 0);
	line_bytes = ((r1.ebx >> 8) & 0xFF) * 8;
	if (c->cache == CACHE_WBINVD) {
		insn = CACHEFLUSH_WBINVD;
	} else if (c->cache == CACHE_FLUSH) {
		int opt = cpuid(0, 0).eax >= 7 && (cpuid(7, 0).ebx & CPUID7_EBX_CLFLUSHOPT);
		if (!(r1.edx & CPUID1_EDX_CLFLUSH))
			why = "no CLFLUSH (CPUID.1:EDX[19] = 0)";
		else if (!line_bytes)
			why = "no cache line size (CPUID.1:EBX[15:8] = 0)";
		else
			insn = opt ? CACHEFLUSH_CLFLUSHOPT : CACHEFLUSH_CLFLUSH;
	}
	return insn;
}

/* cacheflush_run - one flush, as the hook does it (the C part of
 * cacheflush_entry below); called from C too to measure it. */
void cacheflush_run(void);
void cacheflush_run(void)
{
	if (insn == CACHEFLUSH_WBINVD) {
		__asm__ volatile("wbinvd" ::: "memory");
		return;
	}
	if (insn != CACHEFLUSH_CLFLUSHOPT && insn != CACHEFLUSH_CLFLUSH)
		return;
	/* Locals: the asm's memory clobber would reload the globals per line. */
	const uint64_t step = line_bytes;
	const int opt = insn == CACHEFLUSH_CLFLUSHOPT, n = nareas;
	for (int k = 0; k <= n; k++) {
		const struct cacheflush_range *r = k < n ? &areas[k] : &loop;
		uint64_t p = r->addr & ~(step - 1), end = r->addr + r->bytes;
		if (opt)
			for (; p < end; p += step)
				__asm__ volatile("clflushopt (%0)" : : "r"(p) : "memory");
		else
			for (; p < end; p += step)
				__asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
	}
	if (opt)
		__asm__ volatile("sfence" ::: "memory");
	else
		__asm__ volatile("mfence" ::: "memory");
}

/* cacheflush_entry - the hook: RFLAGS and every register C may clobber
 * (RAX, RCX, RDX, RSI, RDI, R8-R11) kept, RSP aligned to 16 for the call
 * (RBX keeps the entry RSP; C keeps RBX), DF cleared (the code may have set
 * it; the System V ABI wants it clear), then all put back. */
void cacheflush_entry(void);
__asm__(".text\n"
	".globl cacheflush_entry\n"
	".type cacheflush_entry, @function\n"
	"cacheflush_entry:\n"
	"\tpushfq\n"
	"\tpush %rax\n\tpush %rcx\n\tpush %rdx\n\tpush %rsi\n\tpush %rdi\n"
	"\tpush %r8\n\tpush %r9\n\tpush %r10\n\tpush %r11\n\tpush %rbx\n"
	"\tmov %rsp, %rbx\n"
	"\tand $-16, %rsp\n"
	"\tcld\n"
	"\tcall cacheflush_run\n"
	"\tmov %rbx, %rsp\n"
	"\tpop %rbx\n\tpop %r11\n\tpop %r10\n\tpop %r9\n\tpop %r8\n"
	"\tpop %rdi\n\tpop %rsi\n\tpop %rdx\n\tpop %rcx\n\tpop %rax\n"
	"\tpopfq\n"
	"\tret\n"
	".size cacheflush_entry, . - cacheflush_entry\n");

uint64_t cacheflush_hook(void)
{
	return insn == CACHEFLUSH_NONE ? 0 : (uint64_t)cacheflush_entry;
}

uint64_t cacheflush_hook_stack(void)
{
	return (uint64_t)(hook_stack + HOOK_STACK_BYTES);
}

void cacheflush_set_loop(uint64_t addr, uint64_t bytes)
{
	loop = (struct cacheflush_range){ addr, bytes };
}

uint64_t cacheflush_lines(uint64_t addr, uint64_t bytes)
{
	if (!bytes || !line_bytes || (insn != CACHEFLUSH_CLFLUSHOPT && insn != CACHEFLUSH_CLFLUSH))
		return 0;
	uint64_t first = addr & ~(line_bytes - 1), end = addr + bytes;
	return (end - first + line_bytes - 1) / line_bytes;
}

uint64_t cacheflush_cost(void)
{
	return cost;
}

/* One flush of the areas and lp, in TSC ticks: LFENCE before each RDTSC
 * (no earlier instruction still running, SDM Vol. 2B RDTSC). */
static uint64_t measure(const struct cacheflush_range *lp)
{
	loop = *lp;
	__asm__ volatile("lfence" ::: "memory");
	uint64_t t0 = rdtsc();
	__asm__ volatile("lfence" ::: "memory");
	cacheflush_run();
	__asm__ volatile("lfence" ::: "memory");
	uint64_t t1 = rdtsc();
	return t1 - t0;
}

/* The line of the flushes of one fill against the watchdog's bound. */
static void say_watchdog(void)
{
	uint64_t n = cfg->samples > cfg->warmup ? cfg->samples : cfg->warmup;
	uint64_t khz = clocks_tsc_rate()->hz / 1000;
	if (!khz || !n || cost > ~0ull / n)
		return;
	uint64_t ms = cost * n / khz;
	if (2 * ms <= WATCHDOG_MAX_MS)
		return;
	kprintf("cache: the flushes of a fill of %llu samples take about %llu ms, over half the watchdog's %u ms "
		"bound (kernel/watchdog.h): code= may be stopped as if it never ended; fewer samples= or a smaller "
		"mem= keep it within\n", (unsigned long long)n, (unsigned long long)ms, WATCHDOG_MAX_MS);
}

void cacheflush_print(const struct cacheflush_range loops[3])
{
	if (!cfg || cfg->cache == CACHE_WARM)
		return;
	const char *mode = config_cache_word(cfg->cache);
	uint64_t area_lines = 0, lines = 0;
	int flushes = insn == CACHEFLUSH_CLFLUSHOPT || insn == CACHEFLUSH_CLFLUSH;
	if (insn != CACHEFLUSH_NONE)
		cost = measure(&loops[1]);
	for (int k = 0; k < nareas; k++)
		area_lines += cacheflush_lines(areas[k].addr, areas[k].bytes);
	lines = area_lines + cacheflush_lines(loops[1].addr, loops[1].bytes);
	const char *name = insn == CACHEFLUSH_CLFLUSHOPT ? "CLFLUSHOPT" : insn == CACHEFLUSH_CLFLUSH ? "CLFLUSH" : 0;
	if (config_human()) {
		if (flushes)
			kprintf("cache: flush before each sample of code=: %s of %llu lines (the areas' %llu and the "
				"loop's %llu; the empty and 2N loops' %llu and %llu), then %s: %llu TSC ticks each "
				"(measured once, outside the window)\n", name, (unsigned long long)lines,
				(unsigned long long)area_lines,
				(unsigned long long)cacheflush_lines(loops[1].addr, loops[1].bytes),
				(unsigned long long)cacheflush_lines(loops[0].addr, loops[0].bytes),
				(unsigned long long)cacheflush_lines(loops[2].addr, loops[2].bytes),
				insn == CACHEFLUSH_CLFLUSHOPT ? "SFENCE" : "MFENCE", (unsigned long long)cost);
		else if (insn == CACHEFLUSH_WBINVD)
			kprintf("cache: wbinvd before each sample of code=: WBINVD, every cache of this CPU written "
				"back and invalidated (SDM Vol. 2B WBINVD): %llu TSC ticks each (measured once, outside "
				"the window)\n", (unsigned long long)cost);
		else
			kprintf("cache: flush before each sample of code=: not done: %s; the caches stay as the last "
				"sample left them (as cache=warm)\n", why);
	}
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "cache_state");
		rec_str(&r, "mode", mode);
		if (insn == CACHEFLUSH_NONE)
			rec_null(&r, "instruction");
		else
			rec_str(&r, "instruction", insn == CACHEFLUSH_WBINVD     ? "wbinvd"
					   : insn == CACHEFLUSH_CLFLUSHOPT ? "clflushopt"
									   : "clflush");
		rec_u64_or_null(&r, "lines", flushes, lines);
		rec_u64_or_null(&r, "bytes", flushes, lines * line_bytes);
		rec_u64_or_null(&r, "cost_tsc", insn != CACHEFLUSH_NONE, cost);
		if (why)
			rec_str(&r, "why", why);
		else
			rec_null(&r, "why");
		rec_end(&r);
	}
	if (insn != CACHEFLUSH_NONE)
		say_watchdog();
}

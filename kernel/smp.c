/* kernel/smp.c - see smp.h. */
#include "smp.h"
#include "acpi.h"
#include "bios.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "mem.h"
#include "msr.h"
#include "paging.h"
#include "trap.h"
#include "xsave.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

#define APIC_BASE_ADDR 0x000FFFFFFFFFF000ull
#define EFER_LMA (1ull << 10)
#define CR4_PCIDE (1ull << 17)
#define APIC_ICR_LO 0x300
#define APIC_ICR_HI 0x310
#define ICR_BUSY (1u << 12)      /* delivery status, xAPIC only */
/* ICR command words (SDM Vol. 3A 11.6.1, figure 11-12): physical
 * destination, level assert (bit 14, set for all but INIT de-assert). */
#define ICR_INIT 0x4500u
#define ICR_SIPI 0x4600u         /* | the vector: the trampoline's page number */
#define ICR_NMI 0x4400u

#define INIT_DELAY_US 10000      /* SDM Vol. 3A 9.4.4.1 */
#define SIPI_DELAY_US 200
#define ANSWER_MS 2000           /* from INIT to the AP's answer */
#define AP_STACK_SIZE 65536
#define BOUND_HZ 10000000000ull  /* a TSC rate no CPU reaches: 10 GHz */

enum slot_state { SLOT_IDLE, SLOT_STARTING, SLOT_ONLINE, SLOT_GAVE_UP, SLOT_WRONG_ID };

/* The trampoline's parameter block (boot/trampoline.asm smp_tramp_params). */
struct tramp_params {
	uint64_t cr0, cr3, cr4, efer, pat, has_pat, entry, arg;
	volatile uint64_t stack;
};
extern const uint8_t smp_trampoline[], smp_trampoline_end[], smp_tramp_params[];

/* An AP's own memory (mem_alloc). */
struct ap_area {
	struct trap_cpu tc;
	struct trap_tss tss;
	uint8_t ist[TRAP_IST_STACKS * TRAP_IST_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t stack[AP_STACK_SIZE] __attribute__((aligned(16)));
};

/* The line a CPU parks on: written by others only to wake it. 128 bytes
 * (two 64-byte lines: the adjacent-line prefetcher's pair). */
struct park_line {
	volatile uint64_t seq;  /* bumped by whoever wakes it */
	void (*fn)(void *);     /* what to run, when it is a command */
	void *arg;
	int caller;             /* whom to wake when fn returns */
} __attribute__((aligned(128)));

struct slot {
	struct smp_cpu_info info;
	struct trap_cpu *tc;
	volatile int state;     /* enum slot_state */
	uint32_t seen_apic_id;  /* what the AP's CPUID said */
	int candidate;          /* enabled or online-capable, not the boot CPU */
};

/* One park line and one slot per CPU the MADT lists: the boot CPU's own
 * until smp_start knows how many there are, then the MADT's count of each
 * from the pool (tables_for), so a machine costs what it has, not the
 * most any machine may have. */
static struct park_line line_alone;
static struct slot slot_alone;
static struct park_line *lines = &line_alone;
static struct slot *slots = &slot_alone;
static int ncpus = 1, bsp;
static uint64_t tsc_hz;
static int use_mwait;

uint64_t smp_ticks_us(uint64_t us)
{
	if (!tsc_hz)
		return BOUND_HZ / 1000000 * us;
	return (tsc_hz + tsc_hz / 16) / 1000000 * us + 1;
}

static void pause(void)
{
	__asm__ volatile("pause" ::: "memory");
}

/* The calling CPU's APIC ID: its x2APIC ID (CPUID.0BH:EDX) where leaf 0BH
 * exists and is valid (EBX != 0), else the 8-bit initial APIC ID
 * (CPUID.1:EBX[31:24]). SDM Vol. 3A 11.12.8, Vol. 2A CPUID. */
static uint32_t own_apic_id(void)
{
	if (cpuid(0, 0).eax >= 0xB) {
		struct cpuid_regs r = cpuid(0xB, 0);
		if (r.ebx)
			return r.edx;
	}
	return cpuid(1, 0).ebx >> 24;
}

/* icr_send - an IPI from the calling CPU's local APIC to APIC ID dest:
 * x2APIC mode, the ICR MSR 830H (destination in bits 63:32; SDM Vol. 3A
 * 11.12.9), after MFENCE;LFENCE since that WRMSR does not wait for earlier
 * stores (11.12.3; as Linux's weak_wrmsr_fence); xAPIC mode, ICR high then
 * low at the base (11.6.1), waiting (at most 10 ms each) for the delivery
 * status to go idle before and after. Returns 0, or -1 when the APIC is
 * unusable or stayed busy. */
static int icr_send(uint32_t dest, uint32_t cmd)
{
	uint64_t base;
	if (rdmsr_safe(MSR_APIC_BASE, &base) || !(base & APIC_BASE_EN))
		return -1;
	if (base & APIC_BASE_EXTD) {
		__asm__ volatile("mfence; lfence" ::: "memory");
		return wrmsr_safe(MSR_X2APIC_ICR, (uint64_t)dest << 32 | cmd) ? -1 : 0;
	}
	volatile uint32_t *apic = (volatile uint32_t *)(uintptr_t)(base & APIC_BASE_ADDR);
	uint64_t bound = smp_ticks_us(10000), t0 = rdtsc();
	while ((apic[APIC_ICR_LO / 4] & ICR_BUSY) && rdtsc() - t0 < bound)
		pause();
	apic[APIC_ICR_HI / 4] = dest << 24;
	apic[APIC_ICR_LO / 4] = cmd;
	t0 = rdtsc();
	while ((apic[APIC_ICR_LO / 4] & ICR_BUSY) && rdtsc() - t0 < bound)
		pause();
	return apic[APIC_ICR_LO / 4] & ICR_BUSY ? -1 : 0;
}

static void delay_us(uint64_t us)
{
	uint64_t t0 = rdtsc(), n = smp_ticks_us(us);
	while (rdtsc() - t0 < n)
		pause();
}

/* park - wait, interrupts off, until CPU me's line moves past seen (see
 * smp.h). With HLT, a wake-up NMI still on its way is let arrive here (at
 * most 10 ms) rather than in what runs next. */
static void park(int me, uint64_t seen)
{
	struct park_line *l = &lines[me];
	while (l->seq == seen) {
		if (use_mwait) {
			/* SDM Vol. 2B MONITOR: arm, re-check, then wait;
			 * EAX = 0 (C1), ECX = 0 (no interrupt break). */
			__asm__ volatile("monitor" : : "a"(&l->seq), "c"(0), "d"(0) : "memory");
			if (l->seq != seen)
				break;
			__asm__ volatile("mwait" : : "a"(0), "c"(0) : "memory");
		} else {
			trap_halt();
		}
	}
	struct trap_cpu *t = slots[me].tc;
	uint64_t t0 = rdtsc(), bound = smp_ticks_us(10000);
	while (t->wake_recv < t->wake_sent && rdtsc() - t0 < bound)
		pause();
}

/* wake - move CPU to's line on (the store wakes MWAIT); with HLT, count
 * the NMI before it is sent, so to's handler knows it for a wake-up. */
static void wake(int to)
{
	if (!use_mwait)
		__sync_fetch_and_add(&slots[to].tc->wake_sent, 1);
	__sync_fetch_and_add(&lines[to].seq, 1); /* LOCK: fn and arg are visible first */
	if (!use_mwait)
		(void)icr_send(slots[to].info.apic_id, ICR_NMI);
}

int smp_cpu_count(void)
{
	return ncpus;
}

const struct smp_cpu_info *smp_cpu(int n)
{
	return n >= 0 && n < ncpus ? &slots[n].info : 0;
}

int smp_boot_cpu(void)
{
	return bsp;
}

int smp_this_cpu(void)
{
	int n = trap_this_cpu()->cpu;
	return n < 0 ? bsp : n;
}

uint64_t smp_post(int cpu, void (*fn)(void *), void *arg)
{
	uint64_t token = lines[smp_this_cpu()].seq; /* before the wake: fn may return at once */
	lines[cpu].fn = fn;
	lines[cpu].arg = arg;
	lines[cpu].caller = smp_this_cpu();
	wake(cpu);
	return token;
}

void smp_wait(uint64_t token)
{
	park(smp_this_cpu(), token);
}

int smp_run_on(int cpu, void (*fn)(void *), void *arg)
{
	if (cpu < 0 || cpu >= ncpus || !slots[cpu].info.online)
		return -1;
	if (cpu == smp_this_cpu()) {
		fn(arg);
		return 0;
	}
	smp_wait(smp_post(cpu, fn, arg));
	return 0;
}

/* ---- an application processor's life ---- */

static __attribute__((noreturn)) void ap_loop(int me)
{
	struct park_line *l = &lines[me];
	uint64_t seen = l->seq, paging_seen = 0;
	for (;;) {
		park(me, seen);
		seen = l->seq;
		paging_sync(&paging_seen); /* pages the boot CPU unmapped since (guard pages) */
		l->fn(l->arg);
		wake(l->caller);
	}
}

/* smp_ap_entry - called by the trampoline on the AP's own stack. */
void smp_ap_entry(uint64_t n);
__attribute__((noreturn)) void smp_ap_entry(uint64_t n)
{
	struct slot *s = &slots[n];
	struct ap_area *a = (struct ap_area *)((uintptr_t)s->tc);
	trap_init_ap(&a->tc, &a->tss, a->ist, (int)n, s->info.apic_id);
	xsave_enable(); /* the boot CPU's XCR0 (CR4.OSXSAVE came with its CR4) */
	s->seen_apic_id = own_apic_id();
	int want = s->seen_apic_id == s->info.apic_id ? SLOT_ONLINE : SLOT_WRONG_ID;
	if (!__sync_bool_compare_and_swap(&s->state, SLOT_STARTING, want) || want != SLOT_ONLINE)
		halt_forever(); /* the boot CPU gave up on it, or it is not who it should be */
	ap_loop((int)n);
}

/* ---- starting them ---- */

/* pick_page - the highest 4 KiB page below 1 MiB that the memory map says
 * is available, above page 0 (the real-mode interrupt table and the BIOS
 * data area) and below the EBDA (its segment at 40:0Eh) and 0A0000h (the
 * legacy video and BIOS areas); 0 when there is none. */
static uint64_t pick_page(const struct boot_info *bi)
{
	uint64_t limit = 0xA0000, ebda = bios_ebda();
	if (ebda)
		limit = ebda & ~0xFFFull;
	uint64_t best = 0;
	for (int i = 0; i < bi->nmmap; i++) {
		const struct mmap_entry *m = &bi->mmap[i];
		if (m->type != MMAP_AVAILABLE)
			continue;
		uint64_t lo = (m->base + 0xFFF) & ~0xFFFull, hi = (m->base + m->length) & ~0xFFFull;
		if (lo < 0x1000)
			lo = 0x1000;
		if (hi > limit)
			hi = limit;
		if (hi >= lo + 0x1000 && hi - 0x1000 > best)
			best = hi - 0x1000;
	}
	if (!bi->nmmap && bi->has_meminfo) {
		uint64_t hi = (bi->mem_lower_kib * 1024) & ~0xFFFull;
		if (hi > limit)
			hi = limit;
		if (hi >= 0x2000)
			best = hi - 0x1000;
	}
	return best;
}

/* start_one - INIT, 10 ms, SIPI, 200 us, SIPI, 200 us, then wait for the
 * answer until ANSWER_MS after the INIT. Returns the slot's final state;
 * *ticks the TSC ticks from the INIT to the answer. silent: no SIPI
 * (test.smp=silent: a CPU that never answers). */
static int start_one(struct slot *s, struct tramp_params *p, int silent, uint64_t *ticks)
{
	struct ap_area *a = mem_alloc(sizeof *a);
	if (!a)
		return -1;
	uint32_t id = s->info.apic_id;
	uint8_t vector = (uint8_t)((uintptr_t)p >> 12);
	s->tc = &a->tc;
	a->tc.cpu = s->info.number;
	s->state = SLOT_STARTING;
	p->arg = (uint64_t)s->info.number;
	p->stack = (uint64_t)(a->stack + AP_STACK_SIZE);
	__sync_synchronize();
	uint64_t t0 = rdtsc();
	int err = icr_send(id, ICR_INIT);
	delay_us(INIT_DELAY_US);
	for (int i = 0; i < 2 && !silent; i++) {
		err |= icr_send(id, ICR_SIPI | vector);
		delay_us(SIPI_DELAY_US);
	}
	uint64_t bound = smp_ticks_us(ANSWER_MS * 1000ull);
	while (s->state == SLOT_STARTING && rdtsc() - t0 < bound)
		pause();
	*ticks = rdtsc() - t0;
	if (__sync_bool_compare_and_swap(&s->state, SLOT_STARTING, SLOT_GAVE_UP)) {
		/* Withdraw the stack (a late AP finds 0 and halts in the
		 * trampoline) and put the CPU back to waiting for a SIPI. */
		(void)__sync_lock_test_and_set(&p->stack, 0);
		(void)icr_send(id, ICR_INIT);
		delay_us(INIT_DELAY_US);
	}
	return err && s->state != SLOT_ONLINE ? -2 : s->state;
}

static const char *bsp_problem(const struct cpu_info *c, uint64_t *apic_base)
{
	if (!((cpuid(1, 0).edx >> 9) & 1))
		return "no local APIC (CPUID.1:EDX[9]=0)";
	if (rdmsr_safe(MSR_APIC_BASE, apic_base))
		return "IA32_APIC_BASE (MSR 1BH) unreadable";
	if (!(*apic_base & APIC_BASE_EN))
		return "the local APIC is globally disabled (IA32_APIC_BASE bit 11 = 0)";
	if (!(*apic_base & APIC_BASE_EXTD) && (*apic_base & APIC_BASE_ADDR) >> 32)
		return "the xAPIC page is above 4 GiB, outside the identity map";
	if (!c->has_tsc)
		return "no TSC to time the start-up delays (CPUID.1:EDX[4]=0)";
	if (read_cr3() >> 32)
		return "the page tables are above 4 GiB, out of the trampoline's 32-bit reach";
	return 0;
}

/* tables_for - n park lines (128-byte aligned) and n slots, zeroed, from
 * the pool (kernel/mem.h mem_alloc); n = 1 keeps the boot CPU's static
 * ones. Returns 0, or, when the pool has not the bytes, why not after a
 * line saying how many it needed: the tables stay the boot CPU's alone. */
static const char *tables_for(int n)
{
	lines = &line_alone;
	slots = &slot_alone;
	memset(&slot_alone, 0, sizeof slot_alone);
	if (n <= 1)
		return 0;
	uint64_t line_bytes = (uint64_t)n * sizeof(struct park_line), slot_bytes = (uint64_t)n * sizeof(struct slot);
	uint64_t bytes = line_bytes + sizeof(struct park_line) + slot_bytes; /* + the lines' alignment */
	uint8_t *p = mem_alloc(bytes);
	if (!p) {
		kprintf("smp: no memory for the park lines and slots of the MADT's %d CPUs (%llu bytes, %llu free): "
			"the boot CPU alone is listed and runs\n", n, (unsigned long long)bytes,
			(unsigned long long)mem_free_bytes());
		return "no memory for the other CPUs' tables (said above)";
	}
	memset(p, 0, bytes);
	uintptr_t at = ((uintptr_t)p + sizeof(struct park_line) - 1) & ~(uintptr_t)(sizeof(struct park_line) - 1);
	lines = (struct park_line *)at;
	slots = (struct slot *)(at + line_bytes);
	return 0;
}

/* Fill the table from the MADT; returns 0, or why there is only the boot CPU. */
static const char *list_cpus(uint32_t me)
{
	ncpus = 1;
	bsp = 0;
	const char *no_room = tables_for(acpi.madt_ok && acpi.ncpus > 1 ? acpi.ncpus : 1);
	slots[0].info = (struct smp_cpu_info){ .number = 0, .apic_id = me, .boot = 1, .online = 1 };
	if (!acpi.madt_ok)
		return "no usable MADT";
	if (no_room)
		return no_room;
	int found = -1;
	for (int i = 0; i < acpi.ncpus && i < SMP_MAX_CPUS; i++) {
		const struct acpi_cpu *m = &acpi.cpus[i];
		struct smp_cpu_info *ci = &slots[i].info;
		*ci = (struct smp_cpu_info){ .number = i, .apic_id = m->apic_id };
		if (m->apic_id == me && found < 0) {
			found = i;
			ci->boot = ci->online = 1;
		} else if (!m->enabled && !m->online_capable) {
			ci->why = "disabled in the MADT (neither enabled nor online-capable)";
		} else {
			for (int j = 0; j < i && !ci->why; j++)
				if (acpi.cpus[j].apic_id == m->apic_id)
					ci->why = "its APIC ID is listed twice in the MADT";
			if (!ci->why) {
				ci->why = "not started (smp=off)";
				slots[i].candidate = 1;
			}
		}
	}
	if (found < 0) {
		slots[0].candidate = 0;
		slots[0].info = (struct smp_cpu_info){ .number = 0, .apic_id = me, .boot = 1, .online = 1 };
		return "the boot CPU's APIC ID is not in the MADT";
	}
	ncpus = acpi.ncpus < SMP_MAX_CPUS ? acpi.ncpus : SMP_MAX_CPUS;
	bsp = found;
	return 0;
}

/* smp.park= and test.smp=silent, as smp_start was given them. */
static int park_mode, silent_last;

static const char *park_choice(const struct cpu_info *c)
{
	int mon = (cpuid(1, 0).ecx >> 3) & 1;
	uint32_t largest = c->max_basic >= 5 ? cpuid(5, 0).ebx & 0xFFFF : 64;
	use_mwait = 0;
	if (park_mode == SMP_PARK_HLT)
		return "HLT woken by an NMI IPI (smp.park=hlt)";
	if (!mon)
		return "HLT woken by an NMI IPI (no MONITOR/MWAIT: CPUID.1:ECX[3]=0)";
	if (largest > sizeof(struct park_line))
		return "HLT woken by an NMI IPI (MONITOR's largest line, CPUID.5:EBX, is over 128 bytes)";
	if (park_mode == SMP_PARK_MWAIT) {
		use_mwait = 1;
		return "MONITOR/MWAIT on a line of its own (smp.park=mwait)";
	}
	if (c->hypervisor)
		return "HLT woken by an NMI IPI (a hypervisor: its MWAIT may not sleep; QEMU TCG's "
		       "returns at once with more than one CPU; smp.park=mwait to use it)";
	use_mwait = 1;
	return "MONITOR/MWAIT on a line of its own (CPUID.1:ECX[3]=1)";
}

/* "12.345 ms" for TSC ticks, or "" without a rate. */
static const char *ms_words(char *buf, size_t size, uint64_t ticks)
{
	buf[0] = '\0';
	if (tsc_hz)
		fmt_format(buf, size, " (%llu.%03llu ms)", (unsigned long long)(ticks * 1000 / tsc_hz),
			   (unsigned long long)(ticks * 1000000 / tsc_hz % 1000));
	return buf;
}

static void print_section(const char *park, uint64_t page, const char *why_none, int start)
{
	int online = 0;
	for (int i = 0; i < ncpus; i++) {
		const struct smp_cpu_info *ci = &slots[i].info;
		char ms[32];
		online += ci->online;
		if (!start || why_none)
			continue;
		if (ci->boot)
			kprintf("smp: CPU %d: APIC ID %u: the boot CPU\n", i, ci->apic_id);
		else if (ci->online)
			kprintf("smp: CPU %d: APIC ID %u: started in %llu TSC ticks%s, parked\n", i, ci->apic_id,
				(unsigned long long)ci->start_ticks, ms_words(ms, sizeof ms, ci->start_ticks));
		else
			kprintf("smp: CPU %d: APIC ID %u: NOT started: %s\n", i, ci->apic_id, ci->why);
	}
	if (!start)
		return;
	if (why_none)
		kprintf("smp: one CPU: %s; only the boot CPU (CPU %d, APIC ID %u) runs\n", why_none, bsp,
			slots[bsp].info.apic_id);
	else
		kprintf("smp: %d of %d CPUs online; trampoline at 0x%llx; parking: %s\n", online, ncpus,
			(unsigned long long)page, park);
	if (!config_json())
		return;
	struct rec r;
	rec_begin(&r, "smp");
	rec_i64(&r, "listed", ncpus);
	rec_i64(&r, "online", online);
	rec_i64(&r, "boot_cpu", bsp);
	rec_str(&r, "park", use_mwait ? "mwait" : "hlt");
	rec_str(&r, "why", why_none);
	rec_u64(&r, "trampoline", page);
	rec_array(&r, "cpus");
	for (int i = 0; i < ncpus; i++) {
		const struct smp_cpu_info *ci = &slots[i].info;
		rec_object(&r, 0);
		rec_i64(&r, "cpu", i);
		rec_u64(&r, "apic_id", ci->apic_id);
		rec_bool(&r, "boot", ci->boot);
		rec_bool(&r, "online", ci->online);
		rec_u64(&r, "start_ticks", ci->start_ticks);
		rec_str(&r, "why", ci->why);
		rec_object_end(&r);
	}
	rec_array_end(&r);
	rec_end(&r);
}

/* copy_trampoline - the trampoline at page, its parameters the boot
 * CPU's state (boot/trampoline.asm); returns the parameter block. */
static struct tramp_params *copy_trampoline(uint64_t page)
{
	uint64_t n = (uint64_t)(smp_trampoline_end - smp_trampoline);
	uint8_t *dst = (uint8_t *)(uintptr_t)page;
	for (uint64_t i = 0; i < n; i++)
		dst[i] = smp_trampoline[i];
	struct tramp_params *p = (struct tramp_params *)(dst + (smp_tramp_params - smp_trampoline));
	uint64_t efer = 0, pat = 0;
	(void)rdmsr_safe(MSR_EFER, &efer);
	p->cr0 = read_cr0();
	p->cr3 = read_cr3();
	p->cr4 = read_cr4() & ~CR4_PCIDE; /* never set here; PCIDE needs long mode first */
	p->efer = efer & ~EFER_LMA;       /* read-only: the CPU sets it with CR0.PG */
	p->has_pat = (cpuid(1, 0).edx >> 16) & 1 && !rdmsr_safe(MSR_PAT, &pat);
	p->pat = pat;
	p->entry = (uint64_t)(uintptr_t)smp_ap_entry;
	return p;
}

/* start_all - every candidate, one at a time. */
static void start_all(struct tramp_params *p, uint64_t apic_base)
{
	int last = -1;
	for (int i = 0; i < ncpus; i++)
		if (slots[i].candidate)
			last = i;
	for (int i = 0; i < ncpus; i++) {
		struct slot *s = &slots[i];
		if (!s->candidate)
			continue;
		if (!(apic_base & APIC_BASE_EXTD) && s->info.apic_id > 0xFE) {
			s->info.why = "its APIC ID is above 254: the xAPIC cannot address it (x2APIC mode is off)";
			continue;
		}
		uint64_t ticks = 0;
		int st = start_one(s, p, silent_last && i == last, &ticks);
		s->info.start_ticks = st == SLOT_ONLINE ? ticks : 0;
		s->info.online = st == SLOT_ONLINE;
		s->info.why = st == SLOT_ONLINE ? 0
			: st == -1 ? "no memory for its stacks"
			: st == -2 ? "the local APIC did not send its IPIs (ICR delivery status stayed busy)"
			: st == SLOT_WRONG_ID ? "it answered with another APIC ID (CPUID): halted"
			: "no answer within 2000 ms of its INIT: sent INIT again and left alone";
	}
}

void smp_start(const struct boot_info *bi, const struct cpu_info *c, uint64_t hz, int start, int park_how,
	       int silent)
{
	park_mode = park_how;
	silent_last = silent;
	uint64_t apic_base = 0;
	tsc_hz = hz;
	uint32_t me = own_apic_id();
	const char *why_none = list_cpus(me);
	slots[bsp].tc = trap_this_cpu();
	slots[bsp].state = SLOT_ONLINE;
	const char *park = park_choice(c);
	if (!start) {
		print_section(park, 0, why_none, 0);
		return;
	}
	trap_this_cpu()->cpu = bsp;
	trap_this_cpu()->apic_id = me;
	const char *problem = bsp_problem(c, &apic_base);
	uint64_t page = problem ? 0 : pick_page(bi);
	if (!problem && !page)
		problem = "no free 4 KiB page below 1 MiB in the memory map for the trampoline";
	if (!problem)
		start_all(copy_trampoline(page), apic_base);
	for (int i = 0; problem && i < ncpus; i++)
		if (slots[i].candidate)
			slots[i].info.why = problem;
	if (!why_none && ncpus == 1)
		why_none = "the MADT lists no other CPU";
	if (problem && !why_none)
		kprintf("smp: the other CPUs are not started: %s\n", problem);
	print_section(park, page, why_none, 1);
}

/* ---- test.smp= ---- */

struct probe {
	int cpu;
	uint32_t apic_id;
	uint64_t rsp, ticks;
};

static void probe_fn(void *arg)
{
	struct probe *p = arg;
	uint64_t t0 = rdtsc();
	p->cpu = smp_this_cpu();
	p->apic_id = own_apic_id();
	__asm__ volatile("mov %%rsp, %0" : "=r"(p->rsp));
	p->ticks = rdtsc() - t0;
}

static void fault_fn(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");
}

void smp_test(int what)
{
	int last = -1;
	for (int i = 0; i < ncpus; i++)
		if (slots[i].info.online && !slots[i].info.boot)
			last = i;
	if (what == TEST_SMP_FAULT) {
		if (last < 0) {
			kprintf("test: test.smp=fault: no application processor is online\n");
			return;
		}
		kprintf("test: test.smp=fault: CPU %d (APIC ID %u) executes ud2 (#UD) now\n", last,
			slots[last].info.apic_id);
		smp_run_on(last, fault_fn, 0);
		kprintf("test: the fault did not happen\n");
		return;
	}
	if (what != TEST_SMP_RUN)
		return;
	for (int i = 0; i < ncpus; i++) {
		if (!slots[i].info.online || slots[i].info.boot)
			continue;
		struct probe p = { .cpu = -1 };
		uint64_t t0 = rdtsc();
		int r = smp_run_on(i, probe_fn, &p);
		uint64_t t = rdtsc() - t0;
		const uint8_t *lo = (const uint8_t *)slots[i].tc, *hi = lo + sizeof(struct ap_area);
		int on_stack = p.rsp > (uint64_t)lo && p.rsp < (uint64_t)hi;
		kprintf("test: smp_run_on(%d): %s; it says CPU %d, APIC ID %u (CPUID), on %s stack; "
			"%llu TSC ticks there, %llu TSC ticks for the call\n", i, r ? "FAILED" : "ran", p.cpu,
			p.apic_id, on_stack ? "its own" : "ANOTHER", (unsigned long long)p.ticks,
			(unsigned long long)t);
		if (config_json()) {
			struct rec k;
			rec_begin(&k, "smp_test");
			rec_i64(&k, "cpu", i);
			rec_bool(&k, "ran", !r);
			rec_i64(&k, "said_cpu", p.cpu);
			rec_u64(&k, "said_apic_id", p.apic_id);
			rec_bool(&k, "own_stack", on_stack);
			rec_u64(&k, "ticks", t);
			rec_end(&k);
		}
	}
}

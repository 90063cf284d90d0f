/* kernel/tscsync.c - see tscsync.h. */
#include "tscsync.h"
#include "config.h"
#include "console.h"
#include "cpu.h"
#include "msr.h"
#include "smp.h"
#include "trap.h"
#include "../lib/record.h"

#define WARP_US 20000          /* Linux: 20 ms (2 ms between SMT siblings) */
#define WARP_MAX_ROUNDS 10000000
#define BARRIER_US 1000000     /* the other CPU reaches the barrier within 1 s */

/* The shared line: the lock and the last TSC value read. */
static struct {
	volatile int lock;
	volatile uint64_t last;
} shared __attribute__((aligned(128)));

struct warp_side {
	uint64_t rounds, warps, max_warp;
	const char *error;
};

struct warp_run {
	volatile int arrived __attribute__((aligned(128)));
	struct warp_side side[2] __attribute__((aligned(128)));
};

static uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ volatile("mfence; lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* A spinlock with a bound: 0 when taken, -1 when still held at deadline. */
static int lock_until(uint64_t deadline)
{
	while (__sync_lock_test_and_set(&shared.lock, 1))
		while (shared.lock) {
			__asm__ volatile("pause" ::: "memory");
			if ((int64_t)(rdtsc() - deadline) > 0)
				return -1;
		}
	return 0;
}

/* One side of the test: k = 0 the boot CPU, 1 the AP. */
static void warp_side(struct warp_run *w, int k)
{
	struct warp_side *me = &w->side[k];
	uint64_t len = smp_ticks_us(WARP_US), bound = smp_ticks_us(BARRIER_US);
	__sync_fetch_and_add(&w->arrived, 1);
	uint64_t t0 = rdtsc();
	while (w->arrived < 2)
		if (rdtsc() - t0 > bound) {
			me->error = "the other CPU did not reach the start within 1 s";
			return;
		}
	uint64_t start = rdtsc_ordered();
	for (uint64_t i = 0;; i++) {
		if (lock_until(start + len + bound)) {
			me->error = "the lock stayed held for over 1 s";
			me->rounds = i;
			return;
		}
		uint64_t prev = shared.last, now = rdtsc_ordered();
		shared.last = now;
		__sync_lock_release(&shared.lock);
		if (prev > now) {
			me->warps++;
			if (prev - now > me->max_warp)
				me->max_warp = prev - now;
		}
		if (!(i & 7) && (now - start > len || i >= WARP_MAX_ROUNDS)) {
			me->rounds = i + 1;
			return;
		}
	}
}

static void warp_target(void *arg)
{
	warp_side(arg, 1);
}

static void warp_one(int cpu, int boot)
{
	static struct warp_run w;
	w = (struct warp_run){ 0 };
	shared.last = 0;
	shared.lock = 0;
	uint64_t token = smp_post(cpu, warp_target, &w);
	warp_side(&w, 0);
	smp_wait(token);
	const struct warp_side *a = &w.side[0], *b = &w.side[1];
	uint64_t warps = a->warps + b->warps, max = a->max_warp > b->max_warp ? a->max_warp : b->max_warp;
	const char *err = a->error ? a->error : b->error;
	uint32_t id = smp_cpu(cpu)->apic_id;
	kprintf("tsc sync: CPU %d (APIC ID %u) against CPU %d: %llu backward steps, the largest %llu TSC ticks, "
		"in %llu + %llu rounds of 20 ms each%s%s (the two read the TSC in turn through one shared line, "
		"as Linux's check_tsc_warp)\n", cpu, id, boot, (unsigned long long)warps,
		(unsigned long long)max, (unsigned long long)a->rounds, (unsigned long long)b->rounds,
		err ? ": INCOMPLETE: " : "", err ? err : "");
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "tsc_sync");
		rec_i64(&r, "cpu", cpu);
		rec_u64(&r, "apic_id", id);
		rec_i64(&r, "against", boot);
		rec_u64(&r, "warps", warps);
		rec_u64(&r, "max_warp_ticks", max);
		rec_array(&r, "rounds");
		rec_u64(&r, 0, a->rounds);
		rec_u64(&r, 0, b->rounds);
		rec_array_end(&r);
		rec_i64(&r, "us", WARP_US);
		rec_bool(&r, "complete", !err);
		rec_end(&r);
	}
}

/* The tsc_adjust record: whether IA32_TSC_ADJUST exists; with cpu >= 0,
 * that CPU's value (have: read without a fault). */
static void adjust_record(int present, int cpu, uint32_t apic_id, int have, int64_t value)
{
	struct rec r;
	rec_begin(&r, "tsc_adjust");
	rec_bool(&r, "present", present);
	if (cpu >= 0) {
		rec_i64(&r, "cpu", cpu);
		rec_u64(&r, "apic_id", apic_id);
		if (have)
			rec_i64(&r, "value", value);
		else
			rec_null(&r, "value");
	}
	rec_end(&r);
}

struct adjust {
	int err;
	uint64_t value;
};

static void read_adjust(void *arg)
{
	struct adjust *a = arg;
	a->err = rdmsr_safe(MSR_TSC_ADJUST, &a->value);
}

void tscsync_check(const struct cpu_info *c)
{
	int boot = smp_boot_cpu(), aps = 0;
	for (int i = 0; i < smp_cpu_count(); i++)
		if (i != boot && smp_cpu(i)->online) {
			warp_one(i, boot);
			aps++;
		}
	if (!aps)
		kprintf("tsc sync: no application processor is online: no other TSC to compare\n");

	if (c->max_basic < 7 || !((cpuid(7, 0).ebx >> 1) & 1)) {
		kprintf("tsc adjust: IA32_TSC_ADJUST (MSR 3BH): absent (CPUID.(EAX=07H,ECX=0):EBX[1]=0)\n");
		if (config_json())
			adjust_record(0, -1, 0, 0, 0);
		return;
	}
	for (int i = 0; i < smp_cpu_count(); i++) {
		const struct smp_cpu_info *ci = smp_cpu(i);
		if (!ci->online)
			continue;
		struct adjust a = { 0, 0 };
		smp_run_on(i, read_adjust, &a);
		if (a.err)
			kprintf("tsc adjust: CPU %d (APIC ID %u): IA32_TSC_ADJUST (MSR 3BH) unreadable (%s)\n", i,
				ci->apic_id, trap_fault_string(a.err));
		else
			kprintf("tsc adjust: CPU %d (APIC ID %u): IA32_TSC_ADJUST (MSR 3BH) = %lld TSC ticks\n", i,
				ci->apic_id, (long long)a.value);
		if (config_json()) {
			if (a.err)
				adjust_record(1, i, ci->apic_id, 0, 0);
			else
				adjust_record(1, i, ci->apic_id, 1, (int64_t)a.value);
		}
	}
}

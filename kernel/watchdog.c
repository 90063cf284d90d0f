/* kernel/watchdog.c - see watchdog.h. Registers: IA-PC HPET 1.0a 2.3
 * (by offset: 000h General Capabilities and ID, 010h General
 * Configuration, 0F0h Main Counter, 100h + 20h x N Timer N Configuration
 * and Capabilities, 108h + 20h x N Timer N Comparator); the 82093AA I/O
 * APIC data sheet 3.0-3.2 (IOREGSEL at +00h, IOWIN at +10h; register 01h
 * the version, bits 23:16 the maximum redirection entry; registers 10h +
 * 2n, 11h + 2n redirection entry n). */
#include "watchdog.h"
#include "acpi.h"
#include "console.h"
#include "cpu.h"
#include "paging.h"
#include "pit.h"
#include "../lib/fmt.h"
#include "../lib/irqroute.h"

#define HPET_GCAP 0x000
#define HPET_GCAP_LEG_RT_CAP (1ull << 15)
#define HPET_GCAP_COUNT_SIZE (1ull << 13)
#define HPET_CONF 0x010
#define HPET_CONF_ENABLE 1ull
#define HPET_CONF_LEG_RT 2ull
#define HPET_COUNTER 0x0F0
#define HPET_T0_CONF 0x100
#define HPET_TN_INT_TYPE (1ull << 1)  /* 1 level, 0 edge */
#define HPET_TN_INT_ENB (1ull << 2)
#define HPET_TN_PERIODIC (1ull << 3)
#define HPET_TN_SIZE_CAP (1ull << 5)  /* a 64-bit comparator */
#define HPET_TN_32MODE (1ull << 8)
#define HPET_TN_FSB_EN (1ull << 14)
#define HPET_T0_CMP 0x108

#define IOAPIC_VER 0x01
#define IOAPIC_REDTBL 0x10
#define RTE_NMI (4u << 8)        /* delivery mode 100b */
#define RTE_ACTIVE_LOW (1u << 13)
#define RTE_MASKED (1u << 16)

enum timer { NONE, HPET, PIT };
static const char *const timer_names[] = { "none", "HPET timer 0", "PIT channel 0" };

static struct {
	enum timer timer;
	volatile uint64_t *hpet;   /* its registers, mapped UC */
	int hpet64;                /* timer 0 has a 64-bit comparator */
	uint64_t hpet_conf;        /* General Configuration as found */
	volatile uint32_t *ioapic; /* IOREGSEL; IOWIN is 4 dwords on */
	uint32_t pin;
	uint32_t rte_low;          /* the entry written when armed, mask bit clear */
	uint32_t rte_found_low, rte_found_high; /* as found (restored, masked, at disarm) */
	volatile int armed, flushing, disarming;
	uint32_t apic_id;          /* the CPU armed for */
	uint64_t cmp;              /* HPET: the comparator armed */
	uint32_t periods, seen;    /* PIT: the periods of the bound, those counted */
	uint32_t bound_ms;
	int refused_apic;          /* an APIC ID above 255 was said */
} wd;

static uint32_t ioapic_read(uint32_t reg)
{
	wd.ioapic[0] = reg;
	return wd.ioapic[4];
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	wd.ioapic[0] = reg;
	wd.ioapic[4] = v;
}

/* The calling CPU's APIC ID: the x2APIC ID (CPUID.0BH:EDX) when leaf 0BH
 * exists, else the initial APIC ID, CPUID.1:EBX[31:24] (SDM Vol. 3A
 * 11.4.6, 11.12.8). */
static uint32_t apic_id(void)
{
	if (cpuid(0, 0).eax >= 0xB) {
		struct cpuid_regs r = cpuid(0xB, 0);
		if (r.ebx & 0xFFFF)
			return r.edx;
	}
	return cpuid(1, 0).ebx >> 24;
}

/* The redirection entry: masked, or delivering an NMI to the APIC ID dest
 * (physical destination mode, bits 63:56). The high half first, so the
 * entry is never unmasked with an old destination. */
static void rte_write(uint32_t low, uint32_t high)
{
	ioapic_write(IOAPIC_REDTBL + 2 * wd.pin, RTE_MASKED | wd.rte_found_low);
	ioapic_write(IOAPIC_REDTBL + 2 * wd.pin + 1, high);
	ioapic_write(IOAPIC_REDTBL + 2 * wd.pin, low);
}

static void stop(void)
{
	if (wd.timer == HPET) {
		wd.hpet[HPET_T0_CONF / 8] &= ~HPET_TN_INT_ENB;
	} else if (wd.timer == PIT) {
		pit_stop_channel0();
	}
	if (wd.ioapic)
		rte_write(RTE_MASKED | wd.rte_found_low, wd.rte_found_high);
}

/* Why no HPET can be used, or NULL (and the HPET mapped). */
static const char *find_hpet(void)
{
	if (!acpi.rsdp_found || !acpi.hpet_ok)
		return "no HPET in ACPI";
	if (!acpi_hpet_period_fs)
		return "the HPET's period is out of range";
	wd.hpet = paging_map(acpi.hpet_base, 1024, PG_UC, "HPET");
	if (!wd.hpet)
		return "the HPET cannot be mapped";
	uint64_t cap = wd.hpet[HPET_GCAP / 8];
	if (!(cap & HPET_GCAP_LEG_RT_CAP))
		return "the HPET has no legacy replacement route (LEG_RT_CAP 0)";
	wd.hpet64 = (wd.hpet[HPET_T0_CONF / 8] & HPET_TN_SIZE_CAP) && (cap & HPET_GCAP_COUNT_SIZE);
	wd.hpet_conf = wd.hpet[HPET_CONF / 8];
	return 0;
}

/* Why ISA IRQ 0's I/O APIC input cannot be used, or NULL (and it is found). */
static const char *find_ioapic(char *why, size_t size)
{
	struct irq_route r;
	const char *no = acpi.rsdp_found ? irq_route_isa(&acpi, 0, &r) : "no ACPI tables";
	if (no) {
		fmt_format(why, size, "no I/O APIC input for ISA IRQ 0: %s", no);
		return why;
	}
	if (r.level) {
		fmt_format(why, size, "ISA IRQ 0 is level-triggered at GSI %u (an NMI must be edge)", r.gsi);
		return why;
	}
	const struct acpi_ioapic *a = &acpi.ioapics[r.ioapic];
	wd.ioapic = paging_map(a->address, 0x20, PG_UC, "I/O APIC");
	if (!wd.ioapic) {
		fmt_format(why, size, "the I/O APIC at 0x%x cannot be mapped", a->address);
		return why;
	}
	uint32_t max = (ioapic_read(IOAPIC_VER) >> 16) & 0xFF;
	if (r.pin > max) {
		fmt_format(why, size, "GSI %u is input %u of the I/O APIC at 0x%x, which has %u", r.gsi, r.pin,
			   a->address, max + 1);
		wd.ioapic = 0;
		return why;
	}
	wd.pin = r.pin;
	wd.rte_found_low = ioapic_read(IOAPIC_REDTBL + 2 * r.pin);
	wd.rte_found_high = ioapic_read(IOAPIC_REDTBL + 2 * r.pin + 1);
	wd.rte_low = RTE_NMI | 2u /* vector: ignored for NMI (82093AA 3.2.4) */ | (r.active_low ? RTE_ACTIVE_LOW : 0);
	fmt_format(why, size, "I/O APIC ID %u at 0x%x, input %u (ISA IRQ 0 = GSI %u%s), delivery mode NMI, edge, "
		   "active %s", a->id, a->address, r.pin, r.gsi, r.overridden ? ", the MADT's override" : "",
		   r.active_low ? "low" : "high");
	return 0;
}

void watchdog_init(void)
{
	char route[160];
	const char *no_hpet = find_hpet();
	const char *no_ioapic = find_ioapic(route, sizeof route);
	uint8_t pit = no_hpet ? pit_stop_channel0() : 0;
	if (no_ioapic) {
		kprintf("watchdog: none (%s%s; %s): an endless code= hangs\n", no_hpet ? no_hpet : "a HPET",
			no_hpet ? "" : ", but its legacy route needs an I/O APIC", no_ioapic);
		return;
	}
	if (no_hpet && pit == 0xFF) {
		kprintf("watchdog: none (%s, no PIT answered): an endless code= hangs\n", no_hpet);
		return;
	}
	wd.timer = no_hpet ? PIT : HPET;
	/* The HPET's counter running and its legacy route set once, for the
	 * rest of the run: turning the route off gives input 2 back to the
	 * 8254, whose OUT0 may then be high (QEMU's i8254 counts on a count
	 * of 0 in mode 0 and its output rises 65536 periods later), an edge,
	 * i.e. an NMI, at every disarming. Interrupts stay off, so the 8254's
	 * and the RTC's interrupts, which the route takes away, reach nobody
	 * anyway. */
	if (wd.timer == HPET) {
		wd.hpet[HPET_T0_CONF / 8] &= ~HPET_TN_INT_ENB;
		wd.hpet[HPET_CONF / 8] = wd.hpet_conf | HPET_CONF_ENABLE | HPET_CONF_LEG_RT;
	}
	/* An edge the I/O APIC latched while masked (QEMU's hw/intc/ioapic.c
	 * keeps it pending, where the 82093AA ignores it) would be an NMI at
	 * the first arming: taken here, while the input is unmasked once. */
	wd.flushing = 1;
	rte_write(wd.rte_low, apic_id() << 24);
	for (volatile int i = 0; i < 1000; i++)
		__asm__ volatile("pause");
	stop();
	wd.flushing = 0;
	if (wd.timer == HPET)
		kprintf("watchdog: HPET timer 0, one shot, in legacy replacement mode (IA-PC HPET 1.0a 2.4) -> %s; "
			"a code= fill not done within %u to %u ms is stopped by the NMI and reported\n", route,
			WATCHDOG_MIN_MS, WATCHDOG_MAX_MS);
	else
		kprintf("watchdog: PIT channel 0, an edge every 65536 periods (54.9 ms), counted (%s) -> %s; a "
			"code= fill not done within %u to %u ms is stopped by the NMI and reported; the periods "
			"before are NMIs counted as disturbances\n", no_hpet, route, WATCHDOG_MIN_MS,
			WATCHDOG_MAX_MS);
}

int watchdog_arm(uint32_t ms)
{
	if (wd.timer == NONE)
		return -1;
	uint32_t id = apic_id();
	if (id > 255) {
		if (!wd.refused_apic++)
			kprintf("watchdog: not armed on the CPU with APIC ID %u: an I/O APIC's physical destination "
				"is 8 bits (82093AA 3.2.4)\n", id);
		return -1;
	}
	watchdog_disarm();
	ms = ms < WATCHDOG_MIN_MS ? WATCHDOG_MIN_MS : ms > WATCHDOG_MAX_MS ? WATCHDOG_MAX_MS : ms;
	wd.bound_ms = ms;
	wd.apic_id = id;
	if (wd.timer == HPET) {
		volatile uint64_t *h = wd.hpet;
		/* Timer 0: interrupt off, edge, one shot, no FSB; then the
		 * comparator, ms x 10^12 fs ahead of the running counter (ms
		 * <= 3000: no overflow), and only then the interrupt. */
		uint64_t conf = h[HPET_T0_CONF / 8] & ~(HPET_TN_INT_ENB | HPET_TN_INT_TYPE | HPET_TN_PERIODIC |
							  HPET_TN_FSB_EN | HPET_TN_32MODE);
		h[HPET_T0_CONF / 8] = conf | (wd.hpet64 ? 0 : HPET_TN_32MODE);
		uint64_t ticks = (uint64_t)ms * 1000000000000ull / acpi_hpet_period_fs;
		wd.cmp = h[HPET_COUNTER / 8] + ticks;
		if (!wd.hpet64)
			wd.cmp = (uint32_t)wd.cmp;
		h[HPET_T0_CMP / 8] = wd.cmp;
		rte_write(wd.rte_low, id << 24);
		wd.armed = 1;
		h[HPET_T0_CONF / 8] = conf | (wd.hpet64 ? 0 : HPET_TN_32MODE) | HPET_TN_INT_ENB;
	} else {
		wd.periods = (uint32_t)(((uint64_t)ms * PIT_HZ + 65536000ull - 1) / 65536000ull);
		wd.seen = 0;
		rte_write(wd.rte_low, id << 24);
		wd.armed = 1;
		outb(0x43, 0x34); /* channel 0, lobyte/hibyte, mode 2 (rate generator), binary */
		outb(0x40, 0);
		outb(0x40, 0);    /* count 0: 65536 */
	}
	return 0;
}

void watchdog_disarm(void)
{
	if (wd.timer == NONE || !wd.armed)
		return;
	wd.disarming = 1;
	stop();
	wd.armed = 0;
	wd.disarming = 0;
}

void watchdog_release(void)
{
	if (wd.timer == NONE)
		return;
	watchdog_disarm();
	if (wd.timer == HPET)
		wd.hpet[HPET_CONF / 8] = wd.hpet_conf;
	if (wd.ioapic)
		rte_write(wd.rte_found_low, wd.rte_found_high);
	wd.timer = NONE;
}

void watchdog_rearm(void)
{
	if (!wd.disarming)
		watchdog_arm(wd.bound_ms);
}

enum watchdog_nmi watchdog_nmi(void)
{
	if (wd.flushing)
		return WATCHDOG_ABSORBED;
	if (!wd.armed || apic_id() != wd.apic_id)
		return WATCHDOG_NOT_MINE;
	if (wd.timer == HPET) {
		uint64_t now = wd.hpet[HPET_COUNTER / 8];
		int64_t past = wd.hpet64 ? (int64_t)(now - wd.cmp) : (int32_t)(uint32_t)(now - wd.cmp);
		if (past < 0)
			return WATCHDOG_NOT_MINE;
	} else if (++wd.seen < wd.periods) {
		return WATCHDOG_NOT_MINE;
	}
	stop();
	wd.armed = 0;
	return WATCHDOG_FIRED;
}

uint32_t watchdog_bound_ms(void)
{
	return wd.bound_ms;
}

const char *watchdog_timer(void)
{
	return timer_names[wd.timer];
}

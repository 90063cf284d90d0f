/* kernel/lapic.c - see lapic.h.
 *
 * The xAPIC page and its memory type. The boot code identity-maps the
 * first 4 GiB with 2 MiB pages, PCD = PWT = PAT = 0: PAT entry 0, WB at
 * power-up (SDM Vol. 3A 12.12.4, table 12-12). The local APIC's registers
 * at FEE00000H are inside, mapped WB, where the SDM asks for strong UC
 * (11.4.1: "For correct APIC operation, this address space must be mapped
 * to an area of memory that has been designated as strong uncacheable
 * (UC)"). Does it matter for the dozen accesses made here? The effective
 * type combines the MTRRs' and the PAT's (12.5.2.2, table 12-7): MTRR UC
 * with PAT WB is UC, so where the firmware's MTRRs mark the range UC, as
 * PC firmware does for the MMIO hole below 4 GiB, the accesses are
 * already UC. But MTRRs are the firmware's choice, not a guarantee, so
 * lapic_quiet() also reports the MTRR type of the APIC's page, and sets
 * PCD and PWT in the one 2 MiB entry that maps it (FEE00000H-FEFFFFFFH,
 * the APIC and reserved space, nothing else): PAT entry 3, UC at power-up,
 * and UC whatever the MTRRs say (table 12-7: PAT UC gives UC under every
 * MTRR type), as Linux maps it (fixmap, PAGE_KERNEL_NOCACHE). Only an
 * INVLPG follows, no WBINVD or CLFLUSH, which a change away from a
 * cacheable type calls for against stale cached copies: nothing has
 * written or read the APIC page before this, so no line of it can be
 * dirty, and a clean one could exist only if the firmware had made the
 * range cacheable and the CPU had speculated into it.
 */
#include "lapic.h"
#include "console.h"
#include "cpu.h"
#include "msr.h"
#include "mtrr.h"
#include "trap.h"
#include "../lib/fmt.h"
#include "../lib/paging.h"

#define APIC_ISR 0x100
#define APIC_IRR 0x200
#define APIC_VERSION 0x30
#define APIC_SVR 0xF0
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR 0x390
#define APIC_LVT_MASK (1u << 16)

/* The local APIC's registers: xAPIC MMIO or x2APIC MSRs. */
struct apic {
	int x2;                  /* x2APIC mode */
	volatile uint32_t *mmio; /* xAPIC registers, identity-mapped */
};

/* apic_read - register at offset off (SDM Vol. 3A table 11-1); in x2APIC
 * mode MSR 800H + off/16 (table 11-6). Returns 0 or the fault. */
static int apic_read(const struct apic *a, uint32_t off, uint32_t *v)
{
	if (a->x2) {
		uint64_t x;
		int err = rdmsr_safe(MSR_X2APIC_FIRST + (off >> 4), &x);
		*v = (uint32_t)x;
		return err;
	}
	*v = a->mmio[off / 4]; /* aligned 32-bit access, as 11.4.1 requires */
	return 0;
}

static int apic_write(const struct apic *a, uint32_t off, uint32_t v)
{
	if (a->x2)
		return wrmsr_safe(MSR_X2APIC_FIRST + (off >> 4), v);
	a->mmio[off / 4] = v;
	return 0;
}

/* apic_page_uc - set PCD and PWT in the 2 MiB page-directory entry that
 * maps pa (see the comment at the top). Returns 0, or -1 when the walk
 * does not end at a present 2 MiB page. */
static int apic_page_uc(uint64_t pa, uint64_t *before)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)(read_cr3() & PG_ADDR);
	uint64_t e = pml4[(pa >> 39) & 511];
	if (!(e & PG_P))
		return -1;
	uint64_t *pdpt = (uint64_t *)(uintptr_t)(e & PG_ADDR);
	e = pdpt[(pa >> 30) & 511];
	if (!(e & PG_P) || (e & PG_PS))
		return -1;
	uint64_t *pd = (uint64_t *)(uintptr_t)(e & PG_ADDR);
	volatile uint64_t *pde = &pd[(pa >> 21) & 511];
	*before = *pde;
	if (!(*before & PG_P) || !(*before & PG_PS))
		return -1;
	*pde = *before | PG_PCD | PG_PWT;
	__asm__ volatile("invlpg (%0)" : : "r"((uintptr_t)pa) : "memory");
	return 0;
}

/* The kernel has no libgcc (__popcountdi2) and -march=x86-64 no POPCNT. */
static int bits_set(uint32_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static const struct {
	uint32_t off;
	uint32_t min_maxlvt; /* present when Max LVT Entry >= this */
	const char *name;
} lvts[] = {
	{ .off = 0x320, .min_maxlvt = 0, .name = "timer" },
	{ .off = 0x350, .min_maxlvt = 0, .name = "LINT0" },
	{ .off = 0x360, .min_maxlvt = 0, .name = "LINT1" },
	{ .off = 0x370, .min_maxlvt = 3, .name = "error" },
	{ .off = 0x340, .min_maxlvt = 4, .name = "performance counter" },
	{ .off = 0x330, .min_maxlvt = 5, .name = "thermal" },
	{ .off = 0x2F0, .min_maxlvt = 6, .name = "CMCI" },
};

void lapic_quiet(const struct cpu_info *c, struct lapic_quiet *q)
{
	*q = (struct lapic_quiet){ .apic = "absent", .max_lvt = -1, .timer_stopped = -1, .irr = -1, .isr = -1 };
	struct cpuid_regs r1 = cpuid(1, 0);
	if (!((r1.edx >> 9) & 1)) {
		q->apic = "absent";
		kprintf("quiet: local apic: skipped: none (CPUID.1:EDX[9]=0)\n");
		return;
	}
	uint64_t base_msr;
	int err = rdmsr_safe(MSR_APIC_BASE, &base_msr);
	if (err) {
		q->apic = "unreadable";
		kprintf("quiet: local apic: skipped: IA32_APIC_BASE (MSR 1BH) unreadable (%s)\n",
			trap_fault_string(err));
		return;
	}
	if (!(base_msr & APIC_BASE_EN)) {
		q->apic = "disabled";
		kprintf("quiet: local apic: skipped: globally disabled (IA32_APIC_BASE=0x%llx, bit 11 = 0): "
			"it delivers no interrupt\n", (unsigned long long)base_msr);
		return;
	}
	struct apic a = { .x2 = (base_msr & APIC_BASE_EXTD) != 0 };
	uint64_t base = base_msr & PG_ADDR;
	if (a.x2) {
		q->apic = "x2apic";
		kprintf("quiet: local apic: x2APIC mode (IA32_APIC_BASE=0x%llx, bits 10 and 11): "
			"registers are MSRs 800H-8FFH\n", (unsigned long long)base_msr);
	} else {
		if (base >> 32) {
			q->apic = "unmapped";
			kprintf("quiet: local apic: skipped: xAPIC base 0x%llx is above 4 GiB, outside the "
				"identity map\n", (unsigned long long)base);
			return;
		}
		q->apic = "xapic";
		a.mmio = (volatile uint32_t *)(uintptr_t)base;
		int range;
		int t = mtrr_type(c, base, &range);
		char mtrr[64];
		if (t == -1)
			fmt_format(mtrr, sizeof mtrr, "unknown (MTRRs absent or unreadable)");
		else if (t == -2)
			fmt_format(mtrr, sizeof mtrr, "undefined (overlapping variable ranges)");
		else if (range >= 0)
			fmt_format(mtrr, sizeof mtrr, "%s (variable range %d)", mtrr_type_name((uint64_t)t), range);
		else
			fmt_format(mtrr, sizeof mtrr, "%s (the default type)", mtrr_type_name((uint64_t)t));
		uint64_t pde, pat;
		int uc = apic_page_uc(base, &pde);
		/* PAT entry 3 (bits 26:24) is UC at power-up; without a PAT
		 * (CPUID.1:EDX[16]=0) PCD=1 alone means UC (12.5.1). */
		char pat3[48];
		if (rdmsr_safe(MSR_PAT, &pat))
			fmt_format(pat3, sizeof pat3, "no IA32_PAT: PCD=1 is UC");
		else
			fmt_format(pat3, sizeof pat3, "PAT entry 3 = %s", mtrr_type_name((pat >> 24) & 7));
		kprintf("quiet: local apic: xAPIC mode at 0x%llx (IA32_APIC_BASE=0x%llx); MTRR type of the "
			"page: %s; its 2 MiB page: %s%s%s\n", (unsigned long long)base,
			(unsigned long long)base_msr, mtrr,
			uc ? "NOT remapped (the walk did not end at a 2 MiB page): accesses are PAT WB + MTRR"
			   : (pde & (PG_PCD | PG_PWT)) == (PG_PCD | PG_PWT)
				     ? "already PCD=PWT=1"
				     : "remapped PCD=PWT=1 (was PAT entry 0, WB)",
			uc ? "" : ", ", uc ? "" : pat3);
	}

	uint32_t ver = 0, svr = 0;
	if ((err = apic_read(&a, APIC_VERSION, &ver)) || (err = apic_read(&a, APIC_SVR, &svr))) {
		kprintf("quiet: local apic: skipped: version/SVR unreadable (%s)\n", trap_fault_string(err));
		return;
	}
	q->max_lvt = (int)((ver >> 16) & 0xFF);
	kprintf("quiet: local apic: version 0x%02x, Max LVT Entry %d (%d LVT entries), software %s "
		"(SVR=0x%x, bit 8)\n", ver & 0xFF, q->max_lvt, q->max_lvt + 1,
		(svr >> 8) & 1 ? "enabled" : "disabled: every LVT entry is masked already", svr);

	for (unsigned i = 0; i < sizeof lvts / sizeof lvts[0]; i++) {
		uint32_t v = 0, after = 0;
		if ((uint32_t)q->max_lvt < lvts[i].min_maxlvt) {
			kprintf("quiet: apic LVT %s (%03XH): skipped: absent (Max LVT Entry %d < %u)\n",
				lvts[i].name, lvts[i].off, q->max_lvt, lvts[i].min_maxlvt);
			continue;
		}
		/* LINT1 wired for NMI (delivery mode 100b, SDM Vol. 3A 13.5.1) stays
		 * as it is: the platform signals errors with it, and an NMI is to
		 * be counted per ensemble (kernel/trap.c), never hidden. */
		if (lvts[i].off == 0x360 && apic_read(&a, lvts[i].off, &v) == 0 &&
		    ((v >> 8) & 7) == 4 && !(v & APIC_LVT_MASK)) {
			q->lvt_nmi_kept = 1;
			kprintf("quiet: apic LVT %s (%03XH): 0x%08x: left unmasked: it delivers NMIs, which "
				"cannot be prevented and are counted per ensemble instead\n",
				lvts[i].name, lvts[i].off, v);
			continue;
		}
		if ((err = apic_read(&a, lvts[i].off, &v)) ||
		    (!(v & APIC_LVT_MASK) && (err = apic_write(&a, lvts[i].off, v | APIC_LVT_MASK))) ||
		    (err = apic_read(&a, lvts[i].off, &after))) {
			q->lvt_failed++;
			kprintf("quiet: apic LVT %s (%03XH): FAILED: %s\n", lvts[i].name, lvts[i].off,
				trap_fault_string(err));
			continue;
		}
		if (after & APIC_LVT_MASK)
			q->lvt_masked++;
		else
			q->lvt_failed++;
		kprintf("quiet: apic LVT %s (%03XH): 0x%08x -> 0x%08x: %s\n", lvts[i].name, lvts[i].off, v,
			after, !(after & APIC_LVT_MASK) ? "NOT masked (the write did not stick)"
			       : (v & APIC_LVT_MASK) ? "was masked" : "masked");
	}

	uint32_t init = 0, cur = 0;
	if ((err = apic_read(&a, APIC_TIMER_INIT, &init)) || (err = apic_write(&a, APIC_TIMER_INIT, 0)) ||
	    (err = apic_read(&a, APIC_TIMER_CUR, &cur))) {
		q->timer_stopped = 0;
		kprintf("quiet: apic timer: FAILED to write the initial count 0: %s\n", trap_fault_string(err));
	} else {
		q->timer_stopped = cur == 0;
		kprintf("quiet: apic timer: initial count (380H) %u -> 0: %s (current count %u)\n", init,
			cur == 0 ? "stopped" : "STILL COUNTING", cur);
	}

	q->irr = q->isr = 0;
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t irr = 0, isr = 0;
		if (apic_read(&a, APIC_IRR + 0x10 * i, &irr) || apic_read(&a, APIC_ISR + 0x10 * i, &isr)) {
			q->irr = q->isr = -1;
			break;
		}
		q->irr += bits_set(irr);
		q->isr += bits_set(isr);
	}
	if (q->irr < 0)
		kprintf("quiet: apic IRR/ISR: unreadable\n");
	else
		kprintf("quiet: apic IRR/ISR: %d vectors pending, %d in service%s\n", q->irr, q->isr,
			q->irr || q->isr ? " (left as they are: with RFLAGS.IF = 0 none is delivered)" : "");
}

const char *lapic_deadline_disarm(void)
{
	if (!((cpuid(1, 0).ecx >> 24) & 1)) {
		kprintf("quiet: IA32_TSC_DEADLINE: skipped: absent (CPUID.1:ECX[24]=0)\n");
		return "absent";
	}
	uint64_t v = 0;
	int err = wrmsr_safe(MSR_TSC_DEADLINE, 0);
	if (!err)
		err = rdmsr_safe(MSR_TSC_DEADLINE, &v);
	if (err)
		kprintf("quiet: IA32_TSC_DEADLINE (MSR 6E0H): FAILED: %s\n", trap_fault_string(err));
	else
		kprintf("quiet: IA32_TSC_DEADLINE (MSR 6E0H): written 0, reads 0x%llx: disarmed\n",
			(unsigned long long)v);
	return err ? "faulted" : "cleared";
}

/* The local APIC as IA32_APIC_BASE has it, without a word: 0 when usable. */
static int apic_open(struct apic *a)
{
	uint64_t base_msr;
	if (!((cpuid(1, 0).edx >> 9) & 1) || rdmsr_safe(MSR_APIC_BASE, &base_msr) || !(base_msr & APIC_BASE_EN))
		return -1;
	a->x2 = (base_msr & APIC_BASE_EXTD) != 0;
	a->mmio = 0;
	if (!a->x2) {
		if ((base_msr & PG_ADDR) >> 32)
			return -1;
		a->mmio = (volatile uint32_t *)(uintptr_t)(base_msr & PG_ADDR);
	}
	return 0;
}

void lapic_save(struct lapic_saved *s)
{
	struct apic a;
	uint32_t ver = 0;
	*s = (struct lapic_saved){ 0 };
	if (apic_open(&a) || apic_read(&a, APIC_VERSION, &ver))
		return;
	uint32_t max_lvt = (ver >> 16) & 0xFF;
	if (apic_read(&a, APIC_SVR, &s->svr) || apic_read(&a, 0x80, &s->tpr) || apic_read(&a, 0x3E0, &s->tdcr) ||
	    apic_read(&a, APIC_TIMER_INIT, &s->ticr))
		return;
	for (unsigned i = 0; i < sizeof lvts / sizeof lvts[0]; i++) {
		s->lvt[i] = ~0u;
		if (max_lvt >= lvts[i].min_maxlvt && apic_read(&a, lvts[i].off, &s->lvt[i]))
			return;
	}
	s->x2 = a.x2;
	s->valid = 1;
}

void lapic_restore(const struct lapic_saved *s)
{
	struct apic a;
	if (!s->valid || apic_open(&a) || a.x2 != s->x2)
		return;
	apic_write(&a, APIC_SVR, s->svr);
	apic_write(&a, 0x80, s->tpr);
	for (unsigned i = 0; i < sizeof lvts / sizeof lvts[0]; i++)
		if (s->lvt[i] != ~0u)
			apic_write(&a, lvts[i].off, s->lvt[i]);
	apic_write(&a, 0x3E0, s->tdcr);
	apic_write(&a, APIC_TIMER_INIT, s->ticr);
}

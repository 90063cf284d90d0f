/* kernel/quiet.c - see quiet.h.
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
 * quiet_timers() also reports the MTRR type of the APIC's page, and sets
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
#include "quiet.h"
#include "console.h"
#include "cpu.h"
#include "msr.h"
#include "pit.h"
#include "trap.h"
#include "../lib/fmt.h"

#define APIC_ISR 0x100
#define APIC_IRR 0x200
#define APIC_VERSION 0x30
#define APIC_SVR 0xF0
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR 0x390
#define APIC_LVT_MASK (1u << 16)

#define PTE_P 0x1ull
#define PTE_PWT 0x8ull
#define PTE_PCD 0x10ull
#define PTE_PS 0x80ull
#define PTE_ADDR 0x000FFFFFFFFFF000ull

static int is_intel(const struct cpu_info *c)
{
	return cpu_vendor_is(c, "GenuineIntel");
}

static const char *mem_type_name(uint64_t t)
{
	switch (t) {
	case 0: return "UC";
	case 1: return "WC";
	case 4: return "WT";
	case 5: return "WP";
	case 6: return "WB";
	case 7: return "UC-";
	}
	return "reserved";
}

/* ---- the local APIC: xAPIC MMIO or x2APIC MSRs ---- */

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

/* mtrr_type - the MTRR memory type of physical address pa >= 1 MiB (SDM
 * Vol. 3A 12.11: variable ranges, then the default type; 12.11.4.1 for
 * overlaps: UC wins, WT beats WB, others undefined). Returns the type,
 * or -1 when the MTRRs cannot be read, -2 for an undefined overlap.
 * *which is the variable range that decided, or -1 for the default. */
static int mtrr_type(const struct cpu_info *c, uint64_t pa, int *which)
{
	uint64_t cap, def;
	*which = -1;
	if (!((cpuid(1, 0).edx >> 12) & 1))
		return -1;
	if (rdmsr_safe(MSR_MTRRCAP, &cap) || rdmsr_safe(MSR_MTRR_DEF_TYPE, &def))
		return -1;
	if (!((def >> 11) & 1))
		return 0; /* MTRRs disabled: all memory UC (12.11.2.1) */
	/* MAXPHYADDR: CPUID.80000008H:EAX[7:0], else 36 (SDM Vol. 3A 5.1.4). */
	uint32_t maxphys = c->max_ext >= 0x80000008u ? cpuid(0x80000008u, 0).eax & 0xFF : 36;
	if (maxphys < 32 || maxphys > 52)
		maxphys = maxphys > 52 ? 52 : 36;
	uint64_t addr_mask = ((1ull << maxphys) - 1) & ~0xFFFull;
	int n_uc = -1, n_wt = -1, n_wb = -1, n_other = -1, other = -1;
	for (int i = 0; i < (int)(cap & 0xFF); i++) {
		uint64_t base, mask;
		if (rdmsr_safe(MSR_MTRR_PHYSBASE0 + 2 * i, &base) ||
		    rdmsr_safe(MSR_MTRR_PHYSBASE0 + 2 * i + 1, &mask))
			return -1;
		if (!((mask >> 11) & 1)) /* V: the range is in use */
			continue;
		mask &= addr_mask;
		if ((pa & mask) != (base & mask))
			continue;
		int t = (int)(base & 0xFF);
		if (t == 0)
			n_uc = i;
		else if (t == 4)
			n_wt = i;
		else if (t == 6)
			n_wb = i;
		else if (other < 0 || other == t)
			other = t, n_other = i;
		else
			return -2;
	}
	/* 12.11.4.1: identical types are that type; UC wins; WT beats WB;
	 * any other mix is undefined. */
	if (n_uc >= 0)
		return *which = n_uc, 0;
	if (n_other >= 0) {
		if (n_wt >= 0 || n_wb >= 0)
			return -2;
		return *which = n_other, other;
	}
	if (n_wt >= 0)
		return *which = n_wt, 4;
	if (n_wb >= 0)
		return *which = n_wb, 6;
	return (int)(def & 0xFF);
}

/* apic_page_uc - set PCD and PWT in the 2 MiB page-directory entry that
 * maps pa (see the comment at the top). Returns 0, or -1 when the walk
 * does not end at a present 2 MiB page. */
static int apic_page_uc(uint64_t pa, uint64_t *before)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)(read_cr3() & PTE_ADDR);
	uint64_t e = pml4[(pa >> 39) & 511];
	if (!(e & PTE_P))
		return -1;
	uint64_t *pdpt = (uint64_t *)(uintptr_t)(e & PTE_ADDR);
	e = pdpt[(pa >> 30) & 511];
	if (!(e & PTE_P) || (e & PTE_PS))
		return -1;
	uint64_t *pd = (uint64_t *)(uintptr_t)(e & PTE_ADDR);
	volatile uint64_t *pde = &pd[(pa >> 21) & 511];
	*before = *pde;
	if (!(*before & PTE_P) || !(*before & PTE_PS))
		return -1;
	*pde = *before | PTE_PCD | PTE_PWT;
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

/* Results for the record. */
struct quiet_result {
	const char *apic;      /* "xapic", "x2apic", "disabled", "absent", "unreadable", "unmapped" */
	int max_lvt;           /* -1 unknown */
	int lvt_masked, lvt_failed;
	int lvt_nmi_kept; /* LINT1 left delivering NMIs */
	int timer_stopped;     /* 1 stopped, 0 failed, -1 not done */
	int irr, isr;          /* vectors pending / in service; -1 unknown */
	const char *deadline;  /* "cleared", "absent", "faulted" */
};

static void quiet_apic(const struct cpu_info *c, struct quiet_result *q)
{
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
	uint64_t base = base_msr & PTE_ADDR;
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
			fmt_format(mtrr, sizeof mtrr, "%s (variable range %d)", mem_type_name((uint64_t)t), range);
		else
			fmt_format(mtrr, sizeof mtrr, "%s (the default type)", mem_type_name((uint64_t)t));
		uint64_t pde, pat;
		int uc = apic_page_uc(base, &pde);
		/* PAT entry 3 (bits 26:24) is UC at power-up; without a PAT
		 * (CPUID.1:EDX[16]=0) PCD=1 alone means UC (12.5.1). */
		char pat3[48];
		if (rdmsr_safe(MSR_PAT, &pat))
			fmt_format(pat3, sizeof pat3, "no IA32_PAT: PCD=1 is UC");
		else
			fmt_format(pat3, sizeof pat3, "PAT entry 3 = %s", mem_type_name((pat >> 24) & 7));
		kprintf("quiet: local apic: xAPIC mode at 0x%llx (IA32_APIC_BASE=0x%llx); MTRR type of the "
			"page: %s; its 2 MiB page: %s%s%s\n", (unsigned long long)base,
			(unsigned long long)base_msr, mtrr,
			uc ? "NOT remapped (the walk did not end at a 2 MiB page): accesses are PAT WB + MTRR"
			   : (pde & (PTE_PCD | PTE_PWT)) == (PTE_PCD | PTE_PWT)
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

void quiet_timers(const struct cpu_info *c)
{
	struct quiet_result q = { .apic = "absent", .max_lvt = -1, .timer_stopped = -1, .irr = -1,
				  .isr = -1, .deadline = "absent" };

	uint8_t m = inb(0x21), s = inb(0xA1);
	kprintf("quiet: 8259 PIC: interrupt masks 0x%02x (master), 0x%02x (slave)%s\n", m, s,
		m == 0xFF && s == 0xFF ? ": all masked" : ": NOT all masked");

	uint8_t st = pit_stop_channel0();
	int pit_ok = st != 0xFF && (st & 0x3E) == 0x30 && !(st & 0x80);
	kprintf("quiet: PIT channel 0: %s (read-back status 0x%02x: %s)\n",
		pit_ok ? "stopped: mode 0 with no count loaded, OUT0 low" : "NOT confirmed stopped", st,
		st == 0xFF ? "no PIT answered" : pit_ok ? "lobyte/hibyte, mode 0, OUT0 = 0" : "unexpected");

	quiet_apic(c, &q);

	if (!((cpuid(1, 0).ecx >> 24) & 1)) {
		kprintf("quiet: IA32_TSC_DEADLINE: skipped: absent (CPUID.1:ECX[24]=0)\n");
	} else {
		uint64_t v = 0;
		int err = wrmsr_safe(MSR_TSC_DEADLINE, 0);
		if (!err)
			err = rdmsr_safe(MSR_TSC_DEADLINE, &v);
		q.deadline = err ? "faulted" : "cleared";
		if (err)
			kprintf("quiet: IA32_TSC_DEADLINE (MSR 6E0H): FAILED: %s\n", trap_fault_string(err));
		else
			kprintf("quiet: IA32_TSC_DEADLINE (MSR 6E0H): written 0, reads 0x%llx: disarmed\n",
				(unsigned long long)v);
	}

	kprintf("{\"rec\":\"quiet\",\"pic_masks\":[%u,%u],\"pit0_status\":%u,\"pit0_stopped\":%d,"
		"\"apic\":\"%s\",\"apic_max_lvt\":%d,\"lvt_masked\":%d,\"lvt_failed\":%d,\"lint1_nmi_kept\":%d,"
		"\"apic_timer_stopped\":%d,\"apic_irr\":%d,\"apic_isr\":%d,\"tsc_deadline\":\"%s\"}\n",
		m, s, st, pit_ok, q.apic, q.max_lvt, q.lvt_masked, q.lvt_failed, q.lvt_nmi_kept, q.timer_stopped, q.irr,
		q.isr, q.deadline);
}

/* The revision as SDM Vol. 3A 10.11.7.1 reads it (see quiet_microcode). */
static int microcode_read(const struct cpu_info *c, uint64_t *rev)
{
	uint64_t v;
	*rev = 0;
	if (is_intel(c)) {
		/* SDM Vol. 3A 10.11.7.1: clear, CPUID(1) loads the signature, read. */
		(void)wrmsr_safe(MSR_BIOS_SIGN_ID, 0);
		(void)cpuid(1, 0);
		if (rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
			return -1;
		*rev = v >> 32;
		return 0;
	}
	if (c->is_amd) {
		if (rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
			return -1;
		*rev = v & 0xFFFFFFFFu;
		return 0;
	}
	return -1;
}

int quiet_microcode(const struct cpu_info *c, uint64_t *rev)
{
	/* Read once: the revision cannot change during a run (nothing loads
	 * microcode), and on Intel the read writes the MSR. */
	static int read_done, result;
	static uint64_t revision;
	if (!read_done) {
		result = microcode_read(c, &revision);
		read_done = 1;
	}
	*rev = revision;
	return result;
}

int quiet_smi_count(const struct cpu_info *c, uint64_t *count)
{
	uint64_t v;
	*count = 0;
	if (!is_intel(c) || rdmsr_safe(MSR_SMI_COUNT, &v))
		return -1;
	*count = v & 0xFFFFFFFFu;
	return 0;
}

int quiet_ratios(const struct cpu_info *c, uint32_t *max_nonturbo, uint32_t *current)
{
	uint64_t v;
	int got = 0;
	*max_nonturbo = *current = 0;
	if (!is_intel(c))
		return 0;
	/* A ratio of 0 is no ratio: what QEMU TCG returns for an MSR it does
	 * not implement; it counts as not read. */
	if (!rdmsr_safe(MSR_PLATFORM_INFO, &v) && ((v >> 8) & 0xFF)) {
		*max_nonturbo = (uint32_t)(v >> 8) & 0xFF;
		got |= 1;
	}
	if (!rdmsr_safe(MSR_PERF_STATUS, &v) && ((v >> 8) & 0xFF)) {
		*current = (uint32_t)(v >> 8) & 0xFF;
		got |= 2;
	}
	return got;
}

/* The LFENCE check; returns 1 serializing, 0 not, -1 unknown. */
static int quiet_lfence(const struct cpu_info *c)
{
	if (is_intel(c)) {
		kprintf("quiet: lfence: dispatch-serializing on Intel (SDM Vol. 2A LFENCE: it does not "
			"execute until all prior instructions have completed locally)\n");
		return 1;
	}
	if (!c->is_amd) {
		kprintf("quiet: lfence: unknown on vendor %s (documented for Intel and AMD only): the LFENCE "
			"methods are skipped; the paper's CPUID and RDTSCP methods do not depend on it\n",
			c->vendor);
		return -1;
	}
	if (c->max_ext >= 0x80000021u && ((cpuid(0x80000021u, 0).eax >> 2) & 1)) {
		kprintf("quiet: lfence: always serializing (CPUID.80000021H:EAX[2]=1)\n");
		return 1;
	}
	uint64_t v, after;
	int err = rdmsr_safe(MSR_AMD_DE_CFG, &v);
	if (err) {
		kprintf("quiet: lfence: DE_CFG (MSR C0011029H) unreadable (%s) and CPUID.80000021H:EAX[2] "
			"not set: LFENCE may not be serializing\n", trap_fault_string(err));
		return -1;
	}
	if (v & 2) {
		kprintf("quiet: lfence: serializing: DE_CFG[1] already set (DE_CFG=0x%llx)\n",
			(unsigned long long)v);
		return 1;
	}
	err = wrmsr_safe(MSR_AMD_DE_CFG, v | 2);
	if (err) {
		kprintf("quiet: lfence: setting DE_CFG[1] FAILED (%s; DE_CFG=0x%llx): LFENCE may not be "
			"serializing\n", trap_fault_string(err), (unsigned long long)v);
		return 0;
	}
	err = rdmsr_safe(MSR_AMD_DE_CFG, &after);
	int ok = !err && (after & 2);
	kprintf("quiet: lfence: set DE_CFG[1] (0x%llx -> %s0x%llx): %s\n", (unsigned long long)v,
		err ? "unreadable, " : "", (unsigned long long)after,
		ok ? "serializing now" : "the bit did not stick: LFENCE may not be serializing");
	return ok;
}

/* A JSON number, or null when have is 0; buf holds 24 bytes. */
static const char *num_or_null(char *buf, int have, uint64_t v)
{
	if (!have)
		return "null";
	fmt_format(buf, 24, "%llu", (unsigned long long)v);
	return buf;
}

int quiet_cpu_report(const struct cpu_info *c)
{
	uint64_t ucode = 0, smi = 0, misc = 0;
	int have_ucode = quiet_microcode(c, &ucode) == 0;
	if (have_ucode)
		kprintf("quiet: microcode: revision 0x%llx (MSR 8BH, %s)\n", (unsigned long long)ucode,
			is_intel(c) ? "IA32_BIOS_SIGN_ID[63:32] after CPUID(1)" : "PATCH_LEVEL[31:0]");
	else
		kprintf("quiet: microcode: unknown (%s)\n",
			is_intel(c) || c->is_amd ? "MSR 8BH faulted" : "not Intel or AMD");

	int have_smi = quiet_smi_count(c, &smi) == 0;
	if (have_smi)
		kprintf("quiet: smi count: %llu since reset (MSR_SMI_COUNT 34H); read it around "
			"measurements to count SMIs inside\n", (unsigned long long)smi);
	else
		kprintf("quiet: smi count: %s\n", is_intel(c) ? "unreadable (MSR 34H faulted: before Nehalem, "
							       "or a hypervisor)"
							     : "skipped: MSR_SMI_COUNT is Intel's");

	uint32_t maxr, curr;
	int got = quiet_ratios(c, &maxr, &curr);
	int have_misc = is_intel(c) && rdmsr_safe(MSR_MISC_ENABLE, &misc) == 0;
	if (!is_intel(c)) {
		kprintf("quiet: ratios: skipped: MSR_PLATFORM_INFO and IA32_PERF_STATUS are Intel's "
			"(vendor %s)\n", c->vendor);
	} else {
		char r1[24], r2[24];
		kprintf("quiet: ratios: max non-turbo %s (MSR_PLATFORM_INFO[15:8]), current %s "
			"(IA32_PERF_STATUS[15:8]); x 100 MHz bus since Sandy Bridge\n",
			got & 1 ? num_or_null(r1, 1, maxr) : "unknown (faulted or 0)",
			got & 2 ? num_or_null(r2, 1, curr) : "unknown (faulted or 0)");
		if (have_misc)
			kprintf("quiet: turbo: %s (IA32_MISC_ENABLE[38]); EIST: %s (IA32_MISC_ENABLE[16])\n",
				(misc >> 38) & 1 ? "disabled" : "not disabled", (misc >> 16) & 1 ? "enabled" : "disabled");
		else
			kprintf("quiet: turbo/EIST: unknown (IA32_MISC_ENABLE unreadable)\n");
	}

	int lf = quiet_lfence(c);

	char j1[24], j2[24], j3[24], j4[24];
	kprintf("{\"rec\":\"machine\",\"microcode\":%s,\"smi_count\":%s,\"max_nonturbo_ratio\":%s,"
		"\"current_ratio\":%s,\"lfence_serializing\":%s}\n",
		num_or_null(j1, have_ucode, ucode), num_or_null(j2, have_smi, smi),
		num_or_null(j3, got & 1, maxr), num_or_null(j4, got & 2, curr),
		lf > 0 ? "true" : lf == 0 ? "false" : "null");
	return lf;
}

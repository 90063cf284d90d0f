/* kernel/lapic.h - the calling CPU's local APIC made quiet: every local
 * interrupt source masked, its timer stopped, a TSC deadline disarmed.
 *
 * The local APIC (SDM Vol. 3A chapter 11 "APIC"; 2023 and later editions,
 * chapter 10 in older ones) is found through IA32_APIC_BASE (MSR 1BH,
 * 11.4.4): bit 11 globally enabled, bit 10 x2APIC mode. In xAPIC mode its
 * registers are MMIO at the base in that MSR, in x2APIC mode MSRs 800H +
 * offset/16 (11.12). Interrupts stay off for the whole run (RFLAGS.IF =
 * 0), so none of this is to keep an interrupt out of a measurement: a
 * running timer costs a hypervisor's host time whether or not the guest
 * takes it, and an armed one is state nobody chose (kernel/quiet.h). Every
 * MSR access goes through the safe accessors (kernel/trap.h): what a CPU
 * or hypervisor lacks is reported as "#GP", never fatal.
 */
#ifndef KERNEL_LAPIC_H
#define KERNEL_LAPIC_H

#include "probe.h"

/* What lapic_quiet found and did, for the "quiet" record. */
struct lapic_quiet {
	const char *apic;  /* "xapic", "x2apic", "disabled", "absent", "unreadable", "unmapped" */
	int max_lvt;       /* the version register's Max LVT Entry; -1 unknown */
	int lvt_masked, lvt_failed; /* LVT entries masked now, and those that would not */
	int lvt_nmi_kept;  /* LINT1 left delivering NMIs */
	int timer_stopped; /* 1 stopped, 0 failed, -1 not done */
	int irr, isr;      /* vectors pending / in service; -1 unknown */
};

/* lapic_quiet - the local APIC, when present (CPUID.1:EDX[9]) and
 * globally enabled, in xAPIC or x2APIC mode: its page is made uncacheable
 * (xAPIC mode; see lapic.c), every LVT entry the version register's Max
 * LVT Entry field says exists gets its mask bit (16) set (SDM Vol. 3A
 * 11.5.1), as Linux's clear_local_APIC() does: timer 320H, LINT0 350H,
 * LINT1 360H, error 370H (max LVT >= 3), performance counters 340H (>= 4),
 * thermal 330H (>= 5), CMCI 2F0H (>= 6); the timer's initial count (380H)
 * is written 0, which stops it in one-shot and periodic modes (SDM Vol. 3A
 * 11.5.4); IRR and ISR are counted. LINT1 wired for NMI stays unmasked:
 * masking it would block the external NMIs wired to it (chipset NMI
 * button, SERR, IOCHK), which are counted per ensemble instead
 * (trap_nmi_count). One "quiet: local apic" or "quiet: apic" line per
 * step done or skipped, with the reason; *q says what was done. Never
 * faults. */
void lapic_quiet(const struct cpu_info *c, struct lapic_quiet *q);

/* lapic_deadline_disarm - IA32_TSC_DEADLINE (MSR 6E0H) written 0, which
 * disarms a deadline (SDM Vol. 3A 11.5.4.1), and read back, when
 * CPUID.1:ECX[24] says it exists. One "quiet: IA32_TSC_DEADLINE" line.
 * Returns "cleared", "absent" or "faulted". Never faults. */
const char *lapic_deadline_disarm(void);

/* The local APIC registers a firmware programs and lapic_quiet changes:
 * SVR, TPR, the LVT entries Max LVT Entry says exist, the timer's divide
 * configuration and initial count (SDM Vol. 3A 11.4-11.5). */
struct lapic_saved {
	int valid;            /* 1: read; 0: no usable local APIC (nothing to restore) */
	int x2;               /* x2APIC mode when read */
	uint32_t svr, tpr, tdcr, ticr;
	uint32_t lvt[7];      /* in the order of lapic.c's lvts[]; ~0u: absent */
};

/* lapic_save - read *s from this CPU's local APIC (xAPIC below 4 GiB or
 * x2APIC, as IA32_APIC_BASE says); s->valid 0 when there is none, it is
 * disabled, above 4 GiB, or a read faults. Prints nothing.
 * lapic_restore - write them back (SVR first, the initial count last, so
 * the timer starts only with its LVT entry and divider as they were);
 * nothing when !s->valid or the mode changed. Both for the firmware after
 * a UEFI run (kernel/efi.c). Never fault. */
void lapic_save(struct lapic_saved *s);
void lapic_restore(const struct lapic_saved *s);

#endif

/* kernel/watchdog.h - a bound on the user's code (code=): a one-shot timer
 * whose interrupt reaches the CPU running the code as an NMI, which no
 * RFLAGS.IF = 0 and no CLI in the code can hold off (SDM Vol. 3A 7.7
 * "Nonmaskable Interrupt (NMI)"), so that code that never ends (code=ebfe,
 * jmp $) is stopped and reported as a fault, and the run goes on.
 *
 * The timer and its route, first found first used:
 *   1. the HPET's timer 0 in legacy replacement mode (IA-PC HPET 1.0a:
 *      General Configuration LEG_RT_CNF, 2.3.5, and 2.4 "Interrupt
 *      Mapping": timer 0 drives IRQ0 of the 8259s and input 2 of the I/O
 *      APIC in place of the 8254, which then interrupts nobody; QEMU's
 *      hw/timer/hpet.c does the same), non-periodic (one shot), the
 *      comparator the bound ahead of the main counter; a HPET without
 *      LEG_RT_CAP (General Capabilities bit 15) is not used;
 *   2. else PIT channel 0 (mode 2, the rate generator: one edge every 65536
 *      input periods, 54.9 ms; 82C54 data sheet), counted in the NMI
 *      handler until the bound has passed; each period before the last is
 *      an NMI that may land in a measured window, so it is counted as a
 *      disturbance (trap_nmi_count), never hidden;
 * both through the I/O APIC input that ISA IRQ 0 reaches (the MADT's
 * interrupt source override, lib/irqroute.h), whose redirection entry is
 * written with delivery mode NMI (100b), edge-triggered as NMI requires,
 * physical destination the calling CPU's APIC ID (82093AA I/O APIC data
 * sheet 3.2.4; SDM Vol. 3A 11.11.2 for the same message format), unmasked
 * only while armed. Without either, one line says so and code= runs
 * unbounded.
 *
 * Interrupts stay off throughout: nothing here needs RFLAGS.IF. Only the
 * CPU running the code is the destination, so per-CPU runs (cpus=) bound
 * each CPU's code in turn. kernel/trap.c asks watchdog_nmi() about every
 * NMI first.
 */
#ifndef KERNEL_WATCHDOG_H
#define KERNEL_WATCHDOG_H

#include <stdint.h>

/* The vector a trap frame carries when kernel/trap.c hands a watchdog NMI
 * to trap_hook: 256, no vector of the IDT's, so no exception is taken for it. */
#define WATCHDOG_VECTOR 256

/* The bound's limits (milliseconds): at least a second, whatever the
 * code's expected time, at most a few. */
#define WATCHDOG_MIN_MS 1000u
#define WATCHDOG_MAX_MS 3000u

/* watchdog_init - find the timer and the I/O APIC input (above), stop and
 * mask both, and print one "watchdog:" line saying which, or why none.
 * Call once on the boot CPU after acpi_init and quiet_timers, before the
 * first watchdog_arm. */
void watchdog_init(void);

/* watchdog_arm - start the bound: ms milliseconds (WATCHDOG_MIN_MS ..
 * WATCHDOG_MAX_MS, clamped) from now an NMI reaches the calling CPU.
 * Returns 0 when armed, -1 when there is no watchdog or the calling CPU's
 * APIC ID (above 255) cannot be an I/O APIC's physical destination (said
 * once). Re-arming an armed watchdog restarts it. */
int watchdog_arm(uint32_t ms);

/* watchdog_disarm - stop the timer, then mask the input, so no NMI comes
 * after it returns. Harmless when not armed. */
void watchdog_disarm(void);

/* watchdog_release - disarm it and give the timer back as it was found (no watchdog afterwards):
 * the HPET's General Configuration (legacy replacement off again, so the
 * PIT reaches IRQ 0 and the 8259 as before, IA-PC HPET 1.0a 2.3.9.1) and
 * the I/O APIC entry as found (masked). For the firmware after a UEFI run
 * (kernel/efi.c). Harmless when watchdog_init never ran. */
void watchdog_release(void);

/* What watchdog_nmi says of an NMI. */
enum watchdog_nmi {
	WATCHDOG_NOT_MINE = 0, /* not the watchdog's (or a PIT period before the bound) */
	WATCHDOG_FIRED = 1,    /* the bound passed: the watchdog is disarmed */
	WATCHDOG_ABSORBED = 2, /* an edge the I/O APIC held while masked, taken at init */
};

/* watchdog_nmi - called by kernel/trap.c for every NMI, first: whether
 * this one is the watchdog's, on the CPU it is armed for, with its bound
 * passed (the HPET's main counter at or past the comparator; the PIT's
 * periods counted). Never faults, prints nothing. */
enum watchdog_nmi watchdog_nmi(void);

/* watchdog_rearm - from the NMI handler, after WATCHDOG_FIRED when the
 * NMI did not find the CPU in the code (it was in a handler the code
 * entered, e.g. a single step's #DB): the same bound once more, unless a
 * watchdog_disarm was under way. */
void watchdog_rearm(void);

/* watchdog_bound_ms - the bound of the last arming, milliseconds (0 none). */
uint32_t watchdog_bound_ms(void);

/* watchdog_timer - "HPET timer 0", "PIT channel 0", or "none". */
const char *watchdog_timer(void);

#endif

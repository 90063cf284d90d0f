/* lib/irqroute.h - where an ISA IRQ reaches an I/O APIC, from the MADT
 * (ACPI 6.5 5.2.12): its interrupt source overrides (5.2.12.5) and its I/O
 * APIC entries (5.2.12.3). Used by kernel/watchdog.c to find the input the
 * PIT's and the HPET's legacy interrupt (ISA IRQ 0) drives. Pure: host-
 * tested on made-up tables (tests/unit/test_irqroute.c) and on real
 * machines' MADTs (tests/unit/test_acpi_corpus.c).
 */
#ifndef LIB_IRQROUTE_H
#define LIB_IRQROUTE_H

#include <stdint.h>
#include "acpi.h"

struct irq_route {
	uint32_t gsi;     /* the global system interrupt */
	int ioapic;       /* its I/O APIC: an index into acpi_info.ioapics */
	uint32_t pin;     /* that I/O APIC's input (redirection entry): gsi - its GSI base */
	int active_low;   /* polarity: 0 active high, 1 active low */
	int level;        /* trigger mode: 0 edge, 1 level */
	int overridden;   /* 1 when an interrupt source override said so */
};

/* irq_route_isa - the route of ISA IRQ irq (0..15): the MADT's interrupt
 * source override for bus 0 (ISA) and that source, when there is one
 * (its GSI, and its MPS INTI flags, ACPI 6.5 table 5.26: polarity bits
 * 1:0 and trigger mode bits 3:2, where 00 "conforms to the bus" means, for
 * ISA, active high and edge); else the identity, GSI = irq, active high,
 * edge (5.2.12.5: ISA interrupts not overridden are identity-mapped). The
 * I/O APIC is the kept one whose GSI base is the largest not above the
 * GSI (the number of its inputs is in its own version register, not in
 * ACPI: the caller checks pin against it). Returns NULL and *r, or why
 * not, one phrase: no MADT, no I/O APIC, IRQ out of range, reserved
 * flags (10b), no kept I/O APIC at or below the GSI. */
const char *irq_route_isa(const struct acpi_info *in, unsigned irq, struct irq_route *r);

#endif

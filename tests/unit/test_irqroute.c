/* tests/unit/test_irqroute.c - lib/irqroute.c: an ISA IRQ's I/O APIC
 * input from the MADT's overrides and I/O APICs (ACPI 6.5 5.2.12.3,
 * 5.2.12.5): the identity without an override, the override's GSI and
 * flags, the I/O APIC covering the GSI among several, and every refusal. */
#include <string.h>
#include "check.h"
#include "../../lib/irqroute.h"

static struct acpi_info in;

/* QEMU's q35 MADT: one I/O APIC at GSI 0, ISA IRQ 0 -> GSI 2, and the PCI
 * interrupts 5, 9, 10, 11 level-triggered active high (flags 0x000D). */
static void qemu_like(void)
{
	memset(&in, 0, sizeof in);
	in.madt_ok = 1;
	in.nioapics = 1;
	in.ioapics[0] = (struct acpi_ioapic){ .id = 0, .address = 0xFEC00000, .gsi_base = 0 };
	in.overrides[in.noverrides++] = (struct acpi_override){ .bus = 0, .source = 0, .gsi = 2, .flags = 0 };
	in.overrides[in.noverrides++] = (struct acpi_override){ .bus = 0, .source = 9, .gsi = 9, .flags = 0xD };
}

int main(void)
{
	struct irq_route r;
	qemu_like();
	CHECK(!irq_route_isa(&in, 0, &r) && r.gsi == 2 && r.ioapic == 0 && r.pin == 2 && !r.active_low && !r.level &&
		      r.overridden, "IRQ 0: GSI 2, input 2, active high, edge, overridden (gsi %u pin %u)", r.gsi, r.pin);
	CHECK(!irq_route_isa(&in, 9, &r) && r.gsi == 9 && !r.active_low && r.level, "IRQ 9: level, active high (0xD)");
	CHECK(!irq_route_isa(&in, 8, &r) && r.gsi == 8 && r.pin == 8 && !r.overridden && !r.level,
	      "IRQ 8: no override, the identity, edge");
	in.overrides[1].flags = 0xF;
	CHECK(!irq_route_isa(&in, 9, &r) && r.active_low && r.level, "flags 0xF: active low, level");
	in.overrides[1].flags = 0x2;
	CHECK_STR(irq_route_isa(&in, 9, &r), "its interrupt source override has reserved flags (10b)",
		  "polarity 10b is reserved");
	in.overrides[0].bus = 1;
	CHECK(!irq_route_isa(&in, 0, &r) && r.gsi == 0 && !r.overridden, "an override of another bus is not ISA's");
	CHECK_STR(irq_route_isa(&in, 16, &r), "not an ISA IRQ (0-15)", "IRQ 16 refused");

	qemu_like(); /* two I/O APICs: GSI 0-23 and 24-47, listed in reverse */
	in.nioapics = 2;
	in.ioapics[1] = in.ioapics[0];
	in.ioapics[0] = (struct acpi_ioapic){ .id = 1, .address = 0xFEC01000, .gsi_base = 24 };
	in.overrides[0].gsi = 30;
	CHECK(!irq_route_isa(&in, 0, &r) && r.ioapic == 0 && r.pin == 6, "GSI 30: the second I/O APIC, input 6");
	in.overrides[0].gsi = 2;
	CHECK(!irq_route_isa(&in, 0, &r) && r.ioapic == 1 && r.pin == 2, "GSI 2: the first I/O APIC, input 2");
	in.ioapics[1].gsi_base = 8;
	CHECK_STR(irq_route_isa(&in, 0, &r), "no I/O APIC of the MADT has its GSI", "no I/O APIC at or below GSI 2");
	in.ioapics[1].gsi_base = 0, in.ioapics[1].address = 0;
	CHECK_STR(irq_route_isa(&in, 0, &r), "no I/O APIC of the MADT has its GSI", "an entry with address 0 is none");

	qemu_like();
	in.nioapics = 0;
	CHECK_STR(irq_route_isa(&in, 0, &r), "the MADT lists no I/O APIC", "no I/O APIC");
	in.madt_ok = 0;
	CHECK_STR(irq_route_isa(&in, 0, &r), "no MADT", "no MADT");
	return check_summary("irqroute");
}

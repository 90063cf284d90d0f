/* lib/irqroute.c - see irqroute.h. */
#include "irqroute.h"

const char *irq_route_isa(const struct acpi_info *in, unsigned irq, struct irq_route *r)
{
	*r = (struct irq_route){ .gsi = irq, .ioapic = -1 };
	if (!in->madt_ok)
		return "no MADT";
	if (in->nioapics == 0)
		return "the MADT lists no I/O APIC";
	if (irq > 15)
		return "not an ISA IRQ (0-15)";
	for (int i = 0; i < in->noverrides; i++) {
		const struct acpi_override *o = &in->overrides[i];
		if (o->bus != 0 || o->source != irq)
			continue;
		unsigned pol = o->flags & 3, trig = (o->flags >> 2) & 3;
		if (pol == 2 || trig == 2)
			return "its interrupt source override has reserved flags (10b)";
		r->gsi = o->gsi, r->overridden = 1;
		r->active_low = pol == 3, r->level = trig == 3;
		break;
	}
	int kept = in->nioapics < ACPI_MAX_IOAPICS ? in->nioapics : ACPI_MAX_IOAPICS;
	for (int i = 0; i < kept; i++) {
		const struct acpi_ioapic *a = &in->ioapics[i];
		if (a->address && a->gsi_base <= r->gsi &&
		    (r->ioapic < 0 || a->gsi_base > in->ioapics[r->ioapic].gsi_base))
			r->ioapic = i;
	}
	if (r->ioapic < 0)
		return "no I/O APIC of the MADT has its GSI";
	r->pin = r->gsi - in->ioapics[r->ioapic].gsi_base;
	return 0;
}

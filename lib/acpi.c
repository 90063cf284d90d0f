/* lib/acpi.c - see acpi.h. Offsets are the spec's tables': RSDP 5-27,
 * system description header 5-29, MADT 5-43 and its entries 5-46 (type 0),
 * 5.2.12.3 (type 1), 5.2.12.5 (type 2), 5-62 (type 5) and 5-64 (type 9), FADT 5-35, HPET (IA-PC HPET 1.0a,
 * table 3). */
#include "acpi.h"

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int same(const uint8_t *p, const char *s, int n)
{
	for (int i = 0; i < n; i++)
		if (p[i] != (uint8_t)s[i])
			return 0;
	return 1;
}

static void problem(struct acpi_info *in, const char *what)
{
	if (in->nproblems < ACPI_MAX_PROBLEMS)
		in->problems[in->nproblems++] = what;
}

uint8_t acpi_checksum(const uint8_t *p, uint64_t len)
{
	uint8_t s = 0;
	for (uint64_t i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

int acpi_rsdp_valid(const uint8_t *p, uint64_t len)
{
	if (len < 20 || !same(p, "RSD PTR ", 8) || acpi_checksum(p, 20))
		return 0;
	if (p[15] >= 2) {
		uint32_t l = rd32(p + 20);
		if (l < 36 || l > len || acpi_checksum(p, l))
			return 0;
	}
	return 1;
}

/* Whether a valid RSDP is at physical address a (its extended part read
 * with its own Length for revision 2 and later). */
static int rsdp_at(acpi_map_fn map, void *ctx, uint64_t a)
{
	const uint8_t *p = map(ctx, a, 20);
	if (!p || !same(p, "RSD PTR ", 8) || acpi_checksum(p, 20))
		return 0;
	if (p[15] < 2)
		return 1;
	uint32_t l = rd32(p + 20);
	const uint8_t *q = l >= 36 ? map(ctx, a, l) : 0;
	return q && acpi_rsdp_valid(q, l);
}

uint64_t acpi_find_rsdp(acpi_map_fn map, void *ctx, uint64_t base, uint64_t len)
{
	for (uint64_t a = (base + 15) & ~15ull; a + 20 <= base + len; a += 16)
		if (rsdp_at(map, ctx, a))
			return a;
	return 0;
}

/* A table: its header, then all of it; 0 when unreadable. */
static const uint8_t *table_at(acpi_map_fn map, void *ctx, uint64_t addr, struct acpi_table *t)
{
	const uint8_t *h = map(ctx, addr, 36);
	if (!h)
		return 0;
	uint32_t len = rd32(h + 4);
	const uint8_t *p = len >= 36 ? map(ctx, addr, len) : 0;
	for (int i = 0; i < 4; i++)
		t->sig[i] = (char)((h[i] >= 0x20 && h[i] < 0x7F) ? h[i] : '?');
	t->sig[4] = '\0';
	t->addr = addr;
	t->length = len;
	t->revision = h[8];
	t->checksum_ok = p && acpi_checksum(p, len) == 0;
	return p;
}

static void parse_madt(const uint8_t *p, uint32_t len, struct acpi_info *in)
{
	in->madt_ok = 1;
	in->lapic_addr = rd32(p + 36);
	in->madt_flags = rd32(p + 40);
	for (uint32_t o = 44; o + 2 <= len;) {
		uint8_t type = p[o], l = p[o + 1];
		if (l < 2 || o + l > len) {
			problem(in, "MADT: an entry runs past the table's end; the rest is ignored");
			break;
		}
		const uint8_t *e = p + o;
		struct acpi_cpu c = { 0 };
		int cpu = 0;
		if (type == 0 && l >= 8) { /* Processor Local APIC */
			c.uid = e[2], c.apic_id = e[3];
			uint32_t f = rd32(e + 4);
			c.enabled = f & 1, c.online_capable = (f >> 1) & 1;
			cpu = 1;
		} else if (type == 9 && l >= 16) { /* Processor Local x2APIC */
			c.apic_id = rd32(e + 4);
			uint32_t f = rd32(e + 8);
			c.enabled = f & 1, c.online_capable = (f >> 1) & 1;
			c.uid = rd32(e + 12);
			c.x2apic = 1;
			cpu = 1;
		} else if (type == 5 && l >= 12) { /* Local APIC Address Override */
			in->lapic_addr = rd64(e + 4);
			in->lapic_override = 1;
		} else if (type == 1) { /* I/O APIC */
			if (l >= 12 && in->nioapics < ACPI_MAX_IOAPICS)
				in->ioapics[in->nioapics] = (struct acpi_ioapic){ .id = e[2], .address = rd32(e + 4),
										 .gsi_base = rd32(e + 8) };
			in->nioapics++;
		} else if (type == 2 && l >= 10 && in->noverrides < ACPI_MAX_OVERRIDES) { /* Interrupt Source Override */
			in->overrides[in->noverrides++] = (struct acpi_override){ .bus = e[2], .source = e[3],
										  .gsi = rd32(e + 4), .flags = rd16(e + 8) };
		}
		if (cpu) {
			if (in->ncpus < in->cpus_room)
				in->cpus[in->ncpus++] = c;
			else
				in->cpus_dropped++;
		}
		o += l;
	}
}

static void gas(const uint8_t *p, struct acpi_gas *g)
{
	g->space = p[0], g->bit_width = p[1], g->bit_offset = p[2], g->access_size = p[3];
	g->address = rd64(p + 4);
}

static void parse_fadt(const uint8_t *p, uint32_t len, struct acpi_info *in)
{
	if (len < 116) {
		problem(in, "FADT: shorter than the 116 bytes of ACPI 1.0; not used");
		return;
	}
	in->fadt_ok = 1;
	in->fadt_revision = p[8];
	uint32_t flags = rd32(p + 112);
	in->pm_tmr_port = p[91] >= 4 ? rd32(p + 76) : 0; /* PM_TMR_LEN must be 4 */
	in->pm_tmr_32bit = (flags >> 8) & 1;
	if (len >= 129) {
		in->reset_supported = (flags >> 10) & 1;
		gas(p + 116, &in->reset_reg);
		in->reset_value = p[128];
	}
	if (len >= 220) { /* X_PM_TMR_BLK (ACPI 2.0+), when in system I/O space */
		struct acpi_gas x;
		gas(p + 208, &x);
		if (x.address && x.space == 1)
			in->pm_tmr_port = (uint32_t)x.address;
	}
}

static void parse_hpet(const uint8_t *p, uint32_t len, struct acpi_info *in)
{
	if (len < 56) {
		problem(in, "HPET: shorter than its 56 bytes; not used");
		return;
	}
	struct acpi_gas g;
	gas(p + 40, &g);
	if (g.space != 0) {
		problem(in, "HPET: its base address is not in memory space; not used");
		return;
	}
	in->hpet_ok = 1;
	in->hpet_base = g.address;
	in->hpet_number = p[52];
	in->hpet_min_tick = rd16(p + 53);
}

/* The root table sig at addr when it is readable, says sig and checks out. */
static const uint8_t *root_table(acpi_map_fn map, void *ctx, uint64_t addr, const char *sig, struct acpi_table *t)
{
	const uint8_t *p = addr ? table_at(map, ctx, addr, t) : 0;
	return p && t->checksum_ok && same(p, sig, 4) ? p : 0;
}

const char *acpi_reset_refusal(const struct acpi_info *in)
{
	const struct acpi_gas *g = &in->reset_reg;
	return !in->rsdp_found ? "no ACPI tables" : !in->fadt_ok ? "no usable FADT"
		: !in->reset_supported ? "the FADT does not support it (RESET_REG_SUP = 0)"
		: g->space > 1 ? "it is in PCI configuration space (not written here)"
		: g->space == 1 && !g->address ? "its I/O address is 0"
		: g->space == 1 && g->address > 0xFFFF ? "its I/O address is past 0xFFFF"
		: g->space == 0 && (!g->address || g->address >= 0x100000000ull)
			? "its memory address is 0 or outside the identity-mapped 4 GiB" : 0;
}

void acpi_parse(acpi_map_fn map, void *ctx, uint64_t rsdp, struct acpi_info *in)
{
	struct acpi_cpu *room = in->cpus;
	int n = in->cpus_room < 0 || !room ? 0 : in->cpus_room < ACPI_MAX_CPUS ? in->cpus_room : ACPI_MAX_CPUS;
	*in = (struct acpi_info){ .cpus = room, .cpus_room = n };
	const uint8_t *r = rsdp && rsdp_at(map, ctx, rsdp) ? map(ctx, rsdp, 20) : 0;
	if (!r) {
		problem(in, rsdp ? "RSDP: bad signature or checksum" : "RSDP: not found");
		return;
	}
	if (r[15] >= 2)
		r = map(ctx, rsdp, 36);
	in->rsdp_found = 1;
	in->rsdp_addr = rsdp;
	in->revision = r[15];
	for (int i = 0; i < 6; i++)
		in->oem[i] = (char)((r[9 + i] >= 0x20 && r[9 + i] < 0x7F) ? r[9 + i] : '?');
	uint64_t xsdt = in->revision >= 2 ? rd64(r + 24) : 0;
	uint64_t rsdt = rd32(r + 16);
	in->xsdt_addr = xsdt;
	struct acpi_table root;
	const uint8_t *p = xsdt ? root_table(map, ctx, xsdt, "XSDT", &root) : 0;
	if (xsdt && !p) {
		in->xsdt_refused = 1;
		problem(in, rsdt ? "XSDT: unreadable, bad signature or bad checksum; the RSDT is used instead"
				 : "XSDT: unreadable, bad signature or bad checksum, and no RSDT; no tables used");
		if (!rsdt) {
			in->use_xsdt = 1, in->root_addr = xsdt;
			return;
		}
	}
	in->use_xsdt = p != 0;
	in->root_addr = p ? xsdt : rsdt;
	if (!p && !(p = root_table(map, ctx, rsdt, "RSDT", &root))) {
		problem(in, "RSDT: unreadable, bad signature or bad checksum; no tables used");
		return;
	}
	int entry = in->use_xsdt ? 8 : 4;
	in->root_ok = 1;
	for (uint32_t o = 36; o + (uint32_t)entry <= root.length; o += (uint32_t)entry) {
		uint64_t a = entry == 8 ? rd64(p + o) : rd32(p + o);
		if (in->ntables >= ACPI_MAX_TABLES) {
			in->tables_truncated = 1;
			break;
		}
		struct acpi_table *t = &in->tables[in->ntables++];
		const uint8_t *tp = table_at(map, ctx, a, t);
		if (!tp) {
			t->sig[0] = '?', t->sig[1] = '?', t->sig[2] = '?', t->sig[3] = '?', t->sig[4] = 0;
			t->addr = a;
			continue;
		}
		if (!t->checksum_ok)
			continue;
		if (same(tp, "APIC", 4) && !in->madt_ok && t->length >= 44)
			parse_madt(tp, t->length, in);
		else if (same(tp, "FACP", 4) && !in->fadt_ok)
			parse_fadt(tp, t->length, in);
		else if (same(tp, "HPET", 4) && !in->hpet_ok)
			parse_hpet(tp, t->length, in);
	}
}

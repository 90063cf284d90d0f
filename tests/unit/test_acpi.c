/* tests/unit/test_acpi.c - lib/acpi.c on tables made here in a fake
 * physical memory: the RSDP scan, XSDT and RSDT, MADT (local APIC, x2APIC,
 * address override), FADT (PM timer, 32-bit flag, X_PM_TMR_BLK, reset
 * register), HPET; bad checksums, truncated entries, unreadable tables;
 * issue 20: the XSDT refused for the RSDT, 768 and more processor entries,
 * the reset register at address 0. */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "../../lib/acpi.h"

#define MEM (1u << 20)
static uint8_t mem[MEM];

static const uint8_t *map(void *ctx, uint64_t phys, uint64_t len)
{
	(void)ctx;
	return phys < MEM && len <= MEM - phys ? mem + phys : 0;
}

static void w16(uint32_t a, uint16_t v) { mem[a] = (uint8_t)v, mem[a + 1] = (uint8_t)(v >> 8); }
static void w32(uint32_t a, uint32_t v) { w16(a, (uint16_t)v), w16(a + 2, (uint16_t)(v >> 16)); }
static void w64(uint32_t a, uint64_t v) { w32(a, (uint32_t)v), w32(a + 4, (uint32_t)(v >> 32)); }

static void fix(uint32_t a, uint32_t len, uint32_t csum_at)
{
	mem[csum_at] = 0;
	mem[csum_at] = (uint8_t)(0x100 - acpi_checksum(mem + a, len));
}

static void header(uint32_t a, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(mem + a, sig, 4);
	w32(a + 4, len);
	mem[a + 8] = rev;
	memcpy(mem + a + 10, "BOCHS ", 6);
}

#define RSDP 0xE0010
#define XSDT 0x1000
#define RSDT 0x1100
#define MADT 0x2000
#define FADT 0x3000
#define HPET 0x4000
#define SSDT 0x5000

static void build(int rev)
{
	memset(mem, 0, sizeof mem);
	memcpy(mem + RSDP, "RSD PTR ", 8);
	memcpy(mem + RSDP + 9, "BOCHS ", 6);
	mem[RSDP + 15] = (uint8_t)rev;
	w32(RSDP + 16, RSDT);
	if (rev >= 2) {
		w32(RSDP + 20, 36);
		w64(RSDP + 24, XSDT);
	}
	fix(RSDP, 20, RSDP + 8); /* the first 20 bytes, then all 36 */
	if (rev >= 2)
		fix(RSDP, 36, RSDP + 32);
	uint32_t tabs[] = { MADT, FADT, HPET, SSDT };
	header(XSDT, "XSDT", 36 + 8 * 4, 1);
	header(RSDT, "RSDT", 36 + 4 * 4, 1);
	for (int i = 0; i < 4; i++) {
		w64(XSDT + 36 + 8 * i, tabs[i]);
		w32(RSDT + 36 + 4 * i, tabs[i]);
	}
	fix(XSDT, 36 + 32, XSDT + 9);
	fix(RSDT, 36 + 16, RSDT + 9);
	/* MADT: LAPIC 0 (enabled), LAPIC 1 (online capable), x2APIC 300, IOAPIC, override */
	uint32_t o = MADT + 44;
	header(MADT, "APIC", 44 + 8 + 8 + 16 + 12 + 12 + 10, 4);
	w32(MADT + 36, 0xFEE00000);
	w32(MADT + 40, 1);
	mem[o] = 0, mem[o + 1] = 8, mem[o + 2] = 0, mem[o + 3] = 0, w32(o + 4, 1), o += 8;
	mem[o] = 0, mem[o + 1] = 8, mem[o + 2] = 1, mem[o + 3] = 2, w32(o + 4, 2), o += 8;
	mem[o] = 9, mem[o + 1] = 16, w32(o + 4, 300), w32(o + 8, 1), w32(o + 12, 7), o += 16;
	mem[o] = 1, mem[o + 1] = 12, mem[o + 2] = 4, w32(o + 4, 0xFEC00000), w32(o + 8, 0), o += 12;
	mem[o] = 2, mem[o + 1] = 10, mem[o + 2] = 0, mem[o + 3] = 0, w32(o + 4, 2), w16(o + 8, 0), o += 10;
	mem[o] = 5, mem[o + 1] = 12, w64(o + 4, 0x1FEE00000ull), o += 12;
	fix(MADT, o - MADT, MADT + 9);
	/* FADT revision 5, 276 bytes: PM timer 0x608, 32-bit, reset by I/O 0xCF9 = 6 */
	header(FADT, "FACP", 276, 5);
	w32(FADT + 76, 0x608);
	mem[FADT + 91] = 4;
	w32(FADT + 112, (1u << 8) | (1u << 10));
	mem[FADT + 116] = 1, mem[FADT + 117] = 8, w64(FADT + 120, 0xCF9);
	mem[FADT + 128] = 6;
	mem[FADT + 208] = 1, mem[FADT + 209] = 32, w64(FADT + 212, 0x608);
	fix(FADT, 276, FADT + 9);
	header(HPET, "HPET", 56, 1);
	w32(HPET + 36, 0x8086A201);
	mem[HPET + 40] = 0, w64(HPET + 44, 0xFED00000);
	mem[HPET + 52] = 0, w16(HPET + 53, 128);
	fix(HPET, 56, HPET + 9);
	header(SSDT, "SSDT", 40, 1);
	fix(SSDT, 40, SSDT + 9);
}

/* The processor entries' room (lib/acpi.h: the caller's), as large as it
 * may be; acpi_parse keeps it across parses. */
static struct acpi_cpu room[ACPI_MAX_CPUS];
static struct acpi_info in = { .cpus = room, .cpus_room = ACPI_MAX_CPUS };

static void test_full(void)
{
	build(2);
	CHECK_EQ_U64(acpi_find_rsdp(map, 0, 0xE0000, 0x20000), RSDP,
	             "RSDP found by the scan of E0000h-FFFFFh");
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.rsdp_found && in.use_xsdt && in.root_ok,
	      "ACPI 2.0 RSDP: root table is the XSDT and it checks out");
	CHECK_EQ_U64(in.nproblems, 0, "well-formed tables: no problems");
	CHECK_STR(in.oem, "BOCHS ", "OEM ID from the RSDP");
	CHECK_EQ_U64(in.ntables, 4, "XSDT lists 4 tables");
	CHECK_STR(in.tables[0].sig, "APIC", "XSDT's first table is the MADT");
	CHECK_STR(in.tables[3].sig, "SSDT", "XSDT's last table is the SSDT");
	for (int i = 0; i < 4; i++)
		CHECK(in.tables[i].checksum_ok, "table %d's checksum", i);
	CHECK(in.madt_ok, "MADT parsed");
	CHECK_EQ_U64(in.ncpus, 3, "MADT: two local APICs and one x2APIC");
	CHECK(in.cpus[0].apic_id == 0 && in.cpus[0].enabled && !in.cpus[0].online_capable,
	      "MADT: LAPIC 0 enabled, not online capable");
	CHECK(in.cpus[1].apic_id == 2 && in.cpus[1].uid == 1 && !in.cpus[1].enabled && in.cpus[1].online_capable,
	      "MADT: LAPIC ID 2 (UID 1) online capable, not enabled");
	CHECK(in.cpus[2].apic_id == 300 && in.cpus[2].x2apic && in.cpus[2].uid == 7 && in.cpus[2].enabled,
	      "MADT: x2APIC ID 300 (UID 7) enabled");
	CHECK_EQ_U64(in.nioapics, 1, "MADT: one I/O APIC");
	CHECK(in.ioapics[0].id == 4 && in.ioapics[0].address == 0xFEC00000 && in.ioapics[0].gsi_base == 0,
	      "MADT: I/O APIC ID 4 at 0xFEC00000, GSI base 0");
	CHECK(in.noverrides == 1 && in.overrides[0].bus == 0 && in.overrides[0].source == 0 &&
		      in.overrides[0].gsi == 2 && in.overrides[0].flags == 0,
	      "MADT: the override of ISA IRQ 0 to GSI 2, flags 0");
	CHECK(in.lapic_override, "MADT: local APIC address override present");
	CHECK_EQ_U64(in.lapic_addr, 0x1FEE00000ull, "MADT: override's 64-bit local APIC address");
	CHECK(in.fadt_ok && in.fadt_revision == 5, "FADT revision 5 parsed");
	CHECK_EQ_U64(in.pm_tmr_port, 0x608, "FADT: PM timer at I/O port 608h");
	CHECK(in.pm_tmr_32bit && in.reset_supported,
	      "FADT: 32-bit PM timer (TMR_VAL_EXT), reset register supported");
	CHECK(in.reset_reg.space == 1 && in.reset_reg.address == 0xCF9 && in.reset_value == 6,
	      "FADT: reset by writing 6 to I/O port CF9h");
	CHECK(in.hpet_ok, "HPET table parsed");
	CHECK_EQ_U64(in.hpet_base, 0xFED00000, "HPET base address");
	CHECK_EQ_U64(in.hpet_min_tick, 128, "HPET minimum clock tick");
}

static void test_rsdt_only(void)
{
	build(0);
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.rsdp_found && !in.use_xsdt && in.root_ok,
	      "ACPI 1.0 RSDP: root table is the RSDT and it checks out");
	CHECK_EQ_U64(in.root_addr, RSDT, "root table address is the RSDT's");
	CHECK_EQ_U64(in.ntables, 4, "RSDT lists 4 tables");
	CHECK(in.madt_ok && in.fadt_ok && in.hpet_ok, "RSDT: MADT, FADT and HPET parsed");
}

static void test_bad_checksums(void)
{
	build(2);
	mem[MADT + 50] ^= 1; /* a byte of the MADT: listed, not used */
	acpi_parse(map, 0, RSDP, &in);
	CHECK(!in.tables[0].checksum_ok && !in.madt_ok && in.fadt_ok,
	      "bad MADT checksum: listed but not used; FADT still parsed");
	CHECK_EQ_U64(in.ncpus, 0, "bad MADT checksum: no CPUs taken from it");
	build(2);
	mem[RSDP + 30] ^= 1; /* the extended checksum */
	CHECK_EQ_U64(acpi_find_rsdp(map, 0, 0xE0000, 0x20000), 0,
	             "bad extended RSDP checksum: the scan finds no RSDP");
	acpi_parse(map, 0, RSDP, &in);
	CHECK(!in.rsdp_found && in.nproblems == 1, "bad RSDP: not found, one problem");
	CHECK_STR(in.problems[0], "RSDP: bad signature or checksum", "bad RSDP's problem text");
	acpi_parse(map, 0, 0, &in);
	CHECK_STR(in.problems[0], "RSDP: not found", "no RSDP address: the problem says not found");
}

/* Issue 20 item 11: an XSDT that fails its checksum is refused and the
 * RSDT, which lists the same tables, is used; said as one problem. */
static void test_xsdt_falls_back_to_rsdt(void)
{
	build(2);
	mem[XSDT + 40] ^= 1;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.rsdp_found && in.root_ok && !in.use_xsdt && in.xsdt_refused,
	      "bad XSDT checksum: the XSDT is refused, the RSDT used");
	CHECK_EQ_U64(in.root_addr, RSDT, "bad XSDT checksum: the root table is the RSDT");
	CHECK_EQ_U64(in.xsdt_addr, XSDT, "bad XSDT checksum: the XSDT's address is kept for the line");
	CHECK(in.ntables == 4 && in.madt_ok && in.fadt_ok && in.hpet_ok,
	      "bad XSDT checksum: the RSDT's 4 tables, MADT, FADT and HPET parsed");
	CHECK(in.nproblems == 1 && in.problems[0] && strstr(in.problems[0], "the RSDT is used instead"),
	      "bad XSDT checksum: one problem saying the RSDT is used instead");
	build(2);
	memcpy(mem + XSDT, "XSDU", 4); /* a wrong signature, checksum fixed */
	fix(XSDT, 36 + 32, XSDT + 9);
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.root_ok && !in.use_xsdt && in.ncpus == 3, "XSDT with a wrong signature: the RSDT is used");
	build(2);
	mem[XSDT + 40] ^= 1;
	mem[RSDT + 40] ^= 1;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.rsdp_found && !in.root_ok && in.ntables == 0 && in.nproblems == 2,
	      "bad XSDT and bad RSDT checksums: no tables, two problems");
	build(2);
	w32(RSDP + 16, 0); /* no RSDT named */
	fix(RSDP, 20, RSDP + 8);
	fix(RSDP, 36, RSDP + 32);
	mem[XSDT + 40] ^= 1;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(!in.root_ok && in.use_xsdt && in.root_addr == XSDT && in.nproblems == 1,
	      "bad XSDT and no RSDT: no tables, one problem, the XSDT named");
}

static void test_damaged_entries(void)
{
	build(2);
	mem[MADT + 44 + 1] = 200; /* the first entry's length runs past the end */
	fix(MADT, 44 + 66, MADT + 9);
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.madt_ok && in.ncpus == 0 && in.nproblems == 1,
	      "MADT entry running past the end: no CPUs, one problem");
	build(2);
	w64(XSDT + 36 + 8 * 3, 0x7FFFFFFFull); /* unreadable table */
	fix(XSDT, 36 + 32, XSDT + 9);
	acpi_parse(map, 0, RSDP, &in);
	CHECK_EQ_U64(in.ntables, 4, "unreadable table still listed");
	CHECK_STR(in.tables[3].sig, "????", "unreadable table's signature shows as ????");
	CHECK(!in.tables[3].checksum_ok && in.madt_ok,
	      "unreadable table fails its checksum; MADT still parsed");
	build(2);
	mem[HPET + 40] = 1; /* I/O space: not usable */
	fix(HPET, 56, HPET + 9);
	acpi_parse(map, 0, RSDP, &in);
	CHECK(!in.hpet_ok && in.nproblems == 1, "HPET in I/O space: not usable, one problem");
}

/* Issue 20 item 10: a two-socket EPYC 9965 with SMT lists 768 x2APIC
 * entries; all are kept, the boot CPU's among them wherever it is; past
 * ACPI_MAX_CPUS the dropped entries are counted. */
#define MADT2 0x10000
static void x2apic_madt(int n)
{
	uint32_t len = 44 + 16 * (uint32_t)n;
	header(MADT2, "APIC", len, 5);
	w32(MADT2 + 36, 0xFEE00000);
	for (int i = 0; i < n; i++) {
		uint32_t o = MADT2 + 44 + 16 * (uint32_t)i;
		mem[o] = 9, mem[o + 1] = 16, w32(o + 4, 2u * (uint32_t)i), w32(o + 8, 1), w32(o + 12, (uint32_t)i);
	}
	fix(MADT2, len, MADT2 + 9);
	w64(XSDT + 36, MADT2);
	fix(XSDT, 36 + 32, XSDT + 9);
}

static void test_many_cpus(void)
{
	build(2);
	x2apic_madt(768);
	acpi_parse(map, 0, RSDP, &in);
	CHECK_EQ_U64(in.ncpus, 768, "768 x2APIC entries (two EPYC 9965 with SMT): all kept");
	CHECK_EQ_U64(in.cpus_dropped, 0, "768 x2APIC entries: none dropped");
	CHECK(in.cpus[700].apic_id == 1400 && in.cpus[700].uid == 700 && in.cpus[700].x2apic && in.cpus[700].enabled,
	      "entry 700 (past the old bound of 512): x2APIC ID 1400, UID 700, enabled");
	CHECK(in.nproblems == 0, "768 x2APIC entries: no problem");
	build(2);
	x2apic_madt(ACPI_MAX_CPUS + 100);
	acpi_parse(map, 0, RSDP, &in);
	CHECK_EQ_U64(in.ncpus, ACPI_MAX_CPUS, "ACPI_MAX_CPUS + 100 entries: ACPI_MAX_CPUS kept");
	CHECK_EQ_U64(in.cpus_dropped, 100, "ACPI_MAX_CPUS + 100 entries: 100 counted as dropped");
	CHECK_EQ_U64(in.cpus[ACPI_MAX_CPUS - 1].uid, ACPI_MAX_CPUS - 1, "the last kept entry is the bound's");
	/* A smaller room (kernel/acpi.c's first parse): the first entries
	 * kept, the rest counted, so the caller knows how many to make room
	 * for; no room at all keeps none; a room above the bound is held to it. */
	in.cpus_room = 16;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.ncpus == 16 && in.cpus_dropped == ACPI_MAX_CPUS + 100 - 16,
	      "room for 16: 16 kept, %d counted as dropped (expected %d)", in.cpus_dropped, ACPI_MAX_CPUS + 100 - 16);
	CHECK(in.cpus == room && in.cpus_room == 16 && in.cpus[15].uid == 15, "room for 16: the caller's room kept, "
	      "the 16th entry UID 15");
	in.cpus_room = 0;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.ncpus == 0 && in.cpus_dropped == ACPI_MAX_CPUS + 100 && in.madt_ok, "no room: none kept, all %d "
	      "counted, the MADT still read", ACPI_MAX_CPUS + 100);
	in.cpus_room = ACPI_MAX_CPUS + 5;
	acpi_parse(map, 0, RSDP, &in);
	CHECK(in.ncpus == ACPI_MAX_CPUS && in.cpus_room == ACPI_MAX_CPUS, "a room above ACPI_MAX_CPUS: held to it");
	in.cpus_room = ACPI_MAX_CPUS;
}

/* Issue 20 item 12: a reset register at address 0 is refused in I/O space
 * as in memory space; the usable ones are not. */
static void test_reset_refusal(void)
{
	build(2);
	acpi_parse(map, 0, RSDP, &in);
	CHECK(acpi_reset_refusal(&in) == 0, "I/O 0xCF9: the reset register is usable");
	in.reset_reg.address = 0;
	CHECK_STR(acpi_reset_refusal(&in), "its I/O address is 0", "I/O address 0: refused");
	in.reset_reg.space = 0;
	CHECK_STR(acpi_reset_refusal(&in), "its memory address is 0 or outside the identity-mapped 4 GiB",
		  "memory address 0: refused");
	in.reset_reg.address = 0xFEE00000;
	CHECK(acpi_reset_refusal(&in) == 0, "memory 0xFEE00000: usable");
	in.reset_reg.space = 1, in.reset_reg.address = 0x10000;
	CHECK_STR(acpi_reset_refusal(&in), "its I/O address is past 0xFFFF", "I/O 0x10000: refused");
	in.reset_reg.space = 2;
	CHECK_STR(acpi_reset_refusal(&in), "it is in PCI configuration space (not written here)", "PCI space: refused");
	in.reset_supported = 0;
	CHECK_STR(acpi_reset_refusal(&in), "the FADT does not support it (RESET_REG_SUP = 0)",
		  "RESET_REG_SUP = 0: refused");
	in.fadt_ok = 0;
	CHECK_STR(acpi_reset_refusal(&in), "no usable FADT", "no FADT: refused");
	in.rsdp_found = 0;
	CHECK_STR(acpi_reset_refusal(&in), "no ACPI tables", "no RSDP: refused");
}

int main(void)
{
	test_full();
	test_rsdt_only();
	test_bad_checksums();
	test_damaged_entries();
	test_xsdt_falls_back_to_rsdt();
	test_many_cpus();
	test_reset_refusal();
	return check_summary("acpi");
}

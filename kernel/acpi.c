/* kernel/acpi.c - see acpi.h. */
#include "acpi.h"
#include "bios.h"
#include "config.h"
#include "console.h"
#include "mem.h"
#include "paging.h"
#include "../lib/fmt.h"
#include "../lib/record.h"

struct acpi_info acpi;

/* The MADT's processor entries (lib/acpi.h struct acpi_info cpus): room
 * for ACPI_CPUS_ALONE in the image, enough for most machines a test or a
 * lab boots; a MADT listing more is parsed again into room for all of
 * them (at most ACPI_MAX_CPUS) from the pool (room_for_all). */
#define ACPI_CPUS_ALONE 16
static struct acpi_cpu cpus_alone[ACPI_CPUS_ALONE];
uint64_t acpi_hpet_period_fs;

/* The tables lie in RAM the firmware reserved (ACPI reclaim or NVS),
 * below 4 GiB (identity-mapped by boot/entry.asm) or above, where
 * kernel/paging.c maps them write-back; beyond MAXPHYADDR it says why. */
static const uint8_t *map(void *ctx, uint64_t phys, uint64_t len)
{
	(void)ctx;
	if (!phys)
		return 0;
	const uint8_t *p = paging_map(phys, len, PG_WB, "acpi table");
	if (!p)
		kprintf("%s\n", paging_refusal());
	return p;
}

static uint64_t find_rsdp(const struct boot_info *bi, const char **where)
{
	if (bi->rsdp_len >= 20) {
		*where = "the multiboot2 ACPI tag's copy";
		return (uint64_t)bi->rsdp;
	}
	uint64_t ebda = bios_ebda();
	uint64_t a = ebda ? acpi_find_rsdp(map, 0, ebda, 1024) : 0;
	*where = "the EBDA";
	if (!a) {
		a = acpi_find_rsdp(map, 0, 0xE0000, 0x20000);
		*where = "the BIOS area 0E0000h-0FFFFFh";
	}
	return a;
}

static int sig_is(const char *a, const char *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* Test only (test.acpi_corrupt=): flip the checksum byte of the table
 * called sig (the XSDT or RSDT in use included), or, for "RST0", zero the
 * FADT's reset register address and fix its checksum (a valid FADT with a
 * reset register at address 0). */
static void corrupt_table(const char *sig)
{
	int rst0 = sig_is(sig, "RST0");
	uint64_t at = acpi.root_ok && sig_is(sig, acpi.use_xsdt ? "XSDT" : "RSDT") ? acpi.root_addr : 0;
	uint32_t len = 0;
	for (int i = 0; i < acpi.ntables && !at; i++) {
		struct acpi_table *t = &acpi.tables[i];
		if (sig_is(t->sig, rst0 ? "FACP" : sig) && t->length > (rst0 ? 128u : 36u))
			at = t->addr, len = t->length;
	}
	if (!at) {
		kprintf("test: test.acpi_corrupt=%s: no such table\n", sig);
		return;
	}
	volatile uint8_t *p = (volatile uint8_t *)at;
	if (rst0) {
		for (int i = 120; i < 128; i++) /* RESET_REG's Address (ACPI 6.5 table 5.9) */
			p[i] = 0;
		p[9] = 0;
		p[9] = (uint8_t)(0x100 - acpi_checksum((const uint8_t *)p, len));
		kprintf("test: test.acpi_corrupt=RST0: the FADT's reset register address at 0x%llx set to 0, "
			"its checksum fixed\n", (unsigned long long)at);
		return;
	}
	p[9] ^= 0x5A; /* its checksum byte */
	kprintf("test: test.acpi_corrupt=%s: flipped the checksum byte of the table at 0x%llx\n", sig,
		(unsigned long long)at);
}

static void hpet_period(void)
{
	acpi_hpet_period_fs = 0;
	/* Its registers: 1 KiB of MMIO, mapped UC (its 2 MiB page). */
	const volatile uint64_t *regs = acpi.hpet_ok && acpi.hpet_base ? paging_map(acpi.hpet_base, 1024, PG_UC, "HPET") : 0;
	if (!regs) {
		if (acpi.hpet_ok && acpi.hpet_base)
			kprintf("%s\n", paging_refusal());
		return;
	}
	uint64_t cap = regs[0];
	uint64_t p = cap >> 32;
	if (p > 0 && p <= 100000000ull) /* at most 100 ns (the specification) */
		acpi_hpet_period_fs = p;
}

/* room_for_all - when the MADT has more processor entries than the
 * room, parse again into room for all of them (at most ACPI_MAX_CPUS) from
 * the pool; without the memory, one line with the bytes it needed, and
 * the first ones stay. */
static void room_for_all(uint64_t rsdp)
{
	if (!acpi.cpus_dropped || acpi.cpus_room >= ACPI_MAX_CPUS)
		return;
	int want = acpi.ncpus + acpi.cpus_dropped < ACPI_MAX_CPUS ? acpi.ncpus + acpi.cpus_dropped : ACPI_MAX_CPUS;
	uint64_t bytes = (uint64_t)want * sizeof(struct acpi_cpu);
	struct acpi_cpu *room = mem_alloc(bytes);
	if (!room) {
		kprintf("acpi: MADT: no memory for its %d processor entries (%llu bytes, %llu free): the first %d "
			"are kept\n", acpi.ncpus + acpi.cpus_dropped, (unsigned long long)bytes,
			(unsigned long long)mem_free_bytes(), acpi.ncpus);
		return;
	}
	acpi.cpus = room;
	acpi.cpus_room = want;
	acpi_parse(map, 0, rsdp, &acpi);
}

void acpi_init(const struct boot_info *bi, const char *corrupt)
{
	const char *where = "";
	uint64_t rsdp = find_rsdp(bi, &where);
	acpi.cpus = cpus_alone;
	acpi.cpus_room = ACPI_CPUS_ALONE;
	acpi_parse(map, 0, rsdp, &acpi);
	if (corrupt && corrupt[0] && acpi.rsdp_found) {
		corrupt_table(corrupt);
		acpi_parse(map, 0, rsdp, &acpi);
	}
	room_for_all(rsdp);
	hpet_period();
	if (!acpi.rsdp_found) {
		kprintf("acpi: %s (looked in %s): no ACPI tables; the HPET, the PM timer and the MADT's CPU list "
			"are unknown\n", acpi.problems[0], bi->rsdp_len ? "the multiboot2 tag" :
			"the multiboot2 tags, the EBDA and 0E0000h-0FFFFFh");
	} else {
		char list[ACPI_MAX_TABLES * 12];
		int n = 0;
		list[0] = '\0';
		for (int i = 0; i < acpi.ntables; i++)
			n += fmt_format(list + n, sizeof list - (size_t)n, " %s%s", acpi.tables[i].sig,
					acpi.tables[i].checksum_ok ? "" : " (BAD CHECKSUM: not used)");
		kprintf("acpi: RSDP revision %u from %s, OEM \"%s\"; %s at 0x%llx: %d tables:%s\n", acpi.revision,
			where, acpi.oem, acpi.use_xsdt ? "XSDT" : "RSDT", (unsigned long long)acpi.root_addr,
			acpi.ntables, acpi.root_ok ? list : " none read");
	}
	for (int i = acpi.rsdp_found ? 0 : 1; i < acpi.nproblems; i++)
		kprintf("acpi: %s\n", acpi.problems[i]);
	if (acpi.madt_ok) {
		int enabled = 0, capable = 0;
		char ids[160];
		int n = 0;
		ids[0] = '\0';
		for (int i = 0; i < acpi.ncpus; i++) {
			enabled += acpi.cpus[i].enabled;
			capable += !acpi.cpus[i].enabled && acpi.cpus[i].online_capable;
			if (acpi.cpus[i].enabled && n < (int)sizeof ids - 16)
				n += fmt_format(ids + n, sizeof ids - (size_t)n, "%s%u", n ? " " : "",
						acpi.cpus[i].apic_id);
		}
		kprintf("acpi: MADT: local APIC at 0x%llx%s; CPUs enabled: %d (APIC IDs %s%s), online-capable: %d, "
			"listed: %d; I/O APICs: %d\n", (unsigned long long)acpi.lapic_addr,
			acpi.lapic_override ? " (address override)" : "", enabled, ids,
			n >= (int)sizeof ids - 16 ? " ..." : "", capable, acpi.ncpus, acpi.nioapics);
		if (acpi.cpus_dropped)
			kprintf("acpi: MADT: %d more processor entries past the first %d dropped (%s): those CPUs "
				"are not listed and not started\n", acpi.cpus_dropped, acpi.ncpus,
				acpi.cpus_room >= ACPI_MAX_CPUS ? "ACPI_MAX_CPUS, lib/acpi.h" : "no memory for more, said above");
	} else if (acpi.root_ok) {
		kprintf("acpi: MADT: none usable: the CPU list is unknown\n");
	}
	if (acpi.fadt_ok) {
		char pm[64], reset[96];
		if (acpi.pm_tmr_port)
			fmt_format(pm, sizeof pm, "at I/O 0x%x, %s", acpi.pm_tmr_port,
				   acpi.pm_tmr_32bit ? "32-bit (TMR_VAL_EXT)" : "24-bit");
		else
			fmt_format(pm, sizeof pm, "none");
		if (acpi.reset_supported)
			fmt_format(reset, sizeof reset, "%s 0x%llx, value 0x%x",
				   acpi.reset_reg.space == 1 ? "I/O" : acpi.reset_reg.space == 0 ? "memory" : "PCI configuration",
				   (unsigned long long)acpi.reset_reg.address, acpi.reset_value);
		else
			fmt_format(reset, sizeof reset, "not supported (FADT flags RESET_REG_SUP = 0)");
		kprintf("acpi: FADT revision %u: PM timer %s; reset register %s\n", acpi.fadt_revision, pm, reset);
	} else if (acpi.root_ok) {
		kprintf("acpi: FADT: none usable: no PM timer\n");
	}
	if (acpi.hpet_ok)
		kprintf("acpi: HPET: base 0x%llx, number %u; counter period %llu fs%s\n",
			(unsigned long long)acpi.hpet_base, acpi.hpet_number,
			(unsigned long long)acpi_hpet_period_fs,
			acpi_hpet_period_fs ? " (its General Capabilities register)"
					    : ": out of range (0 or over 100 ns): not used");
	else if (acpi.root_ok)
		kprintf("acpi: HPET: no HPET table\n");
	if (config_json()) {
		int enabled = 0, bad = 0;
		for (int i = 0; i < acpi.ncpus; i++)
			enabled += acpi.cpus[i].enabled;
		for (int i = 0; i < acpi.ntables; i++)
			bad += !acpi.tables[i].checksum_ok;
		struct rec r;
		rec_begin(&r, "acpi");
		rec_bool(&r, "rsdp", acpi.rsdp_found);
		rec_u64(&r, "revision", acpi.revision);
		rec_i64(&r, "tables", acpi.ntables);
		rec_i64(&r, "bad_checksums", bad);
		rec_i64(&r, "cpus_enabled", enabled);
		rec_i64(&r, "cpus_listed", acpi.ncpus);
		rec_u64(&r, "lapic", acpi.lapic_addr);
		rec_u64(&r, "pm_timer_port", acpi.pm_tmr_port);
		rec_i64(&r, "pm_timer_bits", acpi.pm_tmr_port ? (acpi.pm_tmr_32bit ? 32 : 24) : 0);
		rec_bool(&r, "reset_supported", acpi.reset_supported);
		rec_u64(&r, "hpet_base", acpi.hpet_ok ? acpi.hpet_base : 0);
		rec_u64(&r, "hpet_period_fs", acpi_hpet_period_fs);
		rec_i64(&r, "problems", acpi.nproblems);
		rec_end(&r);
	}
}

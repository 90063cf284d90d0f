/* lib/acpi.h - the ACPI tables the benchmark needs (ACPI 6.5, chapter 5):
 * the RSDP (5.2.5), the XSDT or RSDT (5.2.8, 5.2.7), the MADT (5.2.12:
 * processor local APIC and local x2APIC entries, the local APIC address
 * override), the FADT (5.2.9: the PM timer block, the reset register) and
 * the HPET table (IA-PC HPET specification 1.0a, 3.2.4). Every checksum is
 * checked; a table with a bad one is listed but not used. Freestanding:
 * physical memory is read through a callback, so the parser is host-tested
 * on made-up tables (tests/unit/test_acpi.c); kernel/acpi.c gives it the
 * identity-mapped memory.
 */
#ifndef LIB_ACPI_H
#define LIB_ACPI_H

#include <stdint.h>

/* acpi_map_fn - a pointer to len bytes of physical memory at phys, or
 * NULL when they are not readable (outside the mapped memory). */
typedef const uint8_t *(*acpi_map_fn)(void *ctx, uint64_t phys, uint64_t len);

#define ACPI_MAX_TABLES 64
/* The MADT's processor entries kept: 4096. The entries are counted, not
 * their IDs (x2APIC IDs are 32-bit and sparse), and the largest x86
 * machines list far fewer: a two-socket EPYC 9965 has 768 threads, a
 * 32-socket HPE Superdome Flex 1,792; firmware may add disabled entries
 * for hot-plug. The entries are kept in the caller's room (struct
 * acpi_info cpus, cpus_room, at most this many: 20 bytes each); kernel/
 * acpi.c, kernel/smp.c and bench/percpu.c (SMP_MAX_CPUS follows this) take
 * theirs, about 250 bytes a CPU in all, from the pool for the CPUs listed,
 * not for this most. An entry past the room is counted in cpus_dropped and
 * said on its own line (kernel/acpi.c). */
#define ACPI_MAX_CPUS 4096
#define ACPI_MAX_PROBLEMS 8
/* The MADT's I/O APIC entries kept (a 32-socket server has 32; more are
 * counted in nioapics, not kept) and its interrupt source overrides (one
 * per ISA IRQ at most: 16). */
#define ACPI_MAX_IOAPICS 16
#define ACPI_MAX_OVERRIDES 16

struct acpi_table {
	char sig[5];
	uint64_t addr;
	uint32_t length;
	uint8_t revision;
	int checksum_ok;
};

struct acpi_cpu {
	uint32_t apic_id;    /* local APIC ID (x2APIC ID for type 9 entries) */
	uint32_t uid;        /* ACPI processor UID */
	int enabled;         /* flags bit 0 */
	int online_capable;  /* flags bit 1 (ACPI 6.3+): may be enabled by the OS */
	int x2apic;          /* from a local x2APIC entry (type 9) */
};

/* An I/O APIC entry of the MADT (type 1, ACPI 6.5 5.2.12.3). */
struct acpi_ioapic {
	uint8_t id;          /* its I/O APIC ID */
	uint32_t address;    /* its registers' physical address */
	uint32_t gsi_base;   /* the global system interrupt of its input 0 */
};

/* An interrupt source override of the MADT (type 2, ACPI 6.5 5.2.12.5):
 * ISA IRQ source is wired to global system interrupt gsi; flags are the
 * MPS INTI flags (table 5.26): bits 1:0 polarity, 3:2 trigger mode. */
struct acpi_override {
	uint8_t bus, source;
	uint32_t gsi;
	uint16_t flags;
};

/* A Generic Address Structure (ACPI 6.5, 5.2.3.2). */
struct acpi_gas {
	uint8_t space;  /* 0 memory, 1 system I/O, 2 PCI configuration */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address;
};

struct acpi_info {
	int rsdp_found;
	uint64_t rsdp_addr;
	uint8_t revision;       /* RSDP revision: 0 ACPI 1.0 (RSDT), 2+ (XSDT) */
	char oem[7];
	int use_xsdt;
	uint64_t root_addr;     /* the XSDT or RSDT used */
	int root_ok;
	int xsdt_refused;       /* the XSDT failed (unreadable, signature, checksum): the RSDT was tried */
	uint64_t xsdt_addr;     /* the RSDP's XSDT address (revision >= 2), 0 when none */

	struct acpi_table tables[ACPI_MAX_TABLES];
	int ntables, tables_truncated;

	int madt_ok;
	uint64_t lapic_addr;    /* the MADT's 32-bit address, or the override */
	int lapic_override;
	uint32_t madt_flags;    /* bit 0 PCAT_COMPAT: 8259s present */
	/* The processor entries kept, MADT order: the caller's room, set
	 * before acpi_parse (which keeps it): cpus[0..cpus_room-1], cpus_room
	 * at most ACPI_MAX_CPUS (0: none kept, every entry counted in
	 * cpus_dropped). Room the caller sizes once it knows the count
	 * (ncpus + cpus_dropped of a parse with less), so no table for the
	 * most CPUs has to be in the image. */
	struct acpi_cpu *cpus;
	int cpus_room;
	int ncpus, nioapics;     /* nioapics: every I/O APIC entry, kept or not */
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS]; /* the first ACPI_MAX_IOAPICS, MADT order */
	struct acpi_override overrides[ACPI_MAX_OVERRIDES];
	int noverrides;          /* kept; those past ACPI_MAX_OVERRIDES are dropped */
	int cpus_dropped;        /* processor entries past cpus_room (ACPI_MAX_CPUS at most): not kept */

	int fadt_ok;
	uint8_t fadt_revision;
	uint32_t pm_tmr_port;   /* 0: none */
	int pm_tmr_32bit;       /* FADT flags TMR_VAL_EXT (bit 8) */
	int reset_supported;    /* FADT flags RESET_REG_SUP (bit 10) */
	struct acpi_gas reset_reg;
	uint8_t reset_value;

	int hpet_ok;
	uint64_t hpet_base;     /* memory space address */
	uint8_t hpet_number;
	uint16_t hpet_min_tick;

	const char *problems[ACPI_MAX_PROBLEMS]; /* one clear line each */
	int nproblems;
};

/* acpi_rsdp_valid - whether p[0..len-1] is an RSDP: signature "RSD PTR ",
 * the 20-byte checksum, and for revision >= 2 the extended checksum over
 * its Length (at least 36). Returns 1 or 0. */
int acpi_rsdp_valid(const uint8_t *p, uint64_t len);

/* acpi_find_rsdp - scan [base, base + len) on 16-byte boundaries, as the
 * spec says for the EBDA's first KiB and 0E0000h-0FFFFFh (5.2.5.1);
 * returns the address or 0. */
uint64_t acpi_find_rsdp(acpi_map_fn map, void *ctx, uint64_t base, uint64_t len);

/* acpi_parse - read everything from the RSDP at rsdp into *info. Never
 * fails: what cannot be read or checks wrong is a problem line and is
 * left out. The root table is the XSDT when the RSDP (revision >= 2) has
 * one (ACPI 6.5 5.2.5.3); an XSDT that cannot be read or fails its
 * signature or checksum is refused and the RSDT, when the RSDP names one,
 * is used instead, said as a problem line. (ACPICA does otherwise: its
 * AcpiTbParseRootTable, tables/tbutils.c, verifies the root table with
 * AcpiUtVerifyChecksum, which only warns, ACPI_CHECKSUM_ABORT being FALSE,
 * and uses the XSDT anyway; from 2013 to 2014 its AcpiTbValidateXsdt fell
 * back to the RSDT for an XSDT too short or holding a NULL entry. Here a
 * table that fails its checksum is never used, so the RSDT, which carries
 * the same tables, is the one left.) */
void acpi_parse(acpi_map_fn map, void *ctx, uint64_t rsdp, struct acpi_info *info);
/* (Everything in *info is set anew but cpus and cpus_room, the caller's
 * room for the processor entries, see above.) */

/* acpi_reset_refusal - why the FADT's reset register (ACPI 6.5 4.8.3.6;
 * FADT RESET_REG, RESET_VALUE, flags RESET_REG_SUP) cannot be written by
 * kernel/exit.c, one phrase, or NULL when it can: it must be in system I/O
 * space at an address 1..0FFFFh, or in memory space at 1..4 GiB - 1 (the
 * identity map); address 0 is no register in either space (firmware that
 * has none fills the structure with zeros). */
const char *acpi_reset_refusal(const struct acpi_info *info);

/* acpi_checksum - the byte sum of p[0..len-1] modulo 256 (0 for a valid table). */
uint8_t acpi_checksum(const uint8_t *p, uint64_t len);

#endif

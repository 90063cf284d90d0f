/* tests/unit/test_paging.c - lib/paging.c on tables in an array laid out
 * as boot/entry.asm lays out CR3's (PML4 -> one PDPT -> four PDs of 2 MiB
 * pages, 0..4 GiB): indexes, bounds, 1 GiB and 2 MiB pages, types through
 * the PAT, splits, the pool running out. */
#include <stdint.h>
#include "check.h"
#include "../../lib/paging.h"

#define TABLES 16
#define PHYS0 0x100000ull /* the "physical" address of tables[0] */

static uint64_t tables[TABLES][512] __attribute__((aligned(4096)));
static int used;  /* tables handed out, boot's included */
static int limit; /* the pool: at most this many */

static uint64_t *table(void *ctx, uint64_t pa)
{
	(void)ctx;
	if (pa < PHYS0 || pa >= PHYS0 + TABLES * 4096ull || (pa & 4095))
		return 0;
	return tables[(pa - PHYS0) / 4096];
}

static uint64_t alloc(void *ctx)
{
	(void)ctx;
	if (used >= limit)
		return 0;
	return PHYS0 + 4096ull * (uint64_t)used++;
}

/* The boot map: tables 0 (PML4), 1 (PDPT), 2..5 (PDs), WB 2 MiB pages. */
static struct pg_tables boot(int maxphyaddr, int has_1g, int pool)
{
	memset(tables, 0, sizeof tables);
	tables[0][0] = (PHYS0 + 4096) | 3;
	for (int i = 0; i < 4; i++) {
		tables[1][i] = (PHYS0 + 4096ull * (2 + (uint64_t)i)) | 3;
		for (int j = 0; j < 512; j++)
			tables[2 + i][j] = ((uint64_t)(i * 512 + j) << 21) | 0x83;
	}
	used = 6;
	limit = 6 + pool;
	return (struct pg_tables){ .root = PHYS0, .table = table, .alloc = alloc,
				   .maxphyaddr = maxphyaddr, .has_1g = has_1g };
}

/* The leaf that maps a, through the tables: its entry, and *size. */
static uint64_t leaf(uint64_t a, uint64_t *size)
{
	uint64_t e = tables[0][pg_index(a, 4)];
	*size = 0;
	if (!(e & PG_P))
		return 0;
	e = table(0, e & PG_ADDR)[pg_index(a, 3)];
	if (!(e & PG_P) || (e & PG_PS)) {
		*size = PG_SIZE_1G;
		return e;
	}
	e = table(0, e & PG_ADDR)[pg_index(a, 2)];
	*size = PG_SIZE_2M;
	return e;
}

/* Whether a is mapped, to itself, with type t. */
static int maps(uint64_t a, enum pg_type t)
{
	uint64_t size, e = leaf(a, &size);
	return (e & (PG_P | PG_PS)) == (PG_P | PG_PS) && (e & PG_ADDR & ~(size - 1)) == (a & ~(size - 1)) &&
	       pg_type_of(e) == t;
}

int main(void)
{
	struct pg_result r;
	uint64_t size;

	/* Indexes: 0x0000_7F80_4020_1000 is PML4 255, PDPT 1, PD 1, PT 1. */
	uint64_t va = (255ull << 39) | (1ull << 30) | (1ull << 21) | (1ull << 12);
	CHECK(pg_index(va, 4) == 255 && pg_index(va, 3) == 1 && pg_index(va, 2) == 1 && pg_index(va, 1) == 1);
	CHECK(pg_index(0x100000000ull, 3) == 4 && pg_index(0x100000000ull, 2) == 0);

	/* Types through the PAT: WB entry 0, UC entry 3 (PCD, PWT), WC entry 4. */
	CHECK_EQ_U64(pg_type_bits(PG_WB), 0);
	CHECK_EQ_U64(pg_type_bits(PG_UC), 0x18);
	CHECK_EQ_U64(pg_type_bits(PG_WC), 0x1000);
	CHECK(pg_type_of(0x83) == PG_WB && pg_type_of(0x1083) == PG_WC && pg_type_of(0x9B) == PG_UC);
	CHECK(pg_type_of(0x8B) == PG_UC && pg_type_of(0x1093) == PG_UC); /* WT, UC- in entries 1, 6 */

	/* Bounds: MAXPHYADDR, canonical, empty, wrapping. */
	CHECK(pg_check(0, 0, 40) == PG_EMPTY);
	CHECK(pg_check(~0ull - 4095, 8192, 52) == PG_EMPTY);
	CHECK(pg_check((1ull << 40) - 4096, 4096, 40) == PG_OK);
	CHECK(pg_check((1ull << 40) - 4096, 4097, 40) == PG_BEYOND_MAXPHYADDR);
	CHECK(pg_check(1ull << 40, 1, 40) == PG_BEYOND_MAXPHYADDR);
	CHECK(pg_check(0xFFFFFFFFFFFFFull, 1, 36) == PG_BEYOND_MAXPHYADDR);
	CHECK(pg_check((1ull << 47) - 4096, 4096, 48) == PG_OK);
	CHECK(pg_check(1ull << 47, 4096, 48) == PG_NONCANONICAL);
	CHECK(pg_check(1ull << 50, 4096, 52) == PG_NONCANONICAL);
	CHECK(pg_check(1ull << 52, 4096, 52) == PG_BEYOND_MAXPHYADDR);

	/* Below 4 GiB, WB: already mapped, nothing changes. */
	struct pg_tables t = boot(42, 1, 4);
	CHECK(pg_map(&t, 0x200000, 0x400000, PG_WB, &r) == PG_OK);
	CHECK(r.tables == 0 && r.pages == 0 && r.changed == 0);
	CHECK(maps(0x200000, PG_WB));

	/* RAM above 4 GiB with 1 GiB pages: [4 GiB + 100 MiB, +2 GiB) takes
	 * three 1 GiB pages in PDPT entries 4..6 and no table. */
	CHECK(pg_map(&t, 0x106400000ull, 0x80000000ull, PG_WB, &r) == PG_OK);
	CHECK(r.tables == 0 && r.pages == 3 && r.changed == 0);
	CHECK(maps(0x100000000ull, PG_WB) && maps(0x17FFFFFFFull, PG_WB) && maps(0x186400000ull, PG_WB));
	CHECK((leaf(0x140000000ull, &size) & PG_ADDR) == 0x140000000ull && size == PG_SIZE_1G);
	CHECK(!(leaf(0x1C0000000ull, &size) & PG_P));

	/* A WC framebuffer of 4 MiB at 4 GiB + 2 MiB + 4 KiB inside that RAM:
	 * the 1 GiB page is split (one table), the page it starts in becomes UC,
	 * the next two WC, the rest stays WB. */
	CHECK(pg_map(&t, 0x100201000ull, 0x400000, PG_WC, &r) == PG_OK);
	CHECK(r.tables == 1 && r.splits == 1 && r.retyped == 3 && r.changed == 4 && r.pages == 0);
	CHECK(maps(0x100000000ull, PG_WB) && maps(0x100200000ull, PG_UC) && maps(0x100400000ull, PG_WC) &&
	      maps(0x100600000ull, PG_WC) && maps(0x100800000ull, PG_WB) && maps(0x13FE00000ull, PG_WB));
	/* Types only move towards UC: WB and WC requests leave it; UC over WC changes it. */
	CHECK(pg_map(&t, 0x100400000ull, 0x200000, PG_WB, &r) == PG_OK && r.changed == 0);
	CHECK(pg_map(&t, 0x100200000ull, 0x200000, PG_WC, &r) == PG_OK && r.changed == 0);
	CHECK(maps(0x100200000ull, PG_UC));
	CHECK(pg_map(&t, 0x100400000ull, 8, PG_UC, &r) == PG_OK && r.retyped == 1);
	CHECK(maps(0x100400000ull, PG_UC) && maps(0x100600000ull, PG_WC));
	/* A WC request on a 1 GiB page that is already UC leaves it whole. */
	tables[1][7] = 0x1C0000000ull | 0x83 | PG_PCD | PG_PWT;
	CHECK(pg_map(&t, 0x1C0000000ull, 0x200000, PG_WC, &r) == PG_OK && r.changed == 0 && r.tables == 0);
	CHECK(maps(0x1C0200000ull, PG_UC) && (leaf(0x1C0200000ull, &size), size) == PG_SIZE_1G);

	/* MMIO far away (1020 GiB, PML4 entry 1): a PDPT and a PD, UC 2 MiB pages. */
	CHECK(pg_map(&t, 0xFF00000000ull, 0x1000, PG_UC, &r) == PG_OK);
	CHECK(r.tables == 2 && r.pages == 1);
	CHECK(maps(0xFF00000000ull, PG_UC));
	CHECK(!(leaf(0xFF00200000ull, &size) & PG_P));
	/* The pool (4) is used up: 3 taken; 1 TiB (PML4 entry 2) needs two. */
	CHECK(pg_map(&t, 1ull << 40, 0x1000, PG_UC, &r) == PG_POOL_EXHAUSTED);
	CHECK(r.tables == 1 && r.at == 1ull << 40);
	CHECK(pg_map(&t, (1ull << 42) - 4096, 0x2000, PG_UC, &r) == PG_BEYOND_MAXPHYADDR);

	/* Below 4 GiB, a framebuffer at 0xFD000000 (8 MiB) WC and the LAPIC's
	 * page UC, as kernel/fb.c and kernel/quiet.c map them. */
	t = boot(36, 0, 0);
	CHECK(pg_map(&t, 0xFD000000ull, 0x800000, PG_WC, &r) == PG_OK);
	CHECK(r.tables == 0 && r.retyped == 4);
	CHECK(maps(0xFCE00000ull, PG_WB) && maps(0xFD000000ull, PG_WC) && maps(0xFD600000ull, PG_WC) &&
	      maps(0xFD800000ull, PG_WB));
	CHECK(pg_map(&t, 0xFEE00000ull, 0x1000, PG_UC, &r) == PG_OK && r.retyped == 1);
	CHECK(maps(0xFEE00000ull, PG_UC));

	/* Without 1 GiB pages, RAM above 4 GiB in 2 MiB pages: a PD per GiB. */
	t = boot(36, 0, 2);
	CHECK(pg_map(&t, 0x100000000ull, 0x40200000ull, PG_WB, &r) == PG_OK);
	CHECK(r.tables == 2 && r.pages == 513);
	CHECK(maps(0x13FE00000ull, PG_WB) && maps(0x140000000ull, PG_WB));
	CHECK((leaf(0x140000000ull, &size), size) == PG_SIZE_2M);
	CHECK(!(leaf(0x140200000ull, &size) & PG_P));
	/* MAXPHYADDR 36: 64 GiB. */
	CHECK(pg_map(&t, 0xFFFFFF000ull, 0x2000, PG_WB, &r) == PG_BEYOND_MAXPHYADDR);
	CHECK(r.pages == 0 && r.tables == 0);

	/* A 4 KiB table in the way is said, not walked into. */
	t = boot(40, 1, 1);
	tables[2][5] = (PHYS0 + 4096ull * 6) | 3;
	CHECK(pg_map(&t, 0xA00000, 0x1000, PG_UC, &r) == PG_SMALL_PAGES);
	/* A PML4 the callback cannot reach. */
	t.root = 0x5000;
	CHECK(pg_map(&t, 0xA00000, 0x1000, PG_UC, &r) == PG_BAD_TABLE);

	CHECK_STR(pg_type_name(PG_WC), "write-combining (WC)");
	CHECK(strstr(pg_error_text(PG_BEYOND_MAXPHYADDR), "MAXPHYADDR") != 0);
	return check_summary("paging");
}

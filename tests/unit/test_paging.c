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
	CHECK(pg_index(va, 4) == 255 && pg_index(va, 3) == 1 && pg_index(va, 2) == 1 && pg_index(va, 1) == 1,
	      "0x7F8040201000: PML4 255, PDPT 1, PD 1, PT 1");
	CHECK(pg_index(0x100000000ull, 3) == 4 && pg_index(0x100000000ull, 2) == 0,
	      "4 GiB: PDPT entry 4, PD entry 0");

	/* Types through the PAT: WB entry 0, UC entry 3 (PCD, PWT), WC entry 4. */
	CHECK_EQ_U64(pg_type_bits(PG_WB), 0, "WB: PAT entry 0, no bits");
	CHECK_EQ_U64(pg_type_bits(PG_UC), 0x18, "UC: PAT entry 3, PCD and PWT");
	CHECK_EQ_U64(pg_type_bits(PG_WC), 0x1000, "WC: PAT entry 4, the 2 MiB page's PAT bit (12)");
	CHECK(pg_type_of(0x83) == PG_WB && pg_type_of(0x1083) == PG_WC && pg_type_of(0x9B) == PG_UC,
	      "2 MiB entries read back as WB, WC, UC");
	CHECK(pg_type_of(0x8B) == PG_WT && pg_type_of(0x108B) == PG_WP && pg_type_of(0x1093) == PG_UC &&
	      pg_type_of(0x93) == PG_UC, "PAT entries 1 WT, 5 WP; 6 and 2 (UC-) read back as UC");
	/* Every type, both leaf sizes: its PAT entry (PAT * 4 + PCD * 2 + PWT)
	 * holds the SDM's encoding of that type in PG_PAT_VALUE (Vol. 3A
	 * table 12-10: UC 00H, WC 01H, WT 04H, WP 05H, WB 06H), and its bits
	 * read back as the type. */
	static const struct { enum pg_type t; int entry; unsigned enc; const char *name; } types[] = {
		{ PG_WB, 0, 0x06, "WB" }, { PG_WT, 1, 0x04, "WT" }, { PG_WP, 5, 0x05, "WP" },
		{ PG_WC, 4, 0x01, "WC" }, { PG_UC, 3, 0x00, "UC" } };
	for (int k = 0; k < 5; k++) {
		uint64_t big = pg_type_bits(types[k].t), small = pg_type_bits_4k(types[k].t);
		int idx_big = (big & PG_PAT_LARGE ? 4 : 0) | (big & PG_PCD ? 2 : 0) | (big & PG_PWT ? 1 : 0);
		int idx_small = (small & PG_PAT_4K ? 4 : 0) | (small & PG_PCD ? 2 : 0) | (small & PG_PWT ? 1 : 0);
		CHECK(idx_big == types[k].entry && idx_small == types[k].entry && pg_pat_entry(types[k].t) == types[k].entry,
		      "%s: PAT entry %d in 2 MiB/1 GiB (bit 12) and 4 KiB (bit 7) leaves, got %d and %d",
		      types[k].name, types[k].entry, idx_big, idx_small);
		CHECK(((PG_PAT_VALUE >> (8 * types[k].entry)) & 0xFF) == types[k].enc,
		      "%s: IA32_PAT entry %d holds encoding %02XH", types[k].name, types[k].entry, types[k].enc);
		CHECK(!(big & ~(PG_PAT_LARGE | PG_PCD | PG_PWT)) && !(small & ~(PG_PAT_4K | PG_PCD | PG_PWT)),
		      "%s: only PAT, PCD and PWT bits", types[k].name);
		CHECK(pg_type_of(big | 0x83) == types[k].t && pg_type_of_4k(small | 0x3) == types[k].t,
		      "%s: entries read back as %s", types[k].name, types[k].name);
	}
	CHECK_EQ_U64(PG_PAT_VALUE, 0x0007050100070406ull, "IA32_PAT: WB, WT, UC-, UC, WC, WP, UC-, UC (entries 0..7)");
	CHECK(((PG_PAT_VALUE >> 16) & 0xFF) == 0x07 && ((PG_PAT_VALUE >> 48) & 0xFF) == 0x07 &&
	      ((PG_PAT_VALUE >> 56) & 0xFF) == 0x00, "PAT: entries 2 and 6 UC- (power-up), 7 UC");

	/* Bounds: MAXPHYADDR, canonical, empty, wrapping. */
	CHECK(pg_check(0, 0, 40) == PG_EMPTY, "zero length: empty");
	CHECK(pg_check(~0ull - 4095, 8192, 52) == PG_EMPTY, "a range that wraps past 2^64: empty");
	CHECK(pg_check((1ull << 40) - 4096, 4096, 40) == PG_OK,
	      "last page below MAXPHYADDR 40 bits: valid");
	CHECK(pg_check((1ull << 40) - 4096, 4097, 40) == PG_BEYOND_MAXPHYADDR,
	      "one byte past MAXPHYADDR 40 bits: beyond");
	CHECK(pg_check(1ull << 40, 1, 40) == PG_BEYOND_MAXPHYADDR,
	      "1 TiB with MAXPHYADDR 40 bits: beyond");
	CHECK(pg_check(0xFFFFFFFFFFFFFull, 1, 36) == PG_BEYOND_MAXPHYADDR,
	      "2^52 - 1 with MAXPHYADDR 36 bits: beyond");
	CHECK(pg_check((1ull << 47) - 4096, 4096, 48) == PG_OK, "last page below 2^47: canonical");
	CHECK(pg_check(1ull << 47, 4096, 48) == PG_NONCANONICAL,
	      "2^47: not canonical in 48-bit linear addresses");
	CHECK(pg_check(1ull << 50, 4096, 52) == PG_NONCANONICAL,
	      "2^50: not canonical though below MAXPHYADDR 52");
	CHECK(pg_check(1ull << 52, 4096, 52) == PG_BEYOND_MAXPHYADDR,
	      "2^52: beyond MAXPHYADDR 52 bits");

	/* Below 4 GiB, WB: already mapped, nothing changes. */
	struct pg_tables t = boot(42, 1, 4);
	CHECK(pg_map(&t, 0x200000, 0x400000, PG_WB, &r) == PG_OK,
	      "WB below 4 GiB, already mapped by boot");
	CHECK(r.tables == 0 && r.pages == 0 && r.changed == 0,
	      "already mapped: no tables, pages or changes");
	CHECK(maps(0x200000, PG_WB), "2 MiB stays WB");

	/* RAM above 4 GiB with 1 GiB pages: [4 GiB + 100 MiB, +2 GiB) takes
	 * three 1 GiB pages in PDPT entries 4..6 and no table. */
	CHECK(pg_map(&t, 0x106400000ull, 0x80000000ull, PG_WB, &r) == PG_OK,
	      "RAM [4 GiB + 100 MiB, +2 GiB) mapped WB");
	CHECK(r.tables == 0 && r.pages == 3 && r.changed == 0,
	      "RAM above 4 GiB: three 1 GiB pages, no table");
	CHECK(maps(0x100000000ull, PG_WB) && maps(0x17FFFFFFFull, PG_WB) && maps(0x186400000ull, PG_WB),
	      "RAM above 4 GiB: all three 1 GiB pages WB");
	CHECK((leaf(0x140000000ull, &size) & PG_ADDR) == 0x140000000ull && size == PG_SIZE_1G,
	      "5 GiB mapped by a 1 GiB page to itself");
	CHECK(!(leaf(0x1C0000000ull, &size) & PG_P), "7 GiB, past the RAM, not mapped");

	/* A WC framebuffer of 4 MiB at 4 GiB + 2 MiB + 4 KiB inside that RAM:
	 * the 1 GiB page is split (one table), the page it starts in becomes UC,
	 * the next two WC, the rest stays WB. */
	CHECK(pg_map(&t, 0x100201000ull, 0x400000, PG_WC, &r) == PG_OK,
	      "4 MiB WC framebuffer at 4 GiB + 2 MiB + 4 KiB mapped");
	CHECK(r.tables == 1 && r.splits == 1 && r.retyped == 3 && r.changed == 4 && r.pages == 0,
	      "WC inside a 1 GiB page: one split (one table), 3 pages retyped");
	CHECK(maps(0x100000000ull, PG_WB) && maps(0x100200000ull, PG_UC) && maps(0x100400000ull, PG_WC) &&
	      maps(0x100600000ull, PG_WC) && maps(0x100800000ull, PG_WB) && maps(0x13FE00000ull, PG_WB),
	      "framebuffer: the page it starts in UC, the next two WC, the rest WB");
	/* Types only move towards UC: WB and WC requests leave it; UC over WC changes it. */
	CHECK(pg_map(&t, 0x100400000ull, 0x200000, PG_WB, &r) == PG_OK && r.changed == 0,
	      "WB over WC: no change (types only move towards UC)");
	CHECK(pg_map(&t, 0x100200000ull, 0x200000, PG_WC, &r) == PG_OK && r.changed == 0,
	      "WC over UC: no change");
	CHECK(maps(0x100200000ull, PG_UC), "UC page stays UC");
	CHECK(pg_map(&t, 0x100400000ull, 8, PG_UC, &r) == PG_OK && r.retyped == 1,
	      "UC over WC: retyped");
	CHECK(maps(0x100400000ull, PG_UC) && maps(0x100600000ull, PG_WC),
	      "UC over WC: that page UC, the next still WC");
	/* A WC request on a 1 GiB page that is already UC leaves it whole. */
	tables[1][7] = 0x1C0000000ull | 0x83 | PG_PCD | PG_PWT;
	CHECK(pg_map(&t, 0x1C0000000ull, 0x200000, PG_WC, &r) == PG_OK && r.changed == 0 && r.tables == 0,
	      "WC on a UC 1 GiB page: no change, no split");
	CHECK(maps(0x1C0200000ull, PG_UC) && (leaf(0x1C0200000ull, &size), size) == PG_SIZE_1G,
	      "UC 1 GiB page stays whole");

	/* MMIO far away (1020 GiB, PML4 entry 1): a PDPT and a PD, UC 2 MiB pages. */
	CHECK(pg_map(&t, 0xFF00000000ull, 0x1000, PG_UC, &r) == PG_OK,
	      "MMIO at 1020 GiB (PML4 entry 1) mapped UC");
	CHECK(r.tables == 2 && r.pages == 1, "MMIO at 1020 GiB: a PDPT and a PD, one 2 MiB page");
	CHECK(maps(0xFF00000000ull, PG_UC), "MMIO page at 1020 GiB is UC");
	CHECK(!(leaf(0xFF00200000ull, &size) & PG_P), "the next 2 MiB at 1020 GiB not mapped");
	/* The pool (4) is used up: 3 taken; 1 TiB (PML4 entry 2) needs two. */
	CHECK(pg_map(&t, 1ull << 40, 0x1000, PG_UC, &r) == PG_POOL_EXHAUSTED,
	      "1 TiB needs two tables, one left in the pool: exhausted");
	CHECK(r.tables == 1 && r.at == 1ull << 40, "pool exhausted: one table taken, at 1 TiB");
	CHECK(pg_map(&t, (1ull << 42) - 4096, 0x2000, PG_UC, &r) == PG_BEYOND_MAXPHYADDR,
	      "past MAXPHYADDR 42 bits: beyond");

	/* Below 4 GiB, a framebuffer at 0xFD000000 (8 MiB) WC and the LAPIC's
	 * page UC, as kernel/fb.c and kernel/lapic.c map them. */
	t = boot(36, 0, 0);
	CHECK(pg_map(&t, 0xFD000000ull, 0x800000, PG_WC, &r) == PG_OK,
	      "8 MiB WC framebuffer at FD000000h mapped");
	CHECK(r.tables == 0 && r.retyped == 4,
	      "framebuffer below 4 GiB: four 2 MiB pages retyped, no table");
	CHECK(maps(0xFCE00000ull, PG_WB) && maps(0xFD000000ull, PG_WC) && maps(0xFD600000ull, PG_WC) &&
	      maps(0xFD800000ull, PG_WB), "framebuffer WC, the pages either side WB");
	CHECK(pg_map(&t, 0xFEE00000ull, 0x1000, PG_UC, &r) == PG_OK && r.retyped == 1,
	      "local APIC page at FEE00000h retyped UC");
	CHECK(maps(0xFEE00000ull, PG_UC), "local APIC page UC");

	/* Without 1 GiB pages, RAM above 4 GiB in 2 MiB pages: a PD per GiB. */
	t = boot(36, 0, 2);
	CHECK(pg_map(&t, 0x100000000ull, 0x40200000ull, PG_WB, &r) == PG_OK,
	      "RAM [4 GiB, 5 GiB + 2 MiB) mapped without 1 GiB pages");
	CHECK(r.tables == 2 && r.pages == 513, "no 1 GiB pages: a PD per GiB, 513 2 MiB pages");
	CHECK(maps(0x13FE00000ull, PG_WB) && maps(0x140000000ull, PG_WB),
	      "no 1 GiB pages: 5 GiB - 2 MiB and 5 GiB mapped WB");
	CHECK((leaf(0x140000000ull, &size), size) == PG_SIZE_2M,
	      "no 1 GiB pages: 5 GiB by a 2 MiB page");
	CHECK(!(leaf(0x140200000ull, &size) & PG_P),
	      "no 1 GiB pages: 5 GiB + 2 MiB, past the RAM, not mapped");
	/* MAXPHYADDR 36: 64 GiB. */
	CHECK(pg_map(&t, 0xFFFFFF000ull, 0x2000, PG_WB, &r) == PG_BEYOND_MAXPHYADDR,
	      "past MAXPHYADDR 36 bits (64 GiB): beyond");
	CHECK(r.pages == 0 && r.tables == 0, "beyond MAXPHYADDR: nothing mapped");

	/* A 4 KiB table in the way is said, not walked into. */
	t = boot(40, 1, 1);
	tables[2][5] = (PHYS0 + 4096ull * 6) | 3;
	CHECK(pg_map(&t, 0xA00000, 0x1000, PG_UC, &r) == PG_SMALL_PAGES,
	      "a 4 KiB page table in the way: said, not walked into");
	/* Pages taken out of the map (kernel/paging.c: page 0, guard pages):
	 * the 2 MiB page over 0 split into 4 KiB pages of its type, one made
	 * not present; WB later leaves that region as it is, UC is refused. */
	t = boot(40, 1, 2);
	tables[2][1] |= PG_PAT_LARGE; /* 2..4 MiB WC, to see the PAT bit move */
	CHECK(pg_present(&t, 0) && pg_present(&t, 0x1000), "boot map: page 0 present");
	CHECK(pg_unmap_4k(&t, 0x10, &r) == PG_OK && r.tables == 1 && r.changed == 2,
	      "page 0 unmapped: one table, the 2 MiB entry and the 4 KiB entry changed");
	CHECK(!pg_present(&t, 0) && !pg_present(&t, 0xFFF), "page 0 no longer present");
	CHECK(pg_present(&t, 0x1000) && pg_present(&t, 0x1FF000) && pg_present(&t, 0x200000),
	      "pages 1..511 and the next 2 MiB page still present");
	uint64_t *pt = table(0, tables[2][0] & PG_ADDR);
	CHECK(pt && pt[1] == (0x1000 | PG_P | PG_RW) && pt[511] == (0x1FF000 | PG_P | PG_RW),
	      "4 KiB entries: identity, present, writable, WB (no PAT, PCD or PWT bit)");
	CHECK(pg_unmap_4k(&t, 0, &r) == PG_EMPTY && r.tables == 0, "page 0 again: nothing to do");
	CHECK(pg_unmap_4k(&t, 0x3FF000, &r) == PG_OK && !pg_present(&t, 0x3FF000), "a page at 4 MiB - 4 KiB");
	pt = table(0, tables[2][1] & PG_ADDR);
	CHECK(pt && pt[0] == (0x200000 | PG_P | PG_RW | PG_PAT_4K), "a WC 2 MiB page's PAT bit: bit 7 in 4 KiB entries");
	CHECK(pg_unmap_4k(&t, 0x600000, &r) == PG_POOL_EXHAUSTED, "a third split: the pool of 2 is used up");
	CHECK(pg_map(&t, 0, 0x400000, PG_WB, &r) == PG_OK && r.changed == 0 && !pg_present(&t, 0),
	      "WB over the split regions: left as they are, page 0 still unmapped");
	CHECK(pg_map(&t, 0x1000, 0x1000, PG_UC, &r) == PG_SMALL_PAGES, "UC in a split region: refused");
	CHECK(!pg_present(&t, 0x100000000ull) && !pg_present(&t, 1ull << 47), "beyond the map: not present");
	t = boot(40, 1, 2);
	CHECK(pg_map(&t, 0x100000000ull, 0x40000000ull, PG_WB, &r) == PG_OK && pg_present(&t, 0x100000000ull),
	      "a 1 GiB page at 4 GiB, present");
	CHECK(pg_unmap_4k(&t, 0x100001000ull, &r) == PG_OK && r.splits == 1 && r.tables == 2,
	      "a page inside a 1 GiB page: split to 2 MiB then 4 KiB pages");
	CHECK(!pg_present(&t, 0x100001000ull) && pg_present(&t, 0x100000000ull) && pg_present(&t, 0x100200000ull),
	      "only that page is gone");

	/* pg_map_pages: an area mapped exactly as asked (kernel/memarea.c). */
	t = boot(40, 1, 4);
	CHECK(pg_map_pages(&t, 0x800000, 0x400000, PG_SIZE_2M, PG_WT, &r) == PG_OK && r.pages == 2 &&
	      r.changed == 2 && r.retyped == 2 && r.tables == 0, "2 MiB WT over the boot's WB pages: 2 retyped");
	CHECK(maps(0x800000, PG_WT) && maps(0xA00000, PG_WT) && maps(0x600000, PG_WB) && maps(0xC00000, PG_WB),
	      "2 MiB WT: the area's two pages WT, either side WB");
	CHECK(pg_map_pages(&t, 0x800000, 0x200000, PG_SIZE_2M, PG_WT, &r) == PG_OK && r.changed == 0,
	      "the same again: nothing changed");
	CHECK(pg_map_pages(&t, 0x1000000, 0x2000, PG_SIZE_4K, PG_WP, &r) == PG_OK && r.tables == 1 &&
	      r.pages == 2 && r.retyped == 2, "4 KiB WP at 16 MiB: one table, two pages retyped");
	pt = table(0, tables[2][8] & PG_ADDR);
	CHECK(pt && pt[0] == (0x1000000 | PG_P | PG_RW | PG_PAT_4K | PG_PWT) &&
	      pt[1] == (0x1001000 | PG_P | PG_RW | PG_PAT_4K | PG_PWT) && pt[2] == (0x1002000 | PG_P | PG_RW),
	      "4 KiB WP entries: PAT bit 7 and PWT (entry 5); the rest of the 2 MiB page WB");
	CHECK(pg_type_of_4k(pt[0]) == PG_WP && pg_type_of_4k(pt[2]) == PG_WB, "4 KiB entries read back WP, WB");
	CHECK(pg_map_pages(&t, 0x40000000ull, 0x40000000ull, PG_SIZE_1G, PG_UC, &r) == PG_OK && r.pages == 1 &&
	      r.changed == 1 && r.retyped == 1, "1 GiB UC over the boot's page directory: one leaf, retyped");
	CHECK(maps(0x40000000ull, PG_UC) && (leaf(0x7FFFF000ull, &size), size) == PG_SIZE_1G && maps(0x80000000ull, PG_WB),
	      "1 GiB UC leaf at 1 GiB; 2 GiB still WB in 2 MiB pages");
	CHECK((tables[1][1] & ~PG_ADDR) == (PG_P | PG_RW | PG_PS | PG_PCD | PG_PWT),
	      "1 GiB leaf: present, writable, PS, PCD and PWT (PAT entry 3)");
	CHECK(pg_map_pages(&t, 0x100000000ull, 0x40000000ull, PG_SIZE_1G, PG_WC, &r) == PG_OK && r.pages == 1 &&
	      r.changed == 0 && maps(0x100000000ull, PG_WC), "1 GiB WC above 4 GiB, not mapped before: no change");
	CHECK(pg_map_pages(&t, 0x100200000ull, 0x1000, PG_SIZE_4K, PG_WB, &r) == PG_OK && r.splits == 1 &&
	      r.tables == 2, "4 KiB inside a 1 GiB page: split to 2 MiB, then 4 KiB pages");
	CHECK(maps(0x100000000ull, PG_WC) && maps(0x100400000ull, PG_WC), "the split 1 GiB page's other pages stay WC");
	pt = table(0, table(0, tables[1][4] & PG_ADDR)[1] & PG_ADDR);
	CHECK(pt && pt[0] == (0x100200000ull | PG_P | PG_RW) && pt[1] == (0x100201000ull | PG_P | PG_RW | PG_PAT_4K),
	      "that 4 KiB page WB, its neighbour WC with the PAT bit at 7");
	CHECK(pg_map_pages(&t, 0x100400000ull, 0x1000, PG_SIZE_4K, PG_WB, &r) == PG_OK && r.tables == 1,
	      "4 KiB pages in the next 2 MiB: the pool's last table");
	CHECK(pg_map_pages(&t, 0x100600000ull, 0x1000, PG_SIZE_4K, PG_WB, &r) == PG_POOL_EXHAUSTED,
	      "4 KiB pages with the pool used up: exhausted");
	CHECK(pg_map_pages(&t, 0x800000, 0x1000, PG_SIZE_2M, PG_WB, &r) == PG_MISALIGNED &&
	      pg_map_pages(&t, 0x801000, 0x200000, PG_SIZE_2M, PG_WB, &r) == PG_MISALIGNED &&
	      pg_map_pages(&t, 0x800000, 0x1000, 0x10000, PG_WB, &r) == PG_MISALIGNED,
	      "a length or start not a multiple of the page, or a 64 KiB page: misaligned");
	t.has_1g = 0;
	CHECK(pg_map_pages(&t, 0x40000000ull, 0x40000000ull, PG_SIZE_1G, PG_WB, &r) == PG_MISALIGNED,
	      "1 GiB pages without Page1GB: refused");
	/* 512 MiB in 4 KiB pages: a table per 2 MiB, 256. */
	t = boot(40, 1, 0);
	CHECK(pg_map_pages(&t, 0x20000000ull, 0x20000000ull, PG_SIZE_4K, PG_WB, &r) == PG_POOL_EXHAUSTED &&
	      r.at == 0x20000000ull, "512 MiB in 4 KiB pages without a pool: exhausted at its start");

	/* A PML4 the callback cannot reach. */
	t.root = 0x5000;
	CHECK(pg_map(&t, 0xA00000, 0x1000, PG_UC, &r) == PG_BAD_TABLE,
	      "PML4 the callback cannot reach: bad table");

	CHECK_STR(pg_type_name(PG_WC), "write-combining (WC)", "WC's name");
	CHECK(strstr(pg_error_text(PG_BEYOND_MAXPHYADDR), "MAXPHYADDR") != 0,
	      "beyond-MAXPHYADDR text names MAXPHYADDR");
	return check_summary("paging");
}

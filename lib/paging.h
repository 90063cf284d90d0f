/* lib/paging.h - the arithmetic of an identity map under 4-level paging
 * (SDM Vol. 3A 4.5 "4-Level Paging and 5-Level Paging"): which entries, at
 * which level, map a physical range with 2 MiB or 1 GiB pages, the bounds
 * (MAXPHYADDR, canonical addresses) and the memory type each page gets
 * through the PAT (SDM Vol. 3A 12.12 "Page Attribute Table"). The tables
 * are reached through callbacks, so the same code extends CR3's tables in
 * the kernel (kernel/paging.c) and tables in arrays on the host
 * (tests/unit/test_paging.c).
 *
 * The memory types, and the PAT entries they use (PAT index = PAT * 4 +
 * PCD * 2 + PWT, 12.12.3; entries 0, 1 and 3 are WB, WT and UC at
 * power-up, table 12-12; entries 4 and 5 are set to WC and WP by
 * kernel/paging.c, which writes PG_PAT_VALUE into IA32_PAT on the boot CPU;
 * the other CPUs load the boot CPU's IA32_PAT when they start,
 * kernel/smp.c: 12.12.4 asks for the same PAT on every processor):
 *   PG_WB  RAM                       PAT entry 0: PAT = PCD = PWT = 0
 *   PG_WT  an area (mem.type=wt)     PAT entry 1: PWT = 1
 *   PG_WP  an area (mem.type=wp)     PAT entry 5: PAT = PWT = 1
 *   PG_WC  a framebuffer, an area    PAT entry 4: PAT = 1
 *   PG_UC  MMIO registers, an area   PAT entry 3: PCD = PWT = 1
 * The PAT bit is bit 12 of a 2 MiB or 1 GiB entry and bit 7 of a 4 KiB
 * one (SDM Vol. 3A tables 4-17, 4-18, 4-20). pg_map's pages only ever move
 * towards UC (in the enum's order): a request for a weaker type than a
 * page has leaves the page as it is, since it may hold registers another
 * caller mapped UC. Entries of PAT indexes 2, 6 and 7 (UC- and UC) count
 * as UC. pg_map_pages maps an area exactly as asked, replacing what was
 * there.
 *
 * Page sizes: a page not mapped yet is mapped with a 1 GiB page for PG_WB
 * when the CPU has them (CPUID.80000001H:EDX[26], "Page1GB"), else with
 * 2 MiB pages; WC and UC always with 2 MiB pages, so that a type covers
 * little more than what was asked. A 1 GiB page that must change type is
 * first split into 512 2 MiB pages of the same type (a table from the
 * pool). For PG_WC a 2 MiB page that starts before the range (the range's
 * first page, when it is not 2 MiB-aligned) is given UC instead: it may
 * hold other registers; the last page may reach past the range, which for
 * a framebuffer is more video memory (a BAR is a naturally aligned power
 * of two). A WB page may reach past the RAM asked for, as the boot code's
 * map of 0..4 GiB covers the MMIO hole: the firmware's MTRRs make such
 * space UC (SDM Vol. 3A 12.5.2.2, table 12-7: MTRR UC with PAT WB is UC).
 * Tables of 4 KiB pages are made only by pg_unmap_4k, in write-back RAM, to
 * take single pages out of the map (page 0, guard pages): pg_map counts
 * such a 2 MiB region as mapped WB and leaves it as it is (its unmapped
 * pages stay unmapped), and refuses to give it another type
 * (PG_SMALL_PAGES).
 */
#ifndef LIB_PAGING_H
#define LIB_PAGING_H

#include <stdint.h>

#define PG_P 0x1ull              /* present */
#define PG_RW 0x2ull             /* writable */
#define PG_PWT 0x8ull
#define PG_PCD 0x10ull
#define PG_PS 0x80ull            /* page size: a 2 MiB or 1 GiB leaf */
#define PG_PAT_LARGE 0x1000ull   /* the PAT bit of a 2 MiB or 1 GiB entry (bit 12) */
#define PG_PAT_4K 0x80ull        /* the PAT bit of a 4 KiB entry (bit 7, table 4-20) */
#define PG_ADDR 0x000FFFFFFFFFF000ull /* bits 51:12: the next table or the page */
#define PG_SIZE_4K 0x1000ull
#define PG_SIZE_2M 0x200000ull
#define PG_SIZE_1G 0x40000000ull
/* Identity-mapped, a physical address is a linear one: canonical under
 * 4-level paging below 2^47 (bits 63:47 equal; SDM Vol. 1 3.3.7.1). */
#define PG_CANONICAL_END (1ull << 47)

enum pg_type { PG_WB, PG_WT, PG_WP, PG_WC, PG_UC };

/* IA32_PAT (MSR 277H) as kernel/paging.c writes it, entry i in bits
 * 8i+7:8i (SDM Vol. 3A 12.12.2, table 12-10 encodings: 00H UC, 01H WC, 04H
 * WT, 05H WP, 06H WB, 07H UC-): WB, WT, UC-, UC, WC, WP, UC-, UC. */
#define PG_PAT_VALUE 0x0007050100070406ull

enum pg_error {
	PG_OK,
	PG_EMPTY,               /* length 0, or the range wraps past 2^64 */
	PG_BEYOND_MAXPHYADDR,   /* the range ends above 2^MAXPHYADDR */
	PG_NONCANONICAL,        /* the range ends above 2^47 */
	PG_POOL_EXHAUSTED,      /* a table was needed and the pool had none */
	PG_SMALL_PAGES,         /* a 2 MiB region is mapped by a table of 4 KiB pages */
	PG_BAD_TABLE,           /* a table's address the callback cannot reach */
	PG_MISALIGNED,          /* pg_map_pages: a range not aligned to its page size,
				 * or a page size other than 4 KiB, 2 MiB, 1 GiB (or 1 GiB
				 * without has_1g) */
};

/* The tables: the PML4's physical address, a callback giving a pointer to
 * the 4 KiB table at a physical address (NULL: unreachable), and one
 * giving the physical address of a zeroed 4 KiB table from a pool (0:
 * exhausted). maxphyaddr: bits (SDM Vol. 3A 4.1.4), 32..52. */
struct pg_tables {
	uint64_t root;
	uint64_t *(*table)(void *ctx, uint64_t phys);
	uint64_t (*alloc)(void *ctx);
	void *ctx;
	int maxphyaddr;
	int has_1g;
};

/* What pg_map did. changed > 0: entries that were present changed (a type,
 * or a 1 GiB page split), so the TLBs and paging-structure caches must be
 * invalidated (SDM Vol. 3A 4.10.4.2); retyped > 0: a page's memory type
 * changed, so caches must be flushed too (12.12.4; WBINVD as Linux does for
 * a type change). Entries made present from not present need no
 * invalidation (4.10.4.3). */
struct pg_result {
	int tables;   /* tables taken from the pool */
	int pages;    /* leaves made present */
	int changed;  /* present entries changed */
	int retyped;  /* leaves whose type changed */
	int splits;   /* 1 GiB pages split into 2 MiB pages */
	uint64_t at;  /* on an error from the walk: the address it was at */
};

/* pg_index - the index into the table of level (4: PML4, bits 47:39;
 * 3: PDPT, 38:30; 2: PD, 29:21; 1: PT, 20:12) for linear address va. */
int pg_index(uint64_t va, int level);

/* pg_type_bits - PWT, PCD and the PAT bit (12) of a 2 MiB or 1 GiB leaf
 * of type t; pg_type_bits_4k - of a 4 KiB entry (PAT bit 7). */
uint64_t pg_type_bits(enum pg_type t);
uint64_t pg_type_bits_4k(enum pg_type t);

/* pg_type_of - the type of a 2 MiB or 1 GiB leaf: PAT index 0 WB, 1 WT,
 * 4 WC, 5 WP, any other UC; pg_type_of_4k - of a 4 KiB entry. */
enum pg_type pg_type_of(uint64_t entry);
enum pg_type pg_type_of_4k(uint64_t entry);

/* pg_check - whether [phys, phys + len) can be identity-mapped: PG_EMPTY,
 * PG_BEYOND_MAXPHYADDR (checked first), PG_NONCANONICAL, or PG_OK. */
enum pg_error pg_check(uint64_t phys, uint64_t len, int maxphyaddr);

/* pg_map - identity-map [phys, phys + len) with type (see above), making
 * present what is not, from the pool. Stops at the first error; what it
 * changed before is valid and counted in *r (the caller invalidates all
 * the same). */
enum pg_error pg_map(const struct pg_tables *t, uint64_t phys, uint64_t len, enum pg_type type,
		     struct pg_result *r);

/* pg_map_pages - identity-map [phys, phys + len) with leaves of exactly
 * page_bytes (PG_SIZE_4K, PG_SIZE_2M, or PG_SIZE_1G with t->has_1g) and
 * type (the PAT bits of that leaf size), whatever mapped it before: a
 * larger leaf over it is split (its other pages keep their type), a table
 * under a leaf's place is dropped (its pages are not handed back: the
 * caller owns the range), and tables of 4 KiB pages come from t->alloc
 * (512 MiB in 4 KiB pages: 256 of them). phys and len must be multiples
 * of page_bytes (else PG_MISALIGNED). r as for pg_map: changed (present
 * entries changed: invalidate the TLBs, SDM Vol. 3A 4.10.4.2), retyped
 * (present entries whose type, or whose table of possibly other types,
 * was replaced: flush the caches, 12.12.4). Errors as pg_map's. */
enum pg_error pg_map_pages(const struct pg_tables *t, uint64_t phys, uint64_t len, uint64_t page_bytes,
			   enum pg_type type, struct pg_result *r);

/* pg_unmap_4k - make the 4 KiB page at va (rounded down to 4 KiB) not
 * present. A 2 MiB leaf over it is first split into a table of 512 4 KiB
 * pages of the same type (one table from the pool; PWT and PCD keep their
 * bits, the PAT bit moves from bit 12 to bit 7: SDM Vol. 3A tables 4-18
 * and 4-20); a 1 GiB leaf is split into 2 MiB pages first (one more).
 * r->changed counts present entries changed (invalidate, 4.10.4.2).
 * Errors: PG_EMPTY when va is not mapped (nothing to do), PG_NONCANONICAL
 * at or above 2^47, PG_POOL_EXHAUSTED, PG_BAD_TABLE. */
enum pg_error pg_unmap_4k(const struct pg_tables *t, uint64_t va, struct pg_result *r);

/* pg_present - 1 when va is mapped (present at every level of the walk,
 * SDM Vol. 3A 4.5.4), 0 when not or when a table is unreachable through
 * t->table; reads the tables, changes nothing (t->alloc unused). */
int pg_present(const struct pg_tables *t, uint64_t va);

/* pg_error_text, pg_type_name - in words ("write-combining (WC)"). */
const char *pg_error_text(enum pg_error e);
const char *pg_type_name(enum pg_type t);

/* pg_pat_entry - the PAT entry type uses (0..7, PG_PAT_VALUE);
 * pg_type_word - its record word ("wb", "wt", "wp", "wc", "uc"). */
int pg_pat_entry(enum pg_type t);
const char *pg_type_word(enum pg_type t);

#endif

/* lib/paging.c - see paging.h. */
#include "paging.h"

#define PG_TYPE_MASK (PG_PWT | PG_PCD | PG_PAT_LARGE)
#define PG_TABLE_FLAGS (PG_P | PG_RW) /* an entry that references a table */

int pg_index(uint64_t va, int level)
{
	return (int)((va >> (12 + 9 * (level - 1))) & 511);
}

/* PWT, PCD and the PAT bit (pat: where the leaf keeps it) of type t
 * (paging.h: the PAT entries). */
static uint64_t type_bits(enum pg_type t, uint64_t pat)
{
	switch (t) {
	case PG_WB:
		return 0;
	case PG_WT:
		return PG_PWT;
	case PG_WP:
		return pat | PG_PWT;
	case PG_WC:
		return pat;
	case PG_UC:
		break;
	}
	return PG_PCD | PG_PWT;
}

/* The type of PAT index PAT * 4 + PCD * 2 + PWT (PG_PAT_VALUE). */
static enum pg_type type_of(uint64_t entry, uint64_t pat)
{
	int index = (entry & pat ? 4 : 0) | (entry & PG_PCD ? 2 : 0) | (entry & PG_PWT ? 1 : 0);
	return index == 0 ? PG_WB : index == 1 ? PG_WT : index == 4 ? PG_WC : index == 5 ? PG_WP : PG_UC;
}

uint64_t pg_type_bits(enum pg_type t)
{
	return type_bits(t, PG_PAT_LARGE);
}

uint64_t pg_type_bits_4k(enum pg_type t)
{
	return type_bits(t, PG_PAT_4K);
}

enum pg_type pg_type_of(uint64_t entry)
{
	return type_of(entry, PG_PAT_LARGE);
}

enum pg_type pg_type_of_4k(uint64_t entry)
{
	return type_of(entry, PG_PAT_4K);
}

enum pg_error pg_check(uint64_t phys, uint64_t len, int maxphyaddr)
{
	if (len == 0 || phys + len < phys)
		return PG_EMPTY;
	uint64_t end = phys + len;
	if (maxphyaddr < 52 && end > 1ull << (maxphyaddr > 0 ? maxphyaddr : 0))
		return PG_BEYOND_MAXPHYADDR;
	if (end > 1ull << 52)
		return PG_BEYOND_MAXPHYADDR; /* the architectural most (4.1.4) */
	if (end > PG_CANONICAL_END)
		return PG_NONCANONICAL;
	return PG_OK;
}

/* The table an entry references, or 0 (counted as an error by the caller). */
static uint64_t *next_table(const struct pg_tables *t, uint64_t entry)
{
	return t->table(t->ctx, entry & PG_ADDR);
}

/* A new table for *e (not present): PG_OK, or why not. */
static enum pg_error add_table(const struct pg_tables *t, uint64_t *e, struct pg_result *r)
{
	uint64_t pa = t->alloc(t->ctx);
	if (!pa)
		return PG_POOL_EXHAUSTED;
	if (pa & ~PG_ADDR || !t->table(t->ctx, pa))
		return PG_BAD_TABLE;
	*e = pa | PG_TABLE_FLAGS;
	r->tables++;
	return PG_OK;
}

/* Replace the leaf *e by a table of 512 leaves of page_size (bytes) with
 * flags, mapping what it mapped. */
static enum pg_error split(const struct pg_tables *t, uint64_t *e, uint64_t page_size, uint64_t flags,
			   struct pg_result *r)
{
	uint64_t base = *e & PG_ADDR & ~(512 * page_size - 1);
	uint64_t pa = t->alloc(t->ctx);
	if (!pa)
		return PG_POOL_EXHAUSTED;
	uint64_t *pt = pa & ~PG_ADDR ? 0 : t->table(t->ctx, pa);
	if (!pt)
		return PG_BAD_TABLE;
	for (int i = 0; i < 512; i++)
		pt[i] = (base + (uint64_t)i * page_size) | flags;
	*e = pa | PG_TABLE_FLAGS;
	r->tables++;
	r->changed++;
	return PG_OK;
}

/* Split the 1 GiB leaf *e into a table of 512 2 MiB leaves of its type.
 * Bits 29:13 of a 1 GiB entry are reserved (table 4-17): its address is
 * bits 51:30. The 2 MiB entries keep every flag, PAT bit included (bit 12
 * in both, tables 4-17 and 4-18). */
static enum pg_error split_1g(const struct pg_tables *t, uint64_t *e, struct pg_result *r)
{
	enum pg_error err = split(t, e, PG_SIZE_2M, (*e & ~PG_ADDR) | (*e & PG_PAT_LARGE), r);
	r->splits += err == PG_OK;
	return err;
}

/* Split the 2 MiB leaf *e into a table of 512 4 KiB pages of its type.
 * Bits 20:13 of a 2 MiB entry are reserved (table 4-18): its address is
 * bits 51:21. A 4 KiB entry has its PAT bit at 7, where the 2 MiB entry
 * has PS (table 4-20). */
static enum pg_error split_2m(const struct pg_tables *t, uint64_t *e, struct pg_result *r)
{
	uint64_t old = *e;
	return split(t, e, PG_SIZE_4K, (old & ~PG_ADDR & ~PG_PS) | (old & PG_PAT_LARGE ? PG_PAT_4K : 0), r);
}

enum pg_error pg_map(const struct pg_tables *t, uint64_t phys, uint64_t len, enum pg_type type,
		     struct pg_result *r)
{
	*r = (struct pg_result){ 0 };
	enum pg_error err = pg_check(phys, len, t->maxphyaddr);
	if (err)
		return err;
	uint64_t end = phys + len;
	uint64_t *pml4 = t->table(t->ctx, t->root & PG_ADDR);
	if (!pml4)
		return PG_BAD_TABLE;
	for (uint64_t a = phys & ~(PG_SIZE_2M - 1); a < end;) {
		r->at = a;
		/* For WC, a page that starts before the range gets UC (paging.h). */
		enum pg_type want = type == PG_WC && a < phys ? PG_UC : type;
		uint64_t *e4 = &pml4[pg_index(a, 4)];
		if (!(*e4 & PG_P) && (err = add_table(t, e4, r)))
			return err;
		uint64_t *pdpt = next_table(t, *e4);
		if (!pdpt)
			return PG_BAD_TABLE;
		uint64_t *e3 = &pdpt[pg_index(a, 3)];
		if (!(*e3 & PG_P)) {
			if (t->has_1g && want == PG_WB) {
				*e3 = (a & ~(PG_SIZE_1G - 1)) | PG_P | PG_RW | PG_PS;
				r->pages++;
				a = (a & ~(PG_SIZE_1G - 1)) + PG_SIZE_1G;
				continue;
			}
			if ((err = add_table(t, e3, r)))
				return err;
		} else if (*e3 & PG_PS) {
			if (want <= pg_type_of(*e3)) { /* already that type, or stricter */
				a = (a & ~(PG_SIZE_1G - 1)) + PG_SIZE_1G;
				continue;
			}
			if ((err = split_1g(t, e3, r)))
				return err;
		}
		uint64_t *pd = next_table(t, *e3);
		if (!pd)
			return PG_BAD_TABLE;
		uint64_t *e2 = &pd[pg_index(a, 2)];
		if (!(*e2 & PG_P)) {
			*e2 = a | PG_P | PG_RW | PG_PS | pg_type_bits(want);
			r->pages++;
		} else if (!(*e2 & PG_PS)) {
			if (want != PG_WB) /* pg_unmap_4k's pages: WB, left as they are */
				return PG_SMALL_PAGES;
		} else if (want > pg_type_of(*e2)) {
			*e2 = (*e2 & ~PG_TYPE_MASK) | pg_type_bits(want);
			r->changed++;
			r->retyped++;
		}
		a += PG_SIZE_2M;
	}
	return PG_OK;
}

/* Put the leaf new (of type) into *e, a leaf of old_type, a table
 * (is_table: its pages may be of other types) or not present, counting
 * what changed. */
static void set_leaf(uint64_t *e, uint64_t new, enum pg_type type, enum pg_type old_type, int is_table,
		     struct pg_result *r)
{
	if (*e & PG_P && *e != new) {
		r->changed++;
		if (is_table || old_type != type)
			r->retyped++;
	}
	*e = new;
	r->pages++;
}

enum pg_error pg_map_pages(const struct pg_tables *t, uint64_t phys, uint64_t len, uint64_t page_bytes,
			   enum pg_type type, struct pg_result *r)
{
	*r = (struct pg_result){ 0 };
	enum pg_error err = pg_check(phys, len, t->maxphyaddr);
	if (err)
		return err;
	if ((page_bytes != PG_SIZE_4K && page_bytes != PG_SIZE_2M && page_bytes != PG_SIZE_1G) ||
	    (page_bytes == PG_SIZE_1G && !t->has_1g) || (phys | len) & (page_bytes - 1))
		return PG_MISALIGNED;
	uint64_t *pml4 = t->table(t->ctx, t->root & PG_ADDR);
	if (!pml4)
		return PG_BAD_TABLE;
	for (uint64_t a = phys; a < phys + len; a += page_bytes) {
		r->at = a;
		uint64_t *e4 = &pml4[pg_index(a, 4)];
		if (!(*e4 & PG_P) && (err = add_table(t, e4, r)))
			return err;
		uint64_t *pdpt = next_table(t, *e4);
		if (!pdpt)
			return PG_BAD_TABLE;
		uint64_t *e3 = &pdpt[pg_index(a, 3)];
		if (page_bytes == PG_SIZE_1G) {
			set_leaf(e3, a | PG_P | PG_RW | PG_PS | pg_type_bits(type), type, pg_type_of(*e3),
				 !(*e3 & PG_PS), r);
			continue;
		}
		if (!(*e3 & PG_P) && (err = add_table(t, e3, r)))
			return err;
		if ((*e3 & PG_PS) && (err = split_1g(t, e3, r)))
			return err;
		uint64_t *pd = next_table(t, *e3);
		if (!pd)
			return PG_BAD_TABLE;
		uint64_t *e2 = &pd[pg_index(a, 2)];
		if (page_bytes == PG_SIZE_2M) {
			set_leaf(e2, a | PG_P | PG_RW | PG_PS | pg_type_bits(type), type, pg_type_of(*e2),
				 !(*e2 & PG_PS), r);
			continue;
		}
		if (!(*e2 & PG_P) && (err = add_table(t, e2, r)))
			return err;
		if ((*e2 & PG_PS) && (err = split_2m(t, e2, r)))
			return err;
		uint64_t *pt = next_table(t, *e2);
		if (!pt)
			return PG_BAD_TABLE;
		uint64_t *e1 = &pt[pg_index(a, 1)];
		set_leaf(e1, a | PG_P | PG_RW | pg_type_bits_4k(type), type, pg_type_of_4k(*e1), 0, r);
	}
	return PG_OK;
}

/* The entry of level 2 (PD) that maps va, splitting a 1 GiB leaf over it;
 * 0 with *err set when there is none. */
static uint64_t *pd_entry(const struct pg_tables *t, uint64_t va, int split, struct pg_result *r,
			  enum pg_error *err)
{
	*err = PG_BAD_TABLE;
	uint64_t *pml4 = t->table(t->ctx, t->root & PG_ADDR);
	if (!pml4)
		return 0;
	uint64_t e4 = pml4[pg_index(va, 4)];
	if (!(e4 & PG_P)) {
		*err = PG_EMPTY;
		return 0;
	}
	uint64_t *pdpt = next_table(t, e4);
	if (!pdpt)
		return 0;
	uint64_t *e3 = &pdpt[pg_index(va, 3)];
	if (!(*e3 & PG_P)) {
		*err = PG_EMPTY;
		return 0;
	}
	if (*e3 & PG_PS) {
		if (!split) {
			*err = PG_OK; /* present, a 1 GiB page */
			return 0;
		}
		if ((*err = split_1g(t, e3, r)))
			return 0;
	}
	uint64_t *pd = next_table(t, *e3);
	*err = pd ? PG_OK : PG_BAD_TABLE;
	return pd ? &pd[pg_index(va, 2)] : 0;
}

enum pg_error pg_unmap_4k(const struct pg_tables *t, uint64_t va, struct pg_result *r)
{
	enum pg_error err;
	*r = (struct pg_result){ .at = va };
	if (va >= PG_CANONICAL_END)
		return PG_NONCANONICAL;
	uint64_t *e2 = pd_entry(t, va, 1, r, &err);
	if (!e2)
		return err;
	if (!(*e2 & PG_P))
		return PG_EMPTY;
	if ((*e2 & PG_PS) && (err = split_2m(t, e2, r)))
		return err;
	uint64_t *pt = next_table(t, *e2);
	if (!pt)
		return PG_BAD_TABLE;
	uint64_t *e1 = &pt[pg_index(va, 1)];
	if (!(*e1 & PG_P))
		return PG_EMPTY;
	*e1 = 0;
	r->changed++;
	return PG_OK;
}

int pg_present(const struct pg_tables *t, uint64_t va)
{
	enum pg_error err;
	if (va >= PG_CANONICAL_END)
		return 0;
	uint64_t *e2 = pd_entry(t, va, 0, 0, &err);
	if (!e2)
		return err == PG_OK; /* a 1 GiB page */
	if (!(*e2 & PG_P))
		return 0;
	if (*e2 & PG_PS)
		return 1;
	const uint64_t *pt = next_table(t, *e2);
	return pt && (pt[pg_index(va, 1)] & PG_P);
}

const char *pg_error_text(enum pg_error e)
{
	switch (e) {
	case PG_OK:
		return "mapped";
	case PG_EMPTY:
		return "an empty range, or one that wraps past 2^64";
	case PG_BEYOND_MAXPHYADDR:
		return "beyond MAXPHYADDR, the physical addresses this CPU has";
	case PG_NONCANONICAL:
		return "at or above 2^47: identity-mapped, a non-canonical linear address under 4-level paging";
	case PG_POOL_EXHAUSTED:
		return "the pool of page-table pages is used up";
	case PG_SMALL_PAGES:
		return "a region of 4 KiB pages (with pages taken out of the map) is in the way: it stays write-back";
	case PG_BAD_TABLE:
		return "a page table at an address the kernel cannot reach";
	case PG_MISALIGNED:
		return "not aligned to its page size, or a page size this CPU has not";
	}
	return "?";
}

const char *pg_type_name(enum pg_type t)
{
	switch (t) {
	case PG_WB:
		return "write-back (WB)";
	case PG_WT:
		return "write-through (WT)";
	case PG_WP:
		return "write-protected (WP)";
	case PG_WC:
		return "write-combining (WC)";
	case PG_UC:
		break;
	}
	return "uncached (UC)";
}

int pg_pat_entry(enum pg_type t)
{
	return t == PG_WB ? 0 : t == PG_WT ? 1 : t == PG_WP ? 5 : t == PG_WC ? 4 : 3;
}

const char *pg_type_word(enum pg_type t)
{
	return t == PG_WB ? "wb" : t == PG_WT ? "wt" : t == PG_WP ? "wp" : t == PG_WC ? "wc" : "uc";
}

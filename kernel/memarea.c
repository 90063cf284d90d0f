/* kernel/memarea.c - see memarea.h. */
#include "memarea.h"
#include "config.h"
#include "console.h"
#include "mem.h"
#include "paging.h"
#include "../lib/fmt.h"
#include "../lib/memsize.h"
#include "../lib/record.h"
#include "../lib/string.h"

/* Left in the pool beside the areas, for the run's own buffers taken after
 * them (the generated loops of code=, the sample buffers, the log's RAM
 * copy): memarea_largest never offers it. */
#define MEMAREA_SPARE (8ull << 20)
#define GUARD_BYTES PG_SIZE_4K

static struct mem_area areas[MEMAREA_MAX];
static int count;
static char refusal[320];

/* A zeroed 4 KiB page-table page from the pool (kernel/paging.h
 * paging_map_pages, paging_unmap_from): its physical address, 0 when the
 * pool has none. */
static uint64_t table_page(void *ctx)
{
	(void)ctx;
	uint64_t *p = mem_alloc_aligned(PG_SIZE_4K, PG_SIZE_4K);
	if (!p)
		return 0;
	for (int i = 0; i < 512; i++)
		p[i] = 0;
	return (uint64_t)(uintptr_t)p;
}

/* Zero [p, p + bytes) (a multiple of 8) with REP STOSQ (SDM Vol. 2B
 * "STOS"): outside any measurement, once per area. */
static void zero(uint64_t p, uint64_t bytes)
{
	uint64_t qwords = bytes / 8;
	__asm__ volatile("rep stosq" : "+D"(p), "+c"(qwords) : "a"(0ull) : "memory");
}

/* The page size for page_bytes 0: the largest the CPU has that is not
 * larger than bytes. */
static uint64_t pages_for(uint64_t bytes)
{
	if (bytes >= PG_SIZE_1G && paging_has_1g())
		return PG_SIZE_1G;
	return bytes >= PG_SIZE_2M ? PG_SIZE_2M : PG_SIZE_4K;
}

/* Page-table pages an area of run bytes in pages of page_bytes may take:
 * one per 2 MiB of 4 KiB pages, a page directory per 1 GiB of 2 MiB
 * pages (splitting a 1 GiB page), two for the guard's split, one for a
 * PDPT and 1 for the alignment of the first. */
static uint64_t tables_for(uint64_t run, uint64_t page_bytes)
{
	uint64_t n = 4 + run / PG_SIZE_1G + 1;
	if (page_bytes == PG_SIZE_4K)
		n += (run + PG_SIZE_2M - 1) / PG_SIZE_2M;
	return n * PG_SIZE_4K;
}

uint64_t memarea_largest(uint64_t page_bytes)
{
	if (!page_bytes)
		page_bytes = paging_has_1g() ? PG_SIZE_1G : PG_SIZE_2M;
	uint64_t start = mem_align_start(page_bytes), end = mem_pool_end();
	uint64_t over = GUARD_BYTES + MEMAREA_SPARE;
	if (start >= end || end - start <= over)
		return 0;
	uint64_t room = end - start - over;
	/* run + tables_for(run) <= room; 4 KiB pages: a table per 512 pages. */
	uint64_t run = page_bytes == PG_SIZE_4K ? room / 513 * 512 : room;
	run &= ~(page_bytes - 1);
	while (run && run + tables_for(run, page_bytes) > room)
		run -= page_bytes;
	return run;
}

const char *memarea_refusal(void)
{
	return refusal;
}

/* The refusal for an area of bytes in pages of page_bytes that does not
 * fit: the largest that would. */
static void too_large(const char *who, uint64_t bytes, uint64_t page_bytes)
{
	char want[32], most[32], page[32];
	memsize_text(want, sizeof want, bytes);
	memsize_text(page, sizeof page, page_bytes);
	uint64_t largest = memarea_largest(page_bytes);
	memsize_text(most, sizeof most, largest);
	fmt_format(refusal, sizeof refusal, "mem: %s: %s in %s pages does not fit in free RAM: the largest "
		"possible now is %s (%llu bytes; 0x%llx-0x%llx free, %s kept for the run's own buffers)", who,
		want, page, largest ? most : "none", (unsigned long long)largest,
		(unsigned long long)mem_pool_start(), (unsigned long long)mem_pool_end(), "8 MiB");
}

const struct mem_area *memarea_take(const char *who, uint64_t bytes, uint64_t page_bytes, enum pg_type type)
{
	refusal[0] = '\0';
	if (!page_bytes)
		page_bytes = pages_for(bytes);
	if (count >= MEMAREA_MAX) {
		fmt_format(refusal, sizeof refusal, "mem: %s: no more than %d areas in a run", who, MEMAREA_MAX);
		return 0;
	}
	if (!bytes || bytes % PG_SIZE_4K) {
		fmt_format(refusal, sizeof refusal, "mem: %s: %llu bytes is not a positive multiple of 4 KiB", who,
			   (unsigned long long)bytes);
		return 0;
	}
	if (page_bytes != PG_SIZE_4K && page_bytes != PG_SIZE_2M && page_bytes != PG_SIZE_1G) {
		fmt_format(refusal, sizeof refusal, "mem: %s: pages of %llu bytes: 4 KiB, 2 MiB or 1 GiB only", who,
			   (unsigned long long)page_bytes);
		return 0;
	}
	if (page_bytes == PG_SIZE_1G && !paging_has_1g()) {
		fmt_format(refusal, sizeof refusal, "mem: %s: 1 GiB pages: this CPU has none "
			   "(CPUID.80000001H:EDX[26] Page1GB = 0)", who);
		return 0;
	}
	if (type != PG_WB && type != PG_UC && !paging_pat_ok()) {
		fmt_format(refusal, sizeof refusal, "mem: %s: %s needs the PAT (CPUID.1:EDX[16]), and IA32_PAT "
			   "(MSR 277H) does not hold its entries on this CPU", who, pg_type_name(type));
		return 0;
	}
	uint64_t run = (bytes + page_bytes - 1) & ~(page_bytes - 1);
	if (bytes > memarea_largest(page_bytes)) {
		too_large(who, bytes, page_bytes);
		return 0;
	}
	uint64_t first = (uint64_t)(uintptr_t)mem_alloc_aligned(run + GUARD_BYTES, page_bytes);
	if (!first) {
		too_large(who, bytes, page_bytes);
		return 0;
	}
	uint64_t end = first + run, phys = end - bytes;
	zero(phys, bytes); /* while write-back: paging_map mapped it so */
	if (paging_map_pages(first, run, page_bytes, type, table_page, who) ||
	    paging_unmap_from(end, GUARD_BYTES, table_page, who)) {
		fmt_format(refusal, sizeof refusal, "%s", paging_refusal());
		return 0;
	}
	struct mem_area *a = &areas[count++];
	*a = (struct mem_area){ .who = who, .phys = phys, .bytes = bytes, .page_bytes = page_bytes,
				.type = type, .guard = end, .pointer = phys };
	return a;
}

/* The contract's registers, in the order of their areas. */
static const char *const nanobench_regs[] = { "R14", "RDI", "RSI", "RBP", "RSP" };

static enum pg_type type_of(uint64_t mem_type)
{
	switch (mem_type) {
	case MEM_TYPE_WT:
		return PG_WT;
	case MEM_TYPE_WC:
		return PG_WC;
	case MEM_TYPE_WP:
		return PG_WP;
	case MEM_TYPE_UC:
		return PG_UC;
	}
	return PG_WB;
}

static uint64_t page_bytes_of(uint64_t mem_pages, uint64_t bytes)
{
	switch (mem_pages) {
	case MEM_PAGES_4K:
		return PG_SIZE_4K;
	case MEM_PAGES_2M:
		return PG_SIZE_2M;
	case MEM_PAGES_1G:
		return PG_SIZE_1G;
	}
	return pages_for(bytes); /* auto (README "Boot parameters") */
}

int memarea_prepare(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cpu;
	if (!cfg->code[0]) {
		if (cfg->sweep == SWEEP_OFF && (cfg->mem_bytes != CONFIG_MEM_DEFAULT ||
		    cfg->mem_pages != MEM_PAGES_AUTO || cfg->mem_type != MEM_TYPE_WB || cfg->regs != REGS_DEFAULT))
			kprintf("config: mem=, mem.pages=, mem.type= and regs= apply to code= and sweep=, neither of "
				"which is given; ignored\n");
		return 0;
	}
	int n = cfg->regs == REGS_NANOBENCH ? 5 : 1;
	uint64_t page_bytes = page_bytes_of(cfg->mem_pages, cfg->mem_bytes);
	if (cfg->mem_pages == MEM_PAGES_1G && !paging_has_1g()) {
		kprintf("config: mem.pages=1g: this CPU has no 1 GiB pages (CPUID.80000001H:EDX[26] Page1GB = 0); "
			"mem.pages=2m or 4k will do; the code workload is left out\n");
		return 1;
	}
	/* n areas of whole pages, each with its guard: one page less than a
	 * fair share, for the alignment and guards of the others. */
	uint64_t largest = memarea_largest(page_bytes);
	uint64_t each = n == 1 ? largest : (largest / (uint64_t)n) & ~(page_bytes - 1);
	if (n > 1)
		each = each > page_bytes ? each - page_bytes : 0;
	if (cfg->mem_bytes > each) {
		char want[32], most[32], page[32], wword[24], mword[24];
		memsize_text(want, sizeof want, cfg->mem_bytes);
		memsize_text(page, sizeof page, page_bytes);
		memsize_text(most, sizeof most, each);
		kprintf("config: mem=%s: %s%s in %s pages does not fit in free RAM: the largest possible is "
			"mem=%s (%s, %llu bytes; free RAM 0x%llx-0x%llx less 8 MiB for the run's own buffers); the "
			"code workload is left out\n", memsize_word(wword, sizeof wword, cfg->mem_bytes), want,
			n > 1 ? " in each of 5 areas (regs=nanobench)" : "", page, memsize_word(mword, sizeof mword, each),
			most, (unsigned long long)each, (unsigned long long)mem_pool_start(),
			(unsigned long long)mem_pool_end());
		return 1;
	}
	for (int k = 0; k < n; k++) {
		const char *who = n == 1 ? "R14" : nanobench_regs[k];
		const struct mem_area *a = memarea_take(who, cfg->mem_bytes, page_bytes, type_of(cfg->mem_type));
		if (!a) {
			kprintf("config: %s; the code workload is left out\n", refusal);
			return 1;
		}
		if (n > 1) /* nanoBench's kernel module: the middle of each area */
			areas[count - 1].pointer = a->phys + a->bytes / 2;
	}
	return 0;
}

int memarea_release(void)
{
	int bad = 0;
	for (int i = 0; i < count; i++) {
		const struct mem_area *a = &areas[i];
		uint64_t run = (a->bytes + a->page_bytes - 1) & ~(a->page_bytes - 1);
		uint64_t lo = (a->guard - run) & ~(PG_SIZE_2M - 1);
		uint64_t hi = (a->guard + GUARD_BYTES + PG_SIZE_2M - 1) & ~(PG_SIZE_2M - 1);
		if (paging_map_pages(lo, hi - lo, PG_SIZE_2M, PG_WB, table_page, a->who))
			bad = -1;
	}
	count = 0;
	refusal[0] = '\0';
	return bad;
}

int memarea_count(void)
{
	return count;
}

const struct mem_area *memarea_get(int i)
{
	return i >= 0 && i < count ? &areas[i] : 0;
}

/* 1 when the strings are equal. */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

const struct mem_area *memarea_find(const char *who)
{
	for (int i = 0; i < count; i++)
		if (same(areas[i].who, who))
			return &areas[i];
	return 0;
}

void memarea_print(void)
{
	for (int i = 0; i < count; i++) {
		const struct mem_area *a = &areas[i];
		char size[32], page[32];
		const char *type = pg_type_name(a->type);
		int is_reg = !same(a->who, "sweep");
		kprintf("mem: %s: %s at 0x%llx (physically contiguous), %s pages, %.*s, PAT entry %d)", a->who,
			memsize_text(size, sizeof size, a->bytes), (unsigned long long)a->phys,
			memsize_text(page, sizeof page, a->page_bytes), (int)strlen(type) - 1, type,
			pg_pat_entry(a->type));
		if (is_reg)
			kprintf(", %s = 0x%llx", a->who, (unsigned long long)a->pointer);
		kprintf("; guard page 0x%llx unmapped\n", (unsigned long long)a->guard);
		struct rec r;
		char hex[24];
		rec_begin(&r, "mem_area");
		rec_str(&r, "register", a->who);
		rec_u64(&r, "bytes", a->bytes);
		fmt_format(hex, sizeof hex, "0x%llx", (unsigned long long)a->phys);
		rec_str(&r, "phys", hex);
		rec_u64(&r, "page_bytes", a->page_bytes);
		rec_str(&r, "type", pg_type_word(a->type));
		fmt_format(hex, sizeof hex, "0x%llx", (unsigned long long)a->guard);
		rec_str(&r, "guard", hex);
		fmt_format(hex, sizeof hex, "0x%llx", (unsigned long long)a->pointer);
		rec_str(&r, "pointer", hex);
		rec_end(&r);
	}
}

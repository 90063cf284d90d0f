/* kernel/paging.c - see paging.h. */
#include "paging.h"
#include "cpu.h"
#include "msr.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define BOOT_MAPPED_END 0x100000000ull /* boot/entry.asm maps 0..4 GiB */

static struct {
	int ready, maxphyaddr, has_1g, has_pat, pat_ok, used;
	uint64_t pat_read; /* IA32_PAT as read back after the write */
	volatile uint64_t generation; /* bumped by every change other CPUs must see (paging_sync) */
} pg;

static uint8_t pool[PAGING_POOL_PAGES][4096] __attribute__((aligned(4096)));
/* The tables of 4 KiB pages paging_unmap splits 2 MiB pages into, apart
 * from the pool (whose count says what mapping RAM and MMIO took): page 0,
 * code='s two guard pages, one more. */
static uint8_t split_pages[PAGING_SPLIT_PAGES][4096] __attribute__((aligned(4096)));
static int split_used;

/* The last refusal's line (paging_refusal), "" when paging_map last succeeded. */
static char refusal[256];

/* What the CPU has (SDM Vol. 2A CPUID; Vol. 3A 4.1.4: without leaf
 * 80000008H MAXPHYADDR is 36 with PAE, CPUID.1:EDX[6]). */
static void setup(void)
{
	uint32_t max_ext = cpuid(0x80000000u, 0).eax;
	uint32_t edx1 = cpuid(1, 0).edx;
	pg.maxphyaddr = edx1 & (1u << 6) ? 36 : 32;
	if (max_ext >= 0x80000008u) {
		int bits = (int)(cpuid(0x80000008u, 0).eax & 0xFF);
		if (bits >= 32 && bits <= 52)
			pg.maxphyaddr = bits;
	}
	pg.has_1g = max_ext >= 0x80000001u && (cpuid(0x80000001u, 0).edx & (1u << 26));
	pg.has_pat = !!(edx1 & (1u << 16));
	pg.ready = 1;
	/* IA32_PAT (MSR 277H) = PG_PAT_VALUE (lib/paging.h), before any page
	 * uses entries 4 and 5 (WB and WT at power-up, now WC and WP; the boot
	 * map uses entry 0 only), read back; the APs load this value
	 * (kernel/smp.c, SDM Vol. 3A 12.12.4). IA32_PAT exists wherever
	 * CPUID.1:EDX[16] says so (12.12.1) and every encoding written is a
	 * valid one (table 12-10), so plain WRMSR, as before this value: the
	 * *_safe forms (kernel/trap.h) would close an include loop through
	 * kernel/exit.c and kernel/acpi.c back here. */
	if (pg.has_pat) {
		wrmsr(MSR_PAT, PG_PAT_VALUE);
		pg.pat_read = rdmsr(MSR_PAT);
		pg.pat_ok = pg.pat_read == PG_PAT_VALUE;
	}
}

/* The tables are in the boot code's .bss or the pool, below 4 GiB. */
static uint64_t *table(void *ctx, uint64_t phys)
{
	(void)ctx;
	return phys && phys < BOOT_MAPPED_END ? (uint64_t *)(uintptr_t)phys : 0;
}

static uint64_t take(void *ctx)
{
	(void)ctx;
	if (pg.used >= PAGING_POOL_PAGES)
		return 0;
	return (uint64_t)(uintptr_t)pool[pg.used++];
}

static uint64_t take_split(void *ctx)
{
	(void)ctx;
	if (split_used >= PAGING_SPLIT_PAGES)
		return 0;
	return (uint64_t)(uintptr_t)split_pages[split_used++];
}

/* CR3's tables, as lib/paging.c walks them, new tables from alloc. */
static struct pg_tables tables(uint64_t (*alloc)(void *ctx))
{
	return (struct pg_tables){ .root = read_cr3(), .table = table, .alloc = alloc,
				   .maxphyaddr = pg.maxphyaddr, .has_1g = pg.has_1g };
}

/* MOV to CR3 (CR4.PCIDE = 0) invalidates every TLB entry but global ones
 * (none: no G bit, CR4.PGE = 0) and every paging-structure cache entry
 * (SDM Vol. 3A 4.10.4.1). */
static void reload_cr3(void)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(read_cr3()) : "memory");
}

void *paging_map(uint64_t phys, uint64_t len, enum pg_type type, const char *who)
{
	if (!pg.ready)
		setup();
	if (type == PG_WC && !pg.pat_ok)
		type = PG_UC;
	const struct pg_tables t = tables(take);
	struct pg_result r;
	enum pg_error e = pg_map(&t, phys, len, type, &r);
	if (r.changed) {
		reload_cr3();
		pg.generation++;
	}
	if (r.retyped) /* lines cached under the old type (12.12.4) */
		__asm__ volatile("wbinvd" ::: "memory");
	refusal[0] = '\0';
	if (e == PG_OK)
		return (void *)(uintptr_t)phys;
	char why[96] = "";
	if (e == PG_BEYOND_MAXPHYADDR)
		fmt_format(why, sizeof why, " (MAXPHYADDR %d bits, CPUID.80000008H:EAX[7:0]: below 0x%llx)",
			   pg.maxphyaddr, 1ull << pg.maxphyaddr);
	else if (e == PG_NONCANONICAL)
		fmt_format(why, sizeof why, " (SDM Vol. 3A 4.5)");
	else if (e == PG_POOL_EXHAUSTED)
		fmt_format(why, sizeof why, " (%d pages of 4 KiB; needed at 0x%llx)", PAGING_POOL_PAGES,
			   (unsigned long long)r.at);
	else if (e != PG_EMPTY)
		fmt_format(why, sizeof why, " (at 0x%llx)", (unsigned long long)r.at);
	fmt_format(refusal, sizeof refusal, "paging: %s: cannot map 0x%llx-0x%llx (%llu bytes) %s: %s%s", who,
		(unsigned long long)phys, (unsigned long long)(phys + len - 1), (unsigned long long)len,
		pg_type_name(type), pg_error_text(e), why);
	return 0;
}

/* Tables anywhere below paging_limit: paging_map_pages's and
 * paging_unmap_from's come from RAM the caller has mapped (mem_alloc). */
static uint64_t *table_any(void *ctx, uint64_t phys)
{
	(void)ctx;
	return phys && phys < paging_limit() ? (uint64_t *)(uintptr_t)phys : 0;
}

int paging_map_pages(uint64_t phys, uint64_t len, uint64_t page_bytes, enum pg_type type,
		     uint64_t (*alloc)(void *ctx), const char *who)
{
	if (!pg.ready)
		setup();
	refusal[0] = '\0';
	if (type != PG_WB && type != PG_UC && !pg.pat_ok) {
		fmt_format(refusal, sizeof refusal, "paging: %s: no %s without the PAT (CPUID.1:EDX[16]=%d%s)", who,
			   pg_type_name(type), pg.has_pat, pg.has_pat ? "; IA32_PAT did not take its value" : "");
		return -1;
	}
	struct pg_tables t = tables(alloc);
	t.table = table_any;
	struct pg_result r;
	enum pg_error e = pg_map_pages(&t, phys, len, page_bytes, type, &r);
	if (r.changed) {
		reload_cr3();
		pg.generation++;
	}
	if (r.retyped) /* lines cached under the old type (12.12.4) */
		__asm__ volatile("wbinvd" ::: "memory");
	if (e == PG_OK)
		return 0;
	fmt_format(refusal, sizeof refusal, "paging: %s: cannot map 0x%llx-0x%llx (%llu bytes) in pages of %llu "
		"bytes %s: %s (at 0x%llx)", who, (unsigned long long)phys, (unsigned long long)(phys + len - 1),
		(unsigned long long)len, (unsigned long long)page_bytes, pg_type_name(type), pg_error_text(e),
		(unsigned long long)r.at);
	return -1;
}

int paging_pat_ok(void)
{
	if (!pg.ready)
		setup();
	return pg.pat_ok;
}

int paging_has_1g(void)
{
	if (!pg.ready)
		setup();
	return pg.has_1g;
}

static int unmap(uint64_t va, uint64_t len, uint64_t (*alloc)(void *ctx), const char *who)
{
	if (!pg.ready)
		setup();
	struct pg_tables t = tables(alloc);
	if (alloc != take_split)
		t.table = table_any;
	struct pg_result r = { 0 };
	enum pg_error e = PG_OK;
	uint64_t a = va & ~(PG_SIZE_4K - 1);
	for (; a < va + len && (e == PG_OK || e == PG_EMPTY); a += PG_SIZE_4K)
		e = pg_unmap_4k(&t, a, &r);
	reload_cr3(); /* whatever changed before an error too */
	pg.generation++;
	refusal[0] = '\0';
	if (e == PG_OK || e == PG_EMPTY)
		return 0;
	fmt_format(refusal, sizeof refusal, "paging: %s: cannot unmap the 4 KiB page at 0x%llx: %s", who,
		   (unsigned long long)(a - PG_SIZE_4K), pg_error_text(e));
	return -1;
}

int paging_unmap(uint64_t va, uint64_t len, const char *who)
{
	return unmap(va, len, take_split, who);
}

int paging_unmap_from(uint64_t va, uint64_t len, uint64_t (*alloc)(void *ctx), const char *who)
{
	return unmap(va, len, alloc, who);
}

int paging_present(uint64_t va)
{
	const struct pg_tables t = tables(0);
	return pg_present(&t, va);
}

void paging_sync(uint64_t *seen)
{
	uint64_t g = pg.generation;
	if (*seen != g) {
		*seen = g;
		reload_cr3();
	}
}

uint64_t paging_limit(void)
{
	if (!pg.ready)
		setup();
	uint64_t end = 1ull << pg.maxphyaddr;
	return end < PG_CANONICAL_END ? end : PG_CANONICAL_END;
}

int paging_wc(void)
{
	if (!pg.ready)
		setup();
	return pg.pat_ok;
}

int paging_pool_used(void)
{
	return pg.used;
}

const char *paging_refusal(void)
{
	return refusal;
}

void paging_describe(char *buf, size_t size)
{
	if (!pg.ready)
		setup();
	fmt_format(buf, size, "env: paging: MAXPHYADDR %d bits (CPUID.80000008H:EAX[7:0]), 1 GiB pages %s "
		"(CPUID.80000001H:EDX[26]=%d), PAT %s (CPUID.1:EDX[16]=%d); the boot's identity map of 0..4 GiB "
		"(2 MiB pages) is extended on demand up to 0x%llx from a pool of %d page-table pages (%d used so far)",
		pg.maxphyaddr, pg.has_1g ? "yes" : "no", pg.has_1g, pg.has_pat ? "yes" : "no", pg.has_pat,
		(unsigned long long)paging_limit(), PAGING_POOL_PAGES, pg.used);
	size_t n = strlen(buf);
	if (!pg.has_pat)
		fmt_format(buf + n, size - n, "; no IA32_PAT: memory types WB and UC only");
	else
		fmt_format(buf + n, size - n, "; IA32_PAT (MSR 277H) written 0x%016llx (entries 0 WB, 1 WT, 3 UC, "
			   "4 WC, 5 WP), read back 0x%016llx: %s", (unsigned long long)PG_PAT_VALUE,
			   (unsigned long long)pg.pat_read, pg.pat_ok ? "taken" : "not taken (WT, WP, WC unavailable)");
}

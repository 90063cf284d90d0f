/* kernel/mem.c - see mem.h. */
#include "mem.h"
#include "bios.h"
#include "config.h"
#include "console.h"
#include "paging.h"
#include "../lib/string.h"

extern char _start_of_image[], _end[];

#define TEST_FB_WIDTH 1024
#define TEST_FB_HEIGHT 768

struct region {
	uint64_t lo, hi;
};

static struct region low, high;    /* the largest available region on each side */
static uint64_t pool_next, pool_end, total_usable, below_4g;
static uint64_t handed_lo, handed_hi; /* what mem_alloc handed out */

/* Keep [lo, hi) in *r when it is larger. */
static void consider(struct region *r, uint64_t lo, uint64_t hi)
{
	if (hi > lo && hi - lo > r->hi - r->lo) {
		r->lo = lo;
		r->hi = hi;
	}
}

static void use(const struct region *r)
{
	pool_next = r->lo;
	pool_end = r->hi;
}

int mem_image_fits(uint32_t magic, uint64_t info_phys)
{
	uint64_t start = (uint64_t)_start_of_image, end = (uint64_t)_end;
	uint64_t have = multiboot_ram_end(magic, info_phys, start);
	if (!have || have >= end)
		return 1;
	/* The console without bi (in the zeroed data the check is about): a
	 * multiboot1 boot's, so VGA text when it answers, serial on ttyS0. */
	struct boot_info early;
	memset(&early, 0, sizeof early);
	early.protocol = 1;
	const struct console_choice serial = { .port = 0, .baud = CONSOLE_DEFAULT_BAUD };
	console_init(&early, &serial, "", 0);
	kprintf("memory: too little RAM: the image needs 0x%llx-0x%llx (%llu KiB: its code, data and zeroed data, "
		"linker.ld _end) and more above it for the sample buffers; the loader's memory map has "
		"0x%llx-0x%llx available from there (%llu KiB)\n", (unsigned long long)start,
		(unsigned long long)end, (unsigned long long)((end - start) / 1024), (unsigned long long)start,
		(unsigned long long)have, (unsigned long long)((have - start) / 1024));
	return 0;
}

void mem_init(const struct boot_info *bi)
{
	uint64_t kend = ((uint64_t)_end + 4095) & ~4095ull;
	uint64_t limit = paging_limit();
	low = high = (struct region){ 0, 0 };
	total_usable = below_4g = 0;
	handed_lo = ~0ull;
	handed_hi = 0;
	if (bios_read_low_memory()) /* page 0 out of the map, once its one word is kept */
		kprintf("%s; null pointers do not fault\n", paging_refusal());

	for (int i = 0; i < bi->nmmap; i++) {
		const struct mmap_entry *m = &bi->mmap[i];
		if (m->type != MMAP_AVAILABLE || m->base + m->length < m->base)
			continue;
		uint64_t lo = m->base, hi = m->base + m->length;
		total_usable += m->length;
		if (lo < MEM_4G)
			below_4g += (hi < MEM_4G ? hi : MEM_4G) - lo;
		consider(&low, lo > kend ? lo : kend, hi < MEM_4G ? hi : MEM_4G);
		consider(&high, lo > MEM_4G ? lo : MEM_4G, hi < limit ? hi : limit);
	}
	if (bi->nmmap == 0 && bi->has_meminfo) {
		uint64_t hi = 0x100000ull + bi->mem_upper_kib * 1024;
		total_usable = below_4g = (bi->mem_lower_kib + bi->mem_upper_kib) * 1024;
		consider(&low, kend, hi < MEM_4G ? hi : MEM_4G);
	}
	use(high.hi - high.lo > low.hi - low.lo ? &high : &low);
}

uint64_t mem_total_usable(void)
{
	return total_usable;
}

uint64_t mem_usable_below_4g(void)
{
	return below_4g;
}

uint64_t mem_usable_above_4g(void)
{
	return total_usable - below_4g;
}

uint64_t mem_free_bytes(void)
{
	return pool_end - pool_next;
}

uint64_t mem_pool_start(void)
{
	return pool_next;
}

uint64_t mem_align_start(uint64_t align)
{
	return (pool_next + align - 1) & ~(align - 1);
}

uint64_t mem_pool_end(void)
{
	return pool_end;
}

void *mem_alloc(uint64_t bytes)
{
	return mem_alloc_aligned(bytes, 64);
}

void *mem_alloc_aligned(uint64_t bytes, uint64_t align)
{
	uint64_t start = (pool_next + align - 1) & ~(align - 1);
	uint64_t size = (bytes + 63) & ~63ull;
	if (align == 0 || (align & (align - 1)))
		return 0;
	if (bytes == 0 || size < bytes || start < pool_next || start > pool_end ||
	    size > pool_end - start)
		return 0;
	void *p = paging_map(start, size, PG_WB, "sample buffers");
	if (!p) {
		kprintf("%s\n", paging_refusal());
		return 0;
	}
	pool_next = start + size;
	if (start < handed_lo)
		handed_lo = start;
	if (pool_next > handed_hi)
		handed_hi = pool_next;
	return p;
}

uint64_t mem_mark(void)
{
	uint64_t at = (pool_next + PG_SIZE_2M - 1) & ~(PG_SIZE_2M - 1);
	if (at < pool_next || at > pool_end)
		return 0;
	pool_next = at;
	return at;
}

void mem_release(uint64_t mark)
{
	if (mark && mark <= pool_next)
		pool_next = mark;
}

/* test.fb=high: a framebuffer from the top of the RAM above 4 GiB, 2 MiB
 * aligned (its pages are WC: none is shared with the pool below it). */
static void test_fb(void)
{
	uint64_t bytes = (uint64_t)TEST_FB_WIDTH * TEST_FB_HEIGHT * 4;
	uint64_t at = (high.hi - bytes) & ~(PG_SIZE_2M - 1);
	if (high.hi - high.lo < bytes + PG_SIZE_2M || at < high.lo) {
		kprintf("test: test.fb=high: no RAM above 4 GiB for a %u x %u framebuffer (%llu bytes); "
			"the screen stays as it was\n", TEST_FB_WIDTH, TEST_FB_HEIGHT, (unsigned long long)bytes);
		return;
	}
	high.hi = at;
	if (pool_end > at && pool_next < at)
		pool_end = at;
	kprintf("test: test.fb=high: a %u x %u, 32 bpp framebuffer in RAM above 4 GiB at 0x%llx (%llu bytes), "
		"drawn through kernel/fb.c from here on\n", TEST_FB_WIDTH, TEST_FB_HEIGHT, (unsigned long long)at,
		(unsigned long long)bytes);
	console_test_framebuffer(at, TEST_FB_WIDTH, TEST_FB_HEIGHT);
}

static void test_map(uint64_t at)
{
	volatile uint64_t *p = paging_map(at, 4096, PG_UC, "test.map");
	if (!p) {
		kprintf("%s\n", paging_refusal());
		kprintf("test: test.map=0x%llx: refused (the paging: line above says why); the run goes on\n",
			(unsigned long long)at);
		return;
	}
	uint64_t v = *p;
	kprintf("test: test.map=0x%llx: mapped %s; read 0x%llx there\n", (unsigned long long)at,
		pg_type_name(PG_UC), (unsigned long long)v);
}

/* test.buffers= (mem_test_setup), read again by mem_test_report. */
static uint64_t test_buffers;

void mem_test_setup(const struct config *cfg)
{
	test_buffers = cfg->test_buffers;
	if (cfg->test_buffers == TEST_BUFFERS_HIGH) {
		if (high.hi > high.lo) {
			use(&high);
			kprintf("test: test.buffers=high: sample buffers from RAM above 4 GiB, 0x%llx-0x%llx\n",
				(unsigned long long)high.lo, (unsigned long long)(high.hi - 1));
		} else {
			kprintf("test: test.buffers=high: no RAM above 4 GiB in the memory map (below "
				"0x%llx, MAXPHYADDR); the buffers stay at 0x%llx\n",
				(unsigned long long)paging_limit(), (unsigned long long)pool_next);
		}
	}
	if (cfg->test_fb == TEST_FB_HIGH)
		test_fb();
	if (cfg->test_map != CFG_OFF)
		test_map(cfg->test_map);
}

void mem_test_report(void)
{
	if (test_buffers != TEST_BUFFERS_HIGH)
		return;
	if (handed_hi)
		kprintf("test: test.buffers=high: mem_alloc handed out 0x%llx-0x%llx during the run (%s 4 GiB); "
			"page-table pages taken from the pool: %d\n", (unsigned long long)handed_lo,
			(unsigned long long)(handed_hi - 1), handed_lo >= MEM_4G ? "all above" : "NOT all above",
			paging_pool_used());
	else
		kprintf("test: test.buffers=high: mem_alloc handed out nothing\n");
}

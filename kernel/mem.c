/* kernel/mem.c - see mem.h. */
#include "mem.h"

extern char _end[];

#define LIMIT_4G 0x100000000ull

static uint64_t pool_next, pool_end, total_usable;

void mem_init(const struct boot_info *bi)
{
	uint64_t kend = ((uint64_t)_end + 4095) & ~4095ull;
	pool_next = pool_end = 0;
	total_usable = 0;

	for (int i = 0; i < bi->nmmap; i++) {
		const struct mmap_entry *m = &bi->mmap[i];
		if (m->type != MMAP_AVAILABLE)
			continue;
		total_usable += m->length;
		uint64_t lo = m->base, hi = m->base + m->length;
		if (lo < kend)
			lo = kend;
		if (hi > LIMIT_4G)
			hi = LIMIT_4G;
		if (hi > lo && hi - lo > pool_end - pool_next) {
			pool_next = lo;
			pool_end = hi;
		}
	}
	if (bi->nmmap == 0 && bi->has_meminfo) {
		uint64_t hi = 0x100000ull + bi->mem_upper_kib * 1024;
		total_usable = (bi->mem_lower_kib + bi->mem_upper_kib) * 1024;
		if (hi > LIMIT_4G)
			hi = LIMIT_4G;
		if (hi > kend) {
			pool_next = kend;
			pool_end = hi;
		}
	}
}

uint64_t mem_total_usable(void)
{
	return total_usable;
}

uint64_t mem_free_bytes(void)
{
	return pool_end - pool_next;
}

void *mem_alloc(uint64_t bytes)
{
	uint64_t start = (pool_next + 63) & ~63ull;
	uint64_t size = (bytes + 63) & ~63ull;
	if (bytes == 0 || size < bytes || start < pool_next || start > pool_end ||
	    size > pool_end - start)
		return 0;
	pool_next = start + size;
	return (void *)start;
}

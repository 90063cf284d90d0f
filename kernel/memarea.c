/* kernel/memarea.c - see memarea.h. (Interface first: filled in by the
 * issue's memory work.) */
#include "memarea.h"

int memarea_prepare(const struct config *cfg, const struct cpu_info *cpu)
{
	(void)cfg, (void)cpu;
	return 0;
}

const struct mem_area *memarea_take(const char *who, uint64_t bytes, uint64_t page_bytes, enum pg_type type)
{
	(void)who, (void)bytes, (void)page_bytes, (void)type;
	return 0;
}

uint64_t memarea_largest(uint64_t page_bytes)
{
	(void)page_bytes;
	return 0;
}

const char *memarea_refusal(void)
{
	return "";
}

int memarea_count(void)
{
	return 0;
}

const struct mem_area *memarea_get(int i)
{
	(void)i;
	return 0;
}

const struct mem_area *memarea_find(const char *who)
{
	(void)who;
	return 0;
}

void memarea_print(void)
{
}

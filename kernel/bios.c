/* kernel/bios.c - see bios.h. */
#include "bios.h"
#include "paging.h"

#define BDA_EBDA_SEGMENT 0x40Eull

static uint16_t ebda_segment;

int bios_read_low_memory(void)
{
	/* GCC rejects a constant pointer to a load (its null-page check). */
	__asm__ volatile("movw (%1), %0" : "=r"(ebda_segment) : "r"(BDA_EBDA_SEGMENT) : "memory");
	return paging_unmap(0, 4096, "page 0");
}

uint64_t bios_ebda(void)
{
	uint64_t ebda = (uint64_t)ebda_segment << 4;
	return ebda >= 0x80000 && ebda < 0xA0000 ? ebda : 0;
}

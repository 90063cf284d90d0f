/* kernel/mem.h - memory for sample buffers, from the loader's memory map,
 * below and above 4 GiB. The pool is the largest available region, either
 * between the end of the kernel image and 4 GiB (identity-mapped by the
 * boot code) or above 4 GiB and below paging_limit() (MAXPHYADDR, at most
 * 2^47), whichever is larger (the lower one on a tie); what mem_alloc
 * hands out is mapped write-back through kernel/paging.c. */
#ifndef KERNEL_MEM_H
#define KERNEL_MEM_H

#include <stdint.h>
#include "multiboot.h"

#define MEM_4G 0x100000000ull

/* mem_image_fits - whether the loader's memory map (kernel/multiboot.h
 * multiboot_ram_end) has available RAM from the image's start (1 MiB,
 * linker.ld) to its end (_end: code, data and the zeroed data, page tables
 * and stack among them): the first thing kernel_main checks, before
 * anything but the IDT and the boot stack is used. When it has not, the
 * console is brought up from a boot_info of its own (serial ttyS0, VGA
 * text when it answers; the console's zeroed data comes first in linker.ld,
 * so that it is in RAM), one line says how much the image needs and how
 * much there is, and 0 is returned (the caller ends the run). 1 also when
 * the loader gives no memory map or meminfo (nothing to check). More than
 * the image is needed for the sample buffers: mem_alloc's callers say how
 * much when it fails. */
int mem_image_fits(uint32_t magic, uint64_t info_phys);

/* mem_init - find the largest available regions below and above 4 GiB and
 * take the larger as the pool. With no memory map, the basic meminfo
 * (upper memory from 1 MiB, below 4 GiB) is used. First it takes page 0
 * out of the map (kernel/bios.h bios_read_low_memory): called before
 * anything else reads low memory (ACPI's EBDA, the AP trampoline's page). */
void mem_init(const struct boot_info *bi);

/* mem_total_usable - bytes the map calls available, below and above 4 GiB;
 * mem_usable_below_4g, mem_usable_above_4g - the two parts. */
uint64_t mem_total_usable(void);
uint64_t mem_usable_below_4g(void);
uint64_t mem_usable_above_4g(void);

/* mem_free_bytes - bytes mem_alloc can still hand out; mem_pool_start -
 * the physical address of the next one. */
uint64_t mem_free_bytes(void);
uint64_t mem_pool_start(void);

/* mem_alloc - bytes rounded up to 64, aligned to 64, mapped write-back;
 * NULL when it does not fit (the caller reports the figure it needed) or
 * cannot be mapped (paging: line). Never freed. The pointer is the
 * physical address (identity map). */
void *mem_alloc(uint64_t bytes);

/* mem_alloc_aligned - mem_alloc with the start aligned to align (a power
 * of two, at least 64: 4 KiB for a page table, 2 MiB or 1 GiB for an area
 * of kernel/memarea.h); the pool's bytes skipped below it are not handed
 * out later. NULL as for mem_alloc, or when align is not a power of two. */
void *mem_alloc_aligned(uint64_t bytes, uint64_t align);

/* mem_align_start - where mem_alloc_aligned(..., align) would start now,
 * and mem_pool_end - the end of the pool (exclusive): for a caller that
 * works out the largest piece it could have (kernel/memarea.c). */
uint64_t mem_align_start(uint64_t align);
uint64_t mem_pool_end(void);

/* mem_mark - for a run of several experiments (bench/plan.h): the pool's
 * next address, first moved up to a 2 MiB boundary (up to 2 MiB - 64
 * bytes skipped, never handed out), so that what is handed out after it
 * shares no 2 MiB page with what was before (kernel/memarea.h
 * memarea_release maps such pages whole again). Returns the mark (a
 * physical address), or 0 when the boundary is beyond the pool.
 * mem_release - hand out again everything mem_alloc gave since mark
 * (mem_mark's value; 0 does nothing): the caller has stopped using it. */
uint64_t mem_mark(void);
void mem_release(uint64_t mark);

/* mem_test_setup - the test-only parameters about memory (README "Boot
 * parameters"), after config_parse and before anything is allocated:
 * test.buffers=high takes the pool from above 4 GiB; test.fb=high puts a
 * 1024x768 32 bpp framebuffer in RAM above 4 GiB, taken from the top of
 * that region, mapped and drawn on through the framebuffer's path
 * (kernel/fb.c); test.map=ADDR maps 4 KiB of MMIO at ADDR (UC) and reads
 * it. Each prints one "test:" line; what it cannot do it says, and the
 * run goes on. */
struct config;
void mem_test_setup(const struct config *cfg);

/* mem_test_report - with test.buffers=high: one line giving the physical
 * range mem_alloc handed out during the run. */
void mem_test_report(void);

#endif

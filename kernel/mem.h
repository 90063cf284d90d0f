/* kernel/mem.h - memory for sample buffers, from the loader's memory map.
 * The boot code identity-maps the first 4 GiB, so only available RAM
 * between the end of the kernel image and 4 GiB is handed out. */
#ifndef KERNEL_MEM_H
#define KERNEL_MEM_H

#include <stdint.h>
#include "multiboot.h"

/* mem_init - choose the largest available region above the kernel image
 * and below 4 GiB. With no memory map, the basic meminfo (upper memory
 * from 1 MiB) is used. */
void mem_init(const struct boot_info *bi);

/* mem_total_usable - bytes the map calls available, below and above 4 GiB. */
uint64_t mem_total_usable(void);

/* mem_free_bytes - bytes mem_alloc can still hand out. */
uint64_t mem_free_bytes(void);

/* mem_alloc - bytes rounded up to 64, aligned to 64; NULL when it does not
 * fit (the caller reports the figure it needed). Never freed. */
void *mem_alloc(uint64_t bytes);

#endif

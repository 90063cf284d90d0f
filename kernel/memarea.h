/* kernel/memarea.h - the memory areas the code under test and the built-in
 * experiments work on (mem=, mem.pages=, mem.type=, regs=; README "Boot
 * parameters", "Measuring your own code"): physically contiguous RAM taken
 * from the pool (kernel/mem.h) when a run asks for it, identity-mapped
 * with the page size and memory type asked for (kernel/paging.h, lib/paging.h:
 * the PAT, SDM Vol. 3A 12.12; 1 GiB pages where CPUID.80000001H:EDX[26]),
 * each followed by an unmapped 4 KiB guard page, so that a load one byte
 * past an area's end is a #PF of the code whose CR2 is the area's end,
 * never kernel memory. An area's end is aligned to its page size; the
 * rest of its first page (below the area) is taken from the pool too, so
 * that no other buffer shares a page of another type.
 *
 * Each area's pages are its own: mem_alloc_aligned takes the whole first
 * page up to the guard from the pool (the pool's bytes skipped for the
 * alignment, up to a page, are lost), pg_map_pages maps exactly those pages
 * (lib/paging.h; new tables from the pool, one per 2 MiB of 4 KiB pages)
 * and the guard is split out with tables from the pool too. 8 MiB of the
 * pool are never offered (memarea_largest), for the run's own buffers
 * taken after the areas (the generated loops, the sample buffers).
 *
 * The areas are zeroed once when taken (REP STOSQ, while write-back). Under the default contract
 * (lib/codegen.h) R14 points at the start of its area and the area's first
 * MiB is zeroed again per call (per ensemble), as the 1 MiB scratch area
 * always was; under regs=nanobench R14, RDI, RSI and RBP point into the
 * middle of an area each (mem= bytes), RSP into the middle of a fifth
 * (nanoBench's kernel module: its own areas, of its own size).
 */
#ifndef KERNEL_MEMAREA_H
#define KERNEL_MEMAREA_H

#include <stdint.h>
#include "../lib/paging.h"

struct config;
struct cpu_info;

#define MEMAREA_MAX 8

struct mem_area {
	const char *who;        /* "R14", "RDI", "RSI", "RBP", "RSP" (a register of
				 * the contract) or a built-in experiment's name ("sweep") */
	uint64_t phys;          /* the first byte; identity-mapped, so also its pointer */
	uint64_t bytes;         /* a multiple of 4 KiB */
	uint64_t page_bytes;    /* 4096, 2 MiB or 1 GiB */
	enum pg_type type;      /* as mapped */
	uint64_t guard;         /* phys + bytes: the unmapped 4 KiB guard page */
	uint64_t pointer;       /* the register's value: phys, or phys + bytes / 2
				 * under regs=nanobench */
};

/* memarea_prepare - with code= given, the areas of its register contract:
 * one (R14) by default, five under regs=nanobench, mem= bytes each, in
 * mem.pages= pages (auto: the largest the CPU has that is not larger
 * than mem=, as memarea_take's 0) of type mem.type=, taken
 * before the sample buffers (bench/main.c calls it before code_prepare).
 * Prints one "mem:" line and one mem_area record per area (printed when
 * memarea_print is called). Returns the command-line problems: mem=
 * larger than free RAM allows (the line says the largest possible),
 * mem.pages=1g without CPUID.80000001H:EDX[26], a type the CPU cannot
 * give (no PAT: CPUID.1:EDX[16]). Without code= nothing is taken (mem=,
 * mem.pages=, mem.type=, regs= given are said to apply to code= and
 * sweep=). */
int memarea_prepare(const struct config *cfg, const struct cpu_info *cpu);

/* memarea_take - one more area of bytes (a multiple of 4 KiB) for a
 * built-in experiment (who: its name), mapped with page_bytes pages (0:
 * the largest not larger than bytes that the CPU has) and type. NULL when
 * it cannot be had; then memarea_refusal() is the line saying why (the
 * largest possible included). */
const struct mem_area *memarea_take(const char *who, uint64_t bytes, uint64_t page_bytes, enum pg_type type);

/* memarea_largest - the most bytes one area mapped with page_bytes pages
 * (0: 1 GiB where the CPU has them, else 2 MiB) could have now (free RAM,
 * alignment, its page tables, the guard page and 8 MiB for the run's own
 * buffers allowed for), a multiple of page_bytes; 0 when none fits. */
uint64_t memarea_largest(uint64_t page_bytes);

/* memarea_refusal - why the last memarea_take or memarea_prepare refused
 * (no newline), "" when it did not. */
const char *memarea_refusal(void);

/* memarea_count, memarea_get - the areas taken so far, in order (0..
 * memarea_count() - 1); memarea_find - the area of register who, or NULL. */
int memarea_count(void);
const struct mem_area *memarea_get(int i);
const struct mem_area *memarea_find(const char *who);

/* memarea_release - for a run of several experiments (bench/plan.h):
 * every area taken is mapped write-back again, guard pages included, in
 * 2 MiB pages over the 2 MiB pages they lie in (kernel/paging.h
 * paging_map_pages; tables, where a page directory is missing, from the
 * pool), and forgotten (memarea_count 0), before the caller hands their
 * memory out again (kernel/mem.h mem_release to a 2 MiB-aligned
 * mem_mark taken before them). Returns 0, or -1 when a mapping was
 * refused (paging_refusal says why; the caller must not reuse the memory). */
int memarea_release(void);

/* memarea_print - the "mem:" line and mem_area record of each area taken
 * (bench/main.c, after config_print). */
void memarea_print(void);

#endif

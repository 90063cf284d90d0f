/* kernel/paging.h - the one function that maps physical memory: RAM, MMIO
 * and the framebuffer, below and above 4 GiB, wherever they lie below
 * MAXPHYADDR.
 *
 * boot/entry.asm identity-maps 0..4 GiB with 2 MiB pages, all write-back;
 * paging_map extends that one set of tables, CR3's (the PML4 stays where
 * the boot code put it: every CPU runs on it), from a pool of
 * PAGING_POOL_PAGES page-table pages in .bss, and sets memory types
 * through the PAT. Identity mapping: the pointer returned is the physical
 * address. What pages, types and bounds: lib/paging.h (host-tested).
 *
 * Called on the boot CPU while it is the only one using the tables: a
 * change to a present entry is invalidated on this CPU at once (a reload of
 * CR3) and on the others before they next run a command (paging_sync);
 * entries made present need no invalidation anywhere (SDM Vol. 3A
 * 4.10.4.3), so another CPU started later, or one that reloads CR3 first,
 * sees them. The first call writes IA32_PAT (MSR 277H) = PG_PAT_VALUE
 * (lib/paging.h: entries 0 WB, 1 WT, 3 UC, 4 WC, 5 WP) and reads it back;
 * another CPU must load the boot CPU's IA32_PAT (kernel/smp.c does, from
 * its start: SDM Vol. 3A 12.12.4 asks for the same PAT on every
 * processor).
 */
#ifndef KERNEL_PAGING_H
#define KERNEL_PAGING_H

#include <stddef.h>
#include <stdint.h>
#include "../lib/paging.h"

#define PAGING_POOL_PAGES 32
#define PAGING_SPLIT_PAGES 4

/* paging_map - identity-map [phys, phys + len) (bytes) with memory type
 * type: PG_WB for RAM, PG_UC for MMIO registers, PG_WC for a framebuffer
 * (UC when the CPU has no PAT, CPUID.1:EDX[16] = 0). Returns the pointer
 * to phys, or NULL when the range is empty, beyond MAXPHYADDR
 * (CPUID.80000008H:EAX[7:0]), non-canonical (at or above 2^47, SDM Vol.
 * 3A 4.5) or the pool is used up: then paging_refusal() is the line
 * "paging: WHO: cannot map ...: why" for the caller to print (this layer
 * prints nothing). Pages already mapped keep a stricter type
 * (lib/paging.h). */
void *paging_map(uint64_t phys, uint64_t len, enum pg_type type, const char *who);

/* paging_unmap - take the 4 KiB pages over [va, va + len) (bytes) out of
 * the identity map, so that any access there faults (#PF): page 0 (null
 * pointers), guard pages around a stack. Splits the 2 MiB page over each
 * into 4 KiB pages, in one of PAGING_SPLIT_PAGES tables of its own, apart
 * from the pool (lib/paging.h pg_unmap_4k; the pages left keep their
 * type, and paging_map leaves such a region WB). Pages
 * already unmapped are skipped. Invalidates this CPU's TLBs and asks the
 * others to (paging_sync): a present entry changed, and another CPU may
 * hold the 2 MiB translation (SDM Vol. 3A 4.10.4.2). Returns 0, or -1 with
 * paging_refusal() saying why (those tables used up). */
int paging_unmap(uint64_t va, uint64_t len, const char *who);

/* paging_unmap_from - paging_unmap with the tables of 4 KiB pages from
 * alloc (a zeroed, mapped 4 KiB page's physical address, 0: none), for
 * callers with more pages to unmap than PAGING_SPLIT_PAGES allows (the
 * guard pages of kernel/memarea.c). */
int paging_unmap_from(uint64_t va, uint64_t len, uint64_t (*alloc)(void *ctx), const char *who);

/* paging_map_pages - identity-map [phys, phys + len) with pages of exactly
 * page_bytes (4 KiB, 2 MiB, or 1 GiB where CPUID.80000001H:EDX[26]) of
 * type, replacing whatever mapped it (lib/paging.h pg_map_pages; phys and
 * len multiples of page_bytes): for a range the caller owns whole (an
 * area of kernel/memarea.c). New tables (4 KiB pages: one per 2 MiB) come
 * from alloc, as for paging_unmap_from. Present entries changed: CR3
 * reloaded here, the other CPUs before their next command (paging_sync);
 * a type changed: WBINVD (SDM Vol. 3A 12.12.4). WT, WP and WC need the
 * PAT (CPUID.1:EDX[16] and IA32_PAT read back as written). Returns 0, or
 * -1 with paging_refusal() saying why. */
int paging_map_pages(uint64_t phys, uint64_t len, uint64_t page_bytes, enum pg_type type,
		     uint64_t (*alloc)(void *ctx), const char *who);

/* paging_pat_ok - 1 when IA32_PAT holds PG_PAT_VALUE (WT, WP and WC
 * available); paging_has_1g - 1 with CPUID.80000001H:EDX[26] (Page1GB). */
int paging_pat_ok(void);
int paging_has_1g(void);

/* paging_present - 1 when va is mapped in CR3's tables, read without
 * touching va (never faults; lib/paging.h pg_present): for a trap handler
 * that wants to read bytes it is not sure are mapped. */
int paging_present(uint64_t va);

/* paging_sync - on a CPU other than the one that called paging_unmap:
 * reload CR3 (flushing the TLBs) when a change was made since *seen, the
 * caller's own count (0 at its start, which followed its CR3 load), which
 * it updates. kernel/smp.c calls it before each command an AP runs. */
void paging_sync(uint64_t *seen);

/* paging_limit - the end of what paging_map can map: 2^MAXPHYADDR, at most
 * 2^47 (canonical). */
uint64_t paging_limit(void);

/* paging_wc - 1 when PG_WC gives write-combining (the CPU has a PAT and
 * IA32_PAT took PG_PAT_VALUE). */
int paging_wc(void);

/* paging_pool_used - page-table pages taken from the pool so far
 * (0..PAGING_POOL_PAGES). */
int paging_pool_used(void);

/* paging_refusal - the line saying why the last paging_map refused (no
 * newline), "" when it succeeded. */
const char *paging_refusal(void);

/* paging_describe - the env: paging line (no newline) into buf[0..size-1]:
 * MAXPHYADDR, 1 GiB pages, the PAT, the pool's use. */
void paging_describe(char *buf, size_t size);

#endif

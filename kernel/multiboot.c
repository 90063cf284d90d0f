/* kernel/multiboot.c - see multiboot.h. */
#include "multiboot.h"
#include "../lib/mb2tags.h"

static void copy_str(char *dst, uint64_t size, const char *src)
{
	uint64_t i = 0;
	for (; src && src[i] && i < size - 1; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/* The length of the string at src, counted up to max characters. */
static uint64_t str_len(const char *src, uint64_t max)
{
	uint64_t n = 0;
	while (src && n < max && src[n])
		n++;
	return n;
}

static void add_mmap(struct boot_info *bi, uint64_t base, uint64_t len, uint32_t type)
{
	if (bi->nmmap == BOOT_MMAP_MAX) {
		bi->mmap_truncated = 1;
		return;
	}
	bi->mmap[bi->nmmap].base = base;
	bi->mmap[bi->nmmap].length = len;
	bi->mmap[bi->nmmap].type = type;
	bi->nmmap++;
}

/* The memory map's entries, one call of fn(ctx, base, length, type) each:
 * multiboot1's (flags bit 6: mmap_length, mmap_addr; each entry preceded by
 * its size) and a multiboot2 memory map tag's (type 6: entry_size, then
 * entries). Multiboot 0.6.96 section 3.3, Multiboot2 3.6.8. */
typedef void (*mmap_fn)(void *ctx, uint64_t base, uint64_t len, uint32_t type);

static void walk_mb1_mmap(const uint8_t *info, mmap_fn fn, void *ctx)
{
	uint32_t len = *(const uint32_t *)(info + 44);
	uint64_t addr = *(const uint32_t *)(info + 48);
	for (uint64_t p = addr; p + 24 <= addr + len;) {
		const uint8_t *e = (const uint8_t *)p;
		uint32_t size = *(const uint32_t *)e;
		fn(ctx, *(const uint64_t *)(e + 4), *(const uint64_t *)(e + 12), *(const uint32_t *)(e + 20));
		p += size + 4;
	}
}

static void walk_mb2_mmap(const uint8_t *tag, uint32_t size, mmap_fn fn, void *ctx)
{
	uint32_t esize = *(const uint32_t *)(tag + 8);
	if (esize < 24)
		return;
	for (const uint8_t *e = tag + 16; e + esize <= tag + size; e += esize)
		fn(ctx, *(const uint64_t *)e, *(const uint64_t *)(e + 8), *(const uint32_t *)(e + 16));
}

static void keep_mmap(void *ctx, uint64_t base, uint64_t len, uint32_t type)
{
	add_mmap(ctx, base, len, type);
}

static void add_module(struct boot_info *bi, uint64_t start, uint64_t end, const char *name)
{
	if (bi->nmodules >= BOOT_MODULES_MAX) {
		bi->modules_dropped++;
		return;
	}
	struct boot_module *m = &bi->modules[bi->nmodules++];
	m->start = start;
	m->end = end;
	copy_str(m->name, sizeof m->name, name ? name : "");
}

static void parse_mb1(const uint8_t *info, struct boot_info *bi)
{
	uint32_t flags = *(const uint32_t *)info;
	if (flags & (1u << 0)) {
		bi->mem_lower_kib = *(const uint32_t *)(info + 4);
		bi->mem_upper_kib = *(const uint32_t *)(info + 8);
		bi->has_meminfo = 1;
	}
	if (flags & (1u << 2)) {
		const char *line = (const char *)(uint64_t)*(const uint32_t *)(info + 16);
		copy_str(bi->cmdline, sizeof bi->cmdline, line);
		bi->cmdline_len = str_len(line, CFG_LINE_COUNT_MAX);
	}
	if (flags & (1u << 3)) { /* mods_count, mods_addr: 16 bytes each */
		uint32_t n = *(const uint32_t *)(info + 20);
		const uint8_t *m = (const uint8_t *)(uint64_t)*(const uint32_t *)(info + 24);
		for (uint32_t i = 0; m && i < n; i++, m += 16)
			add_module(bi, *(const uint32_t *)m, *(const uint32_t *)(m + 4),
				   (const char *)(uint64_t)*(const uint32_t *)(m + 8));
	}
	if (flags & (1u << 6))
		walk_mb1_mmap(info, keep_mmap, bi);
	if (flags & (1u << 9))
		copy_str(bi->loader, sizeof bi->loader,
			 (const char *)(uint64_t)*(const uint32_t *)(info + 64));
	if (flags & (1u << 12)) {
		bi->fb_present = 1;
		bi->fb_addr = *(const uint64_t *)(info + 88);
		bi->fb_pitch = *(const uint32_t *)(info + 96);
		bi->fb_width = *(const uint32_t *)(info + 100);
		bi->fb_height = *(const uint32_t *)(info + 104);
		bi->fb_bpp = info[108];
		bi->fb_type = info[109];
	}
}

static void parse_mb2(const uint8_t *info, struct boot_info *bi)
{
	for (const uint8_t *p = mb2_tag_next(info, 0); p; p = mb2_tag_next(info, p)) {
		uint32_t type = mb2_tag_type(p), size = mb2_tag_size(p);
		if (mb2_efi_take(p, &bi->efi))
			continue;
		switch (type) {
		case 1: /* boot command line: a string within the tag */
			copy_str(bi->cmdline, sizeof bi->cmdline, (const char *)(p + 8));
			bi->cmdline_len = str_len((const char *)(p + 8), size - 8 < CFG_LINE_COUNT_MAX ?
						  size - 8 : CFG_LINE_COUNT_MAX);
			break;
		case 3: /* module: mod_start, mod_end, its string */
			add_module(bi, *(const uint32_t *)(p + 8), *(const uint32_t *)(p + 12),
				   size > 16 ? (const char *)(p + 16) : "");
			break;
		case 2: /* boot loader name */
			copy_str(bi->loader, sizeof bi->loader, (const char *)(p + 8));
			break;
		case 4: /* basic memory information */
			bi->mem_lower_kib = *(const uint32_t *)(p + 8);
			bi->mem_upper_kib = *(const uint32_t *)(p + 12);
			bi->has_meminfo = 1;
			break;
		case 6: /* memory map */
			walk_mb2_mmap(p, size, keep_mmap, bi);
			break;
		case 14: /* ACPI old RSDP: a copy of it */
		case 15: /* ACPI new RSDP */
			if (type == 15 || !bi->rsdp_len) {
				uint32_t n = size - 8 < sizeof bi->rsdp ? size - 8 : (uint32_t)sizeof bi->rsdp;
				for (uint32_t i = 0; i < n; i++)
					bi->rsdp[i] = p[8 + i];
				bi->rsdp_len = n;
			}
			break;
		case 8: /* framebuffer info */
			bi->fb_present = 1;
			bi->fb_addr = *(const uint64_t *)(p + 8);
			bi->fb_pitch = *(const uint32_t *)(p + 16);
			bi->fb_width = *(const uint32_t *)(p + 20);
			bi->fb_height = *(const uint32_t *)(p + 24);
			bi->fb_bpp = p[28];
			bi->fb_type = p[29];
			break;
		}
	}
}

void multiboot_parse(uint32_t magic, uint64_t info_phys, struct boot_info *bi)
{
	bi->magic = magic;
	bi->protocol = 0;
	if (magic == MB1_BOOT_MAGIC && info_phys) {
		bi->protocol = 1;
		parse_mb1((const uint8_t *)info_phys, bi);
	} else if (magic == MB2_BOOT_MAGIC && info_phys) {
		bi->protocol = 2;
		parse_mb2((const uint8_t *)info_phys, bi);
	}
	const char *q = "qemu";
	int i = 0;
	while (q[i] && bi->loader[i] == q[i])
		i++;
	bi->cmdline_path_first = bi->protocol == 1 && !q[i] && !bi->loader[i];
}

struct cfg_line multiboot_cmdline(const struct boot_info *bi)
{
	struct cfg_line line = { .text = bi->cmdline, .length = bi->cmdline_len,
				 .path_first = bi->cmdline_path_first };
	return line;
}

/* The end of the available RAM reached from start: grown by every available
 * entry that begins at or below it and ends beyond (entries in any order,
 * adjacent or overlapping). */
struct ram_reach {
	uint64_t end;
	int grew, entries;
};

static void reach(void *ctx, uint64_t base, uint64_t len, uint32_t type)
{
	struct ram_reach *r = ctx;
	r->entries++;
	if (type == MMAP_AVAILABLE && base <= r->end && base + len > r->end && base + len > base) {
		r->end = base + len;
		r->grew = 1;
	}
}

uint64_t multiboot_ram_end(uint32_t magic, uint64_t info_phys, uint64_t start)
{
	const uint8_t *info = (const uint8_t *)info_phys;
	struct ram_reach r = { .end = start };
	uint64_t upper_kib = 0;
	int has_upper = 0;
	if (!info_phys || (magic != MB1_BOOT_MAGIC && magic != MB2_BOOT_MAGIC))
		return 0;
	do { /* at most one pass per entry */
		r.grew = r.entries = 0;
		if (magic == MB1_BOOT_MAGIC) {
			uint32_t flags = *(const uint32_t *)info;
			if (flags & (1u << 6))
				walk_mb1_mmap(info, reach, &r);
			has_upper = flags & 1u;
			upper_kib = *(const uint32_t *)(info + 8);
		} else {
			for (const uint8_t *p = mb2_tag_next(info, 0); p; p = mb2_tag_next(info, p)) {
				uint32_t type = mb2_tag_type(p);
				if (type == 6)
					walk_mb2_mmap(p, mb2_tag_size(p), reach, &r);
				if (type == 4) {
					has_upper = 1;
					upper_kib = *(const uint32_t *)(p + 12);
				}
			}
		}
	} while (r.grew);
	if (!r.entries && has_upper && start >= 0x100000 && start <= 0x100000 + upper_kib * 1024)
		return 0x100000 + upper_kib * 1024; /* mem_upper: KiB from 1 MiB, up to the first hole */
	return r.end > start ? r.end : 0;
}

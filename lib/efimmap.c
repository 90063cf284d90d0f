/* lib/efimmap.c - see efimmap.h. */
#include "efimmap.h"

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int efimmap_desc_size_ok(uint64_t desc_size)
{
	return desc_size >= EFI_MMAP_DESC_MIN && desc_size % 8 == 0;
}

uint64_t efimmap_count(uint64_t map_size, uint64_t desc_size)
{
	return efimmap_desc_size_ok(desc_size) ? map_size / desc_size : 0;
}

int efimmap_get(const uint8_t *map, uint64_t map_size, uint64_t desc_size, uint64_t i,
		struct efi_desc *d)
{
	if (i >= efimmap_count(map_size, desc_size))
		return 0;
	const uint8_t *e = map + i * desc_size;
	d->type = (uint32_t)rd64(e);
	d->base = rd64(e + 8);
	d->pages = rd64(e + 24);
	d->attribute = rd64(e + 32);
	return 1;
}

int efimmap_usable(uint32_t type, int boot_services_live)
{
	if (type == EFI_CONVENTIONAL_MEMORY)
		return 1;
	return !boot_services_live && (type == EFI_BOOT_SERVICES_CODE || type == EFI_BOOT_SERVICES_DATA);
}

const char *efimmap_type_name(uint32_t type)
{
	static const char *const names[EFI_MEMORY_TYPES] = {
		"EfiReservedMemoryType", "EfiLoaderCode", "EfiLoaderData",
		"EfiBootServicesCode", "EfiBootServicesData", "EfiRuntimeServicesCode",
		"EfiRuntimeServicesData", "EfiConventionalMemory", "EfiUnusableMemory",
		"EfiACPIReclaimMemory", "EfiACPIMemoryNVS", "EfiMemoryMappedIO",
		"EfiMemoryMappedIOPortSpace", "EfiPalCode", "EfiPersistentMemory",
		"EfiUnacceptedMemoryType",
	};
	if (type < EFI_MEMORY_TYPES)
		return names[type];
	if (type >= 0x80000000u)
		return "OS type";
	return type >= 0x70000000u ? "OEM type" : "unknown type";
}

/* [base, end) into the sorted, non-adjacent out[0 .. f->ranges-1]: merged
 * with every range it overlaps or touches, else inserted in order (when
 * out is full, the highest range is dropped). */
static void add_range(struct efi_range *out, uint64_t cap, struct efimmap_free *f, uint64_t base,
		      uint64_t end)
{
	uint64_t i = 0, n = f->ranges;
	while (i < n && out[i].base + out[i].length < base)
		i++;
	if (i < n && out[i].base <= end) {
		uint64_t b = out[i].base < base ? out[i].base : base;
		uint64_t e = out[i].base + out[i].length > end ? out[i].base + out[i].length : end;
		uint64_t j = i + 1;
		for (; j < n && out[j].base <= e; j++)
			if (out[j].base + out[j].length > e)
				e = out[j].base + out[j].length;
		out[i].base = b;
		out[i].length = e - b;
		for (uint64_t k = j; k < n; k++)
			out[i + 1 + (k - j)] = out[k];
		f->ranges = n - (j - i - 1);
		return;
	}
	if (n == cap) {
		f->dropped++;
		if (i == cap)
			return;
		n--;
	}
	for (uint64_t k = n; k > i; k--)
		out[k] = out[k - 1];
	out[i].base = base;
	out[i].length = end - base;
	f->ranges = n + 1;
}

struct efimmap_free efimmap_free_ranges(const uint8_t *map, uint64_t map_size, uint64_t desc_size,
					int boot_services_live, struct efi_range *out, uint64_t cap)
{
	struct efimmap_free f = { 0 };
	struct efi_desc d;
	for (uint64_t i = 0; efimmap_get(map, map_size, desc_size, i, &d); i++) {
		if (!efimmap_usable(d.type, boot_services_live))
			continue;
		if (d.base % EFI_PAGE_SIZE || !d.pages || d.pages > (~0ull - d.base) / EFI_PAGE_SIZE) {
			f.bad++;
			continue;
		}
		add_range(out, cap, &f, d.base, d.base + d.pages * EFI_PAGE_SIZE);
	}
	for (uint64_t i = 0; i < f.ranges; i++)
		f.bytes += out[i].length;
	return f;
}

/* kernel/smbios.c - see smbios.h. */
#include "smbios.h"
#include "console.h"
#include "paging.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

static struct smbios_info info;
static const char *source = "";   /* "efi" or "scan" */
static uint64_t entry_phys;
static char why_none[160];        /* no entry point: why */
static char test_line[200];       /* what test.smbios_corrupt did */
static char banner[200];
static char sys_short[200], board_short[140], bios_short[200];

/* EFI_SYSTEM_TABLE's NumberOfTableEntries and ConfigurationTable (UEFI
 * 2.10 4.3.1), and an EFI_CONFIGURATION_TABLE entry: its VendorGuid, then
 * VendorTable (4.6), 24 bytes. */
#define EFI_ST_NTABLES 104
#define EFI_ST_TABLES 112
#define EFI_CONFIG_ENTRY 24
/* UEFI 2.10 4.6.1.1 SMBIOS3_TABLE_GUID and SMBIOS_TABLE_GUID, as their
 * bytes lie in memory (the first three fields little-endian). */
static const uint8_t smbios3_guid[16] = { 0x44, 0x15, 0xfd, 0xf2, 0x94, 0x97, 0x2c, 0x4a,
					  0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 };
static const uint8_t smbios_guid[16] = { 0x31, 0x2d, 0x9d, 0xeb, 0x88, 0x2d, 0xd3, 0x11,
					 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d };

/* Copies test.smbios_corrupt breaks (test only). */
static uint8_t ep_copy[32];
static uint8_t table_copy[8192];

static const uint8_t *map(uint64_t phys, uint64_t len, const char *who)
{
	const uint8_t *p = phys && len ? paging_map(phys, len, PG_WB, who) : 0;
	if (!p && phys && len)
		fmt_format(info.problem, sizeof info.problem, "%s", paging_refusal());
	return p;
}

/* The entry point's address from the EFI configuration table, 0 when
 * neither GUID is there (why_none says so). */
static uint64_t efi_entry(uint64_t st_phys)
{
	const uint8_t *st = map(st_phys, EFI_ST_TABLES + 8, "EFI system table");
	if (!st)
		return 0;
	uint64_t n, tables;
	memcpy(&n, st + EFI_ST_NTABLES, 8);
	memcpy(&tables, st + EFI_ST_TABLES, 8);
	const uint8_t *t = n && n < 4096 ? map(tables, n * EFI_CONFIG_ENTRY, "EFI configuration table") : 0;
	uint64_t at = 0;
	for (int want = 0; want < 2 && t && !at; want++)
		for (uint64_t i = 0; i < n && !at; i++)
			if (!memcmp(t + i * EFI_CONFIG_ENTRY, want ? smbios_guid : smbios3_guid, 16))
				memcpy(&at, t + i * EFI_CONFIG_ENTRY + 16, 8);
	if (!at)
		fmt_format(why_none, sizeof why_none, "no SMBIOS GUID (SMBIOS3_TABLE_GUID, SMBIOS_TABLE_GUID) among the "
			   "EFI configuration table's %llu entries", (unsigned long long)n);
	return at;
}

/* test.smbios_corrupt's copy of the table, broken as smbios.h says; the
 * table's own bytes when it cannot be (test_line says why). */
static const uint8_t *corrupt_table(const uint8_t *t, size_t *len, uint64_t corrupt)
{
	long end = smbios_end_of_table(t, *len);
	if (end < 0 || (size_t)end + 6 > sizeof table_copy) {
		fmt_format(test_line, sizeof test_line, "test: test.smbios_corrupt=%s: %s: left as it is",
			   corrupt == SMBIOS_CORRUPT_LENGTH ? "length" : "string",
			   end < 0 ? "the table has no End-of-Table structure" : "the table is larger than the copy's room");
		return t;
	}
	*len = (size_t)end + 6; /* up to the End-of-Table's double NUL */
	memcpy(table_copy, t, *len);
	if (corrupt == SMBIOS_CORRUPT_LENGTH)
		table_copy[end + 1] = 0xFF;
	else
		table_copy[end + 4] = table_copy[end + 5] = 'X';
	fmt_format(test_line, sizeof test_line, "test: test.smbios_corrupt=%s: a copy of the table (%lu bytes) with "
		   "the End-of-Table structure's %s at offset 0x%lx", corrupt == SMBIOS_CORRUPT_LENGTH ? "length" : "string",
		   (unsigned long)*len, corrupt == SMBIOS_CORRUPT_LENGTH ? "length set to 255" : "double NUL overwritten",
		   (unsigned long)end);
	return table_copy;
}

static void texts(void)
{
	smbios_short(sys_short, sizeof sys_short, info.sys_manufacturer, info.sys_product, info.sys_version);
	smbios_short(board_short, sizeof board_short, info.board_manufacturer, info.board_product, 0);
	smbios_short(bios_short, sizeof bios_short, info.bios_vendor, info.bios_version, info.bios_date);
	size_t n = 0;
	if (sys_short[0])
		n += (size_t)fmt_format(banner + n, sizeof banner - n, ", on %s", sys_short);
	if (bios_short[0] && n < sizeof banner)
		fmt_format(banner + n, sizeof banner - n, ", BIOS %s", bios_short);
}

void smbios_init(const struct boot_info *bi, uint64_t corrupt)
{
	memset(&info, 0, sizeof info);
	const uint8_t *ep = 0;
	if (bi->efi.system_table) {
		source = "efi";
		entry_phys = efi_entry(bi->efi.system_table);
		ep = map(entry_phys, 32, "SMBIOS entry point");
	} else {
		source = "scan";
		const uint8_t *seg = map(0xF0000, 0x10000, "BIOS area F0000h-FFFFFh");
		long off = seg ? smbios_scan(seg, 0x10000, &info.entry, info.problem, sizeof info.problem) : -1;
		if (off >= 0) {
			entry_phys = 0xF0000 + (uint64_t)off;
			ep = seg + off;
		} else if (seg) {
			fmt_format(why_none, sizeof why_none, "%s%s",
				   info.problem[0] ? "no valid entry point in F0000h-FFFFFh: " :
				   "no entry point (\"_SM3_\", \"_SM_\") in F0000h-FFFFFh", info.problem);
		}
	}
	if (ep && corrupt == SMBIOS_CORRUPT_CHECKSUM) {
		memcpy(ep_copy, ep, sizeof ep_copy);
		int at = ep_copy[1] == 'S' && ep_copy[3] == '3' ? 5 : 4;
		ep_copy[at] ^= 0x5A;
		fmt_format(test_line, sizeof test_line, "test: test.smbios_corrupt=checksum: a copy of the entry point at "
			   "0x%llx with its checksum byte flipped", (unsigned long long)entry_phys);
		ep = ep_copy;
	}
	if (ep && smbios_entry_parse(ep, 32, &info.entry, info.problem, sizeof info.problem) == 1) {
		size_t len = info.entry.table_len;
		const uint8_t *t = map(info.entry.table_phys, len, "SMBIOS table");
		if (t && (corrupt == SMBIOS_CORRUPT_LENGTH || corrupt == SMBIOS_CORRUPT_STRING))
			t = corrupt_table(t, &len, corrupt);
		if (t) {
			struct smbios_entry e = info.entry;
			smbios_decode(t, len, &e, &info);
		}
	}
	texts();
}

const char *smbios_banner(void)
{
	return banner;
}

void smbios_texts(const char **system, const char **board, const char **bios)
{
	*system = sys_short, *board = board_short, *bios = bios_short;
}

const struct smbios_info *smbios_get(void)
{
	return &info;
}

static const char *or_null(const char *s)
{
	return s[0] ? s : 0;
}

void smbios_env(struct rec *r)
{
	char v[16];
	rec_str(r, "system", or_null(sys_short));
	rec_str(r, "board", or_null(board_short));
	rec_str(r, "bios", or_null(bios_short));
	rec_str(r, "system_uuid", or_null(info.sys_uuid));
	rec_str(r, "smbios", info.decoded ? smbios_version(v, sizeof v, &info.entry) : 0);
}

static const char *or_none(const char *s)
{
	return s[0] ? s : "(none)";
}

/* bytes in the largest of GiB, MiB, KiB that divides them. */
static char *size_text(char *buf, size_t size, uint64_t bytes)
{
	const char *u = "KiB";
	int shift = 10;
	if (bytes && !(bytes & ((1ull << 30) - 1)))
		u = "GiB", shift = 30;
	else if (bytes && !(bytes & ((1ull << 20) - 1)))
		u = "MiB", shift = 20;
	fmt_format(buf, size, "%llu %s", (unsigned long long)(bytes >> shift), u);
	return buf;
}

static void memory_lines(int full)
{
	for (int i = 0; i < info.memdevs_kept; i++) {
		const struct smbios_memdev *d = &info.memdev[i];
		char sz[32] = "size unknown", sp[40] = "speed unknown", cs[48] = "configured speed unknown";
		if (d->size_known)
			size_text(sz, sizeof sz, d->size_bytes);
		if (d->speed_mts)
			fmt_format(sp, sizeof sp, "%u MT/s", d->speed_mts);
		if (d->configured_mts)
			fmt_format(cs, sizeof cs, "configured %u MT/s", d->configured_mts);
		kprintf("memory: %s (bank %s, handle 0x%04x): %s %s, %s, %s, manufacturer %s, part %s%s%s\n",
			or_none(d->locator), or_none(d->bank), d->handle, sz, d->type, sp, cs, or_none(d->manufacturer),
			or_none(d->part), full ? ", serial " : "", full ? or_none(d->serial) : "");
		struct rec r;
		rec_begin(&r, "memory_device");
		char h[8];
		fmt_format(h, sizeof h, "0x%04x", d->handle);
		rec_str(&r, "handle", h);
		rec_str(&r, "locator", or_null(d->locator));
		rec_str(&r, "bank", or_null(d->bank));
		rec_u64_or_null(&r, "size_bytes", d->size_known, d->size_bytes);
		rec_str(&r, "type", d->type);
		rec_u64_or_null(&r, "speed_mts", d->speed_mts != 0, d->speed_mts);
		rec_u64_or_null(&r, "configured_speed_mts", d->configured_mts != 0, d->configured_mts);
		rec_str(&r, "manufacturer", or_null(d->manufacturer));
		rec_str(&r, "part", or_null(d->part));
		rec_str(&r, "serial", full ? or_null(d->serial) : 0);
		rec_end(&r);
	}
	if (info.memory_devices > info.memdevs_kept)
		kprintf("memory: %d more populated memory devices (type 17) not listed: room for %d\n",
			info.memory_devices - info.memdevs_kept, SMBIOS_MEMDEV_MAX);
}

static void smbios_record(int full)
{
	struct rec r;
	char v[16], at[24];
	rec_begin(&r, "smbios");
	rec_str(&r, "entry", info.entry.kind == SMBIOS_EP30 ? "3.0" : "2.1");
	rec_str(&r, "source", source);
	fmt_format(at, sizeof at, "0x%llx", (unsigned long long)info.entry.table_phys);
	rec_str(&r, "table_phys", info.decoded ? at : 0);
	rec_u64_or_null(&r, "table_bytes", info.decoded, info.entry.table_len);
	rec_str(&r, "version", info.decoded ? smbios_version(v, sizeof v, &info.entry) : 0);
	rec_u64_or_null(&r, "structures", info.decoded, (uint64_t)info.structures);
	rec_str(&r, "sys_manufacturer", or_null(info.sys_manufacturer));
	rec_str(&r, "sys_product", or_null(info.sys_product));
	rec_str(&r, "sys_version", or_null(info.sys_version));
	rec_str(&r, "sys_uuid", or_null(info.sys_uuid));
	rec_str(&r, "sys_serial", full ? or_null(info.sys_serial) : 0);
	rec_str(&r, "sys_sku", or_null(info.sys_sku));
	rec_str(&r, "sys_family", or_null(info.sys_family));
	rec_str(&r, "board_manufacturer", or_null(info.board_manufacturer));
	rec_str(&r, "board_product", or_null(info.board_product));
	rec_str(&r, "board_version", or_null(info.board_version));
	rec_str(&r, "board_serial", full ? or_null(info.board_serial) : 0);
	rec_str(&r, "bios_vendor", or_null(info.bios_vendor));
	rec_str(&r, "bios_version", or_null(info.bios_version));
	rec_str(&r, "bios_date", or_null(info.bios_date));
	rec_str(&r, "cpu_socket", or_null(info.cpu_socket));
	rec_u64_or_null(&r, "cpu_current_mhz", info.cpu_current_mhz != 0, info.cpu_current_mhz);
	rec_u64_or_null(&r, "cpu_max_mhz", info.cpu_max_mhz != 0, info.cpu_max_mhz);
	rec_u64(&r, "memory_devices", (uint64_t)info.memory_devices);
	rec_str(&r, "problem", or_null(info.problem));
	rec_end(&r);
}

void smbios_print(uint64_t identity)
{
	int full = identity == IDENTITY_FULL;
	if (test_line[0])
		kprintf("%s\n", test_line);
	if (info.entry.kind == SMBIOS_NONE) {
		kprintf("machine: no SMBIOS: %s: system, board and BIOS unknown\n",
			why_none[0] ? why_none : info.problem);
		return;
	}
	char v[16];
	if (info.decoded) {
		char serial[SMBIOS_STR_MAX + 16] = "", bserial[SMBIOS_STR_MAX + 16] = "", cpu[SMBIOS_STR_MAX + 80];
		if (full) {
			fmt_format(serial, sizeof serial, ", serial %s", or_none(info.sys_serial));
			fmt_format(bserial, sizeof bserial, ", serial %s", or_none(info.board_serial));
		}
		fmt_format(cpu, sizeof cpu, "socket %s", or_none(info.cpu_socket));
		size_t n = strlen(cpu);
		if (info.cpu_current_mhz)
			n += (size_t)fmt_format(cpu + n, sizeof cpu - n, ", %u MHz now", info.cpu_current_mhz);
		if (info.cpu_max_mhz && n < sizeof cpu)
			fmt_format(cpu + n, sizeof cpu - n, ", %u MHz max", info.cpu_max_mhz);
		kprintf("machine: system %s%s, uuid %s; board %s%s; BIOS %s; processor %s; SMBIOS %s (%s entry point at "
			"0x%llx from %s, table at 0x%llx, %u bytes, %d structures)%s\n",
			or_none(sys_short), serial, or_none(info.sys_uuid), or_none(board_short), bserial,
			or_none(bios_short), cpu, smbios_version(v, sizeof v, &info.entry),
			info.entry.kind == SMBIOS_EP30 ? "64-bit \"_SM3_\"" : "32-bit \"_SM_\"",
			(unsigned long long)entry_phys,
			source[0] == 'e' ? "the EFI configuration table" : "the scan of F0000h-FFFFFh",
			(unsigned long long)info.entry.table_phys, info.entry.table_len, info.structures,
			full ? "" : " (serial numbers left out: identity=full shows them)");
		memory_lines(full);
	}
	if (info.problem[0])
		kprintf("machine: SMBIOS problem: %s%s\n", info.problem,
			info.decoded ? ": the structures before it are used" : ": the table is not read");
	smbios_record(full);
}

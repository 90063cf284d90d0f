/* tests/unit/test_smbios.c - lib/smbios.c on tables made here: both entry
 * points (DSP0134 5.2.1 "_SM_"/"_DMI_", 5.2.2 "_SM3_") and their checksums,
 * the F-segment scan, the decoding of types 0, 1 (the UUID's two byte
 * orders), 2, 4 and 17 (KB and MB granularity, Extended Size, Extended
 * Speed, empty sockets), and every malformed table smbios.h names: a length
 * below 4, a structure past the end, strings without their double NUL, a
 * string index beyond the set; the short identity texts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../lib/smbios.h"

static uint8_t tab[4096];
static size_t tlen;
static size_t starts[16]; /* each structure's offset */
static int nstarts;

/* Append one structure: its formatted area (type, length, handle, then
 * body[]) and its strings (NUL-separated in strs, "" for none). */
static size_t add(uint8_t type, uint16_t handle, const uint8_t *body, size_t nbody, const char *const *strs, int n)
{
	size_t at = tlen;
	starts[nstarts++ & 15] = at;
	tab[tlen++] = type;
	tab[tlen++] = (uint8_t)(4 + nbody);
	tab[tlen++] = (uint8_t)handle;
	tab[tlen++] = (uint8_t)(handle >> 8);
	if (nbody)
		memcpy(tab + tlen, body, nbody);
	tlen += nbody;
	for (int i = 0; i < n; i++) {
		size_t k = strlen(strs[i]);
		memcpy(tab + tlen, strs[i], k + 1);
		tlen += k + 1;
	}
	if (!n)
		tab[tlen++] = 0;
	tab[tlen++] = 0;
	return at;
}

static void w16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void w32(uint8_t *p, uint32_t v) { w16(p, (uint16_t)v), w16(p + 2, (uint16_t)(v >> 16)); }

/* A table like a real machine's: BIOS, system, board, a processor, two
 * populated DIMMs and an empty socket, the end. */
static void machine(void)
{
	tlen = 0, nstarts = 0;
	uint8_t b0[0x14] = { 1, 2, 0, 0xE8, 3, 0xFF };
	b0[0x08 - 4] = 3;
	const char *s0[] = { "American Megatrends Inc.", "F12", "05/10/2023" };
	add(0, 0x0000, b0, sizeof b0, s0, 3);
	uint8_t b1[0x1B - 4] = { 1, 2, 3, 4 };
	for (int i = 0; i < 16; i++)
		b1[4 + i] = (uint8_t)(0x10 + i);
	b1[0x19 - 4] = 5, b1[0x1A - 4] = 6;
	const char *s1[] = { "Gigabyte Technology Co., Ltd.", "X570 AORUS ELITE", "-CF", "ABC123",
			     "Default string", "X570 MB" };
	add(1, 0x0001, b1, sizeof b1, s1, 6);
	uint8_t b2[0x0F - 4] = { 1, 2, 3, 4 };
	const char *s2[] = { "Gigabyte Technology Co., Ltd.", "X570 AORUS ELITE", "x.x", "BSN9" };
	add(2, 0x0002, b2, sizeof b2, s2, 4);
	uint8_t b4[0x2A - 4] = { 1 };
	w16(b4 + 0x14 - 4, 4700);
	w16(b4 + 0x16 - 4, 3600);
	b4[0x18 - 4] = 0x41;
	const char *s4[] = { "AM4" };
	add(4, 0x0004, b4, sizeof b4, s4, 1);
	uint8_t b17[0x5C - 4] = { 0 };
	w16(b17 + 0x0C - 4, 16384);          /* 16384 MB */
	b17[0x10 - 4] = 1, b17[0x11 - 4] = 2; /* locator, bank */
	b17[0x12 - 4] = 0x1A;                 /* DDR4 */
	w16(b17 + 0x15 - 4, 3200);
	b17[0x17 - 4] = 3, b17[0x18 - 4] = 4, b17[0x1A - 4] = 5;
	w16(b17 + 0x20 - 4, 2933);
	const char *s17[] = { "DIMM 0", "P0 CHANNEL A", "Kingston", "0x1234ABCD", "KHX3200C16D4/16GX" };
	add(17, 0x0036, b17, sizeof b17, s17, 5);
	w16(b17 + 0x0C - 4, 0);               /* an empty socket: skipped */
	add(17, 0x0037, b17, sizeof b17, s17, 5);
	w16(b17 + 0x0C - 4, 0x7FFF);          /* Extended Size: 32 GiB */
	w32(b17 + 0x1C - 4, 32768);
	b17[0x12 - 4] = 0x22;                 /* DDR5 */
	w16(b17 + 0x15 - 4, 0xFFFF);          /* Extended Speed */
	w32(b17 + 0x54 - 4, 70000);
	w16(b17 + 0x20 - 4, 0xFFFF);
	w32(b17 + 0x58 - 4, 68000);
	add(17, 0x0038, b17, sizeof b17, s17, 5);
	w16(b17 + 0x0C - 4, 0x8000 | 512);    /* 512 KB */
	add(17, 0x0039, b17, 0x1B - 4, s17, 5); /* a 2.3 device: no extended fields */
	add(127, 0x00FF, 0, 0, 0, 0);
}

static struct smbios_info info;

static void entry_points(void)
{
	uint8_t ep[32] = { 0 };
	struct smbios_entry e;
	char why[SMBIOS_PROBLEM_MAX];
	memcpy(ep, "_SM3_", 5);
	ep[6] = 0x18, ep[7] = 3, ep[8] = 6, ep[9] = 0;
	w32(ep + 0x0C, 0x1234);
	w32(ep + 0x10, 0x00010000), w32(ep + 0x14, 0x1);
	ep[5] = (uint8_t)(0x100 - smbios_checksum(ep, 0x18));
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == 1, "a valid 3.0 entry point is taken: %s", why);
	CHECK(e.kind == SMBIOS_EP30 && e.major == 3 && e.minor == 6 && e.table_len == 0x1234 &&
		      e.table_phys == 0x100010000ull,
	      "the 3.0 entry point's version, maximum size and 64-bit address");
	char v[16];
	CHECK_STR(smbios_version(v, sizeof v, &e), "3.6.0", "a 3.0 entry point's version has three parts");
	ep[5] ^= 1;
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "3.0 entry point's checksum"),
	      "a bad 3.0 checksum is named: %s", why);
	ep[5] ^= 1, ep[6] = 0x10;
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "length is 16"),
	      "a 3.0 entry point too short is named: %s", why);
	CHECK(smbios_entry_parse(ep, 4, &e, why, sizeof why) == 0, "4 bytes hold no anchor");

	memset(ep, 0, sizeof ep);
	memcpy(ep, "_SM_", 4);
	ep[5] = 0x1F, ep[6] = 2, ep[7] = 8;
	memcpy(ep + 0x10, "_DMI_", 5);
	w16(ep + 0x16, 0x200);
	w32(ep + 0x18, 0xF0000);
	w16(ep + 0x1C, 9);
	ep[0x1E] = 0x28;
	ep[0x15] = (uint8_t)(0x100 - smbios_checksum(ep + 0x10, 15));
	ep[4] = (uint8_t)(0x100 - smbios_checksum(ep, 0x1F));
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == 1, "a valid 2.1 entry point is taken: %s", why);
	CHECK(e.kind == SMBIOS_EP21 && e.major == 2 && e.minor == 8 && e.table_len == 0x200 && e.table_phys == 0xF0000 &&
		      e.nstructs == 9,
	      "the 2.1 entry point's version, table length, address and count");
	CHECK_STR(smbios_version(v, sizeof v, &e), "2.8", "a 2.1 entry point's version as dmidecode prints it");
	ep[0x15] ^= 0x10, ep[4] = (uint8_t)(ep[4] - 0x10);
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "intermediate checksum"),
	      "a bad _DMI_ checksum (the outer one right) is named: %s", why);
	ep[0x15] ^= 0x10, ep[4] = (uint8_t)(ep[4] + 0x10);
	ep[4] ^= 0x80;
	CHECK(smbios_entry_parse(ep, sizeof ep, &e, why, sizeof why) == -1 && strstr(why, "2.1 entry point's checksum"),
	      "a bad 2.1 checksum is named: %s", why);
	ep[4] ^= 0x80;

	/* The scan: 16-byte boundaries only, 3.0 preferred. */
	static uint8_t seg[0x10000];
	memset(seg, 0, sizeof seg);
	memcpy(seg + 0x108, ep, 0x1F); /* not on a boundary */
	CHECK(smbios_scan(seg, sizeof seg, &e, why, sizeof why) == -1 && !why[0],
	      "an anchor off the 16-byte boundaries is not found, and no problem is said");
	memcpy(seg + 0x200, ep, 0x1F);
	CHECK(smbios_scan(seg, sizeof seg, &e, why, sizeof why) == 0x200 && e.kind == SMBIOS_EP21,
	      "the 2.1 entry point is found at 0x200");
	uint8_t ep3[0x18] = { '_', 'S', 'M', '3', '_', 0, 0x18, 3, 0, 0 };
	w32(ep3 + 0x0C, 0x100), w32(ep3 + 0x10, 0x7000);
	ep3[5] = (uint8_t)(0x100 - smbios_checksum(ep3, 0x18));
	memcpy(seg + 0x9F0, ep3, sizeof ep3);
	CHECK(smbios_scan(seg, sizeof seg, &e, why, sizeof why) == 0x9F0 && e.kind == SMBIOS_EP30,
	      "with both, the 3.0 entry point is taken");
	seg[0x200 + 4] ^= 1, seg[0x9F0 + 5] ^= 1;
	CHECK(smbios_scan(seg, sizeof seg, &e, why, sizeof why) == -1 && strstr(why, "checksum") &&
		      strstr(why, "offset 0x200"),
	      "with both corrupt, the first one's fault and offset are said: %s", why);
}

static void decoding(void)
{
	machine();
	struct smbios_entry e = { SMBIOS_EP30, 3, 3, 0, 0x1000, (uint32_t)tlen + 100, 0 };
	smbios_decode(tab, tlen, &e, &info);
	CHECK(!info.problem[0], "a good table has no problem: %s", info.problem);
	CHECK(info.structures == 9, "9 structures walked, the end included: %d", info.structures);
	CHECK_STR(info.bios_vendor, "American Megatrends Inc.", "type 0 vendor");
	CHECK_STR(info.bios_version, "F12", "type 0 BIOS version");
	CHECK_STR(info.bios_date, "05/10/2023", "type 0 release date");
	CHECK_STR(info.sys_manufacturer, "Gigabyte Technology Co., Ltd.", "type 1 manufacturer");
	CHECK_STR(info.sys_product, "X570 AORUS ELITE", "type 1 product name");
	CHECK_STR(info.sys_version, "-CF", "type 1 version");
	CHECK_STR(info.sys_serial, "ABC123", "type 1 serial number");
	CHECK_STR(info.sys_sku, "Default string", "type 1 SKU kept as read");
	CHECK_STR(info.sys_family, "X570 MB", "type 1 family");
	CHECK_STR(info.sys_uuid, "13121110-1514-1716-1819-1a1b1c1d1e1f",
		  "a 2.6+ UUID: the first three fields little-endian (DSP0134 7.2.1)");
	CHECK_STR(info.board_manufacturer, "Gigabyte Technology Co., Ltd.", "type 2 manufacturer");
	CHECK_STR(info.board_product, "X570 AORUS ELITE", "type 2 product");
	CHECK_STR(info.board_version, "x.x", "type 2 version kept as read");
	CHECK_STR(info.board_serial, "BSN9", "type 2 serial number");
	CHECK_STR(info.cpu_socket, "AM4", "type 4 socket designation");
	CHECK(info.cpu_max_mhz == 4700 && info.cpu_current_mhz == 3600, "type 4 max and current speed in MHz: %u %u",
	      info.cpu_max_mhz, info.cpu_current_mhz);
	CHECK(info.memory_devices == 3 && info.memdevs_kept == 3, "3 populated devices, the empty socket skipped: %d",
	      info.memory_devices);
	const struct smbios_memdev *d = info.memdev;
	CHECK(d[0].handle == 0x36 && d[0].size_known && d[0].size_bytes == 16ull << 30 && !strcmp(d[0].type, "DDR4") &&
		      d[0].speed_mts == 3200 && d[0].configured_mts == 2933,
	      "a 16384 MB DDR4-3200 at 2933 MT/s");
	CHECK_STR(d[0].locator, "DIMM 0", "its locator");
	CHECK_STR(d[0].bank, "P0 CHANNEL A", "its bank locator");
	CHECK_STR(d[0].manufacturer, "Kingston", "its manufacturer");
	CHECK_STR(d[0].serial, "0x1234ABCD", "its serial number");
	CHECK_STR(d[0].part, "KHX3200C16D4/16GX", "its part number");
	CHECK(d[1].handle == 0x38 && d[1].size_bytes == 32ull << 30 && !strcmp(d[1].type, "DDR5") &&
		      d[1].speed_mts == 70000 && d[1].configured_mts == 68000,
	      "Extended Size (32768 MB) and Extended Speed (70000, 68000 MT/s): %llu %u %u",
	      (unsigned long long)d[1].size_bytes, d[1].speed_mts, d[1].configured_mts);
	CHECK(d[2].size_bytes == 512u << 10 && d[2].configured_mts == 0,
	      "KB granularity (bit 15) and a device too short for Configured Speed");

	/* Before 2.6 the UUID's bytes are printed in order (dmidecode). */
	e.major = 2, e.minor = 5;
	smbios_decode(tab, tlen, &e, &info);
	CHECK_STR(info.sys_uuid, "10111213-1415-1617-1819-1a1b1c1d1e1f", "a 2.5 UUID's bytes in order");
	/* 2.1's count of structures ends the walk. */
	e.kind = SMBIOS_EP21, e.nstructs = 2;
	smbios_decode(tab, tlen, &e, &info);
	CHECK(info.structures == 2 && !info.board_product[0] && !info.problem[0],
	      "a 2.1 table ends after its number of structures");
	CHECK(!strcmp(smbios_memory_type(0x1A), "DDR4") && !strcmp(smbios_memory_type(0x16), "Unknown") &&
		      !strcmp(smbios_memory_type(0xF0), "Unknown"),
	      "memory type names, reserved ones Unknown");
}

static void malformed(void)
{
	struct smbios_entry e = { SMBIOS_EP30, 3, 0, 0, 0x1000, 0, 0 };
	machine();
	tab[0x0 + 1] = 3;
	smbios_decode(tab, tlen, &e, &info);
	CHECK(strstr(info.problem, "type 0 handle 0x0000 at offset 0x0: its length is 3, below") && info.structures == 0,
	      "a length below 4 stops the walk, named: %s", info.problem);

	machine();
	size_t last = tlen - 6; /* the end-of-table structure's offset */
	tab[last + 1] = 0xFF;
	smbios_decode(tab, tlen, &e, &info);
	CHECK(strstr(info.problem, "type 127 handle 0x00ff") && strstr(info.problem, "runs past the table's end") &&
		      info.memory_devices == 3 && info.sys_product[0],
	      "a structure past the end is named; what came before it is kept: %s", info.problem);

	machine();
	tab[tlen - 1] = 'X', tab[tlen - 2] = 'X';
	smbios_decode(tab, tlen, &e, &info);
	CHECK(strstr(info.problem, "type 127") && strstr(info.problem, "no terminating double NUL"),
	      "strings without their terminator at the table's end are named: %s", info.problem);

	machine();
	smbios_decode(tab, tlen - 20, &e, &info); /* the bytes end inside the last DIMM's strings */
	CHECK(strstr(info.problem, "type 17 handle 0x0039") && info.memory_devices == 2,
	      "a table cut short inside a string set is named: %s", info.problem);

	machine();
	tab[4 + 1] = 9; /* BIOS Version's index: type 0 has 3 strings */
	smbios_decode(tab, tlen, &e, &info);
	CHECK(strstr(info.problem, "string index 9 at field 0x05 is beyond its 3 strings") && !info.bios_version[0] &&
		      info.bios_vendor[0] && info.structures == 9,
	      "a string index beyond the set leaves that field empty, the walk goes on: %s", info.problem);

	/* Every cut of the table is read safely (ASan watches the reads). */
	machine();
	int bad = 0, named = 0;
	for (size_t n = 0; n < tlen; n++) {
		/* ASan sees a read past n: the cut's bytes are a heap block of n. */
		uint8_t *c = malloc(n ? n : 1);
		memcpy(c, tab, n);
		smbios_decode(c, n, &e, &info);
		free(c);
		/* a cut after a structure's header and before its end is named */
		int k = 0;
		while (k + 1 < nstarts && starts[k + 1] <= n)
			k++;
		if (n >= starts[k] + 4 && n > starts[k]) {
			named++;
			bad += !info.problem[0] || !strstr(info.problem, "offset");
		}
	}
	CHECK(!bad && named > 100, "every cut inside a structure is named as a problem (%d of %d were not)", bad, named);

	/* The End-of-Table structure's offset (kernel/smbios.c's broken copies). */
	machine();
	CHECK(smbios_end_of_table(tab, tlen) == (long)(tlen - 6), "the End-of-Table found at its offset");
	CHECK(smbios_end_of_table(tab, tlen - 6) == -1, "no End-of-Table in a table without one");
	tab[1] = 2;
	CHECK(smbios_end_of_table(tab, tlen) == -1, "none past a malformed structure");

	/* Control bytes become '.', as dmidecode shows them. */
	tlen = 0;
	const char *s[] = { "A\tB\x7f" };
	uint8_t b[4] = { 1, 0, 0, 0 };
	add(2, 2, b, 4, s, 1);
	smbios_decode(tab, tlen, &e, &info);
	CHECK_STR(info.board_manufacturer, "A.B.", "control bytes shown as '.'");
}

static void texts(void)
{
	char buf[128];
	CHECK(smbios_placeholder("To Be Filled By O.E.M.") && smbios_placeholder("  default STRING ") &&
		      smbios_placeholder("   ") && smbios_placeholder("") && smbios_placeholder("System Product Name") &&
		      smbios_placeholder("Not Specified"),
	      "the fillers and blanks are placeholders");
	CHECK(!smbios_placeholder("QEMU") && !smbios_placeholder("Standard PC (Q35 + ICH9, 2009)"),
	      "real names are not placeholders");
	CHECK(smbios_short(buf, sizeof buf, "ASUS", "System Product Name", " 1.0 ") == 8 && !strcmp(buf, "ASUS 1.0"),
	      "the short text leaves placeholders out and trims: '%s'", buf);
	CHECK(smbios_short(buf, sizeof buf, "To Be Filled By O.E.M.", "", 0) == 0 && !buf[0],
	      "nothing left: an empty text (null)");
	CHECK(smbios_short(buf, 6, "ABCDEFGH", 0, 0) == 5 && !strcmp(buf, "ABCDE"), "the short text is truncated");
	struct smbios_entry none = { 0 };
	CHECK_STR(smbios_version(buf, sizeof buf, &none), "", "no entry point, no version");
}

int main(void)
{
	entry_points();
	decoding();
	malformed();
	texts();
	return check_summary("smbios");
}

/* lib/smbios.c - see smbios.h. Offsets are DSP0134 3.7.0's tables: the
 * entry points 5.2.1 (table 1) and 5.2.2 (table 3), the structure header
 * 6.1.2 (table 4), type 0 (table 6), 1 (table 10), 2 (table 13), 4 (table
 * 20), 17 (table 75); the UUID 7.2.1; dmidecode's rules where the
 * specification leaves room (the 2.1 entry point's length 1Eh, the UUID of
 * a table older than 2.6, the string filter). */
#include "smbios.h"
#include "fmt.h"

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }

static int anchor(const uint8_t *p, size_t avail, const char *a, size_t n)
{
	if (avail < n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)a[i])
			return 0;
	return 1;
}

uint8_t smbios_checksum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

int smbios_entry_parse(const uint8_t *p, size_t avail, struct smbios_entry *e, char *problem, size_t size)
{
	if (size)
		problem[0] = '\0';
	if (anchor(p, avail, "_SM3_", 5)) {
		e->kind = SMBIOS_EP30;
		uint8_t len = avail > 6 ? p[6] : 0;
		if (len < SMBIOS_EP30_LEN || avail < len) {
			fmt_format(problem, size, "the 3.0 entry point's length is %u bytes (at least 0x%x expected%s)",
				   len, SMBIOS_EP30_LEN, avail < len ? ", and past the readable area" : "");
			return -1;
		}
		uint8_t sum = smbios_checksum(p, len);
		if (sum) {
			fmt_format(problem, size, "the 3.0 entry point's checksum is wrong (its %u bytes sum to 0x%02x, "
				   "not 0)", len, sum);
			return -1;
		}
		e->major = p[7], e->minor = p[8], e->docrev = p[9];
		e->table_len = rd32(p + 0x0C);
		e->table_phys = (uint64_t)rd32(p + 0x10) | (uint64_t)rd32(p + 0x14) << 32;
		e->nstructs = 0;
	} else if (anchor(p, avail, "_SM_", 4) && avail >= 0x15 && anchor(p + 0x10, avail - 0x10, "_DMI_", 5)) {
		e->kind = SMBIOS_EP21;
		uint8_t len = p[5];
		if (len < 0x1E || avail < len || avail < 0x1F) {
			fmt_format(problem, size, "the 2.1 entry point's length is %u bytes (0x%x expected%s)", len,
				   SMBIOS_EP21_LEN, avail < len ? ", and past the readable area" : "");
			return -1;
		}
		uint8_t sum = smbios_checksum(p, len);
		if (sum) {
			fmt_format(problem, size, "the 2.1 entry point's checksum is wrong (its %u bytes sum to 0x%02x, "
				   "not 0)", len, sum);
			return -1;
		}
		sum = smbios_checksum(p + 0x10, 0x0F);
		if (sum) {
			fmt_format(problem, size, "the 2.1 entry point's intermediate checksum (\"_DMI_\", 10h-1Eh) is "
				   "wrong (its 15 bytes sum to 0x%02x, not 0)", sum);
			return -1;
		}
		e->major = p[6], e->minor = p[7], e->docrev = 0;
		e->table_len = rd16(p + 0x16);
		e->table_phys = rd32(p + 0x18);
		e->nstructs = rd16(p + 0x1C);
	} else {
		return 0;
	}
	if (!e->table_phys || e->table_len < 4) {
		fmt_format(problem, size, "the %s entry point gives a structure table at 0x%llx of %u bytes",
			   e->kind == SMBIOS_EP30 ? "3.0" : "2.1", (unsigned long long)e->table_phys, e->table_len);
		return -1;
	}
	return 1;
}

long smbios_scan(const uint8_t *base, size_t len, struct smbios_entry *e, char *problem, size_t size)
{
	char first[SMBIOS_PROBLEM_MAX] = "";
	long found21 = -1;
	struct smbios_entry e21 = { 0 };
	char why[SMBIOS_PROBLEM_MAX];
	for (size_t off = 0; off + 16 <= len; off += 16) {
		struct smbios_entry t = { 0 };
		int r = smbios_entry_parse(base + off, len - off, &t, why, sizeof why);
		if (r == 1 && t.kind == SMBIOS_EP30) {
			*e = t;
			if (size)
				problem[0] = '\0';
			return (long)off;
		}
		if (r == 1 && found21 < 0)
			found21 = (long)off, e21 = t;
		if (r < 0 && !first[0])
			fmt_format(first, sizeof first, "%s (anchor at offset 0x%lx)", why, (unsigned long)off);
	}
	if (found21 >= 0) {
		*e = e21;
		if (size)
			problem[0] = '\0';
		return found21;
	}
	fmt_format(problem, size, "%s", first);
	return -1;
}

/* The walk's state: the table, and the current structure. */
struct walk {
	const uint8_t *t;
	size_t len;
	size_t off;     /* the structure's offset */
	size_t strings; /* its string set's offset */
	int nstrings;
	struct smbios_info *out;
};

static void problem(struct smbios_info *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct smbios_info *out, const char *fmt, ...)
{
	if (out->problem[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	fmt_vformat(out->problem, sizeof out->problem, fmt, ap);
	va_end(ap);
}

/* The string field at formatted-area offset at of the structure (its
 * index byte), copied into dst as smbios.h says; "" when absent. */
static void str(const struct walk *w, size_t at, char *dst)
{
	dst[0] = '\0';
	const uint8_t *s = w->t + w->off;
	if (at >= s[1] || !s[at])
		return;
	int idx = s[at];
	if (idx > w->nstrings) {
		problem(w->out, "structure type %u handle 0x%04x at offset 0x%lx: string index %d at field 0x%02lx is "
			"beyond its %d string%s", s[0], rd16(s + 2), (unsigned long)w->off, idx, (unsigned long)at,
			w->nstrings, w->nstrings == 1 ? "" : "s");
		return;
	}
	size_t p = w->strings;
	for (int i = 1; i < idx; i++) {
		while (w->t[p])
			p++;
		p++;
	}
	size_t n = 0;
	for (; w->t[p + n] && n + 1 < SMBIOS_STR_MAX; n++) {
		uint8_t c = w->t[p + n];
		dst[n] = c < 0x20 || c >= 0x7F ? '.' : (char)c;
	}
	dst[n] = '\0';
}

/* A byte, word or dword field; 0 when the formatted area is too short. */
static uint32_t field(const struct walk *w, size_t at, int bytes)
{
	const uint8_t *s = w->t + w->off;
	if (at + (size_t)bytes > s[1])
		return 0;
	return bytes == 1 ? s[at] : bytes == 2 ? rd16(s + at) : rd32(s + at);
}

static const char hexd[] = "0123456789abcdef";

/* DSP0134 7.2.1: from 2.6 the first three fields are little-endian (as
 * RFC 4122's wire form is not); before 2.6 dmidecode prints the bytes in
 * order (firmware then mostly wrote them so). All 00h or all FFh: "". */
static void uuid(const struct walk *w, const struct smbios_entry *e, char *dst)
{
	dst[0] = '\0';
	const uint8_t *s = w->t + w->off;
	if (s[1] < 0x18)
		return;
	const uint8_t *u = s + 8;
	int ff = 1, zero = 1;
	for (int i = 0; i < 16; i++)
		ff &= u[i] == 0xFF, zero &= u[i] == 0;
	if (ff || zero)
		return;
	static const uint8_t le[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	int swap = e->major > 2 || (e->major == 2 && e->minor >= 6);
	int n = 0;
	for (int i = 0; i < 16; i++) {
		uint8_t b = u[swap ? le[i] : i];
		dst[n++] = hexd[b >> 4];
		dst[n++] = hexd[b & 15];
		if (i == 3 || i == 5 || i == 7 || i == 9)
			dst[n++] = '-';
	}
	dst[n] = '\0';
}

static const char *const memory_types[] = {
	0, "Other", "Unknown", "DRAM", "EDRAM", "VRAM", "SRAM", "RAM", "ROM", "Flash", "EEPROM", "FEPROM",
	"EPROM", "CDRAM", "3DRAM", "SDRAM", "SGRAM", "RDRAM", "DDR", "DDR2", "DDR2 FB-DIMM", 0, 0, 0, "DDR3",
	"FBD2", "DDR4", "LPDDR", "LPDDR2", "LPDDR3", "LPDDR4", "Logical non-volatile device", "HBM", "HBM2",
	"DDR5", "LPDDR5", "HBM3",
};

const char *smbios_memory_type(uint8_t t)
{
	return t < sizeof memory_types / sizeof memory_types[0] && memory_types[t] ? memory_types[t] : "Unknown";
}

/* Type 17 (7.18): Size 0 is an empty socket; 7FFFh points to Extended
 * Size (MB, bits 30:0); bit 15 set means KB granularity. Speed FFFFh
 * points to Extended Speed (3.3+, bits 30:0). */
static void memdev(const struct walk *w)
{
	struct smbios_info *out = w->out;
	uint16_t size = (uint16_t)field(w, 0x0C, 2);
	if (size == 0)
		return;
	out->memory_devices++;
	if (out->memdevs_kept >= SMBIOS_MEMDEV_MAX)
		return;
	struct smbios_memdev *d = &out->memdev[out->memdevs_kept++];
	d->handle = rd16(w->t + w->off + 2);
	d->size_known = size != 0xFFFF;
	if (size == 0x7FFF && w->t[w->off + 1] >= 0x20)
		d->size_bytes = (uint64_t)(field(w, 0x1C, 4) & 0x7FFFFFFFu) << 20;
	else if (size != 0xFFFF)
		d->size_bytes = (uint64_t)(size & 0x7FFF) << (size & 0x8000 ? 10 : 20);
	d->type = smbios_memory_type((uint8_t)field(w, 0x12, 1));
	uint32_t speed = field(w, 0x15, 2), conf = field(w, 0x20, 2);
	d->speed_mts = speed == 0xFFFF ? field(w, 0x54, 4) & 0x7FFFFFFFu : speed;
	d->configured_mts = conf == 0xFFFF ? field(w, 0x58, 4) & 0x7FFFFFFFu : conf;
	str(w, 0x10, d->locator);
	str(w, 0x11, d->bank);
	str(w, 0x17, d->manufacturer);
	str(w, 0x18, d->serial);
	str(w, 0x1A, d->part);
}

/* The first type 4 whose Status says the socket is populated (bit 6),
 * else the first type 4. */
static void processor(const struct walk *w, int *have, int *populated)
{
	int pop = (field(w, 0x18, 1) & 0x40) != 0;
	if (*have && (*populated || !pop))
		return;
	struct smbios_info *out = w->out;
	*have = 1, *populated = pop;
	str(w, 0x04, out->cpu_socket);
	out->cpu_max_mhz = field(w, 0x14, 2);
	out->cpu_current_mhz = field(w, 0x16, 2);
}

void smbios_decode(const uint8_t *table, size_t len, const struct smbios_entry *e, struct smbios_info *out)
{
	uint8_t *z = (uint8_t *)out;
	for (size_t i = 0; i < sizeof *out; i++)
		z[i] = 0;
	out->entry = *e;
	out->decoded = 1;
	struct walk w = { table, len, 0, 0, 0, out };
	int have0 = 0, have1 = 0, have2 = 0, have4 = 0, pop4 = 0;
	while (w.off + 4 <= len && (e->kind != SMBIOS_EP21 || !e->nstructs || out->structures < e->nstructs)) {
		const uint8_t *s = table + w.off;
		uint16_t handle = rd16(s + 2);
		if (s[1] < 4) {
			problem(out, "structure type %u handle 0x%04x at offset 0x%lx: its length is %u, below the "
				"4-byte header", s[0], handle, (unsigned long)w.off, s[1]);
			return;
		}
		if (w.off + s[1] + 2 > len) {
			problem(out, "structure type %u handle 0x%04x at offset 0x%lx: its length %u runs past the "
				"table's end (%lu bytes)", s[0], handle, (unsigned long)w.off, s[1], (unsigned long)len);
			return;
		}
		/* The string set: strings each ending in a NUL, the set in one more
		 * NUL (two NULs right after the formatted area when it is empty). */
		w.strings = w.off + s[1];
		w.nstrings = 0;
		size_t p = w.strings;
		if (table[p] == 0 && table[p + 1] == 0) {
			p += 2;
		} else {
			for (;;) {
				while (p < len && table[p])
					p++;
				if (p + 1 >= len) {
					problem(out, "structure type %u handle 0x%04x at offset 0x%lx: its strings have no "
						"terminating double NUL before the table's end (%lu bytes)", s[0], handle,
						(unsigned long)w.off, (unsigned long)len);
					return;
				}
				w.nstrings++;
				p++;
				if (table[p] == 0) {
					p++;
					break;
				}
			}
		}
		out->structures++;
		switch (s[0]) {
		case 0:
			if (!have0++) {
				str(&w, 0x04, out->bios_vendor);
				str(&w, 0x05, out->bios_version);
				str(&w, 0x08, out->bios_date);
			}
			break;
		case 1:
			if (!have1++) {
				str(&w, 0x04, out->sys_manufacturer);
				str(&w, 0x05, out->sys_product);
				str(&w, 0x06, out->sys_version);
				str(&w, 0x07, out->sys_serial);
				uuid(&w, e, out->sys_uuid);
				str(&w, 0x19, out->sys_sku);
				str(&w, 0x1A, out->sys_family);
			}
			break;
		case 2:
			if (!have2++) {
				str(&w, 0x04, out->board_manufacturer);
				str(&w, 0x05, out->board_product);
				str(&w, 0x06, out->board_version);
				str(&w, 0x07, out->board_serial);
			}
			break;
		case 4:
			processor(&w, &have4, &pop4);
			break;
		case 17:
			memdev(&w);
			break;
		}
		if (s[0] == 127)
			return;
		w.off = p;
	}
}

long smbios_end_of_table(const uint8_t *table, size_t len)
{
	size_t off = 0;
	while (off + 4 <= len && table[off + 1] >= 4 && off + table[off + 1] + 2 <= len) {
		if (table[off] == 127)
			return (long)off;
		size_t p = off + table[off + 1];
		while (p + 1 < len && (table[p] || table[p + 1]))
			p++;
		off = p + 2;
	}
	return -1;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '.';
}

/* s[0..n-1] without blanks around it. */
static const char *trim(const char *s, size_t *n)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t k = 0;
	while (s[k])
		k++;
	while (k && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		k--;
	*n = k;
	return s;
}

static int same_nocase(const char *a, size_t n, const char *b)
{
	size_t i = 0;
	for (; i < n && b[i]; i++) {
		char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
		char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] + 32) : b[i];
		if (x != y)
			return 0;
	}
	return i == n && !b[i];
}

/* The fillers of the firmware vendors' templates (AMI's, Insyde's,
 * Phoenix's) and of dmidecode's "Not Specified", as seen in real tables. */
static const char *const placeholders[] = {
	"To Be Filled By O.E.M.", "To Be Filled By OEM", "Default string", "System Product Name",
	"System manufacturer", "System Version", "System Serial Number", "Not Specified", "Not Applicable",
	"Not Available", "None", "N/A", "NA", "OEM", "O.E.M.", "Unknown", "Undefined", "Type1ProductConfigId",
	"x.x", "Base Board Product Name", "Base Board Manufacturer", "Base Board Version", "Chassis Manufacture",
	"INVALID", "Default", "XXXXX", "0123456789", "123456789", "Board Product Name", "Board Vendor",
};

int smbios_placeholder(const char *s)
{
	size_t n;
	s = trim(s, &n);
	size_t b = 0;
	while (b < n && blank(s[b]))
		b++;
	if (b == n)
		return 1;
	for (size_t i = 0; i < sizeof placeholders / sizeof placeholders[0]; i++)
		if (same_nocase(s, n, placeholders[i]))
			return 1;
	return 0;
}

size_t smbios_short(char *buf, size_t size, const char *a, const char *b, const char *c)
{
	const char *parts[3] = { a, b, c };
	size_t at = 0;
	if (!size)
		return 0;
	buf[0] = '\0';
	for (int i = 0; i < 3; i++) {
		if (!parts[i] || smbios_placeholder(parts[i]))
			continue;
		size_t n;
		const char *s = trim(parts[i], &n);
		if (at && at + 1 < size)
			buf[at++] = ' ';
		for (size_t k = 0; k < n && at + 1 < size; k++)
			buf[at++] = s[k];
		buf[at] = '\0';
	}
	return at;
}

char *smbios_version(char *buf, size_t size, const struct smbios_entry *e)
{
	if (e->kind == SMBIOS_EP30)
		fmt_format(buf, size, "%u.%u.%u", e->major, e->minor, e->docrev);
	else if (e->kind == SMBIOS_EP21)
		fmt_format(buf, size, "%u.%u", e->major, e->minor);
	else if (size)
		buf[0] = '\0';
	return buf;
}

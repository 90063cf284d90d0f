/* tests/unit/test_smbios_corpus.c - real machines' SMBIOS tables through
 * lib/smbios.c, the code the kernel runs, checked field by field against
 * dmidecode's decoding: tests/corpus/smbios/machines.txt.gz (README.md
 * there: u-root's dmidecode test data, 9 machines, SMBIOS 2.4 to 3.1.1;
 * extract.py there wrote dmidecode's fields beside the bytes). Each file is
 * a `dmidecode --dump-bin` image: the entry point, the table at 20h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../lib/smbios.h"

#define CORPUS "tests/corpus/smbios/machines.txt.gz"
#define LINE_MAX_BYTES (1 << 20)

static uint8_t bin[LINE_MAX_BYTES / 2];
static size_t nbin;
static char name[128];
static struct smbios_info info;
static int decoded, dimm, machines, fields;

/* Split line at TABs in place: up to max fields, returns their count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t')
			*p = 0, f[n++] = p + 1;
	return n;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void decode_machine(void)
{
	struct smbios_entry e;
	char why[SMBIOS_PROBLEM_MAX];
	int r = smbios_entry_parse(bin, nbin, &e, why, sizeof why);
	CHECK(r == 1, "%s: the dump's entry point is valid: %s", name, why);
	CHECK(e.table_phys == 0x20, "%s: --dump-bin puts the table at 20h: 0x%llx", name,
	      (unsigned long long)e.table_phys);
	size_t len = nbin - 0x20 < e.table_len ? nbin - 0x20 : e.table_len;
	smbios_decode(bin + 0x20, len, &e, &info);
	CHECK(!info.problem[0], "%s: a real table decodes without a problem: %s", name, info.problem);
	decoded = 1, dimm = 0;
	machines++;
}

static const char *field(const char *key)
{
	static char num[32];
	char v[16];
	const struct { const char *k; const char *v; } s[] = {
		{ "bios_vendor", info.bios_vendor }, { "bios_version", info.bios_version }, { "bios_date", info.bios_date },
		{ "sys_manufacturer", info.sys_manufacturer }, { "sys_product", info.sys_product },
		{ "sys_version", info.sys_version }, { "sys_serial", info.sys_serial }, { "sys_uuid", info.sys_uuid },
		{ "sys_sku", info.sys_sku }, { "sys_family", info.sys_family },
		{ "board_manufacturer", info.board_manufacturer }, { "board_product", info.board_product },
		{ "board_version", info.board_version }, { "board_serial", info.board_serial },
		{ "cpu_socket", info.cpu_socket },
	};
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
		if (!strcmp(key, s[i].k))
			return s[i].v;
	if (!strcmp(key, "version"))
		return strcpy(num, smbios_version(v, sizeof v, &info.entry));
	if (!strcmp(key, "cpu_max_mhz"))
		return snprintf(num, sizeof num, "%u", info.cpu_max_mhz), num;
	if (!strcmp(key, "cpu_current_mhz"))
		return snprintf(num, sizeof num, "%u", info.cpu_current_mhz), num;
	if (!strcmp(key, "memory_devices"))
		return snprintf(num, sizeof num, "%d", info.memory_devices), num;
	return 0;
}

static void check_dimm(char **f, int n)
{
	CHECK(n == 10, "%s: a d line has 9 fields", name);
	if (n != 10)
		return;
	CHECK(dimm < info.memdevs_kept, "%s: memory device %d is decoded (%d kept)", name, dimm, info.memdevs_kept);
	if (dimm >= info.memdevs_kept)
		return;
	const struct smbios_memdev *d = &info.memdev[dimm++];
	char size[32] = "", speed[16], conf[16];
	if (d->size_known)
		snprintf(size, sizeof size, "%llu", (unsigned long long)d->size_bytes);
	snprintf(speed, sizeof speed, "%u", d->speed_mts);
	snprintf(conf, sizeof conf, "%u", d->configured_mts);
	const char *got[9] = { d->locator, d->bank, size, d->type, speed, conf, d->manufacturer, d->part, d->serial };
	static const char *const what[9] = { "locator", "bank locator", "size in bytes", "type", "speed (MT/s)",
					     "configured speed (MT/s)", "manufacturer", "part number", "serial number" };
	for (int i = 0; i < 9; i++) {
		CHECK_STR(got[i], f[i + 1], "%s: memory device %d (handle 0x%04x): %s as dmidecode", name, dimm - 1,
			  d->handle, what[i]);
		fields++;
	}
}

int main(void)
{
	FILE *in = popen("gzip -dc " CORPUS, "r");
	CHECK(in != 0, "gzip -dc %s runs", CORPUS);
	if (!in)
		return check_summary("smbios_corpus");
	static char line[LINE_MAX_BYTES + 16];
	while (fgets(line, sizeof line, in)) {
		line[strcspn(line, "\n")] = 0;
		char *f[12];
		int n = split(line, f, 12);
		if (!strcmp(f[0], "machine") && n == 2) {
			snprintf(name, sizeof name, "%s", f[1]);
			decoded = 0;
		} else if (!strcmp(f[0], "bin") && n == 2) {
			nbin = 0;
			for (const char *h = f[1]; h[0] && h[1] && nbin < sizeof bin; h += 2)
				bin[nbin++] = (uint8_t)(hexval(h[0]) << 4 | hexval(h[1]));
			decode_machine();
		} else if (!strcmp(f[0], "e") && n == 3 && decoded) {
			const char *got = field(f[1]);
			CHECK(got != 0, "%s: field %s is known", name, f[1]);
			if (got)
				CHECK_STR(got, f[2], "%s: %s as dmidecode prints it", name, f[1]);
			fields++;
		} else if (!strcmp(f[0], "d") && decoded) {
			check_dimm(f, n);
		}
	}
	CHECK(pclose(in) == 0, "gzip -dc %s succeeded", CORPUS);
	CHECK(machines == 9, "all 9 machines of the corpus read: %d", machines);
	printf("smbios_corpus: %d machines, %d fields compared with dmidecode's\n", machines, fields);
	return check_summary("smbios_corpus");
}

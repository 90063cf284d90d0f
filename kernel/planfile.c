/* kernel/planfile.c - see planfile.h. */
#include "planfile.h"
#include "console.h"
#include "efi.h"
#include "../lib/crc32.h"
#include "../lib/efistatus.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

_Static_assert(EFI_PLAN_READ_MAX == PLANFILE_MAX, "efi_early reads what a plan may have, no more");

static struct planfile pf;
static char text[PLANFILE_MAX + 1];

/* Whether the module string s has a word equal to name or ending in
 * "/" name. */
static int names(const char *s, const char *name)
{
	size_t n = strlen(name);
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		const char *w = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		size_t len = (size_t)(s - w);
		if (len >= n && !memcmp(s - n, name, n) && (len == n || s[-(long)n - 1] == '/'))
			return 1;
	}
	return 0;
}

static void take(const void *p, uint64_t bytes, int source)
{
	pf.source = source;
	pf.bytes = bytes;
	if (bytes > PLANFILE_MAX) {
		pf.too_large = 1;
		fmt_format(pf.why, sizeof pf.why, "%llu bytes, more than the %d a plan may have: not read",
			   (unsigned long long)bytes, PLANFILE_MAX);
		return;
	}
	memcpy(text, p, bytes);
	text[bytes] = '\0';
	pf.text = text;
	pf.crc32 = crc32_update(0, text, bytes);
}

/* name as the firmware's path, for the lines: "\\" then name, '/' as
 * '\\' (lib/planpath.h planpath_ucs2's rule). */
static const char *efi_path(char *buf, size_t size, const char *name)
{
	size_t at = 0;
	if (*name == '/' || *name == '\\')
		name++;
	buf[at++] = '\\';
	for (; *name && at + 1 < size; name++)
		buf[at++] = *name == '/' ? '\\' : *name;
	buf[at] = '\0';
	return buf;
}

void planfile_load(const struct boot_info *bi, const char *name)
{
	if (!name[0] || !memcmp(name, "off", 4))
		return;
	pf.asked = 1;
	fmt_format(pf.name, sizeof pf.name, "%s", name);
	const struct efi_plan_read *e = efi_plan_read();
	if (e->tried && !e->step) { /* read, or too large to read */
		take(e->data, e->bytes, PLANFILE_EFI);
		return;
	}
	/* What the firmware said, for the module's line or for none. */
	if (e->tried) {
		char path[72], st[24];
		const char *sn = efi_status_name(e->status);
		if (!sn) {
			fmt_format(st, sizeof st, "status 0x%llx", (unsigned long long)e->status);
			sn = st;
		}
		fmt_format(pf.efi_why, sizeof pf.efi_why, "the firmware's read of %s from the boot device: %s returned %s",
			   efi_path(path, sizeof path, name), e->step, sn);
	}
	for (int i = 0; i < bi->nmodules; i++)
		if (names(bi->modules[i].name, name)) {
			const struct boot_module *m = &bi->modules[i];
			take((const void *)m->start, m->end > m->start ? m->end - m->start : 0, PLANFILE_MODULE);
			return;
		}
	fmt_format(pf.why, sizeof pf.why, "%s%sno boot module names %s (%d module%s)", pf.efi_why,
		   pf.efi_why[0] ? "; " : "", name, bi->nmodules, bi->nmodules == 1 ? "" : "s");
}

const struct planfile *planfile_get(void)
{
	return &pf;
}

void planfile_print(void)
{
	if (!pf.asked)
		return;
	static const char *const src[] = { "none", "efi", "module" };
	char path[72], fw[PLANFILE_WHY_MAX + 8] = "";
	const char *from = "from the boot module";
	if (pf.source == PLANFILE_EFI) {
		fmt_format(fw, sizeof fw, "read through the firmware from the boot device (%s)",
			   efi_path(path, sizeof path, pf.name));
		from = fw;
	} else if (pf.efi_why[0]) {
		fmt_format(fw, sizeof fw, "from the boot module (%s)", pf.efi_why);
		from = fw;
	}
	if (pf.source == PLANFILE_NONE)
		kprintf("plan: %s: not found: %s\n", pf.name, pf.why);
	else if (pf.too_large)
		kprintf("plan: %s %s: %s\n", pf.name, from, pf.why);
	else
		kprintf("plan: %s %s: %llu bytes, CRC-32 0x%08x\n", pf.name, from, (unsigned long long)pf.bytes,
			pf.crc32);
	struct rec r;
	rec_begin(&r, "plan_file");
	rec_str(&r, "file", pf.name);
	rec_str(&r, "source", src[pf.source]);
	if (pf.source != PLANFILE_NONE)
		rec_u64(&r, "bytes", pf.bytes);
	else
		rec_null(&r, "bytes");
	if (pf.text) {
		char hex[16];
		fmt_format(hex, sizeof hex, "0x%08x", pf.crc32);
		rec_str(&r, "crc32", hex);
	} else {
		rec_null(&r, "crc32");
	}
	if (pf.source == PLANFILE_NONE)
		rec_str(&r, "why", pf.why);
	else if (pf.too_large)
		rec_str(&r, "why", "larger than PLANFILE_MAX");
	else
		rec_null(&r, "why");
	rec_end(&r);
}

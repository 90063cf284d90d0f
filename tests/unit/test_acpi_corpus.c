/* tests/unit/test_acpi_corpus.c - real machines' ACPI tables through
 * lib/acpi.c, the very code the kernel runs (kernel/acpi.c only finds the
 * RSDP with acpi_find_rsdp, as here, and prints what acpi_parse found).
 *
 * tests/corpus/acpi/machines.txt.gz (README.md there: 655 machines of the
 * linuxhw/ACPI collection, their MADT, FADT and HPET tables and what
 * ACPICA's iasl decodes of them). Each machine's tables are laid out in a
 * fake physical memory: at their own addresses under their own XSDT and
 * RSDT when the dump has them, else at made-up addresses under an XSDT
 * and an RSDT made here listing them in the dump's order; an RSDP in
 * 0E0000h-0FFFFFh names both. The walk runs twice, through the XSDT
 * (RSDP revision 2) and through the RSDT (revision 0), and every field
 * lib/acpi.c decodes of the MADT, FADT and HPET is checked against iasl's
 * decoding of the same bytes. The project's own rules, applied to iasl's
 * fields, are those of lib/acpi.c: the first table of each kind that
 * checks out is used; the PM timer is X_PM_TMR_BLK when that is in system
 * I/O space and non-zero, else PM_TMR_BLK when PM_TMR_LEN >= 4; the local
 * APIC address is the override's when there is one; the HPET must be in
 * memory space. Passes when every machine's tables are found, none is
 * refused (no problem line) and every field agrees. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../lib/acpi.h"
#include "../../lib/irqroute.h"

#define CORPUS "tests/corpus/acpi/machines.txt.gz"
#define MAX_TABLES 16
#define MAX_LINES 4096
#define RSDP_AT 0xE0010ull
#define XSDT_AT 0xF0000ull
#define RSDT_AT 0xF1000ull
#define TABLES_AT 0x200000ull

struct seg {
	uint64_t addr;
	uint64_t len;
	const uint8_t *p;
};

struct machine {
	char path[512];
	int ntables;
	struct {
		char sig[8];
		uint64_t addr;
		uint64_t len;
		uint8_t *p;
		int instance;   /* among the tables of its signature */
	} t[MAX_TABLES];
	int nlines;
	char *lines[MAX_LINES]; /* its "iasl" and "iasl-cpu" lines */
};

static struct seg segs[MAX_TABLES + 3];
static int nsegs;

static const uint8_t *map(void *ctx, uint64_t phys, uint64_t len)
{
	(void)ctx;
	for (int i = 0; i < nsegs; i++)
		if (phys >= segs[i].addr && len <= segs[i].len && phys - segs[i].addr <= segs[i].len - len)
			return segs[i].p + (phys - segs[i].addr);
	return 0;
}

static void w32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void w64(uint8_t *p, uint64_t v)
{
	w32(p, (uint32_t)v), w32(p + 4, (uint32_t)(v >> 32));
}

static void fix(uint8_t *p, uint32_t len, int at)
{
	p[at] = 0;
	p[at] = (uint8_t)(0x100 - acpi_checksum(p, len));
}

/* key=value (hexadecimal, as iasl printed it) in line; 0 when absent. */
static int kv(const char *line, const char *key, uint64_t *v)
{
	char pat[40];
	snprintf(pat, sizeof pat, " %s=", key);
	const char *s = strstr(line, pat);
	if (!s)
		return 0;
	*v = strtoull(s + strlen(pat), 0, 16);
	return 1;
}

static uint64_t kv0(const char *line, const char *key)
{
	uint64_t v = 0;
	kv(line, key, &v);
	return v;
}

/* The iasl line of the first table sig whose checksum iasl found right
 * (the one lib/acpi.c uses), its instance in *inst; NULL when none. */
static const char *first_good(const struct machine *m, const char *sig, int *inst)
{
	char pre[16];
	snprintf(pre, sizeof pre, "iasl %s ", sig);
	for (int i = 0; i < m->nlines; i++)
		if (!strncmp(m->lines[i], pre, strlen(pre)) && kv0(m->lines[i], "csum")) {
			*inst = atoi(m->lines[i] + strlen(pre));
			return m->lines[i];
		}
	return 0;
}

static int irq0_routed, irq0_gsi2;

static void check_madt(const struct machine *m, const struct acpi_info *in, const char *how)
{
	int inst = 0;
	const char *e = first_good(m, "APIC", &inst);
	CHECK(e && in->madt_ok, "%s (%s): the MADT is used", m->path, how);
	if (!e || !in->madt_ok)
		return;
	uint64_t override;
	int has_override = kv(e, "override", &override);
	CHECK_EQ_U64(in->lapic_addr, has_override ? override : kv0(e, "lapic"), "%s (%s): MADT local APIC address",
		     m->path, how);
	CHECK_EQ_U64(in->lapic_override, has_override, "%s (%s): MADT address override", m->path, how);
	CHECK_EQ_U64(in->madt_flags, kv0(e, "flags"), "%s (%s): MADT flags", m->path, how);
	CHECK_EQ_U64(in->nioapics, kv0(e, "ioapics"), "%s (%s): MADT I/O APICs", m->path, how);
	int n = 0;
	char pre[24];
	snprintf(pre, sizeof pre, "iasl-cpu %d ", inst);
	for (int i = 0; i < m->nlines; i++) {
		const char *c = m->lines[i];
		if (strncmp(c, pre, strlen(pre)))
			continue;
		if (n < in->ncpus) {
			const struct acpi_cpu *p = &in->cpus[n];
			uint64_t f = kv0(c, "flags");
			CHECK(p->apic_id == kv0(c, "id") && p->uid == kv0(c, "uid") && p->enabled == (int)(f & 1) &&
				      p->online_capable == (int)((f >> 1) & 1) && p->x2apic == (kv0(c, "type") == 9),
			      "%s (%s): MADT processor entry %d: iasl says%s; decoded ID %u UID %u enabled %d "
			      "online-capable %d x2APIC %d", m->path, how, n, c + strlen(pre) - 1, p->apic_id, p->uid,
			      p->enabled, p->online_capable, p->x2apic);
		}
		n++;
	}
	CHECK_EQ_U64(in->ncpus + in->cpus_dropped, n, "%s (%s): MADT processor entries", m->path, how);
	/* ISA IRQ 0 (the PIT, the HPET's legacy timer 0: kernel/watchdog.c)
	 * reaches an I/O APIC on every machine that lists one, edge-triggered. */
	struct irq_route r;
	const char *why = irq_route_isa(in, 0, &r);
	CHECK(!in->nioapics || (!why && !r.level), "%s (%s): ISA IRQ 0 reaches an I/O APIC input, edge: %s", m->path,
	      how, why ? why : "level-triggered");
	if (!why && how[0] == 'X')
		irq0_gsi2 += r.gsi == 2, irq0_routed++;
	CHECK_EQ_U64(in->cpus_dropped, 0, "%s (%s): no processor entry dropped", m->path, how);
}

static void check_fadt(const struct machine *m, const struct acpi_info *in, const char *how)
{
	int inst = 0;
	const char *e = first_good(m, "FACP", &inst);
	CHECK(e && in->fadt_ok, "%s (%s): the FADT is used", m->path, how);
	if (!e || !in->fadt_ok)
		return;
	uint64_t flags = kv0(e, "flags"), len = kv0(e, "len"), space, addr;
	CHECK_EQ_U64(in->fadt_revision, kv0(e, "rev"), "%s (%s): FADT revision", m->path, how);
	uint64_t port = kv0(e, "pm_len") >= 4 ? kv0(e, "pm_blk") : 0;
	if (kv(e, "xpm_space", &space) && kv(e, "xpm_addr", &addr) && addr && space == 1)
		port = (uint32_t)addr;
	CHECK(len < 220 || kv(e, "xpm_addr", &addr), "%s (%s): iasl decodes X_PM_TMR_BLK of a %llu-byte FADT",
	      m->path, how, (unsigned long long)len);
	CHECK_EQ_U64(in->pm_tmr_port, port, "%s (%s): PM timer port (%s)", m->path, how, e);
	CHECK_EQ_U64(in->pm_tmr_32bit, (flags >> 8) & 1, "%s (%s): PM timer TMR_VAL_EXT", m->path, how);
	if (!kv(e, "reset_addr", &addr)) {
		CHECK(len < 129 && !in->reset_supported, "%s (%s): no reset register in a %llu-byte FADT", m->path, how,
		      (unsigned long long)len);
		return;
	}
	const struct acpi_gas *g = &in->reset_reg;
	CHECK_EQ_U64(in->reset_supported, (flags >> 10) & 1, "%s (%s): RESET_REG_SUP", m->path, how);
	CHECK(g->space == kv0(e, "reset_space") && g->bit_width == kv0(e, "reset_width") &&
		      g->bit_offset == kv0(e, "reset_offset") && g->access_size == kv0(e, "reset_access") &&
		      g->address == addr && in->reset_value == kv0(e, "reset_value"),
	      "%s (%s): reset register: iasl says %s; decoded space %u width %u offset %u access %u address 0x%llx "
	      "value 0x%x", m->path, how, e, g->space, g->bit_width, g->bit_offset, g->access_size,
	      (unsigned long long)g->address, in->reset_value);
	CHECK(addr || acpi_reset_refusal(in), "%s (%s): a reset register at address 0 is refused", m->path, how);
}

static void check_hpet(const struct machine *m, const struct acpi_info *in, const char *how)
{
	int inst = 0;
	const char *e = first_good(m, "HPET", &inst);
	if (!e) {
		CHECK(!in->hpet_ok, "%s (%s): no HPET table, none used", m->path, how);
		return;
	}
	CHECK(in->hpet_ok && kv0(e, "space") == 0, "%s (%s): the HPET (memory space) is used", m->path, how);
	CHECK_EQ_U64(in->hpet_base, kv0(e, "addr"), "%s (%s): HPET base address", m->path, how);
	CHECK_EQ_U64(in->hpet_number, kv0(e, "number"), "%s (%s): HPET sequence number", m->path, how);
	CHECK_EQ_U64(in->hpet_min_tick, kv0(e, "min_tick"), "%s (%s): HPET minimum clock tick", m->path, how);
}

/* Every table the dump kept is listed at its address with its signature,
 * and its checksum is right exactly when iasl says so. */
static void check_list(const struct machine *m, const struct acpi_info *in, const char *how)
{
	for (int k = 0; k < m->ntables; k++) {
		const char *sig = m->t[k].sig;
		if (strcmp(sig, "APIC") && strcmp(sig, "FACP") && strcmp(sig, "HPET"))
			continue;
		int found = -1;
		for (int i = 0; i < in->ntables && found < 0; i++)
			if (in->tables[i].addr == m->t[k].addr)
				found = i;
		CHECK(found >= 0 && !strcmp(in->tables[found].sig, sig), "%s (%s): %s listed at 0x%llx", m->path, how,
		      sig, (unsigned long long)m->t[k].addr);
		char pre[16];
		snprintf(pre, sizeof pre, "iasl %s %d ", sig, m->t[k].instance);
		for (int i = 0; i < m->nlines && found >= 0; i++)
			if (!strncmp(m->lines[i], pre, strlen(pre)))
				CHECK_EQ_U64(in->tables[found].checksum_ok, kv0(m->lines[i], "csum"),
					     "%s (%s): %s checksum as iasl finds it", m->path, how, sig);
	}
}

static uint8_t rsdp[36], xsdt[36 + 8 * MAX_TABLES], rsdt[36 + 4 * MAX_TABLES];
static struct acpi_cpu room[ACPI_MAX_CPUS]; /* the processor entries' room (lib/acpi.h), kept across parses */
static struct acpi_info info = { .cpus = room, .cpus_room = ACPI_MAX_CPUS };
static int machines, walks, refused;

/* The root tables made here: every kept table but the RSDP, XSDT, RSDT. */
static void make_roots(struct machine *m)
{
	int n = 0;
	uint64_t at = TABLES_AT;
	for (int k = 0; k < m->ntables; k++) {
		m->t[k].addr = at;
		at += (m->t[k].len + 0xFFF) & ~0xFFFull;
		w64(xsdt + 36 + 8 * n, m->t[k].addr);
		w32(rsdt + 36 + 4 * n, (uint32_t)m->t[k].addr);
		n++;
	}
	memcpy(xsdt, "XSDT", 4), w32(xsdt + 4, 36 + 8 * (uint32_t)n), xsdt[8] = 1;
	memcpy(rsdt, "RSDT", 4), w32(rsdt + 4, 36 + 4 * (uint32_t)n), rsdt[8] = 1;
	fix(xsdt, 36 + 8 * (uint32_t)n, 9);
	fix(rsdt, 36 + 4 * (uint32_t)n, 9);
	segs[nsegs++] = (struct seg){ XSDT_AT, 36 + 8 * (uint64_t)n, xsdt };
	segs[nsegs++] = (struct seg){ RSDT_AT, 36 + 4 * (uint64_t)n, rsdt };
}

static void walk(const struct machine *m, int revision, uint64_t x, uint64_t r)
{
	const char *how = revision >= 2 ? "XSDT" : "RSDT";
	memset(rsdp, 0, sizeof rsdp);
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "CORPUS", 6);
	rsdp[15] = (uint8_t)revision;
	w32(rsdp + 16, (uint32_t)r);
	w32(rsdp + 20, 36);
	w64(rsdp + 24, revision >= 2 ? x : 0);
	fix(rsdp, 20, 8);
	fix(rsdp, 36, 32);
	CHECK_EQ_U64(acpi_find_rsdp(map, 0, 0xE0000, 0x20000), RSDP_AT, "%s (%s): the scan finds the RSDP",
		     m->path, how);
	acpi_parse(map, 0, RSDP_AT, &info);
	walks++;
	CHECK(info.rsdp_found && info.root_ok && info.use_xsdt == (revision >= 2), "%s (%s): the root table is read",
	      m->path, how);
	CHECK(info.nproblems == 0, "%s (%s): nothing refused: %s", m->path, how,
	      info.nproblems ? info.problems[0] : "");
	refused += info.nproblems != 0 || !info.madt_ok || !info.fadt_ok;
	check_list(m, &info, how);
	check_madt(m, &info, how);
	check_fadt(m, &info, how);
	check_hpet(m, &info, how);
}

static void run_machine(struct machine *m)
{
	uint64_t x = 0, r = 0;
	nsegs = 0;
	for (int k = 0; k < m->ntables; k++) {
		x = !strcmp(m->t[k].sig, "XSDT") ? m->t[k].addr : x;
		r = !strcmp(m->t[k].sig, "RSDT") ? m->t[k].addr : r;
	}
	if (x && r) { /* the machine's own root tables, at their own addresses */
		for (int k = 0; k < m->ntables; k++)
			segs[nsegs++] = (struct seg){ m->t[k].addr, m->t[k].len, m->t[k].p };
	} else {
		CHECK(!x && !r, "%s: both root tables or neither", m->path);
		make_roots(m);
		for (int k = 0; k < m->ntables; k++)
			segs[nsegs++] = (struct seg){ m->t[k].addr, m->t[k].len, m->t[k].p };
		x = XSDT_AT, r = RSDT_AT;
	}
	segs[nsegs++] = (struct seg){ RSDP_AT, sizeof rsdp, rsdp };
	walk(m, 2, x, r);
	walk(m, 0, x, r);
	machines++;
}

static void clear(struct machine *m)
{
	for (int k = 0; k < m->ntables; k++)
		free(m->t[k].p);
	for (int i = 0; i < m->nlines; i++)
		free(m->lines[i]);
	m->ntables = m->nlines = 0;
	m->path[0] = '\0';
}

static void add_table(struct machine *m, const char *line)
{
	char sig[8], hex[8];
	unsigned long long addr;
	int off = 0;
	if (sscanf(line, "table %7s %llx %n%1s", sig, &addr, &off, hex) < 2 || m->ntables >= MAX_TABLES ||
	    !strcmp(sig, "RSD_PTR")) {
		CHECK(m->ntables < MAX_TABLES, "%s: at most %d tables kept", m->path, MAX_TABLES);
		return;
	}
	const char *h = line + off;
	size_t n = strcspn(h, "\n") / 2;
	uint8_t *p = malloc(n ? n : 1);
	for (size_t i = 0; i < n; i++)
		sscanf(h + 2 * i, "%2hhx", &p[i]);
	int inst = 0;
	for (int k = 0; k < m->ntables; k++)
		inst += !strcmp(m->t[k].sig, sig);
	snprintf(m->t[m->ntables].sig, sizeof m->t[0].sig, "%s", sig);
	m->t[m->ntables].addr = addr;
	m->t[m->ntables].len = n;
	m->t[m->ntables].p = p;
	m->t[m->ntables].instance = inst;
	m->ntables++;
}

int main(void)
{
	FILE *f = fopen(CORPUS, "rb");
	CHECK(f != 0, "%s is readable (the tests run from the repository's top)", CORPUS);
	if (!f)
		return check_summary("acpi_corpus");
	fclose(f);
	FILE *in = popen("gzip -dc " CORPUS, "r");
	static struct machine m;
	char *line = 0;
	size_t cap = 0;
	while (getline(&line, &cap, in) > 0) {
		if (!strncmp(line, "machine ", 8)) {
			if (m.path[0])
				run_machine(&m);
			clear(&m);
			snprintf(m.path, sizeof m.path, "%s", strchr(line + 8, ' ') + 1);
			m.path[strcspn(m.path, "\n")] = '\0';
		} else if (!strncmp(line, "table ", 6)) {
			add_table(&m, line);
		} else if (!strncmp(line, "iasl", 4) && m.nlines < MAX_LINES) {
			m.lines[m.nlines++] = strdup(line);
		}
	}
	if (m.path[0])
		run_machine(&m);
	clear(&m);
	free(line);
	CHECK(pclose(in) == 0, "gzip -dc %s succeeded", CORPUS);
	CHECK(machines >= 650, "the corpus holds at least 650 machines (%d)", machines);
	CHECK_EQ_U64(refused, 0, "no table set refused (%d walks of %d machines)", walks, machines);
	printf("acpi_corpus: %d machines' tables walked %d times (XSDT and RSDT); %d refused; ISA IRQ 0 "
	       "routed on %d, to GSI 2 on %d\n", machines, walks, refused, irq0_routed, irq0_gsi2);
	return check_summary("acpi_corpus");
}

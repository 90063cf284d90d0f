/* tests/unit/cpuid_dump.h - real CPUs' CPUID dumps (tests/corpus/cpuid/,
 * decompressed by the Makefile into build/host/cpuid_corpus.txt) as the
 * cpuid_fn of lib/cpuinfo.h, so the host runs the kernel's own decoders
 * on them.
 *
 * The file: "dump NAME COMMIT NCPUS", then per logical CPU "cpu N" and one
 * line per leaf and sub-leaf: "LEAF SUB EAX EBX ECX EDX" in hex.
 *
 * What CPUID returns for a leaf the dump does not hold (dump_cpuid):
 *  - a leaf above the maximum of its range (basic: CPUID.0:EAX; extended:
 *    CPUID.80000000H:EAX; hypervisor: 40000000H:EAX, none without it):
 *    on AMD and Hygon zeros (APM Vol. 3 "CPUID": a function above the
 *    largest returns 0 in every register); on every other vendor the data
 *    of the highest basic leaf, sub-leaf as asked (SDM Vol. 2A CPUID: "If
 *    a value entered for CPUID.EAX is higher than the maximum input value
 *    for basic or extended function for that processor then the data for
 *    the highest basic information leaf is returned");
 *  - a leaf or sub-leaf within the maximum that the dump did not record:
 *    zeros (a sub-leaf past the last of leaves 04H, 0BH, 1FH, 8000001DH and
 *    80000026H reads as type 0, "invalid", which ends their lists).
 */
#ifndef TESTS_CPUID_DUMP_H
#define TESTS_CPUID_DUMP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dump_leaf {
	uint32_t leaf, sub, r[4];
};

struct dump_cpu {
	int n;                  /* leaves */
	struct dump_leaf *v;    /* as in the file: sorted by leaf, then sub */
	int amd;                /* AuthenticAMD or HygonGenuine */
	uint32_t max_basic, max_ext, max_hv;
};

struct dump {
	char name[200];
	char commit[16];
	int ncpus;
	struct dump_cpu *cpus;
};

static const struct dump_leaf *dump_find(const struct dump_cpu *c, uint32_t leaf, uint32_t sub)
{
	int lo = 0, hi = c->n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const struct dump_leaf *x = &c->v[mid];
		if (x->leaf == leaf && x->sub == sub)
			return x;
		if (x->leaf < leaf || (x->leaf == leaf && x->sub < sub))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

/* The cpuid_fn: ctx is a struct dump_cpu. */
static void dump_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4])
{
	const struct dump_cpu *c = ctx;
	const struct dump_leaf *x;
	int beyond = (leaf < 0x40000000u && leaf > c->max_basic) ||
		     (leaf >= 0x40000000u && leaf < 0x80000000u && leaf > c->max_hv) ||
		     (leaf >= 0x80000000u && leaf > c->max_ext);
	memset(out, 0, 4 * sizeof out[0]);
	if (beyond && c->amd)
		return;
	x = dump_find(c, beyond ? c->max_basic : leaf, sub);
	if (x)
		memcpy(out, x->r, 4 * sizeof out[0]);
}

static void dump_cpu_finish(struct dump_cpu *c)
{
	const struct dump_leaf *x = dump_find(c, 0, 0);
	c->max_basic = x ? x->r[0] : 0;
	c->amd = x && ((x->r[1] == 0x68747541u && x->r[3] == 0x69746e65u) ||  /* Auth enti cAMD */
		       (x->r[1] == 0x6f677948u && x->r[3] == 0x6e65476eu));   /* Hygo nGen uine */
	x = dump_find(c, 0x80000000u, 0);
	c->max_ext = x && x->r[0] >= 0x80000000u ? x->r[0] : 0x80000000u;
	x = dump_find(c, 0x40000000u, 0);
	c->max_hv = x && x->r[0] >= 0x40000000u ? x->r[0] : 0;
	if (!x)
		c->max_hv = 0x3FFFFFFFu; /* no hypervisor leaves: all beyond */
}

/* dump_load - every dump of the file at path; returns the count, -1 when
 * the file cannot be read or a line is not understood (said on stdout). */
static int dump_load(const char *path, struct dump **out)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int n = 0, cap = 0, lineno = 0, ndecl = 0;
	struct dump *d = 0;
	struct dump_cpu *c = 0;
	int cap_v = 0;
	if (!f) {
		printf("cpuid corpus: cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		lineno++;
		struct dump_leaf x;
		int ncpus, cpu;
		if (!strncmp(line, "dump ", 5)) {
			if (c)
				dump_cpu_finish(c);
			c = 0;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				*out = realloc(*out, (size_t)cap * sizeof **out);
			}
			d = &(*out)[n++];
			memset(d, 0, sizeof *d);
			if (sscanf(line, "dump %199s %15s %d", d->name, d->commit, &ncpus) != 3 || ncpus < 1)
				goto bad;
			ndecl = ncpus;
			d->cpus = calloc((size_t)ncpus, sizeof *d->cpus);
		} else if (sscanf(line, "cpu %d", &cpu) == 1) {
			if (!d || cpu != d->ncpus || cpu >= ndecl)
				goto bad;
			if (c)
				dump_cpu_finish(c);
			c = &d->cpus[d->ncpus++];
			cap_v = 0;
		} else if (sscanf(line, "%x %x %x %x %x %x", &x.leaf, &x.sub, &x.r[0], &x.r[1], &x.r[2], &x.r[3]) == 6 &&
			   c) {
			if (c->n == cap_v) {
				cap_v = cap_v ? 2 * cap_v : 128;
				c->v = realloc(c->v, (size_t)cap_v * sizeof *c->v);
			}
			c->v[c->n++] = x;
		} else {
			goto bad;
		}
	}
	if (c)
		dump_cpu_finish(c);
	fclose(f);
	return n;
bad:
	printf("cpuid corpus: %s line %d not understood: %s", path, lineno, line);
	fclose(f);
	return -1;
}

static void dump_free(struct dump *d, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < d[i].ncpus; k++)
			free(d[i].cpus[k].v);
		free(d[i].cpus);
	}
	free(d);
}

/* dump_load_corpus - every dump of $BENCH_BUILD/host/cpuid_corpus.txt
 * (build/ without BENCH_BUILD), the path written into path[0..n-1];
 * returns dump_load's count. */
static int dump_load_corpus(struct dump **out, char *path, size_t n)
{
	const char *build = getenv("BENCH_BUILD");
	snprintf(path, n, "%s/host/cpuid_corpus.txt", build ? build : "build");
	*out = 0;
	return dump_load(path, out);
}

#endif

/* tests/unit/test_cpuid_corpus.c - real CPUs' CPUID (libcpuid's dumps,
 * tests/corpus/cpuid/) through the code the kernel runs: lib/cpuinfo.c
 * (vendor, family/model/stepping, features: kernel/probe.c), lib/cpus.c
 * (topology and core type: bench/percpu.c), lib/tscfreq.c (kernel/clocks.c)
 * and lib/pmu_detect.c's CPUID probe (kernel/pmu.c), each fed by the same
 * gathering functions with the dump as its CPUID (tests/unit/cpuid_dump.h
 * says what a leaf beyond a dump's maximum returns).
 *
 * Every dump: decoded, nothing refused (a topology on every dump of more
 * than one CPU whose CPUID offers one, both kinds of a hybrid part selectable, a core type of a
 * known kind, a CPUID TSC rate within 100 MHz..10 GHz when there is one).
 * Named dumps: exact values, the project's own, from the SDM and the APM
 * (expect[] says where each comes from and where Linux differs).
 */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "cpuid_dump.h"
#include "../../lib/cpuinfo.h"
#include "../../lib/cpus.h"
#include "../../lib/pmu.h"
#include "../../lib/tscfreq.h"

#define MAXCPU 1024

/* What the kernel would decide on a machine of this dump's CPUs. */
struct decoded {
	struct cpu_info info;      /* CPU 0, the boot CPU */
	struct cpus_topo topo;     /* from CPU 0 */
	int ncpus, distinct_ids;   /* logical CPUs; their APIC IDs all differ */
	int offers;                /* CPUID has something to split APIC IDs by: leaf 1FH or 0BH,
				    * CPUID.1:EDX[28] HTT, or AMD's 80000008H */
	int packages, cores, max_threads; /* distinct (package), (package, core); threads of the largest core */
	int units;                 /* distinct (package, compute unit); 0 without compute units */
	int p, e;                  /* CPUs cpus=p, cpus=e select (0 when they fall back) */
	int unknown_type;          /* CPUs of a core type neither kind */
	int tsc_ok;                /* tscfreq_from_cpuid returned 0 */
	struct tscfreq tsc;
	struct pmu_info pmu;
};

static struct cpus_desc desc[MAXCPU];
static uint8_t chosen[MAXCPU];

/* The APIC ID the MADT would list for this CPU: the x2APIC ID of leaf 0BH
 * when the leaf is valid, else CPUID.1:EBX[31:24]. */
static uint32_t apic_id_of(struct dump_cpu *c)
{
	uint32_t r[4];
	if (c->max_basic >= 0xB) {
		dump_cpuid(c, 0xB, 0, r);
		if ((r[2] >> 8) & 0xFF)
			return r[3];
	}
	dump_cpuid(c, 1, 0, r);
	return r[1] >> 24;
}

static int select_count(enum cpus_mode m, int n)
{
	struct cpus_sel sel = { .mode = m };
	struct cpus_choice ch;
	cpus_select(&sel, desc, n, chosen, &ch);
	return ch.fell_back ? 0 : ch.count;
}

static int msr_faults(void *ctx, uint32_t msr, uint64_t *val)
{
	(void)ctx;
	(void)msr;
	*val = 0;
	return 0x10d; /* #GP: the host reads no MSR */
}

static int wrmsr_faults(void *ctx, uint32_t msr, uint64_t val)
{
	(void)ctx;
	(void)msr;
	(void)val;
	return 0x10d;
}

static void decode(struct dump *d, struct decoded *o)
{
	struct cpus_topo_cpuid in;
	int n = d->ncpus < MAXCPU ? d->ncpus : MAXCPU;
	memset(o, 0, sizeof *o);
	o->ncpus = n;
	cpuinfo_read(dump_cpuid, &d->cpus[0], &o->info);
	cpus_topo_read(dump_cpuid, &d->cpus[0], &in);
	cpus_topo_from_cpuid(&in, &o->topo);
	o->offers = in.nlevels || in.htt || (o->info.is_amd && o->info.max_ext >= 0x80000008u);
	o->distinct_ids = 1;
	for (int i = 0; i < n; i++) {
		struct cpus_desc *x = &desc[i];
		x->apic_id = apic_id_of(&d->cpus[i]);
		x->online = 1;
		x->is_boot = i == 0;
		x->core_type = cpus_core_type_read(dump_cpuid, &d->cpus[i]);
		cpus_topo_split(&o->topo, x->apic_id, &x->pkg, &x->core, &x->thread);
		o->unknown_type += x->core_type && !cpus_core_is_p(x->core_type) && !cpus_core_is_e(x->core_type);
	}
	for (int i = 0; i < n; i++) {
		int first_pkg = 1, first_core = 1, first_unit = 1, threads = 0;
		uint32_t unit = cpus_topo_unit(&o->topo, desc[i].core);
		for (int k = 0; k < n; k++) {
			int same_core = desc[k].pkg == desc[i].pkg && desc[k].core == desc[i].core;
			if (k < i && desc[k].apic_id == desc[i].apic_id)
				o->distinct_ids = 0;
			if (k < i && desc[k].pkg == desc[i].pkg)
				first_pkg = 0;
			if (k < i && same_core)
				first_core = 0;
			if (k < i && desc[k].pkg == desc[i].pkg && cpus_topo_unit(&o->topo, desc[k].core) == unit)
				first_unit = 0;
			threads += same_core;
		}
		o->packages += first_pkg;
		o->cores += first_core;
		o->units += first_unit && o->topo.has_cu;
		if (threads > o->max_threads)
			o->max_threads = threads;
	}
	o->p = select_count(CPUS_P, n);
	o->e = select_count(CPUS_E, n);

	struct tscfreq_cpuid t;
	tscfreq_cpuid_read(dump_cpuid, &d->cpus[0], &t);
	o->tsc_ok = tscfreq_from_cpuid(&t, &o->tsc) == 0;

	struct pmu_backend b = { .ctx = &d->cpus[0], .cpuid = dump_cpuid, .rdmsr = msr_faults, .wrmsr = wrmsr_faults };
	pmu_detect(&b, PMU_MODE_AUTO, &o->pmu);
}

/* Every dump: decoded and nothing refused. */
static void check_every(const struct dump *d, const struct decoded *o)
{
	int printable = 1;
	for (int i = 0; i < 12; i++)
		printable &= o->info.vendor[i] >= 0x20 && o->info.vendor[i] < 0x7F;
	CHECK(printable && o->info.family, "%s: vendor \"%s\" and family %#x decoded", d->name, o->info.vendor,
	      o->info.family);
	if (o->ncpus > 1 && o->distinct_ids && o->offers)
		CHECK(o->topo.known, "%s: %d CPUs, a topology (not refused: source %s)", d->name, o->ncpus,
		      o->topo.source);
	CHECK(!o->unknown_type, "%s: %d CPUs of an unknown core type", d->name, o->unknown_type);
	int both = 0;
	for (int i = 0; i < o->ncpus; i++)
		both |= cpus_core_is_p(desc[i].core_type) ? 1 : cpus_core_is_e(desc[i].core_type) ? 2 : 0;
	if (both == 3)
		CHECK(o->p > 0 && o->e > 0 && o->p + o->e == o->ncpus,
		      "%s: hybrid: cpus=p selects %d, cpus=e %d, of %d CPUs", d->name, o->p, o->e, o->ncpus);
	if (o->tsc_ok)
		CHECK(o->tsc.hz >= 100000000u && o->tsc.hz <= 10000000000u, "%s: CPUID TSC rate %llu Hz (%s)",
		      d->name, (unsigned long long)o->tsc.hz, o->tsc.source);
	CHECK_STR(o->pmu.vendor_str, o->info.vendor, "%s: the PMU probe read the same vendor", d->name);
}

/* Exact values for named dumps. cores/threads: as the kernel splits the
 * dump's APIC IDs; units: compute units (0: none); p/e: CPUs cpus=p and cpus=e select (0: not hybrid);
 * tsc_hz: 0 when CPUID gives no rate. linux: where Linux decides
 * otherwise, and why the project does not follow. */
static const struct expect {
	const char *name;
	const char *vendor;
	uint32_t family, model, stepping;
	int packages, cores, max_threads, units;
	int p, e;
	uint64_t tsc_hz;
	const char *why;
	const char *linux_differs;
} expect[] = {
	/* Item 1. Signature 00600F12H: family 0FH + 06H = 15H, model 01H.
	 * 80000008H:ECX NC = 7 (8 cores), ApicIdSize 4; 8000001EH:EBX[15:8] = 1:
	 * for family 15h the cores per compute unit - 1 (APM Vol. 3 Fn8000_001E
	 * EBX; BKDG for family 15h), not threads per core: 8 cores in 4 compute
	 * units, no SMT. */
	{ "amd/bulldozer/amd-fx-8150-eight-core-processor.test", "AuthenticAMD", 0x15, 0x01, 2, 1, 8, 1, 4, 0, 0, 0,
	  "family 15h: 8000001EH:EBX[15:8] counts the cores of a compute unit",
	  "Linux (amd_get_topology) lists the two cores of a compute unit as thread siblings: 4 cores x 2 "
	  "threads; cpus=one-per-core would then measure half of the cores" },
	/* Item 2. Signature 00020FB1H: family 0FH, model 0BH + (2 << 4) = 2BH.
	 * CmpLegacy (80000001H:ECX[1]) = 1 and 80000008H:ECX NC = 1: 2 cores;
	 * ApicIdCoreIdSize = 0: the core bits are ceil(log2(NC + 1)) (APM Vol. 3
	 * Fn8000_0008 ECX); AMD has no SMT before family 17h. */
	{ "amd/k8/amd-athlon-64-x2-dual-core-processor-3800+.test", "AuthenticAMD", 0x0F, 0x2B, 1, 1, 2, 1, 0, 0, 0,
	  0, "K8 dual-core: CmpLegacy, NC + 1 cores", 0 },
	/* Item 3. Signature 00B20F40H: family 0FH + 0BH = 1AH, model 04H + (2 <<
	 * 4) = 24H. Leaf 0BH: SMT shift 1, core shift 5; 80000026H sub-leaf 0
	 * EAX[30] heterogeneous cores, EBX[31:28] CoreType 0 (performance) on
	 * CPUs 0-7 (4 Zen 5 cores), 1 (efficiency) on CPUs 8-23 (8 Zen 5c). */
	{ "amd/zen5/amd-ryzen-ai-9-hx-370-with-radeon-890m.test", "AuthenticAMD", 0x1A, 0x24, 0, 1, 12, 2, 0, 8, 16, 0,
	  "heterogeneous AMD: 80000026H CoreType", 0 },
	/* Item 7. Vendor CentaurHauls (Zhaoxin), signature 000307B2H: family 7,
	 * model 0BH + (3 << 4) = 3BH (the extended model is added for family 6
	 * and above on Centaur/Zhaoxin parts, as Linux x86_model() does). Leaf
	 * 0BH: SMT shift 0, core shift 2: 4 cores. */
	{ "zhaoxin/lujiazui/zhaoxin-kaixian-kx-6000g.test", "CentaurHauls", 0x07, 0x3B, 2, 1, 4, 1, 0, 0, 0, 0,
	  "Zhaoxin family 7: extended model added", 0 },
	/* Skylake 06_5EH (000506E3H): leaf 0BH SMT shift 1, core shift 4: 4
	 * cores x 2 threads. CPUID.15H EAX = 2, EBX = 334, ECX = 0: the SDM's
	 * crystal table gives 24 MHz for 06_5EH: 24 MHz x 334 / 2. */
	{ "intel/x86-64/skylake/intel-core-i7-6700k-cpu.test", "GenuineIntel", 0x06, 0x5E, 3, 1, 4, 2, 0, 0, 0,
	  4008000000u, "Skylake client: crystal by model", 0 },
	/* Alder Lake 06_97H (00090672H): leaf 1FH SMT shift 1, core shift 7;
	 * hybrid (07H:EDX[15]) with 1AH core type 40H on the 16 threads of 8
	 * P-cores and 20H on 8 E-cores: 16 cores. CPUID.15H EAX = 2, EBX = 166,
	 * ECX = 38.4 MHz: 38.4 MHz x 166 / 2. */
	{ "intel/x86-64/golden-cove/12th-gen-intel-core-i9-12900k.test", "GenuineIntel", 0x06, 0x97, 2, 1, 16, 2,
	  0, 16, 8, 3187200000u, "Intel hybrid: 1AH core type; 15H crystal in ECX", 0 },
	/* Zen 3 (00A20F10H): family 0FH + 0AH = 19H, model 01H + (2 << 4) = 21H;
	 * leaf 0BH SMT shift 1: 16 cores x 2 threads. */
	{ "amd/zen3/amd-ryzen-9-5950x-16-core-processor.test", "AuthenticAMD", 0x19, 0x21, 0, 1, 16, 2, 0, 0, 0, 0,
	  "Zen 3: SMT from leaf 0BH", 0 },
};

static void check_named(const struct dump *d, const struct decoded *o, const struct expect *x)
{
	CHECK_STR(o->info.vendor, x->vendor, "%s: vendor", d->name);
	CHECK_EQ_U64(o->info.family, x->family, "%s: family (%s)", d->name, x->why);
	CHECK_EQ_U64(o->info.model, x->model, "%s: model (%s)", d->name, x->why);
	CHECK_EQ_U64(o->info.stepping, x->stepping, "%s: stepping", d->name);
	CHECK_EQ_U64(o->packages, x->packages, "%s: packages (%s)", d->name, x->why);
	CHECK_EQ_U64(o->cores, x->cores, "%s: cores (%s; topology from %s%s%s)", d->name, x->why, o->topo.source,
		     x->linux_differs ? "; differs from Linux: " : "", x->linux_differs ? x->linux_differs : "");
	CHECK_EQ_U64(o->max_threads, x->max_threads, "%s: threads per core (%s)", d->name, x->why);
	CHECK_EQ_U64(o->units, x->units, "%s: compute units (%s)", d->name, x->why);
	CHECK_EQ_U64(o->p, x->p, "%s: CPUs cpus=p selects (%s)", d->name, x->why);
	CHECK_EQ_U64(o->e, x->e, "%s: CPUs cpus=e selects (%s)", d->name, x->why);
	CHECK_EQ_U64(o->tsc_ok ? o->tsc.hz : 0, x->tsc_hz, "%s: CPUID TSC rate, Hz (%s)", d->name, o->tsc.source);
}

int main(void)
{
	char path[512];
	struct dump *dumps;
	int n = dump_load_corpus(&dumps, path, sizeof path);
	CHECK(n >= 490, "the corpus %s holds the ~490 x86 dumps of libcpuid (%d)", path, n);
	static struct decoded o;
	int named = 0;
	for (int i = 0; i < n; i++) {
		decode(&dumps[i], &o);
		check_every(&dumps[i], &o);
		for (size_t k = 0; k < sizeof expect / sizeof expect[0]; k++)
			if (!strcmp(dumps[i].name, expect[k].name)) {
				check_named(&dumps[i], &o, &expect[k]);
				named++;
			}
	}
	CHECK_EQ_U64(named, sizeof expect / sizeof expect[0], "every named dump is in the corpus");
	if (n > 0)
		dump_free(dumps, n);
	return check_summary("cpuid_corpus");
}

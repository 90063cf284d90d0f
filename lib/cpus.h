/* lib/cpus.h - which CPUs a run measures: the processor topology from
 * CPUID (package, core, thread of each APIC ID), the hybrid core type, and
 * the cpus= boot parameter (README "Boot parameters") that selects among
 * the CPUs of the MADT.
 *
 * Freestanding and host-tested (tests/unit/test_cpus.c): the caller
 * executes CPUID and passes what it returned.
 *
 * Sources:
 *  - SDM Vol. 2A, CPUID leaves 0BH ("Extended Topology Enumeration") and
 *    1FH ("V2 Extended Topology Enumeration"): sub-leaf n gives in EAX[4:0]
 *    the bits to shift the x2APIC ID right to get the ID of the next level
 *    up, in ECX[15:8] the level type (0 invalid, 1 SMT, 2 core, 3 module,
 *    4 tile, 5 die); 1FH is preferred when it exists.
 *  - SDM Vol. 3A, "Identifying Topology Levels" / "Hierarchical Mapping of
 *    Shared Resources" (chapter "Multiple-Processor Management"): the
 *    legacy derivation without leaf 0BH, from CPUID.1:EBX[23:16] (the
 *    addressable logical processor IDs of a package, when CPUID.1:EDX[28]
 *    HTT) and CPUID.4:EAX[31:26] + 1 (addressable core IDs).
 *  - AMD64 APM Vol. 3, CPUID 8000_0008H:ECX[15:12] ApicIdSize (the APIC ID
 *    bits of the package; when 0, the legacy rule: ceil(log2(NC + 1))
 *    bits, ECX[7:0] NC the cores of the package - 1) and 8000_001EH:EBX
 *    [15:8] (valid with TopologyExtensions, 8000_0001H:ECX[22]): threads
 *    per core - 1, but on family 15h cores per compute unit - 1 (APM and
 *    BKDG for family 15h: a compute unit holds two integer cores sharing a
 *    front end and FPU; each is a core of its own, with no SMT). AMD has
 *    no SMT before family 17h: with CmpLegacy (8000_0001H:ECX[1]) the
 *    logical processors of CPUID.1:EBX[23:16] are cores (K8 dual-core).
 *  - SDM Vol. 2A, CPUID.07H:EDX[15] Hybrid, and leaf 1AH ("Native Model ID
 *    Enumeration"): EAX[31:24] the core type, 20H Intel Atom (E-core),
 *    40H Intel Core (P-core).
 *  - AMD64 APM Vol. 3, CPUID Fn8000_0026 ("Extended CPU Topology"),
 *    sub-leaf 0 (the core level): EAX[30] HeterogeneousCores, EBX[31:28]
 *    CoreType, 0 a performance core, 1 an efficiency core (Ryzen AI 300:
 *    Zen 5 and Zen 5c), as Linux reads it (X86_FEATURE_AMD_HTR_CORES).
 */
#ifndef LIB_CPUS_H
#define LIB_CPUS_H

#include <stddef.h>
#include <stdint.h>
#include "cpuinfo.h"

#define CPUS_TOPO_LEVELS 8   /* sub-leaves of 0BH/1FH read at most */
#define CPUS_LIST_MAX 64     /* numbers in a cpus= list */

/* Core types: Intel's are CPUID.1AH:EAX[31:24]; AMD's CoreType t
 * (80000026H:EBX[31:28]) is kept as CPU_TYPE_AMD(t), a code of this
 * project's (1AH defines no value from 80H up). */
#define CPU_TYPE_ATOM 0x20   /* E-core */
#define CPU_TYPE_CORE 0x40   /* P-core */
#define CPU_TYPE_AMD(t) ((uint8_t)(0x80 | ((t) & 0xF)))
#define CPU_TYPE_AMD_PERFORMANCE CPU_TYPE_AMD(0) /* selected by cpus=p */
#define CPU_TYPE_AMD_EFFICIENCY CPU_TYPE_AMD(1)  /* selected by cpus=e */

/* What CPUID says of the topology; the caller fills it on one CPU. */
struct cpus_topo_cpuid {
	int leaf;                /* 0x1F or 0x0B when read from it, 0: legacy */
	int nlevels;             /* valid sub-leaves, in order (level type != 0) */
	uint32_t level_type[CPUS_TOPO_LEVELS]; /* ECX[15:8] of each */
	uint32_t level_shift[CPUS_TOPO_LEVELS]; /* EAX[4:0] of each */
	/* legacy: */
	int htt;                 /* CPUID.1:EDX[28] */
	uint32_t logical_ids;    /* CPUID.1:EBX[23:16] */
	uint32_t core_ids;       /* CPUID.4:EAX[31:26] + 1 (Intel), 0 when leaf 4 is absent */
	int amd;                 /* AuthenticAMD or HygonGenuine */
	uint32_t amd_family;     /* display family (lib/cpuinfo.h), AMD only */
	uint32_t amd_apic_id_size;  /* 8000_0008H:ECX[15:12], 0: not given */
	uint32_t amd_nc;         /* 8000_0008H:ECX[7:0] + 1, 0: leaf absent */
	uint32_t amd_threads;    /* 8000_001EH:EBX[15:8] + 1, 0: leaf absent (or no
				  * TopologyExtensions); family 15h: cores per compute unit */
};

/* cpus_topo_read - fill *in from CPUID through f (on the CPU it runs on):
 * leaf 1FH's sub-leaves, else 0BH's, while their level type is nonzero (at
 * most CPUS_TOPO_LEVELS), leaves 1H and 4H, AMD's 80000008H and 8000001EH,
 * each read only when the maximum leaf reaches it. */
void cpus_topo_read(cpuid_fn *f, void *ctx, struct cpus_topo_cpuid *in);

/* How an APIC ID splits into package, core and thread. */
struct cpus_topo {
	int known;               /* 0: nothing to go by (a single-core CPU) */
	const char *source;      /* "CPUID 1FH", "CPUID 0BH", "CPUID 1H/4H", "CPUID 8000001EH",
				  * "CPUID 80000008H", "none" */
	uint32_t smt_shift;      /* thread ID bits */
	uint32_t pkg_shift;      /* thread and core ID bits (and module/tile/die) */
	int has_cu;              /* AMD family 15h: cores grouped in compute units */
	uint32_t cu_shift;       /* has_cu: core ID bits within a compute unit */
	const char *grouping;    /* has_cu: how the cores are counted and where Linux
				  * differs, one phrase for the cpus: line; else "" */
};

/* cpus_topo_from_cpuid - the split of APIC IDs that in describes: from
 * the extended leaf when it has levels (smt_shift: the SMT level's shift,
 * 0 when there is none; pkg_shift: the last level's), else AMD's
 * 8000_0008H (pkg_shift: ApicIdSize, or the bits of NC + 1 cores when it
 * is 0) with 8000_001EH (family 17h and later: smt_shift, the bits of its
 * threads per core; family 15h: no SMT, and cu_shift the bits of its cores
 * per compute unit), else the legacy fields (on AMD: no SMT, every logical
 * processor a core). Never fails: with nothing to go by, known = 0 and both shifts 0
 * (every APIC ID its own package, core 0, thread 0). A shift above 32 or
 * an SMT shift above the package's is refused the same way. */
void cpus_topo_from_cpuid(const struct cpus_topo_cpuid *in, struct cpus_topo *out);

/* cpus_topo_split - package, core (within the package) and thread (within
 * the core) of an APIC ID. With compute units (has_cu) the compute unit
 * of a core is core >> cu_shift (cpus_topo_unit). */
void cpus_topo_split(const struct cpus_topo *t, uint32_t apic_id, uint32_t *pkg, uint32_t *core,
		     uint32_t *thread);

/* cpus_core_type_read - the core type of the CPU f runs on: Intel (and
 * others but AMD and Hygon), CPUID.1AH:EAX[31:24] when CPUID.07H:EDX[15]
 * (Hybrid) says the part is hybrid; AMD and Hygon, CPU_TYPE_AMD(CoreType)
 * when 80000026H:EAX[30] (HeterogeneousCores) says it is; else 0. */
uint8_t cpus_core_type_read(cpuid_fn *f, void *ctx);

/* cpus_topo_unit - the compute unit (within the package) of a core number
 * cpus_topo_split gave; 0 without compute units. */
uint32_t cpus_topo_unit(const struct cpus_topo *t, uint32_t core);

/* cpus_core_type_name - "P-core (Intel Core)", "E-core (Intel Atom)",
 * "performance core (AMD)", "efficiency core (AMD)", "not hybrid" for 0,
 * or "unknown core type" for other values. */
const char *cpus_core_type_name(uint8_t type);

/* cpus_core_is_p, cpus_core_is_e - whether a core type is of the kind
 * cpus=p (Intel P-core, AMD performance core) or cpus=e (Intel E-core,
 * AMD efficiency core) selects: 1 or 0. */
int cpus_core_is_p(uint8_t type);
int cpus_core_is_e(uint8_t type);

/* One CPU of the machine, in MADT order (the number cpus= uses). */
struct cpus_desc {
	uint32_t apic_id;
	int online;              /* started and answering (the boot CPU always) */
	int is_boot;             /* the boot CPU */
	uint8_t core_type;       /* cpus_core_type_read on that CPU; 0: not hybrid */
	uint32_t pkg, core, thread;
};

enum cpus_mode { CPUS_BOOT, CPUS_ALL, CPUS_LIST, CPUS_P, CPUS_E, CPUS_ONE_PER_CORE };

/* A parsed cpus= value. */
struct cpus_sel {
	enum cpus_mode mode;
	int n;                      /* CPUS_LIST: numbers */
	uint32_t list[CPUS_LIST_MAX]; /* CPUS_LIST: in the order given */
};

/* cpus_parse - v[0..len-1] as a cpus= value: boot, all, p, e,
 * one-per-core, or a comma list of CPU numbers and ranges A-B (MADT order,
 * 0..65535, at most CPUS_LIST_MAX numbers, a number given twice counted
 * once). Returns 0, or -1 with a message in err (NUL-terminated, at most
 * errsize bytes) naming what is wrong; *out is then CPUS_BOOT. */
int cpus_parse(const char *v, size_t len, struct cpus_sel *out, char *err, size_t errsize);

/* cpus_mode_name - the value's words: "boot", "all", "p", "e",
 * "one-per-core", "list". */
const char *cpus_mode_name(enum cpus_mode m);

/* The result of a selection: chosen[i] = 1 for CPU i, in MADT order; and
 * why CPUs were left out, one line each (messages NUL-terminated). */
#define CPUS_MSG_MAX 8
#define CPUS_MSG_LEN 160
struct cpus_choice {
	int count;                  /* CPUs chosen */
	int fell_back;              /* nothing selectable: the boot CPU instead */
	int nmsgs;
	char msg[CPUS_MSG_MAX][CPUS_MSG_LEN];
};

/* cpus_select - which of the n CPUs (n >= 1, one of them is_boot) sel
 * measures: boot, the boot CPU; all, every online CPU; p / e, the online
 * CPUs of that core type (on a CPU that is not hybrid: a message, and the
 * boot CPU); one-per-core, the online CPU with the lowest thread number of
 * each (package, core); a list, those numbers, each one that does not exist
 * or is not online a message. When nothing is left, the boot CPU is
 * chosen, said in a message (fell_back = 1; always the last message, even
 * when the others filled CPUS_MSG_MAX). chosen has n entries. */
void cpus_select(const struct cpus_sel *sel, const struct cpus_desc *cpus, int n, uint8_t *chosen,
		 struct cpus_choice *out);

#endif

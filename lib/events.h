/* lib/events.h - performance events by name: the architectural events of
 * the SDM, the model-specific events of intel/perfmon's JSON (Intel) and
 * of the family's events (AMD, Hygon), nanoBench's notation, and groups;
 * each resolved to the value written to IA32_PERFEVTSELx (SDM Vol. 3B
 * "Architectural Performance Monitoring Version 1", figure "Layout of
 * IA32_PERFEVTSELx MSRs") or PERF_CTL (AMD APM Vol. 2, "Performance
 * Monitoring Counters", PerfEvtSeln).
 *
 * Resolution uses CPUID's vendor, family, model, stepping and core type
 * only (struct ev_cpu): nothing here touches a counter, so a run without
 * a PMU still prints what it would program. The tables are generated at
 * build time by tools/mkevents.py from the upstream data in tools/events/
 * (with each source's licence and version there); never typed by hand.
 * Freestanding, no allocation; host-tested (tests/unit/test_events.c).
 *
 * ISSUE 30 INTERFACE: owned by the events-data work; others call it. */
#ifndef LIB_EVENTS_H
#define LIB_EVENTS_H

#include <stddef.h>
#include <stdint.h>

enum ev_vendor { EV_VENDOR_OTHER, EV_VENDOR_INTEL, EV_VENDOR_AMD, EV_VENDOR_HYGON };

/* What resolution may look at (all from CPUID). */
struct ev_cpu {
	enum ev_vendor vendor;
	uint32_t family, model, stepping; /* display family/model (CPUID.1:EAX) */
	uint32_t core_type;    /* CPUID.1AH:EAX[31:24] (20H Atom, 40H Core), 0 when the leaf is absent */
	unsigned arch_version; /* CPUID.0AH:EAX[7:0], 0 when absent */
	unsigned arch_ebx_len; /* CPUID.0AH:EAX[31:24] */
	uint32_t arch_ebx;     /* CPUID.0AH:EBX: bit i set = architectural event i not available */
	uint32_t native_model; /* CPUID.1AH:EAX[23:0], the native model ID (intel/perfmon's
				* mapfile tells Arrow Lake's Skymont and Crestmont E-cores
				* apart by it), 0 when the leaf is absent */
};

/* ev_cpu_from_cpuid - fill *c from a CPUID function (leaf 0, 1, 0AH, 1AH).
 * Never fails. */
void ev_cpu_from_cpuid(void (*cpuid)(void *ctx, uint32_t leaf, uint32_t sub, uint32_t out[4]),
		       void *ctx, struct ev_cpu *c);

/* Where an event's definition came from. */
enum ev_origin {
	EV_ORIGIN_ARCH,     /* SDM's architectural events (CPUID.0AH:EBX) */
	EV_ORIGIN_TABLE,    /* the model's table (intel/perfmon, AMD) */
	EV_ORIGIN_NANOBENCH /* nanoBench's notation as given */
};

#define EV_NAME_MAX 96 /* perfmon's longest core event name is 95 */
#define EV_FIXED_NONE (-1)
#define EV_COUNTERS_ANY 0xFFFFFFFFu

/* One event, resolved. */
struct ev_def {
	char name[EV_NAME_MAX];  /* as the data spells it (upper case), or the
				  * nanoBench text / its :NAME */
	enum ev_origin origin;
	const char *source;      /* "intel/perfmon SKL core V58 (BSD-3-Clause)",
				  * "SDM Vol. 3B architectural event", ... static */
	uint16_t event_select;   /* 8 bits Intel, 12 bits AMD */
	uint8_t umask, cmask;
	uint8_t inv, edge, anyt;
	uint32_t counters;       /* GP counters allowed (bit i = counter i), EV_COUNTERS_ANY */
	int fixed;               /* the fixed counter that counts it (0..3; INST_RETIRED.ANY
				  * is fixed 0 only), EV_FIXED_NONE */
	int fixed_only;          /* 1: no GP encoding (e.g. TOPDOWN.SLOTS on some models) */
	int taken_alone;         /* perfmon TakenAlone: no other event in its pass */
	uint32_t msr_index;      /* extra MSR (MSR_OFFCORE_RSP0 1A6H, ...), 0 none */
	uint64_t msr_value;
	uint64_t perfevtsel;     /* the value written: Intel EventSel[7:0] | UMask<<8 | OS(17)
				  * | E(18) edge | AnyThread(21) | EN(22) | INV(23) | CMASK<<24;
				  * AMD EventSelect[7:0] | UnitMask<<8 | OS(17) | Edge(18) |
				  * En(22) | Inv(23) | CntMask<<24 | EventSelect[11:8]<<32;
				  * Intel also UMASK2 (umask_ext) << 40 */
	uint8_t umask_ext;       /* Intel UMASK2, IA32_PERFEVTSELx[47:40] (perfmon UMaskExt,
				  * Lion Cove and later), 0 elsewhere */
};

/* ev_perfevtsel - the value for IA32_PERFEVTSELx (Intel) or PERF_CTL
 * (AMD, Hygon) of d's fields, counting at ring 0 only (OS=1, USR=0),
 * enabled (EN=1), no interrupt (INT=0). */
uint64_t ev_perfevtsel(enum ev_vendor v, const struct ev_def *d);

/* ev_table_name - the name of the table CPUID selects ("SKL core V58"),
 * or NULL with why[] saying why none ("no intel/perfmon table for
 * GenuineIntel family 6 model 0x0F"). */
const char *ev_table_name(const struct ev_cpu *c, char *why, size_t whylen);

/* ev_resolve - one item of events= into out[0..max-1]: a name (any case)
 * of the architectural events or the model's table, nanoBench's notation
 * EvtSel.UMASK[.CMSK=n][.AnyT][.EDG][.INV][.CTR=n][:NAME] (hex fields; AMD
 * a 12-bit EvtSel), or a group (topdown, branches, caches) expanding to
 * several. Returns the number of events (>= 1), or -1 with err[] naming
 * what is wrong, with a did-you-mean from this CPU's own table when a name
 * is near one ("unknown event L1D.REPLACMENT on SKL core V58; did you mean
 * L1D.REPLACEMENT?").
 *
 * Order: a group; the model's table (its entry wins over the SDM's); the
 * SDM's architectural events (Intel; refused when CPUID.0AH, version 1 or
 * more, says the event is absent; resolved without a PMU, version 0);
 * nanoBench's notation. Groups (lib/events.c says which upstream formulas):
 *  - branches: BR_INST_RETIRED.ALL_BRANCHES, BR_MISP_RETIRED.ALL_BRANCHES
 *    (AMD: RETIRED_BRANCH_INSTRUCTIONS and ..._MISPREDICTED);
 *  - caches: up to 4 of the model's L1D/L2/LLC events (L1D.REPLACEMENT,
 *    L2_RQSTS.REFERENCES, L2_RQSTS.MISS, LONGEST_LAT_CACHE.MISS; the
 *    MEM_LOAD_*RETIRED misses where those are absent; AMD Zen's L1D and L2
 *    request events);
 *  - topdown: TMA level 1: Ice Lake and later P-cores TOPDOWN.SLOTS (fixed
 *    counter 3, with which IA32_PERF_METRICS counts) and the events of the
 *    TMA formulas (IDQ_UOPS_NOT_DELIVERED.CORE or IDQ_BUBBLES.CORE,
 *    TOPDOWN.BACKEND_BOUND_SLOTS, UOPS_RETIRED.SLOTS); Sandy Bridge to
 *    Cascade Lake CPU_CLK_UNHALTED.THREAD, IDQ_UOPS_NOT_DELIVERED.CORE,
 *    UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS, INT_MISC.RECOVERY_CYCLES;
 *    E-cores CPU_CLK_UNHALTED.CORE and TOPDOWN_{RETIRING,BAD_SPECULATION,
 *    FE_BOUND,BE_BOUND}.ALL; none on AMD. */
int ev_resolve(const struct ev_cpu *c, const char *item, size_t len, struct ev_def *out, int max,
	       char *err, size_t errlen);

#endif

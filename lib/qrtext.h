/* lib/qrtext.h - the compact, versioned text of a run's results that the
 * screen shows as a QR code (docs/SCREEN.md "The QR code"), and its
 * split into numbered parts when it does not fit one code.
 *
 * Format "bench1" (ASCII lines ending in '\n'; tools/benchqr.py reads it):
 *
 *   bench1 P/N CRC         each part's first line: part P of N (1..9), CRC
 *                          the CRC-32 (IEEE 802.3, as zlib's crc32) of the
 *                          joined body, 8 lower-case hex digits: it ties
 *                          the parts of one run together and checks them
 *   run ID                 the run's ID (kernel/runid.h: 16 hex digits, as
 *                          the serial log's env record "run_id"); left out
 *                          when the run has none
 *   vendor TEXT            CPUID.0 vendor string (rest of the line)
 *   cpu F M S UCODE        display family, model, stepping (decimal, as the
 *                          env record); microcode revision 0xHEX, '-' when
 *                          unreadable
 *   brand TEXT             CPUID brand string, '-' when the CPU has none
 *   hv TEXT                hypervisor vendor (CPUID.40000000H), 'none'
 *                          when CPUID.1:ECX[31] = 0
 *   tsc HZ PPM SOURCE      the TSC rate [Hz], its bound [ppm], its source
 *                          (tsc_rate record); HZ 0: unknown
 *   tstep S SURE           only when the TSC moves in steps of S > 1 ticks
 *                          (the tsc_step record): SURE 'sure', or 'may'
 *                          when few figures show it
 *   size E S W             ensembles, samples per ensemble, warm-up samples
 *   limits VV VM           the verdict's limits: a method is ergodic when its
 *                          variance of variances <= VV [U^4] and variance of
 *                          minimum values <= VM [U^2] (verdict.var_of_vars=,
 *                          verdict.var_of_mins=)
 *   m NAME U OFF TV VV VM VERDICT SMIS NMIS
 *                          one per method run, in run order: own unit U (t
 *                          TSC ticks, c core cycles); OFF its offset (the
 *                          empty window's least minimum) as a group (below);
 *                          total variance [U^2], variance of variances
 *                          [U^4], variance of minimum values [U^2] of the
 *                          empty window, exact ('ovf': the figure is
 *                          missing, no ensemble had statistics); verdict ergodic,
 *                          not-ergodic or unknown (paper 4); SMIs during its
 *                          ensembles (a count; 'na': not counted on this
 *                          machine; 'unread': MSR_SMI_COUNT faulted); NMIs
 *   skip NAME...           the methods skipped (the reasons: serial log)
 *   why NAME TEXT          after the skip line, one per method skipped,
 *                          when the run had no serial port to hold the
 *                          reasons: why NAME was skipped (the skip
 *                          record's reason, the rest of the line)
 *   w NAME G...            one per workload measured (the code= workload
 *                          too): its net least minimum (least minimum -
 *                          offset) by each method of the m lines, in their
 *                          order, one group each
 *   low NAME G...          after a w line with a flagged figure: its flags
 *                          in groups like the w line's, 'z' below zero
 *                          (not a duration), 'r' below its resolution (the
 *                          body took less: 1 count, or for TSC ticks the
 *                          step of the tstep line when 'sure'), '-' not
 *                          flagged (bench/results.h results_net_flag)
 *   code NAME N UNROLL LOOPS
 *                          only with code=: the code workload's name (its
 *                          w line's), the copies the N window executes,
 *                          unroll= and loops= (0: no loop)
 *   pc METHOD U KIND FIG BOUND FRAC
 *                          code='s 2N-N figure per copy by METHOD in unit
 *                          U (t, c, i: TSC ticks, core cycles,
 *                          instructions), one per method and unit measured:
 *                          KIND exact, figure, below_resolution,
 *                          below_zero or wrapped (lib/percopy.h); FIG the
 *                          figure per copy with three decimals ('-' when
 *                          wrapped); BOUND: for figure +- this much, for
 *                          below_resolution at most this much per copy,
 *                          else '-'; FRAC the exact fraction NUM/DEN of
 *                          the 2N-N difference over N ('-' when wrapped)
 *   pa U AGREE TRUSTED PAIR...
 *                          after the pc lines, one per unit U measured:
 *                          whether the methods' figures per copy agree
 *                          (AGREE yes: every two intervals, figure +-
 *                          bound, overlap; no), the method the
 *                          recommendation trusts ('-': none), and per pair
 *                          that does not overlap LOW:HIGH:GAP, LOW's
 *                          interval below HIGH's by GAP per copy
 *                          (thousandths, rounded up; the
 *                          per_copy_agreement record)
 *   pe METHOD NAME KIND[!] FIG BOUND
 *                          after the pa lines, with events= (bench/events.h),
 *                          one per event with a figure per copy of code=
 *                          by METHOD (the recommended method; else the
 *                          first with figures): the event NAME (its own
 *                          unit), KIND, FIG and BOUND as the pc line's;
 *                          '!' right after KIND when the figure is not
 *                          verified (its pass's check missed: UNVERIFIED)
 *   cf METHOD VECTOR PART OFFSET COPY
 *                          code= faulted under METHOD: VECTOR as '#UD',
 *                          'watchdog' or 'left' (the loop returned early);
 *                          PART code, init, a part of the loop (prologue,
 *                          setup, start, loop_tail, stop, store, epilogue:
 *                          lib/codefault.h), page0 or outside; the byte
 *                          OFFSET in it (page0, outside: the address); the
 *                          1-based COPY of code=, or for a part of the
 *                          loop the copy whose jump lands there (0: init,
 *                          or not known)
 *   lat U LEVEL...         with sweep=latency (bench/sweep.h), one per unit
 *                          measured (t TSC ticks, c core cycles): the
 *                          levels lib/latlevels.h found, each
 *                          NAME:CPUID:EDGE:FIG (L1d, L2, L3, L4, DRAM; the
 *                          cache's bytes per CPUID, '-' for DRAM; the
 *                          edge's bytes, '-' when the curve ends on the
 *                          level; the figure per load, thousandths text),
 *                          or the one word 'none' when no level was told
 *                          apart (the latency_levels record)
 *   x NAME STATUS          a plan's experiment (plan=, README "Running a
 *                          plan"), one per experiment in the plan's order:
 *                          its name, complete, faulted or skipped (the
 *                          experiment_end record); the code, pc, pa, pe and
 *                          cf lines above are then left out (the serial log
 *                          has each experiment's in full)
 *   xa METHOD U KIND FIG BOUND FRAC
 *                          right after its x line, when the experiment has
 *                          one: its answer, code='s figure per copy by the
 *                          method its agreement trusts (else the first
 *                          with a figure), fields as a pc line's
 *   rec NAME               the recommended method, or 'none'
 *   final TEXT             the run's final line
 *
 * A group is "T/C/I": the figure in TSC ticks, core cycles, instructions
 * retired, '-' where that unit was not measured; fields after the last
 * measured one are left out ("12" is 12 TSC ticks only), and a group with
 * no unit is "-". Text fields have bytes outside 0x20..0x7E replaced by
 * '?'; a name field also its spaces by '_'.
 *
 * Parts: the body is cut at line ends into chunks such that each part,
 * header included, is at most part_max bytes (QRTEXT_PART_MAX: what a
 * version 40 code at error correction level M holds in byte mode, ISO/IEC
 * 18004:2015 table 7); one part when it all fits. */
#ifndef LIB_QRTEXT_H
#define LIB_QRTEXT_H

#include <stddef.h>
#include <stdint.h>
#include "wide.h"

#define QRTEXT_PART_MAX 2331 /* bytes: version 40-M, byte mode */
#define QRTEXT_MAX_PARTS 9
#define QRTEXT_HEADER_MAX 20 /* "bench1 9/9 0123abcd\n" */
#define QRTEXT_METHODS 16
#define QRTEXT_UNITS 3       /* TSC ticks, core cycles, instructions */

enum qrtext_verdict { QRTEXT_UNKNOWN, QRTEXT_ERGODIC, QRTEXT_NOT_ERGODIC };
enum qrtext_smi { QRTEXT_SMI_COUNTED, QRTEXT_SMI_NA, QRTEXT_SMI_UNREAD };

struct qrtext_method {
	const char *name;
	int unit;                        /* own unit: 0 TSC ticks, 1 core cycles */
	uint8_t units;                   /* bit u: offset[u] measured */
	uint64_t offset[QRTEXT_UNITS];   /* [unit u] */
	struct wide total_variance;      /* [unit^2], exact (lib/wide.h) */
	struct wide var_of_vars;         /* [unit^4] */
	struct wide var_of_mins;         /* [unit^2] */
	uint8_t ok;                      /* bits 0, 1, 2: the three figures exist (lib/stats.h) */
	enum qrtext_verdict verdict;
	enum qrtext_smi smi;
	uint64_t smis, nmis;             /* [count] */
};

/* A net figure's flag (bench/results.h results_net_flag). */
enum qrtext_low { QRTEXT_LOW_NONE, QRTEXT_LOW_ZERO, QRTEXT_LOW_RESOLUTION };

struct qrtext_workload {
	const char *name;
	uint8_t units[QRTEXT_METHODS];   /* per method (m lines' order): bit u measured */
	int64_t net[QRTEXT_METHODS][QRTEXT_UNITS]; /* [unit u] */
	uint8_t low[QRTEXT_METHODS][QRTEXT_UNITS]; /* enum qrtext_low of net[][] */
};

/* code= (the code, pc and cf lines). */
struct qrtext_code {
	const char *name;
	uint64_t copies, unroll, loops;
};

struct qrtext_percopy {
	const char *method;
	char unit;                       /* 't', 'c', 'i' */
	const char *kind;                /* lib/percopy.h percopy_kind_key */
	const char *figure, *bound;      /* "2.210"; NULL: '-' */
	int64_t num;                     /* the fraction, when figure is not NULL */
	uint64_t den;
};

/* A pa line: the methods compared in one unit (bench/results.h struct
 * agreement). */
struct qrtext_pair {
	const char *low, *high, *gap;    /* method names; gap "0.840" */
};

struct qrtext_agreement {
	char unit;                       /* 't', 'c', 'i' */
	int agree;
	const char *trusted;             /* NULL: '-' */
	const struct qrtext_pair *pairs;
	int npairs;
};

/* A pe line: code='s figure per copy in a performance event. */
struct qrtext_event {
	const char *method, *name;       /* "rdtscp", "L1D.REPLACEMENT" */
	const char *kind;                /* lib/percopy.h percopy_kind_key */
	const char *figure, *bound;      /* as struct qrtext_percopy's; NULL: '-' */
	int verified;                    /* 0: '!' after the kind */
};

/* A lat line: sweep=latency's levels in one unit (lib/latlevels.h). */
struct qrtext_latlevel {
	const char *name;                /* "L1d", ..., "DRAM" */
	uint64_t cpuid_bytes, edge_bytes; /* 0: '-' */
	const char *per_load;            /* "5.000" */
};

struct qrtext_latency {
	char unit;                       /* 't', 'c' */
	const struct qrtext_latlevel *levels;
	int nlevels;                     /* 0: "none" */
};

struct qrtext_codefault {
	const char *method, *vector;     /* "#UD" */
	const char *part;                /* "code", "init", "loop" */
	uint64_t offset, copy;
};

/* An x line and its xa line: a plan's experiment and its answer. */
struct qrtext_experiment {
	const char *name;
	const char *status;              /* "complete", "faulted", "skipped" */
	const struct qrtext_percopy *answer; /* NULL: no xa line */
};

struct qrtext_run {
	const char *run_id;              /* NULL or "": no run line */
	const char *vendor, *brand, *hypervisor; /* hypervisor NULL: none */
	uint32_t family, model, stepping;
	int has_microcode;
	uint64_t microcode;
	uint64_t tsc_hz;                 /* [Hz], 0: unknown */
	uint32_t tsc_ppm;
	const char *tsc_source;
	uint64_t tsc_step;               /* [TSC ticks]; a tstep line when > 1 */
	int tsc_step_sure;
	uint64_t ensembles, samples, warmup;
	uint64_t max_var_of_vars, max_var_of_mins;
	const struct qrtext_method *methods;
	int nmethods;                    /* 0..QRTEXT_METHODS */
	const char *const *skipped;
	int nskipped;
	const char *const *skip_why;     /* [nskipped] reasons (why lines), or NULL: none */
	const struct qrtext_workload *workloads;
	int nworkloads;
	const struct qrtext_code *code;  /* NULL: no code= */
	const struct qrtext_percopy *per_copy;
	int nper_copy;
	const struct qrtext_agreement *agreements; /* pa lines */
	int nagreements;
	const struct qrtext_event *events; /* pe lines */
	int nevents;
	const struct qrtext_codefault *code_faults;
	int ncode_faults;
	const struct qrtext_latency *latency; /* lat lines */
	int nlatency;
	const struct qrtext_experiment *experiments; /* x lines: a plan's */
	int nexperiments;
	const char *recommended;         /* NULL: none */
	const char *final_line;
};

/* qrtext_body - the body (every line but the parts' headers) of r into
 * buf[0..size-1], NUL-terminated. Returns its length in bytes, or -1 when
 * it does not fit in size - 1 bytes (buf then holds a cut-off body) or r
 * has more than QRTEXT_METHODS methods. */
int qrtext_body(const struct qrtext_run *r, char *buf, size_t size);

/* The cut of a body into parts: part i is body[start[i]..start[i+1]-1]. */
struct qrtext_split {
	int n;                               /* 1..QRTEXT_MAX_PARTS */
	uint32_t crc;                        /* CRC-32 of the whole body */
	size_t start[QRTEXT_MAX_PARTS + 1];
};

/* qrtext_split - cut body[0..len-1] (whole lines) into the fewest parts of
 * at most part_max bytes each, header included (part_max >
 * QRTEXT_HEADER_MAX). Returns 0, or -1 when a line is longer than a part
 * can hold or more than QRTEXT_MAX_PARTS parts are needed. */
int qrtext_split(const char *body, size_t len, size_t part_max, struct qrtext_split *s);

/* qrtext_part - part i (0-based) of a split as the code holds it, header
 * first, into out[0..size-1] (not NUL-terminated: it is binary data to the
 * encoder). Returns its length, or -1 when i is out of range or it does
 * not fit in size. */
int qrtext_part(const char *body, const struct qrtext_split *s, int i, char *out, size_t size);

/* qrtext_capacity - the bytes a QR code of version 1..40 holds in byte
 * mode at error correction level M (ISO/IEC 18004:2015 table 7; checked
 * against the encoder in tests/unit/test_qrtext.c); 0 for another version. */
int qrtext_capacity(int version);

/* qrtext_crc32 - CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320,
 * initial and final XOR 0xFFFFFFFF; zlib's crc32) of p[0..len-1]. */
uint32_t qrtext_crc32(const void *p, size_t len);

#endif

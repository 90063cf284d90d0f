/* lib/record.h - the one writer of the machine-readable records: the
 * lines {"rec":"KIND",...} between the BEGIN/END markers (docs/RECORDS.md
 * "Machine-readable output"). It owns what every record shares:
 *  - the order of the fields: as written, KIND first;
 *  - JSON escaping of every string value (RFC 8259: '"'
 *    and '\\' escaped, control and non-ASCII bytes as \u00XX);
 *  - the CPU tag: while a per-CPU run is measured (bench/percpu.c), every
 *    record carries "cpu":N,"apic_id":N right after its kind;
 *  - the separators, nesting ([ ] and { }) and the closing "}\n".
 * A record is written in pieces to one sink (the console in the kernel, a
 * buffer in the host tests), so a record of any length is written whole:
 * no line buffer cuts it.
 *
 *   struct rec r;
 *   rec_begin(&r, "summary");
 *   rec_str(&r, "method", "cpuid");
 *   rec_u64(&r, "samples", 10000);
 *   rec_end(&r);                     // {"rec":"summary","method":"cpuid","samples":10000}\n
 *
 * A key of NULL writes a bare value: an element of the array opened last.
 * Pure C, no allocation; host-tested in tests/unit/test_record.c. */
#ifndef LIB_RECORD_H
#define LIB_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* Deepest nesting of arrays and objects inside a record. */
#define REC_DEPTH_MAX 8

/* record_sink - receives n bytes of a record (not NUL-terminated). */
typedef void (*record_sink)(const char *s, size_t n);

/* record_set_sink - where records go (kernel/console.c: console_write);
 * before it is set, records are dropped. */
void record_set_sink(record_sink sink);

/* record_set_cpu - from now on every record carries "cpu":cpu and
 * "apic_id":apic_id after its kind (cpu >= 0); cpu < 0 ends it. */
void record_set_cpu(int cpu, uint32_t apic_id);

/* One record being written. */
struct rec {
	int depth;                       /* 0: the record's own object */
	unsigned char more[REC_DEPTH_MAX + 1]; /* a value was written at that level */
};

/* rec_begin - {"rec":"KIND" and the CPU tag. kind: a plain name. */
void rec_begin(struct rec *r, const char *kind);
/* rec_end - closes the record: }\n (arrays and objects opened inside it
 * must be closed first). */
void rec_end(struct rec *r);

/* Values; key NULL: an array element. */
void rec_u64(struct rec *r, const char *key, uint64_t v);
void rec_i64(struct rec *r, const char *key, int64_t v);
void rec_bool(struct rec *r, const char *key, int v);
void rec_null(struct rec *r, const char *key);
/* rec_str - s escaped between quotes; NULL writes null. */
void rec_str(struct rec *r, const char *key, const char *s);
/* rec_strn - the first n bytes of s (fewer at a NUL), escaped. */
void rec_strn(struct rec *r, const char *key, const char *s, size_t n);

/* rec_strn_masked - rec_strn, but the characters secret(s, n, i) counts
 * from each index i (e.g. url_secret_at: a send= token) written as '*',
 * as many as there are. */
void rec_strn_masked(struct rec *r, const char *key, const char *s, size_t n,
		     size_t (*secret)(const char *s, size_t n, size_t i));
/* rec_u64_or_null - v, or null when !have. */
void rec_u64_or_null(struct rec *r, const char *key, int have, uint64_t v);
/* rec_raw - json, a JSON value already written as text (a decimal number
 * such as 1.250, or null), copied as it is. */
void rec_raw(struct rec *r, const char *key, const char *json);

/* Arrays and objects inside the record; key NULL inside an array. Deeper
 * than REC_DEPTH_MAX is written but no longer separated (a bug of the
 * caller; records are flat). */
void rec_array(struct rec *r, const char *key);
void rec_array_end(struct rec *r);
void rec_object(struct rec *r, const char *key);
void rec_object_end(struct rec *r);

#endif

/* lib/record.c - see record.h. */
#include "record.h"
#include "fmt.h"

static record_sink sink;
static int tag_cpu = -1;
static uint32_t tag_apic;

void record_set_sink(record_sink s)
{
	sink = s;
}

void record_set_cpu(int cpu, uint32_t apic_id)
{
	tag_cpu = cpu;
	tag_apic = apic_id;
}

static void put(const char *s, size_t n)
{
	if (sink && n)
		sink(s, n);
}

static void puts_(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	put(s, n);
}

/* s[0..n-1] (up to a NUL) escaped, in chunks. */
static void put_escaped(const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char chunk[64];
	size_t k = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (k + 6 > sizeof chunk) {
			put(chunk, k);
			k = 0;
		}
		if (c == '"' || c == '\\') {
			chunk[k++] = '\\';
			chunk[k++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			chunk[k++] = '\\';
			chunk[k++] = 'u';
			chunk[k++] = '0';
			chunk[k++] = '0';
			chunk[k++] = hex[c >> 4];
			chunk[k++] = hex[c & 15];
		} else {
			chunk[k++] = (char)c;
		}
	}
	put(chunk, k);
}

/* The separator before a value at this level, and its key. */
static void key_of(struct rec *r, const char *key)
{
	int d = r->depth <= REC_DEPTH_MAX ? r->depth : REC_DEPTH_MAX;
	if (r->more[d])
		put(",", 1);
	r->more[d] = 1;
	if (key) {
		put("\"", 1);
		put_escaped(key, (size_t)-1);
		put("\":", 2);
	}
}

void rec_begin(struct rec *r, const char *kind)
{
	r->depth = 0;
	for (int i = 0; i <= REC_DEPTH_MAX; i++)
		r->more[i] = 0;
	put("{\"rec\":\"", 8);
	put_escaped(kind, (size_t)-1);
	put("\"", 1);
	r->more[0] = 1;
	if (tag_cpu >= 0) {
		rec_i64(r, "cpu", tag_cpu);
		rec_u64(r, "apic_id", tag_apic);
	}
}

void rec_end(struct rec *r)
{
	(void)r;
	put("}\n", 2);
}

void rec_u64(struct rec *r, const char *key, uint64_t v)
{
	char b[24];
	key_of(r, key);
	put(b, (size_t)fmt_format(b, sizeof b, "%llu", (unsigned long long)v));
}

void rec_i64(struct rec *r, const char *key, int64_t v)
{
	char b[24];
	key_of(r, key);
	put(b, (size_t)fmt_format(b, sizeof b, "%lld", (long long)v));
}

void rec_bool(struct rec *r, const char *key, int v)
{
	key_of(r, key);
	puts_(v ? "true" : "false");
}

void rec_null(struct rec *r, const char *key)
{
	key_of(r, key);
	put("null", 4);
}

void rec_strn(struct rec *r, const char *key, const char *s, size_t n)
{
	if (!s) {
		rec_null(r, key);
		return;
	}
	key_of(r, key);
	put("\"", 1);
	put_escaped(s, n);
	put("\"", 1);
}

void rec_strn_masked(struct rec *r, const char *key, const char *s, size_t n,
		     size_t (*secret)(const char *s, size_t n, size_t i))
{
	if (!s) {
		rec_null(r, key);
		return;
	}
	static const char stars[] = "****************";
	key_of(r, key);
	put("\"", 1);
	size_t from = 0, i = 0;
	for (; i < n && s[i]; i++) {
		size_t len = secret(s, n, i);
		if (!len)
			continue;
		put_escaped(s + from, i - from);
		for (size_t left = len; left;) {
			size_t k = left < sizeof stars - 1 ? left : sizeof stars - 1;
			put(stars, k);
			left -= k;
		}
		i += len - 1;
		from = i + 1;
	}
	put_escaped(s + from, i - from);
	put("\"", 1);
}

void rec_str(struct rec *r, const char *key, const char *s)
{
	rec_strn(r, key, s, (size_t)-1);
}

void rec_u64_or_null(struct rec *r, const char *key, int have, uint64_t v)
{
	if (have)
		rec_u64(r, key, v);
	else
		rec_null(r, key);
}

void rec_raw(struct rec *r, const char *key, const char *json)
{
	key_of(r, key);
	puts_(json);
}

static void open_(struct rec *r, const char *key, const char *bracket)
{
	key_of(r, key);
	puts_(bracket);
	r->depth++;
	if (r->depth <= REC_DEPTH_MAX)
		r->more[r->depth] = 0;
}

static void close_(struct rec *r, const char *bracket)
{
	puts_(bracket);
	if (r->depth > 0)
		r->depth--;
}

void rec_array(struct rec *r, const char *key)
{
	open_(r, key, "[");
}

void rec_array_end(struct rec *r)
{
	close_(r, "]");
}

void rec_object(struct rec *r, const char *key)
{
	open_(r, key, "{");
}

void rec_object_end(struct rec *r)
{
	close_(r, "}");
}

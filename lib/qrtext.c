/* lib/qrtext.c - see qrtext.h. */
#include "qrtext.h"
#include <stdarg.h>
#include "fmt.h"
#include "crc32.h"

/* Text appended to buf[0..size-1]; bad once something did not fit. */
struct out {
	char *buf;
	size_t size, len;
	int bad;
};

static void put(struct out *o, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *f, ...)
{
	if (o->bad)
		return;
	va_list ap;
	va_start(ap, f);
	int n = fmt_vformat(o->buf + o->len, o->size - o->len, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->bad = 1;
		return;
	}
	o->len += (size_t)n;
}

/* s with bytes outside 0x20..0x7E as '?' and, in a name (name != 0),
 * spaces as '_'; "-" for an empty or absent text. */
static void put_text(struct out *o, const char *s, int name)
{
	if (!s || !*s) {
		put(o, "-");
		return;
	}
	for (; *s && !o->bad; s++) {
		unsigned char c = (unsigned char)*s;
		char ch = c < 0x20 || c > 0x7E ? '?' : name && c == ' ' ? '_' : (char)c;
		put(o, "%c", ch);
	}
}

/* A group "T/C/I" of the units in mask; values are uint64_t (sign 0),
 * int64_t (1) or enum qrtext_low as uint8_t, written 'z' or 'r' (2). */
static void put_group(struct out *o, uint8_t mask, const void *values, int sign)
{
	int last = -1;
	for (int u = 0; u < QRTEXT_UNITS; u++)
		if (mask >> u & 1)
			last = u;
	if (last < 0) {
		put(o, " -");
		return;
	}
	put(o, " ");
	for (int u = 0; u <= last; u++) {
		if (u)
			put(o, "/");
		if (!(mask >> u & 1))
			put(o, "-");
		else if (sign == 2)
			put(o, "%c", ((const uint8_t *)values)[u] == QRTEXT_LOW_ZERO ? 'z' : 'r');
		else if (sign)
			put(o, "%lld", (long long)((const int64_t *)values)[u]);
		else
			put(o, "%llu", (unsigned long long)((const uint64_t *)values)[u]);
	}
}

static void put_figure(struct out *o, int ok, const struct wide *v)
{
	char d[WIDE_DEC_SIZE];
	if (ok)
		put(o, " %s", wide_dec(d, sizeof d, v));
	else
		put(o, " ovf");
}

/* A pc line's fields after its kind word: METHOD U KIND FIG BOUND FRAC. */
static void put_percopy(struct out *o, const struct qrtext_percopy *p)
{
	put_text(o, p->method, 1);
	put(o, " %c ", p->unit);
	put_text(o, p->kind, 1);
	put(o, " ");
	put_text(o, p->figure, 1);
	put(o, " ");
	put_text(o, p->bound, 1);
	if (p->figure)
		put(o, " %lld/%llu\n", (long long)p->num, (unsigned long long)p->den);
	else
		put(o, " -\n");
}

/* The code, pc, pa, pe and cf lines of code= (qrtext.h). */
static void put_code(struct out *o, const struct qrtext_run *r)
{
	if (!r->code)
		return;
	put(o, "code ");
	put_text(o, r->code->name, 1);
	put(o, " %llu %llu %llu\n", (unsigned long long)r->code->copies, (unsigned long long)r->code->unroll,
	    (unsigned long long)r->code->loops);
	for (int i = 0; i < r->nper_copy; i++) {
		put(o, "pc ");
		put_percopy(o, &r->per_copy[i]);
	}
	for (int i = 0; i < r->nagreements; i++) {
		const struct qrtext_agreement *a = &r->agreements[i];
		put(o, "pa %c %s ", a->unit, a->agree ? "yes" : "no");
		put_text(o, a->trusted, 1);
		for (int k = 0; k < a->npairs; k++) {
			put(o, " ");
			put_text(o, a->pairs[k].low, 1);
			put(o, ":");
			put_text(o, a->pairs[k].high, 1);
			put(o, ":");
			put_text(o, a->pairs[k].gap, 1);
		}
		put(o, "\n");
	}
	for (int i = 0; i < r->nevents; i++) {
		const struct qrtext_event *e = &r->events[i];
		put(o, "pe ");
		put_text(o, e->method, 1);
		put(o, " ");
		put_text(o, e->name, 1);
		put(o, " ");
		put_text(o, e->kind, 1);
		put(o, "%s ", e->verified ? "" : "!");
		put_text(o, e->figure, 1);
		put(o, " ");
		put_text(o, e->bound, 1);
		put(o, "\n");
	}
	for (int i = 0; i < r->ncode_faults; i++) {
		const struct qrtext_codefault *f = &r->code_faults[i];
		put(o, "cf ");
		put_text(o, f->method, 1);
		put(o, " ");
		put_text(o, f->vector, 1);
		put(o, " ");
		put_text(o, f->part, 1);
		put(o, " %llu %llu\n", (unsigned long long)f->offset, (unsigned long long)f->copy);
	}
}

int qrtext_body(const struct qrtext_run *r, char *buf, size_t size)
{
	struct out o = { buf, size, 0, 0 };
	if (!size)
		return -1;
	buf[0] = 0;
	if (r->nmethods < 0 || r->nmethods > QRTEXT_METHODS)
		return -1;
	if (r->run_id && r->run_id[0]) {
		put(&o, "run ");
		put_text(&o, r->run_id, 1);
		put(&o, "\n");
	}
	put(&o, "vendor ");
	put_text(&o, r->vendor, 0);
	put(&o, "\ncpu %u %u %u ", r->family, r->model, r->stepping);
	if (r->has_microcode)
		put(&o, "0x%llx", (unsigned long long)r->microcode);
	else
		put(&o, "-");
	put(&o, "\nbrand ");
	put_text(&o, r->brand, 0);
	put(&o, "\nhv ");
	put_text(&o, r->hypervisor ? r->hypervisor : "none", 0);
	put(&o, "\ntsc %llu %u ", (unsigned long long)r->tsc_hz, r->tsc_ppm);
	put_text(&o, r->tsc_source ? r->tsc_source : "none", 1);
	if (r->tsc_step > 1)
		put(&o, "\ntstep %llu %s", (unsigned long long)r->tsc_step, r->tsc_step_sure ? "sure" : "may");
	put(&o, "\nsize %llu %llu %llu\nlimits %llu %llu\n", (unsigned long long)r->ensembles,
	    (unsigned long long)r->samples, (unsigned long long)r->warmup,
	    (unsigned long long)r->max_var_of_vars, (unsigned long long)r->max_var_of_mins);
	for (int i = 0; i < r->nmethods; i++) {
		const struct qrtext_method *m = &r->methods[i];
		put(&o, "m ");
		put_text(&o, m->name, 1);
		put(&o, " %c", m->unit ? 'c' : 't');
		put_group(&o, m->units, m->offset, 0);
		put_figure(&o, m->ok & 1, &m->total_variance);
		put_figure(&o, m->ok & 2, &m->var_of_vars);
		put_figure(&o, m->ok & 4, &m->var_of_mins);
		put(&o, " %s", m->verdict == QRTEXT_ERGODIC ? "ergodic" :
			       m->verdict == QRTEXT_NOT_ERGODIC ? "not-ergodic" : "unknown");
		if (m->smi == QRTEXT_SMI_COUNTED)
			put(&o, " %llu", (unsigned long long)m->smis);
		else
			put(&o, " %s", m->smi == QRTEXT_SMI_NA ? "na" : "unread");
		put(&o, " %llu\n", (unsigned long long)m->nmis);
	}
	if (r->nskipped > 0) {
		put(&o, "skip");
		for (int i = 0; i < r->nskipped; i++) {
			put(&o, " ");
			put_text(&o, r->skipped[i], 1);
		}
		put(&o, "\n");
		for (int i = 0; r->skip_why && i < r->nskipped; i++) {
			put(&o, "why ");
			put_text(&o, r->skipped[i], 1);
			put(&o, " ");
			put_text(&o, r->skip_why[i], 0);
			put(&o, "\n");
		}
	}
	for (int i = 0; i < r->nworkloads; i++) {
		const struct qrtext_workload *w = &r->workloads[i];
		put(&o, "w ");
		put_text(&o, w->name, 1);
		for (int m = 0; m < r->nmethods; m++)
			put_group(&o, w->units[m], w->net[m], 1);
		put(&o, "\n");
		uint8_t low[QRTEXT_METHODS] = { 0 }, any = 0;
		for (int m = 0; m < r->nmethods; m++)
			for (int u = 0; u < QRTEXT_UNITS; u++)
				if (w->units[m] >> u & 1 && w->low[m][u] != QRTEXT_LOW_NONE)
					any |= low[m] |= (uint8_t)(1u << u);
		if (any) {
			put(&o, "low ");
			put_text(&o, w->name, 1);
			for (int m = 0; m < r->nmethods; m++)
				put_group(&o, low[m], w->low[m], 2);
			put(&o, "\n");
		}
	}
	put_code(&o, r);
	for (int i = 0; i < r->nlatency; i++) {
		const struct qrtext_latency *l = &r->latency[i];
		put(&o, "lat %c", l->unit);
		if (!l->nlevels)
			put(&o, " none");
		for (int k = 0; k < l->nlevels; k++) {
			const struct qrtext_latlevel *v = &l->levels[k];
			put(&o, " ");
			put_text(&o, v->name, 1);
			if (v->cpuid_bytes)
				put(&o, ":%llu", (unsigned long long)v->cpuid_bytes);
			else
				put(&o, ":-");
			if (v->edge_bytes)
				put(&o, ":%llu:", (unsigned long long)v->edge_bytes);
			else
				put(&o, ":-:");
			put_text(&o, v->per_load, 1);
		}
		put(&o, "\n");
	}
	for (int i = 0; i < r->nexperiments; i++) {
		const struct qrtext_experiment *x = &r->experiments[i];
		put(&o, "x ");
		put_text(&o, x->name, 1);
		put(&o, " ");
		put_text(&o, x->status, 1);
		put(&o, "\n");
		if (x->answer) {
			put(&o, "xa ");
			put_percopy(&o, x->answer);
		}
	}
	put(&o, "rec ");
	put_text(&o, r->recommended ? r->recommended : "none", 1);
	put(&o, "\nfinal ");
	put_text(&o, r->final_line, 0);
	put(&o, "\n");
	return o.bad ? -1 : (int)o.len;
}

int qrtext_capacity(int version)
{
	static const uint16_t m[40] = {
		14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624,
		666, 711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809,
		1911, 1989, 2099, 2213, 2331,
	};
	return version >= 1 && version <= 40 ? m[version - 1] : 0;
}

uint32_t qrtext_crc32(const void *p, size_t len)
{
	return crc32_update(0, p, len);
}

/* "bench1 P/N CRC\n" into out; its length. */
static int header(char *out, size_t size, int p, int n, uint32_t crc)
{
	return fmt_format(out, size, "bench1 %d/%d %08x\n", p, n, crc);
}

int qrtext_split(const char *body, size_t len, size_t part_max, struct qrtext_split *s)
{
	if (part_max <= QRTEXT_HEADER_MAX)
		return -1;
	size_t room = part_max - QRTEXT_HEADER_MAX, at = 0;
	s->crc = qrtext_crc32(body, len);
	s->n = 0;
	s->start[0] = 0;
	while (at < len) {
		if (s->n == QRTEXT_MAX_PARTS)
			return -1;
		size_t end = at, i = at;
		/* The most whole lines that fit in room. */
		while (i < len) {
			while (i < len && body[i] != '\n')
				i++;
			if (i < len)
				i++;
			if (i - at > room)
				break;
			end = i;
		}
		if (end == at)
			return -1; /* one line longer than a part */
		s->start[++s->n] = end;
		at = end;
	}
	if (!s->n)
		s->start[++s->n] = 0; /* an empty body: one part, its header */
	return 0;
}

int qrtext_part(const char *body, const struct qrtext_split *s, int i, char *out, size_t size)
{
	char h[QRTEXT_HEADER_MAX + 1];
	if (i < 0 || i >= s->n)
		return -1;
	int hn = header(h, sizeof h, i + 1, s->n, s->crc);
	size_t n = s->start[i + 1] - s->start[i];
	if (hn < 0 || (size_t)hn >= sizeof h || (size_t)hn + n > size)
		return -1;
	for (int k = 0; k < hn; k++)
		out[k] = h[k];
	for (size_t k = 0; k < n; k++)
		out[hn + k] = body[s->start[i] + k];
	return hn + (int)n;
}

/* kernel/prefetch.c - see prefetch.h. Which controls a CPU has and what
 * each outcome means is lib/prefetch.c's (host-tested); here the MSRs are
 * read, written and read back with the fault-safe accessors (kernel/trap.h)
 * and each control said in one line and one prefetch record. */
#include "prefetch.h"
#include "config.h"
#include "console.h"
#include "probe.h"
#include "trap.h"
#include "../lib/fmt.h"
#include "../lib/prefetch.h"
#include "../lib/record.h"

/* The vector of a fault-safe accessor's result, 0 when it did not fault. */
static int fault_vector(int rc)
{
	return rc ? (rc & 0xFF) : 0;
}

static void hex_or_null(struct rec *r, const char *key, int have, uint64_t v)
{
	char b[24];
	if (!have) {
		rec_null(r, key);
		return;
	}
	fmt_format(b, sizeof b, "0x%llx", (unsigned long long)v);
	rec_str(r, key, b);
}

static void one_control(const struct prefetch_doc *d, const struct prefetch_control *c, enum prefetch_want want,
			int hypervisor)
{
	struct prefetch_try t = { .want = want, .hypervisor = hypervisor };
	t.read_fault = fault_vector(rdmsr_safe(c->msr, &t.before));
	if (prefetch_should_write(&t)) {
		t.wrote = 1;
		t.written = prefetch_value(c, t.before, want == PREFETCH_ON);
		t.write_fault = fault_vector(wrmsr_safe(c->msr, t.written));
		/* Read back even after a faulting write: the line says what the MSR holds. */
		t.readback_fault = fault_vector(rdmsr_safe(c->msr, &t.read));
	}
	char line[400], why[240];
	kprintf("%s\n", prefetch_line(line, sizeof line, c, &t));
	enum prefetch_state s = prefetch_outcome(c, &t);
	char m[24];
	fmt_format(m, sizeof m, "0x%x", c->msr);
	struct rec r;
	rec_begin(&r, "prefetch");
	rec_str(&r, "control", c->key);
	rec_str(&r, "name", c->name);
	rec_str(&r, "msr", m);
	rec_u64(&r, "bit", c->bit);
	rec_str(&r, "wanted", want == PREFETCH_OFF ? "off" : want == PREFETCH_ON ? "on" : "keep");
	hex_or_null(&r, "before", !t.read_fault, t.before);
	hex_or_null(&r, "written", t.wrote, t.written);
	hex_or_null(&r, "read", t.wrote && !t.readback_fault, t.read);
	rec_str(&r, "state", prefetch_state_word(s));
	rec_str(&r, "why", prefetch_why(why, sizeof why, c, &t));
	rec_str(&r, "source", d->source);
	rec_end(&r);
}

void prefetch_apply(const struct config *cfg, const struct cpu_info *cpu)
{
	enum prefetch_want want = cfg->prefetch == KNOB_OFF ? PREFETCH_OFF
				  : cfg->prefetch == KNOB_ON ? PREFETCH_ON : PREFETCH_KEEP;
	const char *word = config_knob_word(cfg->prefetch);
	struct prefetch_doc d;
	prefetch_lookup(cpu, &d);
	if (!d.n) {
		kprintf("prefetch: prefetch=%s: nothing written: %s\n", word, d.why);
		struct rec r;
		rec_begin(&r, "prefetch");
		rec_null(&r, "control");
		rec_null(&r, "name");
		rec_null(&r, "msr");
		rec_null(&r, "bit");
		rec_str(&r, "wanted", word);
		rec_null(&r, "before");
		rec_null(&r, "written");
		rec_null(&r, "read");
		rec_str(&r, "state", "not_documented");
		rec_str(&r, "why", d.why);
		rec_null(&r, "source");
		rec_end(&r);
		return;
	}
	for (int i = 0; i < d.n; i++)
		one_control(&d, &d.ctl[i], want, cpu->hypervisor);
}

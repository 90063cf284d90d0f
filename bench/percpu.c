/* bench/percpu.c - see percpu.h. */
#include "percpu.h"
#include "run.h"
#include "screen.h"
#include "summary.h"
#include "workload.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/pmu.h"
#include "../kernel/prefetch.h"
#include "../kernel/quiet.h"
#include "../kernel/smp.h"
#include "../lib/cpus.h"
#include "../lib/fmt.h"
#include "../lib/record.h"
#include "../lib/string.h"

/* Per CPU the MADT lists (smp_cpu_count): its description, whether
 * cpus= chose it, and, in the order measured, its number, results and
 * place in the side-by-side table. The boot CPU's own below; more from the
 * pool (tables_for) once smp_start has counted them. */
static struct cpus_desc *desc;
static uint8_t *chosen;
static int ncpus, active;
static int *measured; /* CPU numbers measured, in order */
static const struct bench_results **measured_r;
static int *order;    /* side_by_side: indexes into measured, P-cores first */
static int nmeasured;

static struct cpus_desc desc_alone;
static uint8_t chosen_alone;
static int measured_alone, order_alone;
static const struct bench_results *measured_r_alone;

/* tables_for - the tables above for n CPUs: the static ones for n = 1,
 * else one piece of the pool (kernel/mem.h mem_alloc). Returns 0, or -1
 * after a line saying the bytes it needed. */
static int tables_for(int n)
{
	desc = &desc_alone;
	chosen = &chosen_alone;
	measured = &measured_alone;
	order = &order_alone;
	measured_r = &measured_r_alone;
	if (n <= 1)
		return 0;
	uint64_t each = sizeof *measured_r + sizeof *desc + sizeof *measured + sizeof *order + sizeof *chosen;
	uint8_t *p = mem_alloc((uint64_t)n * each);
	if (!p) {
		kprintf("cpus: no memory for the table of the MADT's %d CPUs (%llu bytes, %llu free): measuring "
			"the boot CPU only\n", n, (unsigned long long)((uint64_t)n * each),
			(unsigned long long)mem_free_bytes());
		return -1;
	}
	measured_r = (const struct bench_results **)p; /* the 8-byte ones first: each keeps its alignment */
	desc = (struct cpus_desc *)(measured_r + n);
	measured = (int *)(desc + n);
	order = measured + n;
	chosen = (uint8_t *)(order + n);
	return 0;
}

int percpu_active(void)
{
	return active;
}

static void read_core_type(void *arg)
{
	*(uint8_t *)arg = cpus_core_type_read(cpuid_into, 0);
}

static const char *type_word(uint8_t t)
{
	return cpus_core_is_p(t) ? "P-core" : cpus_core_is_e(t) ? "E-core" : 0;
}

int percpu_list(const struct cpu_info *boot, const char *value, int *problems)
{
	struct cpus_topo topo;
	struct cpus_topo_cpuid in;
	(void)boot;
	cpus_topo_read(cpuid_into, 0, &in);
	cpus_topo_from_cpuid(&in, &topo);
	ncpus = smp_cpu_count();
	active = 0;
	if (tables_for(ncpus) < 0) { /* a problem only when cpus= asked for more than the boot CPU */
		ncpus = 0;
		if (value && value[0] && !(strlen(value) == 4 && memcmp(value, "boot", 4) == 0))
			(*problems)++;
		return 1;
	}
	int online = 0, hybrid = 0;
	for (int n = 0; n < ncpus; n++) {
		const struct smp_cpu_info *s = smp_cpu(n);
		struct cpus_desc *d = &desc[n];
		d->apic_id = s->apic_id;
		d->online = s->online;
		d->is_boot = s->boot;
		d->core_type = 0;
		if (s->boot)
			d->core_type = cpus_core_type_read(cpuid_into, 0);
		else if (s->online)
			smp_run_on(n, read_core_type, &d->core_type);
		cpus_topo_split(&topo, d->apic_id, &d->pkg, &d->core, &d->thread);
		online += d->online;
		hybrid |= d->core_type != 0;
	}
	kprintf("cpus: %d CPU%s in the MADT, %d online; topology from %s%s%s%s\n", ncpus, ncpus == 1 ? "" : "s",
		online, topo.source, topo.known ? "" : " (every APIC ID its own package)",
		topo.grouping[0] ? "; " : "", topo.grouping);
	for (int n = 0; n < ncpus; n++) {
		const struct cpus_desc *d = &desc[n];
		const struct smp_cpu_info *s = smp_cpu(n);
		char type[64];
		if (d->online)
			fmt_format(type, sizeof type, "%s", cpus_core_type_name(d->core_type));
		else
			fmt_format(type, sizeof type, "core type not read (not started)");
		char unit[32] = "";
		if (topo.has_cu)
			fmt_format(unit, sizeof unit, " compute unit %u", cpus_topo_unit(&topo, d->core));
		kprintf("cpus: CPU %d: APIC ID %u%s, package %u%s core %u thread %u, %s%s%s\n", n, d->apic_id,
			d->is_boot ? " (the boot CPU)" : "", d->pkg, unit, d->core, d->thread, type,
			d->online ? "" : ": not online: ", d->online ? "" : (s->why ? s->why : "not started"));
	}
	struct cpus_sel sel;
	char err[200];
	const char *v = value && value[0] ? value : "boot";
	if (cpus_parse(v, strlen(v), &sel, err, sizeof err) < 0) {
		kprintf("%s; measuring the boot CPU only\n", err);
		(*problems)++;
	}
	if (config_json()) {
		char shown[64];
		fmt_escape(shown, sizeof shown, v, strlen(v));
		struct rec r;
		rec_begin(&r, "cpus");
		rec_i64(&r, "count", ncpus);
		rec_i64(&r, "online", online);
		rec_bool(&r, "hybrid", hybrid);
		rec_str(&r, "topology", topo.source);
		rec_str(&r, "selection", shown);
		rec_array(&r, "list");
		for (int n = 0; n < ncpus; n++) {
			const struct cpus_desc *d = &desc[n];
			rec_object(&r, 0);
			rec_i64(&r, "cpu", n);
			rec_u64(&r, "apic_id", d->apic_id);
			rec_bool(&r, "online", d->online);
			rec_bool(&r, "boot", d->is_boot);
			rec_str(&r, "core_type", type_word(d->core_type));
			rec_u64(&r, "package", d->pkg);
			if (topo.has_cu)
				rec_u64(&r, "compute_unit", cpus_topo_unit(&topo, d->core));
			rec_u64(&r, "core", d->core);
			rec_u64(&r, "thread", d->thread);
			rec_object_end(&r);
		}
		rec_array_end(&r);
		rec_end(&r);
	}

	struct cpus_choice ch;
	cpus_select(&sel, desc, ncpus, chosen, &ch);
	for (int k = 0; k < ch.nmsgs; k++)
		kprintf("%s\n", ch.msg[k]);
	active = sel.mode != CPUS_BOOT;
	if (active) {
		char list[160];
		int k = 0;
		list[0] = 0;
		for (int n = 0; n < ncpus && k < (int)sizeof list - 8; n++)
			if (chosen[n])
				k += fmt_format(list + k, sizeof list - (size_t)k, "%s%d", k ? "," : "", n);
		kprintf("cpus: cpus=%s: measuring %d CPU%s in turn: %s%s\n", cpus_mode_name(sel.mode), ch.count,
			ch.count == 1 ? "" : "s", list, k >= (int)sizeof list - 8 ? ",..." : "");
	}
	return ch.count;
}

struct job {
	const struct config *cfg;
	uint64_t *ticks;
	uint64_t samples;
	struct bench_results *r;
};

/* On the CPU measured: its own CPUID, quieting, LFENCE and PMU, then the run. */
static void run_here(void *arg)
{
	struct job *j = arg;
	static struct cpu_info c; /* one CPU at a time */
	probe_cpu(&c);
	quiet_timers(&c);
	c.lfence_serializing = quiet_cpu_report(&c) > 0;
	pmu_setup(j->cfg->pmu);
	pmu_print(config_json());
	/* The prefetcher MSRs are each core's own: set on this one too (the
	 * boot CPU's were set by bench/main.c). */
	if (smp_this_cpu() != smp_boot_cpu())
		prefetch_apply(j->cfg, &c);
	bench_run(j->cfg, &c, j->ticks, j->samples, j->r);
	summary_tables(j->r);
}

/* The side-by-side table: each workload's net least minimum, in TSC ticks,
 * by the first CPU's net method, on each CPU measured, P-cores first. */
static void side_by_side(void)
{
	int k = 0;
	for (int t = 0; t < 3; t++)
		for (int i = 0; i < nmeasured; i++) {
			uint8_t ct = desc[measured[i]].core_type;
			int kind = cpus_core_is_p(ct) ? 0 : cpus_core_is_e(ct) ? 1 : 2;
			if (kind == t)
				order[k++] = i;
		}
	int by = results_net_by(measured_r[0]);
	if (by < 0) {
		kprintf("cpus: side by side: no method ran on CPU %d: nothing to compare\n", measured[0]);
		return;
	}
	char line[160];
	int n = fmt_format(line, sizeof line, "%-22s", "workload");
	for (int i = 0; i < k && n < 150; i++) {
		const char *t = type_word(desc[measured[order[i]]].core_type);
		char head[24];
		fmt_format(head, sizeof head, "CPU %d%s%s", measured[order[i]], t ? " " : "", t ? t : "");
		n += fmt_format(line + n, sizeof line - (size_t)n, " %12s", head);
	}
	kprintf("cpus: side by side: net least minimum (min of mins - offset) by method %s, in TSC ticks, "
		"on each CPU measured\n", methods[by].name);
	kprintf("  %s\n", line);
	for (int i = 0; i <= RESULTS_CODE_ROW; i++) {
		if (i < RESULTS_CODE_ROW && i >= workload_count())
			continue;
		if (!results_has_net(measured_r[0], by, i))
			continue;
		const char *name = summary_row_name(measured_r[0], i);
		n = fmt_format(line, sizeof line, "%-22.22s", name ? name : "code");
		for (int c = 0; c < k && n < 150; c++) {
			const struct bench_results *r = measured_r[order[c]];
			char v[24] = "-";
			if ((r->net_units[by][i] >> UNIT_TSC) & 1)
				fmt_fit_i64(v, sizeof v, r->net_in[by][i][UNIT_TSC], 12);
			n += fmt_format(line + n, sizeof line - (size_t)n, " %12s", v);
		}
		kprintf("  %s\n", line);
		if (!config_json())
			continue;
		struct rec rc;
		rec_begin(&rc, "cpu_compare");
		rec_str(&rc, "method", methods[by].name);
		rec_str(&rc, "workload", name ? name : "code");
		rec_str(&rc, "unit", "tsc_ticks");
		rec_array(&rc, "cpus");
		for (int c = 0; c < k; c++)
			rec_i64(&rc, 0, measured[order[c]]);
		rec_array_end(&rc);
		rec_array(&rc, "net");
		for (int c = 0; c < k; c++) {
			const struct bench_results *r = measured_r[order[c]];
			if ((r->net_units[by][i] >> UNIT_TSC) & 1)
				rec_i64(&rc, 0, r->net_in[by][i][UNIT_TSC]);
			else
				rec_null(&rc, 0);
		}
		rec_array_end(&rc);
		rec_end(&rc);
	}
}

int percpu_run(const struct config *cfg, uint64_t *ticks, uint64_t samples, struct bench_results *results,
	       struct run_totals *sum)
{
	int k = 0;
	nmeasured = 0;
	for (int n = 0; n < ncpus; n++) {
		if (!chosen[n])
			continue;
		const struct cpus_desc *d = &desc[n];
		const char *t = type_word(d->core_type);
		kprintf("cpus: measuring on CPU %d (APIC ID %u%s, %s, package %u core %u thread %u)\n", n, d->apic_id,
			d->is_boot ? ", the boot CPU" : "", cpus_core_type_name(d->core_type), d->pkg, d->core,
			d->thread);
		if (config_json()) {
			struct rec r;
			rec_begin(&r, "cpu_run");
			rec_i64(&r, "cpu", n);
			rec_u64(&r, "apic_id", d->apic_id);
			rec_str(&r, "core_type", t);
			rec_u64(&r, "package", d->pkg);
			rec_u64(&r, "core", d->core);
			rec_u64(&r, "thread", d->thread);
			rec_end(&r);
		}
		record_set_cpu(n, d->apic_id);
		struct job j = { .cfg = cfg, .ticks = ticks, .samples = samples, .r = &results[k] };
		int err = smp_run_on(n, run_here, &j);
		record_set_cpu(-1, 0);
		if (err) {
			kprintf("cpus: CPU %d (APIC ID %u) is not online: not measured\n", n, d->apic_id);
			continue;
		}
		const struct run_totals *t1 = &results[k].totals;
		sum->methods_run += t1->methods_run;
		sum->methods_skipped += t1->methods_skipped;
		sum->ensemble_errors += t1->ensemble_errors;
		measured[nmeasured] = n;
		measured_r[nmeasured++] = &results[k];
		k++;
	}
	if (nmeasured)
		side_by_side();
	return nmeasured;
}

void percpu_screen(struct screen_cpus *out)
{
	int n = nmeasured < SCREEN_CPUS_MAX ? nmeasured : SCREEN_CPUS_MAX;
	out->active = percpu_active();
	out->n = n;
	for (int i = 0; i < n; i++) {
		out->r[i] = measured_r[i];
		out->number[i] = measured[i];
		out->type[i] = desc[measured[i]].core_type;
	}
}

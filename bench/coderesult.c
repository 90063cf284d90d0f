/* bench/coderesult.c - see coderesult.h. */
#include "coderesult.h"
#include "code.h"
#include "results.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../lib/fmt.h"
#include "../lib/record.h"

void code_print_config(void)
{
	struct code_sizes k;
	code_sizes(&k);
	const struct config *cfg = k.cfg;
	uint64_t code_len = k.code_len, init_len = k.init_len;
	char loop[48] = "";
	if (!k.configured)
		return;
	if (cfg->loops)
		fmt_format(loop, sizeof loop, " in a loop of %llu iterations (R15)", (unsigned long long)cfg->loops);
	kprintf("code: workload %s: %llu bytes of code= x unroll=%llu%s, init= %llu bytes; generated loops of "
		"%llu, %llu and %llu bytes (empty, N, 2N)\n", cfg->code_name, (unsigned long long)code_len,
		(unsigned long long)cfg->unroll, loop,
		(unsigned long long)init_len, (unsigned long long)k.loop_bytes[0], (unsigned long long)k.loop_bytes[1],
		(unsigned long long)k.loop_bytes[2]);
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "code");
		rec_str(&r, "workload", cfg->code_name);
		rec_str(&r, "code", cfg->code);
		rec_str(&r, "init", cfg->init);
		rec_u64(&r, "code_bytes", code_len);
		rec_u64(&r, "init_bytes", init_len);
		rec_u64(&r, "unroll", cfg->unroll);
		rec_u64(&r, "loops", cfg->loops);
		rec_end(&r);
	}
}

void code_report_offset(enum method_id m, const struct workload *w, const char *unit_key,
			const char *unit_name, uint64_t least, uint64_t offset, uint64_t n)
{
	if (config_human())
		kprintf("code %s: generated empty window: least minimum %llu %s over %llu samples; compiled "
			"offset %llu %s: %s\n", methods[m].name, (unsigned long long)least, unit_name,
			(unsigned long long)n, (unsigned long long)offset, unit_name,
			least == offset ? "equal" : "they differ: the nets below subtract the compiled offset");
	if (config_json()) {
		struct rec r;
		rec_begin(&r, "code_offset");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_str(&r, "unit", unit_key);
		rec_u64(&r, "generated_min", least);
		rec_u64(&r, "offset", offset);
		rec_u64(&r, "samples", n);
		rec_end(&r);
	}
}

void code_report_per_copy(enum method_id m, const struct workload *w, const char *unit_key,
			  const char *unit_name, uint64_t copies, uint64_t least_n, uint64_t least_2n)
{
	int neg = least_2n < least_n;
	uint64_t num = neg ? least_n - least_2n : least_2n - least_n, den = copies ? copies : 1;
	uint64_t g = results_gcd(num, den);
	uint64_t rn = g ? num / g : 0, rd = g ? den / g : 1;
	/* num / den to three places, rounded half away from zero; num < 2^63. */
	uint64_t milli = num / den * 1000 + ((num % den) * 1000 + den / 2) / den;
	char frac[48];
	if (rd == 1)
		fmt_format(frac, sizeof frac, "%s%llu", neg ? "-" : "", (unsigned long long)rn);
	else
		fmt_format(frac, sizeof frac, "%s%llu/%llu", neg ? "-" : "", (unsigned long long)rn,
			   (unsigned long long)rd);
	if (config_human())
		kprintf("per_copy %s/%s: %s%llu.%03llu %s per copy, exactly %s (least minimum with %llu copies executed %llu - "
			"with %llu copies %llu, over %llu copies executed)\n", methods[m].name, w->name, neg ? "-" : "",
			(unsigned long long)(milli / 1000), (unsigned long long)(milli % 1000), unit_name, frac,
			(unsigned long long)(2 * copies), (unsigned long long)least_2n, (unsigned long long)copies,
			(unsigned long long)least_n, (unsigned long long)copies);
	if (config_json()) {
		char per[32];
		struct rec r;
		rec_begin(&r, "per_copy");
		rec_str(&r, "method", methods[m].name);
		rec_str(&r, "workload", w->name);
		rec_str(&r, "unit", unit_key);
		rec_u64(&r, "copies", copies);
		rec_u64(&r, "least_min_n", least_n);
		rec_u64(&r, "least_min_2n", least_2n);
		rec_i64(&r, "num", neg ? -(int64_t)rn : (int64_t)rn);
		rec_u64(&r, "den", rd);
		fmt_format(per, sizeof per, "%s%llu.%03llu", neg ? "-" : "", (unsigned long long)(milli / 1000),
			   (unsigned long long)(milli % 1000));
		rec_str(&r, "per_copy", per);
		rec_end(&r);
	}
}

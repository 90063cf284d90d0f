/* bench/finish.c - see finish.h. */
#include "finish.h"
#include "code.h"
#include "progress.h"
#include "report.h"
#include "screen.h"
#include "../kernel/config.h"
#include "../kernel/console.h"
#include "../kernel/cpu.h"
#include "../kernel/efi.h"
#include "../kernel/efinet.h"
#include "../kernel/exit.h"
#include "../kernel/mem.h"
#include "../kernel/qr.h"
#include "../kernel/runid.h"
#include "../kernel/trap.h"
#include "../lib/fmt.h"
#include "../lib/record.h"

void finish_end_record(const struct config *cfg, const char *status, const struct run_totals *t, int cpus,
		       const struct plan_tally *pt)
{
	struct rec r;
	rec_begin(&r, "end");
	rec_str(&r, "status", status);
	if (t) {
		rec_i64(&r, "methods_run", t->methods_run);
		rec_i64(&r, "methods_skipped", t->methods_skipped);
		rec_u64(&r, "ensemble_errors", t->ensemble_errors);
		rec_i64(&r, "config_problems", cfg->problems);
		rec_u64(&r, "nmis", trap_nmi_count());
		if (pt || code_configured())
			rec_u64(&r, "code_faults", t->code_faults);
		if (cpus >= 0)
			rec_i64(&r, "cpus_measured", cpus);
		if (pt) {
			rec_i64(&r, "experiments_run", pt->run);
			rec_i64(&r, "experiments_faulted", pt->faulted);
			rec_i64(&r, "experiments_skipped", pt->skipped);
		}
	}
	rec_end(&r);
	kprintf("%s\n", RECORDS_END);
}

void finish_stop_for_problems(const struct config *cfg)
{
	config_print();
	finish_end_record(cfg, "config_problems", 0, 0, 0);
	config_screen_problems();
	kprintf("bench: run aborted: %d command-line problem%s, said above (problems=ignore measures anyway) "
		"(exit code 0x%x)\n", cfg->problems, cfg->problems == 1 ? "" : "s", EXIT_FAILURE_CODE);
	bench_exit(EXIT_FAILURE_CODE);
	halt_forever();
}

void finish_run(const struct config *cfg, const struct cpu_info *cpu, const struct experiment_result *x,
		const struct run_totals *t, int per, const struct plan_tally *pt)
{
	int measured = x->measured;
	mem_test_report();
	char on_cpus[40] = "";
	if (per)
		fmt_format(on_cpus, sizeof on_cpus, ", on %d CPU%s", measured, measured == 1 ? "" : "s");
	finish_end_record(cfg, "complete", t, per ? measured : -1, pt);
	/* Faults in the user's code are results (bench/coderesult.h), not the
	 * run's failure: the exit code stays, `make run` reads this line. */
	char faults[64] = "";
	if (t->code_faults)
		fmt_format(faults, sizeof faults, ", your code FAULTED under %llu method%s",
			   (unsigned long long)t->code_faults, t->code_faults == 1 ? "" : "s");
	char plan[160] = "";
	if (pt)
		fmt_format(plan, sizeof plan, "; plan %s: %d experiment%s run, %d faulted, %d skipped", pt->file,
			   pt->run, pt->run == 1 ? "" : "s", pt->faulted, pt->skipped);
	char final_line[400];
	fmt_format(final_line, sizeof final_line,
		   "bench: run complete: %d method%s run, %d skipped, %llu ensemble errors, "
		   "%d command-line problem%s%s%s%s (exit code 0x%x)",
		   t->methods_run, t->methods_run == 1 ? "" : "s", t->methods_skipped,
		   (unsigned long long)t->ensemble_errors, cfg->problems, cfg->problems == 1 ? "" : "s",
		   faults, on_cpus, plan, EXIT_SUCCESS_CODE);
	progress_end();
	efi_save_before_final((int)cfg->save);
	efinet_send_before_final(cfg);
	console_log_line();
	kprintf("%s\n", final_line);
	uint64_t log_bytes = console_log()->kept; /* what is sent: the log up to the final line */
	exit_set_stage(EXIT_STAGE_REPORTED);
	bench_screen_summary(cfg, cpu, x->results, x->cpus, final_line);
	efi_save_log((int)cfg->save, runid_text(), cfg->test_efi_watchdog); /* under UEFI: the log to the boot device */
	efinet_send(cfg, log_bytes); /* send=: the log to the collector */
	exit_begin(EXIT_SUCCESS_CODE);
	qr_hold(); /* the summary and the QR code pages in turn, when there are pages */
	halt_forever();
}

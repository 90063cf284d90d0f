/* bench/coderesult.h - what the run says of the user's own code (code=,
 * bench/code.h): its configuration lines, the generated empty window
 * against the compiled offset, and the 2N-N figure per copy. Printing
 * only; the loops, templates and faults are bench/code.c's. */
#ifndef BENCH_CODERESULT_H
#define BENCH_CODERESULT_H

#include <stdint.h>
#include "methods.h"
#include "workload.h"

/* code_report_offset - the line and record comparing the generated empty
 * window's least minimum (least, in the method's own unit, over n samples)
 * with the compiled loops' offset: equal where the sequences are the same
 * bytes, as they are (exactly so under QEMU -icount). */
void code_report_offset(enum method_id m, const struct workload *w, const char *unit_key,
			const char *unit_name, uint64_t least, uint64_t offset, uint64_t n);

/* code_report_per_copy - the 2N-N figure (nanoBench's): (least_2n -
 * least_n) / copies in unit, as an exact reduced fraction and a decimal
 * with three places (rounded half away from zero); a line and a record
 * {"rec":"per_copy"}. copies: those the N window executes. Negative when noise made the 2N minimum the smaller. */
void code_report_per_copy(enum method_id m, const struct workload *w, const char *unit_key,
			  const char *unit_name, uint64_t copies, uint64_t least_n, uint64_t least_2n);

/* code_print_config - the "code:" lines of the configuration: the bytes,
 * their size, unroll, loops and the generated loop's size. */
void code_print_config(void);

#endif

/* bench/evscreen.h - code='s per-copy figures in the performance events of
 * events= (issue 30) where the run's end is read: the end screen's `your
 * code` section (one line, wrapped) and the QR text's pe lines
 * (lib/qrtext.h), from bench/evrun.h evrun_per_copy, by the recommended
 * method (else the first TSC method with figures). Each figure names its
 * event as its unit; one whose pass's check missed is marked UNVERIFIED
 * (the QR text: '!' after its kind). Without events= (or where nothing
 * counts) nothing: the screen and the QR text are as before. */
#ifndef BENCH_EVSCREEN_H
#define BENCH_EVSCREEN_H

#include <stddef.h>
#include "results.h"
#include "../lib/qrtext.h"

/* evscreen_by - the method whose event figures the screen and the QR text
 * carry: the recommended one when it has any, else the first that has;
 * -1: none has (no events=, nothing counts here, or no code=). */
int evscreen_by(const struct bench_results *r);

/* evscreen_line - the screen's line into line[0..size-1]: "events per
 * copy, by rdtscp: L1D.REPLACEMENT 1.000 exactly; BR_MISP_RETIRED.ALL_BRANCHES
 * 0.000 exactly UNVERIFIED; ..." (bench/coderesult.h code_per_copy_text's
 * words), the events that do not fit named by count. Returns 0 when there
 * is no such line (evscreen_by -1). */
int evscreen_line(const struct bench_results *r, char *line, size_t size);

/* evscreen_qr - fill out[0..max-1] with the pe lines (their texts in
 * text[i][0..1], 24 bytes each); returns how many. */
int evscreen_qr(const struct bench_results *r, struct qrtext_event *out, char (*text)[2][24], int max);

#endif

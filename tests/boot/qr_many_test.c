/* tests/boot/qr_many_test.c - linked only into a test build (EXTRA_SRC;
 * tests/boot/t_qr.py): 40 workloads of one NOP with long names, so that the
 * QR code's text of a run (lib/qrtext.h: a line of about 55 bytes per
 * workload) is longer than one version 40-M code holds (2331 bytes) and
 * the screen shows it as two codes in turn. */
#include "../../bench/workload.h"

#define NOP(name)                                                                               \
	BENCH_INLINE void name##_setup(struct wl_ctx *c) { (void)c; }                            \
	BENCH_INLINE void name##_body(struct wl_ctx *c) { (void)c; __asm__ volatile("nop"); }    \
	BENCH_WORKLOAD(name, "one NOP (a QR code test's filler)", 0)

NOP(qr_test_workload_with_a_long_name_number_00)
NOP(qr_test_workload_with_a_long_name_number_01)
NOP(qr_test_workload_with_a_long_name_number_02)
NOP(qr_test_workload_with_a_long_name_number_03)
NOP(qr_test_workload_with_a_long_name_number_04)
NOP(qr_test_workload_with_a_long_name_number_05)
NOP(qr_test_workload_with_a_long_name_number_06)
NOP(qr_test_workload_with_a_long_name_number_07)
NOP(qr_test_workload_with_a_long_name_number_08)
NOP(qr_test_workload_with_a_long_name_number_09)
NOP(qr_test_workload_with_a_long_name_number_10)
NOP(qr_test_workload_with_a_long_name_number_11)
NOP(qr_test_workload_with_a_long_name_number_12)
NOP(qr_test_workload_with_a_long_name_number_13)
NOP(qr_test_workload_with_a_long_name_number_14)
NOP(qr_test_workload_with_a_long_name_number_15)
NOP(qr_test_workload_with_a_long_name_number_16)
NOP(qr_test_workload_with_a_long_name_number_17)
NOP(qr_test_workload_with_a_long_name_number_18)
NOP(qr_test_workload_with_a_long_name_number_19)
NOP(qr_test_workload_with_a_long_name_number_20)
NOP(qr_test_workload_with_a_long_name_number_21)
NOP(qr_test_workload_with_a_long_name_number_22)
NOP(qr_test_workload_with_a_long_name_number_23)
NOP(qr_test_workload_with_a_long_name_number_24)
NOP(qr_test_workload_with_a_long_name_number_25)
NOP(qr_test_workload_with_a_long_name_number_26)
NOP(qr_test_workload_with_a_long_name_number_27)
NOP(qr_test_workload_with_a_long_name_number_28)
NOP(qr_test_workload_with_a_long_name_number_29)
NOP(qr_test_workload_with_a_long_name_number_30)
NOP(qr_test_workload_with_a_long_name_number_31)
NOP(qr_test_workload_with_a_long_name_number_32)
NOP(qr_test_workload_with_a_long_name_number_33)
NOP(qr_test_workload_with_a_long_name_number_34)
NOP(qr_test_workload_with_a_long_name_number_35)
NOP(qr_test_workload_with_a_long_name_number_36)
NOP(qr_test_workload_with_a_long_name_number_37)
NOP(qr_test_workload_with_a_long_name_number_38)
NOP(qr_test_workload_with_a_long_name_number_39)

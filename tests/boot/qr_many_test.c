/* tests/boot/qr_many_test.c - linked only into a test build (EXTRA_SRC;
 * tests/boot/t_qr.py): 40 workloads of one NOP with long names, so that the
 * QR code's text of a run (lib/qrtext.h: a line of about 60 bytes per
 * workload) is longer than one version 40-M code holds (2331 bytes) and
 * the screen shows it as two codes in turn. */
#include "../../bench/workload.h"

#define NOP(name)                                       \
	BENCH_INLINE void name##_setup(struct wl_ctx *c) \
	{                                               \
		(void)c;                                \
	}                                               \
	BENCH_INLINE void name##_body(struct wl_ctx *c)  \
	{                                               \
		(void)c;                                \
		__asm__ volatile("nop");                \
	}                                               \
	BENCH_WORKLOAD(name, "one NOP (a QR code test's filler)", 0)

NOP(qr_test_workload_with_a_long_name_to_fill_the_code_00)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_01)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_02)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_03)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_04)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_05)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_06)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_07)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_08)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_09)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_10)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_11)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_12)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_13)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_14)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_15)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_16)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_17)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_18)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_19)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_20)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_21)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_22)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_23)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_24)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_25)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_26)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_27)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_28)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_29)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_30)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_31)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_32)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_33)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_34)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_35)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_36)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_37)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_38)
NOP(qr_test_workload_with_a_long_name_to_fill_the_code_39)

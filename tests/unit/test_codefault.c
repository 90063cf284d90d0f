/* tests/unit/test_codefault.c - lib/codefault.c: the parts of a generated
 * loop by its layout, the halting instruction an NMI ended (the saved RIP
 * after it), and the copy whose relative jump lands at a byte, as
 * bench/code.c reports a fault of code= (issue 29 item 10: code=eb60, a jump
 * into the loop's epilogue; code=f4, HLT stopped by the watchdog). */
#include "check.h"
#include "../../lib/codefault.h"

static void test_parts(void)
{
	struct codegen_layout l = { .top = 10, .init = 20, .init_end = 25, .window = 30, .code = 30, .code_end = 40,
				    .window_end = 49, .stop_end = 60, .exit = 100, .restored = 130, .len = 150 };
	static const struct {
		uint64_t off;
		enum codefault_part p;
	} cases[] = { { 0, CF_PROLOGUE }, { 9, CF_PROLOGUE }, { 10, CF_SETUP }, { 20, CF_INIT }, { 24, CF_INIT },
		      { 25, CF_START }, { 29, CF_START }, { 30, CF_CODE }, { 39, CF_CODE }, { 40, CF_LOOP_TAIL },
		      { 49, CF_STOP }, { 59, CF_STOP }, { 60, CF_STORE }, { 99, CF_STORE }, { 100, CF_EPILOGUE },
		      { 149, CF_EPILOGUE }, { 150, CF_OUTSIDE }, { ~0ull, CF_OUTSIDE } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		CHECK(codefault_part(&l, cases[k].off) == cases[k].p, "byte %llu of the loop is in %s, not %s",
		      (unsigned long long)cases[k].off, codefault_part_key(cases[k].p),
		      codefault_part_key(codefault_part(&l, cases[k].off)));
	CHECK_EQ_U64(codefault_part_start(&l, CF_EPILOGUE), 100, "the epilogue begins at exit");
	CHECK_EQ_U64(codefault_part_start(&l, CF_STORE), 60, "the store begins at stop_end");
	CHECK_EQ_U64(codefault_part_start(&l, CF_SETUP), 10, "the setup begins at top");
	CHECK_EQ_U64(codefault_part_start(&l, CF_OUTSIDE), 0, "outside: 0");
	l.init_end = l.init; /* no init=, no loops=: init, start and the tail may be empty */
	CHECK(codefault_part(&l, 20) == CF_START, "an empty init=: byte 20 is the start sequence's");
	CHECK_STR(codefault_part_key(CF_EPILOGUE), "epilogue", "the record's key of the epilogue");
	CHECK_STR(codefault_part_text(CF_PROLOGUE), "the loop's prologue", "the prologue's words");
	CHECK_STR(codefault_part_key(CF_PARTS), "?", "a part out of range");
	CHECK(codefault_reached_by_jump(CF_EPILOGUE) && codefault_reached_by_jump(CF_PROLOGUE) &&
	      !codefault_reached_by_jump(CF_STOP) && !codefault_reached_by_jump(CF_CODE),
	      "the epilogue and prologue are reached only by a jump; the stop sequence on the way");
}

static void test_halt(void)
{
	/* nop; hlt | nop; mwait | mwaitx; nop */
	static const uint8_t b[] = { 0x90, 0xF4, 0x90, 0x0F, 0x01, 0xC9, 0x0F, 0x01, 0xFB, 0x90 };
	const uint8_t *lo = b, *hi = b + sizeof b;
	unsigned back = 9;
	CHECK_STR(codefault_halt(lo, b + 2, hi, &back), "HLT", "RIP after F4: the HLT an NMI ended");
	CHECK_EQ_U64(back, 1, "HLT: one byte back");
	CHECK_STR(codefault_halt(lo, b + 6, hi, &back), "MWAIT", "RIP after 0F 01 C9: MWAIT");
	CHECK_EQ_U64(back, 3, "MWAIT: three bytes back");
	CHECK_STR(codefault_halt(lo, b + 9, hi, &back), "MWAITX", "RIP after 0F 01 FB: MWAITX");
	CHECK_EQ_U64(back, 3, "MWAITX: three bytes back");
	CHECK_STR(codefault_halt(lo, b + 1, hi, &back), "HLT", "RIP at F4 (the NMI before it ran): HLT");
	CHECK_EQ_U64(back, 0, "at the HLT: no step back");
	CHECK(codefault_halt(lo, b + 0, hi, &back) == 0 && back == 0, "RIP at a NOP after nothing: none");
	CHECK(codefault_halt(b + 2, b + 2, hi, &back) == 0, "the F4 before lo is not read");
	CHECK(codefault_halt(lo, b + 5, b + 5, &back) == 0, "0F 01 at hi's edge: not a whole MWAIT");
	CHECK(codefault_halt(lo, hi + 1, hi, &back) == 0, "p past hi: none");
}

static void test_jump_to(void)
{
	struct codefault_jump j;
	static const uint8_t eb60[] = { 0xEB, 0x60 };
	/* code=eb60, 2 copies from byte 100: copy 1 lands at 100 + 2 + 0x60 = 198, copy 2 at 200. */
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 198, 198, &j), 1, "eb60: one jump lands at 198");
	CHECK(j.copy == 1 && j.byte == 0 && j.landing == 198, "eb60: from byte 0 of copy 1 (copy %llu, byte %llu)",
	      (unsigned long long)j.copy, (unsigned long long)j.byte);
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 200, 200, &j), 1, "eb60: one jump lands at 200");
	CHECK_EQ_U64(j.copy, 2, "eb60: 200 is copy 2's landing");
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 202, 202, &j), 0, "eb60: no third copy lands at 202");
	CHECK(j.copy == 0 && j.byte == 0 && j.landing == 0, "none: all 0");
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 199, 199, &j), 0, "eb60: nothing lands at 199");
	/* The fault came later than the landing: the landings from 190 to 210. */
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 190, 210, &j), 2, "eb60: both copies land in 190..210");
	CHECK(j.copy == 2 && j.landing == 200, "the nearest below 210: copy 2's, at 200 (copy %llu at %llu)",
	      (unsigned long long)j.copy, (unsigned long long)j.landing);
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 190, 199, &j), 1, "eb60: copy 1 lands in 190..199");
	CHECK(j.copy == 1 && j.landing == 198, "copy 1's landing at 198");
	CHECK_EQ_U64(codefault_jump_to(eb60, 2, 2, 100, 199, 199, &j), 0, "199..199: none");
	/* nop; jmp rel32 -0x80 (E9 80 FF FF FF): backward, into the prologue. */
	static const uint8_t back[] = { 0x90, 0xE9, 0x80, 0xFF, 0xFF, 0xFF };
	CHECK_EQ_U64(codefault_jump_to(back, 6, 3, 200, 84, 84, &j), 1, "E9 rel32 backward from copy 2 lands at 200 + 6 + 6 - 128 = 84");
	CHECK(j.copy == 2 && j.byte == 1, "E9 at byte 1 of copy 2 (copy %llu, byte %llu)", (unsigned long long)j.copy,
	      (unsigned long long)j.byte);
	CHECK_EQ_U64(codefault_jump_to(back, 6, 3, 200, 0, 2, &j), 0, "0..2, before copy 1 lands at 78: none");
	/* jnz rel32 (0F 85) and a call rel32 (E8) in one code, landing at one byte. */
	static const uint8_t two[] = { 0x0F, 0x85, 0x10, 0, 0, 0, 0xE8, 0x0B, 0, 0, 0 };
	CHECK_EQ_U64(codefault_jump_to(two, 11, 1, 0, 22, 22, &j), 2,
		     "jnz +0x10 from byte 0 and call +0x0B from byte 6 both land at 22");
	CHECK(j.copy == 1 && j.byte == 0, "the first of two: byte 0 (byte %llu)", (unsigned long long)j.byte);
	/* A jump cut by the copy's end is not read. */
	static const uint8_t cut[] = { 0x90, 0xE9, 0x10 };
	CHECK_EQ_U64(codefault_jump_to(cut, 3, 4, 0, 0, 100, &j), 0, "E9 cut by the end: not a jump");
	/* loop $ (E2 FE) lands on itself */
	static const uint8_t lp[] = { 0xE2, 0xFE };
	CHECK_EQ_U64(codefault_jump_to(lp, 2, 5, 40, 46, 46, &j), 1, "LOOP $: copy 4 lands on itself");
	CHECK_EQ_U64(j.copy, 4, "LOOP $ at byte 46: copy 4");
	CHECK_EQ_U64(codefault_jump_to(lp, 2, 0, 40, 0, 100, &j), 0, "no copies: none");
}

int main(void)
{
	test_parts();
	test_halt();
	test_jump_to();
	return check_summary("codefault");
}

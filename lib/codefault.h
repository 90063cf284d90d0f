/* lib/codefault.h - where in a generated loop (lib/codegen.h) a fault or a
 * watchdog stop of the user's code lies, from the loop's layout and the
 * code's bytes alone: the part of the loop an offset is in, the halting
 * instruction (HLT, MWAIT, MWAITX) an NMI ended, and the copy whose
 * relative jump lands at an offset. bench/code.c reports with these what
 * the code's bytes reached (README "Measuring your own code"). Pure
 * computation on bytes, host-tested (tests/unit/test_codefault.c).
 */
#ifndef LIB_CODEFAULT_H
#define LIB_CODEFAULT_H

#include <stddef.h>
#include <stdint.h>
#include "codegen.h"

/* The parts of a generated loop, in the order of its bytes (lib/codegen.c
 * emit), and the two places outside it. */
enum codefault_part {
	CF_PROLOGUE,  /* [0, top): the caller's state saved, the scratch zeroed */
	CF_SETUP,     /* [top, init): a sample's registers of the contract */
	CF_INIT,      /* [init, init_end): init= */
	CF_START,     /* [init_end, window): mov r15, loops, the call of the hook
		       * (cache=, lib/codegen.h), the method's start sequence */
	CF_CODE,      /* [code, code_end): the copies of code= */
	CF_LOOP_TAIL, /* [code_end, window_end): dec r15; jnz (loops=) */
	CF_STOP,      /* [window_end, stop_end): the method's stop sequence */
	CF_STORE,     /* [stop_end, exit): the sample stored, i counted, jb back */
	CF_EPILOGUE,  /* [exit, len): the caller's state restored, ret */
	CF_PAGE0,     /* outside the loop, in page 0 (a jump or return to 0) */
	CF_OUTSIDE,   /* outside the loop elsewhere */
	CF_PARTS
};

/* codefault_part - the part of the loop laid out as *l holding byte
 * offset off (CF_OUTSIDE at or after l->len). */
enum codefault_part codefault_part(const struct codegen_layout *l, uint64_t off);

/* codefault_part_start - the loop's byte where part p begins (0 for the
 * prologue and for the places outside the loop). */
uint64_t codefault_part_start(const struct codegen_layout *l, enum codefault_part p);

/* codefault_part_key - the record's name of p ("prologue", "setup",
 * "init", "start", "code", "loop_tail", "stop", "store", "epilogue",
 * "page0", "outside"); codefault_part_text - its words ("the loop's
 * prologue", "init=", "the method's stop sequence", ...). "?" out of range. */
const char *codefault_part_key(enum codefault_part p);
const char *codefault_part_text(enum codefault_part p);

/* codefault_reached_by_jump - 1 for the parts that the code's bytes reach
 * only by a jump or a return (prologue, setup, store, epilogue), 0 for
 * the rest, which the loop runs on its way (a fault there may come from a
 * state the code left, e.g. CR4.TSD set before RDTSC). */
int codefault_reached_by_jump(enum codefault_part p);

/* codefault_halt - the halting instruction at or just before p: HLT (F4,
 * SDM Vol. 2A "HLT"), MWAIT (0F 01 C9, SDM Vol. 2B "MWAIT") or MWAITX
 * (0F 01 FB, AMD APM Vol. 3 "MWAITX"). An NMI that ends one leaves the
 * saved RIP at the instruction after it (the HLT page: "the saved
 * instruction pointer points to the instruction following the HLT"), so
 * one that ends right before p is taken first (*back = its length, 1 or
 * 3); else one that begins at p, the NMI came before it ran (*back = 0).
 * Reads only lo <= byte < hi. Returns "HLT", "MWAIT", "MWAITX" or NULL.
 * Bytes F4 or 0F 01 C9 that end another instruction (an immediate) right
 * before p read as one: no instruction the code would loop in ends so, in
 * practice. */
const char *codefault_halt(const uint8_t *lo, const uint8_t *p, const uint8_t *hi, unsigned *back);

/* A relative jump of the code: the 1-based copy and the byte of code= it
 * is at, and the byte of the loop it lands at. */
struct codefault_jump {
	uint64_t copy, byte, landing;
};

/* codefault_jump_to - the relative jumps in code[0..code_len-1] that land
 * between bytes lo and target (both included) of the loop, from any of
 * its copies (copies of code_len bytes from the loop's byte code_at): JMP
 * rel8 (EB), Jcc rel8 (70-7F), LOOPcc and JrCXZ rel8 (E0-E3), CALL rel32
 * (E8), JMP rel32 (E9), Jcc rel32 (0F 80-8F) (SDM Vol. 2A "JMP", "Jcc",
 * "CALL", "LOOP/LOOPcc", "JrCXZ"), read at every byte that holds one whole
 * within a copy (there is no decoder: a byte of another instruction may
 * look like one). lo = target: those that land at target; lo below it:
 * also those that land before it in the same part (the code ran on from
 * where it landed). Returns how many (copy, byte) pairs land there, and
 * in *j the one landing nearest target (of those, the lowest byte); 0
 * and *j zero when none does (then the code got there by another way: an
 * absolute jump, a RET, a jump from init=). */
uint64_t codefault_jump_to(const uint8_t *code, uint32_t code_len, uint64_t copies, uint64_t code_at,
			   uint64_t lo, uint64_t target, struct codefault_jump *j);

#endif

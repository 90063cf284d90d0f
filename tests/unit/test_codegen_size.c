/* tests/unit/test_codegen_size.c - lib/codegen.c's codegen_size sizes a
 * loop of many copies without reading them (issue 21 item 19: 4,096 bytes
 * of code with unroll=100000 took 105 s of silence before the refusal,
 * since the 14 loop variants were sized by generating them byte by byte).
 * The copies' bytes here are a null pointer: reading one crashes the test,
 * and the size must equal the one computed from a small emitted loop. */
#include <stdint.h>
#include "check.h"
#include "../../lib/codegen.h"

static struct codegen_spec spec(const uint8_t *code, uint32_t code_len, uint64_t copies, uint64_t loops)
{
	static const uint8_t start[] = { 0x31, 0xD2 };
	struct codegen_spec s = { 0 };
	s.start = start, s.start_len = sizeof start;
	s.stop = start, s.stop_len = sizeof start;
	s.results = CG_TSC;
	s.code = code, s.code_len = code_len;
	s.copies = copies, s.loops = loops;
	s.state = 0x1000, s.save_area = 0x2000;
	s.stack_top = 0x100000, s.scratch = 0x200000, s.scratch_qwords = 8;
	return s;
}

int main(void)
{
	static const uint8_t nop[1] = { 0x90 };
	for (uint64_t loops = 0; loops < 2; loops++) {
		struct codegen_spec none = spec(nop, 1, 0, loops);
		size_t frame = codegen_size(&none); /* everything but the copies */
		CHECK(frame > 0, "loops=%llu: a loop of no copies has a size", (unsigned long long)loops);
		struct codegen_spec one = spec(nop, 1, 1, loops);
		CHECK_EQ_U64(codegen_size(&one), frame + 1, "loops=%llu: one copy of one byte adds one byte",
			     (unsigned long long)loops);
		/* 4,096 bytes x 100,000 copies: 409,600,000 bytes, sized without
		 * touching one of them (the code pointer is null). */
		struct codegen_spec big = spec(0, 4096, 100000, loops);
		CHECK_EQ_U64(codegen_size(&big), frame + 4096ull * 100000,
			     "loops=%llu: 4096 bytes x 100000 copies sized from the lengths alone",
			     (unsigned long long)loops);
		/* The largest product within a rel32 jump's reach, and one beyond. */
		struct codegen_spec edge = spec(0, 4096, 0x7FF00000ull / 4096, loops);
		CHECK_EQ_U64(codegen_size(&edge), frame + 4096ull * (0x7FF00000ull / 4096),
			     "loops=%llu: 2^31 - 1 MiB of copies: sized", (unsigned long long)loops);
		struct codegen_spec over = spec(0, 4096, 0x7FF00000ull / 4096 + 1, loops);
		CHECK_EQ_U64(codegen_size(&over), 0, "loops=%llu: beyond a rel32's reach: size 0",
			     (unsigned long long)loops);
	}
	return check_summary("codegen_size");
}

/* lib/codefault.c - see codefault.h. */
#include "codefault.h"

/* Where each part of the loop begins (CF_PROLOGUE .. CF_EPILOGUE), and
 * the loop's end. */
static void bounds(const struct codegen_layout *l, size_t b[CF_EPILOGUE + 2])
{
	const size_t v[CF_EPILOGUE + 2] = { 0, l->top, l->init, l->init_end, l->code, l->code_end,
					    l->window_end, l->stop_end, l->exit, l->len };
	for (int k = 0; k <= CF_EPILOGUE + 1; k++)
		b[k] = v[k];
}

enum codefault_part codefault_part(const struct codegen_layout *l, uint64_t off)
{
	size_t b[CF_EPILOGUE + 2];
	bounds(l, b);
	for (int p = CF_PROLOGUE; p <= CF_EPILOGUE; p++)
		if (off < b[p + 1])
			return (enum codefault_part)p;
	return CF_OUTSIDE;
}

uint64_t codefault_part_start(const struct codegen_layout *l, enum codefault_part p)
{
	size_t b[CF_EPILOGUE + 2];
	bounds(l, b);
	return (unsigned)p <= CF_EPILOGUE ? b[p] : 0;
}

static const char *const keys[CF_PARTS] = {
	"prologue", "setup", "init", "start", "code", "loop_tail", "stop", "store", "epilogue", "page0", "outside",
};
static const char *const texts[CF_PARTS] = {
	"the loop's prologue", "the sample's register setup", "init=", "the method's start sequence", "code=",
	"the loop's dec r15; jnz", "the method's stop sequence", "the sample's store", "the loop's epilogue",
	"page 0", "outside the loop",
};

const char *codefault_part_key(enum codefault_part p)
{
	return (unsigned)p < CF_PARTS ? keys[p] : "?";
}

const char *codefault_part_text(enum codefault_part p)
{
	return (unsigned)p < CF_PARTS ? texts[p] : "?";
}

int codefault_reached_by_jump(enum codefault_part p)
{
	return p == CF_PROLOGUE || p == CF_SETUP || p == CF_STORE || p == CF_EPILOGUE;
}

/* The halting instruction whose bytes begin at q (q + its length <= hi). */
static const char *halt_at(const uint8_t *q, const uint8_t *hi, unsigned *len)
{
	if (q < hi && q[0] == 0xF4)
		return *len = 1, "HLT";
	if (hi - q >= 3 && q[0] == 0x0F && q[1] == 0x01 && (q[2] == 0xC9 || q[2] == 0xFB))
		return *len = 3, q[2] == 0xC9 ? "MWAIT" : "MWAITX";
	return 0;
}

const char *codefault_halt(const uint8_t *lo, const uint8_t *p, const uint8_t *hi, unsigned *back)
{
	unsigned len;
	const char *name;
	*back = 0;
	if (p < lo || p > hi)
		return 0;
	for (unsigned n = 1; n <= 3; n += 2)
		if ((size_t)(p - lo) >= n && (name = halt_at(p - n, p, &len)) && len == n)
			return *back = n, name;
	return halt_at(p, hi, &len);
}

/* The relative jump whose bytes begin at c[o] (whole within c[0..n-1]):
 * its length and displacement, or 0. */
static unsigned jump_at(const uint8_t *c, uint32_t n, uint32_t o, int64_t *disp)
{
	uint8_t b = c[o];
	if ((b == 0xEB || (b >= 0x70 && b <= 0x7F) || (b >= 0xE0 && b <= 0xE3)) && o + 2 <= n) {
		*disp = (int8_t)c[o + 1];
		return 2;
	}
	unsigned at = b == 0xE8 || b == 0xE9 ? 1 : b == 0x0F && o + 1 < n && (c[o + 1] & 0xF0) == 0x80 ? 2 : 0;
	if (!at || o + at + 4 > n)
		return 0;
	uint32_t v = (uint32_t)c[o + at] | (uint32_t)c[o + at + 1] << 8 | (uint32_t)c[o + at + 2] << 16 |
		     (uint32_t)c[o + at + 3] << 24;
	*disp = (int32_t)v;
	return at + 4;
}

uint64_t codefault_jump_to(const uint8_t *code, uint32_t code_len, uint64_t copies, uint64_t code_at,
			   uint64_t lo, uint64_t target, struct codefault_jump *j)
{
	uint64_t found = 0;
	*j = (struct codefault_jump){ 0, 0, 0 };
	if (!code_len || !copies || lo > target)
		return 0;
	for (uint32_t o = 0; o < code_len; o++) {
		int64_t disp;
		unsigned len = jump_at(code, code_len, o, &disp);
		if (!len)
			continue;
		/* From copy k (0-based) the jump lands at first + k * code_len. */
		int64_t first = (int64_t)code_at + o + len + disp;
		if (first > (int64_t)target)
			continue;
		uint64_t last_k = ((uint64_t)((int64_t)target - first)) / code_len; /* the last landing <= target */
		if (last_k >= copies)
			last_k = copies - 1;
		int64_t last = first + (int64_t)(last_k * code_len);
		if (last < (int64_t)lo)
			continue;
		/* Landings in [lo, target]: copies first_k..last_k. */
		uint64_t first_k = first >= (int64_t)lo ? 0 : ((uint64_t)((int64_t)lo - first) + code_len - 1) / code_len;
		found += last_k - first_k + 1;
		if (!j->copy || (uint64_t)last > j->landing)
			*j = (struct codefault_jump){ last_k + 1, o, (uint64_t)last };
	}
	return found;
}

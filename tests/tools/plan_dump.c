/* tests/tools/plan_dump.c - lib/plan.c as a filter, for the test that it
 * and tools/benchplan.py read plans alike (tests/tools/t_plan_asm.py):
 * reads cases from standard input, each a 4-byte little-endian length and
 * that many bytes, and prints for each its problems ("problem MSG"), its
 * defaults ("defaults LINE WORDS"), its experiments ("exp NAME LINE
 * WORDS"), then a line of one RS byte (0x1E, which no message or word
 * holds). Built with the host's gcc by the test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../lib/plan.h"

static void report(void *ctx, const char *msg)
{
	(void)ctx;
	printf("problem %s\n", msg);
}

int main(void)
{
	static struct plan p;
	unsigned char n4[4];
	while (fread(n4, 1, 4, stdin) == 4) {
		uint32_t n = n4[0] | n4[1] << 8 | n4[2] << 16 | (uint32_t)n4[3] << 24;
		char *text = malloc((size_t)n + 1);
		if (!text || fread(text, 1, n, stdin) != n)
			return 2;
		plan_parse(text, n, "plan.txt", &p, report, 0);
		printf("defaults %d %s\n", p.defaults_line, p.defaults);
		for (int i = 0; i < p.n; i++)
			printf("exp %s %d %s\n", p.exp[i].name, p.exp[i].line, p.exp[i].words);
		printf("\x1e\n");
		free(text);
	}
	return 0;
}

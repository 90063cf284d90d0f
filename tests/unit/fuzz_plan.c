/* tests/unit/fuzz_plan.c - libFuzzer target for lib/plan.c: any bytes as a
 * plan file, in a buffer of exactly len + 1 bytes (plan_parse writes
 * text[len]). ASan and UBSan report any access outside it or an overflow;
 * the checks below report a message longer than its bound or holding a
 * byte that is not printable ASCII, an experiment whose name breaks the
 * format or whose words are not single-spaced printable ASCII inside the
 * text, and a problem count that disagrees with the messages. Run by
 * `make fuzz` (bounded time). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../lib/plan.h"

static int messages;

static void report(void *ctx, const char *msg)
{
	(void)ctx;
	messages++;
	if (strlen(msg) >= 320 || strncmp(msg, "plan: plan.txt", 14) != 0)
		abort(); /* messages are bounded and name the file */
	for (const char *c = msg; *c; c++)
		if (*c < 0x20 || *c > 0x7E)
			abort(); /* user bytes are escaped: one printable line */
}

static void check_words(const char *w, const char *text, size_t size)
{
	if (w[0] && (w < text || w > text + size))
		abort(); /* words live in the text given */
	if (w[0] == ' ')
		abort();
	for (size_t i = 0; w[i]; i++)
		if (w[i] < 0x20 || w[i] > 0x7E || (w[i] == ' ' && (w[i + 1] == ' ' || !w[i + 1])))
			abort(); /* single-spaced printable ASCII */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct plan p;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	messages = 0;
	int r = plan_parse(text, size, "plan.txt", &p, report, 0);
	if (r != messages || r != p.problems || text[size] != '\0' || p.n < 0 ||
	    p.n > PLAN_EXPERIMENTS_MAX || (p.n == 0 && r == 0))
		abort();
	for (int i = 0; i < p.n; i++) {
		size_t nl = strlen(p.exp[i].name);
		if (nl < 1 || nl > PLAN_NAME_MAX || p.exp[i].line < 1)
			abort();
		for (size_t k = 0; k < nl; k++) {
			char c = p.exp[i].name[k];
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			      (k && (c == '_' || c == '.' || c == '-'))))
				abort();
		}
		check_words(p.exp[i].words, text, size);
	}
	check_words(p.defaults, text, size);
	free(text);
	return 0;
}

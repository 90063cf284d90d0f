/* tests/boot/ist_test.c - linked only into a test build (EXTRA_SRC;
 * tests/boot/t_faults.py): the exception a word of the command line asks
 * for, right after the IDT is loaded, on a handler that runs on an IST
 * stack (kernel/trap.c). The test stops in that handler, injects an NMI
 * (QEMU monitor) and checks that the report still describes the first
 * exception: NMI, #DF and #MC must not share a stack.
 *   ist_test=mc: INT 18, delivered through the #MC gate (SDM Vol. 3A 7.14.5:
 *                the IST is used whatever the source of the interrupt);
 *   ist_test=df: the IDT's limit cut to vectors 0-12, RSP set above the 4 GiB
 *                this kernel maps: the PUSH raises #PF, whose gate is past
 *                the limit, so delivering it raises #GP (7.14.1), whose gate
 *                is past it too: a #GP while delivering a #PF, a double
 *                fault (SDM Vol. 3A 7.15, table 7-5). (A #PF on its own is
 *                delivered on its IST stack, overflow or not.)
 * Without either word the hook returns and the run goes on. */
#include <stdint.h>
#include "../../kernel/multiboot.h"

extern uint32_t boot_magic, boot_info;

/* Where the unmapped stack of ist_test=df starts: 4 GiB + 4 KiB. */
#define IST_TEST_BAD_RSP 0x100001000ull

static int has_word(const char *line, const char *word)
{
	for (const char *p = line; *p; p++) {
		int i = 0;
		while (word[i] && p[i] == word[i])
			i++;
		if (!word[i] && (p == line || p[-1] == ' '))
			return 1;
	}
	return 0;
}

void boot_test_hook(void);
void boot_test_hook(void)
{
	static struct boot_info bi;
	multiboot_parse(boot_magic, boot_info, &bi);
	if (has_word(bi.cmdline, "ist_test=mc"))
		__asm__ volatile("int $18\n"
				 ".globl ist_test_after_int\n"
				 "ist_test_after_int:" ::: "memory");
	if (has_word(bi.cmdline, "ist_test=df")) {
		struct __attribute__((packed)) {
			uint16_t limit;
			uint64_t base;
		} idtr;
		__asm__ volatile("sidt %0" : "=m"(idtr));
		idtr.limit = 13 * 16 - 1; /* gates 0..12: #DF and NMI, not #GP or #PF */
		__asm__ volatile("lidt %0\n"
				 "movq %1, %%rsp\n"
				 ".globl ist_test_push\n"
				 "ist_test_push:\n"
				 "pushq %%rax" : : "m"(idtr), "r"(IST_TEST_BAD_RSP) : "memory");
	}
}

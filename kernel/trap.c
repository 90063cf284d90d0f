/* kernel/trap.c - see trap.h. Formats: SDM Vol. 3A 3.4.5 (segment
 * descriptors), 8.2.3 (64-bit TSS descriptor), 9.7 (64-bit TSS) and 7.14.1
 * (64-bit IDT gate descriptors). */
#include "trap.h"
#include "console.h"
#include "cpu.h"
#include "exit.h"
#include "uart.h"
#include "watchdog.h"
#include "../lib/fmt.h"

struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define SEL_TSS 0x18

static struct trap_tss tss;
static struct trap_cpu bsp = { .tss = &tss, .cpu = -1 };
static struct idt_gate idt[256];
/* The three vectors that may arrive while another handler runs, each on
 * its own stack (SDM Vol. 3A 7.14.5 "Interrupt Stack Table"): the CPU loads
 * RSP from TSS.IST[n] on every delivery through a gate with IST index n,
 * even nested in a handler on that same stack, so a shared stack would let
 * an NMI during a #DF or #MC dump overwrite the frame being dumped.
 * Ordinary exceptions stay on the current stack (IST 0). */
enum { IST_NMI = 1, IST_DF = 2, IST_MC = 3, IST_STACKS = TRAP_IST_STACKS };
#define IST_STACK_SIZE TRAP_IST_STACK_SIZE
static uint8_t ist_stacks[IST_STACKS][IST_STACK_SIZE] __attribute__((aligned(16)));
static volatile int in_exception;
int (*trap_hook)(struct trap_frame *f);

extern const uint64_t trap_vector_table[256];
extern const struct ex_entry __ex_table_start[], __ex_table_end[];

static const char *const vector_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range exceeded", "#UD invalid opcode",
	"#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack-segment fault",
	"#GP general protection", "#PF page fault", "reserved (15)",
	"#MF x87 floating-point error", "#AC alignment check",
	"#MC machine check", "#XM SIMD floating-point exception",
	"#VE virtualization exception", "#CP control protection",
	"reserved (22)", "reserved (23)", "reserved (24)", "reserved (25)",
	"reserved (26)", "reserved (27)", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security exception", "reserved (31)",
};

const char *trap_vector_name(uint64_t vector)
{
	return vector < 32 ? vector_names[vector] : "external interrupt";
}

const char *trap_fault_string(int err)
{
	static const char *const short_names[32] = {
		"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
		"#DF", "vector 9", "#TS", "#NP", "#SS", "#GP", "#PF", "vector 15",
		"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "vector 22", "vector 23",
		"vector 24", "vector 25", "vector 26", "vector 27", "#HV", "#VC",
		"#SX", "vector 31",
	};
	int v = err & 0xFF;
	return v < 32 ? short_names[v] : "an interrupt";
}

struct trap_cpu *trap_this_cpu(void)
{
	struct desc_ptr p;
	__asm__ volatile("sgdt %0" : "=m"(p));
	return (struct trap_cpu *)p.base;
}

uint64_t trap_nmi_count(void)
{
	return trap_this_cpu()->nmis;
}

/* trap_halt and the address of its HLT, which the NMI handler skips. */
extern const char trap_halt_insn[];
__asm__(".text\n"
	".globl trap_halt\n"
	".type trap_halt, @function\n"
	"trap_halt:\n"
	".globl trap_halt_insn\n"
	"trap_halt_insn:\n"
	"\thlt\n"
	"\tret\n"
	".size trap_halt, . - trap_halt\n");

static void set_gate(int vec, uint64_t handler, uint8_t ist)
{
	idt[vec].offset_lo = (uint16_t)handler;
	idt[vec].selector = SEL_KCODE;
	idt[vec].ist = ist;
	idt[vec].type_attr = 0x8E; /* present, DPL 0, 64-bit interrupt gate */
	idt[vec].offset_mid = (uint16_t)(handler >> 16);
	idt[vec].offset_hi = (uint32_t)(handler >> 32);
	idt[vec].reserved = 0;
}

/* load_cpu - fill t's GDT (its TSS descriptor for *tss, whose IST1..IST3
 * are the three stacks at ist) and load GDTR, CS, DS, ES, SS and TR. */
static void load_cpu(struct trap_cpu *t, struct trap_tss *tss, uint8_t *ist)
{
	uint64_t base = (uint64_t)tss, limit = sizeof *tss - 1;

	t->tss = tss;
	t->gdt[0] = 0;
	t->gdt[1] = 0x00AF9A000000FFFFull; /* 64-bit code, DPL 0 */
	t->gdt[2] = 0x00CF92000000FFFFull; /* data, DPL 0 */
	/* 16-byte available 64-bit TSS descriptor (type 9). */
	t->gdt[3] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ull << 40) |
		    (((limit >> 16) & 0xF) << 48) | (((base >> 24) & 0xFF) << 56);
	t->gdt[4] = base >> 32;

	for (int i = 0; i < IST_STACKS; i++) /* TSS.IST1..IST3 = ist[0..2] */
		tss->ist[i] = (uint64_t)(ist + (uint64_t)(i + 1) * IST_STACK_SIZE);
	tss->iomap_base = sizeof *tss; /* no I/O permission bitmap */

	struct desc_ptr gp = { sizeof t->gdt - 1, (uint64_t)t->gdt };
	__asm__ volatile("lgdt %0\n"
			 "pushq %1\n"
			 "leaq 1f(%%rip), %%rax\n"
			 "pushq %%rax\n"
			 "lretq\n"
			 "1:\n"
			 "movw %w2, %%ds\n"
			 "movw %w2, %%es\n"
			 "movw %w2, %%ss\n"
			 "ltr %w3\n"
			 :
			 : "m"(gp), "i"(SEL_KCODE), "r"(SEL_KDATA), "r"(SEL_TSS)
			 : "rax", "memory");
}

static void load_idt(void)
{
	struct desc_ptr ip = { sizeof idt - 1, (uint64_t)idt };
	__asm__ volatile("lidt %0" : : "m"(ip) : "memory");
}

void trap_init(void)
{
	load_cpu(&bsp, &tss, &ist_stacks[0][0]);
	for (int v = 0; v < 256; v++)
		set_gate(v, trap_vector_table[v],
			 v == VEC_NMI ? IST_NMI : v == VEC_DF ? IST_DF : v == VEC_MC ? IST_MC : 0);
	load_idt();
}

void trap_init_ap(struct trap_cpu *t, struct trap_tss *tss, uint8_t *ist, int cpu, uint32_t apic_id)
{
	t->cpu = cpu;
	t->apic_id = apic_id;
	t->ap = 1;
	load_cpu(t, tss, ist);
	load_idt();
}

static const struct ex_entry *find_fixup(uint64_t rip)
{
	for (const struct ex_entry *e = __ex_table_start; e < __ex_table_end; e++)
		if (e->insn == rip)
			return e;
	return 0;
}

static void dump(const struct trap_frame *f, const char *where)
{
	kprintf("\nbench: EXCEPTION %s (vector %llu), error code 0x%llx%s\n",
		trap_vector_name(f->vector), (unsigned long long)f->vector,
		(unsigned long long)f->error_code, where);
	kprintf("  RIP=%016llx CS=%04llx RFLAGS=%016llx\n", (unsigned long long)f->rip,
		(unsigned long long)f->cs, (unsigned long long)f->rflags);
	kprintf("  RSP=%016llx SS=%04llx CR2=%016llx\n", (unsigned long long)f->rsp,
		(unsigned long long)f->ss, (unsigned long long)read_cr2());
	kprintf("  CR0=%016llx CR3=%016llx CR4=%016llx\n", (unsigned long long)read_cr0(),
		(unsigned long long)read_cr3(), (unsigned long long)read_cr4());
	kprintf("  RAX=%016llx RBX=%016llx RCX=%016llx RDX=%016llx\n",
		(unsigned long long)f->rax, (unsigned long long)f->rbx,
		(unsigned long long)f->rcx, (unsigned long long)f->rdx);
	kprintf("  RSI=%016llx RDI=%016llx RBP=%016llx\n", (unsigned long long)f->rsi,
		(unsigned long long)f->rdi, (unsigned long long)f->rbp);
	kprintf("  R8 =%016llx R9 =%016llx R10=%016llx R11=%016llx\n",
		(unsigned long long)f->r8, (unsigned long long)f->r9,
		(unsigned long long)f->r10, (unsigned long long)f->r11);
	kprintf("  R12=%016llx R13=%016llx R14=%016llx R15=%016llx\n",
		(unsigned long long)f->r12, (unsigned long long)f->r13,
		(unsigned long long)f->r14, (unsigned long long)f->r15);
	kprintf("  NMIs received since boot: %llu\n", (unsigned long long)trap_this_cpu()->nmis);
}

/* " on CPU 2 (APIC ID 2, an application processor)" once kernel/smp.c has
 * numbered the CPUs, else "" (the boot CPU's report as before). */
static const char *cpu_words(char *buf, size_t size)
{
	const struct trap_cpu *t = trap_this_cpu();
	buf[0] = '\0';
	if (t->cpu >= 0)
		fmt_format(buf, size, " on CPU %d (APIC ID %u, %s)", t->cpu, t->apic_id,
			   t->ap ? "an application processor" : "the boot CPU");
	return buf;
}

void trap_handler(struct trap_frame *f);
void trap_handler(struct trap_frame *f)
{
	if (f->vector == VEC_NMI) {
		enum watchdog_nmi w = watchdog_nmi(); /* the watchdog's NMI is no disturbance */
		if (w == WATCHDOG_FIRED) {
			f->vector = WATCHDOG_VECTOR; /* bench/code.c's hook resumes at its loop's exit */
			if (!trap_hook || !trap_hook(f))
				watchdog_rearm(); /* not in the code (a handler it called): once more */
		}
		if (w != WATCHDOG_NOT_MINE)
			return;
		struct trap_cpu *t = trap_this_cpu();
		if (t->wake_recv < t->wake_sent)
			t->wake_recv++; /* kernel/smp.c's wake-up, not a disturbance */
		else
			t->nmis++;
		if (f->rip == (uint64_t)trap_halt_insn)
			f->rip++; /* it arrived before the HLT: do not halt (trap_halt) */
		return;
	}
	if (trap_hook && f->vector < 32 && trap_hook(f))
		return;
	const struct ex_entry *e = find_fixup(f->rip);
	if (e && f->vector < 32) {
		f->rip = e->resume;
		f->r11 = TRAP_FAULTED | f->vector;
		return;
	}
	console_emergency();
	if (__sync_fetch_and_add(&in_exception, 1)) {
		/* A fault while reporting a fault: say the least and leave. */
		static const char msg[] = "\nbench: run aborted: nested exception while reporting an exception\n";
		console_write(msg, sizeof msg - 1);
		bench_exit(EXIT_FAILURE_CODE);
	}
	char where[80];
	dump(f, cpu_words(where, sizeof where));
	kprintf("bench: run aborted by exception %s%s at RIP=%016llx (QEMU exit status 35)\n",
		trap_vector_name(f->vector), where, (unsigned long long)f->rip);
	bench_exit(EXIT_FAILURE_CODE);
}

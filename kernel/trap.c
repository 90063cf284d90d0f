/* kernel/trap.c - see trap.h. Formats: SDM Vol. 3A 3.4.5 (segment
 * descriptors), 8.2.3 (64-bit TSS descriptor), 9.7 (64-bit TSS) and 7.14.1
 * (64-bit IDT gate descriptors). */
#include "trap.h"
#include "console.h"
#include "cpu.h"
#include "exit.h"
#include "paging.h"
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
/* Every vector on a stack of the TSS's (SDM Vol. 3A 7.14.5 "Interrupt
 * Stack Table"), never on the interrupted RSP: code= may point RSP at a
 * guard page, at memory with no RAM behind it or anywhere, and the report
 * must still have the true frame. The CPU loads RSP from TSS.IST[n] on
 * every delivery through a gate with IST index n, even nested in a handler
 * on that same stack, so vectors that may arrive while another handler
 * runs have a stack of their own: NMI, #DF and #MC (an NMI during a #DF or
 * #MC dump must not overwrite the frame being dumped); #DB and #BP (walk=
 * single-steps); #PF; #GP and #UD, the faults of rdmsr_safe and the like,
 * which a handler or hook may call. The rest share IST7. A fault of the
 * same kind inside a handler (a kernel bug) would overwrite its frame:
 * trap_handler says so and ends the run (nested_on_own_stack). */
enum { IST_NMI = 1, IST_DF = 2, IST_MC = 3, IST_DEBUG = 4, IST_PF = 5, IST_GP = 6, IST_REST = 7,
       IST_STACKS = TRAP_IST_STACKS };
#define IST_STACK_SIZE TRAP_IST_STACK_SIZE
static uint8_t ist_stacks[IST_STACKS][IST_STACK_SIZE] __attribute__((aligned(16)));
static volatile int in_exception;
int (*trap_hook)(struct trap_frame *f);

extern const uint64_t trap_vector_table[256];
extern const struct ex_entry __ex_table_start[], __ex_table_end[];
extern const char _start_of_image[], _end[]; /* linker.ld */

/* The CPUs trap_this_cpu knows: a list from the boot CPU's entry through
 * each struct trap_cpu's next, in the order they registered. Entries are
 * only ever appended (with LOCK CMPXCHG on the last next), never removed,
 * so a reader on any CPU, an NMI handler among them, walks it without a
 * lock. */
/* "INT 32" .. "INT 255" (trap_vector_name), filled by trap_init. */
static char int_names[256 - 32][8];

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
	return vector < 32 ? vector_names[vector] : vector < 256 ? int_names[vector - 32] : "?";
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
	return v < 32 ? short_names[v] : v < 256 ? int_names[v - 32] : "an interrupt";
}

/* The calling CPU's APIC ID from CPUID (trap.h trap_this_cpu); *full = 1
 * for the 32-bit x2APIC ID (leaf 0BH, valid when EBX != 0), 0 for the
 * initial APIC ID (CPUID.1:EBX[31:24], its low 8 bits: SDM Vol. 3A 11.12.8). */
static uint32_t cpuid_apic_id(int *full)
{
	if (cpuid(0, 0).eax >= 0xB) {
		struct cpuid_regs r = cpuid(0xB, 0);
		if (r.ebx) {
			*full = 1;
			return r.edx;
		}
	}
	*full = 0;
	return cpuid(1, 0).ebx >> 24;
}

static void register_cpu(struct trap_cpu *t)
{
	t->cpuid_apic_id = cpuid_apic_id(&t->cpuid_full);
	t->next = 0;
	if (t == &bsp)
		return; /* the list's head */
	__sync_synchronize(); /* the entry before the link that shows it */
	struct trap_cpu *volatile *at = &bsp.next;
	while (!__sync_bool_compare_and_swap(at, (struct trap_cpu *)0, t))
		at = &(*at)->next;
}

struct trap_cpu *trap_this_cpu(void)
{
	int full;
	uint32_t id = cpuid_apic_id(&full);
	for (struct trap_cpu *k = &bsp; k; k = k->next)
		if (full && k->cpuid_full ? k->cpuid_apic_id == id : (k->cpuid_apic_id & 0xFF) == (id & 0xFF))
			return k;
	return &bsp;
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

/* The IST index of vector v's gate (the enum above). */
static uint8_t ist_of(int v)
{
	switch (v) {
	case VEC_NMI:
		return IST_NMI;
	case VEC_DF:
		return IST_DF;
	case VEC_MC:
		return IST_MC;
	case VEC_DB:
	case VEC_BP:
		return IST_DEBUG;
	case VEC_PF:
		return IST_PF;
	case VEC_GP:
	case VEC_UD:
		return IST_GP;
	default:
		return IST_REST;
	}
}

void trap_init(void)
{
	load_cpu(&bsp, &tss, &ist_stacks[0][0]);
	for (int v = 0; v < 256; v++)
		set_gate(v, trap_vector_table[v], ist_of(v));
	for (int v = 32; v < 256; v++)
		fmt_format(int_names[v - 32], sizeof int_names[0], "INT %d", v);
	load_idt();
	register_cpu(&bsp);
}

void trap_init_ap(struct trap_cpu *t, struct trap_tss *tss, uint8_t *ist, int cpu, uint32_t apic_id)
{
	t->cpu = cpu;
	t->apic_id = apic_id;
	t->ap = 1;
	load_cpu(t, tss, ist);
	load_idt();
	register_cpu(t);
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

static int in_kernel_image(uint64_t rip)
{
	return rip >= (uint64_t)_start_of_image && rip < (uint64_t)_end;
}

/* 1 when an INT n instruction raised f: the stub saw it (TRAP_VECTOR_SOFT,
 * boot/vectors.asm), or, for a vector whose frames look alike (NMI, #MC,
 * 32-255), the two bytes before RIP are INT n with this n (CD ib, SDM Vol.
 * 2A "INT n"; the frame's RIP is the next instruction's) and lie outside
 * the kernel, which never executes INT n itself (a test's INT 18 stands
 * for a #MC). Read only where mapped (paging_present: no fault in the NMI
 * handler). A real NMI at an instruction reached by a jump right after
 * the bytes CD 02 in code= is taken for that code's INT 2. */
static int raised_by_int(struct trap_frame *f)
{
	if (f->vector & TRAP_VECTOR_SOFT) {
		f->vector &= 0xFF;
		return 1;
	}
	if (f->vector != VEC_NMI && f->vector != VEC_MC && f->vector < 32)
		return 0;
	uint64_t at = f->rip - 2;
	if (f->rip < 2 || in_kernel_image(at) || !paging_present(at) || !paging_present(at + 1))
		return 0;
	const volatile uint8_t *p = (const volatile uint8_t *)at;
	return p[0] == 0xCD && p[1] == f->vector;
}

/* 1 when f was pushed on the IST stack a kernel handler was already using
 * (its RSP lies in the 16 KiB below f's frame): that handler's own frame
 * has just been overwritten, and it cannot return. */
static int nested_on_own_stack(const struct trap_frame *f)
{
	uint64_t top = ((uint64_t)(&f->ss + 1) + 15) & ~15ull;
	return in_kernel_image(f->rip) && f->rsp < top && f->rsp >= top - TRAP_IST_STACK_SIZE;
}

void trap_handler(struct trap_frame *f);
void trap_handler(struct trap_frame *f)
{
	f->soft = raised_by_int(f);
	if (nested_on_own_stack(f)) {
		console_emergency();
		kprintf("\nbench: run aborted: %s (vector %llu) at RIP=%016llx inside a handler on the same "
			"IST stack, whose frame it overwrote (QEMU exit status 35)\n", trap_vector_name(f->vector),
			(unsigned long long)f->vector, (unsigned long long)f->rip);
		bench_exit(EXIT_FAILURE_CODE);
	}
	if (f->vector == VEC_NMI && !f->soft) {
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
	if (trap_hook && trap_hook(f))
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
		exit_set_abort_save(0); /* the state that faulted twice is no state to call the firmware from */
		bench_exit(EXIT_FAILURE_CODE);
	}
	char where[80], how[80] = "";
	dump(f, cpu_words(where, sizeof where));
	if (f->soft)
		fmt_format(how, sizeof how, " (raised by an INT %llu instruction)", (unsigned long long)f->vector);
	else if (f->vector >= 32)
		fmt_format(how, sizeof how, " (an external interrupt, not an INT instruction)");
	if (how[0])
		kprintf("  vector %llu%s\n", (unsigned long long)f->vector, how);
	kprintf("bench: run aborted by exception %s%s at RIP=%016llx (QEMU exit status 35)\n",
		trap_vector_name(f->vector), where, (unsigned long long)f->rip);
	bench_exit(EXIT_FAILURE_CODE);
}

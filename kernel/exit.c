/* kernel/exit.c - see exit.h.
 *
 * after=reboot tries, in order:
 *  0. the FADT's reset register (ACPI 6.5 4.8.3.6, "Reset Register"; FADT
 *     flags RESET_REG_SUP, RESET_REG and RESET_VALUE in 5.2.9): RESET_VALUE
 *     written, as one byte, to the register when its Generic Address
 *     Structure is in system I/O or memory space (PCI configuration space
 *     is not written here: that needs the PCI configuration mechanism);
 * then what PCs have answered to for decades:
 *  1. the reset control register, I/O port 0xCF9, of Intel chipsets since
 *     the PIIX (and AMD's): writing 0x02 (SYS_RST, "full reset" next) then
 *     0x06 (RST_CPU set: do it) resets the platform;
 *  2. the 8042 keyboard controller's "pulse output port" command 0xFE to
 *     I/O port 0x64, which pulls the CPU's reset line (wired on every PC
 *     with an 8042 or its emulation), once its input buffer is empty
 *     (status bit 1 clear);
 *  3. a triple fault: with an empty IDT (limit 0) the INT3 cannot be
 *     delivered, nor the #GP that raises, nor the #DF: the CPU shuts down,
 *     which PC chipsets turn into a reset.
 * Each step is announced first, and the serial port drained, so the log
 * says which one did not work. */
#include "exit.h"
#include "acpi.h"
#include "config.h"
#include "console.h"
#include "cpu.h"

/* About ms milliseconds: io_delay() is about 1 us. */
static void delay_ms(int ms)
{
	for (int i = 0; i < ms * 1000; i++)
		io_delay();
}

/* The FADT's reset register when it can be written here: 1 after trying it
 * (the machine is still running), 0 when it cannot be used, said why. */
static int reboot_fadt(void)
{
	const struct acpi_gas *g = &acpi.reset_reg;
	const char *why = acpi_reset_refusal(&acpi);
	if (why) {
		kprintf("bench: after=reboot: FADT reset register: not used: %s\n", why);
		return 0;
	}
	kprintf("bench: after=reboot: resetting through the FADT reset register (0x%x to %s 0x%llx; ACPI 6.5 "
		"4.8.3.6)\n", acpi.reset_value, g->space == 1 ? "I/O" : "memory", (unsigned long long)g->address);
	console_flush();
	if (g->space == 1)
		outb((uint16_t)g->address, acpi.reset_value);
	else
		*(volatile uint8_t *)g->address = acpi.reset_value;
	delay_ms(500);
	return 1;
}

static __attribute__((noreturn)) void reboot(void)
{
	kprintf("bench: %s: resetting through the reset control register (0x02, 0x06 to I/O 0xCF9)\n",
		reboot_fadt() ? "still running" : "after=reboot");
	console_flush();
	outb(0xCF9, 0x02);
	io_delay();
	outb(0xCF9, 0x06);
	delay_ms(500);

	kprintf("bench: still running: resetting through the keyboard controller (0xFE to the 8042, I/O 0x64)\n");
	console_flush();
	for (int i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		io_delay();
	outb(0x64, 0xFE);
	delay_ms(500);

	kprintf("bench: still running: forcing a triple fault (empty IDT, INT3)\n");
	console_flush();
	static const struct __attribute__((packed)) {
		uint16_t limit;
		uint64_t base;
	} empty_idt = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(empty_idt) : "memory");
	kprintf("bench: the machine did not reset; halted (power it off)\n");
	halt_forever();
}

/* after= (kernel/config.h enum after_run); halt until the driver says. */
static int after = AFTER_HALT;

void exit_set_after(int how)
{
	after = how;
}

static int stage = EXIT_STAGE_SETUP;
static void (*abort_save)(void);

void exit_set_stage(int s)
{
	stage = s;
}

void exit_set_abort_save(void (*fn)(void))
{
	abort_save = fn;
}

void exit_begin(int code)
{
	outl(DEBUG_EXIT_PORT, (uint32_t)code);
	/* Still here: not QEMU with isa-debug-exit. */
	if (after == AFTER_REBOOT)
		reboot();
	const char *what = "the results above are final";
	if (code != EXIT_SUCCESS_CODE)
		what = stage == EXIT_STAGE_SETUP       ? "run aborted: nothing measured"
		       : stage == EXIT_STAGE_MEASURING ? "run aborted: the results above are incomplete"
						       : "the results above are complete, but the run's end failed";
	kprintf("bench: halted; %s (power off or reset the machine)\n", what);
}

void bench_exit(int code)
{
	/* once: an abort inside the save, or on a second CPU, does not save again */
	void (*save)(void) = __atomic_exchange_n(&abort_save, 0, __ATOMIC_SEQ_CST);
	if (code == EXIT_FAILURE_CODE && save)
		save();
	exit_begin(code);
	halt_forever();
}

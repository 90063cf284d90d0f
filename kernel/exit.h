/* kernel/exit.h - how a run ends.
 *
 * Under QEMU the isa-debug-exit device (-device isa-debug-exit,iobase=0xf4,
 * iosize=0x04) turns a write of value v into QEMU's exit status (v << 1) | 1:
 *   EXIT_SUCCESS_CODE 0x10 -> exit status 33: the run completed;
 *   EXIT_FAILURE_CODE 0x11 -> exit status 35: the run was aborted (an
 *                             exception, or no usable time-stamp counter).
 * Elsewhere the write to port 0xF4 does nothing, and what follows is the
 * boot parameter after=: halt (the default) leaves the one-screen summary
 * on the console and halts; reboot resets the machine (the FADT's reset
 * register, the reset control register 0xCF9, then the 8042, then a
 * triple fault), so a lab can chain
 * runs. */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#define DEBUG_EXIT_PORT 0xF4
#define EXIT_SUCCESS_CODE 0x10
#define EXIT_FAILURE_CODE 0x11

/* exit_set_after - what a run's end does on a real machine: after= of
 * the boot configuration (kernel/config.h enum after_run: AFTER_HALT, the
 * default, or AFTER_REBOOT). */
void exit_set_after(int how);

/* How far the run got, for the halt line of a run that ends with
 * EXIT_FAILURE_CODE (exit_set_stage; the driver, bench/main.c, moves it
 * forward): before any measurement ("run aborted: nothing measured"),
 * measuring ("run aborted: the results above are incomplete"), after the
 * final line ("the results above are complete": the end screen failed). */
enum exit_stage { EXIT_STAGE_SETUP, EXIT_STAGE_MEASURING, EXIT_STAGE_REPORTED };

/* exit_set_stage - stage: an enum exit_stage; EXIT_STAGE_SETUP at boot. */
void exit_set_stage(int stage);

/* exit_set_abort_save - fn (or 0: none) is called by bench_exit with
 * EXIT_FAILURE_CODE, once, on the CPU that aborts, after the run's
 * "bench: run aborted ..." line and before the exit: the driver's
 * (bench/main.c) writes the log to the boot device under UEFI
 * (kernel/efi.h efi_save_log), as a complete run does after its final
 * line. Set to 0 where calling it is not sound (a fault while reporting a
 * fault, kernel/trap.c). A function pointer, so that the trap handler
 * reaches the firmware's file system without a call edge into it. */
void exit_set_abort_save(void (*fn)(void));

/* exit_begin - leave QEMU with code (EXIT_SUCCESS_CODE or EXIT_FAILURE_CODE);
 * elsewhere reset the machine when after=reboot (never returns then), or
 * print the halt line and return, so that the caller can keep the screen
 * (the run's driver shows the QR code's pages: kernel/qr.h qr_hold) before
 * halt_forever. The halt line: "bench: halted; " and, for EXIT_SUCCESS_CODE,
 * "the results above are final"; for EXIT_FAILURE_CODE what the stage
 * says (exit_set_stage: "run aborted: nothing measured", ...), never
 * "final". */
void exit_begin(int code);
/* The halt line after a complete run, the one printed below the end
 * screen (75 characters): the end screen leaves it a row (bench/screen.c,
 * kernel/qr.h qr_show's after[]). The longer lines of an aborted run or a
 * failed end follow no end screen, or one the QR encoder did not draw. */
#define EXIT_HALT_LINE_MAX 80

/* bench_exit - the abort save (exit_set_abort_save) when code is
 * EXIT_FAILURE_CODE, then exit_begin(code), then halt forever. Never
 * returns. */
__attribute__((noreturn)) void bench_exit(int code);

#endif

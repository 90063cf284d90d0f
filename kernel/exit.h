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

/* exit_begin - leave QEMU with code (EXIT_SUCCESS_CODE or EXIT_FAILURE_CODE);
 * elsewhere reset the machine when after=reboot (never returns then), or
 * print the halt line and return, so that the caller can keep the screen
 * (the run's driver shows the QR code's pages: kernel/qr.h qr_hold) before
 * halt_forever. */
void exit_begin(int code);
/* The longest line exit_begin prints on a screen that stays (the halt
 * line, 75 characters): the end screen leaves it a row (bench/screen.c,
 * kernel/qr.h qr_show's after[]). */
#define EXIT_HALT_LINE_MAX 80

/* bench_exit - exit_begin(code), then halt forever. Never returns. */
__attribute__((noreturn)) void bench_exit(int code);

#endif

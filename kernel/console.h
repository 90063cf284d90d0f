/* kernel/console.h - one output path: serial (COM1) and the screen. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>
#include "multiboot.h"

/* console_init - bring up the consoles from what the loader said and the
 * console= word of the command line (README "Boot parameters"): the serial
 * port (COM1 at 115200 8N1 by default; a missing UART is detected and
 * skipped) and the screen (VGA text under BIOS). Prints one line for each
 * console it could not bring up. Call once, first. */
void console_init(const struct boot_info *bi);

/* console_screen_clear - clear the screen (not serial), e.g. before the
 * final summary so that it stays in view. */
void console_screen_clear(void);

/* kprintf - format (lib/fmt.h conversions) and write to every console.
 * Output longer than 4095 characters are cut, with "..." at the end. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* console_write - write n bytes to every console. */
void console_write(const char *s, size_t n);

/* console_set_screen - turn the VGA text screen copy on (1) or off (0). */
void console_set_screen(int on);

#endif

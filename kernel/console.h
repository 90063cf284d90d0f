/* kernel/console.h - one output path: serial (COM1) and the screen. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

/* kprintf - format (lib/fmt.h conversions) and write to every console.
 * Output longer than 4095 characters are cut, with "..." at the end. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* console_write - write n bytes to every console. */
void console_write(const char *s, size_t n);

/* console_set_screen - turn the VGA text screen copy on (1) or off (0). */
void console_set_screen(int on);

#endif

/* kernel/vga.h - the 80x25 VGA text screen at 0xB8000 (BIOS boots only). */
#ifndef KERNEL_VGA_H
#define KERNEL_VGA_H

#include <stddef.h>

/* vga_init - clear the screen and start writing at the top left. Call only
 * when the loader left the display in VGA text mode. */
void vga_init(void);

/* vga_present - whether a colour VGA text adapter answers: its CRTC index
 * register (I/O 0x3D4) and its text memory (0xB8000) read back what was
 * written (both restored after). Without one (QEMU -nodefaults, a UEFI
 * machine without CSM) the port reads 0xFF and the memory does not hold
 * the value. (IBM VGA Technical Reference, "CRT Controller Registers":
 * the address register is read/write.) */
int vga_present(void);

/* vga_write - write n bytes; '\n' ends a line, the screen scrolls. */
void vga_write(const char *s, size_t n);

/* vga_goto - the next character to (row 0..24, col 0..80), clamped;
 * vga_cursor_row - the row it goes to. For rows rewritten in place
 * (kernel/console.h console_area_open). */
void vga_goto(int row, int col);
int vga_cursor_row(void);

#endif

/* kernel/console.h - one output path: a serial port (COM1 unless console=
 * says otherwise) and the screen (VGA text, or a framebuffer: kernel/fb.h). */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>
#include "multiboot.h"
#include "../lib/logbuf.h"

/* The serial console console= chose (kernel/config.c parses it, with
 * console_parse_choice, into struct config): */
struct console_choice {
	int port;      /* 0..3 for ttyS0..3, -1 for none */
	uint32_t baud; /* 2..115200 with 115200/baud a whole 16-bit divisor */
};

/* console_parse_choice - one console= value v[0..len-1] into *object (a
 * struct console_choice); 0 if accepted, -1 (and *object unchanged) if
 * not (lib/cmdline.h CFG_CUSTOM). console_show_choice writes the value
 * kept, as console= spells it. CONSOLE_VALUES says what is accepted. */
int console_parse_choice(const char *v, int len, void *object);
void console_show_choice(char *buf, int size, const void *object);
#define CONSOLE_DEFAULT_BAUD 115200
#define CONSOLE_VALUES "ttyS0..ttyS3 (I/O 0x3F8, 0x2F8, 0x3E8, 0x2E8), optionally ,BAUD[n8] with " \
	"115200/BAUD a whole number 1..65535 (the UART's 16-bit divisor: BAUD 2..115200, e.g. " \
	"ttyS1,9600; 8N1 only), or none"

/* console_init - bring up the consoles from what the loader said and the
 * serial console the command line chose (sc, parsed once with every other
 * key by config_parse; README "Boot parameters"):
 *   console=ttyS0..ttyS3[,BAUD]  the serial port, COM1..COM4 (I/O 0x3F8,
 *                                0x2F8, 0x3E8, 0x2E8); BAUD such that
 *                                115200/BAUD is a whole 16-bit divisor
 *                                (1..65535: BAUD 2..115200), default
 *                                115200; 8N1
 *   console=none                 no serial output
 * Default ttyS0,115200. The words are read by lib/cmdline.c, as every key:
 * the last valid value wins; a bad value is one line ("config:
 * console=...", naming what is accepted and the value kept): problems, the
 * text of those lines, printed right after the console: line. A UART that
 * fails the
 * loopback test is reported and skipped: the run goes on on the screen.
 * The screen is the loader's RGB framebuffer when it set one up (GRUB
 * under UEFI), else VGA text when the loader left text mode (multiboot1,
 * GRUB under BIOS) and a VGA adapter answers (vga_present; else the
 * console line says none answered); a framebuffer the kernel cannot draw on (above 4 GiB,
 * not 24/32 bpp) is reported and left alone. Prints one "console:" line
 * saying where the output goes, then one line per problem. first_line
 * (NULL: none), the run's banner, is printed before the console: line, so
 * that it is the log's first line. Call once, first. */
void console_init(const struct boot_info *bi, const struct console_choice *sc, const char *problems,
		  const char *first_line);

/* console_flush - wait (bounded) until the serial port has sent all its
 * output: before a reset. */
void console_flush(void);

/* console_screen_clear - clear the screen (not serial), e.g. before the
 * final summary so that it stays in view. */
void console_screen_clear(void);

/* kprintf - format (lib/fmt.h conversions) and write to every console.
 * Output longer than 4095 characters are cut, with "..." at the end. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* console_write - write n bytes to every console. */
void console_write(const char *s, size_t n);

/* console_bytes_written - bytes console_write has been given since boot:
 * what the serial log holds so far when serial output is on. */
uint64_t console_bytes_written(void);

/* console_serial_baud - the serial console's rate in baud (8N1: 10 bits a
 * byte), or 0 when nothing goes to a serial port (console=none, no UART). */
uint32_t console_serial_baud(void);

/* The serial log kept in RAM (lib/logbuf.h), for writing it whole to the
 * boot medium after the run (issue 23): every byte that goes, or with a
 * UART would go, to the serial port (console=none and a missing UART
 * included; the screen-only summary, console_set_serial(0), not), from
 * the first line on, with the wire's line ends ("\r\n", kernel/uart.h).
 * console_log_move - go on in buf[0..bytes-1] (from mem_alloc, sized
 * from the serial estimate: bench/estimate.h), the boot's lines copied
 * into it; 1, or 0 when buf is 0 or not larger than the 64 KiB the log
 * started in: it goes on there, the rest counted as lost.
 * console_log - the log so far.
 * console_log_line - one line "log: N bytes before this line, CRC-32
 * 0xXXXXXXXX, all kept in RAM (buffer N bytes; ...)", or "K kept in RAM, L
 * NOT kept (the buffer is full)": N and the CRC-32 (zlib's) of the serial
 * log's bytes before the line, which a host can check the log it
 * captured, or the file written from the RAM copy, against. */
int console_log_move(char *buf, uint64_t bytes);
const struct logbuf *console_log(void);
void console_log_line(void);

/* console_set_screen - turn the screen copy on (1) or off (0); turning a
 * VGA text screen on clears it. No effect when there is no screen. */
void console_set_screen(int on);

/* console_screen_cols, console_screen_rows - the screen's size in
 * characters (80 x 25 for VGA text, the framebuffer's pixels over 8 x 16,
 * at most 480 x 135); 0 when nothing goes to a screen. */
int console_screen_cols(void);
int console_screen_rows(void);

/* A progress area (bench/progress.h): rows of the screen that the caller
 * rewrites in place while the log goes on on the serial port only, so
 * that the screen shows where a long run is instead of scrolling its
 * records (which never reach the screen: lib/record.h's sink here is the
 * serial port alone).
 * console_area_open - keep rows rows (1..8, at most the screen's rows
 * but one) below the text already on the screen, scrolling it up where
 * needed, and from here on copy no log output to the screen. Returns the
 * columns of a row, or 0 (and nothing changes) when there is no screen.
 * console_area_line - row i (0..rows-1) of the open area: s cut to the
 * screen's width, the rest of the row blank. No effect when no area is
 * open.
 * console_area_close - the log on the screen again, from the row below
 * the area (which stays as it was last written); console_emergency does
 * the same, so that an exception report reaches the screen. */
int console_area_open(int rows);
void console_area_line(int i, const char *s);
void console_area_close(void);

/* console_framebuffer - 1 when the screen is on and is a framebuffer
 * (kernel/fb.h), which can show pictures (kernel/qr.h); 0 for VGA text or
 * no screen. */
int console_framebuffer(void);

/* console_emergency - make sure an exception report reaches the serial
 * port: undo console_set_serial(0), and before console_init has finished
 * (a fault in multiboot parsing or console set-up) bring up ttyS0 at
 * 115200 8N1 if a UART answers there; close a progress area
 * (console_area_close). Called by the trap handler. */
void console_emergency(void);

/* console_set_serial - let output reach the serial port (1, the default)
 * or keep it to the screen only (0): the one-screen summary at the end of
 * a run, which the serial log has in full already. */
void console_set_serial(int on);

/* console_test_framebuffer - test only (test.fb=high, kernel/mem.c): from
 * here on the screen is a width x height, 32 bpp framebuffer at physical
 * address phys (RAM the caller set aside), taken over through fb_init as
 * a loader's would be; one line says so, or why it was refused. */
void console_test_framebuffer(uint64_t phys, uint32_t width, uint32_t height);

#endif

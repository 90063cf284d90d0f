/* kernel/qr.h - the run's results as QR codes on the framebuffer (docs/SCREEN.md
 * "The QR code").
 *
 * The text is lib/qrtext.h's ("bench1 ..."), encoded by Project Nayuki's
 * QR Code generator (Debian libqrcodegen-dev, MIT licence; its static
 * archive is linked as it is: kernel/qr.c says why that is sound) in byte
 * mode at error correction level M or better (the encoder raises the
 * level when the version has room), drawn black on white with the 4-module
 * quiet zone (ISO/IEC 18004:2015 clause 9.1), square modules of at least
 * QR_MIN_SCALE pixels. */
#ifndef KERNEL_QR_H
#define KERNEL_QR_H

#include <stddef.h>
#include <stdint.h>

#define QR_MIN_SCALE 3     /* pixels a module, at least */
#define QR_MAX_SCALE 8     /* pixels a module, at most */
#define QR_PAGE_SECONDS 10 /* a code page's time on the screen without a key press */

/* qr_show - encode body[0..len-1] (qrtext_body) and draw it on the
 * framebuffer beside or below the text already there (the one-screen
 * summary and its final line), its 4-module quiet zones (and the MARGIN
 * pixels around them) clear of text: of the rows there, and of the nafter
 * lines the console prints after it (after[i] characters each, at most:
 * under UEFI the save: line, then the halt line), which wrap left of the
 * codes where they pass beside them (fb_keep_out) and must fit below the
 * cursor without scrolling the screen. The parts are the
 * fewest whose codes fit the screen at QR_MIN_SCALE pixels a module (one
 * when the body fits a version 40-M code and the screen holds it). When
 * they do not all fit beside the text, each is given a page of its own
 * that qr_hold shows in turn. Without a framebuffer (VGA text, no screen)
 * nothing is done; a failure is one line on the screen saying why.
 * tsc_hz: the TSC rate in Hz that times qr_hold's pages (0: unknown, 3 GHz
 * assumed). Returns the
 * number of parts drawn or paged, 0 when none. */
int qr_show(const char *body, size_t len, uint64_t tsc_hz, const int *after, int nafter);

/* qr_hold - at the end of the run, before halting (the driver calls it
 * between exit_begin and halt_forever, kernel/exit.h):
 * when qr_show made pages, show the summary and each code in turn, each
 * until a key press (8042 keyboard controller, port 0x60; a USB keyboard
 * through the firmware's legacy emulation) or QR_PAGE_SECONDS, forever,
 * interrupts off. Returns at once when there are no pages. */
void qr_hold(void);

/* qr_page_shown - called each time qr_hold has drawn a page (0 the
 * summary, 1..parts the codes); does nothing: a place where a debugger
 * stops (tests/boot/t_qr.py, through QEMU's gdbstub). */
void qr_page_shown(int page, int pages);

#endif

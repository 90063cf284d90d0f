/* lib/planpath.h - plan=FILE before the configuration is parsed: the name
 * efi_early looks for on the boot device (kernel/efi.h efi_plan_read), and
 * the path EFI_FILE_PROTOCOL.Open takes for it (README "Where the plan
 * comes from"). Freestanding; host-tested (tests/unit/test_planpath.c).
 *
 * The name is read by lib/cmdline.h's parser itself, with plan= as its
 * one key (CFG_ONLY_KEYS): what efi_early finds is exactly what
 * kernel/config.c parses later (the last valid plan= word wins; a value
 * longer than the configuration holds is refused, the earlier one kept). */
#ifndef LIB_PLANPATH_H
#define LIB_PLANPATH_H

#include <stddef.h>
#include <stdint.h>

/* planpath_find - the value of the last valid plan=FILE word of the
 * NUL-terminated command line (NULL: empty; GRUB 2's multiboot2 line, no
 * image path first), 1..size-1 characters, into out[0..size-1] (size
 * 2..64: kernel/config.h's plan[]). Returns 1 when a plan file is named,
 * 0 when none is (no plan=, or plan=off; out is then "" or "off"). */
int planpath_find(const char *line, char *out, size_t size);

/* planpath_ucs2 - FILE as the path EFI_FILE_PROTOCOL.Open takes from the
 * volume's root (UEFI 2.x 13.5.2: CHAR16, '\' separated, a leading '\'
 * for the root): '\' first (a leading '/' or '\' of file not doubled),
 * every '/' read as '\'; NUL-terminated into out[0..cap-1]. Returns the
 * characters before the NUL, or 0 when file is empty (or only "/"), a byte is not
 * printable ASCII (0x20..0x7E), or the path does not fit. */
size_t planpath_ucs2(uint16_t *out, size_t cap, const char *file);

#endif

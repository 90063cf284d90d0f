/* lib/resultname.h - the name of a run's results file on the boot medium
 * (issue 23): folder RESULTNAME_DIR of the medium's root, file
 * "<run ID>.log", the run ID being kernel/runid.h's 16 lower-case hex
 * digits. Freestanding; host-tested (tests/unit/test_resultname.c).
 *
 * The rule that makes a file whole or clearly incomplete, and never
 * overwrites one:
 *  1. write the log to the temporary name "<id>.part" (Open with
 *     EFI_FILE_MODE_CREATE: an existing file of that name is opened, so
 *     Open it for reading first; if it exists, attempt 1 "<id>-1.part" and
 *     so on), then Write, Flush, read back and compare;
 *  2. rename it to the final name "<id>.log" (SetInfo with EFI_FILE_INFO's
 *     FileName; EDK2's FAT driver refuses a name that exists with
 *     EFI_ACCESS_DENIED, FatPkg/EnhancedFatDxe/Info.c FatSetFileInfo, so
 *     the rename never overwrites) - on ACCESS_DENIED try the next attempt
 *     "<id>-1.log" ... "<id>-9.log";
 *  3. a ".part" file left on the stick is a run whose write did not end
 *     (tools/bench.py store reports it, never stores it).
 * Long names: "0123456789abcdef.part" is 21 characters, not 8.3; every
 * UEFI FAT driver has long names (UEFI 2.x 13.3, "File System Format":
 * FAT12/16/32 with long file names), and EDK2's makes the 8.3 alias itself
 * (FatPkg/EnhancedFatDxe/FileName.c FatCreate8Dot3Name, "~N" tails). The
 * 64-bit ID does not fit 8.3's 8 characters (36^8 < 2^42), so no 8.3 name
 * could be unique. */
#ifndef LIB_RESULTNAME_H
#define LIB_RESULTNAME_H

#include <stddef.h>
#include <stdint.h>

#define RESULTNAME_DIR "results"
#define RESULTNAME_ATTEMPTS 10 /* attempt 0 ("<id>.log") and 1..9 ("<id>-N.log") */
#define RESULTNAME_MAX 24      /* bytes of the longest leaf name, NUL included */

enum resultname_kind { RESULTNAME_FINAL, RESULTNAME_TEMPORARY };

/* resultname_make - the leaf name (no folder) of attempt n (0 ..
 * RESULTNAME_ATTEMPTS-1) for run ID id, final ("<id>.log", "<id>-N.log")
 * or temporary ("<id>.part", "<id>-N.part"), into out[0..cap-1],
 * NUL-terminated. Returns its length in characters, or 0 (out untouched)
 * when id is not exactly 16 lower-case hex digits, n is out of range, or
 * cap is too small. */
size_t resultname_make(char *out, size_t cap, const char *id, unsigned n, enum resultname_kind kind);

/* resultname_fat_ok - 1 when name is a valid FAT long file name (Microsoft
 * "FAT: General Overview of On-Disk Format" 1.03, "Long Directory
 * Entries"; UEFI's CHAR16 names): 1 to 255 characters, printable ASCII
 * (0x20-0x7E) none of " * / : < > ? \ |, not ending in a space or a dot,
 * and not "." or "..". 0 otherwise. */
int resultname_fat_ok(const char *name);

/* resultname_ucs2 - name (ASCII) as the UCS-2 string EFI_FILE_PROTOCOL.Open
 * and EFI_FILE_INFO.FileName take, NUL-terminated, into out[0..cap-1]
 * (UEFI 2.x 13.5: CHAR16, path separator '\'). dir (may be 0) and a '\'
 * go first: ("results", "x.log") gives "results\x.log". Returns the
 * characters written before the NUL, or 0 when a byte is not 7-bit
 * ASCII or the string does not fit. */
size_t resultname_ucs2(uint16_t *out, size_t cap, const char *dir, const char *name);

#endif

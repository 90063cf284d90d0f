/* kernel/smbios.h - the machine's identity (README "The machine's
 * identity"): its SMBIOS entry point found where DSP0134 5.2 says (under
 * UEFI the EFI configuration table, UEFI 2.10 4.6: SMBIOS3_TABLE_GUID
 * preferred to SMBIOS_TABLE_GUID; under BIOS the 16-byte boundaries of
 * 000F0000h-000FFFFFh, never searched under UEFI), its table mapped
 * (kernel/paging.h, above 4 GiB too) and decoded by lib/smbios.c. */
#ifndef KERNEL_SMBIOS_H
#define KERNEL_SMBIOS_H

#include "config.h"
#include "multiboot.h"
#include "../lib/record.h"
#include "../lib/smbios.h"

/* smbios_init - find and decode the tables, once, before the banner
 * (it prints nothing: smbios_print says what was found). corrupt is
 * test.smbios_corrupt (enum smbios_corrupt): a copy of the entry point
 * (checksum: its checksum byte flipped) or of the table (length: the
 * End-of-Table structure's length set to FFh, past the table's end;
 * string: its closing double NUL overwritten) is decoded instead. */
void smbios_init(const struct boot_info *bi, uint64_t corrupt);

/* smbios_banner - the banner's tail: ", on SYSTEM, BIOS VENDOR VERSION
 * DATE" (docs/OUTPUT.md), each part only when SMBIOS gives it, "" without
 * SMBIOS. Valid after smbios_init. */
const char *smbios_banner(void);

/* smbios_env - the env record's fields system, board, bios, system_uuid,
 * smbios (docs/RECORDS.md), null when absent, into the open record r. */
void smbios_env(struct rec *r);

/* smbios_print - the machine: line, one memory: line per populated DIMM,
 * the problem's line, the smbios and memory_device records; serial
 * numbers only when identity is IDENTITY_FULL. Without SMBIOS one line
 * saying why. */
void smbios_print(uint64_t identity);

/* smbios_texts - the env record's system, board and bios texts (""
 * when null), for the QR text's sys line (lib/qrtext.h). */
void smbios_texts(const char **system, const char **board, const char **bios);

/* smbios_get - what was decoded (info->entry.kind SMBIOS_NONE: nothing). */
const struct smbios_info *smbios_get(void);

#endif

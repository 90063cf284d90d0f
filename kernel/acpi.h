/* kernel/acpi.h - the machine's ACPI tables (lib/acpi.h parses them):
 * where the RSDP is, and the acpi: section of the log. */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include "multiboot.h"
#include "../lib/acpi.h"

/* What acpi_init found; valid after it. */
extern struct acpi_info acpi;
/* The HPET's counter period in femtoseconds (its General Capabilities
 * register, bits 63:32; IA-PC HPET 1.0a 2.3.4), 0 when there is none or it
 * is out of the specification's range (0 < period <= 100 ns). */
extern uint64_t acpi_hpet_period_fs;

/* acpi_init - find the RSDP (the multiboot2 ACPI tags, else the first KiB
 * of the EBDA and 0E0000h-0FFFFFh as ACPI 6.5 5.2.5.1 says), parse the
 * tables and print the acpi: lines and record. corrupt: a test's table
 * signature whose checksum byte is flipped first ("" for none). Never
 * fails: a missing RSDP or a bad checksum is one clear line. */
void acpi_init(const struct boot_info *bi, const char *corrupt);

#endif

/* kernel/efi.h - a run under UEFI with the firmware's boot services kept
 * (issue 23): the EFI amd64 entry's first steps, and after the run the
 * serial log written to the boot device's file system.
 *
 * GRUB enters boot/entry.asm's efi_entry when the multiboot2 header carries
 * the EFI boot services tag (type 7) and the EFI amd64 entry tag (type 9)
 * and GRUB itself is an EFI binary (Multiboot2 3.1.8, 3.1.12, machine
 * state 3.5): long mode on the firmware's page tables, GDT and IDT, its
 * stack, interrupts as the firmware had them, RAX = magic, RBX = the boot
 * information. GRUB 2.06 then gives no memory map (tags 4, 6 and 17 are
 * absent: it never called ExitBootServices), so the kernel asks the
 * firmware itself (docs/MACHINE.md "UEFI: the log on the boot stick"). */
#ifndef KERNEL_EFI_H
#define KERNEL_EFI_H

#include <stddef.h>
#include <stdint.h>
#include "multiboot.h"

/* The CPU state boot/efi.asm saves and loads (the firmware's at the EFI
 * entry; the kernel's around each call into the firmware). The offsets
 * are boot/efi.asm's ST_* constants (checked in kernel/efi.c). */
struct efi_cpu_state {
	uint64_t rflags, cr0, cr3, cr4, xcr0, pat, rsp;
	uint64_t cs, ds, es, ss, fs, gs, tr;
	uint8_t gdtr[16]; /* limit (2 bytes), base (8 bytes) */
	uint8_t idtr[16];
};

/* efi_early - called by boot/entry.asm's efi_entry on the firmware's state
 * (its stack, tables, interrupts), .bss zeroed, with the boot
 * information's physical address: reads the multiboot2 tags 12 (system
 * table) and 20 (image handle); SetWatchdogTimer(0, 0, 0, NULL) (UEFI 2.x
 * 7.5 Miscellaneous Boot Services: the 5-minute watchdog off); reads the
 * memory map (GetMemoryMap, UEFI 7.2) and takes, with AllocatePages
 * (AllocateAddress, EfiLoaderData), the largest EfiConventionalMemory
 * range but a reserve left to the firmware for the write after the run
 * (at least 16 MiB, an eighth of the range), and one page below
 * 0x90000 for the application processors' start-up code; the firmware's
 * timer period (EFI_TIMER_ARCH_PROTOCOL.GetTimerPeriod, PI 1.7 vol. 2
 * 12.10, 100 ns units); with plan=FILE on the command line, FILE read
 * from the boot device (efi_plan_read below). What it finds is printed
 * later by efi_report (the plan by kernel/planfile.c).
 * A firmware in 5-level paging (CR4.LA57) cannot run this kernel's
 * 4-level tables: one line on the firmware's console, QEMU failure exit,
 * halt. Returns 0. */
uint64_t efi_early(uint64_t info_phys);

/* What efi_early read of the plan file (kernel/planfile.h): efi_early
 * finds plan=FILE in the multiboot2 command line tag itself (the
 * configuration is parsed later; lib/planpath.h reads it as kernel/config.c
 * does) and, unless FILE is "off", opens \FILE ('/' read as '\') on the
 * file system of the device GRUB was loaded from (HandleProtocol
 * EFI_LOADED_IMAGE_PROTOCOL, its DeviceHandle's
 * EFI_SIMPLE_FILE_SYSTEM_PROTOCOL, OpenVolume, EFI_FILE_PROTOCOL.Open
 * (read), GetInfo (EFI_FILE_INFO.FileSize), Read, Close; UEFI 2.x 9.1,
 * 13.4, 13.5) into pages of its own (AllocatePages, AllocateMaxAddress
 * below 4 GiB, EfiLoaderData: never in the kernel's memory map, so never
 * handed out). A file larger than EFI_PLAN_READ_MAX is not read: step
 * NULL, data NULL, bytes its size. Errors: the first step that failed and
 * its EFI_STATUS (EFI_NOT_FOUND from Open: no such file, as on a CD's EFI
 * image or OVMF's network boot device; EFI_UNSUPPORTED from HandleProtocol:
 * a boot device without a file system); nothing is printed here. */
/* The largest plan file efi_early reads, in bytes: kernel/planfile.h's
 * PLANFILE_MAX (planfile.c checks that they agree). */
#define EFI_PLAN_READ_MAX 65536

struct efi_plan_read {
	int tried;          /* 1: plan= was found and the read attempted */
	const char *step;   /* the step that failed ("OpenVolume", "Open", ...), or NULL */
	uint64_t status;    /* its EFI_STATUS (lib/efistatus.h names it); 0 on success */
	const uint8_t *data; /* the bytes (NULL unless read) */
	uint64_t bytes;     /* the file's size in bytes (may exceed what was read) */
};

/* efi_plan_read - the read above; tried 0 when not an EFI boot, no plan=,
 * or plan=off. */
const struct efi_plan_read *efi_plan_read(void);

/* efi_booted - 1 when the kernel came in through the EFI entry with boot
 * services kept (efi_early ran), else 0. */
int efi_booted(void);

/* efi_boot_info - notes the 8259 masks and the local APIC registers as
 * the firmware left them (for efi_save_log; call before pic_mask_all and
 * quiet_timers, after trap_init); on the EFI entry, bi's memory map made
 * from what efi_early took: the ranges AllocatePages gave, type 1
 * (available), and nothing else (every other byte stays the firmware's). */
void efi_boot_info(struct boot_info *bi);

/* efi_report - the "efi:" lines: the firmware, the watchdog, the memory
 * taken, the timer period; nothing when the EFI entry was not taken. */
void efi_report(void);

/* efi_save_before_final - before the final line: the one "save:" line of
 * a run that cannot or will not write its log (a BIOS boot; a loader that
 * ended the boot services; save=off), so that the final line stays last
 * there. save: 1 on, 0 off (save=). */
void efi_save_before_final(int save);

/* efi_save_log - after the final line and the end screen, or after the
 * "bench: run aborted ..." line of an aborted run (kernel/exit.h
 * exit_set_abort_save); UEFI boots with save on only, once per boot (a
 * second call does nothing), on the boot CPU only (IA32_APIC_BASE.BSP,
 * SDM Vol. 3A 11.4.4; UEFI's boot services are not for the other CPUs:
 * PI 1.7 vol. 2 EFI_MP_SERVICES_PROTOCOL, whose procedures on an AP may
 * not call them): elsewhere one "save: NOT written" line saying so. The
 * timers and interrupt controllers as the firmware had them, its CPU state (boot/efi.asm efi_call_firmware), its timer period
 * again, then the serial log kept in RAM (console_log) written to
 * results\<run id>.part on the file system of the device GRUB was loaded
 * from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle,
 * EFI_SIMPLE_FILE_SYSTEM_PROTOCOL; UEFI 2.x 9.1, 13.4, 13.5), flushed,
 * read back and compared, renamed <id>.log (lib/resultname.h: never over
 * an existing file); back on the kernel's state, one "save:" line on the
 * serial port and the screen: the name, its size in bytes and "written
 * and read back", or the step that failed and its EFI_STATUS by name
 * (lib/efistatus.h) with what it means. The file holds the log up to and
 * including the final line (an aborted run's: "bench: run aborted ...");
 * this line comes after it, with the seconds
 * from the EFI entry by the TSC. test_watchdog_s: 0, or (test.efi_watchdog=,
 * tests only) the firmware's watchdog armed for that many seconds before
 * the write, as if the kernel had left it on. */
void efi_save_log(int save, const char *run_id, uint64_t test_watchdog_s);
/* efi_firmware_run - fn(arg) on the firmware's own state, for a call into
 * its boot services after the run (efi_save_log's write, kernel/efinet.c's
 * send): the serial port flushed (console_flush), the kernel's watchdog
 * released (watchdog_release), the local APIC and the 8259 masks as the
 * firmware left them (efi_boot_info), its CPU state and interrupts
 * (boot/efi.asm efi_call_firmware: its timer interrupts tick while fn
 * runs, as its drivers need), its timer period again
 * (EFI_TIMER_ARCH_PROTOCOL.SetTimerPeriod, PI 1.7 vol. 2 12.10); back on
 * the kernel's state, the 8259 masked again. Returns fn's value. Only
 * under UEFI (efi_booted), on the boot CPU (efi_on_boot_cpu), after the
 * measurement: the firmware's interrupts would disturb it. */
uint64_t efi_firmware_run(uint64_t (*fn)(void *), void *arg);

/* efi_system_table - the firmware's EFI_SYSTEM_TABLE (kernel/efitypes.h),
 * or NULL when efi_booted is 0; efi_image_handle - the EFI image handle
 * GRUB was loaded as (multiboot2 tag 20), or NULL. */
struct efi_system_table *efi_system_table(void);
void *efi_image_handle(void);

/* efi_boot_pxe - the EFI_PXE_BASE_CODE_PROTOCOL (UEFI 2.x 24.3) of the
 * device GRUB was loaded from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle,
 * HandleProtocol at efi_early): non-NULL after a network boot; NULL after
 * a boot from a stick or CD, or not under UEFI. Its Mode is read on the
 * firmware's state only (kernel/efinet.c). */
void *efi_boot_pxe(void);

/* efi_on_boot_cpu - 1 on the bootstrap processor (IA32_APIC_BASE.BSP, SDM
 * Vol. 3A 11.4.4), or where the MSR cannot be read (no local APIC: no
 * other CPU); UEFI's boot services are the boot CPU's only. */
int efi_on_boot_cpu(void);

/* efi_status_text - "EFI_NOT_FOUND" (lib/efistatus.h's name), or "status
 * 0x..." for a value without one, into buf[0..size-1]; returns the name
 * or buf. */
const char *efi_status_text(char *buf, size_t size, uint64_t status);

/* The longest save: line efi_save_log prints, in characters, with room
 * to spare: "NOT written" with its longest step (66), byte (36), status
 * (25), meaning (75) and partial-file note (34) is 328; the others are
 * shorter. The end screen leaves the line its rows (bench/screen.c,
 * kernel/qr.h qr_show's after[]). */
#define EFI_SAVE_LINE_MAX 360

#endif

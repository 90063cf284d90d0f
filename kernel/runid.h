/* kernel/runid.h - the run's identity: one 64-bit ID made at boot, printed
 * as 16 lower-case hex digits in the serial log (the line "run: ID ..."
 * and the env record's "run_id"), on the end screen and in the QR code's
 * text (lib/qrtext.h, its "run" line), so that tools/benchdb.py knows the
 * same run from any of those sources and merges what each carries.
 *
 * Construction: the mix (runid.c, SplitMix64's finalizer after each part)
 * of, in order,
 *  1. the TSC when runid_make runs, early in the boot (SDM Vol. 2B
 *     "RDTSC"; only when CPUID.1:EDX[4] says there is one): a count of
 *     ticks since reset, different at every boot of a real machine;
 *  2. the boot CPU's initial APIC ID (CPUID.1:EBX[31:24]): two machines
 *     of a lab booted at the same moment differ;
 *  3. RDSEED (CPUID.(EAX=07H,ECX=0):EBX[18]) or else RDRAND
 *     (CPUID.1:ECX[30]), 64 bits of the CPU's random number generator,
 *     retried up to 10 times while it says it has none (CF=0; SDM Vol. 2B
 *     "RDRAND", "RDSEED"; Intel DRNG Software Implementation Guide 5.2.1);
 *  4. the CMOS clock's seconds, minutes, hours, day, month and year
 *     (MC146818 registers 00H, 02H, 04H, 07H, 08H, 09H, through ports 70H
 *     and 71H; read as they are, BCD or binary, for their bits only): a
 *     deterministic emulator (QEMU -icount without RDRAND) still differs
 *     from one second to the next.
 * Not a secret and not a cryptographic ID: unique enough that two lab runs
 * never share one (2^64 values; a collision among a million runs has odds
 * of about 3 x 10^-8). */
#ifndef KERNEL_RUNID_H
#define KERNEL_RUNID_H

#include <stdint.h>

/* runid_make - make the run's ID (once; later calls keep it) and print
 * the line "run: ID HEX (from ...)" naming the parts it was made from. */
void runid_make(void);

/* runid_text - the ID as 16 lower-case hex digits, NUL-terminated; "" before
 * runid_make. */
const char *runid_text(void);

#endif

/* kernel/xsave.h - the vector state a user's code= may use: x87, SSE, AVX
 * and AVX-512, enabled in XCR0 as CPUID enumerates them (the choice:
 * lib/xcr0.h; SDM Vol. 1 13.3, "Enabling the XSAVE Feature Set and
 * XSAVE-Enabled Features"), so that the generated loops (lib/codegen.h)
 * can run AVX code and save and restore that state with XSAVE64/XRSTOR64.
 * The kernel's own C stays general-registers-only (-mgeneral-regs-only).
 */
#ifndef KERNEL_XSAVE_H
#define KERNEL_XSAVE_H

#include <stdint.h>

/* The save area bench/code.c reserves, bytes: the standard format of x87,
 * SSE, AVX and AVX-512 ends at 2688 bytes on every CPU of the corpus
 * (tests/unit/test_xcr0.c). */
#define XSAVE_AREA_MAX 16384u

/* xsave_enable - on this CPU, set CR4.OSXSAVE (bit 18; SDM Vol. 3A 2.5)
 * and XCR0 (XSETBV; SDM Vol. 2D XSETBV) to the value the first call
 * chose from CPUID (lib/xcr0.h xcr0_choose): first on the boot CPU
 * (kernel/probe.c), then on each other CPU as it starts (kernel/smp.c).
 * Nothing when XSAVE is not used. Never faults: XCR0 holds only bits
 * CPUID.(EAX=0DH,ECX=0) enumerates, in the combinations XSETBV accepts.
 * Prints nothing (xsave_print). */
void xsave_enable(void);

/* xsave_print - the one environment line (lib/xcr0.h xcr0_line): the
 * state enabled and its save area in bytes, or why none beyond SSE, and
 * "AVX: not available (...)" on a CPU without AVX. */
void xsave_print(void);

/* xsave_mask - the XCR0 written, for XSAVE64/XRSTOR64's EDX:EAX; 0 when
 * the loops save with FXSAVE64 (XSAVE not used, or its area, CPUID.(EAX=
 * 0DH,ECX=0):EBX after XSETBV, larger than XSAVE_AREA_MAX). */
uint64_t xsave_mask(void);

#endif

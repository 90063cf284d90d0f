/* lib/xcr0.h - which vector state the kernel enables in XCR0, from CPUID,
 * and the line that says so (kernel/xsave.c executes the choice).
 *
 * Sources: SDM Vol. 1 chapter 13, "Managing State Using the XSAVE Feature
 * Set" (13.2: CPUID.(EAX=0DH,ECX=0):EDX:EAX are the XCR0 bits the
 * processor supports; 13.3: enabling the feature set and its features);
 * SDM Vol. 3A 2.6, "Extended Control Registers (Including XCR0)": XSETBV
 * faults (#GP) if XCR0 would clear bit 0 (x87), set AVX (bit 2) without
 * SSE (bit 1), set any of opmask, ZMM_Hi256, Hi16_ZMM (bits 5-7) without
 * AVX or without all three, or set a bit the processor does not support;
 * SDM Vol. 2A CPUID: CPUID.1:ECX.XSAVE[26], .AVX[28], .hypervisor[31] (an
 * SDM "not used" bit that hypervisors set); CPUID.(EAX=0DH,ECX=1):EAX, the
 * XSAVE extensions (XSAVEOPT [0], XSAVEC [1], XGETBV with ECX=1 [2],
 * XSAVES [3]).
 *
 * One exception to CPUID's word, for QEMU: its TCG takes CR4.OSXSAVE
 * (bit 18) as a reserved bit unless its feature word FEAT_XSAVE, which
 * is CPUID.(EAX=0DH,ECX=1):EAX, is nonzero (target/i386/cpu.h,
 * cr4_reserved_bits), whatever CPUID.1:ECX.XSAVE says; and a MOV to CR4
 * that sets a reserved bit (target/i386/tcg/sysemu/misc_helper.c,
 * helper_write_crN) takes the SVM #VMEXIT path (cpu_vmexit with
 * SVM_EXIT_ERR) although no SVM guest runs: do_vmexit saves the state in
 * the VMCB and reloads the host's from VM_HSAVE_PA, both at address 0
 * when never set, so the MOV runs again for ever (RIP stays on it, CR4
 * unchanged, no exception; QEMU 7.2, unchanged in later sources). QEMU's
 * AMD family 15h models Opteron_G4 and Opteron_G5 (and their -v1)
 * enumerate XSAVE with that register 0; hermit-os/kernel issue #273 met
 * the same hang. The SDM (Vol. 3A 2.5) makes CR4.OSXSAVE depend on
 * CPUID.1:ECX.XSAVE alone, and real CPUs' dumps show XSAVE with that
 * register 0 too (Penryn, Bulldozer; some dumps of the corpus do not
 * record sub-leaf 1): so the kernel declines XSAVE for it only where a
 * hypervisor says it is there (CPUID.1:ECX[31]), which no dump of the
 * corpus with that register 0 does.
 *
 * The kernel enables the state a user's code= may touch: x87, SSE, AVX and
 * AVX-512 (bits 0, 1, 2, 5, 6, 7), each where CPUID enumerates it, AVX-512
 * only all together. Never MPX (3, 4), PKRU (9) or AMX (17, 18): no
 * workload uses them, and AMX's tile data alone is 8 KiB of save area.
 *
 * Freestanding and host-tested (tests/unit/test_xcr0.c, also on the real
 * CPUs' dumps of tests/corpus/cpuid/).
 */
#ifndef LIB_XCR0_H
#define LIB_XCR0_H

#include <stddef.h>
#include <stdint.h>
#include "cpuinfo.h"

/* The state components (XCR0 bits; SDM Vol. 1 13.1). */
#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)
#define XCR0_AVX (1ull << 2)
#define XCR0_OPMASK (1ull << 5)
#define XCR0_ZMM_HI256 (1ull << 6)
#define XCR0_HI16_ZMM (1ull << 7)
#define XCR0_AVX512 (XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/* What CPUID said. */
struct xcr0_cpuid {
	uint32_t max_basic;  /* CPUID.0:EAX */
	uint32_t ecx1;       /* CPUID.1:ECX (bit 26 XSAVE, 28 AVX) */
	uint64_t supported;  /* CPUID.(EAX=0DH,ECX=0):EDX:EAX; 0 when max_basic < 0DH */
	uint32_t ext;        /* CPUID.(EAX=0DH,ECX=1):EAX (XSAVEOPT, XSAVEC, XGETBV1,
			      * XSAVES); 0 when max_basic < 0DH */
};

/* xcr0_cpuid_read - fill *in through f (leaves 0, 1 and 0DH sub-leaves 0
 * and 1). */
void xcr0_cpuid_read(cpuid_fn *f, void *ctx, struct xcr0_cpuid *in);

/* xcr0_choose - the XCR0 value to write with XSETBV: x87 | SSE, plus AVX
 * and all of AVX-512 where supported (AVX-512 only with AVX). 0 when the
 * XSAVE feature set cannot be used: CPUID.1:ECX.XSAVE[26] = 0, leaf 0DH
 * beyond the maximum basic leaf, x87 and SSE not both supported (the
 * SDM requires both; a hypervisor could say otherwise), or a hypervisor
 * (CPUID.1:ECX[31]) with CPUID.(EAX=0DH,ECX=1):EAX = 0, where QEMU's TCG
 * hangs on setting CR4.OSXSAVE (above): then CR4.OSXSAVE stays 0 and the
 * loops save with FXSAVE. */
uint64_t xcr0_choose(const struct xcr0_cpuid *in);

/* xcr0_line - the environment line, NUL-terminated in buf[0..size-1]
 * (cut to fit; 400 bytes are enough): "env: xsave: " and either why
 * XSAVE is not used (the CPUID bit or leaf that says so), or xcr0's components, the save area's size in bytes
 * (area_bytes, CPUID.(EAX=0DH,ECX=0):EBX once XCR0 is written) and what
 * is not available (AVX: CPUID.1:ECX.AVX[28] or XCR0 bit 2 not
 * enumerated; AVX-512: bits 7:5 not all enumerated). Returns buf. */
char *xcr0_line(char *buf, size_t size, const struct xcr0_cpuid *in, uint64_t xcr0, uint32_t area_bytes);

#endif

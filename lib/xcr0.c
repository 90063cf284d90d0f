/* lib/xcr0.c - see xcr0.h. */
#include "xcr0.h"
#include "fmt.h"

#define CPUID1_ECX_XSAVE (1u << 26)
#define CPUID1_ECX_AVX (1u << 28)
#define CPUID1_ECX_HYPERVISOR (1u << 31)

/* A hypervisor whose CPUID.(EAX=0DH,ECX=1):EAX is 0: QEMU's TCG hangs on
 * setting CR4.OSXSAVE there (xcr0.h). */
static int osxsave_hangs(const struct xcr0_cpuid *in)
{
	return (in->ecx1 & CPUID1_ECX_HYPERVISOR) && !in->ext;
}

void xcr0_cpuid_read(cpuid_fn *f, void *ctx, struct xcr0_cpuid *in)
{
	uint32_t r[4];
	f(ctx, 0, 0, r);
	in->max_basic = r[0];
	in->ecx1 = 0;
	in->supported = 0;
	in->ext = 0;
	if (in->max_basic >= 1) {
		f(ctx, 1, 0, r);
		in->ecx1 = r[2];
	}
	if (in->max_basic >= 0xD) {
		f(ctx, 0xD, 0, r);
		in->supported = ((uint64_t)r[3] << 32) | r[0];
		f(ctx, 0xD, 1, r);
		in->ext = r[0];
	}
}

uint64_t xcr0_choose(const struct xcr0_cpuid *in)
{
	const uint64_t base = XCR0_X87 | XCR0_SSE;
	if (!(in->ecx1 & CPUID1_ECX_XSAVE) || in->max_basic < 0xD || (in->supported & base) != base ||
	    osxsave_hangs(in))
		return 0;
	uint64_t x = base;
	if (in->supported & XCR0_AVX) {
		x |= XCR0_AVX;
		if ((in->supported & XCR0_AVX512) == XCR0_AVX512)
			x |= XCR0_AVX512;
	}
	return x;
}

char *xcr0_line(char *buf, size_t size, const struct xcr0_cpuid *in, uint64_t xcr0, uint32_t area_bytes)
{
	static const char *const names[8] = { "x87", "SSE", "AVX", 0, 0, "opmask", "ZMM_Hi256", "Hi16_ZMM" };
	if (!(in->ecx1 & CPUID1_ECX_XSAVE)) {
		fmt_format(buf, size, "env: xsave: XSAVE not supported (CPUID.1:ECX[26]=0): "
			   "vector state beyond SSE unavailable");
		return buf;
	}
	if (!xcr0) {
		if (in->max_basic < 0xD)
			fmt_format(buf, size, "env: xsave: XSAVE not used: CPUID leaf 0DH is beyond the maximum "
				   "basic leaf 0x%x: vector state beyond SSE unavailable", in->max_basic);
		else if ((in->supported & (XCR0_X87 | XCR0_SSE)) != (XCR0_X87 | XCR0_SSE))
			fmt_format(buf, size, "env: xsave: XSAVE not used: CPUID.(EAX=0DH,ECX=0):EAX=0x%x does "
				   "not enumerate both x87 and SSE (bits 1:0): vector state beyond SSE unavailable",
				   (uint32_t)in->supported);
		else
			fmt_format(buf, size, "env: xsave: XSAVE not used: a hypervisor (CPUID.1:ECX[31]=1) "
				   "with CPUID.(EAX=0DH,ECX=1):EAX=0 (no XSAVEOPT, XSAVEC, XGETBV1, XSAVES): QEMU's "
				   "TCG takes CR4.OSXSAVE as reserved there and hangs on the MOV to CR4 that sets it: "
				   "vector state beyond SSE unavailable");
		return buf;
	}
	char list[80] = "";
	size_t n = 0;
	for (int i = 0; i < 8; i++)
		if (names[i] && (xcr0 >> i) & 1)
			n += (size_t)fmt_format(list + n, sizeof list - n, "%s%s", n ? ", " : "", names[i]);
	int at = fmt_format(buf, size, "env: xsave: XCR0=0x%llx (%s; CPUID.(EAX=0DH,ECX=0):EDX:EAX=0x%llx), "
			    "save area %u bytes (CPUID.(EAX=0DH,ECX=0):EBX)", (unsigned long long)xcr0, list,
			    (unsigned long long)in->supported, area_bytes);
	size_t used = at < 0 ? 0 : (size_t)at < size ? (size_t)at : size - 1;
	if (!(in->ecx1 & CPUID1_ECX_AVX))
		fmt_format(buf + used, size - used, "; AVX: not available (CPUID.1:ECX.AVX[28]=0)");
	else if (!(xcr0 & XCR0_AVX))
		fmt_format(buf + used, size - used, "; AVX: not available (CPUID.(EAX=0DH,ECX=0):EAX[2]=0)");
	else if (!(xcr0 & XCR0_OPMASK))
		fmt_format(buf + used, size - used, "; AVX-512: not available (CPUID.(EAX=0DH,ECX=0):EAX[7:5]=0x%x)",
			   (unsigned)(in->supported >> 5) & 7);
	return buf;
}

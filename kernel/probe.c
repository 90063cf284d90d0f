/* kernel/probe.c - see probe.h. */
#include "probe.h"
#include "console.h"
#include "cpu.h"
#include "mem.h"
#include "paging.h"
#include "pmu.h"
#include "runid.h"
#include "smbios.h"
#include "xsave.h"
#include "../lib/fmt.h"
#include "../lib/url.h"
#include "../lib/record.h"

/* probe_max_basic - CPUID.00H:EAX, for lib/cpuidlimit.c. Weak: a test
 * build (tests/boot/cpuid_limit_test.c) plays a BIOS that set the limit,
 * which QEMU's CPUID does not model. */
uint32_t probe_max_basic(void *ctx);
__attribute__((weak)) uint32_t probe_max_basic(void *ctx)
{
	(void)ctx;
	return cpuid(0, 0).eax;
}

void probe_cpu(struct cpu_info *c)
{
	cpuinfo_read(cpuid_into, 0, c);
	/* The limit lifted before any leaf above 2 counts: the leaves are read
	 * again when it was cleared (kernel/pmu.c's backend wraps the
	 * fault-safe MSR accessors). */
	struct cpuid_limit limit;
	const struct cpuid_limit_ops limit_ops = { 0, probe_max_basic, pmu_kernel_backend.rdmsr,
						   pmu_kernel_backend.wrmsr, pmu_kernel_backend.fault_name };
	cpuid_limit_lift(&limit_ops, cpu_vendor_is(c, "GenuineIntel"), c->family, c->model, &limit);
	if (limit.cleared)
		cpuinfo_read(cpuid_into, 0, c);
	c->cpuid_limit = limit;
	xsave_enable(); /* the vector state code= may use: XCR0 */
}

void probe_print(const struct cpu_info *c, const struct boot_info *bi)
{
	uint64_t usable_mib = mem_total_usable() >> 20;

	/* Vendor, brand and hypervisor strings come from CPUID, which a
	 * hypervisor sets as it likes (QEMU -cpu ...,model-id=): escaped. */
	char h1[64], h2[256], h3[64];
	fmt_escape(h1, sizeof h1, c->vendor, sizeof c->vendor);
	fmt_escape(h2, sizeof h2, c->brand, sizeof c->brand);
	fmt_escape(h3, sizeof h3, c->hv_vendor, sizeof c->hv_vendor);
	kprintf("env: cpu: %s family 0x%x model 0x%x stepping %u (CPUID.1:EAX=0x%08x)\n",
		h1, c->family, c->model, c->stepping, c->signature);
	kprintf("env: brand: %s\n", c->brand[0] ? h2 : "(none: CPUID.80000000H:EAX < 80000004H)");
	kprintf("env: cpuid: max basic leaf 0x%x, max extended leaf 0x%x\n", c->max_basic, c->max_ext);
	if (c->cpuid_limit.line[0])
		kprintf("%s\n", c->cpuid_limit.line);
	kprintf("env: tsc: %s (CPUID.1:EDX[4]=%d)\n", c->has_tsc ? "yes" : "NO", c->has_tsc);
	kprintf("env: rdtscp: %s (CPUID.80000001H:EDX[27]=%d)\n", c->has_rdtscp ? "yes" : "no",
		c->has_rdtscp);
	kprintf("env: invariant tsc: %s (CPUID.80000007H:EDX[8]=%d)\n",
		c->invariant_tsc ? "yes" : "no", c->invariant_tsc);
	kprintf("env: serialize: %s (CPUID.(EAX=07H,ECX=0):EDX[14]=%d)\n",
		c->has_serialize ? "yes" : "no", c->has_serialize);
	xsave_print();
	if (c->hypervisor)
		kprintf("env: hypervisor: yes (CPUID.1:ECX[31]=1), vendor \"%s\": CPUID, and perhaps RDTSC, exit to it; figures include that\n",
			h3);
	else
		kprintf("env: hypervisor: none reported (CPUID.1:ECX[31]=0)\n");
	uint64_t pool = mem_pool_start();
	kprintf("env: memory: %llu MiB usable (%s): %llu MiB below 4 GiB, %llu MiB above; "
		"%llu MiB free for sample buffers from 0x%llx (%s 4 GiB)\n",
		(unsigned long long)usable_mib,
		bi->nmmap ? "loader memory map" : bi->has_meminfo ? "basic meminfo" : "no information",
		(unsigned long long)(mem_usable_below_4g() >> 20), (unsigned long long)(mem_usable_above_4g() >> 20),
		(unsigned long long)(mem_free_bytes() >> 20), (unsigned long long)pool,
		pool >= MEM_4G ? "above" : "below");
	char paging[640];
	paging_describe(paging, sizeof paging);
	kprintf("%s\n", paging);
	/* The loader's strings, escaped (lib/fmt.h): a newline in the command
	 * line must not start a line of its own (a fake final line or record). */
	static char esc[4000];
	kprintf("env: boot: multiboot%d, loader \"%s\"\n", bi->protocol,
		bi->loader[0] ? fmt_escape(esc, sizeof esc, bi->loader, sizeof bi->loader) : "(not given)");
	/* A send= token (the lab collector's password) shown as '*' (lib/url.h). */
	fmt_escape(esc, sizeof esc, bi->cmdline, sizeof bi->cmdline);
	url_mask_secrets(esc, sizeof esc);
	kprintf("env: command line: \"%s\"\n", esc);

	struct rec r;
	rec_begin(&r, "env");
	rec_str(&r, "run_id", runid_text()); /* kernel/runid.h */
	rec_strn(&r, "vendor", c->vendor, sizeof c->vendor);
	rec_strn(&r, "brand", c->brand, sizeof c->brand);
	rec_u64(&r, "family", c->family);
	rec_u64(&r, "model", c->model);
	rec_u64(&r, "stepping", c->stepping);
	rec_u64(&r, "signature", c->signature);
	rec_i64(&r, "tsc", c->has_tsc);
	rec_i64(&r, "rdtscp", c->has_rdtscp);
	rec_i64(&r, "invariant_tsc", c->invariant_tsc);
	rec_i64(&r, "serialize", c->has_serialize);
	rec_i64(&r, "hypervisor", c->hypervisor);
	rec_strn(&r, "hypervisor_vendor", c->hv_vendor, sizeof c->hv_vendor);
	rec_u64(&r, "memory_usable_mib", usable_mib);
	rec_u64(&r, "memory_below_4g_mib", mem_usable_below_4g() >> 20);
	rec_u64(&r, "memory_above_4g_mib", mem_usable_above_4g() >> 20);
	rec_u64(&r, "buffers_from", pool);
	rec_i64(&r, "boot_protocol", bi->protocol);
	rec_strn(&r, "loader", bi->loader, sizeof bi->loader);
	rec_strn_masked(&r, "cmdline", bi->cmdline, sizeof bi->cmdline, url_secret_at);
	smbios_env(&r); /* system, board, bios, system_uuid, smbios */
	rec_end(&r);
}

/* kernel/machine.c - see machine.h. */
#include "machine.h"
#include "console.h"
#include "cpu.h"
#include "msr.h"
#include "trap.h"
#include "../lib/fmt.h"
#include "../lib/lfence.h"
#include "../lib/record.h"

static int is_intel(const struct cpu_info *c)
{
	return cpu_vendor_is(c, "GenuineIntel");
}

/* The revision as SDM Vol. 3A 10.11.7.1 reads it (see quiet_microcode). */
static int microcode_read(const struct cpu_info *c, uint64_t *rev)
{
	uint64_t v;
	*rev = 0;
	if (is_intel(c)) {
		/* SDM Vol. 3A 10.11.7.1: clear, CPUID(1) loads the signature, read. */
		(void)wrmsr_safe(MSR_BIOS_SIGN_ID, 0);
		(void)cpuid(1, 0);
		if (rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
			return -1;
		*rev = v >> 32;
		return 0;
	}
	if (c->is_amd) {
		if (rdmsr_safe(MSR_BIOS_SIGN_ID, &v))
			return -1;
		*rev = v & 0xFFFFFFFFu;
		return 0;
	}
	return -1;
}

int quiet_microcode(const struct cpu_info *c, uint64_t *rev)
{
	/* Read once: the revision cannot change during a run (nothing loads
	 * microcode), and on Intel the read writes the MSR. */
	static int read_done, result;
	static uint64_t revision;
	if (!read_done) {
		result = microcode_read(c, &revision);
		read_done = 1;
	}
	*rev = revision;
	return result;
}

/* machine_smi_read - one RDMSR of MSR_SMI_COUNT: 0, or the fault
 * (rdmsr_safe, kernel/trap.h). Weak, so that a test build can make it
 * fault as on a CPU or hypervisor without the MSR (tests/boot/smi_gp_test.c). */
int machine_smi_read(uint64_t *v);
__attribute__((weak)) int machine_smi_read(uint64_t *v)
{
	return rdmsr_safe(MSR_SMI_COUNT, v);
}

/* quiet_smi_count with the fault: 0, -1 (not Intel: not read), or the
 * read's fault (TRAP_FAULTED | vector). */
static int smi_count_read(const struct cpu_info *c, uint64_t *count)
{
	uint64_t v;
	*count = 0;
	if (!is_intel(c))
		return -1;
	int err = machine_smi_read(&v);
	if (!err)
		*count = v & 0xFFFFFFFFu;
	return err;
}

int quiet_smi_count(const struct cpu_info *c, uint64_t *count)
{
	return smi_count_read(c, count) ? -1 : 0;
}

/* The smi count line when MSR_SMI_COUNT faulted: what faulted and what is
 * known of the CPU, no guess at why. SDM Vol. 4 lists MSR_SMI_COUNT (34H)
 * among the MSRs of Nehalem (family 6, model 1AH) and later Intel CPUs; a
 * hypervisor may or may not implement it (KVM and QEMU TCG do). */
static void smi_unreadable(const struct cpu_info *c, int err)
{
	kprintf("quiet: smi count: unreadable: RDMSR of MSR_SMI_COUNT (34H) raised %s (vector %d) on %s family 0x%x model "
		"0x%x stepping %u (CPUID.1:EAX=0x%08x); CPUID.1:ECX[31]=%d: %s%s%s; SMIs are not counted (the "
		"SDM lists this MSR from Nehalem, family 6 model 1AH, on)\n",
		trap_fault_string(err), err & 0xFF, c->vendor, c->family, c->model, c->stepping, c->signature,
		c->hypervisor ? 1 : 0, c->hypervisor ? "a hypervisor is present, vendor \"" : "no hypervisor present",
		c->hypervisor ? c->hv_vendor : "", c->hypervisor ? "\"" : "");
}

int quiet_ratios(const struct cpu_info *c, uint32_t *max_nonturbo, uint32_t *current)
{
	uint64_t v;
	int got = 0;
	*max_nonturbo = *current = 0;
	if (!is_intel(c))
		return 0;
	/* A ratio of 0 is no ratio: what QEMU TCG returns for an MSR it does
	 * not implement; it counts as not read. */
	if (!rdmsr_safe(MSR_PLATFORM_INFO, &v) && ((v >> 8) & 0xFF)) {
		*max_nonturbo = (uint32_t)(v >> 8) & 0xFF;
		got |= 1;
	}
	if (!rdmsr_safe(MSR_PERF_STATUS, &v) && ((v >> 8) & 0xFF)) {
		*current = (uint32_t)(v >> 8) & 0xFF;
		got |= 2;
	}
	return got;
}

/* The LFENCE check (lib/lfence.h's rules, then DE_CFG); returns 1
 * serializing, 0 not, -1 unknown. Every "not settled" line ends in
 * LFENCE_NOT_KNOWN, as the methods' skip reason does. */
static int quiet_lfence(const struct cpu_info *c)
{
	if (lfence_known(c->lfence_rule)) {
		kprintf("quiet: lfence: %s\n", lfence_why(c->lfence_rule));
		return 1;
	}
	if (c->lfence_rule == LFENCE_UNKNOWN) {
		kprintf("quiet: lfence: unknown on vendor %s (documented for Intel and AMD only): the LFENCE "
			"methods are skipped; the paper's CPUID and RDTSCP methods do not depend on it\n",
			c->vendor);
		return -1;
	}
	/* AMD's families 0Fh and 11h under a hypervisor: the family is the
	 * hypervisor's to say, so the MSR decides (lfence_rule). */
	const char *fam = (c->family == 0xF || c->family == 0x11) && c->hypervisor
				  ? " (AMD's rule for families 0Fh and 11h not applied: under a hypervisor "
				    "CPUID's family is the hypervisor's)"
				  : "";
	uint64_t v, after;
	int err = rdmsr_safe(MSR_AMD_DE_CFG, &v);
	if (err) {
		kprintf("quiet: lfence: DE_CFG (MSR C0011029H) unreadable (%s) and CPUID.80000021H:EAX[2] "
			"not set: " LFENCE_NOT_KNOWN "%s\n", trap_fault_string(err), fam);
		return -1;
	}
	if (v & 2) {
		kprintf("quiet: lfence: serializing: DE_CFG[1] already set (DE_CFG=0x%llx)\n",
			(unsigned long long)v);
		return 1;
	}
	err = wrmsr_safe(MSR_AMD_DE_CFG, v | 2);
	if (err) {
		kprintf("quiet: lfence: setting DE_CFG[1] FAILED (%s; DE_CFG=0x%llx): " LFENCE_NOT_KNOWN
			"%s\n", trap_fault_string(err), (unsigned long long)v, fam);
		return 0;
	}
	err = rdmsr_safe(MSR_AMD_DE_CFG, &after);
	int ok = !err && (after & 2);
	kprintf("quiet: lfence: set DE_CFG[1] (0x%llx -> %s0x%llx): %s%s\n", (unsigned long long)v,
		err ? "unreadable, " : "", (unsigned long long)after,
		ok ? "serializing now" : "the bit did not stick: " LFENCE_NOT_KNOWN, ok ? "" : fam);
	return ok;
}

/* A JSON number, or null when have is 0; buf holds 24 bytes. */
static const char *num_or_null(char *buf, int have, uint64_t v)
{
	if (!have)
		return "null";
	fmt_format(buf, 24, "%llu", (unsigned long long)v);
	return buf;
}

int quiet_cpu_report(const struct cpu_info *c)
{
	uint64_t ucode = 0, smi = 0, misc = 0;
	int have_ucode = quiet_microcode(c, &ucode) == 0;
	if (have_ucode)
		kprintf("quiet: microcode: revision 0x%llx (MSR 8BH, %s)\n", (unsigned long long)ucode,
			is_intel(c) ? "IA32_BIOS_SIGN_ID[63:32] after CPUID(1)" : "PATCH_LEVEL[31:0]");
	else
		kprintf("quiet: microcode: unknown (%s)\n",
			is_intel(c) || c->is_amd ? "MSR 8BH faulted" : "not Intel or AMD");

	int smi_err = smi_count_read(c, &smi), have_smi = smi_err == 0;
	if (have_smi)
		kprintf("quiet: smi count: %llu since reset (MSR_SMI_COUNT 34H); read it around "
			"measurements to count SMIs inside\n", (unsigned long long)smi);
	else if (is_intel(c))
		smi_unreadable(c, smi_err);
	else
		kprintf("quiet: smi count: skipped: MSR_SMI_COUNT is Intel's\n");

	uint32_t maxr, curr;
	int got = quiet_ratios(c, &maxr, &curr);
	int have_misc = is_intel(c) && rdmsr_safe(MSR_MISC_ENABLE, &misc) == 0;
	if (!is_intel(c)) {
		kprintf("quiet: ratios: skipped: MSR_PLATFORM_INFO and IA32_PERF_STATUS are Intel's "
			"(vendor %s)\n", c->vendor);
	} else {
		char r1[24], r2[24];
		kprintf("quiet: ratios: max non-turbo %s (MSR_PLATFORM_INFO[15:8]), current %s "
			"(IA32_PERF_STATUS[15:8]); x 100 MHz bus since Sandy Bridge\n",
			got & 1 ? num_or_null(r1, 1, maxr) : "unknown (faulted or 0)",
			got & 2 ? num_or_null(r2, 1, curr) : "unknown (faulted or 0)");
		if (have_misc)
			kprintf("quiet: turbo: %s (IA32_MISC_ENABLE[38]); EIST: %s (IA32_MISC_ENABLE[16])\n",
				(misc >> 38) & 1 ? "disabled" : "not disabled", (misc >> 16) & 1 ? "enabled" : "disabled");
		else
			kprintf("quiet: turbo/EIST: unknown (IA32_MISC_ENABLE unreadable)\n");
	}

	int lf = quiet_lfence(c);

	struct rec r;
	rec_begin(&r, "machine");
	rec_u64_or_null(&r, "microcode", have_ucode, ucode);
	rec_u64_or_null(&r, "smi_count", have_smi, smi);
	rec_u64_or_null(&r, "max_nonturbo_ratio", got & 1, maxr);
	rec_u64_or_null(&r, "current_ratio", (got & 2) != 0, curr);
	if (lf < 0)
		rec_null(&r, "lfence_serializing");
	else
		rec_bool(&r, "lfence_serializing", lf > 0);
	rec_end(&r);
	return lf;
}

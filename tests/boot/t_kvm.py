"""tests/boot/t_kvm.py - the image under KVM (tests/boot/kvm.py), when
/dev/kvm works: the real CPU, a real clock, the hypervisor's MSR faults.
Skipped, with the reason, where /dev/kvm does not work; the workloads the
hypervisor cannot run are left out with a note in the test output."""
from kvm import kvm_ignore_msrs, kvm_vector_limit, kvm_workloads, qemu_kvm
from qemu import METHODS, Skip, check, expect_complete, expect_method_ran


def note(text):
    print(f"    note: {text}")


def test_kvm_vector_workloads():
    """The vector workloads alone: they complete, or the hypervisor stops at
    one of their vector instructions (SKIP: its limit). A stop anywhere else
    fails: the set-up must get through (-mgeneral-regs-only)."""
    why = kvm_vector_limit()
    if why:
        raise Skip(why)


def test_kvm():
    """Every method the CPU has, every default workload the hypervisor can
    run: the run completes, the PIT calibration measures a TSC rate, and a
    real CPU takes time for 256 dependent ADDs (TCG under -icount is exact,
    without it host time; here it is the CPU's)."""
    workloads, why = kvm_workloads()
    if why:
        note(why)
    rc, text = qemu_kvm("kvm", f"ensembles=3 samples=100 warmup=10 workloads={workloads}")
    run = expect_complete(rc, text)
    env = run.one("env")
    check(env["hypervisor"] == 1 and env["hypervisor_vendor"] == "KVMKVMKVM", f"not under KVM: {env}", text)
    rate = run.one("tsc_rate")
    check(rate["hz"] and 10 ** 8 < rate["hz"] < 10 ** 10 and 0 < rate["ppm"] < 10000,
          f"no plausible TSC rate from a real clock: {rate}", text)
    ran = [m for m in METHODS if not run.by("skip", method=m)]
    check(ran, "no method of the paper's ran", text)
    for m in ran:
        expect_method_ran(run, m, 3, 100)
        for w in workloads.split(","):
            s = [r for r in run.by("summary", method=m, workload=w) if r["unit"] == "tsc_ticks"]
            check(len(s) == 1, f"{m}/{w}: {len(s)} summaries in TSC ticks, expected 1", text)
            check(w != "add_chain_256" or s[0]["min_of_mins"] > s[0]["offset"],
                  f"{m}/{w}: 256 dependent ADDs take no time beyond the offset: {s[0]}", text)


def pmu_line(run, name):
    lines = [l for l in run.lines if l.startswith(f"env: pmu: {name} ")]
    check(len(lines) == 1, f"expected one 'env: pmu: {name}' line, found {len(lines)}", run.text)
    return lines[0]


def test_kvm_msr_faults():
    """pmu=force under KVM: the safe accessors survive the hypervisor's #GP
    on MSRs it does not implement (TCG reads them as 0 instead), and the
    env lines and the pmu record name the faulting MSR. With kvm.ignore_msrs
    off (the default) the faults are certain for IA32_APERF (MSR E8H) when
    CPUID.06H:ECX[0] is 0, and for IA32_PERF_GLOBAL_CTRL (MSR 38FH) when
    CPUID.0AH reports no PMU."""
    rc, text = qemu_kvm("kvm-msr", "ensembles=2 samples=50 warmup=10 pmu=force "
                        "methods=cr0,ctr_rdmsr,ctr_rdpmc workloads=measured_function")
    run = expect_complete(rc, text)
    pmu = run.one("pmu")
    check(pmu["mode"] == "force", f"pmu record {pmu}", text)
    if kvm_ignore_msrs() != "N":
        note(f"kvm.ignore_msrs is {kvm_ignore_msrs()!r}, not 'N': unimplemented MSRs read 0 without a fault; "
             "only the completed run is checked")
        return
    asserted = 0
    aperf = pmu_line(run, "aperf")
    if "although CPUID.06H:ECX[0]=0" in aperf:
        check(": no: RDMSR 0xe8 (IA32_APERF) faulted: #GP;" in aperf, f"IA32_APERF did not fault: {aperf}", text)
        c = [c for c in pmu["counters"] if c["name"] == "aperf"]
        check(c and c[0]["state"] == "faulted" and c[0]["why"] == "RDMSR 0xe8 (IA32_APERF) faulted: #GP",
              f"pmu record's aperf counter: {c}", text)
        asserted += 1
    if pmu["version"] == 0:
        want = "WRMSR 0x38f (IA32_PERF_GLOBAL_CTRL) <- 0x0 faulted: #GP"
        check(pmu["error"] == want, f"pmu record error {pmu['error']!r}, expected {want!r}", text)
        check(run.has_line("env: pmu: programming fault: " + want), "no 'programming fault' line", text)
        for m in ("ctr_rdmsr", "ctr_rdpmc"):
            run.one("skip", method=m)
        asserted += 1
    if not asserted:
        note("this KVM implements IA32_APERF and the PMU: no fault is certain; only the completed run is checked")

"""tests/boot/t_models.py - every x86 CPU model this QEMU lists (`-cpu
help`, read when the test runs) boots to its final line under TCG, or, a
model without long mode, to the one FATAL line (boot/entry.asm). Each boot
is tiny (2 ensembles of 10 samples, no workload) and bounded in time; two
run at a time (CI has 2 cores). Before lib/xcr0.c declined XSAVE where
QEMU's TCG hangs on CR4.OSXSAVE (lib/xcr0.h), Opteron_G4, Opteron_G4-v1,
Opteron_G5 and Opteron_G5-v1 printed the banner and then nothing."""
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

from qemu import EXIT_FAILURE, LOGS, check, clean_lines, expect_complete, qemu
from t_faults import NO_LONG_MODE

TINY = "ensembles=2 samples=10 workloads=none"
JOBS = 2        # QEMUs at a time
BOOT_TIMEOUT = 60  # seconds a boot may take: about 1 s each under TCG here
# Models -cpu help lists that TCG cannot run: QEMU refuses them ("requires
# KVM or HVF"); tests/boot/kvm.py boots -cpu host under KVM.
NOT_TCG = {"host": "needs KVM or HVF (tests/boot/kvm.py runs it)"}
QEMU_SAYS = "qemu-system-x86_64: "  # QEMU's own warnings, mixed into the output


def listed_models():
    """The names of `qemu-system-x86_64 -cpu help`'s "x86 NAME ..." lines,
    aliases included (an alias may resolve to another version per machine
    type)."""
    p = subprocess.run(["qemu-system-x86_64", "-cpu", "help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=30)
    text = p.stdout.decode("utf-8", "replace")
    names = [line.split()[1] for line in text.splitlines() if line.startswith("x86 ") and len(line.split()) > 1]
    check(p.returncode == 0 and len(names) >= 20, f"-cpu help: status {p.returncode}, {len(names)} x86 models", text)
    return names


def kernel_lines(text):
    """The non-empty lines of text that are not QEMU's own warnings."""
    return [l for l in clean_lines(text) if l.strip() and not l.startswith(QEMU_SAYS)]


def boot(model):
    """None when -cpu model ended as it should (complete, or the FATAL
    line and exit status 35); else what went wrong, in one line."""
    try:
        rc, text = qemu(f"model-{model}", "q35-tcg", TINY, cpu=model, timeout=BOOT_TIMEOUT)
    except AssertionError:  # the timeout: QEMU killed, the log kept
        with open(os.path.join(LOGS, f"test-model-{model}.log"), encoding="utf-8") as f:
            last = kernel_lines(f.read().split("\n", 1)[-1])[-1:]
        return f"{model}: did not finish in {BOOT_TIMEOUT} s; its last line: {last[0] if last else '(none)'}"
    kernel = kernel_lines(text)
    if NO_LONG_MODE in kernel:
        if kernel == [NO_LONG_MODE] and rc == EXIT_FAILURE:
            return None
        return f"{model}: the FATAL line, but exit status {rc} and {len(kernel)} lines"
    try:
        expect_complete(rc, text)
    except AssertionError as e:
        return f"{model}: " + " | ".join(l.strip() for l in str(e).splitlines()[:1] + kernel[-2:])
    return None


def test_every_cpu_model_ends():
    models = [m for m in listed_models() if m not in NOT_TCG]
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        failed = [f for f in pool.map(boot, models) if f]
    check(not failed, f"{len(failed)} of {len(models)} CPU models did not end with their final line or "
          f"the no-long-mode FATAL line (logs build/logs/test-model-*.log):\n" + "\n".join(failed))

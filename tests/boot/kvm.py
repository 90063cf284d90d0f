"""tests/boot/kvm.py - QEMU runs under KVM (-accel kvm): the real CPU, a
real clock and the hypervisor's own MSR faults, none of which TCG gives.

A hypervisor may stop the guest with "KVM internal error" on an instruction
its emulator cannot handle (this machine's kvm_pvm module emulates the
guest's ring-0 instructions and has no MMX: it stops at vaddb's first MMX
instruction). QEMU then pauses the guest for ever, so a run is stopped as
soon as QEMU says so, and the error names the function and instruction at
the guest's RIP. The tests run every workload the hypervisor can run: the
vector workloads (those whose sampling loops use x87/MMX/SSE, from the
image's disassembly) are tried once on their own, and left out of the other
runs, with a note, when the hypervisor stops on them. A stop anywhere else
is a failure: the kernel's own code uses only the general registers."""
import bisect
import os
import re
import subprocess
import time

import machines
from qemu import KERNEL32, Skip, check, command, expect_complete, run_files, tail
from runner import once
from vector import disassemble, registered_workloads, sampling_loop, vector_workloads

ELF = os.path.join(os.path.dirname(KERNEL32), "bench.elf")
KVM_INTERNAL = "KVM internal error"
# The workloads that run by default (README "Boot parameters": all but these).
NOT_DEFAULT = {"empty", "measured_loop"}


class KvmStopped(AssertionError):
    """The hypervisor stopped the guest: rip, function (the image's symbol
    at or below rip), insn (the instruction there) and workload (when the
    function is a sampling loop)."""

    def __init__(self, msg, rip, function, insn, workload):
        super().__init__(msg)
        self.rip, self.function, self.insn, self.workload = rip, function, insn, workload


def kvm_modules():
    """The kvm* kernel modules loaded on this host, e.g. 'kvm, kvm_intel'."""
    try:
        return ", ".join(sorted(m for m in os.listdir("/sys/module") if m.startswith("kvm"))) or "none"
    except OSError:
        return "unknown"


def kvm_ignore_msrs():
    """kvm.ignore_msrs: 'N' (an MSR KVM does not handle raises #GP in the
    guest, the default), 'Y' (it reads 0), or None when unknown."""
    try:
        with open("/sys/module/kvm/parameters/ignore_msrs") as f:
            return f.read().strip()
    except OSError:
        return None


def where(rip):
    """(function, instruction) of the image at rip."""
    insns = disassemble(ELF)
    addrs = [a for _, a, _, _ in insns]
    i = bisect.bisect_right(addrs, rip) - 1
    if i < 0:
        return "?", "?"
    f, a, m, o = insns[i]
    return f, (f"{m} {o}".split("#")[0].strip() if a == rip else f"(inside {f}+0x{rip - a:x})")


def qemu_kvm(name, append, smp=None):
    """A run of the kernel on machine kvm-host (-cpu host -accel kvm;
    smp: -smp); (exit status, text) like qemu.qemu(). Skips when /dev/kvm is
    not usable or QEMU cannot use KVM; raises KvmStopped when the hypervisor
    stops the guest."""
    cmd = command(name, "kvm-host", append, smp=smp)
    timeout = machines.get("kvm-host").timeout
    log_path = run_files(name) + ".log"

    def read():
        with open(log_path, "rb") as f:
            f.seek(start)
            return f.read().decode("utf-8", errors="replace")
    with open(log_path, "wb") as log:
        log.write((" ".join(cmd) + "\n").encode())
        log.flush()
        start = log.tell()
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        end = time.time() + timeout
        try:
            while p.poll() is None:
                text = read()
                if KVM_INTERNAL in text:
                    dump_end = time.time() + 10  # the register dump follows
                    while "Code=" not in text and time.time() < dump_end:
                        time.sleep(0.2)
                        text = read()
                    raise stopped(text, log_path)
                if time.time() > end:
                    raise AssertionError(f"QEMU timed out after {timeout} s (log {log_path})\n" + tail(text))
                time.sleep(0.2)
        finally:
            if p.poll() is None:
                p.kill()
            p.wait()
    text = read()
    lines = text.replace("\r", "").split("\n")
    if p.returncode not in (33, 35) and "kvm" in text.lower() and not any(
            l.startswith(("bench", "console: ")) for l in lines):
        raise Skip(f"QEMU could not use KVM (exit status {p.returncode}):\n" + tail(text, 3))
    return p.returncode, text


def stopped(text, log_path):
    m = re.search(r"^RIP=([0-9a-f]+)", text, re.M)
    rip = int(m.group(1), 16) if m else None
    function, insn = where(rip) if rip is not None else ("?", "?")
    loop = sampling_loop(function)
    return KvmStopped(f"the host's KVM (modules: {kvm_modules()}) stopped the guest with '{KVM_INTERNAL}' "
                      f"at RIP 0x{rip or 0:x}: {insn} in {function} (log {log_path})\n" + tail(text, 6),
                      rip, function, insn, loop[0] if loop else None)


def kvm_vector_limit():
    """None when the vector workloads run under this host's KVM, else why
    not (the hypervisor stopped at a vector instruction of one of their
    sampling loops). Tried once, alone (methods=cr0, one sample), and
    remembered (runner.once: the tests that ask at the same time wait for
    it). Raises KvmStopped for a stop anywhere else."""
    return once("kvm-vector", probe_vector)


def probe_vector():
    vec = vector_workloads(ELF)
    if vec:
        try:
            rc, text = qemu_kvm("kvm-vector", f"methods=cr0 workloads={','.join(vec)} "
                                "ensembles=1 samples=1 warmup=0")
            expect_complete(rc, text)
        except KvmStopped as e:
            if e.workload not in vec:
                raise
            return (f"left out {', '.join(vec)}: the host's KVM (modules: {kvm_modules()}) cannot "
                    f"run {e.workload}: it stopped the guest ('{KVM_INTERNAL}') at its "
                    f"'{e.insn}' (RIP 0x{e.rip:x}, {e.function}); a hypervisor limit")
    return None


def kvm_workloads():
    """(the default workloads this host's KVM can run, as a workloads=
    value; a note saying what was left out and why, or None)."""
    why = kvm_vector_limit()
    left_out = set(vector_workloads(ELF)) if why else set()
    names = [w for w in registered_workloads(ELF) if w not in NOT_DEFAULT | left_out]
    check(names, "no workload left to run under KVM")
    return ",".join(names), why

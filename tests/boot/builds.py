"""tests/boot/builds.py - what the boot tests build beside the image `make
kernel iso` made: kernels with a test's own C files (the Makefile's
EXTRA_SRC), each in its own directory build/NAME, and the Makefile's other
targets they run (make netboot, make run). The tests run in parallel
(tests/boot/run_boot_tests.py): a variant or netboot/ is made once per
suite run, whichever test asks first, and never two makes work in one
build directory at once."""
import os
import shutil
import subprocess
import threading

from qemu import BUILD, ROOT, Skip, check
from runner import once

_locks, _locks_lock = {}, threading.Lock()


def make(args, build=BUILD, timeout=600, **kw):
    """make -C ROOT BUILD=build ARGS, alone in that build directory;
    subprocess.run's result (kw: capture_output, text... as there)."""
    with _locks_lock:
        lock = _locks.setdefault(os.path.abspath(build), threading.Lock())
    with lock:
        return subprocess.run(["make", "-C", ROOT, f"BUILD={build}"] + args, timeout=timeout, **kw)


def variant(name, sources):
    """build/NAME: `make kernel` with EXTRA_SRC=sources (paths from the top
    of the tree, space-separated), once; its directory (bench.elf,
    bench32.elf). AssertionError with make's output when it fails."""
    build = os.path.join(BUILD, name)

    def build_it():
        p = make([f"EXTRA_SRC={sources}", "kernel"], build, capture_output=True, text=True)
        check(p.returncode == 0, f"make kernel EXTRA_SRC={sources} into {build} failed:\n"
              + p.stdout[-2000:] + p.stderr[-2000:])
        return build
    return once(("variant", build), build_it)


def fake_pmu():
    """build/fakepmu: `make FAKE_PMU=1 kernel iso`, the fake PMU test build
    (kernel/pmu.h BENCH_FAKE_PMU), once; its directory. AssertionError with
    make's output when it fails."""
    build = os.path.join(BUILD, "fakepmu")

    def build_it():
        p = make(["FAKE_PMU=1", "kernel", "iso"], build, capture_output=True, text=True)
        check(p.returncode == 0, f"make FAKE_PMU=1 kernel iso into {build} failed:\n"
              + p.stdout[-2000:] + p.stderr[-2000:])
        return build
    return once(("variant", build), build_it)


def netboot():
    """build/netboot, `make netboot`'s TFTP root (iso/netboot.mk), made once
    (both network boots serve it: made again under one, it would go away);
    Skip when grub-mknetdir is not installed."""
    if not shutil.which("grub-mknetdir"):
        raise Skip("grub-mknetdir is not installed (Debian package grub-common)")

    def build_it():
        p = make(["netboot"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        check(p.returncode == 0, "make netboot failed", p.stdout.decode("utf-8", errors="replace"))
        return os.path.join(BUILD, "netboot")
    return once("netboot", build_it)

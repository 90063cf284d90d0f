"""tests/boot/bochs.py - the second emulator: Bochs 2.7 (Debian's bochs,
bochsbios, vgabios and bochs-sdl packages; tools/deps.sh installs them),
its machines in one table and the one way to run them. Bochs emulates
real CPU models (their CPUID, MSRs and instruction sets: `bochs -help cpu`)
with its own BIOS and VGA BIOS, so the image meets firmware and CPUs QEMU
does not have.

Every machine boots an ISO (GRUB, multiboot2) from a CD. `clock: sync=none`
makes Bochs's time follow its instruction count: the TSC, the PIT, the
HPET and the PM timer advance ips ticks a second of emulated time, one TSC
tick an instruction, as under QEMU's -icount (exact and deterministic, and
the same on a busy host). The serial port goes into a file. Debian's Bochs
is built with its debugger, which stops before the first instruction: a
command file (-rc) says "c" (continue). Bochs has no exit device: the run
ends when the kernel's last line ("bench: halted; ...", kernel/exit.c) is
on the serial port, and the harness then kills Bochs; a run that does not
print it within the machine's timeout is killed and fails, and so does a
Bochs that exits before it (a triple fault resets the machine, and the
debugger, out of commands, ends Bochs) or whose CPU halts with interrupts
off before it (the kernel stopped without a word on the serial port).

Columns:
  cpu       cpu: model= (a real CPU's CPUID, `bochs -help cpu`)
  display   display_library: sdl2 under SDL_VIDEODRIVER=dummy (headless;
            the VGA BIOS offers 32 bpp VBE modes), or rfb (the VNC server,
            not waited for: its VBE modes are 8 bpp only, indexed colour)
  count     CPUs (cpu: count=): Bochs runs them in turn, a few instructions
            each, so each CPU's TSC moves in steps of that quantum
  ips       instructions a second of emulated time: the TSC's rate in Hz
  memory    megs:, MiB
  timeout   seconds of host time a run may take (about 50 million
            instructions a second on a busy 2-core CI box)

Runs are one at a time, after QEMU's (tests/boot/bochs_tests.py)."""
import os
import re
import shutil
import signal
import subprocess
import time
from collections import namedtuple

from machines import BUILD, ROOT
from qemu import check, run_files, tail

BIOS = "/usr/share/bochs/BIOS-bochs-latest"
VGABIOS = "/usr/share/bochs/VGABIOS-lgpl-latest"
HALTED = "bench: halted;"  # kernel/exit.c: the last line of every run that ends
# Bochs's log line when the boot CPU halts with interrupts off (the
# kernel's halt_forever, and nothing before it): nothing more will come.
# Other CPUs do so in the BIOS, waiting for their start-up IPI.
STOPPED = re.compile(r"\[CPU0 *\] WARNING: HLT instruction with IF=0")

BochsMachine = namedtuple("BochsMachine", "cpu display count ips memory timeout")

BOCHS_MACHINES = {name: BochsMachine(*row) for name, *row in [
    # name               cpu                    display  count ips       memory timeout
    # Four generations and two vendors: offsets and nets exact, as under
    # -icount. 10 MHz: a byte at 115200 baud is 870 instructions of waiting.
    ("bochs-skylake",    "corei7_skylake_x",    "sdl2",  1,    10000000, 256,   240),
    ("bochs-penryn",     "core2_penryn_t9600",  "sdl2",  1,    10000000, 256,   240),
    ("bochs-ryzen",      "ryzen",               "sdl2",  1,    10000000, 256,   240),
    ("bochs-clawhammer", "athlon64_clawhammer", "sdl2",  1,    10000000, 256,   240),
    # Firmware whose VBE has only 8 bpp (indexed) modes.
    ("bochs-rfb",        "corei7_skylake_x",    "rfb",   1,    10000000, 256,   240),
    # A faster CPU against a slow serial port, both in emulated time: at 9600
    # baud a byte takes 1.04 ms, 62,500 instructions at 60 MHz, more than
    # 10,000 status reads of 5 instructions (the fixed bound kernel/uart.c had).
    ("bochs-60mhz",      "corei7_skylake_x",    "sdl2",  1,    60000000, 256,   360),
    # Four CPUs: each one's TSC moves in steps of Bochs's quantum (5
    # instructions), which the kernel must detect and say (issue 20 item 17).
    ("bochs-4cpu",       "corei7_skylake_x",    "sdl2",  4,    10000000, 256,   360),
]}


def get(name):
    """The table's row for machine name; AssertionError for a name not in it."""
    if name not in BOCHS_MACHINES:
        raise AssertionError(f"no machine {name!r} in tests/boot/bochs.py")
    return BOCHS_MACHINES[name]


def config(machine, iso, serial, log):
    """The bochsrc text of machine booting iso from a CD, COM1 into the
    file serial, Bochs's own log into log."""
    m = get(machine)
    display = "sdl2" if m.display == "sdl2" else 'rfb, options="timeout=0"'
    return "\n".join([
        f"megs: {m.memory}",
        f"romimage: file={BIOS}",
        f"vgaromimage: file={VGABIOS}",
        f"cpu: model={m.cpu}, count={m.count}, ips={m.ips}",
        "clock: sync=none, time0=1",
        f"ata0-master: type=cdrom, path={iso}, status=inserted",
        "boot: cdrom",
        f"com1: enabled=1, mode=file, dev={serial}",
        f"display_library: {display}",
        f"log: {log}",
        "panic: action=fatal",
        "error: action=report",
        "info: action=report",
        "debug: action=ignore",
        "speaker: enabled=0",
    ]) + "\n"


def skip_reason():
    """Why Bochs cannot run here, or None."""
    if not shutil.which("bochs"):
        return "bochs is not installed (Debian packages bochs, bochsbios, vgabios, bochs-sdl; tools/deps.sh)"
    for path, pkg in ((BIOS, "bochsbios"), (VGABIOS, "vgabios")):
        if not os.path.exists(path):
            return f"{path} is not installed (Debian package {pkg})"
    return None


def bochs(name, machine, iso, timeout=None):
    """Boot iso on machine (run name: its files are logs/test-NAME.*) until
    the kernel's last line is on the serial port; returns the serial text.
    AssertionError, with the serial port's last lines and Bochs's, when the
    run does not end within the machine's timeout (or timeout seconds; the
    process is killed) or Bochs exits first."""
    files = run_files(name)
    serial, log = files + ".serial", files + ".bochs.log"
    rc_path, cmds = files + ".bochsrc", files + ".bochs-cmds"
    for path in (serial, log):
        if os.path.exists(path):
            os.remove(path)
    with open(rc_path, "w") as f:
        f.write(config(machine, iso, serial, log))
    with open(cmds, "w") as f:
        f.write("c\n")  # the debugger's one command: continue
    timeout = timeout or get(machine).timeout
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with open(files + ".out", "w") as out:
        p = subprocess.Popen(["bochs", "-q", "-f", rc_path, "-rc", cmds], stdin=subprocess.DEVNULL,
                             stdout=out, stderr=subprocess.STDOUT, env=env, cwd=BUILD,
                             start_new_session=True)
        t0, status = time.time(), None
        try:
            while True:
                text = read(serial)
                if ended(text) or STOPPED.search(read(log)):
                    break
                status = p.poll()
                if status is not None:
                    break
                if time.time() - t0 > timeout:
                    status = "timeout"
                    break
                time.sleep(0.5)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    text = read(serial)
    with open(files + ".log", "w", encoding="utf-8") as f:
        f.write(f"bochs -q -f {rc_path} -rc {cmds}\n" + text)
    why = (f"Bochs timed out after {timeout} s (killed)" if status == "timeout" else
           f"Bochs exited (status {status}) before the kernel's last line" if status is not None else
           "the CPU halted with interrupts off (Bochs's log) before the kernel's last line")
    check(ended(text), f"{why}: no '{HALTED}' line on the serial port ({files}.log); Bochs's log:\n"
          + tail(read(log), 6), text)
    return text


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def ended(text):
    """The kernel's last line is there, whole."""
    at = text.find(HALTED)
    return at >= 0 and "\n" in text[at:]



def stock_iso(name, args):
    """An ISO of the stock menu (iso/grub.cfg: its screen modes, its
    gfxpayload) with no menu delay and the first entry's boot parameters
    replaced by args (logs/NAME.iso)."""
    from t_bootpaths import grub_iso
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    first = "\tbench ensembles=100 samples=10000\n"
    check("set timeout=3\n" in cfg and first in cfg,
          f"iso/grub.cfg has no 'set timeout=3' or no first entry '{first.strip()}' to size down")
    cfg = cfg.replace("set timeout=3\n", "set timeout=0\n").replace(first, f"\tbench {args}\n", 1)
    return grub_iso(name, cfg)

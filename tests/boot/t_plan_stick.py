"""tests/boot/t_plan_stick.py - where the plan comes from (issue 32 item 1,
the boot side; README "Where the plan comes from", kernel/planfile.h):
the stick's plan.txt read through the firmware by GRUB's default entry
(its results file stored and tabled), the same stick under SeaBIOS
(GRUB's module), the ISO's example entry from a CD under SeaBIOS (the same
answers, exact) and OVMF (the firmware finds nothing, the module is used),
a stick without a plan booting today's first entry, a bad line, and a plan
too large to read. The sticks are
writable copies of the shipped build/bench.iso (tests/boot/stick.py), its
menu as a lab user meets it: what is tested is what is shipped."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

import builds
from qemu import LOGS, ROOT, Run, Skip, check, expect_complete, qemu
from screen import Machine
from stick import list_results, make_stick, mtools, put_file, root_files
from t_bootpaths import grub_iso
from t_stick import saved_file

# A plan of four experiments, each boot small (the defaults line); under
# -icount each one's figure per copy is the instructions of one copy.
PLAN = (b"# four experiments, each a few instructions a copy\n"
        b"defaults ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=none\n"
        b"one_nop    code=90\n"
        b"two_adds   code=4801c04801c0\n"
        b"four_imul  code=480fafc0480fafdb480fafc9480fafd2 \\\n"
        b"           unroll=10\n"
        b"five_nops  code=9090909090\n")
NAMES = ["one_nop", "two_adds", "four_imul", "five_nops"]
# Per copy, exact; no count a multiple of 3 (the rdtscp window's offset
# under -icount is 3 instructions: figures all multiples of 3 would leave
# the TSC's step unknown, lib/percopy.h, and the figure +- its bound).
PER_COPY = {"one_nop": "1.000", "two_adds": "2.000", "four_imul": "4.000", "five_nops": "5.000"}
# The plan: line of the ISO's example read as GRUB's module under UEFI,
# after the firmware's read found no such file on the boot device.
FALLBACK_LINE = ("plan: boot/plan.txt from the boot module (the firmware's read of \\boot\\plan.txt from the boot "
                 "device: Open returned EFI_NOT_FOUND): {bytes} bytes, CRC-32 0x{crc:08x}")
# The plan: line of a file read through the firmware from the stick.
FIRMWARE_LINE = ("plan: plan.txt read through the firmware from the boot device (\\plan.txt): "
                 "{bytes} bytes, CRC-32 0x{crc:08x}")


def watch(name, machine, image, until):
    """Boot image on machine and return the serial text once it holds
    until; QEMU is then stopped. AssertionError when QEMU exits first or
    the machine's timeout runs out."""
    with Machine(name, machine=machine, image=image, debug_exit=True) as m:
        return m.wait_for(until, m.serial_text, m.timeout, every=1.0)


def grub_booted(text, title):
    """GRUB's serial output says it booted the entry title ("Booting
    `TITLE'", its terminal's escape sequences left out)."""
    plain = re.sub(r"\x1b\[[0-9;?=]*[A-Za-z]", "", text).replace("\r", "")
    return f"Booting `{title}'" in plain


def grub_errors(text):
    """GRUB's "error: " lines, before the kernel's first line."""
    plain = re.sub(r"\x1b\[[0-9;?=]*[A-Za-z]", "", text).replace("\r", "")
    return re.findall(r"error: [^\n]*", plain.split("console: ")[0])


def plan_lines(text):
    """The kernel's plan: lines, without their line ends."""
    return [l.rstrip("\r") for l in text.split("\n") if l.startswith("plan: ")]


def test_plan_stick_too_large():
    """A plan.txt of PLANFILE_MAX + 1 bytes on the stick: GRUB's default
    entry runs it; the firmware's read says its size and that it is not
    read (kernel/planfile.h PLANFILE_MAX), and the run stops before
    measuring, its config: line saying the same. Failed before: the
    default entry was the short run, no plan: line."""
    img = make_stick("plan-large")
    put_file(img, "::/plan.txt", b"#" * 65536 + b"\n")
    rc, text = qemu("plan-large", "ovmf-stick", image=img)
    run = Run(rc, text)
    lines = plan_lines(text)
    check(lines and lines[0] == "plan: plan.txt read through the firmware from the boot device (\\plan.txt): "
          "65537 bytes, more than the 65536 a plan may have: not read", f"the plan: lines {lines}", text[-3000:])
    said = [l for l in run.lines if l.startswith("config: plan=plan.txt: ")]
    check(said and "65537 bytes, more than the 65536 a plan may have" in said[0],
          f"no config: line saying the plan is too large: {said}", text[-3000:])
    check(not run.by("per_copy") and run.one("end")["status"] == "config_problems",
          f"a plan too large to read: the end record {run.one('end')}", text[-3000:])


def boot_stick_plan(name, machine):
    """A stick with PLAN as its plan.txt booted on machine, run complete
    and GRUB's default entry 'run the plan': (image, Run, serial text)."""
    img = make_stick(name)
    put_file(img, "::/plan.txt", PLAN)
    rc, text = qemu(name, machine, image=img)
    run = expect_complete(rc, text)
    check(grub_booted(text, "bench: run the plan (plan.txt on the stick's BENCH partition)"),
          "GRUB did not boot the entry 'run the plan' by default", text[:3000])
    return img, run, text


def test_plan_stick_bios_module():
    """The same stick with plan.txt booted under BIOS (SeaBIOS, the ISO as
    a USB disk): GRUB finds the BENCH partition too, its default entry
    hands plan.txt over as a boot module, and every experiment runs.
    Failed before: no plan entry."""
    img, run, text = boot_stick_plan("plan-bios-usb", "bios-usb")
    line = f"plan: plan.txt from the boot module: {len(PLAN)} bytes, CRC-32 0x{zlib.crc32(PLAN):08x}"
    check(line in run.lines, f"no line {line!r}; the plan: lines {plan_lines(text)[:3]}", text[-3000:])
    expect_experiments_complete(run, text)


def answers(run):
    """Each experiment's rdtscp per_copy figure in TSC ticks, in the order
    of the records: [(name, per_copy, status)], the name from the
    experiment record the per_copy record follows."""
    out, name = [], None
    for r in run.recs:
        if r.get("rec") == "experiment":
            name = r["name"]
        elif r.get("rec") == "per_copy" and r.get("method") == "rdtscp" and r.get("unit") == "tsc_ticks":
            out.append((name, r["per_copy"], r["status"]))
        elif r.get("rec") == "experiment_end":
            name = None
    return out


def expect_experiments_complete(run, text):
    """PLAN's four experiments each ended complete, in order."""
    ends = [(r["name"], r["status"]) for r in run.by("experiment_end")]
    check(ends == [(n, "complete") for n in NAMES], f"experiment_end records {ends}", text[-3000:])


def expect_plan_run(run, text):
    """Every experiment of PLAN complete, in order, each with its answer
    (exact: -icount) under its name; the end record counts them."""
    exps = [r["name"] for r in run.by("experiment")]
    check(exps == NAMES, f"experiment records {exps}, expected {NAMES}", text[-3000:])
    expect_experiments_complete(run, text)
    got = answers(run)
    check(got == [(n, PER_COPY[n], "exact") for n in NAMES],
          f"the answers per copy {got}, expected {PER_COPY} in order, exact",
          text[-3000:])
    end = run.one("end")
    check(end.get("experiments_run") == 4 and end.get("experiments_faulted") == 0
          and end.get("experiments_skipped") == 0, f"the end record {end}", text[-3000:])


def test_plan_stick_default_entry_runs_the_plan():
    """A plan.txt of four experiments put on the stick's FAT as a laptop
    would (mtools); one boot under OVMF (-icount): GRUB's default entry is
    'run the plan', the plan: line says read through the firmware with the
    file's size and CRC-32, every experiment runs in order, and the results
    file on the stick holds every answer under its name, in order;
    tools/bench.py store files it. Failed before: the default entry was the
    short run (no plan entry in iso/grub.cfg; efi_early read no file)."""
    img, run, text = boot_stick_plan("plan-stick", "ovmf-stick-icount")
    check(run.one("env")["cmdline"] == "plan=plan.txt", f"the command line {run.one('env')['cmdline']!r}", text)
    line = FIRMWARE_LINE.format(bytes=len(PLAN), crc=zlib.crc32(PLAN))
    check(line in run.lines, f"no line {line!r}; the plan: lines {plan_lines(text)[:3]}", text[-3000:])
    pf = run.one("plan_file")
    check(pf["source"] == "efi" and pf["bytes"] == len(PLAN) and pf["crc32"] == f"0x{zlib.crc32(PLAN):08x}",
          f"the plan_file record {pf}", text)
    expect_plan_run(run, text)
    name, data = saved_file(img, text)
    saved = Run(None, data.decode("utf-8", errors="replace"))
    check(answers(saved) == answers(run), f"the results file {name} holds the answers {answers(saved)}", text)
    check(list_results(img) == [name], f"results/ holds {list_results(img)}", text)
    out = store_and_table(name, data)
    row = re.findall(r"^  rdtscp  code +(.*)$", out, re.M)
    check(len(row) == 1 and row[0].split() == [w for n in NAMES for w in (PER_COPY[n], "exactly")],
          f"table --figure per_copy's rdtscp row {row}, expected each experiment's figure in order", out)
    for i, n in enumerate(NAMES, 1):
        check(re.search(rf"^  R{i}  M1  {name[:-4]}/{n}: complete", out, re.M),
              f"table does not list run R{i} as experiment {n}", out)


def store_and_table(name, data):
    """tools/bench.py store of a results/ folder holding only name (data)
    into a new database, every experiment said stored, then table --figure
    per_copy; their output."""
    bench = [sys.executable, os.path.join(ROOT, "tools", "bench.py")]
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "results"))
        with open(os.path.join(d, "results", name), "wb") as f:
            f.write(data)
        db = os.path.join(d, "lab.sqlite")
        p = subprocess.run(bench + ["store", os.path.join(d, "results"), "--db", db], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        out = p.stdout.decode()
        check(p.returncode == 0 and re.search(r"^store: 4 stored, ", out, re.M),
              f"bench.py store of the stick's results (exit status {p.returncode})", out)
        p = subprocess.run(bench + ["table", "--db", db, "--figure", "per_copy"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        check(p.returncode == 0, f"bench.py table --figure per_copy: exit status {p.returncode}", p.stdout.decode())
        return out + p.stdout.decode()


def example_default_cfg():
    """The shipped iso/grub.cfg with its entry 'run the plan (the ISO's
    example, /boot/plan.txt)' the default and no menu delay."""
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    entries = re.findall(r'^\s*menuentry "([^"]*)"', cfg, re.M)
    example = [e for e in entries if e == "bench: run the plan (the ISO's example, /boot/plan.txt)"]
    check(len(example) == 1, f"iso/grub.cfg's entries {entries}: no one 'run the plan (the ISO's example)'")
    # The stick's entry exists only with a plan.txt there: the index among
    # the entries a CD's (or the network's) menu has.
    shown = [e for e in entries if "on the stick's BENCH partition" not in e]
    cfg = re.sub(r"^set default=\d+", f"set default={shown.index(example[0])}", cfg, flags=re.M)
    return re.sub(r"^set timeout=\d+", "set timeout=0", cfg, flags=re.M)


def plan_iso(name, plan):
    """example_default_cfg's menu on an ISO whose /boot/plan.txt is plan
    (logs/NAME.iso)."""
    return grub_iso(name, example_default_cfg(), files={"boot/plan.txt": plan})


def test_plan_bios_module_same_answers():
    """The same plan as the ISO's /boot/plan.txt, GRUB's example entry
    under BIOS (SeaBIOS, -cdrom, -icount): a boot module, said so with the
    same size and CRC-32; every experiment gives the answers of the stick's
    UEFI boot (test_plan_stick_default_entry_runs_the_plan), exactly.
    Failed before: no such entry."""
    iso = plan_iso("plan-bios", PLAN)
    rc, text = qemu("plan-bios", "icount-cdrom", image=iso)
    run = expect_complete(rc, text)
    line = f"plan: boot/plan.txt from the boot module: {len(PLAN)} bytes, CRC-32 0x{zlib.crc32(PLAN):08x}"
    check(line in run.lines, f"no line {line!r}; the plan: lines {plan_lines(text)[:3]}", text[-3000:])
    check(run.one("plan_file")["source"] == "module", f"the plan_file record {run.one('plan_file')}", text)
    check(not grub_errors(text), f"GRUB's menu printed {grub_errors(text)} (a CD has no BENCH partition)", text[:3000])
    expect_plan_run(run, text)


def test_plan_uefi_cd_falls_back_to_module():
    """The ISO's example entry from a CD under OVMF: the firmware's read
    of \\boot\\plan.txt finds nothing on the CD's EFI image, the line
    says so by EFI_STATUS, and GRUB's module is the plan; every experiment
    runs. Failed before: no such entry."""
    iso = plan_iso("plan-uefi-cd", PLAN)
    rc, text = qemu("plan-uefi-cd", "ovmf-cdrom", image=iso)
    run = expect_complete(rc, text)
    line = FALLBACK_LINE.format(bytes=len(PLAN), crc=zlib.crc32(PLAN))
    check(line in run.lines, f"no line {line!r}; the plan: lines {plan_lines(text)[:3]}", text[-3000:])
    expect_experiments_complete(run, text)


def test_plan_netboot_own_plan():
    """make netboot puts iso/plan.txt at boot/plan.txt in the TFTP root; a
    copy of that root with PLAN there instead (docs/LAB.md "A plan over the
    network") and the example entry the default, booted by UEFI PXE: the
    firmware's read finds no \\boot\\plan.txt on OVMF's network boot device
    (Open returns EFI_NOT_FOUND), the line says so, and GRUB's module (read
    by TFTP) is the plan.
    Failed before: no boot/plan.txt in the root, no such entry."""
    root = builds.netboot()
    if not os.path.exists(os.path.join(root, "boot", "grub", "x86_64-efi", "core.efi")):
        raise Skip("make netboot built no UEFI image (grub-efi-amd64-bin)")
    with open(os.path.join(ROOT, "iso", "plan.txt"), "rb") as f:
        shipped = f.read()
    with open(os.path.join(root, "boot", "plan.txt"), "rb") as f:
        check(f.read() == shipped, "make netboot's boot/plan.txt is not iso/plan.txt")
    mine = os.path.join(LOGS, "plan-netboot-root")
    shutil.rmtree(mine, ignore_errors=True)
    shutil.copytree(root, mine)
    with open(os.path.join(mine, "boot", "plan.txt"), "wb") as f:
        f.write(PLAN)
    with open(os.path.join(mine, "boot", "grub", "grub.cfg"), "w") as f:
        f.write(example_default_cfg())
    import netns
    rc, text = qemu("plan-netboot", "ovmf-pxe", image=mine, wrap=netns.isolated())
    run = expect_complete(rc, text)
    line = FALLBACK_LINE.format(bytes=len(PLAN), crc=zlib.crc32(PLAN))
    check(line in run.lines, f"no line {line!r}; the plan: lines {plan_lines(text)[:3]}", text[-3000:])
    expect_experiments_complete(run, text)


def test_plan_stick_without_plan_boots_first_entry():
    """The shipped stick as it is: its FAT holds plan-example.txt, never
    plan.txt, so GRUB's default entry is today's first (the short run), no
    plan: line. Watched up to its config record."""
    img = make_stick("plan-none")
    files = root_files(img)
    check("plan-example.txt" in files and "plan.txt" not in files,
          f"the shipped stick's FAT holds {files}: expected plan-example.txt and no plan.txt")
    with open(os.path.join(ROOT, "iso", "plan.txt"), "rb") as f:
        check(read_root(img, "plan-example.txt") == f.read(), "the FAT's plan-example.txt is not iso/plan.txt")
    text = watch("plan-none", "ovmf-stick", img, '{"rec":"config"')
    check(grub_booted(text, "bench: short run (100 ensembles x 10000 samples per method)"),
          "GRUB did not boot the short run by default", text[:3000])
    check(not grub_errors(text), f"GRUB's menu printed {grub_errors(text)}", text[:3000])
    check(not plan_lines(text) and "run the plan (plan.txt" not in text,
          f"a stick without plan.txt: {plan_lines(text)}", text[-3000:])


def read_root(img, name):
    """The bytes of NAME in the root folder of img's EFI system partition."""
    return mtools(img, "mcopy", f"::/{name}", "-")


def test_plan_stick_bad_line_stops():
    """A plan on the stick with a mistyped key in its third experiment: the
    run stops before measuring, naming the file, the line and the
    experiment with a did-you-mean; its log is on the stick too."""
    img = make_stick("plan-stick-bad")
    bad = PLAN.replace(b"five_nops  code=9090909090", b"five_nops  code=9090909090 unrol=10")
    put_file(img, "::/plan.txt", bad)
    rc, text = qemu("plan-stick-bad", "ovmf-stick", image=img)
    run = Run(rc, text)
    probs = [l for l in run.lines if l.startswith("plan: plan.txt line 7 (five_nops): ")]
    check(probs and "unrol" in probs[0] and "did you mean unroll?" in probs[0],
          f"no problem line naming plan.txt line 7 (five_nops) and unroll: {plan_lines(text)}", text[-3000:])
    check(not run.by("experiment") and not run.by("per_copy"), "something was measured", text[-3000:])
    check(run.one("end")["status"] == "config_problems", f"the end record {run.one('end')}", text[-3000:])
    saved_file(img, text)

"""tests/boot/t_input.py - input that must not confuse the log or the user
(issue 11, section 4): every echo of the command line escaped, so that a
boot line cannot fake a final line or a record (checked with the boot
tests' own parser and with tools/bench.py capture and report); the first
word of QEMU's line is the image's path whatever it looks like, and GRUB's
line has none; console= follows its last valid value, in one line per bad
word, and refuses a baud rate whose divisor does not fit the UART's 16 bits;
a dump= beyond the last ensemble is said; an over-long line gives its true
length; keys given again are noted once, not counted as problems; without a
VGA adapter (-nodefaults) the console line says so.
"""
import os
import subprocess
import sys

from qemu import CMDLINE_MAX, BUILD, KERNEL32, LOGS, ROOT, check, expect_complete, qemu
from t_bootpaths import grub_test_iso

BENCH = os.path.join(ROOT, "tools", "bench.py")
QUICK = "methods=rdtscp workloads=measured_function warmup=0"
FAKE_FINAL = "bench: run complete: 9 methods run, 0 skipped, 0 ensemble errors, 0 command-line problems"
FAKE_END = '{"rec":"end","status":"complete","methods_run":9,"methods_skipped":0}'


def config_lines(run):
    return [l for l in run.lines if l.startswith("config:")
            and not l.startswith(("config: ensembles=", "config: memory and clocks: "))]


def test_input_injected_lines_are_escaped():
    """A command line holding a newline, a fake final line, a fake record, a
    fake END marker, a carriage return, an escape sequence and non-ASCII
    bytes: the log has exactly the run's own final line and records, and
    only printable ASCII; tools/bench.py capture stops at the real final
    line, and report reads the real end record. (Before: the env line
    echoed the newline raw, capture stopped at the fake line with exit 0.)"""
    evil = (f"ensembles=2 samples=50 {QUICK} problems=ignore x\n{FAKE_FINAL}\n{FAKE_END}\nEND bench-records\n"
            "\r\x1b[2J\x1b[31mred \u00e9t\u00e9 \"q\" back\\slash")
    rc, text = qemu("input-injected", "q35-tcg", evil)
    run = expect_complete(rc, text)
    raw = text.encode("utf-8")
    check(b"\x1b" not in raw and all(b < 0x80 for b in raw),
          "the log holds an escape character or a non-ASCII byte", text)
    finals = [l for l in run.lines if "bench: run complete" in l and not l.startswith(("env:", "config:", "{"))]
    check(len(finals) == 1 and finals[0].startswith("bench: run complete: 1 method run"),
          f"lines that read as a final line: {finals}", text)
    check(len(run.by("end")) == 1 and run.one("end")["methods_run"] == 1, "a fake end record", text)
    check(run.lines.count("END bench-records") == 1, "a fake END marker", text)
    echo = [l for l in run.lines if l.startswith('env: command line: "')]
    want = ('x\\nbench: run complete: 9 methods run, 0 skipped, 0 ensemble errors, 0 command-line '
            'problems\\n{\\"rec\\":\\"end\\",\\"status\\":\\"complete\\",\\"methods_run\\":9,'
            '\\"methods_skipped\\":0}\\nEND bench-records\\n\\r\\x1b[2J\\x1b[31mred '
            '\\xc3\\xa9t\\xc3\\xa9 \\"q\\" back\\\\slash"')
    check(len(echo) == 1 and echo[0].endswith(want), f"the command line is not echoed escaped: {echo}", text)
    # (the record's \u00XX escapes are bytes: UTF-8 read back as Latin-1)
    check(run.one("env")["cmdline"].endswith(evil[evil.index(" x\n"):].encode().decode("latin-1")),
          "the env record's cmdline", text)
    for l in config_lines(run):
        check(all(0x20 <= ord(c) <= 0x7E for c in l), f"a config: line not printable: {l!r}", text)
    check(any(l == "config: '\\x1b[2J\\x1b[31mred' is not of the form key=value; ignored" for l in run.lines),
          "the bad word's message does not escape it", text)
    check(any(l == "config: '{\\\"rec\\\":\\\"end\\\",\\\"status\\\":\\\"complete\\\"...' is not of the "
                   "form key=value; ignored" for l in run.lines),
          "the fake record's message does not escape its quotes (40 characters shown)", text)

    # tools/bench.py capture, fed QEMU's output, stops at the real final line.
    out = os.path.join(LOGS, "test-input-injected.captured")
    p = subprocess.run([sys.executable, BENCH, "capture", "-", "-q", "-o", out], input=raw,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    msg = p.stdout.decode(errors="replace")
    with open(out, "rb") as f:
        saved = f.read()
    check(p.returncode == 0 and "bench: run complete: 1 method run" in msg,
          f"capture: exit status {p.returncode}, or not stopped at the real final line: {msg}", text)
    check(saved == raw[:raw.index(b"\n", raw.index(b"bench: run complete: 1 method run")) + 1],
          f"capture saved {len(saved)} bytes, not the log up to the real final line", msg)
    p = subprocess.run([sys.executable, BENCH, "report", out, "--no-figures"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    rep = p.stdout.decode(errors="replace")
    check(p.returncode == 0 and "report: the log is valid" in rep and
          "final line:     bench: run complete: 1 method run" in rep,
          f"report: exit status {p.returncode}", rep)


def test_input_kernel_path_without_slash():
    """QEMU -kernel bench32.elf (run from its directory): QEMU writes "PATH
    APPEND", so the first word is the image's path, not a problem."""
    rc, text = qemu("input-path-no-slash", "q35-tcg", f"ensembles=2 samples=50 {QUICK}", image="bench32.elf",
                    cwd=BUILD)
    run = expect_complete(rc, text)
    check(run.has_line('env: command line: "bench32.elf ensembles=2 '), "not the line QEMU wrote", text)
    check(run.one("config")["problems"] == 0 and not config_lines(run),
          f"the path counted as a problem: {config_lines(run)}", text)


def test_input_grub_line_has_no_path():
    """GRUB 2 passes the words after the image's path only (multiboot and
    multiboot2 alike): the first word is a key=value word and counts."""
    args = "ensembles=2 samples=40 methods=rdtscp workloads=measured_function warmup=0"
    for cmd, image in (("multiboot2", "bench.elf"), ("multiboot", "bench.elf")):
        iso = grub_test_iso(f"input-{cmd}", f"\t{cmd} /boot/{image} {args}")
        rc, text = qemu(f"input-grub-{cmd}", "bios-cdrom", image=iso)
        run = expect_complete(rc, text)
        env, cfg = run.one("env"), run.one("config")
        check(env["loader"].startswith("GRUB") and env["cmdline"] == args,
              f"{cmd}: GRUB's line is not the words after the path: {env}", text)
        check(env["boot_protocol"] == (2 if cmd == "multiboot2" else 1), f"{cmd}: {env}", text)
        check(cfg["ensembles"] == 2 and cfg["samples"] == 40 and cfg["problems"] == 0,
              f"{cmd}: the first word was not read: {cfg}", text)


def test_input_console_last_valid_value():
    """console=ttyS1 console=bad console= console=<60 characters>: the run
    is on ttyS1 (COM2), the value the messages say is kept, and each bad
    word is one line. (Before: ttyS0, and two lines for the empty and the
    long word.)"""
    com2 = os.path.join(LOGS, "test-input-console.com2")
    if os.path.exists(com2):
        os.unlink(com2)
    long = "ttyS1," + "9" * 54
    rc, com1 = qemu("input-console", "q35-tcg", f"console=ttyS1 console=bad console= console={long} "
                    f"ensembles=2 samples=50 {QUICK} problems=ignore", extra=["-serial", f"file:{com2}"])  # COM2 into a file
    with open(com2, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    run = expect_complete(rc, text)
    check(not [l for l in com1.split("\n") if l.startswith(("console:", "config:", "bench:"))],
          "output on COM1", com1)
    check(run.has_line("console: serial ttyS1 (I/O 0x2F8) 115200 baud 8N1;"), "not on ttyS1", text)
    msgs = [l for l in config_lines(run) if "console=" in l]
    check(len(msgs) == 3, f"{len(msgs)} console= messages for 3 bad words: {msgs}", text)
    check(msgs[0].startswith("config: console=bad is not an accepted value; accepted: ttyS0..ttyS3")
          and msgs[1].startswith("config: console= has an empty value; accepted: ")
          and msgs[2].startswith(f"config: console={long[:40]}... is not an accepted value; ")
          and all(m.endswith("; keeping ttyS1,115200") for m in msgs), f"messages {msgs}", text)
    check(run.has_line("config: given more than once (the last valid value is used): console"),
          "no note of the repeated key", text)
    check(run.one("config")["problems"] == 3, f"problems {run.one('config')['problems']}, expected 3", text)


def test_input_console_baud_divisor():
    """console=ttyS0,1 needs the divisor 115200, beyond the UART's 16 bits:
    refused, saying so; console=ttyS0,2 (divisor 57600) is accepted."""
    rc, text = qemu("input-baud-1", "q35-tcg", f"console=ttyS0,1 ensembles=2 samples=50 {QUICK} problems=ignore")
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1;"), "not at 115200 baud", text)
    check(any(l.startswith("config: console=ttyS0,1 is not an accepted value;") and
              "115200/BAUD a whole number 1..65535 (the UART's 16-bit divisor" in l and
              l.endswith("keeping ttyS0,115200") for l in run.lines),
          "no message naming the 16-bit divisor", text)
    rc, text = qemu("input-baud-2", "q35-tcg", f"console=ttyS0,2 ensembles=2 samples=50 {QUICK}")
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 2 baud 8N1;") and not config_lines(run),
          "console=ttyS0,2 not accepted", text)


def test_input_dump_beyond_last_ensemble():
    """dump=5 with ensembles=3 (0..2): one line says nothing is dumped, it
    counts as a problem (the word is not carried out), no samples records."""
    rc, text = qemu("input-dump", "q35-tcg", f"ensembles=3 samples=50 dump=5 {QUICK} problems=ignore")
    run = expect_complete(rc, text)
    check(config_lines(run) == ["config: dump=5 is beyond the last ensemble (ensembles=3: 0..2); "
                                "no samples are dumped"], f"messages {config_lines(run)}", text)
    cfg = run.one("config")
    check(cfg["dump"] is None and cfg["problems"] == 1, f"config {cfg}", text)
    check(not run.by("samples"), "samples records", text)


def test_input_memory_and_clock_keys():
    """Issue 31's keys: a bad value of each is one line naming what is
    accepted (a did-you-mean for a near word), a problem, the value kept;
    good values are in the `config: memory and clocks:` line and the config
    record as given (before: every one an unknown key)."""
    bad = "mem=5000 mem.pages=2g mem.type=wx regs=nano cache=flsh prefetch=of turbo=offf pstate=256 sweep=latncy"
    rc, text = qemu("input-memclk-bad", "q35-tcg", f"ensembles=2 samples=20 {QUICK} problems=ignore {bad}")
    run = expect_complete(rc, text)
    lines = config_lines(run)
    check(len(lines) == 9 and run.one("config")["problems"] == 9, f"messages {lines}", text)
    for key in ("mem=", "mem.pages=", "mem.type=", "regs=", "cache=", "prefetch=", "turbo=", "pstate=", "sweep="):
        hit = [l for l in lines if l.startswith("config: " + key)]
        check(len(hit) == 1 and "accepted" in hit[0], f"{key}: {hit}", text)
    for key, near in (("cache=", "flush"), ("prefetch=", "off"), ("sweep=", "latency")):
        hit = [l for l in lines if l.startswith("config: " + key)]
        check(f"did you mean {near}?" in hit[0], f"{key}: {hit}", text)
    good = "mem=64M mem.pages=2m mem.type=wc regs=nanobench cache=wbinvd prefetch=off turbo=on pstate=24"
    rc, text = qemu("input-memclk-good", "q35-tcg", f"ensembles=2 samples=20 {QUICK} {good}")
    run = expect_complete(rc, text)
    cfg = run.one("config")
    want = {"mem_bytes": 64 << 20, "mem_pages": "2m", "mem_type": "wc", "regs": "nanobench", "cache": "wbinvd",
            "prefetch": "off", "turbo": "on", "pstate": "24", "sweep": "off", "problems": 0}
    check(all(cfg.get(k) == v for k, v in want.items()), f"config {cfg}", text)
    check(run.has_line("config: memory and clocks: mem=64M mem.pages=2m mem.type=wc regs=nanobench cache=wbinvd "
                       "prefetch=off turbo=on pstate=24 sweep=off"), "the memory and clocks line", text)


def test_input_repeated_keys():
    """GRUB's entry has ensembles=100 and the user appends ensembles=2, many
    times: one note, no problem (before: one line and one problem each)."""
    line = f"ensembles=100 samples=50 {QUICK}" + " ensembles=2" * 60
    rc, text = qemu("input-repeats", "q35-tcg", line)
    run = expect_complete(rc, text)
    check(config_lines(run) == ["config: given more than once (the last valid value is used): ensembles"],
          f"messages {config_lines(run)}", text)
    check(run.one("config")["problems"] == 0 and run.one("config")["ensembles"] == 2,
          f"config {run.one('config')}", text)


def test_input_overlong_line_true_length():
    """A line 4000 characters over the limit: the message gives its true
    length (before: the limit + 1, the length of the kernel's copy)."""
    line = f"ensembles=2 samples=50 {QUICK} problems=ignore " + "y" * (CMDLINE_MAX + 4000)
    rc, text = qemu("input-overlong", "q35-tcg", line)
    run = expect_complete(rc, text)
    total = len(KERNEL32) + 1 + len(line)  # QEMU's "PATH APPEND"
    check(any(l.startswith(f"config: the command line has {total} characters; only the first {CMDLINE_MAX} "
                           "are read")
              for l in run.lines), f"no message giving the true length {total}", text)


def test_input_nodefaults_no_vga():
    """-nodefaults (a serial port and isa-debug-exit added back): no VGA
    adapter, and the console line says so instead of claiming VGA text."""
    # No default devices (no VGA): what this test is about.
    rc, text = qemu("input-nodefaults", "q35-tcg", f"ensembles=2 samples=50 {QUICK}", extra=["-nodefaults"])
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen none (no VGA text "
                       "adapter answered: the CRTC index register 0x3D4 and the text memory at "
                       "0xB8000 do not read back)"), "the console line claims a screen", text)
    rc, text = qemu("input-with-vga", "q35-tcg", f"ensembles=2 samples=50 {QUICK}")
    run = expect_complete(rc, text)
    check(run.has_line("console: serial ttyS0 (I/O 0x3F8) 115200 baud 8N1; screen VGA text 80x25"),
          "QEMU's standard VGA is not found", text)


def test_input_samples_what_fits():
    """samples=10000000 in 16 MiB: the run uses what fits (not the default
    10000) and says the figure; the run's records have that many samples."""
    rc, text = qemu("input-samples-fit", "q35-16m", f"ensembles=2 samples=10000000 {QUICK} problems=ignore")
    run = expect_complete(rc, text)
    msg = [l for l in run.lines if l.startswith("config: samples=10000000 needs 80000000 bytes")]
    check(msg and ", the most that fit" in msg[0], "no message with the figure used", text)
    used = int(msg[0].split("using samples=")[1].split(",")[0])
    free = int(msg[0].split(" bytes are free")[0].split()[-1])
    check(free // 8 * 9 // 10 <= used <= free // 8, f"samples={used} is not what fits in {free} bytes", text)
    cfg = run.one("config")
    check(cfg["samples"] == used and cfg["problems"] == 1, f"config {cfg}", text)
    check(all(e["samples"] == used for e in run.by("ensemble")), "ensembles of another size", text)


def test_input_cpuid_strings_escaped():
    """A hypervisor sets the brand string as it likes (QEMU model-id=): an
    escape sequence in it is echoed escaped, never raw."""
    rc, text = qemu("input-brand", "q35-tcg", f"ensembles=2 samples=20 {QUICK}",
                    cpu="max,vendor=GenuineIntel,model-id=Evil\x1b[2J\"x")
    run = expect_complete(rc, text)
    check("\x1b[2J" not in text, "a raw escape sequence from CPUID reached the log", text)
    check(run.has_line('env: brand: Evil\\x1b[2J\\"x'), "the brand line is not escaped", text)

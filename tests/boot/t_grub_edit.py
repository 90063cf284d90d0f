"""tests/boot/t_grub_edit.py - GRUB entries a person can edit (issue "A lab
day without surprises", item 3): each entry of iso/grub.cfg is one short
line, `bench WORDS`, under GRUB's own setparams line and an empty one in
its editor; words typed at its end reach the kernel. Edited as a user does: under BIOS from the CD, the
menu awaited on the serial console, then keys through QEMU's monitor
(sendkey): e, End, the words, Ctrl-X, each key sent when the one before
is on the screen. The ISO is the shipped grub.cfg with no menu timeout
only (timeout=-1: GRUB waits for a key), so that no countdown can boot the
entry before the first key, however busy the machine. (Before: the entry was
four lines, the words on a multiboot2 line that GRUB's editor wraps at 80
columns, and words typed on the bench_screen line were lost silently.)
The first entry is named by its size (a short run, 100 ensembles x 10000
samples), and the README names the line the editor shows."""
import os
import re

from qemu import ROOT, check, clean_lines, expect_complete
from screen import Machine
from t_bootpaths import grub_iso

WORDS = " ensembles=2 samples=20 warmup=0 methods=rdtscp workloads=add_chain_64"
# QEMU's sendkey names of the characters typed.
KEYS = {" ": "spc", "=": "equal", "_": "shift-minus", ",": "comma"}


def menu_text(m):
    """The serial console's text; GRUB's editor wraps a long line with a
    backslash at the end of a row: joined again."""
    return "\n".join(clean_lines(m.serial_text())).replace("\\\n", "")


def expect_readme_names_the_line(line, shown):
    """The README tells a user to type where GRUB's editor shows line (the
    entry's one line, quoted), never on a "multiboot2 line" the editor does
    not show (issue 29: README said "append to the `multiboot2` line")."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = " ".join(f.read().split())
    check(f"`{line}" in readme and "`multiboot2` line" not in readme,
          f"README does not name the editor's line `{line}` (or still says 'the `multiboot2` line')", shown)


def test_grub_edit_entry_with_keystrokes():
    with open(os.path.join(ROOT, "iso", "grub.cfg")) as f:
        cfg = f.read()
    check("set timeout=3\n" in cfg, "iso/grub.cfg has no 'set timeout=3' line")
    entry = re.search(r'menuentry "bench: short run \(100 ensembles x 10000 samples per method\)" \{\n([^\n]*)\n\}',
                      cfg)
    check(entry and entry.group(1) == "\tbench ensembles=100 samples=10000",
          f"the first entry is not the one line 'bench ensembles=100 samples=10000': {entry and entry.group(0)}")
    iso = grub_iso("grub-edit", cfg.replace("set timeout=3\n", "set timeout=-1\n"))
    with Machine("grub-edit", machine="bios-cdrom", image=iso, debug_exit=True) as m:
        m.wait_for("to edit the commands", lambda: menu_text(m), 120, every=0.5)
        m.hmp("sendkey e")
        m.wait_for("Press Ctrl-x or F10 to boot", lambda: menu_text(m), 60, every=0.5)
        editor = lambda: menu_text(m).split("Minimum Emacs-like screen editing")[-1]  # noqa: E731
        shown = m.wait_for("bench ensembles=100 samples=10000", editor, 60, every=0.5)
        check("multiboot2" not in shown and "bench_screen" not in shown and "boot\n" not in shown,
              "the editor shows more than the one line", shown)
        expect_readme_names_the_line("bench ensembles=100 samples=10000", shown)
        # GRUB's editor opens on its own first line, setparams 'TITLE', then
        # an empty one: two lines down is the entry's one line. Each key is
        # sent when the one before is on the screen (GRUB redraws the line).
        m.hmp("sendkey down")
        m.hmp("sendkey down")
        m.hmp("sendkey end")  # three keys queued in the 8042 in order: nothing to see between them
        typed = "        bench ensembles=100 samples=10000"  # its tab drawn as 8 spaces
        for c in WORDS:
            m.hmp(f"sendkey {KEYS.get(c, c)}")
            typed += c
            m.wait_for(typed, editor, 30, every=0.2)
        m.hmp("sendkey ctrl-x")
        m.wait_for("bench: run ", lambda: menu_text(m), m.timeout, every=1.0)
        rc = m.wait_exit(60)
        text = m.serial_text()
    run = expect_complete(rc, text)
    line = "ensembles=100 samples=10000" + WORDS
    check(run.one("env")["cmdline"] == line, f"the kernel's command line {run.one('env')['cmdline']!r}", text)
    cfg_rec = run.one("config")
    check(cfg_rec["ensembles"] == 2 and cfg_rec["samples"] == 20 and cfg_rec["methods"] == "rdtscp"
          and cfg_rec["problems"] == 0, f"the words typed did not take effect: {cfg_rec}", text)
    check(run.final_line().startswith("bench: run complete: 1 method run"), f"final line {run.final_line()}", text)

"""tests/tools/t_kinds.py - the tools know every record the kernel can print
(issue 22, "Tools that know the kernel").

The kinds are read from the kernel's source, not from a log: every call
rec_begin(&r, "KIND") (lib/record.h, the one writer of the records) in
bench/, kernel/, lib/ and boot/, comments left out. Each kind must be one
tools/benchlog knows (model.py KNOWN_KINDS: CORE_KINDS, read into series,
and SHOWN_KINDS, shown by the report); a failure names the kind and the
file:line that prints it. A call whose kind is not a string literal fails
too: this test could not see what it prints. Then a log holding one record
of every such kind, with none of its fields, is reported: no kind is "not
known to this tool", and no field the report reads is taken for granted.
"""
import os
import re
import sys

from common import ROOT, bench, check, workdir, write

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402

SOURCE_DIRS = ("bench", "kernel", "lib", "boot")
CALL = re.compile(r"\brec_begin\s*\(")
LITERAL = re.compile(r'\s*[^,()]+,\s*"([A-Za-z0-9_]+)"\s*\)')
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _blank(m):
    """A comment replaced by as many newlines as it held (line numbers kept)."""
    return "\n" * m.group(0).count("\n")


def kernel_kinds():
    """({kind: [(file, line)]}, [(file, line, text)] of calls whose kind is
    not a literal), from the kernel's C sources and headers."""
    kinds, unreadable = {}, []
    for top in SOURCE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = COMMENT.sub(_blank, f.read())
                for m in CALL.finditer(text):
                    line = text.count("\n", 0, m.start()) + 1
                    rest = text[m.end():m.end() + 200]
                    if rest.lstrip().startswith("struct rec"):  # the declaration, the definition
                        continue
                    lit = LITERAL.match(rest)
                    if lit:
                        kinds.setdefault(lit.group(1), []).append((rel, line))
                    else:
                        unreadable.append((rel, line, "rec_begin(" + rest.split(";")[0].strip()))
    return kinds, unreadable


def test_every_kernel_record_kind_is_known():
    kinds, unreadable = kernel_kinds()
    known = getattr(benchlog, "KNOWN_KINDS", benchlog.CORE_KINDS + benchlog.SHOWN_KINDS)
    check(len(kinds) >= 20, f"only {len(kinds)} record kinds found in the kernel's source: "
                            f"{sorted(kinds)} (has lib/record.h's rec_begin changed?)")
    unknown = [f"kind {k!r}, printed at {', '.join(f'{p}:{n}' for p, n in where)}"
               for k, where in sorted(kinds.items()) if k not in known]
    bad = [f"{p}:{n}: {t}: the kind is not a string literal, so this test cannot check it"
           for p, n, t in unreadable]
    check(not unknown and not bad,
          "record kinds the kernel prints that tools/benchlog does not know (add each to "
          "tools/benchlog/model.py CORE_KINDS or SHOWN_KINDS, and show it in the report):\n  "
          + "\n  ".join(unknown + bad))


def test_report_knows_every_kernel_record_kind():
    kinds, _ = kernel_kinds()
    lines = ["BEGIN bench-records v1"] + [f'{{"rec":"{k}"}}' for k in sorted(kinds)]
    lines += ["END bench-records", "bench: run complete: 0 methods run, 0 skipped, 0 ensemble errors, "
              "0 command-line problems (exit code 0x10)"]
    d = workdir("kinds_report")
    rc, out = bench("report", write(d, "kinds.log", "\n".join(lines) + "\n"), "--no-figures")
    not_known = re.findall(r"kind '(\w+)', not known to this tool", out)
    check(not not_known, f"the report does not know the kernel's kinds {not_known}", out)

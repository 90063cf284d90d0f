#!/usr/bin/env python3
"""tests/structure/check_docs.py - the README starts with what a user does,
and no link or section reference of the documentation leads nowhere.

  * README.md: its "Quick start" and "Contents" sections lie within its
    first 60 lines (as memtest86+'s README has its contents at line 20),
    and the contents link every section of the README (its ## headings)
    and every docs/*.md file;
  * every relative link of README.md and docs/*.md (outside code) names a
    file that exists and, after a #, a heading of that file: the anchor
    GitHub makes of it (lower case, punctuation but - and _ dropped,
    spaces to -, a repeated heading's anchor numbered -1, -2...);
  * the README's Layout names every file of boot/, kernel/, lib/, bench/,
    tools/, tests/, iso/ and docs/ (a module by its name, x.c and x.h as
    "x"; or a pattern it gives, such as wl_*.c or t_*.py), the corpora and
    goldens by their folder;
  * every section named in a comment of the source, test and build files,
    README "Section" or docs/NAME.md "Section" (a quote may run over
    lines), is a heading of that file.

Run by tests/structure/check_structure.py (`make structure`), or alone:

    python3 tests/structure/check_docs.py
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

QUICK_START_LINES = 60
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`]*`")
# README "Section", README, "Section", README.md "Section", docs/X.md "Section";
# the quote may continue on the next comment line (leaders removed first).
SECTION_REF = re.compile(r'\b(README(?:\.md)?|docs/[A-Z]+\.md),? "([^"]{2,120})"')
COMMENT_LEADER = re.compile(r"\n[ \t]*(?:\*|#|//|;)?[ \t]*")
REF_FILES = ("Makefile", "*.mk", "*.c", "*.h", "*.asm", "*.py", "*.cfg", "*.sh", "*.ld", "*.md")
REF_DIRS = ("boot", "kernel", "lib", "bench", "tools", "tests", "iso", "docs", ".")


def doc_files(root=ROOT):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    inside = False
    for no, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield no, line


def slug(heading):
    """The anchor GitHub gives a heading's text."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def headings(text):
    """[(line number, level, text)] of the markdown headings."""
    out = []
    for no, line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            out.append((no, len(m.group(1)), m.group(2)))
    return out


def anchors(text):
    seen, out = {}, set()
    for _, _, h in headings(text):
        a = slug(h)
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    return out


def links(text):
    """[(line number, target)] of the links outside code."""
    out = []
    for no, line in prose_lines(text):
        for m in LINK.finditer(CODE_SPAN.sub(lambda c: "`" + "x" * (len(c.group()) - 2) + "`", line)):
            out.append((no, line[m.start(2):m.end(2)]))
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def broken_links(path, root=ROOT):
    """What is wrong with each relative link of the markdown file path."""
    bad = []
    for no, target in links(read(path)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        where = f"{os.path.relpath(path, root)}:{no}: ({target})"
        if not os.path.exists(dest):
            bad.append(f"{where}: no file {os.path.relpath(dest, root)}")
        elif anchor and (not dest.endswith(".md") or anchor not in anchors(read(dest))):
            bad.append(f"{where}: no heading with anchor #{anchor} in {os.path.relpath(dest, root)}")
    return bad


def quick_start_problems(root=ROOT):
    """What keeps the README's quick start and contents from its first lines."""
    text = read(os.path.join(root, "README.md"))
    hs = headings(text)
    bad = []
    for name in ("Quick start", "Contents"):
        at = [i for i, (no, lvl, h) in enumerate(hs) if lvl == 2 and h == name]
        if not at:
            bad.append(f'README.md has no "## {name}" section')
            continue
        i = at[0]
        end = hs[i + 1][0] - 1 if i + 1 < len(hs) else len(text.split("\n"))
        if end > QUICK_START_LINES:
            bad.append(f'README.md: "## {name}" runs from line {hs[i][0]} to line {end}, '
                       f"beyond the first {QUICK_START_LINES}")
        if name == "Contents":
            body = "\n".join(text.split("\n")[hs[i][0]:end])
            targets = {t for _, t in links(body)}
            for no, lvl, h in hs:
                if lvl == 2 and h != "Contents" and "#" + slug(h) not in targets:
                    bad.append(f'README.md: the contents do not link the section "{h}" (line {no})')
            for doc in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
                rel = os.path.relpath(doc, root)
                if not any(t.split("#")[0] == rel for t in targets):
                    bad.append(f"README.md: the contents do not link {rel}")
    return bad


def ref_sources(root=ROOT):
    seen = set()
    for d in REF_DIRS:
        for pattern in REF_FILES:
            where = (root, pattern) if d == "." else (root, d, "**", pattern)
            for path in glob.glob(os.path.join(*where), recursive=True):
                path = os.path.normpath(path)
                rel = os.path.relpath(path, root)
                if path in seen or rel.startswith(("build", ".git", "tests/corpus")) or \
                        rel == "tests/structure/check_docs.py":  # its own examples
                    continue
                seen.add(path)
                yield path


def section_ref_problems(root=ROOT):
    """Each README "Section" or docs/X.md "Section" in a file of the tree
    whose section is not a heading of that file."""
    cache, bad = {}, []
    for path in ref_sources(root):
        try:
            text = read(path)
        except (UnicodeDecodeError, OSError):
            continue
        flat = COMMENT_LEADER.sub(" ", text)
        for m in SECTION_REF.finditer(flat):
            doc = "README.md" if m.group(1).startswith("README") else m.group(1)
            if doc not in cache:
                p = os.path.join(root, doc)
                cache[doc] = {h for _, _, h in headings(read(p))} if os.path.exists(p) else None
            section = re.sub(r"\s+", " ", m.group(2))
            if cache[doc] is None:
                bad.append(f'{os.path.relpath(path, root)}: {m.group(1)} "{section}": no file {doc}')
            elif section not in cache[doc]:
                bad.append(f'{os.path.relpath(path, root)}: {m.group(1)} "{section}": no such heading in {doc}')
    return bad


LAYOUT_DIRS = ("boot", "kernel", "lib", "bench", "tools", "tests", "iso", "docs")
LAYOUT_BY_FOLDER = ("tests/corpus/", "tests/golden/")  # data: named by their folder


def layout_problems(root=ROOT):
    """The files the README's Layout section does not name."""
    text = read(os.path.join(root, "README.md"))
    m = re.search(r"\n## Layout\n(.*?)(?=\n## |\Z)", text, re.S)
    if not m:
        return ["README.md has no \"## Layout\" section"]
    layout = m.group(1)
    patterns = [re.compile(re.escape(p).replace(r"\*", r"[\w.-]*") + "$")
                for p in re.findall(r"[\w.-]*\*[\w.*-]*", layout)]
    bad = []
    for d in LAYOUT_DIRS:
        for dirpath, dirs, files in os.walk(os.path.join(root, d)):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            rel_dir = os.path.relpath(dirpath, root) + "/"
            if rel_dir.startswith(LAYOUT_BY_FOLDER):
                continue
            for f in files:
                name = os.path.splitext(f)[0]
                if re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", layout) or \
                        any(p.match(f) for p in patterns):
                    continue
                bad.append(rel_dir + f)
    return sorted(bad)


def test_readme_layout_names_every_file():
    bad = layout_problems()
    assert not bad, (f"README.md's Layout does not name {len(bad)} files (add each with what it "
                     "holds):\n  " + "\n  ".join(bad))


def test_readme_quick_start_first():
    bad = quick_start_problems()
    assert not bad, "\n  ".join([f"{len(bad)} problems:"] + bad)


def test_doc_links_resolve():
    bad = [b for p in doc_files() for b in broken_links(p)]
    assert not bad, "\n  ".join([f"{len(bad)} broken links:"] + bad)


def test_section_references_resolve():
    bad = section_ref_problems()
    assert not bad, "\n  ".join([f"{len(bad)} section references lead nowhere:"] + bad)


def test_finds_planted_problems():
    """The checker itself, on made-up files: a missing file, a missing
    anchor, a repeated heading's anchor, a link in code ignored."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "docs"))
        with open(os.path.join(d, "docs", "A.md"), "w") as f:
            f.write("# A\n\n## Every CPU: `cpus=`\n\n## Twice\n\n## Twice\n\n```\n[x](NOPE.md)\n```\n"
                    "`[y](NOPE.md)`\n[ok](#every-cpu-cpus) [ok](#twice-1) [bad](#twice-2) [bad](B.md)\n")
        bad = broken_links(os.path.join(d, "docs", "A.md"), d)
        assert [b.split(": (")[1] for b in bad] == ["#twice-2): no heading with anchor #twice-2 in docs/A.md",
                                                   "B.md): no file docs/B.md"], bad
    assert slug("Every CPU: `cpus=`") == "every-cpu-cpus" and slug("Memory above 4 GiB") == "memory-above-4-gib"


def tests():
    """[(name, test)] for tests/runner.py."""
    return [("docs." + n[len("test_"):], f) for n, f in globals().items()
            if n.startswith("test_") and callable(f)]


class Skip(Exception):
    pass


def main():
    sys.path.insert(0, os.path.dirname(HERE))
    from runner import run_all
    build = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
    return run_all("docs", tests(), Skip, build)


if __name__ == "__main__":
    sys.exit(main())

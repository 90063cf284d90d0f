"""tools/benchplanasm.py - a plan file from an annotated assembly file
(`bench.py plan FILE.asm`; README "Writing a plan"):

    ;; defaults WORD...              the plan's defaults line (at most once)
    ;; experiment NAME [WORD...]     opens an experiment: its name and boot parameters
    ;; init                          its init code follows (run before each sample,
                                     outside the window)
    ;; code                          its measured code follows

Without `;; init`, everything after `;; experiment` is its code. Every other
line is nasm source (comments included); the lines before the first
`;; experiment` are shared by every experiment and may only define
(%define, %macro, equ): they must assemble to no bytes. Each part is
assembled with nasm as `bench.py asm` does (tools/benchasm.py), its lines
named by the .asm file's line numbers (nasm's %line), and checked against
the kernel's limit: at most CODE_MAX_BYTES (bench/code.h) bytes each for
code= and init=. The plan written is checked by tools/benchplan.py, the
kernel's parser in Python.
"""
import difflib
import os
import re

import benchasm
import benchplan

CODE_MAX_BYTES = 4096  # bench/code.h CODE_MAX_BYTES: the most bytes code= and init= take
ANNOTATIONS = ("experiment", "init", "code", "defaults")
# Words the annotations give, never written by hand.
GIVEN = {"code": "the bytes of its ';; code' part", "init": "the bytes of its ';; init' part",
         "code.name": "the experiment's name (the plan names the results)"}
# Boot-wide keys: on the command line or in the defaults line, never in an
# experiment's (README "A plan: many experiments in one boot").
BOOT_WIDE = ("console", "after", "save", "plan", "identity", "problems", "output", "pmu", "smp",
             "smp.park", "cpus", "turbo", "pstate", "prefetch", "send")
ANNOTATION = re.compile(r"^\s*;;\s*(\S+)(?:\s+(.*?))?\s*$")


class PlanAsmError(Exception):
    """Every problem found, one line each (str(e) joins them)."""

    def __init__(self, problems):
        super().__init__("\n".join(problems))
        self.problems = problems


class Experiment:
    def __init__(self, name, line, words):
        self.name, self.line, self.words = name, line, words
        self.init, self.code = None, []   # [(line number, text)]; init None: no ';; init'
        self.part = "code"        # where the next source line goes
        self.code_marked = False  # a ';; code' was seen


def _blank(line):
    """A source line with no instruction: blank or a comment."""
    t = line.strip()
    return not t or t.startswith(";")


def read(text, path):
    """(prelude, defaults words, defaults line, [Experiment]) of the
    annotated source text; raises PlanAsmError with every annotation
    problem."""
    problems, experiments, prelude = [], [], []
    defaults, defaults_line = "", 0
    where = lambda n: f"{path} line {n}"  # noqa: E731
    for n, line in enumerate(text.split("\n"), 1):
        m = ANNOTATION.match(line)
        word = m.group(1) if m else None
        if m and word not in ANNOTATIONS:
            near = difflib.get_close_matches(word.lower(), ANNOTATIONS, 1, 0.75)
            if near or word.lower() in ANNOTATIONS:
                problems.append(f"{where(n)}: ';; {word}' is not an annotation (did you mean ';; {near[0]}'?); "
                                "a comment is one ';' (annotations: ;; experiment, ;; init, ;; code, ;; defaults)")
                continue
            m = None  # a ';;' comment
        if not m:
            if experiments:
                e = experiments[-1]
                (e.code if e.part == "code" else e.init).append((n, line))
            else:
                prelude.append((n, line))
            continue
        rest = (m.group(2) or "").split()
        if word == "defaults":
            if defaults_line:
                problems.append(f"{where(n)}: a second ';; defaults' (the first is line {defaults_line})")
                continue
            problems += [f"{where(n)}: {p}" for p in check_words(rest, defaults=True)]
            defaults, defaults_line = " ".join(rest), n
        elif word == "experiment":
            if not rest:
                problems.append(f"{where(n)}: ';; experiment' without a name (';; experiment NAME [WORD...]')")
                continue
            why = benchplan.check_name(rest[0])
            if why:
                problems.append(f"{where(n)}: ';; experiment {rest[0]}': {why}")
            first = next((e for e in experiments if e.name == rest[0]), None)
            if first:
                problems.append(f"{where(n)}: experiment {rest[0]} is already line {first.line}'s")
            problems += [f"{where(n)}: {p}" for p in check_words(rest[1:], defaults=False)]
            experiments.append(Experiment(rest[0], n, " ".join(rest[1:])))
        else:  # init, code
            if rest:
                problems.append(f"{where(n)}: ';; {word}' takes nothing after it (a comment is one ';')")
            if not experiments:
                problems.append(f"{where(n)}: ';; {word}' before any ';; experiment NAME'")
                continue
            e = experiments[-1]
            if word == "init":
                first = next((k for k, t in e.code if not _blank(t)), None)
                if e.init is not None or e.code_marked or first:
                    what = ("a second ';; init'" if e.init is not None else
                            "';; init' after its ';; code'" if e.code_marked else
                            f"';; init' after its code (line {first})")
                    problems.append(f"{where(n)}: {what} in experiment {e.name} (line {e.line}): "
                                    "';; init' comes first, then ';; code'")
                    continue
                e.init, e.part = [], "init"
            else:
                if e.code_marked:
                    problems.append(f"{where(n)}: a second ';; code' in experiment {e.name} (line {e.line})")
                    continue
                e.code_marked, e.part = True, "code"
    if not experiments and not problems:
        problems.append(f"{path}: no ';; experiment NAME' line: nothing to measure")
    if problems:
        raise PlanAsmError(problems)
    return prelude, defaults, defaults_line, experiments


def check_words(words, defaults):
    """Problems of an annotation's boot parameters (their values are the
    kernel's to check)."""
    out = []
    for w in words:
        key = w.split("=", 1)[0]
        if any(not " " < c <= "~" for c in w):
            out.append(f"'{ascii(w)[1:-1]}' holds a character that is not printable ASCII (a plan is ASCII)")
        elif "=" not in w or not key:
            out.append(f"'{w}' is not a boot parameter KEY=VALUE")
        elif key in GIVEN:
            out.append(f"{key}= is not written here: the plan gives {GIVEN[key]}")
        elif not defaults and (key in BOOT_WIDE or key.startswith("test.")):
            out.append(f"{key}= is boot-wide: put it in ';; defaults' (or on the command line)")
    return out


def _assemble(path, prelude, lines, what):
    """The bytes of one part: bits 64, the shared lines, then lines, each
    under its own line number in path."""
    src, last = ["bits 64"], None
    for n, t in prelude + lines:
        if n != last:
            src.append(f"%line {n - 1}+1 {path}")
        src.append(t)
        last = n + 1
    try:
        return benchasm.nasm_source("\n".join(src) + "\n")
    except benchasm.AsmError as e:
        msgs = [re.sub(r"^.*?:(\d+): ", lambda m: f"{path} line {m.group(1)}: ", l)
                for l in str(e).splitlines()]
        raise PlanAsmError([f"{what}: nasm: {m}" for m in msgs]) from None


def build(path, text=None, shown=None):
    """The plan file's text from the annotated assembly file at path (its
    text given, or read); shown: the name written in the plan's header
    (default path). Raises PlanAsmError with every problem."""
    if text is None:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    shown = shown or path
    prelude, defaults, _, experiments = read(text, shown)
    problems = []
    if prelude:
        try:
            data = _assemble(shown, prelude, [], "the lines before the first ';; experiment'")
            if data:
                problems.append(f"{shown} lines {prelude[0][0]}..{prelude[-1][0]} (before the first "
                                f"';; experiment'): they assemble to {len(data)} bytes; only definitions "
                                "(%define, %macro, equ) may come before an experiment")
        except PlanAsmError as e:
            problems += e.problems
    out = []
    for e in experiments:
        parts = []
        for kind, lines in (("init", e.init), ("code", e.code)):
            if lines is None:
                continue
            what = f"experiment {e.name} (line {e.line}), its {kind}"
            try:
                data = _assemble(shown, prelude, lines, what)
            except PlanAsmError as err:
                problems += err.problems
                continue
            if not data:
                problems.append(f"{what}: assembles to no bytes")
            elif len(data) > CODE_MAX_BYTES:
                problems.append(f"{what}: {len(data)} bytes, more than the {CODE_MAX_BYTES} "
                                f"{kind}= takes (bench/code.h CODE_MAX_BYTES)")
            else:
                parts.append(f"{kind}={data.hex()}")
        words = " ".join(([e.words] if e.words else []) + parts)
        sizes = ", ".join(f"{p.split('=')[0]} {len(p.split('=')[1]) // 2} bytes" for p in parts)
        out.append((e.name, words, [f"{e.name}: {shown} line {e.line} ({sizes})"]))
    if problems:
        raise PlanAsmError(problems)
    header = [f"plan.txt: generated by tools/bench.py plan from {shown}; edit that file,",
              f"then run `tools/bench.py plan {shown} -o plan.txt` again. README \"Writing a plan\".",
              f"{len(experiments)} experiment{'s' if len(experiments) != 1 else ''}; init= and code= are "
              "nasm's bytes of their parts."]
    plan = benchplan.write(out, defaults, header)
    check = benchplan.parse(plan.encode("utf-8"), "plan.txt")
    if check.problems:
        raise PlanAsmError([f"the plan written from {shown} has a problem: {p}" for p in check.problems])
    if len(plan) > benchplan.FILE_MAX:
        raise PlanAsmError([f"the plan written from {shown} is {len(plan)} bytes, more than the "
                            f"{benchplan.FILE_MAX} the kernel reads (kernel/planfile.h PLANFILE_MAX)"])
    return plan


def stick_target(mountpoint, force=False):
    """MOUNTPOINT/plan.txt, or PlanAsmError when the folder does not look
    like the stick's FAT partition (no results/ folder) and not force."""
    if not os.path.isdir(mountpoint):
        raise PlanAsmError([f"--stick {mountpoint}: no such folder (mount the stick's BENCH partition first)"])
    names = [n for n in os.listdir(mountpoint) if n.lower() == "results"]
    if not force and not any(os.path.isdir(os.path.join(mountpoint, n)) for n in names):
        raise PlanAsmError([f"--stick {mountpoint}: no results/ folder there, so this is not the bench "
                            "stick's FAT partition (the one a laptop mounts); --force writes plan.txt anyway"])
    return os.path.join(mountpoint, "plan.txt")

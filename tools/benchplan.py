"""tools/benchplan.py - the plan file's format (README "Writing a plan"),
as lib/plan.h gives it and lib/plan.c parses it in the kernel: parse() a
plan into its experiments and defaults with the same problems, message for
message (tests/tools/t_plan_asm.py runs both on the same texts), and
write() a plan file.

A plan is plain ASCII text, one experiment a line: `NAME WORD...` (NAME 1..31
of A-Z a-z 0-9 _ . - starting with a letter or digit; the WORDs boot
parameters), one `defaults WORD...` line at most, `#` comment lines, blank
lines, a trailing `\\` continuing a line on the next.
"""
import collections

NAME_MAX = 31          # lib/plan.h PLAN_NAME_MAX
EXPERIMENTS_MAX = 64   # lib/plan.h PLAN_EXPERIMENTS_MAX
LINE_MAX = 24576       # lib/plan.h PLAN_LINE_MAX (lib/cmdline.h CFG_MAX_LINE)
FILE_MAX = 65536       # kernel/planfile.h PLANFILE_MAX: the largest file the kernel reads
QUOTE_SIZE = 52        # lib/plan.c: a quoted name or file name, as fmt_escape's size
NAME_CHARS = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")

Experiment = collections.namedtuple("Experiment", "name line words")


class Plan:
    """experiments: [Experiment(name, line, words)] in the file's order;
    defaults: the defaults line's words ("" when none); defaults_line (0
    when none); problems: the messages, one line each."""

    def __init__(self):
        self.experiments = []
        self.defaults = ""
        self.defaults_line = 0
        self.problems = []


def fmt_escape(data, size):
    """data (bytes, up to a NUL) as lib/fmt.h fmt_escape writes it into a
    buffer of size bytes: printable ASCII, '\\' and '"' escaped, \\n \\r \\t,
    \\xHH; cut with "..." when it does not fit."""
    out, fits, cut = "", 0, False
    for c in data:
        if c == 0:
            break
        if c in (0x5C, 0x22):
            e = "\\" + chr(c)
        elif c in (0x0A, 0x0D, 0x09):
            e = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}[c]
        elif c < 0x20 or c > 0x7E:
            e = f"\\x{c:02x}"
        else:
            e = chr(c)
        if len(out) + len(e) > size - 1:
            cut = True
            break
        out += e
        if len(out) <= size - 4:
            fits = len(out)
    return out[:fits] + "..." if cut else out


def _same(a, b, exact):
    return a == b if exact else a.lower() == b.lower()


def parse(data, file="plan.txt"):
    """Plan of data (bytes or str) read from file (its name, for the
    messages). Never raises: every problem is a message in .problems."""
    if isinstance(data, str):
        data = data.encode("latin-1")
    fname = file.encode("latin-1", "replace") if isinstance(file, str) else file
    fq = fmt_escape(fname[:256], QUOTE_SIZE)
    plan = Plan()
    state = {"seen": 0, "extra": 0, "extra_line": 0, "extra_name": ""}

    def problem(line, name, what):
        if line and name:
            msg = f"plan: {fq} line {line} ({name}): {what}"
        elif line:
            msg = f"plan: {fq} line {line}: {what}"
        else:
            msg = f"plan: {fq}: {what}"
        plan.problems.append(msg[:319])

    def logical(text, line, bad):
        if not text:
            return  # a lone '\' continued onto a blank line
        sp = text.find(b" ")
        name = text if sp < 0 else text[:sp]
        words = "" if sp < 0 else text[sp + 1:].decode("latin-1")
        is_defaults = name == b"defaults"
        quoted = fmt_escape(name, QUOTE_SIZE)
        bad_name, at = None, 0
        if not is_defaults:
            while at < len(name) and name[at] in NAME_CHARS:
                at += 1
            if _same(name, b"defaults", False) or _same(name, b"default", False):
                bad_name = "defaults"
            elif at < len(name):
                bad_name = "char"
            elif name[:1] in (b"_", b".", b"-"):
                bad_name = "first"
            elif len(name) > NAME_MAX:
                bad_name = "long"
        if bad:
            if not is_defaults:
                state["seen"] += 1
            elif not plan.defaults_line:
                plan.defaults_line = line
            return
        shown = None if (is_defaults or bad_name) else quoted
        if len(text) > LINE_MAX:
            problem(line, shown, f"{len(text)} characters with its continuations joined, "
                    f"longer than the {LINE_MAX} a line may hold")
            bad = True
        if is_defaults:
            if plan.defaults_line:
                problem(line, None, f"a second defaults line (the first is line {plan.defaults_line}); "
                        "a plan has at most one")
                return
            plan.defaults_line = line
            if not bad:
                plan.defaults = words
            return
        state["seen"] += 1
        if bad_name == "defaults":
            problem(line, None, f"'{quoted}' is not an experiment's name: the words every experiment "
                    "shares go on one line 'defaults WORD...' (in lower case)")
            return
        if bad_name == "char" and name[at] == 0x3D:
            problem(line, None, f"'{quoted}' is not a name: a line is NAME WORD..., the experiment's "
                    "name first (e.g. imul_lat code=480fafc0)")
            return
        rule = f"a name is 1..{NAME_MAX} of A-Z a-z 0-9 _ . - starting with a letter or digit"
        if bad_name == "char":
            problem(line, None, f"the name '{quoted}' has '{fmt_escape(name[at:at + 1], 8)}' at "
                    f"character {at + 1}; {rule}")
            return
        if bad_name == "first":
            problem(line, None, f"the name '{quoted}' starts with '{chr(name[0])}'; {rule}")
            return
        if bad_name == "long":
            problem(line, None, f"the name '{quoted}' is {len(name)} characters, longer than the "
                    f"{NAME_MAX} a name may have")
            return
        if bad:
            return
        sname = name.decode("ascii")
        for e in plan.experiments:
            if e.name == sname:
                problem(line, quoted, f"the name is given twice: line {e.line}'s experiment has it already")
                return
        if len(plan.experiments) == EXPERIMENTS_MAX:
            if not state["extra"]:
                state["extra_line"], state["extra_name"] = line, sname
            state["extra"] += 1
            return
        plan.experiments.append(Experiment(sname, line, words))

    i = 3 if data[:3] == b"\xef\xbb\xbf" else 0
    n = len(data)
    ln = 0
    is_open, open_line, cont_line, bad, parts = False, 0, 0, False, []
    while i < n:
        ln += 1
        j = data.find(b"\n", i)
        if j < 0:
            j = n
        raw = data[i:j]
        i = j + 1 if j < n else n
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        body = raw.lstrip(b" \t")
        if body.startswith(b"#"):
            continue  # a comment, also between continued lines
        if not body:
            if is_open:
                logical(b" ".join(parts), open_line, bad)
                is_open = False
            continue
        col0 = len(raw) - len(body)
        for k, c in enumerate(body):
            if (c < 0x20 and c != 0x09) or c > 0x7E:
                problem(ln, None, f"byte 0x{c:02x} at column {col0 + k + 1} is not printable ASCII "
                        "(a plan is plain ASCII text)")
                line_bad = True
                break
        else:
            line_bad = False
        body = body.rstrip(b" \t")
        cont = body.endswith(b"\\")
        if cont:
            body = body[:-1]
        if not is_open:
            is_open, open_line, bad, parts = True, ln, False, []
        bad = bad or line_bad
        parts.extend(w for w in body.replace(b"\t", b" ").split(b" ") if w)
        if cont:
            cont_line = ln
            continue
        logical(b" ".join(parts), open_line, bad)
        is_open = False
    if is_open:
        problem(cont_line, None, "the line ends in '\\' (continued) but the file ends there; "
                "remove the '\\' or add the line it continues on")
        logical(b" ".join(parts), open_line, True)
    if state["extra"]:
        problem(state["extra_line"], state["extra_name"],
                f"more than {EXPERIMENTS_MAX} experiments: this one and the {state['extra'] - 1} after it "
                "are left out; split the plan in two")
    if not state["seen"]:
        problem(0, None, "no experiment (a plan needs at least one line 'NAME WORD...'; "
                "it has only comments, blank lines or defaults)")
    return plan


def check_name(name):
    """None when name is a good experiment name, else why not (the
    parser's words)."""
    p = parse(f"{name}\n".encode("latin-1"), "x")
    if p.problems:
        return p.problems[0].split(": ", 2)[-1]
    return None


def write(experiments, defaults="", header=(), width=100):
    """The text of a plan file: header lines as '#' comments, then the
    defaults line (when words), then each experiment (name, words, and
    optionally comment lines before it: tuples (name, words, comments)),
    long lines continued with '\\' between words (a word is never split),
    a blank line between experiments."""
    out = [f"# {h}".rstrip() for h in header]
    if out:
        out.append("")
    if defaults:
        out.append(_wrap(["defaults"] + defaults.split(), width))
        out.append("")
    for exp in experiments:
        name, words = exp[0], exp[1]
        comments = exp[2] if len(exp) > 2 else ()
        out.extend(f"# {c}".rstrip() for c in comments)
        out.append(_wrap([name] + words.split(), width))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _wrap(words, width):
    lines, cur = [], words[0]
    for w in words[1:]:
        if len(cur) + 1 + len(w) + 2 > width:
            lines.append(cur + " \\")
            cur = "    " + w
        else:
            cur += " " + w
    lines.append(cur)
    return "\n".join(lines)

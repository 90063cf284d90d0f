"""tools/benchasm.py - the user's code as boot parameters: assemble text
with nasm (bits 64, -f bin) into the hex of code= and init=, and
disassemble those bytes again (objdump -b binary -m i386:x86-64) for a
report. README "Measuring your own code"."""
import os
import re
import shutil
import subprocess
import tempfile


class AsmError(Exception):
    pass


def assemble(text):
    """bytes of text (Intel syntax, nasm; ';' or newlines between
    instructions). Raises AsmError with nasm's messages."""
    src = "bits 64\n" + "\n".join(s.strip() for s in re.split(r"[;\n]", text)) + "\n"
    try:
        data = nasm_source(src)
    except AsmError as e:
        msgs = [re.sub(r"^.*code\.asm:(\d+):", lambda m: f"line {int(m.group(1)) - 1}:", l)
                for l in str(e).splitlines()]
        raise AsmError(f"nasm cannot assemble {text!r}: " + "; ".join(msgs)) from None
    if not data:
        raise AsmError(f"{text!r} assembles to no bytes")
    return data


def nasm_source(src):
    """bytes of a whole nasm source file's text (nasm -f bin; src says
    `bits 64` itself; %line directives name its lines as the user's file
    does). Raises AsmError with nasm's messages, one a line, when nasm
    fails (or is missing)."""
    if not shutil.which("nasm"):
        raise AsmError("nasm is not installed (Debian package nasm; `make deps` installs it)")
    with tempfile.TemporaryDirectory() as d:
        asm, out = os.path.join(d, "code.asm"), os.path.join(d, "code.bin")
        with open(asm, "w") as f:
            f.write(src)
        p = subprocess.run(["nasm", "-f", "bin", "-o", out, asm], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise AsmError(p.stderr.strip())
        return open(out, "rb").read()


def disassemble(data):
    """[(offset, hex bytes, instruction)] of x86-64 machine code."""
    if not data:
        return []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "code.bin")
        with open(path, "wb") as f:
            f.write(data)
        p = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "-M", "intel", path],
                           capture_output=True, text=True, timeout=60)
    out = []
    for line in p.stdout.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$", line)
        if m:
            out.append((int(m.group(1), 16), m.group(2).replace(" ", ""), m.group(3).strip()))
    return out


def boot_parameters(code, init=None, unroll=None, loops=None, name=None):
    """The words to add to the kernel command line."""
    words = [f"code={assemble(code).hex()}"]
    if init:
        words.append(f"init={assemble(init).hex()}")
    for key, v in (("unroll", unroll), ("loops", loops), ("code.name", name)):
        if v not in (None, ""):
            words.append(f"{key}={v}")
    return " ".join(words)

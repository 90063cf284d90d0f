#!/usr/bin/env python3
"""tests/corpus/acpi/extract.py - build machines.txt.gz, the real machines'
ACPI tables that tests/unit/test_acpi_corpus.c runs through lib/acpi.c, from
a clone of github:linuxhw/ACPI (acpidump texts uploaded by hw-probe users;
CC BY 4.0, LICENSE beside this file).

    extract.py LINUXHW_GIT_DIR [COMMIT] > /dev/null   (writes machines.txt.gz here)

Which machines: every machine of the collection at COMMIT (default HEAD)
whose acpidump text (the .bin file beside each decoded report) is stored
and holds a MADT (APIC) and a FADT (FACP), in the order of their paths
(Type/Vendor/Model prefix/Model/HWID), so the choice is the same on every
run. What is kept of each: the RSDP, RSDT, XSDT (when the dump has them;
most dumps were read from /sys/firmware/acpi/tables and have none), every
APIC, FACP and HPET table, byte for byte, in the dump's order; the rest
(DSDT, SSDTs...) is dropped.

The expected values: each kept table is decoded by ACPICA's disassembler
(`iasl -d`, Debian package acpica-tools) here, once, and the fields the
project decodes are written beside the bytes as iasl printed them. They
are precomputed rather than decoded by iasl during `make check` because
~2,000 iasl runs take minutes on a busy 2-core box, the expectations are
then plain text anyone can read and diff, the test needs nothing beyond
the C compiler, and it cannot be skipped for a missing tool. The iasl
version used is written into the file's first lines.

The file, one record a line, fields separated by one space:
    # comment
    machine N PATH                  (N from 0; PATH with spaces as %20)
    table SIG ADDR HEX              (ADDR: the dump's address, 0 when unknown)
    iasl SIG I key=value ...        (I: the instance of SIG in this machine,
                                     values hexadecimal as iasl printed them)
    iasl-cpu I key=value ...        (a processor entry of MADT instance I)
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEEP = ("RSD PTR", "RSDT", "XSDT", "APIC", "FACP", "HPET")
HEADER = re.compile(r"^(\S.{2,7}?) @ 0x([0-9A-Fa-f]+)\s*$")
HEXLINE = re.compile(r"^\s+[0-9A-Fa-f]{4,}: ((?:[0-9A-Fa-f]{2} ){1,16})")
FIELD = re.compile(r"^\[[0-9A-Fa-f]+h (\d+) +\d+\] +(.+?) : (.*)$")


def git(gitdir, *args, data=None):
    return subprocess.run(["git", "-C", gitdir, *args], input=data, capture_output=True, check=True).stdout


def dump_tables(text):
    """[(sig, addr, bytes)] of an acpidump text, in its order."""
    tables, cur = [], None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            cur = [m.group(1).strip(), int(m.group(2), 16), bytearray()]
            tables.append(cur)
            continue
        m = HEXLINE.match(line)
        if m and cur is not None:
            cur[2] += bytes.fromhex(m.group(1))
    return [(s, a, bytes(b)) for s, a, b in tables]


def fields(dsl):
    """iasl's decoded fields: [(group, name, first token of the value)],
    group being the Generic Address Structure or subtable they belong to."""
    out, group = [], ""
    for line in dsl.splitlines():
        m = FIELD.match(line)
        if not m:
            if not line.strip():
                group = ""
            continue
        name, value = m.group(2).strip(), m.group(3).strip()
        if "[Generic Address Structure]" in value:
            group = name
            continue
        token = value.split()[0] if value else ""
        out.append((group, name, token))
        if name == "Checksum":
            out.append(("", "csum_ok", "0" if "Incorrect checksum" in value else "1"))
    return out


def first(fs, name, group=""):
    for g, n, v in fs:
        if n == name and g == group:
            return v
    return None


def kv(pairs):
    return " ".join(f"{k}={v}" for k, v in pairs if v is not None)


def describe(sig, i, dsl):
    """The iasl lines of one table."""
    fs = fields(dsl)
    bad = "1" if any(l.startswith("**** ") for l in dsl.splitlines()) else "0"
    head = [("csum", first(fs, "csum_ok")), ("len", first(fs, "Table Length")), ("rev", first(fs, "Revision")),
            ("warn", bad)]
    if sig == "FACP":
        r, x = "Reset Register", "PM Timer Block"
        return [f"iasl FACP {i} " + kv(head + [
            ("pm_blk", first(fs, "PM Timer Block Address")), ("pm_len", first(fs, "PM Timer Block Length")),
            ("flags", first(fs, "Flags (decoded below)")),
            ("reset_space", first(fs, "Space ID", r)), ("reset_width", first(fs, "Bit Width", r)),
            ("reset_offset", first(fs, "Bit Offset", r)), ("reset_access", first(fs, "Encoded Access Width", r)),
            ("reset_addr", first(fs, "Address", r)), ("reset_value", first(fs, "Value to cause reset")),
            ("xpm_space", first(fs, "Space ID", x)), ("xpm_addr", first(fs, "Address", x))])]
    if sig == "HPET":
        g = "Timer Block Register"
        return [f"iasl HPET {i} " + kv(head + [
            ("space", first(fs, "Space ID", g)), ("addr", first(fs, "Address", g)),
            ("number", first(fs, "Sequence Number")), ("min_tick", first(fs, "Minimum Clock Ticks"))])]
    # APIC: the header's fields, then one dictionary per subtable.
    subs, cur = [], None
    for g, n, v in fs:
        if n == "Subtable Type":
            cur = {}
            subs.append(cur)
        if cur is not None:
            cur.setdefault(n, v)
    top = fs if not subs else fs[:next(k for k, f in enumerate(fs) if f[1] == "Subtable Type")]
    ioapics = sum(1 for s in subs if s["Subtable Type"] == "01")
    override = [s.get("APIC Address") for s in subs if s["Subtable Type"] == "05"]
    lines = [f"iasl APIC {i} " + kv(head + [
        ("lapic", first(top, "Local Apic Address")), ("flags", first(top, "Flags (decoded below)")),
        ("ioapics", str(ioapics)), ("override", override[0] if override else None),
        ("entries", str(len(subs)))])]
    for s in subs:
        if s["Subtable Type"] == "00":
            lines.append(f"iasl-cpu {i} " + kv([("type", "0"), ("uid", s.get("Processor ID")),
                                                ("id", s.get("Local Apic ID")), ("flags", s.get("Flags (decoded below)"))]))
        elif s["Subtable Type"] == "09":
            lines.append(f"iasl-cpu {i} " + kv([("type", "9"), ("uid", s.get("Processor UID")),
                                                ("id", s.get("Processor x2Apic ID")),
                                                ("flags", s.get("Flags (decoded below)"))]))
    return lines


def iasl_decode(tables):
    """iasl -d on each table: {index: dsl text}."""
    out = {}
    with tempfile.TemporaryDirectory() as d:
        names = []
        for k, (sig, _, data) in enumerate(tables):
            if sig in ("APIC", "FACP", "HPET"):
                names.append((k, f"t{k}.dat"))
                with open(os.path.join(d, f"t{k}.dat"), "wb") as f:
                    f.write(data)
        if names:
            subprocess.run(["iasl", "-d"] + [n for _, n in names], cwd=d, capture_output=True, timeout=300)
        for k, n in names:
            p = os.path.join(d, n[:-4] + ".dsl")
            out[k] = open(p, encoding="latin-1").read() if os.path.exists(p) else ""
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gitdir = sys.argv[1]
    commit = git(gitdir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").decode().strip()
    version = subprocess.run(["iasl", "-v"], capture_output=True, text=True).stdout
    version = next((l.strip() for l in version.splitlines() if "version" in l), "iasl: unknown version")
    rows = []
    for e in git(gitdir, "ls-tree", "-r", "-z", commit).split(b"\0"):
        if e:
            meta, path = e.split(b"\t", 1)
            if path.endswith(b".bin"):
                rows.append((path.decode("utf-8", "replace")[:-4], meta.split()[2].decode()))
    rows.sort()
    present = git(gitdir, "cat-file", "--batch-check", data="".join(b + "\n" for _, b in rows).encode())
    stored = {l.split()[0] for l in present.decode().splitlines() if not l.endswith("missing")}
    out = [f"# linuxhw/ACPI commit {commit}: every stored acpidump with a MADT and a FADT (extract.py)",
           f"# expected values: {version} (iasl -d)"]
    n = skipped = 0
    for path, blob in rows:
        if blob not in stored:
            skipped += 1
            continue
        tables = [t for t in dump_tables(git(gitdir, "cat-file", "blob", blob).decode("latin-1"))
                  if t[0] in KEEP and t[2]]
        sigs = [t[0] for t in tables]
        if "APIC" not in sigs or "FACP" not in sigs:
            skipped += 1
            continue
        dsl = iasl_decode(tables)
        out.append(f"machine {n} {path.replace(' ', '%20')}")
        seen = {}
        for k, (sig, addr, data) in enumerate(tables):
            out.append(f"table {sig.replace(' ', '_')} {addr:x} {data.hex()}")
            if k in dsl:
                i = seen[sig] = seen.get(sig, -1) + 1
                out.extend(describe(sig, i, dsl[k]))
        n += 1
    with open(os.path.join(HERE, "machines.txt.gz"), "wb") as f:
        f.write(gzip.compress(("\n".join(out) + "\n").encode(), 9, mtime=0))
    print(f"extract.py: {n} machines written, {skipped} left out (not stored, or no MADT or FADT)", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""tests/corpus/smbios/extract.py - build machines.txt.gz, the real machines'
SMBIOS tables that tests/unit/test_smbios_corpus.c runs through
lib/smbios.c, from a clone of github:u-root/u-root (its
cmds/exp/dmidecode/testdata/*.bin: `dmidecode --dump-bin` files of real
machines; BSD-3-Clause, LICENSE beside this file).

    extract.py UROOT_GIT_DIR [COMMIT]    (writes machines.txt.gz here)

Which machines: every testdata/*.bin at COMMIT (default HEAD), in the order
of their names. A --dump-bin file is the entry point (its table address
rewritten to 20h) followed by the structure table at offset 20h, byte for
byte as the machine had it.

The expected values: Debian's dmidecode (`dmidecode --from-dump FILE -t
0,1,2,4,17`, its version written into the file's first line) decodes each
file here, once, and the fields lib/smbios.h keeps are written beside the
bytes as dmidecode printed them, with these mappings: "Not Specified" (a
string index 0) and an absent field become empty; a UUID's "Not Present"
or "Not Settable" empty, the hex digits lower case; "Unknown" speeds 0; a
Size ("8 GB", "512 kB") in bytes; a Memory Type "<OUT OF SPEC>" as
"Unknown". The first type 0, 1 and 2, the first type 4 whose Status is
Populated (else the first type 4), every type 17 whose Size is not "No
Module Installed", as lib/smbios.c takes them. They are precomputed, as
tests/corpus/acpi's are with iasl, so that the test needs only the C
compiler and cannot be skipped for a missing tool.

The file, one record a line, fields separated by one TAB:
    # comment
    machine NAME
    bin HEX                     the whole --dump-bin file
    e KEY VALUE                 an expected field (VALUE may be empty)
    d LOCATOR BANK SIZE_BYTES TYPE SPEED CONFIGURED MANUFACTURER PART SERIAL
                                a populated memory device, in table order
"""
import gzip
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = "cmds/exp/dmidecode/testdata/"
UNITS = {"bytes": 0, "kB": 10, "MB": 20, "GB": 30, "TB": 40}


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir, *args], capture_output=True, check=True).stdout


def structures(text):
    """[(type, {field: value})] of dmidecode's text, in its order."""
    out, cur = [], None
    for line in text.split("\n"):
        m = re.match(r"^Handle 0x([0-9A-F]{4}), DMI type (\d+),", line)
        if m:
            cur = {"handle": m.group(1)}
            out.append((int(m.group(2)), cur))
        elif cur is not None and line.startswith("\t") and not line.startswith("\t\t") and ": " in line:
            k, _, v = line[1:].partition(": ")
            cur.setdefault(k, v)
        elif cur is not None and line.startswith("\t") and line.endswith(":") and not line.startswith("\t\t"):
            cur.setdefault(line[1:-1], "")
    return out


def s(v):
    return "" if v is None or v == "Not Specified" else v


def mhz(v):
    m = re.match(r"^(\d+) (MHz|MT/s)$", v or "")
    return int(m.group(1)) if m else 0


def size(v):
    m = re.match(r"^(\d+) (bytes|kB|MB|GB|TB)$", v or "")
    return int(m.group(1)) << UNITS[m.group(2)] if m else None


def expect(text):
    """(version, [(key, value)], [dimm fields]) of one machine."""
    version = re.search(r"^SMBIOS (\S+) present\.", text, re.M).group(1)
    st = structures(text)
    first = {t: f for t, f in reversed(st)}
    e = [("version", version)]
    b = first.get(0, {})
    e += [("bios_vendor", s(b.get("Vendor"))), ("bios_version", s(b.get("Version"))),
          ("bios_date", s(b.get("Release Date")))]
    y = first.get(1, {})
    uuid = y.get("UUID") or ""
    uuid = "" if uuid in ("Not Present", "Not Settable") else uuid.lower()
    e += [("sys_manufacturer", s(y.get("Manufacturer"))), ("sys_product", s(y.get("Product Name"))),
          ("sys_version", s(y.get("Version"))), ("sys_serial", s(y.get("Serial Number"))), ("sys_uuid", uuid),
          ("sys_sku", s(y.get("SKU Number"))), ("sys_family", s(y.get("Family")))]
    g = first.get(2, {})
    e += [("board_manufacturer", s(g.get("Manufacturer"))), ("board_product", s(g.get("Product Name"))),
          ("board_version", s(g.get("Version"))), ("board_serial", s(g.get("Serial Number")))]
    cpus = [f for t, f in st if t == 4]
    pop = [f for f in cpus if (f.get("Status") or "").startswith("Populated")]
    c = (pop or cpus or [{}])[0]
    e += [("cpu_socket", s(c.get("Socket Designation"))), ("cpu_max_mhz", str(mhz(c.get("Max Speed")))),
          ("cpu_current_mhz", str(mhz(c.get("Current Speed"))))]
    dimms = []
    for t, f in st:
        if t != 17 or f.get("Size") == "No Module Installed":
            continue
        sz = size(f.get("Size"))
        typ = f.get("Type", "Unknown")
        dimms.append([s(f.get("Locator")), s(f.get("Bank Locator")), "" if sz is None else str(sz),
                      "Unknown" if typ == "<OUT OF SPEC>" else typ, str(mhz(f.get("Speed"))),
                      str(mhz(f.get("Configured Memory Speed") or f.get("Configured Clock Speed"))),
                      s(f.get("Manufacturer")), s(f.get("Part Number")), s(f.get("Serial Number"))])
    e.append(("memory_devices", str(len(dimms))))
    return e, dimms


def main():
    gitdir = sys.argv[1]
    commit = git(gitdir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").decode().strip()
    names = sorted(n for n in git(gitdir, "ls-tree", "-r", "--name-only", commit, TESTDATA).decode().split("\n")
                   if n.endswith(".bin"))
    version = subprocess.run(["dmidecode", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    out = io.StringIO()
    out.write(f"# u-root/u-root {commit} {TESTDATA}*.bin decoded by dmidecode {version} (--from-dump)\n")
    import tempfile
    for name in names:
        data = git(gitdir, "show", f"{commit}:{name}")
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(data)
            f.flush()
            text = subprocess.run(["dmidecode", "--from-dump", f.name, "-t", "0,1,2,4,17"], capture_output=True,
                                  text=True, errors="replace", check=True).stdout
        e, dimms = expect(text)
        out.write(f"machine\t{os.path.basename(name)[:-4]}\nbin\t{data.hex()}\n")
        for k, v in e:
            out.write(f"e\t{k}\t{v}\n")
        for d in dimms:
            out.write("d\t" + "\t".join(d) + "\n")
    with open(os.path.join(HERE, "machines.txt.gz"), "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
            z.write(out.getvalue().encode("utf-8"))
    print(f"extract: {len(names)} machines, {out.getvalue().count(chr(10))} lines", file=sys.stderr)


if __name__ == "__main__":
    main()

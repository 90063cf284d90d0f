"""tests/tools/common.py - what the host tools' tests (tests/tools/t_*.py)
share: the real logs, running the tools, reading what they print, the lab
database.

boot(name) boots $BENCH_BUILD/bench32.elf (default build/) under QEMU, each
run with a timeout, and caches the log as $BENCH_BUILD/logs/tools-NAME.log
(with the QEMU command beside it in tools-NAME.cmd; a rebuilt kernel or a
changed command boots again):

  tools-tcg.log         plain TCG -cpu max, dump=3, output=full
  tools-icount.log      -icount shift=0: exact figures, dump=3, output=full
  tools-qemu64.log      -cpu qemu64: RDTSCP is skipped, output=full
  tools-resolution.log  -icount, resolution=on (the paper's 3.3)
  tools-code.log        -icount, code= (the user's own code)
  tools-output-*.log    -icount, the same small run at output=human, json, both, full
                        and summary
  tools-aborted.log     -icount, a typo in the boot parameters: the run aborted
                        before measuring (QEMU exit status 35, not 33)

Damaged logs for the negative cases are made from these. The tools run as
commands, as a user runs them (bench(): sys.executable tools/bench.py ...),
and what they print is checked against the records read here with plain
json (records()), not with tools/benchlog. workdir(name) is a test's
output directory, $BENCH_BUILD/tools-tests/NAME/, emptied.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Last on the path: tests/boot has t_*.py modules of the same names as ours.
sys.path.append(os.path.join(ROOT, "tests", "boot"))
import machines  # noqa: E402  (the boot tests' table of machines)
BUILD = os.environ.get("BENCH_BUILD") or os.path.join(ROOT, "build")
KERNEL = os.path.join(BUILD, "bench32.elf")
LOGS = os.path.join(BUILD, "logs")
WORK = os.path.join(BUILD, "tools-tests")
BENCH = os.path.join(ROOT, "tools", "bench.py")
PY = sys.executable
QEMU_TIMEOUT = machines.get("q35-tcg").timeout  # seconds a boot may take
TOOL_TIMEOUT = 180
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# tcg, icount and qemu64 print full ensemble records (output=full), which
# the damaged-log tests edit; the default's compact records have their own
# tests (t_compact.py).
RUNS = {
    "tcg": ("q35-tcg", "ensembles=20 samples=1000 dump=3 output=full"),
    "icount": ("icount", "ensembles=20 samples=1000 dump=3 output=full"),
    "qemu64": ("q35-qemu64", "ensembles=10 samples=500 dump=1 workloads=add_chain_64 output=full"),
    "resolution": ("icount", "ensembles=24 samples=200 resolution=on workloads=measured_function"),
    "code": ("icount",
             "ensembles=4 samples=100 workloads=add_chain_64 code=480fafc04801d8 unroll=10 code.name=mix"),
}
# Runs that abort (exit status 35): their logs end "bench: run aborted ...".
RUNS["aborted"] = ("icount", "ensembles=2 samples=20 ensemble=2")
ABORTED_RUNS = {"aborted"}
# Every output= level (README "Boot parameters"), the same run: under
# -icount its figures are exact, so every level must report the same.
OUTPUT_LEVELS = ("human", "json", "both", "full")
for _level in OUTPUT_LEVELS:
    RUNS[f"output-{_level}"] = ("icount", f"ensembles=8 samples=200 dump=2 output={_level}")


# output=summary: the same run without per-ensemble lines (no dump=: the
# samples of an ensemble have no ensemble record to match there).
RUNS["output-summary"] = ("icount", "ensembles=8 samples=200 output=summary")

# A plan run (issue 32): PLAN as the boot module plan.txt, under -icount, on
# machines of QEMU's own SMBIOS values (-smbios): plan-a and plan-b differ in
# the system and board, plan-a2 is plan-a's machine with another BIOS version.
PLAN = ("# tests/tools: a plan run (common.py)\n"
        "defaults ensembles=2 samples=20 warmup=0 methods=rdtscp,cpuid workloads=none\n"
        "imul_lat code=480fafc0 unroll=100\n"
        "add_tp   code=4801c04801c3 unroll=50\n"
        "ud       code=0f0b unroll=2\n")


def smbios_flags(product, board, bios_version):
    return ["-smbios", f"type=0,vendor=Lab BIOS,version={bios_version},date=01/02/2025",
            "-smbios", f"type=1,manufacturer=Lab,product={product},version=1.0,"
                       "uuid=5f0ad3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f",
            "-smbios", f"type=2,manufacturer=Lab,product={board}",
            "-smbios", "type=17,loc_pfx=DIMM,bank=BANK 0,manufacturer=Lab RAM,part=LAB-256,speed=3200"]


for _name, _flags in (("plan-a", smbios_flags("Bench A", "Board A", "1.0")),
                      ("plan-b", smbios_flags("Bench B", "Board B", "1.0")),
                      ("plan-a2", smbios_flags("Bench A", "Board A", "2.0"))):
    RUNS[_name] = ("icount", "plan=plan.txt", _flags + ["-initrd", "PLAN plan.txt"])


class Skip(Exception):
    pass


def check(cond, msg, output=""):
    if not cond:
        raise AssertionError(msg + ("\n" + tail(output) if output else ""))


def tail(text, n=15):
    lines = [l for l in text.replace("\r", "").split("\n") if l.strip()]
    return "\n".join("    | " + l[:220] for l in lines[-n:])


# --- real logs ------------------------------------------------------------------

def qemu_cmd(machine, append, extra=()):
    """QEMU booting $BENCH_BUILD/bench32.elf with the command line append
    on machine (a name of tests/boot/machines.py), its serial port on
    stdout, isa-debug-exit for the kernel's exit status; extra: more QEMU
    arguments (PLAN in one stands for the plan file PLAN, written to
    $BENCH_BUILD/logs/tools-plan.txt)."""
    if any("PLAN" in a for a in extra):
        os.makedirs(LOGS, exist_ok=True)
        path = os.path.join(LOGS, "tools-plan.txt")
        with open(path, "w", encoding="ascii") as f:
            f.write(PLAN)
        extra = [a.replace("PLAN", path) for a in extra]
    return (["qemu-system-x86_64", "-display", "none", "-serial", "stdio", "-no-reboot", "-monitor", "none",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
            + machines.flags(f"tools-{machine}", machine, append=append, image=KERNEL) + list(extra))


_booted = {}


def boot(name):
    """The path of a real log, booting the kernel when the cached one is
    missing, older than the kernel, or from another command."""
    if name in _booted:
        return _booted[name]
    if not shutil.which("qemu-system-x86_64"):
        raise Skip("qemu-system-x86_64 is not installed")
    cmd = qemu_cmd(*RUNS[name])
    path = os.path.join(LOGS, f"tools-{name}.log")
    meta = os.path.join(LOGS, f"tools-{name}.cmd")
    line = " ".join(cmd) + "\n"
    fresh = (os.path.exists(path) and os.path.exists(meta) and open(meta).read() == line
             and os.path.getmtime(path) >= os.path.getmtime(KERNEL))
    if not fresh:
        os.makedirs(LOGS, exist_ok=True)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, timeout=QEMU_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise AssertionError(f"QEMU timed out after {QEMU_TIMEOUT} s: {line}"
                                 + tail((e.stdout or b"").decode(errors="replace")))
        text = p.stdout.decode(errors="replace")
        want = (35, "run aborted") if name in ABORTED_RUNS else (33, "run complete")
        check(p.returncode == want[0], f"QEMU exit status {p.returncode}, expected {want[0]} ({want[1]}): "
                                       f"{line}{p.stderr.decode(errors='replace')[-500:]}", text)
        with open(path, "wb") as f:
            f.write(p.stdout)
        with open(meta, "w") as f:
            f.write(line)
    _booted[name] = path
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def records(path, kind=None):
    """The records of a log, read with plain json (not tools/benchlog/)."""
    out = []
    for line in read(path).decode(errors="replace").replace("\r", "").split("\n"):
        if line.startswith('{"rec"'):
            r = json.loads(line)
            if kind is None or r["rec"] == kind:
                out.append(r)
    return out


def workdir(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def bench(*args, stdin=None, timeout=TOOL_TIMEOUT):
    """Run tools/bench.py; returns (exit status, stdout + stderr)."""
    p = subprocess.run([PY, BENCH] + [str(a) for a in args], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    out = p.stdout.decode(errors="replace")
    check("Traceback (most recent call last)" not in out, "bench.py crashed", out)
    return p.returncode, out


def table_rows(out, unit="TSC ticks"):
    """The statistics table's rows: {(method, workload): [cells]}."""
    rows, on = {}, False
    for line in out.split("\n"):
        if line.startswith("Paper statistics per method and workload, in " + unit):
            on = True
            continue
        if on and line.startswith("  ") and not line.startswith("   "):
            cells = line.split()
            if cells[0] not in ("method", "*"):
                rows[(cells[0], cells[1].rstrip("*"))] = cells
        elif on and not line.strip():
            if rows:
                break
    return rows


def another_run(text, tag):
    """A real log's text made into another run's: its run ID (the run: line
    and the env record's run_id, kernel/runid.h) replaced by one made from
    tag, so that store keeps a log made from a real one apart from it
    rather than merging the two as one run's sources."""
    new = hashlib.sha256(tag.encode()).hexdigest()[:16]
    text = re.sub(r"^run: ID [0-9a-f]{16}", f"run: ID {new}", text, flags=re.M)
    return re.sub(r'"run_id":"[0-9a-f]{16}"', f'"run_id":"{new}"', text)


def unwrapped(out):
    """compare's text with each wrapped line (continued on the next, indented
    by 4) joined into one."""
    return re.sub(r"\n    (?=\S)", " ", out)


def compare_ratios(out):
    """The B/A cells of compare's per-series tables (its details, after the
    overview): every row under a "figure  A  B  B/A" header up to the blank
    line after it."""
    ratios, on = [], None
    for line in out.split("\n"):
        if re.match(r"  figure +A +B +B/A$", line):
            on = "table"
        elif line == "  figure: A; B; B/A":  # a table too wide: each figure's A; B; B/A on lines of its own
            on = "lines"
        elif on == "table" and line.strip():
            m = re.search(r"  (\S+(?: \(both 0\)| \(A is 0\))?)$", line)
            ratios.append(m.group(1) if m else line)
        elif on == "lines" and line.strip():
            m = re.search(r"; B/A (\S+(?: \(both 0\)| \(A is 0\))?)$", line)
            if m:
                ratios.append(m.group(1))
        else:
            on = None
    return ratios


def check_pngs(outdir, expected, out):
    pngs = sorted(f for f in os.listdir(outdir) if f.endswith(".png"))
    for name in expected:
        check(name in pngs, f"figure {name} missing from {outdir} (found: {pngs[:8]}...)", out)
    for name in pngs:
        data = read(os.path.join(outdir, name))
        check(len(data) > 1000 and data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR",
              f"{name}: not a valid, non-empty PNG ({len(data)} bytes)")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        check(width >= 300 and height >= 200, f"{name}: {width}x{height} pixels")
    return pngs


def check_table_against_summaries(log, out):
    """Every summary record is a table row with its figures."""
    rows = table_rows(out)
    for s in records(log, "summary"):
        key = (s["method"], s["workload"])
        check(key in rows, f"no table row for {key}", out)
        cells = rows[key]
        want = [s["min_of_mins"], s["total_variance"], s["var_of_vars"], s["var_of_mins"],
                s["max_dev_all"], s["spurious"]]
        want = ["n/a" if v is None else str(v) for v in want]   # null: no figure
        check(cells[2:4] == [str(s["ensembles"]), "x"] and cells[5] == want[0]
              and cells[7:12] == want[1:],
              f"table row {cells} disagrees with the summary record {s}", out)
    return rows


def methods_run(log):
    return sorted({r["method"] for r in records(log, "method")})


def lines_of(path):
    return read(path).decode().split("\n")


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


# --- the lab database (store, table, plot) ----------------------------------------------------

# Three logs of two machines: -cpu max under -icount (two runs of one
# machine: same CPUID, microcode, hypervisor and TSC rate) and -cpu qemu64.
LAB = ("icount", "output-json", "qemu64")
# The figures of the summaries table and the summary record's key for each.
DB_FIGURES = {"min_of_mins": "min_of_mins", "offset": "offset", "net": "net_min",
              "total_variance": "total_variance", "var_of_vars": "var_of_vars",
              "var_of_mins": "var_of_mins", "max_dev_all": "max_dev_all", "spurious": "spurious",
              "median_of_medians": "median_of_medians", "errors": "errors"}


def db_rows(db, sql, args=()):
    """Rows of a query, read with plain sqlite3 (not tools/benchdb.py)."""
    import sqlite3
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def db_counts(db):
    return {t: db_rows(db, f"SELECT COUNT(*) FROM {t}")[0][0]
            for t in ("machines", "runs", "skips", "series", "summaries")}


def store_lab(d, names=LAB):
    db = os.path.join(d, "lab.sqlite")
    logs = [boot(n) for n in names]
    rc, out = bench("store", *logs, "--db", db)
    check(rc == 0, f"store: exit status {rc}, expected 0", out)
    return db, logs, out


def parse_db_table(out):
    """The side-by-side table: (column names, {(method, workload): cells}),
    the first header line's names split at two or more spaces."""
    lines = out.split("\n")
    i = next((k for k, l in enumerate(lines) if l.startswith("  method  workload")), None)
    check(i is not None, "no table header 'method  workload'", out)
    names = re.split(r" {2,}", lines[i].strip())
    rows = {}
    for l in lines[i + 1:]:
        if not l.strip():
            break
        cells = re.split(r" {2,}", l.strip())  # a cell may be words: "not in this source"
        if cells[0].startswith("M") or cells[0].startswith("["):
            continue    # the machine and unit header lines
        rows[(cells[0], cells[1])] = cells[2:]
    return names, lines[i:i + 3], rows


def summaries_of(log):
    return {(s["method"], s["workload"]): s for s in records(log, "summary")
            if s.get("unit", "tsc_ticks") == "tsc_ticks"}



def old_store(commit, d, path, fmt=None):
    """Store the log (or, with fmt 'QR code text', the QR text) at path into
    d/lab.sqlite with tools/benchdb.py of an older commit, the rest of
    tools/ as it is now: a lab database as that commit made it. Returns the
    database's path and that benchdb.py's SCHEMA_VERSION; check() that the
    store ran, Skip where git cannot show the file (not a git checkout)."""
    p = subprocess.run(["git", "-C", ROOT, "show", f"{commit}:tools/benchdb.py"], capture_output=True)
    if p.returncode:
        raise Skip(f"git cannot show tools/benchdb.py of commit {commit} (not a git checkout?)")
    write(d, "benchdb.py", p.stdout)
    db = os.path.join(d, "lab.sqlite")
    read_ = "benchqr.load(sys.argv[4])" if fmt else "benchlog.load(sys.argv[4])"
    code = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import benchdb, benchlog, benchqr; "
            "c = benchdb.connect(sys.argv[3], create=True); print(benchdb.SCHEMA_VERSION, "
            f"benchdb.store(c, {read_}, source='old'{', fmt=sys.argv[5]' if fmt else ''}).run_id)")
    p = subprocess.run([PY, "-c", code, d, os.path.join(ROOT, "tools"), db, path] + ([fmt] if fmt else []),
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0 and p.stdout.split()[1:] == ["1"], f"the store of commit {commit} failed: "
                                                               f"{p.stdout}{p.stderr}")
    return db, int(p.stdout.split()[0])

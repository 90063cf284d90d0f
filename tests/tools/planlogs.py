"""tests/tools/planlogs.py - plan runs' logs and the machine's identity
(issue 32; docs/RECORDS.md) for the tools' tests, written by hand after the
shared contracts until the kernel prints them: the code= run of
tests/tools/common.py (-icount) made into a plan run of several
experiments, each its own copy of the run's measuring part (from its
config line up to the end record), wrapped in its experiment and
experiment_end records and its plan: lines; the plan record before them,
the end record's experiments_* counts and the final line's plan words
after; the smbios and memory_device records after the env record, whose
system, board, bios, system_uuid and smbios fields say the same.

    plan_log(d, name="plan.log", names=("imul_lat", "add_tp", "chase"),
             smbios=SMBIOS, skipped=(), tag=None, edit=None) -> path
        smbios: the smbios record's fields changed ({"sys_product": "B"}),
        None for a log without SMBIOS (a kernel before issue 32: the env
        without the new fields, no smbios record); skipped: names of
        experiments that could not run (status skipped, no measuring
        part); tag: another run ID (common.another_run); edit(lines): change
        the log's lines (a list of str) before they are written.
"""
import json

from common import another_run, boot, read, write

SMBIOS = {"entry": "3.0", "source": "scan", "table_phys": "0xf5a00", "table_bytes": 412, "version": "3.0.0",
          "structures": 9, "sys_manufacturer": "QEMU", "sys_product": "Standard PC (Q35 + ICH9, 2009)",
          "sys_version": "pc-q35-8.2", "sys_uuid": "5f0ad3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f", "sys_serial": None,
          "sys_sku": None, "sys_family": None, "board_manufacturer": "QEMU", "board_product": "Q35 board",
          "board_version": None, "board_serial": None, "bios_vendor": "SeaBIOS", "bios_version": "1.16.3-debian",
          "bios_date": "04/01/2014", "cpu_socket": "CPU 0", "cpu_current_mhz": 2000, "cpu_max_mhz": 2000,
          "memory_devices": 1, "problem": None}
DIMM = {"rec": "memory_device", "handle": "0x1100", "locator": "DIMM 0", "bank": None, "size_bytes": 268435456,
        "type": "RAM", "speed_mts": None, "configured_speed_mts": None, "manufacturer": "QEMU", "part": None,
        "serial": None}
WORDS = {"imul_lat": "code=480fafc0 unroll=100", "add_tp": "code=4801d8 unroll=100",
         "chase": "code=488b00 loops=10 mem=64M", "mix": "code=480fafc04801d8 unroll=10"}


def _line(r):
    return json.dumps(r, separators=(",", ":"))


def identity_lines(smbios):
    """The env fields and the smbios and memory_device records for smbios
    (the record's fields)."""
    r = dict({"rec": "smbios"}, **smbios)

    def words(*keys):
        return " ".join(r[k] for k in keys if r.get(k)) or None
    env = {"system": words("sys_manufacturer", "sys_product", "sys_version"),
           "board": words("board_manufacturer", "board_product"),
           "bios": words("bios_vendor", "bios_version", "bios_date"), "system_uuid": r.get("sys_uuid"),
           "smbios": r.get("version")}
    return env, [_line(r)] + [_line(DIMM)] * (r.get("memory_devices") or 0)


def plan_log(d, name="plan.log", names=("imul_lat", "add_tp", "chase"), smbios=SMBIOS, skipped=(), tag=None,
             edit=None):
    """A plan run's log (module docstring) written to d/name."""
    text = read(boot("code")).decode()
    if tag:
        text = another_run(text, tag)
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    start = next(k for k, ln in enumerate(lines) if ln.startswith("config: ensembles="))
    stop = next(k for k, ln in enumerate(lines) if ln.startswith('{"rec":"end"'))
    head, body, tail = lines[:start], lines[start:stop], lines[stop:]
    out = []
    for ln in head:
        # the kernel's own identity (QEMU's SMBIOS) gives way to the one above
        if ln.startswith(('{"rec":"smbios"', '{"rec":"memory_device"', "machine: ", "memory: ")):
            continue
        if ln.startswith('{"rec":"env"'):
            env = {k: v for k, v in json.loads(ln).items() if k not in ("system", "board", "bios", "system_uuid",
                                                                         "smbios")}
            if smbios is None:
                out.append(_line(env))
                continue
            more, recs = identity_lines(dict(SMBIOS, **smbios))
            out.append(_line(dict(env, **more)))
            out += recs
            continue
        out.append(ln)
    n = len(names)
    out.append(f"plan: plan.txt from the boot module 'plan.txt': {100 + n * 30} bytes, CRC-32 0x1234abcd, "
               f"{n} experiments")
    out.append(_line({"rec": "plan", "file": "plan.txt", "source": "module", "bytes": 100 + n * 30,
                      "crc32": "0x1234abcd", "experiments": n, "defaults": "ensembles=4 samples=100"}))
    ran = faulted = 0
    end = json.loads(tail[0])
    for i, x in enumerate(names, 1):
        words = WORDS.get(x, "code=90")
        line = 2 + i
        out.append(f"plan: experiment {i} of {n}: {x} (plan.txt line {line}): {words}")
        out.append(_line({"rec": "experiment", "index": i, "of": n, "name": x, "line": line, "words": words}))
        if x in skipped:
            why = "mem=64M: 64 MiB do not fit beside the sample buffers"
            out.append(_line({"rec": "experiment_end", "index": i, "name": x, "status": "skipped", "why": why,
                              "methods_run": 0, "methods_skipped": 0, "ensemble_errors": 0, "code_faults": 0}))
            out.append(f"plan: experiment {i} of {n}: {x}: skipped ({why})")
            continue
        ran += 1
        for ln in body:
            if ln.startswith('{"rec":"config"'):
                ln = _line(dict(json.loads(ln), plan="plan.txt", identity="short"))
            out.append(ln)
        out.append(_line({"rec": "experiment_end", "index": i, "name": x, "status": "complete", "why": None,
                          "methods_run": end["methods_run"], "methods_skipped": end["methods_skipped"],
                          "ensemble_errors": end["ensemble_errors"], "code_faults": end.get("code_faults", 0)}))
        out.append(f"plan: experiment {i} of {n}: {x}: complete")
    end.update(experiments_run=ran, experiments_faulted=faulted, experiments_skipped=len(skipped))
    out.append(_line(end))
    for ln in tail[1:]:
        if ln.startswith("bench: run complete"):
            ln += f"; plan plan.txt: {ran} experiments run, {faulted} faulted, {len(skipped)} skipped"
        out.append(ln)
    if edit:
        edit(out)
    return write(d, name, "\n".join(out))

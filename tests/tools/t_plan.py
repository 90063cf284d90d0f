"""tests/tools/t_plan.py - a plan run's log and the machine's identity in
tools/benchlog (issue 32 items 3 and 4; tools/benchlog/plan.py,
tools/benchlog/identity.py): a plan log splits into one run per experiment,
each checked as a run's log; experiments numbered out of order, a name
twice, an experiment not closed, a status the faults contradict and end
counts the log does not give are problems at their lines; a serial number
without identity=full is one. The logs are tests/tools/planlogs.py's.
"""
import os
import sys

import planlogs
from common import ROOT, bench, check, workdir

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchlog  # noqa: E402


def test_plan_log_splits_into_experiments():
    """Three experiments, the third skipped: the boot's log is valid, the
    first two have a log each with the run's 12 series and its per_copy
    records, the skipped one none; the identity records are the boot's."""
    d = workdir("plan_log_split")
    log = benchlog.load(planlogs.plan_log(d, skipped=("chase",)))
    check(log.valid, f"the plan log is not valid: {log.problems[:5]}")
    check([(x.index, x.name, x.status) for x in log.experiments] ==
          [(1, "imul_lat", "complete"), (2, "add_tp", "complete"), (3, "chase", "skipped")],
          f"experiments {[(x.index, x.name, x.status) for x in log.experiments]}")
    for x in log.experiments[:2]:
        check(x.log is not None and x.log.valid and len(x.log.series) == 12 and x.log.by_kind.get("per_copy"),
              f"{x.label}: its log: {x.log and (x.log.problems[:3], len(x.log.series))}")
        check(x.log.env is not None and x.log.by_kind.get("smbios") and x.log.by_kind.get("tsc_rate"),
              f"{x.label}: the boot's records are not in its log")
        check(x.log.config.get("plan") == "plan.txt", f"{x.label}: not its own config record")
    check(log.experiments[2].log is None, "a skipped experiment has a log")
    check(benchlog.identity.identity(log)["sys_product"] == planlogs.SMBIOS["sys_product"], "no identity")


def _problems(d, name, **kw):
    log = benchlog.load(planlogs.plan_log(d, name, **kw))
    return log, "\n".join(map(str, log.problems))


def _edit(kind, index, old, new):
    """An edit of planlogs.plan_log: old replaced by new in the record of
    kind of experiment index."""
    def edit(lines):
        for k, ln in enumerate(lines):
            if ln.startswith('{"rec":"%s"' % kind) and f'"index":{index},' in ln:
                lines[k] = ln.replace(old, new)
    return edit


def test_plan_log_checks():
    """Each broken contract is a problem naming its line and experiment."""
    d = workdir("plan_log_checks")

    def renumber(lines):
        for k, ln in enumerate(lines):
            if ln.startswith('{"rec":"experiment"') and '"index":2' in ln:
                lines[k] = ln.replace('"index":2', '"index":3')
            if ln.startswith('{"rec":"end"'):
                lines[k] = ln.replace('"experiments_run":3', '"experiments_run":2')
    log, text = _problems(d, "renumbered.log", names=("a", "a", "b"), edit=renumber)
    for want in ("experiment 3 of 3 (a): numbered 3, but it is the log's experiment 2",
                 "experiment 3 of 3 (a): the name 'a' again (the first is line",
                 "the end record says experiments_run=2, the experiments' records give 3"):
        check(want in text, f"no problem {want!r}", text)

    def unclosed(lines):
        k = max(k for k, ln in enumerate(lines) if ln.startswith('{"rec":"experiment_end"'))
        del lines[k]
    log, text = _problems(d, "unclosed.log", edit=unclosed)
    check("experiment 3 of 3 (chase): not closed by its experiment_end record" in text, "unclosed", text)

    log, text = _problems(d, "faulted.log", edit=_edit("experiment_end", 1, '"status":"complete"',
                                                       '"status":"faulted"'))
    check("experiment 1 of 3 (imul_lat): status faulted with code_faults 0" in text, "faulted", text)
    log, text = _problems(d, "counts.log", edit=_edit("experiment_end", 2, '"methods_run":3', '"methods_run":4'))
    check("experiment 2 of 3 (add_tp): its experiment_end says methods_run=4, the records give 3" in text,
          "the experiment_end's counts are not checked", text)

    log, text = _problems(d, "serial.log", smbios={"sys_serial": "ABC123"})
    check("smbios record gives sys_serial 'ABC123', but the config does not say identity=full" in text,
          "a serial without identity=full", text)

    def uuid(lines):
        k = next(k for k, ln in enumerate(lines) if ln.startswith('{"rec":"env"'))
        lines[k] = lines[k].replace('"system_uuid":"5f0a', '"system_uuid":"000a')
    log, text = _problems(d, "uuid.log", edit=uuid)
    check("the env record's system_uuid is '000ad3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f', the smbios record's sys_uuid "
          "'5f0ad3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f'" in text, "the env's UUID against the smbios record's", text)


def test_plan_report_each_experiment():
    """report of a plan log: the machine's identity once (system, board,
    BIOS, the DIMM), the plan, then each experiment under its name with
    its own figures per copy; the skipped one said."""
    d = workdir("plan_report")
    path = planlogs.plan_log(d, skipped=("chase",))
    rc, out = bench("report", path, "--no-figures")
    check(rc == 0 and "report: the log is valid" in out, f"report: exit status {rc}", out)
    s = planlogs.SMBIOS
    check(out.count("The machine (SMBIOS, DSP0134):") == 1 and
          f"  system: {s['sys_manufacturer']} {s['sys_product']} {s['sys_version']}, UUID {s['sys_uuid']}" in out and
          f"  BIOS: {s['bios_vendor']} {s['bios_version']} {s['bios_date']}" in out and
          "  memory device 0x1100: DIMM 0: 256 MiB RAM, speed unknown, QEMU" in out, "the identity once", out)
    check("Plan: plan.txt (from module, 190 bytes, CRC-32 0x1234abcd): 3 experiments" in out, "the plan", out)
    for i, name in ((1, "imul_lat"), (2, "add_tp")):
        at = out.find(f"=== experiment {i} of 3 ({name}): {planlogs.WORDS[name]} (plan line {2 + i}): complete")
        check(at >= 0 and "per copy, rdtscp: 2.000 TSC ticks, exactly" in out[at:], f"experiment {name}", out)
    check("=== experiment 3 of 3 (chase): code=488b00 loops=10 mem=64M (plan line 5): skipped (mem=64M" in out and
          "  no figures: skipped by the kernel" in out, "the skipped experiment", out)

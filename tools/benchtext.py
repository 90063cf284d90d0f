"""tools/benchtext.py - the text every report of tools/bench.py shares: a
table padded to its columns, a ratio B/A, and where a run ran in a few
words (CPU, hypervisor, TSC rate, boot loader, memory, ACPI, CPUs measured,
command line, the run's size, what the serial log holds), read from the
env, config, tsc_rate, serial_estimate, acpi and cpus records.

tools/benchreport.py (report, qr), tools/benchcompare.py (compare) and
tools/benchtable.py (table) print with these.
"""
import benchlog

def table(header, rows, indent="  "):
    """Columns padded to their widest cell; header is a list of tuples of
    header lines (name, unit)."""
    depth = max(len(h) for h in header)
    cells = [[h[i] if i < len(h) else "" for h in header] for i in range(depth)] + rows
    widths = [max(len(str(r[c])) for r in cells) for c in range(len(header))]
    out = []
    for r in cells:
        out.append(indent + "  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    return out


def env_facts(log):
    """(label, value) pairs describing where a run ran."""
    e = log.env or {}

    def hx(k):
        return f"0x{e[k]:x}" if isinstance(e.get(k), int) else "?"
    hv = e.get("hypervisor")
    hyper = ("none (no CPUID hypervisor bit)" if hv == 0 else
             f"yes, vendor {e.get('hypervisor_vendor') or '?'}" if hv else "?")
    proto = e.get("boot_protocol")
    loader = f"{e.get('loader', '?')} (multiboot{proto if proto is not None else '?'})"
    cfg = log.config or {}
    size = (f"{cfg.get('ensembles', '?')} ensembles x {cfg.get('samples', '?')} samples, "
            f"{cfg.get('warmup', '?')} warm-up samples")
    yn = {0: "no", 1: "yes", False: "no", True: "yes"}
    rate = dict(log.by_kind["tsc_rate"][0][1]) if log.by_kind.get("tsc_rate") else {}
    if isinstance(rate.get("hz"), int) and rate["hz"] > 0:
        tsc_rate = (f"{rate['hz']} Hz (+-{rate.get('ppm', '?')} ppm, measured with "
                    f"{rate.get('source', '?')})")
    else:
        tsc_rate = "unknown" if rate else "? (not in this log's format)"
    step = dict(log.by_kind["tsc_step"][0][1]) if log.by_kind.get("tsc_step") else {}
    if isinstance(step.get("step"), int):  # bench/summary.c: only a step above 1 is printed
        tsc_rate += (f"; the TSC {'moves' if step.get('sure') else 'may move'} in steps of "
                     f"{step['step']} TSC ticks")
    est = dict(log.by_kind["serial_estimate"][0][1]) if log.by_kind.get("serial_estimate") else {}
    serial = f"{log.size} bytes captured" if log.size else "?"
    if isinstance(est.get("bytes"), int):
        at = (f", {est['ms'] / 1000:.1f} s at {est['baud']} baud" if isinstance(est.get("ms"), int)
              and isinstance(est.get("baud"), int) else ", no serial port")
        serial += f"; the kernel's estimate {est['bytes']} bytes{at}"
    ens = ("compact ensemble records (output=both or json)" if log.compact else
           "full ensemble records" if log.by_kind.get("ensemble") else
           "summaries only, no per-ensemble lines (output=summary)" if benchlog.summary_only(log) else
           "no ensemble records")
    facts = [("cpu brand", e.get("brand", "?")),
            ("cpu", f"{e.get('vendor', '?')} family {hx('family')} model {hx('model')} "
                    f"stepping {e.get('stepping', '?')}"),
            ("hypervisor", hyper),
            ("invariant TSC", yn.get(e.get("invariant_tsc"), "?")),
            ("TSC rate", tsc_rate),
            ("boot loader", loader),
            ("memory", f"{e['memory_usable_mib']} MiB usable" if "memory_usable_mib" in e else "?"),
            ("ACPI", acpi_text(log)),
            ("command line", e.get("cmdline", "?")),
            ("run size", size),
            ("serial log", f"{serial}; {ens}"),
            ("methods", cfg.get("methods", "?")),
            ("workloads", cfg.get("workloads", "(not in this log's format)"))]
    if log.cpu_order or getattr(log, "by_kind", {}).get("cpus"):
        facts.insert(1, ("CPUs", cpus_text(log)))
    return facts


def cpus_text(log):
    """The env's cpus record and the CPUs measured, in a few words."""
    c = dict(log.by_kind["cpus"][0][1]) if log.by_kind.get("cpus") else {}
    listed = (f"{c.get('count', '?')} listed (cpus={c.get('selection', '?')}), " if c else "")
    if not log.cpu_order:
        return listed + "the boot CPU measured (no per-CPU runs)"
    return listed + f"{len(log.cpu_order)} measured: " + ", ".join(log.cpu_label(n) for n in log.cpu_order)


def acpi_text(log):
    """The acpi record in a few words: tables, CPUs of the MADT, HPET, PM timer."""
    if not log.by_kind.get("acpi"):
        return "? (not in this log's format)"
    a = dict(log.by_kind["acpi"][0][1])
    if not a.get("rsdp"):
        return "no RSDP found"
    hpet = (f"HPET at {a['hpet_base']:#x} ({a.get('hpet_period_fs')} fs a tick)"
            if isinstance(a.get("hpet_base"), int) and a["hpet_base"] else "no HPET")
    pm = (f"PM timer at port {a['pm_timer_port']:#x} ({a.get('pm_timer_bits')}-bit)"
          if isinstance(a.get("pm_timer_port"), int) and a["pm_timer_port"] else "no PM timer")
    return (f"revision {a.get('revision', '?')}, {a.get('tables', '?')} tables ({a.get('bad_checksums', '?')} "
            f"bad checksums), MADT: {a.get('cpus_enabled', '?')} of {a.get('cpus_listed', '?')} CPUs enabled, "
            f"{hpet}, {pm}, {a.get('problems', '?')} problems")


def ratio(a, b):
    """B/A as text: a plain number, 'inf' when only A is 0, '-' when both are."""
    if not isinstance(a, int) or not isinstance(b, int):
        return "n/a"
    if a == 0:
        return "- (both 0)" if b == 0 else "inf (A is 0)"
    r = b / a
    return f"{r:.3g}"

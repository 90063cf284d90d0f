"""tools/benchlog/ - read and check a captured bench serial log.

    log = parse(text)                     # or load(path)
    log.valid                             # no problems found
    log.problems                          # [Problem(line, text)], each naming its line
    log.env, log.config, log.end          # records (dicts), or None
    log.series[("cpuid", "empty", "tsc_ticks", None, None)]  # one Series per
                                          # (method, workload, unit, counter, cpu)
    log.runs()                            # the TSC series, in log order
    log.skips                             # {method: (line, reason)}
    log.by_kind["verdict"]                # [(line, record)] for any kind,
                                          # known or not
    log.dumps                             # [Dump]: raw samples (dump=N)

A series holds its method record (header), ensemble records, summary record,
paper-format lines and dumped samples. Records are keyed by (method,
workload, unit, counter, cpu); keys a record lacks are None, so older logs
without workloads and future ones with more counters read the same way.

Per-CPU runs (cpus= other than boot, docs/MACHINE.md "Every CPU: `cpus=`"): the run measures
each selected CPU in turn. Before each CPU's run come the line "cpus:
measuring on CPU N (APIC ID A, ...)" and a cpu_run record (cpu, apic_id,
core_type, package, core, thread); while that CPU is measured, and while its
end-of-run tables are printed, every record carries "cpu" and "apic_id"
right after its kind. Compact ensemble records and paper-format lines carry
no cpu: they belong to the method record before them, as on one CPU. The
series key's fifth element is that cpu (None in a log without per-CPU runs:
cpus=boot, and every log before them), so one log holds the same (method,
workload, unit) once per CPU. log.cpu_order lists the CPUs in the order
measured, log.cpu_info(N) what the log says of CPU N,
log.cpu_skips[(cpu, method)] each CPU's skips (log.skips keeps the first
reason per method).

The package, one concept a module:
    model.py    Log, Series, Dump, Method, Problem; the format's names, units
    stats.py    the paper's statistics, the twin of lib/stats.c
    reading.py  parse(), load(): records, compact records, noise
    human.py    the series of an output=human log, from its human lines
    checks.py   the consistency checks (per CPU)
    events.py   performance events by name (events=): the five records, their
                checks, the figures' words (figure_text, figure_cell)
    memclock.py memory, caches and clocks (issue 31): the config's settings, the
                seven records (mem_area ... latency_levels), their checks,
                settings(log) for compare and the lab database
    plan.py     a plan run (issue 32): the plan, experiment and experiment_end
                records, the log split into an Experiment (with its own Log)
                per experiment (log.experiments), their checks
    identity.py the machine's identity (SMBIOS: the smbios and memory_device
                records, the env's system, board, bios fields), its checks
    __main__.py python3 tools/benchlog LOG: the problems and a line a series

Everything a caller uses is imported here: `import benchlog` (tools/ on
sys.path) and `from benchlog import ...` as before the package.
"""
from .checks import SUMMARY_FIGURES
from .human import HUMAN_CONFIG, HUMAN_RESULT, HUMAN_SIZE, HUMAN_SKIP, HUMAN_SUMMARY
from .model import (BEGIN, CORE_KINDS, END, KNOWN_KINDS, PAPER, RUN_KINDS, SERIES_KINDS,
                    SHOWN_KINDS, TSC, UNIT_NAMES, Dump, Log, Method, Problem, Series, summary_only,
                    unit_name, with_unit)
from .reading import (ANSI, ANY_KIND, COMPACT, COMPACT_KEYS, COMPACT_UNITS, CONTROL, CPU_RUN_LINE,
                      FINAL, OPTIONAL, REQUIRED, RUN_HEADER, clean_line, expand_compact,
                      final_match, load, logical_lines, parse)
from .stats import U64, ensemble_stats, fmt_milli, mean_milli, paper64_overflows, summary_stats, var_calc

__all__ = [
    "ANSI", "ANY_KIND", "BEGIN", "COMPACT", "COMPACT_KEYS", "COMPACT_UNITS", "CONTROL", "CORE_KINDS",
    "CPU_RUN_LINE", "END", "FINAL", "HUMAN_CONFIG", "HUMAN_RESULT", "HUMAN_SIZE", "HUMAN_SKIP",
    "HUMAN_SUMMARY", "KNOWN_KINDS", "OPTIONAL", "PAPER", "REQUIRED", "RUN_HEADER", "RUN_KINDS",
    "SERIES_KINDS", "SHOWN_KINDS", "SUMMARY_FIGURES", "TSC", "U64", "UNIT_NAMES", "Dump", "Log", "Method",
    "Problem", "Series", "clean_line", "ensemble_stats", "expand_compact", "final_match",
    "fmt_milli", "load", "logical_lines", "mean_milli", "paper64_overflows", "parse", "summary_only",
    "summary_stats",
    "unit_name", "var_calc", "with_unit"]

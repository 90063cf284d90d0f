"""tools/benchlog/__main__.py - a log's problems and one line a series:

    python3 tools/benchlog LOG          # or: PYTHONPATH=tools python3 -m benchlog LOG

Prints each problem ("error: line N: ..."), then per TSC series its
ensembles, least minimum and the paper's two variances, then the skipped
methods; a plan run's, each experiment's under its name. Exit 0 when the
log is valid, 1 when it is not.
`tools/bench.py report LOG` prints the full report.
"""
import os
import sys

if not __package__:  # run as a directory: python3 tools/benchlog LOG
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlog import load, with_unit  # noqa: E402


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: python3 tools/benchlog LOG   (tools/bench.py report LOG prints the full report)")
    lg = load(argv[0])
    for p in lg.problems:
        print("error:", p)
    for x in lg.experiments:  # a plan run (plan.py): each experiment's series under its name
        print(f"{x.label}: {x.rec.get('words')}: {x.status or 'not closed'}")
        if x.log is not None:
            series_lines(x.log, "  ")
    series_lines(lg, "")
    return 0 if lg.valid else 1


def series_lines(lg, indent):
    """A line per TSC series of lg, then its skipped methods."""
    for s in lg.runs():
        fig, _ = s.figures()
        print(f"{indent}{s.name}: {len(s.ensembles)} ensembles, least minimum "
              f"{with_unit(fig.get('min_of_mins'), s.unit)}, variance of variances "
              f"{with_unit(fig.get('var_of_vars'), s.unit, 4)}, variance of minimum values "
              f"{with_unit(fig.get('var_of_mins'), s.unit, 2)}")
    for name, (_, why) in lg.skips.items():
        print(f"{indent}{name}: skipped: {why}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/tools/t_plot.py - `bench.py plot`: one PNG of a lab database's runs
(a bar per run and series), a clear message without matplotlib or with
nothing selected.
"""
import os
import re
import subprocess

from common import (BENCH, LAB, PY, Skip, TOOL_TIMEOUT, bench, boot, check, check_pngs, store_lab,
                    summaries_of, workdir, write)


def test_db_plot():
    d = workdir("db_plot")
    db, _, _ = store_lab(d)
    png = os.path.join(d, "lab.png")
    # Without matplotlib (an import that fails): a clear message, no file.
    fake = os.path.join(d, "nompl", "matplotlib")
    os.makedirs(fake)
    write(fake, "__init__.py", "raise ImportError('matplotlib hidden by the test')\n")
    p = subprocess.run([PY, BENCH, "plot", "--db", db, "-o", png], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=TOOL_TIMEOUT,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(fake)))
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 1 and "no figure written: matplotlib is not available" in out and
          "Traceback" not in out and not os.path.exists(png), "no clear message without matplotlib", out)
    if subprocess.run([PY, "-c", "import matplotlib"], capture_output=True).returncode:
        raise Skip(f"matplotlib is not available to {PY} (Debian: python3-matplotlib)")
    rc, out = bench("plot", "--db", db, "-o", png)
    check(rc == 0 and f"plot: {png}: net least minimum" in out, f"exit status {rc}", out)
    check_pngs(d, ["lab.png"], out)
    bars = int(re.search(r"(\d+) bars", out).group(1))
    want = sum(1 for p in LAB for k in summaries_of(boot(p)) if k[1] != "empty")
    check(bars == want, f"{bars} bars, expected one per run and non-empty series: {want}", out)
    rc, out = bench("plot", "--db", db, "--workload", "no_such")
    check(rc == 1 and "nothing to plot: no series in TSC ticks, workload no_such" in out,
          "an empty selection: no clear message", out)

"""tests/tools/t_plotpython.py - `bench.py plot` run by a Python without
matplotlib (issue 22: "plot finds a Python with matplotlib, as the Makefile
does, or says exactly how to get one"): /usr/bin/python3 -S (no
site-packages, so no Debian python3-matplotlib) runs bench.py, which runs
itself again with /usr/bin/python3 (the Makefile's PYTHON) and draws; with
no Python that has it, the message names the package and the pip command.
"""
import os
import subprocess
import sys

from common import BENCH, ROOT, Skip, TOOL_TIMEOUT, check, check_pngs, store_lab, workdir

sys.path.insert(0, os.path.join(ROOT, "tools"))
import benchplot  # noqa: E402

DEBIAN = "/usr/bin/python3"


def run(args, env=None):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       timeout=TOOL_TIMEOUT, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout.decode(errors="replace")


def test_plot_finds_a_python_with_matplotlib():
    if not os.path.exists(DEBIAN) or run([DEBIAN, "-c", "import matplotlib"])[0]:
        raise Skip(f"{DEBIAN} has no matplotlib (Debian: python3-matplotlib)")
    if run([DEBIAN, "-S", "-c", "import matplotlib"])[0] == 0:
        raise Skip(f"{DEBIAN} -S still imports matplotlib: no Python without it to test with")
    d = workdir("plot_python")
    db, _, _ = store_lab(d)
    png = os.path.join(d, "lab.png")
    rc, out = run([DEBIAN, "-S", BENCH, "plot", "--db", db, "-o", png])
    check(rc == 0 and f"plot: {png}: net least minimum" in out,
          f"exit status {rc}: plot does not find a Python with matplotlib", out)
    check(f"running with {DEBIAN}, which has it" in out, "plot does not say which Python it used", out)
    check_pngs(d, ["lab.png"], out)
    # That Python already chosen (or none found): the message says how to get matplotlib.
    os.remove(png)
    rc, out = run([DEBIAN, "-S", BENCH, "plot", "--db", db, "-o", png], env={"BENCH_PY_MATPLOTLIB": "x"})
    check(rc == 1 and "sudo apt-get install python3-matplotlib" in out and
          f"{DEBIAN} -m pip install matplotlib" in out and "Traceback" not in out
          and not os.path.exists(png), "without matplotlib: no message saying how to get it", out)


def test_no_python_with_matplotlib_found():
    check(benchplot.other_python(("/nonexistent/python3", "no-such-python-here")) is None,
          "a Python found where there is none")
    text = benchplot.how_to_get()
    check("apt-get install python3-matplotlib" in text and "-m pip install matplotlib" in text,
          f"the message does not say how to get matplotlib: {text}")

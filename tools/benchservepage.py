"""tools/benchservepage.py - what the collector (bench.py serve,
tools/benchserve.py) shows: the stored runs as data (runs_data: the JSON
of /runs), the lab's page at / (PAGE: one self-contained HTML page, no
external script, whose script polls /runs?since=N every 2 s and adds the
runs that arrived, newest first), and the text pages of a run's report and
comparison (text_page).

A run's entry: its number in the database (R3), the kernel's run ID
(kernel/runid.h; a plan run's experiment 'RUNID/NAME'), its label, when it
was stored (UTC), the end record's status and the final line, the
machine's identity (SMBIOS DSP0134 type 1 System Information, type 2
Baseboard Information, type 0 BIOS Information as the run saw them, and
CPUID's brand string), each method's verdict (paper section 4, in the
words of bench.py table --figure verdict), the figures per copy of code=
or of a plan's experiments (in the words of bench.py table --figure
per_copy, with their unit), the methods' agreement and the skipped
methods with the kernel's reasons; and the links to its report and its
comparison with the same machine's previous run.
"""
import html

import benchanswer
import benchdb
import benchdbanswer
import benchdbplan
from benchlog import unit_name


def _verdicts(conn, since):
    """{run_id: [{"method", "cpu", "text"}]} of the runs after since."""
    out = {}
    for r in conn.execute(f"SELECT run_id, method, cpu, {', '.join(benchdbanswer.VERDICT)} FROM verdicts "
                          "WHERE run_id > ? ORDER BY rowid", (since,)):
        rec = {k: (int(v) if isinstance(v, str) and k != "unit" else v)
               for k, v in zip(benchdbanswer.VERDICT, r[3:])}
        out.setdefault(r[0], []).append({"method": r[1], "cpu": r[2], "text": benchanswer.verdict_cell(rec)})
    return out


def _per_copy(conn, since):
    """{run_id: [{"method", "workload", "cpu", "unit", "text"}]} of the runs
    after since: each figure per copy as bench.py table --figure per_copy
    words it (benchanswer.per_copy_cell), in its unit per copy."""
    out = {}
    for r in conn.execute(f"SELECT run_id, method, workload, cpu, unit, {', '.join(benchdbanswer.PER_COPY)} "
                          "FROM per_copy WHERE run_id > ? ORDER BY rowid", (since,)):
        rec = dict(zip(benchdbanswer.PER_COPY, r[5:]))
        out.setdefault(r[0], []).append({"method": r[1], "workload": r[2], "cpu": r[3], "unit": unit_name(r[4]),
                                         "text": benchanswer.per_copy_cell(rec)})
    return out


def runs_data(conn, since=0):
    """The JSON of /runs?since=N: {"runs": [entry of each run stored after
    database run number since, newest first], "last": the newest run's
    number (0: none), "count": runs stored}; an entry as the module
    docstring says."""
    runs, machines = benchdb.list_runs(conn)
    fw = benchdbplan.run_smbios(conn)
    exps = benchdbplan.run_experiments(conn)
    verdicts, per_copy = _verdicts(conn, since), _per_copy(conn, since)
    out = []
    for r in reversed(runs):
        if r["id"] <= since:
            break
        m = machines[r["machine_id"]]
        ref = f"R{r['id']}"
        out.append({"id": r["id"], "ref": ref, "run_id": r["run_key"], "label": r["label"],
                    "stored_utc": r["stored_utc"], "status": r["status"], "final_line": r["final_line"],
                    "format": r["format"], "experiment": (exps.get(r["id"]) or {}).get("name"),
                    "machine": f"M{m['id']}: {benchdbplan.identity_text(m)}", "cpu": m.get("brand"),
                    "bios": benchdbplan.firmware_text(fw.get(r["id"])),
                    "verdicts": verdicts.get(r["id"], []), "per_copy": per_copy.get(r["id"], []),
                    "agreements": benchdbanswer.agreement_lines(conn, r["id"]),
                    "skips": [{"method": k, "why": v} for k, v in r["skips"].items()],
                    "report": f"runs/{ref}/report", "compare": f"runs/{ref}/compare"})
    return {"runs": out, "last": runs[-1]["id"] if runs else 0, "count": len(runs)}


def text_page(title, lines, links=()):
    """A small HTML page of preformatted text (a report, a comparison),
    every text escaped; links: [(href, text)] above it."""
    nav = " | ".join(f'<a href="{html.escape(h)}">{html.escape(t)}</a>' for h, t in links)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.escape(title) +
            "</title><style>body{font-family:sans-serif;margin:1em}pre{font-size:13px}</style></head><body>"
            f"<p>{nav}</p><h1>{html.escape(title)}</h1><pre id=\"text\">" +
            html.escape("\n".join(lines)) + "</pre></body></html>\n")


# The lab's page. Every text reaches the page through textContent (never
# innerHTML), so a label or a machine's name is shown, never run.
PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>bench collector: the lab's runs</title>
<style>
body { font-family: sans-serif; margin: 1em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #bbb; padding: 4px 6px; vertical-align: top; text-align: left; font-size: 13px; }
th { background: #eee; }
td ul { margin: 0; padding-left: 1.2em; }
.bad { color: #b00; font-weight: bold; }
.mono { font-family: monospace; }
#state { color: #555; }
</style></head>
<body>
<h1>bench collector: the lab's runs</h1>
<p>Runs as they arrive, newest first (bench.py serve; README "A rack: results over the network").
<span id="state">reading /runs ...</span></p>
<table>
<thead><tr><th>run</th><th>machine</th><th>stored (UTC)</th><th>status</th><th>verdicts</th>
<th>figures per copy</th><th>links</th></tr></thead>
<tbody id="runs"></tbody>
</table>
<script>
"use strict";
let last = 0;
const body = document.getElementById("runs");
const state = document.getElementById("state");

function cell(tr, text, cls) {
  const td = document.createElement("td");
  if (text !== null && text !== undefined) td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function list(td, items) {
  if (!items.length) { td.textContent = "none"; return; }
  const ul = document.createElement("ul");
  for (const text of items) {
    const li = document.createElement("li");
    li.textContent = text;
    ul.appendChild(li);
  }
  td.appendChild(ul);
}

function link(td, href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  td.appendChild(a);
  td.appendChild(document.createElement("br"));
}

function row(r) {
  const tr = document.createElement("tr");
  tr.id = "run-" + r.ref;
  const run = cell(tr, null, "mono");
  run.textContent = r.ref + " " + (r.run_id || "(no run ID)");
  if (r.experiment) run.appendChild(document.createTextNode(" (experiment " + r.experiment + ")"));
  list(cell(tr), [r.machine, "CPU " + (r.cpu || "?"), r.bios]);
  cell(tr, r.stored_utc);
  cell(tr, r.final_line || r.status || "status unknown: no final line stored",
       r.status === "complete" ? "" : "bad");
  const v = r.verdicts.map(x => (x.cpu !== null ? "CPU " + x.cpu + " " : "") + x.method + ": " + x.text);
  for (const s of r.skips) v.push(s.method + ": skipped (" + (s.why || "no reason given") + ")");
  list(cell(tr), v);
  list(cell(tr), r.per_copy.map(x => (x.cpu !== null ? "CPU " + x.cpu + " " : "") + x.workload + ", " +
                                     x.method + ": " + x.text + " (" + x.unit + " per copy)")
                           .concat(r.agreements));
  const links = cell(tr);
  link(links, r.report, "report");
  link(links, r.compare, "compare with this machine's previous run");
  return tr;
}

async function poll() {
  try {
    const res = await fetch("runs?since=" + last, {cache: "no-store"});
    if (!res.ok) throw new Error("HTTP " + res.status);
    const d = await res.json();
    for (const r of d.runs.slice().reverse()) body.insertBefore(row(r), body.firstChild);
    last = Math.max(last, d.last);
    state.textContent = d.count + " runs stored; checked " + new Date().toISOString().slice(11, 19) +
                        " UTC, every 2 s";
  } catch (e) {
    state.textContent = "the collector does not answer (" + e.message + "): trying again every 2 s";
  }
  setTimeout(poll, 2000);
}
poll();
</script>
</body></html>
"""

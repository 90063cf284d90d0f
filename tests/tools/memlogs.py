"""tests/tools/memlogs.py - logs with the memory, caches and clocks
records (issue 31; docs/RECORDS.md) for the tools' tests: the code= run of
tests/tools/common.py (-icount) with its config record and line given the
settings asked for, and the records written by hand after the contracts
(as tests/tools/evlogs.py writes the events records):

  mem_area        R14: 1 MiB at 0x800000 in 4 KiB pages (mem.pages=1g: 1
                  GiB at 0x40000000 in a 1 GiB page), wb, its guard page
                  after it
  cache_state     cache=warm: nothing flushed
  prefetch        the L2 hardware prefetcher (MSR 1A4H bit 0): 0x1
                  written, 0x0 read back: not taken (as under QEMU TCG)
  clock_setting   turbo (IA32_MISC_ENABLE bit 38): written, read back
                  without it: not taken
  core_clock      2.90 GHz before, nothing written that took: after null
  latency_point   15 sizes from 4 KiB to 64 MiB in TSC ticks, 1000 loads:
                  5 TSC ticks per load up to 32 KiB, 15 up to 512 KiB, 50 up
                  to 8 MiB, 200 beyond, each exactly (no spread)
  latency_levels  L1d 32 KiB, L2 512 KiB, L3 8 MiB (CPUID's and the
                  edges), DRAM, with ns at the log's TSC rate

    mem_log(d, name="mem.log", settings=None, edit=None, tag=None) -> path
        settings: the config's settings changed ({"turbo": "off",
        "mem_pages": "1g"}); edit(records): change the records (a dict
        of lists: "config", "settings", "latency") before they are
        written (the forged logs); tag: another run ID (common.another_run).
"""
import json

from common import another_run, boot, read, write

CONFIG = {"mem_bytes": 1048576, "mem_pages": "auto", "mem_type": "wb", "regs": "default", "cache": "warm",
          "prefetch": "keep", "turbo": "keep", "pstate": "keep", "sweep": "latency"}
LOADS = 1000
BASE = 70       # the chase's least minimum beside its loads [TSC ticks]
SIZES = [4096 << k for k in range(15)]          # 4 KiB .. 64 MiB
CACHES = [{"level": 1, "type": "data", "bytes": 32768}, {"level": 2, "type": "unified", "bytes": 524288},
          {"level": 3, "type": "unified", "bytes": 8388608}]
SOURCE = "Intel, Disclosure of Hardware Prefetcher Control on Some Intel Processors"


def latency_of(size):
    """The synthetic curve: TSC ticks per load at an area of size bytes."""
    return 5 if size <= 32768 else 15 if size <= 524288 else 50 if size <= 8388608 else 200


def points():
    out = []
    for b in SIZES:
        lat = latency_of(b)
        out.append({"rec": "latency_point", "bytes": b, "loads": LOADS, "unit": "tsc_ticks", "copies": LOADS,
                    "least_min_n": BASE + LOADS * lat, "least_min_2n": BASE + 2 * LOADS * lat, "num": lat, "den": 1,
                    "per_copy": f"{lat}.000", "status": "exact", "spread": 0, "bound": None, "step": 1})
    return out


def levels(hz):
    def ns(lat):
        return f"{lat * 10 ** 9 / hz:.3f}"
    lv = [("L1d", 32768, 32768, 5), ("L2", 524288, 524288, 15), ("L3", 8388608, 8388608, 50), ("DRAM", None, None, 200)]
    return {"rec": "latency_levels", "unit": "tsc_ticks",
            "levels": [{"name": n, "cpuid_bytes": c, "edge_bytes": e, "per_load": f"{p}.000", "ns": ns(p)}
                       for n, c, e, p in lv],
            "cpuid_caches": CACHES, "why": None}


def settings_records(cfg, hz):
    one_g = cfg["mem_pages"] == "1g"
    phys, size = (0x40000000, cfg["mem_bytes"]) if one_g else (0x800000, cfg["mem_bytes"])
    return [
        {"rec": "mem_area", "register": "R14", "bytes": size, "phys": f"{phys:#x}",
         "page_bytes": 1073741824 if one_g else 4096, "type": cfg["mem_type"], "guard": f"{phys + size:#x}",
         "pointer": f"{phys:#x}"},
        {"rec": "cache_state", "mode": cfg["cache"], "instruction": None, "lines": None, "bytes": None,
         "cost_tsc": None, "why": None if cfg["cache"] == "warm" else "not flushed in this synthetic log"},
        {"rec": "prefetch", "control": "l2_hw", "name": "L2 hardware prefetcher", "msr": "0x1a4", "bit": 0,
         "wanted": cfg["prefetch"], "before": "0x0", "written": "0x1", "read": "0x0", "state": "not_taken",
         "why": "read back 0x0 where 0x1 was written: the write did not stick", "source": SOURCE},
        {"rec": "clock_setting", "setting": "turbo", "msr": "0x1a0", "before": "0x850089", "written": "0x4000850089",
         "read": "0x850089", "taken": False, "why": "read back without bit 38: not taken"},
        {"rec": "core_clock", "before_hz": 2900000000, "after_hz": None, "tsc_hz": hz, "source": "aperf_mperf",
         "why": None},
    ]


def _line(r):
    return json.dumps(r, separators=(",", ":"))


def config_line(cfg):
    mem = cfg["mem_bytes"]
    word = next((f"{mem >> s}{u}" for u, s in (("G", 30), ("M", 20), ("K", 10)) if mem % (1 << s) == 0), str(mem))
    return (f"config: memory and clocks: mem={word} mem.pages={cfg['mem_pages']} mem.type={cfg['mem_type']} "
            f"regs={cfg['regs']} cache={cfg['cache']} prefetch={cfg['prefetch']} turbo={cfg['turbo']} "
            f"pstate={cfg['pstate']} sweep={cfg['sweep']}")


def mem_log(d, name="mem.log", settings=None, edit=None, tag=None):
    """The code= run's log with the settings and records (module docstring)
    written to d/name."""
    text = read(boot("code")).decode()
    if tag:
        text = another_run(text, tag)
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    hz = next(json.loads(ln)["hz"] for ln in lines if ln.startswith('{"rec":"tsc_rate"'))
    cfg = dict(CONFIG, **(settings or {}))
    recs = {"config": [cfg], "settings": settings_records(cfg, hz), "latency": points() + [levels(hz)]}
    if edit:
        edit(recs)
    cfg = recs["config"][0]
    out = []
    own = tuple('{"rec":"%s"' % k for k in ("mem_area", "cache_state", "prefetch", "clock_setting", "core_clock",
                                           "latency_point", "latency_levels"))
    for ln in lines:
        # the kernel's own lines and records of these kinds (the boot log has
        # some: core_clock, prefetch, R14's mem_area) give way to the ones above
        if ln.startswith(("config: memory and clocks:", "mem: ", "cache: ", "prefetch: ", "clock: ", "sweep: ",
                          "latency: ") + own):
            continue
        if ln.startswith('{"rec":"config"'):
            out.append(_line(dict(json.loads(ln), **cfg)))
            out += [_line(r) for r in recs["settings"]]
            continue
        if ln.startswith('{"rec":"end"'):
            out += [_line(r) for r in recs["latency"]]
        out.append(ln)
        if ln.startswith("config: ensembles="):
            out.append(config_line(cfg))
    return write(d, name, "\n".join(out))

"""tests/boot/t_code_size.py - code= at its largest (issue 21 items 16 and
19): a code= and an init= of 4,096 bytes each give records that are valid
JSON whole (the code record carries both in full, not cut at kprintf's
4 KiB buffer), and 4,096 bytes with unroll=100000, whose loops cannot fit
in memory, are refused at once: the sizing reads no copy (lib/codegen.c),
so the refusal comes within the boot, not after 105 s of silence."""
import time

from qemu import check, expect_complete, qemu

SMALL = "ensembles=2 samples=10 warmup=2 methods=cpuid workloads=add_chain_64 problems=ignore"


def test_longest_code_and_init_records_are_whole_json():
    """code= and init= of 4,096 bytes: every record parses, the code record holds both in full."""
    code, init = "90" * 4096, "4831c0" * 1365 + "90"  # xor rax, rax x 1365; nop
    rc, text = qemu("code-size-longest", "icount", f"{SMALL} code={code} init={init}")
    run = expect_complete(rc, text)  # fails on any record that is not valid JSON
    rec = run.one("code")
    check(rec["code"] == code and rec["init"] == init and rec["code_bytes"] == 4096,
          f"code record cut or changed: code {len(rec.get('code', ''))} hex digits, "
          f"init {len(rec.get('init', ''))}, code_bytes {rec.get('code_bytes')}", text)
    check(run.by("summary", method="cpuid", workload="code"), "the code workload was not measured", text)


def test_code_too_large_for_memory_refused_at_once():
    """4,096 bytes x unroll=100000 on 256 MiB: one line saying what the loops need and what is
    free, within the boot. Before item 19 the 14 loop variants were sized byte by byte: 105 s
    of silence on an idle host, past this test's 60 s bound."""
    t0 = time.monotonic()
    rc, text = qemu("code-size-refused", "q35-tcg", f"{SMALL} code={'90' * 4096} unroll=100000", timeout=60)
    took = time.monotonic() - t0
    lines = [l for l in text.replace("\r", "").split("\n")
             if l.startswith("config: the generated loops of code= x unroll=100000 need ")]
    check(len(lines) == 1 and "bytes of free memory; the code workload is left out" in lines[0],
          f"expected one refusal line with the sizes, got {lines}", text)
    need = int(lines[0].split(" need ")[1].split()[0])
    check(need > 3 * 4096 * 100000, f"the refusal says {need} bytes, less than the copies alone", text)
    print(f"refused; the whole boot took {took:.1f} s of wall time")

"""tests/boot/t_modern.py - the serializing sequences the SDM recommends
today, beside the paper's: exact under -icount, skipped with their reason
where the CPU lacks what they need."""
from qemu import ALL_METHODS, ICOUNT_OFFSETS, check, expect_complete, expect_method_ran, qemu


def test_icount_modern_methods_exact():
    """LFENCE methods under -icount on an Intel-vendor CPU: exact, ergodic;
    SERIALIZE skipped where CPUID.(EAX=07H,ECX=0):EDX[14] is 0."""
    rc, text = qemu("icount-modern", "icount-intel", "ensembles=8 samples=100 workloads=add_chain_64")
    run = expect_complete(rc, text)
    check(run.one("env")["vendor"] == "GenuineIntel", "not an Intel-vendor CPU", text)
    for m in ("lfence_rdtscp", "lfence"):
        s = expect_method_ran(run, m, 8, 100)
        check(s["min_of_mins"] == ICOUNT_OFFSETS[m] and s["var_of_vars"] == 0 and s["var_of_mins"] == 0,
              f"{m}: not exact under icount: {s}", text)
        check(run.one("verdict", method=m)["ergodic"], f"{m}: not ergodic", text)
        net = run.one("summary", method=m, workload="add_chain_64")["net_min"]
        check(net == 64, f"{m}: add_chain_64 net {net}, expected 64", text)
    if run.one("env")["serialize"]:
        expect_method_ran(run, "serialize", 8, 100)
    else:
        check("method serialize: SKIPPED: SERIALIZE is not supported (CPUID.(EAX=07H,ECX=0):EDX[14]=0)"
              in run.lines, "no skip line for serialize", text)
    end = run.one("end")
    check(end["methods_run"] + end["methods_skipped"] == len(ALL_METHODS), f"end {end}", text)


def test_methods_selection():
    """methods= runs just the methods named, in the table's order."""
    rc, text = qemu("methods-select", "q35-tcg-intel", "ensembles=3 samples=100 workloads=add_chain_64 "
                    "methods=cr0,lfence")
    run = expect_complete(rc, text)
    ran = [r["method"] for r in run.by("method", workload="empty")]
    check(ran == ["cr0", "lfence"], f"methods run: {ran}", text)

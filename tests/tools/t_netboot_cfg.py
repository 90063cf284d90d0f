"""tests/tools/t_netboot_cfg.py - tools/benchnetboot.py, the header of
`make netboot`'s grub.cfg (docs/LAB.md "A rack: results over the
network"): the collector on the server each machine booted from, with
--port and --token; one collector for all (--send), none (--send off),
more words (--words); what it refuses, each with its one line and exit
status 2, writing nothing. The header's GRUB script itself runs in the
boot tests (t_send.py send_netboot_*, t_bootpaths.py netboot_bios_pxe)."""
import os
import subprocess
import sys

from common import ROOT, check, workdir

TOOL = os.path.join(ROOT, "tools", "benchnetboot.py")
GRUB_CFG = os.path.join(ROOT, "iso", "grub.cfg")


def run(out, *args, cfg=GRUB_CFG):
    p = subprocess.run([sys.executable, TOOL, cfg, out] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def header_of(path):
    text = open(path).read()
    return text[:text.index("# iso/grub.cfg")], text


def test_netboot_cfg_default_server_port_token():
    d = workdir("netboot-cfg")
    out = os.path.join(d, "grub.cfg")
    rc, so, se = run(out, "--port", "9000", "--token", "rack-7e57", "--words", "after=reboot")
    check(rc == 0, f"exit status {rc}: {se}")
    head, text = header_of(out)
    want = '\tset bench_netboot="send=http://${net_default_server}:9000/?token=rack-7e57 after=reboot"\n'
    check(want in head and 'if [ -n "$net_default_server" ]; then\n' in head
          and 'set bench_netboot="after=reboot"\n' in head and head.rstrip().endswith("export bench_netboot"),
          f"the header:\n{head}")
    check(text.endswith(open(GRUB_CFG).read()), "iso/grub.cfg does not follow the header as it is")
    check(so.strip() == f"netboot: {out}: runs send to http://${{net_default_server}}:9000/ (the server each "
          "machine booted from), with the token; every entry also gets: after=reboot", f"printed: {so}")


def test_netboot_cfg_one_collector_or_none():
    d = workdir("netboot-cfg-send")
    out = os.path.join(d, "grub.cfg")
    rc, _, se = run(out, "--send", "http://192.168.1.10:8080/lab?token=T")
    check(rc == 0 and 'set bench_netboot="send=http://192.168.1.10:8080/lab?token=T"\n' in header_of(out)[0]
          and "net_default_server" not in header_of(out)[0].split("#")[-1], f"--send: {se}")
    rc, _, se = run(out, "--send", "off")
    check(rc == 0 and 'set bench_netboot="send=off"\n' in header_of(out)[0], f"--send off: {se}")


def test_netboot_cfg_refuses():
    d = workdir("netboot-cfg-bad")
    out = os.path.join(d, "grub.cfg")
    plain = os.path.join(d, "plain.cfg")
    with open(plain, "w") as f:
        f.write("menuentry x {\n\tmultiboot2 /boot/bench.elf $@\n}\n")
    cases = [
        (["--port", "0"], None, "--port 0: a TCP port is 1 to 65535"),
        (["--port", "65536"], None, "--port 65536: a TCP port is 1 to 65535"),
        (["--token", 'a"b'], None, "--token 'a\"b': 1 to 63 of A-Z a-z 0-9 . _ ~ -"),
        (["--token", "x" * 64], None, "1 to 63 of"),
        (["--words", "code=$x"], None, "--words: 'code=$x' holds a character GRUB's double quotes would not keep"),
        (["--words", "send=off"], None, "--words: 'send=off': give the collector with --send"),
        (["--send", "ftp://host/"], None, "--send 'ftp://host/': http://HOST[:PORT][/PATH][?token=T], or off"),
        ([], plain, "never uses $bench_netboot: its entries would not get the words"),
    ]
    for args, cfg, want in cases:
        if os.path.exists(out):
            os.remove(out)
        rc, so, se = run(out, *args, cfg=cfg or GRUB_CFG)
        check(rc == 2 and se.startswith("netboot: ") and want in se and not os.path.exists(out),
              f"{args}: exit status {rc}, wrote {os.path.exists(out)}, said {se!r}, wanted {want!r}")
